"""Rolls of the 20-sided die: the first-player roll (RU-5, RU-Q6) and each turn's roll (RU-6 to RU-9)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from companion.errors import InvalidAction, quoted
from companion.game import Action, Event
from companion.games.temple.state import TempleState
from companion.games.temple.turns import end_turn, to_move
from companion.phrases import number_runs, series

if TYPE_CHECKING:
    from companion.games.temple.rules import TempleGame


def roll_action(value: Any, colour: str) -> Action:
    text = "Die shows X" if value == "X" else f"Die shows {colour} {value}"  # a bare "red 1" said nothing
    return {"type": "roll", "value": value, "face": {"colour": colour}, "text": text}


def face_values(values: Iterable[Any]) -> str:
    """The values a die's faces show, as a refusal names them: "X or 1 to 7", "0 or 2 to 7" (a café's die).

    One wording for the referee and the dice simulator, which checks a script's rolls against the same die."""
    values = set(values)
    shows = number_runs([v for v in values if v != "X"])
    return f"X or {shows}" if "X" in values else shows


def next_first_roller(state: TempleState) -> str:
    done = {p for p, _ in state.first_rolls}
    return next(p for p in state.contenders if p not in done)


def read_roll(game: TempleGame, action: Action) -> tuple[Any, str]:
    value = action.get("value")
    if value != "X" and (isinstance(value, bool) or not isinstance(value, int)):
        raise InvalidAction(f'a roll needs "value": "X" or a number, not {quoted(value)}', "RU-2")
    values = {v for v, _ in game.outcomes}
    if value not in values:
        # A face the die lacks is named before its colour is asked for: a roll of 99 was "needs the colour".
        raise InvalidAction(f"the die shows {face_values(values)}, not {quoted(value)}", "RU-2")
    face = action.get("face")
    if isinstance(face, Mapping) and set(face) - {"colour"}:
        # Anything beside the colour was journalled with the roll and echoed back, meaning nothing.
        extra = ", ".join(quoted(k) for k in sorted(set(face) - {"colour"}))
        raise InvalidAction(f'a roll\'s "face" holds only its "colour", not {extra}', "RU-2")
    colour = face.get("colour") if isinstance(face, Mapping) else None
    if value == "X" and not (isinstance(face, Mapping) and "colour" in face):  # a null colour is no colour named
        colour = next((c for v, c in game.outcomes if v == "X"), "white")
    if colour not in ("red", "white"):
        # Said in words: a referee building "the die showed green" on the touchscreen read the JSON spelling,
        # '"face": {"colour": "red"} or {"colour": "white"}', where the table says "a red 3".
        given = f", not {quoted(colour)}" if colour is not None else ""
        raise InvalidAction(f"roll: say the colour of the face the die shows (red or white){given}", "RU-2")
    if (value, colour) not in game.face_weights:
        raise InvalidAction(f"the die has no {colour} {value} face", "RU-2")
    return value, colour


def apply_roll(game: TempleGame, state: TempleState, action: Action, events: list[Event]) -> TempleState:
    value, colour = read_roll(game, action)
    if state.phase == "first_roll":
        return first_roll(game, state, value, events)
    player = state.current
    name = player.capitalize()
    state = state.but(roll=(value, colour))
    if value == "X":
        events.append(Event("info", f"{name} rolls X: no card change and no move.", ("RU-9", "RU-Q27"), (player,)))
        return end_turn(game, state, events)
    if colour == "red":
        if state.hands[state.turn] == 0:
            events.append(
                Event(
                    "warning",
                    f"{name} rolls red {value} but holds no card to change.",
                    ("RU-7", "RU-Q25"),
                    (player,),
                )
            )
            return to_move(game, state, events)
        may = " (or leave the path as it is)" if state.option["change_optional"] else ""
        events.append(
            Event("info", f"{name} rolls red {value}: first replace one path card{may}.", ("RU-7", "RU-Q7"),
                  (player,))
        )
        return state.but(phase="change")
    events.append(Event("info", f"{name} rolls white {value}: no card change.", ("RU-8",), (player,)))
    return to_move(game, state, events)


def first_roll(game: TempleGame, state: TempleState, value: Any, events: list[Event]) -> TempleState:
    player = next_first_roller(state)
    if value == "X" and state.option["first_roll_x"] == "reroll" and game.one_number is not None:
        # Thrown again, an X left two players on a die whose numbers all show one value tied for ever
        # (15 to 17 of 30 random games never began); so it counts lowest, as RU-Q6 ranks it by default.
        events.append(
            Event(
                "info",
                f"{player.capitalize()} rolls X. It counts lowest here instead of being thrown again: every "
                f"number on this die is a {game.one_number}, so only an X can break a tie.",
                ("RU-5", "RU-Q6"),
                (player,),
            )
        )
    elif value == "X" and state.option["first_roll_x"] == "reroll":
        events.append(
            Event(
                "info",
                f"{player.capitalize()} rolls X, which does not count: roll again.",
                ("RU-5", "RU-Q6"),
                (player,),
            )
        )
        return state
    rolls = (*state.first_rolls, (player, value))
    if not (value == "X" and state.option["first_roll_x"] == "reroll"):  # else said above
        events.append(
            Event("info", f"{player.capitalize()} rolls {value} for the first turn.", ("RU-5",), (player,))
        )
    if len(rolls) < len(state.contenders):
        return state.but(first_rolls=rolls)
    rank = {p: (-1 if v == "X" else v) for p, v in rolls}
    best = max(rank.values())
    top = tuple(p for p in state.contenders if rank[p] == best)
    if len(top) > 1:
        events.append(
            # "Red, Blue and Green tie", as a sentence lists them: it read "Red and Blue and Green tie".
            Event("info", f"{series([p.capitalize() for p in top])} tie: they roll again.", ("RU-5", "RU-Q6"))
        )
        return state.but(contenders=top, first_rolls=())
    first = top[0]
    events.append(
        Event(
            "info",
            f"{first.capitalize()} rolled highest and plays first; play goes clockwise.",
            ("RU-5", "RU-Q28"),
            (first,),
        )
    )
    return state.but(phase="roll", turn=state.seat(first), contenders=(), first_rolls=())
