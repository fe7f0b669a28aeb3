"""A tiny dice race used to test the session, journal and protocol apart from any real game."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from companion.errors import IllegalAction, InvalidAction, InvalidPosition
from companion.game import DieSpec, Event, Game, GameData, OptionSpec, Pending

RULEBOOK = {
    "game": "race",
    "kind": "rulebook",
    "schema": 1,
    "title": "Test race",
    "clauses": [
        {"id": "R1", "title": "Turns", "text": "Players take turns in the order given."},
        {"id": "R2", "title": "Roll", "text": "The player rolls one die."},
        {"id": "R3", "title": "Advance or hold", "text": "The player then advances by the roll or holds."},
        {"id": "R4", "title": "Trap", "text": "Ending on the trap space sends a runner back to the start."},
        {"id": "R5", "title": "Goal", "text": "Reaching the goal wins at once."},
    ],
}


@dataclass(frozen=True)
class RaceState:
    players: tuple[str, ...]
    options: tuple[tuple[str, Any], ...]
    positions: tuple[int, ...]
    turn: int = 0
    roll: int | None = None
    winner: str | None = None


class Race(Game):
    id = "race"
    title = "Test race"
    min_players = 2
    max_players = 3
    colours = ("red", "blue", "green")
    dice = (DieSpec("d6", "six-sided die", tuple({"value": v} for v in range(1, 7))),)
    option_specs = (OptionSpec("goal", 12, (12, 20), "Spaces to the goal"),)
    profiles = {"standard": {}, "long": {"goal": 20}}
    sim_max_steps = 2000

    def __init__(self) -> None:
        super().__init__(GameData({"rulebook": RULEBOOK}, {"rulebook": "test"}))

    def setup(self, players: Sequence[str], options: Mapping[str, Any]) -> RaceState:
        return RaceState(tuple(players), tuple(sorted(options.items())), (0,) * len(players))

    def goal(self, state: RaceState) -> int:
        return dict(state.options)["goal"]

    def to_document(self, state: RaceState) -> dict[str, Any]:
        return {
            "game": "race",
            "players": list(state.players),
            "options": dict(state.options),
            "positions": list(state.positions),
            "turn": state.turn,
            "roll": state.roll,
            "winner": state.winner,
        }

    def from_document(self, document: Mapping[str, Any]) -> RaceState:
        problems = []
        players = document.get("players")
        positions = document.get("positions")
        if not isinstance(players, list) or len(players) < 2:
            problems.append("players: needs a list of 2-3 colours")
            players = []
        if not isinstance(positions, list) or len(positions) != len(players):
            problems.append("positions: needs one entry per player")
        elif any(not isinstance(p, int) or p < 0 for p in positions):
            problems.append("positions: each must be a whole number of spaces, 0 or more")
        if problems:
            raise InvalidPosition(problems)
        return RaceState(
            tuple(players),
            tuple(sorted(document.get("options", {"goal": 12}).items())),
            tuple(positions),
            document.get("turn", 0),
            document.get("roll"),
            document.get("winner"),
        )

    def pending(self, state: RaceState) -> Pending:
        if state.winner:
            return Pending("over", None, f"{state.winner} wins.", result={"winner": state.winner})
        player = state.players[state.turn]
        if state.roll is None:
            return Pending("roll", player, f"{player}: roll the die.", die="d6")
        return Pending("choose", player, f"{player}: advance {state.roll} or hold.")

    def legal_actions(self, state: RaceState) -> list[dict[str, Any]]:
        if state.winner:
            return []
        if state.roll is None:
            return [{"type": "roll", "value": v, "text": f"Rolled {v}"} for v in range(1, 7)]
        return [
            {"type": "advance", "text": f"Advance {state.roll}"},
            {"type": "hold", "text": "Hold"},
        ]

    def apply(self, state: RaceState, action: dict[str, Any]) -> tuple[RaceState, list[Event]]:
        player = state.players[state.turn]
        kind = action["type"]
        if kind not in ("roll", "advance", "hold"):
            raise InvalidAction(f"unknown action type {kind!r}")
        if state.winner:
            raise IllegalAction("the race is over", "R5")
        if kind == "roll":
            value = action.get("value")
            if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 6:
                raise InvalidAction("a d6 shows 1 to 6", "R2")
            if state.roll is not None:
                raise IllegalAction("the die has been rolled already; advance or hold", "R3")
            return replace(state, roll=value), [Event("info", f"{player} rolled {value}.", ("R2",), (player,))]
        if state.roll is None:
            raise IllegalAction("roll the die first", "R2")
        following = (state.turn + 1) % len(state.players)
        if kind == "hold":
            return replace(state, roll=None, turn=following), [Event("info", f"{player} holds.", ("R3",), (player,))]
        target = state.positions[state.turn] + state.roll
        events = [Event("move", f"{player} advances to {target}.", ("R3",), (player,))]
        winner = None
        if target >= self.goal(state):
            winner = player
            events.append(Event("win", f"{player} wins.", ("R5",), (player,)))
        elif target == 7:
            target = 0
            events.append(Event("penalty", f"{player} hits the trap and goes back to the start.", ("R4",), (player,)))
        positions = tuple(target if i == state.turn else p for i, p in enumerate(state.positions))
        return replace(state, positions=positions, roll=None, turn=following, winner=winner), events
