"""The temple path-card race (published as Ruin): turn order, card changes, moves and send-backs.

The table enters every chance event: the cards that fill the slots during
assembly, each roll of the 20-sided die (value and background colour) and the
card a player takes from their hidden hand to change the path. The engine
never shuffles: hands are hidden, so it only counts them.
"""

from __future__ import annotations

import json
import random
from collections.abc import Hashable, Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

from companion.errors import IllegalAction, InvalidAction, quoted
from companion.game import (
    Action,
    DieSpec,
    Event,
    Game,
    GameData,
    OnTable,
    OptionSpec,
    Pending,
    Ruling,
    normalize_action,
    refuse,
    shapes,
)
from companion.games.temple import INFO, document, moves
from companion.games.temple.board import COLOURS, Board, Layout
from companion.games.temple.schemas import SCHEMAS, cross_check
from companion.games.temple.state import Task, TempleState, pawn_label, pawn_name
from companion.phrases import number_runs, series

DIE_ID = "d20"
DECK_ID = "path"
HAND_SIZE = 3
HOUSE_DIE = Path(__file__).resolve().parent / "data" / "die.json"


def die_spec(die: Mapping[str, Any]) -> DieSpec:
    """One payload per face (duplicates kept), so the face list is also the distribution."""
    faces = tuple({"value": f["value"], "face": {"colour": f["colour"]}} for f in die["faces"])
    return DieSpec(DIE_ID, die.get("name", "20-sided temple die"), faces)


def _house_die() -> DieSpec:
    # The DieSpec is class metadata, so it comes from the house die; a café die
    # replaces it on the bound game object (``TempleGame.__init__``).
    return die_spec(json.loads(HOUSE_DIE.read_text(encoding="utf-8")))


OPTIONS = (
    OptionSpec(
        "first_roll_x",
        "lowest",
        ("lowest", "reroll"),
        "First-player roll: X counts lowest of all (lowest), or is thrown again as if it had not happened (reroll).",
        "RU-Q6",
    ),
    OptionSpec(
        "change_optional",
        False,
        (False, True),
        "After a red roll the card change is compulsory (false) or may be skipped (true).",
        "RU-Q7",
    ),
    OptionSpec(
        "change_under_own_pawn",
        True,
        (True, False),
        "A player may replace the card under one of their own pawns.",
        "RU-Q8",
    ),
    OptionSpec(
        "stair_owner_chooses",
        True,
        (True, False),
        "When a card change puts a pawn on a stairway, its owner (true) or the player changing (false) picks"
        " the stairway it goes to.",
        "RU-Q10",
    ),
    OptionSpec(
        "send_back_occupied",
        "skip",
        ("skip", "bump"),
        "A pawn sent back to an occupied idol marker skips to the next one (skip) or sends the occupant back"
        " in turn (bump).",
        "RU-Q12",
    ),
    OptionSpec(
        "pair_order",
        "furtherAheadFirst",
        ("furtherAheadFirst", "ownerChooses"),
        "Two pawns of one colour sent back together: the one further ahead takes the nearer marker, or the"
        " owner chooses.",
        "RU-Q13",
    ),
    OptionSpec(
        "must_use_full",
        True,
        (True, False),
        "A pawn must use the whole roll when a route that long exists (true) or may stop earlier (false).",
        "RU-Q16",
    ),
    OptionSpec(
        "roll1_mode",
        "orthogonal",
        ("orthogonal", "nextColumnAny3"),
        "A roll of 1 moves to any orthogonal neighbour, or to any of the three spaces of the next column.",
        "RU-Q17",
    ),
    OptionSpec(
        "stairs_respect_walls",
        False,
        (False, True),
        "A secret stairway may take a pawn anywhere (false), or not across its own wall, that is not more"
        " than half a lap away (true).",
        "RU-Q21",
    ),
    OptionSpec(
        "ak_occupied",
        "bump",
        ("bump", "forbid"),
        "The Ah Kinchil card sends a pawn to an occupied marker and the occupant back (bump), or cannot (forbid).",
        "RU-Q23",
    ),
)

ALTERNATIVES = {
    "first_roll_x": "reroll",
    "change_optional": True,
    "change_under_own_pawn": False,
    "stair_owner_chooses": False,
    "send_back_occupied": "bump",
    "pair_order": "ownerChooses",
    "must_use_full": False,
    "roll1_mode": "nextColumnAny3",
    "stairs_respect_walls": True,
    "ak_occupied": "forbid",
}


STAIR_ONTO_PAWN = ("RU-23", "RU-Q22")  # a stairway trip ends where a pawn stands (own pawn included)
AK_ONTO_PAWN = ("RU-Q23",)  # the Ah Kinchil card moves a pawn onto a taken marker (ak_occupied = bump)
CHANGE_OFF_PATH = ("RU-17",)  # a changed card puts a hole under a pawn
CHANGE_ONTO_STAIR = ("RU-22", "RU-Q10")  # a changed card puts a stairway under a pawn, which must take it
# What every send-back cites for where the pawn goes; a change choice names only why pawns go (the rest).
SEND_BACK_HOW = frozenset({"RU-18", "RU-Q11", "RU-20", "RU-21", "RU-Q15", "RU-Q33"})
PLAIN = frozenset({"path", "hole"})  # cells a send-back or a stairway trip never looks at


def _landing_rules(colour: str, occupant: tuple[str, int], stair: bool = False, step: bool = False) -> tuple[str, ...]:
    """The clauses of a move ending on a pawn: RU-Q18 too when that pawn is the mover's own.

    Audit: a move ending on a pawn that stood on a secret stairway cited only RU-12, though the
    rules give that case a clause of its own (RU-23: the pawn there goes back, then the mover takes
    the stairway; RU-Q22: even your own); a pawn finishing on its own other pawn on the final steps
    is RU-Q20's case.
    """
    rules = ["RU-12"]
    if stair:
        rules += STAIR_ONTO_PAWN
    if occupant[0] == colour:
        rules.append("RU-Q18")
        if step:
            rules.append("RU-Q20")
    return tuple(rules)


def _route_rule(problem: str) -> str:
    """The clause a refused route breaks.

    Audit: every route fault used to cite RU-11 (wall aside), so a route that stops short while a
    full-length one exists cited the stepping rule where the same refusal without a route cites
    RU-Q16; a route longer than the roll breaks the count (RU-10), and a roll of 1 read as the next
    column is the RU-Q17 option.
    """
    if "wall" in problem:
        return "RU-14"
    if "are possible" in problem:  # "uses 1 step where 3 are possible"
        return "RU-Q16"
    if "longer than the roll" in problem:
        return "RU-10"
    if "roll of 1" in problem:
        return "RU-Q17"
    return "RU-11"


class TempleGame(Game):
    """Rules of the temple race bound to a board, a deck and a die."""

    id: ClassVar[str] = INFO.id
    win_rules: ClassVar[tuple[str, ...]] = ("RU-1", "RU-16")
    title: ClassVar[str] = INFO.title
    min_players: ClassVar[int] = INFO.min_players
    max_players: ClassVar[int] = INFO.max_players
    players_rule: ClassVar[str | None] = "RU-Q31"
    actions_rule: ClassVar[str | None] = "RU-6"  # a turn: roll, change a card if asked, move; or Ah Kinchil
    turn_rule: ClassVar[str | None] = "RU-28"
    action_shapes = shapes(draw="deck card", roll="value face", ahkinchil="pawn", change="slot card",
                           skip_change="", move="pawn to route", stair="pawn to", order="first")
    colours: ClassVar[tuple[str, ...]] = COLOURS
    dice: ClassVar[tuple[DieSpec, ...]] = (_house_die(),)
    decks: ClassVar[tuple[str, ...]] = (DECK_ID,)
    option_specs: ClassVar[tuple[OptionSpec, ...]] = OPTIONS
    profiles: ClassVar[Mapping[str, Mapping[str, Any]]] = {"standard": {}, "alternatives": ALTERNATIVES}
    data_schemas: ClassVar[Mapping[str, Any]] = SCHEMAS
    ids_shown: ClassVar[frozenset[str]] = frozenset({"cards"})  # "P07" is written on its card's button
    sim_max_steps: ClassVar[int] = 20000

    def __init__(self, data: GameData) -> None:
        super().__init__(data)
        self.board = Board(data["board"], data["cards"])
        self.die = die_spec(data["die"])
        self.dice = (self.die,)  # type: ignore[misc]  # the bound game shows the die it really uses
        faces = [(f["value"], f["colour"]) for f in data["die"]["faces"]]
        self.outcomes: tuple[tuple[Any, str], ...] = tuple(dict.fromkeys(faces))
        self.face_weights: dict[tuple[Any, str], int] = {o: faces.count(o) for o in self.outcomes}
        self.total_cards = len(self.board.cards) + 1
        self._cell_names: dict[int, str] = {}
        numbers = {v for v, _ in self.outcomes if v != "X"}
        # With one number on the die every numbered first-player roll ties; only X can break it (RU-Q6).
        self.one_number: int | None = next(iter(numbers)) if len(numbers) == 1 else None

    @classmethod
    def cross_check(cls, files: Mapping[str, Any]) -> list[str]:
        return cross_check(files)

    # -- positions -----------------------------------------------------------
    def setup(self, players: Sequence[str], options: Mapping[str, Any]) -> TempleState:
        players = tuple(self.check_players(players))
        options = self.resolve_options(options)
        return TempleState(
            players=players,
            options=tuple(sorted(options.items())),
            phase="assembly",
            turn=0,
            slots=(None,) * len(self.board.slot_nodes),
            pawns=tuple((self.board.colours[c].entrance,) * 2 for c in players),
            hands=(0,) * len(players),
            pile=self.total_cards,
            discard=(),
        )

    def to_document(self, state: TempleState) -> dict[str, Any]:
        return document.to_document(self, state)

    def from_document(self, doc: Mapping[str, Any]) -> TempleState:
        return document.from_document(self, doc)

    def layout(self, state: TempleState) -> Layout:
        return self.board.layout(state.slots)

    def where(self, colour: str, node: int) -> str:
        """A place as players say it: a slot and card cell, a corner, a step."""
        if 0 <= node < self.board.cell_count:
            found = self._cell_names.get(node)
            if found is None:
                found = self._cell_names[node] = self._where(colour, node)
            return found
        return self._where(colour, node)

    def _where(self, colour: str, node: int) -> str:
        board = self.board
        if node == board.colours[colour].entrance:
            return "its Entrance Circles"
        if node == board.chamber:
            return "the Treasure Chamber"
        step = board.step_colour(node)
        if step:
            return f"{step[0]} step {step[1]}"
        x, y = board.xy(node)
        slot = board.slot_of.get(node)
        if slot is None:
            return f"[{x},{y}] (corner)"
        k = board.slot_nodes[slot].index(node)
        return f"[{x},{y}] (slot {board.slot_numbers[slot]} r{k // 3}c{k % 3})"

    def _cell(self, colour: str, node: int) -> str:
        """A place said shortest: a cell by its coordinates alone ("[3,1]", not "[3,1] (slot 1 r1c0)")."""
        return self.where(colour, node).split(" (", 1)[0]

    def stairway(self, colour: str, node: int) -> str:
        """A secret stairway as a player finds it on the table: "the secret stairway at [7,1] (slot 2 r1c1)".

        Audit: "Red 1 takes a secret stairway", "pick the stairway Red 1 takes" and "was on that
        stairway" left a table with several stairways on the board asking which one.
        """
        return f"the secret stairway at {self.where(colour, node)}"

    def _stair_way(self, colour: str, start: int, dest: int) -> str:
        """Where a trip from the stairway at ``start`` to the one at ``dest`` takes the pawn: forward or back
        along its own lap, as the Ah Kinchil card's choices say it ("forward to its Ah Kinchil marker")."""
        progress = self.board.progress[colour]
        if progress[dest] > progress[start]:
            return "forward"
        return "back" if progress[dest] < progress[start] else "across"

    def _stair_leads(self, state: TempleState, colour: str, node: int, mover: tuple[str, int]) -> str:
        """What a move ending on the stairway at ``node`` adds to its text: where the stairway leads.

        One other stairway: the trip is made at once, so the text names the destination and the
        pawn standing there, who goes back (not ``mover``, which has left its space). Several: how
        many there are to pick from. None: the pawn stays (RU-24).
        """
        dests = self._stair_destinations(state, colour, node)
        if not dests:
            if self._stairs_too_far(state, node):
                return ", on a secret stairway whose others are all more than half a lap away: it stays [RU-24, RU-Q21]"
            return ", on a secret stairway with no other to reach: it stays [RU-24]"
        if len(dests) > 1:
            return f", then up the secret stairway there to one of {len(dests)} others [RU-22]"
        occupant = self._occupied(state).get(dests[0])
        return (
            f", then up the secret stairway there {self._stair_way(colour, node, dests[0])} to"
            f" {self.where(colour, dests[0])} [RU-22, RU-Q21]"
            f"{self._sends_back([None if occupant == mover else occupant], STAIR_ONTO_PAWN)}"
        )

    # -- what happens next -----------------------------------------------------
    def pending(self, state: TempleState) -> Pending:
        phase = state.phase
        if phase == "over":
            return Pending("over", None, f"{state.winner.capitalize()} wins.", result={"winner": state.winner})
        if phase == "assembly":
            slot = self._next_slot(state)
            return Pending("draw", None, f"Draw a card for slot {slot} (curved edge out).", deck=DECK_ID)
        if phase == "first_roll":
            who = self._next_first_roller(state)
            return Pending("roll", who, f"{who.capitalize()}: roll for the first turn.", die=DIE_ID)
        player = state.current
        name = player.capitalize()
        if phase == "roll":
            # Audit: offered whenever the card was not in the discard pile, even when it had no pawn to move (a
            # pawn in the chamber, one on its marker, rivals not past theirs), and then every play was refused.
            extra = " (or play the Ah Kinchil card)" if self._ak_targets(state) else ""
            return Pending("roll", player, f"{name}: roll the die{extra}.", die=DIE_ID)
        if phase == "change":
            rolled = f"red {state.roll[0]}" if state.roll else "a red number"  # the die's face, not the player Red
            # Audit: with change_optional the text still said "first replace", as if leaving the path were refused.
            may = ", or leave the path as it is" if state.option["change_optional"] else ""
            return Pending("choose", player, f"{name}: {rolled} rolled; first replace one path card with one from "
                                             f"your hand{may}.")
        if phase == "move":
            return Pending("choose", player, f"{name}: move a pawn {state.roll[0]}.")
        task = state.tasks[0]
        if task.kind == "stair":
            who = pawn_label(task.colour, task.pawns[0])
            return Pending(
                "choose",
                task.chooser,
                f"{task.chooser.capitalize()}: {who} is on {self.stairway(task.colour, task.node)};"
                " pick the stairway it comes out at.",
            )
        return Pending(
            "choose",
            task.chooser,
            f"{task.colour.capitalize()}: the new card leaves both {task.colour} pawns off the path; which goes back"
            f" to the nearer marker?{self._waiting_after(state)}",
        )

    @staticmethod
    def _waiting_after(state: TempleState) -> str:
        """What the pair question adds when later colours' pawns wait on their holes behind it (RU-Q14).

        Audit: the question named only the owner's two pawns, so the owner chose not knowing that Blue 1 goes
        back after them, to the markers as the choice leaves them (under bump it may bump the pawn the choice
        just sent there). The choices themselves say where the two go (``_order_text``).
        """
        waiting = [pawn_label(t.colour, i) for t in state.tasks[1:] if t.kind == "off" for i in t.pawns]
        if not waiting:
            return ""
        goes = "goes" if len(waiting) == 1 else "go"
        return f" {series(waiting)} {goes} back after this choice [RU-Q14]."

    def legal_actions(self, state: TempleState) -> list[Action]:
        phase = state.phase
        if phase == "over":
            return []
        if phase == "assembly":
            on_board = set(state.slots)
            slot = self._next_slot(state)
            out = [
                {"type": "draw", "deck": DECK_ID, "card": card, "text": f"{card} for slot {slot}"}
                for card in self.board.card_order
                if card not in on_board
            ]
            out.append({"type": "draw", "deck": DECK_ID, "card": self.board.ak_card, "text": "Ah Kinchil card"})
            return out
        if phase in ("first_roll", "roll"):
            out = [self._roll_action(v, c) for v, c in self.outcomes]
            if phase == "roll":
                out.extend(self._ak_actions(state))
            return out
        if phase == "change":
            return self._change_actions(state)
        if phase == "move":
            return self._move_actions(state)
        return self._task_actions(state)

    def _roll_action(self, value: Any, colour: str) -> Action:
        text = "Die shows X" if value == "X" else f"Die shows {colour} {value}"  # a bare "red 1" said nothing
        return {"type": "roll", "value": value, "face": {"colour": colour}, "text": text}

    def _next_slot(self, state: TempleState) -> int:
        return state.slots.index(None) + 1

    def _next_first_roller(self, state: TempleState) -> str:
        done = {p for p, _ in state.first_rolls}
        return next(p for p in state.contenders if p not in done)

    def _ak_in_discard(self, state: TempleState) -> bool:
        return self.board.ak_card in state.discard

    # -- actions ----------------------------------------------------------------
    def over_rule(self, state: TempleState) -> str | None:
        return "RU-16"  # the win that ended it, as the refusal of a well-formed action after the end (apply)

    def apply(self, state: TempleState, action: Action) -> tuple[TempleState, list[Event]]:
        return self._take(state, action)

    def _take(self, state: TempleState, action: Action, queued: bool = True) -> tuple[TempleState, list[Event]]:
        """``apply``; ``queued`` False changes cards as the companion before RU-Q14's order did (``old_step``)."""
        action = normalize_action(action, self.turn_rule)
        kind = action["type"]
        handler = {
            "draw": self._apply_draw,
            "roll": self._apply_roll,
            "ahkinchil": self._apply_ak,
            "change": self._apply_change if queued else self._apply_change_at_once,
            "skip_change": self._apply_skip_change,
            "move": self._apply_move,
            "stair": self._apply_stair,
            "order": self._apply_order,
        }.get(kind)
        if handler is None:
            raise InvalidAction(
                f"unknown action type {quoted(kind)}; "
                "types: draw, roll, ahkinchil, change, skip_change, move, stair, order"
            )
        pending = self.pending(state)
        expected = {
            "assembly": ("draw",),
            "first_roll": ("roll",),
            "roll": ("roll", "ahkinchil"),
            "change": ("change", "skip_change"),
            "move": ("move",),
            "resolve": ("stair",) if state.tasks and state.tasks[0].kind == "stair" else ("order",),
            "over": (),
        }[state.phase]
        if state.phase == "over":
            raise refuse(f"The game is over: {state.winner.capitalize()} has won.", "RU-16")
        if kind not in expected:
            if kind == "ahkinchil" and state.phase in ("change", "move", "resolve"):
                raise refuse("The Ah Kinchil card replaces the roll; once the die is rolled it waits.", "RU-Q27")
            raise refuse(f"Not now: {pending.text}", self._phase_rule(state))
        who = action.get("player")
        if who is not None and (not isinstance(who, str) or who not in state.players):
            # A colour nobody plays is a slip of the pen, not a question of whose turn it is.
            raise InvalidAction(f"{quoted(who)} is not playing; players: {', '.join(state.players)}", "RU-28")
        if who is not None and pending.player is not None and who != pending.player:
            # Named as the table says it ("Blue"), like every other text; the id is for actions only.
            raise refuse(f"It is not {who.capitalize()}'s turn to act: {pending.text}", "RU-28")
        events: list[Event] = []
        new_state = handler(state, action, events)
        return new_state, events

    def where_rules(self, state: TempleState, action: Action) -> tuple[str, ...]:
        """The clause of the step asked for now: a roll (or the Ah Kinchil card instead) RU-6, not what an X
        does; the card change RU-7, a move RU-10, a stairway RU-22."""
        return (self._phase_rule(state),)

    def _phase_rule(self, state: TempleState) -> str:
        return {
            "assembly": "RU-3",
            "first_roll": "RU-5",
            "roll": "RU-6",
            "change": "RU-7",
            "move": "RU-10",
            "resolve": "RU-22" if state.tasks and state.tasks[0].kind == "stair" else "RU-19",
        }.get(state.phase, "RU-6")

    # assembly -------------------------------------------------------------
    def _apply_draw(self, state: TempleState, action: Action, events: list[Event]) -> TempleState:
        if action.get("deck", DECK_ID) != DECK_ID:
            raise InvalidAction(f"the temple has one deck, {quoted(DECK_ID)}, not {quoted(action.get('deck'))}", "RU-2")
        card = action.get("card")
        if not isinstance(card, str):
            raise InvalidAction('a draw needs "card": a card id')
        slot = self._next_slot(state)
        if card == self.board.ak_card:
            events.append(
                Event("info", f"The Ah Kinchil card goes back into the deck; draw again for slot {slot}.", ("RU-3",))
            )
            return state
        if card not in self.board.cards:
            raise InvalidAction(f"no path card {quoted(card)} in the temple deck", "RU-2")
        if card in state.slots:
            raise refuse(f"{card} is already in slot {state.slots.index(card) + 1}.", "RU-3")
        slots = list(state.slots)
        slots[slot - 1] = card
        state = state.but(slots=tuple(slots), pile=state.pile - 1)
        events.append(Event("info", f"{card} goes into slot {slot}.", ("RU-3",)))
        if None in state.slots:
            return state
        n = len(state.players)
        events.append(Event("info", f"The path is laid. Deal {HAND_SIZE} cards face down to each player.", ("RU-4",)))
        return state.but(
            phase="first_roll",
            hands=(HAND_SIZE,) * n,
            pile=state.pile - HAND_SIZE * n,
            contenders=state.players,
            first_rolls=(),
        )

    # rolls ------------------------------------------------------------------
    def _read_roll(self, action: Action) -> tuple[Any, str]:
        value = action.get("value")
        if value != "X" and (isinstance(value, bool) or not isinstance(value, int)):
            raise InvalidAction(f'a roll needs "value": "X" or a number, not {quoted(value)}', "RU-2")
        face = action.get("face")
        if isinstance(face, Mapping) and set(face) - {"colour"}:
            # Anything beside the colour was journalled with the roll and echoed back, meaning nothing.
            extra = ", ".join(quoted(k) for k in sorted(set(face) - {"colour"}))
            raise InvalidAction(f'a roll\'s "face" holds only its "colour", not {extra}', "RU-2")
        colour = face.get("colour") if isinstance(face, Mapping) else None
        if colour is None and value == "X":
            colour = next((c for v, c in self.outcomes if v == "X"), "white")
        if colour not in ("red", "white"):
            raise InvalidAction('a roll needs "face": {"colour": "red"} or {"colour": "white"}', "RU-2")
        if (value, colour) not in self.face_weights:
            raise InvalidAction(f"the die has no {colour} {value} face", "RU-2")
        return value, colour

    def _apply_roll(self, state: TempleState, action: Action, events: list[Event]) -> TempleState:
        value, colour = self._read_roll(action)
        if state.phase == "first_roll":
            return self._first_roll(state, value, events)
        player = state.current
        name = player.capitalize()
        state = state.but(roll=(value, colour))
        if value == "X":
            events.append(Event("info", f"{name} rolls X: no card change and no move.", ("RU-9", "RU-Q27"), (player,)))
            return self._end_turn(state, events)
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
                return self._to_move(state, events)
            may = " (or leave the path as it is)" if state.option["change_optional"] else ""
            events.append(
                Event("info", f"{name} rolls red {value}: first replace one path card{may}.", ("RU-7", "RU-Q7"),
                      (player,))
            )
            return state.but(phase="change")
        events.append(Event("info", f"{name} rolls white {value}: no card change.", ("RU-8",), (player,)))
        return self._to_move(state, events)

    def _first_roll(self, state: TempleState, value: Any, events: list[Event]) -> TempleState:
        player = self._next_first_roller(state)
        if value == "X" and state.option["first_roll_x"] == "reroll" and self.one_number is not None:
            # Thrown again, an X left two players on a die whose numbers all show one value tied for ever
            # (15 to 17 of 30 random games never began); so it counts lowest, as RU-Q6 ranks it by default.
            events.append(
                Event(
                    "info",
                    f"{player.capitalize()} rolls X. It counts lowest here instead of being thrown again: every "
                    f"number on this die is a {self.one_number}, so only an X can break a tie.",
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
                Event("info", f"{' and '.join(p.capitalize() for p in top)} tie: they roll again.", ("RU-5", "RU-Q6"))
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

    # the Ah Kinchil card -----------------------------------------------------------
    def _ak_targets(self, state: TempleState) -> list[tuple[str, int, int]]:
        """(colour, pawn, marker) the Ah Kinchil card may move now."""
        if self._ak_in_discard(state) or state.hands[state.turn] == 0:
            return []
        board = self.board
        occupied = self._occupied(state)
        out = []
        for colour, i, node in state.all_pawns():
            marker = board.ak_idol.get(colour)
            if marker is None or node == board.chamber or node == marker:
                continue
            if colour != state.current and board.progress[colour][node] <= board.progress[colour][marker]:
                continue
            if marker in occupied and state.option["ak_occupied"] == "forbid":
                continue
            out.append((colour, i, marker))
        return out

    def _ak_actions(self, state: TempleState) -> list[Action]:
        out = []
        occupied = self._occupied(state)
        progress = self.board.progress
        for colour, i, marker in self._ak_targets(state):
            # Audit: an own pawn already past its marker was offered "forward to its Ah Kinchil marker" (RU-Q23
            # lets it go back, pointless as that is); the card says which way the pawn would really go.
            ahead = progress[colour][marker] > progress[colour][state.pawn_at(colour, i)]
            verb = "forward" if ahead else "back"
            occupant = occupied.get(marker)
            out.append(
                {
                    "type": "ahkinchil",
                    "pawn": pawn_name(colour, i),
                    "text": f"Play the Ah Kinchil card: {pawn_label(colour, i)} {verb} to its Ah Kinchil marker"
                    f" {self.where(colour, marker)}{self._sends_back([occupant], AK_ONTO_PAWN)}",
                }
            )
        return out

    def _apply_ak(self, state: TempleState, action: Action, events: list[Event]) -> TempleState:
        colour, i = self._read_pawn(state, action.get("pawn"))
        board = self.board
        player = state.current
        if self._ak_in_discard(state):
            raise refuse("The Ah Kinchil card lies face up in the discard pile, so nobody holds it.", "RU-25")
        if state.hands[state.turn] == 0:
            raise refuse(f"{player.capitalize()} holds no cards.", "RU-25")
        node = state.pawn_at(colour, i)
        marker = board.ak_idol.get(colour)
        label = pawn_label(colour, i)
        if marker is None:
            raise refuse(f"The board has no Ah Kinchil marker for {colour}.", "RU-21")
        if node == board.chamber:
            raise refuse(f"{label} is in the Treasure Chamber, where nothing can move it.", "RU-25")
        if node == marker:
            raise refuse(f"{label} already stands on its Ah Kinchil marker.", "RU-25")
        if colour != player and board.progress[colour][node] <= board.progress[colour][marker]:
            raise refuse(f"{label} is not past its Ah Kinchil marker, so the card cannot send it back there.", "RU-Q23")
        occupant = self._occupied(state).get(marker)
        if occupant is not None and state.option["ak_occupied"] == "forbid":
            # Audit: "Blue 1 stands on that marker." named neither the marker nor why that stops the card.
            raise refuse(
                f"{pawn_label(*occupant)} stands on the {colour} Ah Kinchil marker {self.where(colour, marker)}, and"
                f" under this game's rules (ak_occupied = forbid) the card cannot move {label} onto a taken marker.",
                "RU-Q23",
            )
        verb = "moves" if colour == player else "sends"
        text = (
            f"{player.capitalize()} plays the Ah Kinchil card: {label} moves to its Ah Kinchil marker "
            f"{self.where(colour, marker)}."
            if colour == player
            else f"{player.capitalize()} plays the Ah Kinchil card and {verb} {label} back to its Ah Kinchil marker "
            f"{self.where(colour, marker)}."
        )
        events.append(Event("reward" if colour == player else "penalty", text, ("RU-25", "RU-21"), (player, colour)))
        state = state.with_pawn(colour, i, marker)  # first, as in a send-back (see _send_back)
        if occupant is not None:
            state = self._send_back(state, [occupant], events, AK_ONTO_PAWN)
        state = state.but(discard=(*state.discard, board.ak_card))
        state = self._draw_one(state, state.turn, events, just_played=True)
        return self._end_turn(state, events)

    # the card change ----------------------------------------------------------------
    def _allowed_slots(self, state: TempleState) -> list[int]:
        if state.option["change_under_own_pawn"]:
            return list(range(len(state.slots)))
        own = {n for n in state.pawns[state.turn]}
        return [i for i, nodes in enumerate(self.board.slot_nodes) if not own.intersection(nodes)]

    def _change_actions(self, state: TempleState) -> list[Action]:
        """Every slot with every card not known to be elsewhere, each saying what it does to the pawns there.

        Cached with the move lists (on the layout), under who stands where: a
        change played out for its text costs a layout of its own.
        """
        key = ("changes", state.pawns, state.turn, state.discard, state.hands[state.turn] > 0, state.options)
        cache = self.layout(state)._moves
        cached = cache.get(key)
        if cached is None:
            cached = cache[key] = self._list_changes(state)
        return [dict(a) for a in cached]

    def _list_changes(self, state: TempleState) -> list[Action]:
        board = self.board
        out: list[Action] = []
        if state.hands[state.turn] > 0:
            blocked = set(state.slots) | set(state.discard)
            cards = [c for c in board.card_order if c not in blocked]
            standing = {node for _, _, node in state.all_pawns()}
            for i in self._allowed_slots(state):
                number = board.slot_numbers[i]
                head = f"Slot {number}: {state.slots[i]} out, "
                under = [k for k, node in enumerate(board.slot_nodes[i]) if node in standing]
                told: dict[tuple[str, ...], str] = {}
                for card in cards:
                    cells = board.cards[card]
                    # Only a hole or a stairway under a pawn does anything to it (an island keeps it, RU-Q29).
                    said = ""
                    if any(cells[k] in ("hole", "stair") for k in under):
                        # Send-backs and stairway trips go by what stands under the pawns, the idol markers and
                        # the stairways, not by the plain cells elsewhere: cards alike in those are told once.
                        alike = tuple(c if k in under or c not in PLAIN else "" for k, c in enumerate(cells))
                        said = told.get(alike)
                        if said is None:
                            said = told[alike] = self._change_effects(state, i, card)
                    out.append({"type": "change", "slot": number, "card": card, "text": f"{head}{card} in{said}"})
        if state.option["change_optional"] or not out:
            out.append({"type": "skip_change", "text": "Leave the path as it is"})
        return out

    def _apply_skip_change(self, state: TempleState, action: Action, events: list[Event]) -> TempleState:
        if not state.option["change_optional"] and self._can_change(state):
            raise refuse("After a red roll one path card must be replaced.", "RU-Q7")
        events.append(
            Event("info", f"{state.current.capitalize()} leaves the path as it is.", ("RU-Q7",), (state.current,))
        )
        return self._to_move(state, events)

    def _can_change(self, state: TempleState) -> bool:
        """Whether any change is possible: a card in hand, a slot allowed, a card not known to be elsewhere."""
        if state.hands[state.turn] == 0 or not self._allowed_slots(state):
            return False
        known_elsewhere = sum(1 for c in state.slots if c is not None) + sum(
            1 for c in state.discard if c != self.board.ak_card
        )
        return known_elsewhere < len(self.board.cards)

    def _apply_change(
        self, state: TempleState, action: Action, events: list[Event], queued: bool = True
    ) -> TempleState:
        board = self.board
        number = action.get("slot")
        if isinstance(number, bool) or number not in board.slot_numbers:
            raise InvalidAction(
                f"slot must be one of {min(board.slot_numbers)}-{max(board.slot_numbers)}, not {quoted(number)}"
            )
        card = action.get("card")
        if not isinstance(card, str):
            raise InvalidAction('a change needs "card": a card id')
        if card == board.ak_card:
            raise refuse("The Ah Kinchil card never goes into a slot; it is played instead of rolling.", "RU-Q24")
        if card not in board.cards:
            raise InvalidAction(f"no path card {quoted(card)} in the temple deck", "RU-2")
        if card in state.slots:
            raise refuse(
                f"{card} is already on the board, in slot {board.slot_numbers[state.slots.index(card)]}.", "RU-7"
            )
        if card in state.discard:
            raise refuse(f"{card} lies face up in the discard pile, so no hand holds it.", "RU-26")
        player = state.current
        if state.hands[state.turn] == 0:
            raise refuse(f"{player.capitalize()} holds no card to put in.", "RU-Q25")
        index = board.slot_numbers.index(number)
        if index not in self._allowed_slots(state):
            raise refuse(f"Slot {number} holds one of {player.capitalize()}'s own pawns.", "RU-Q8")
        old = state.slots[index]
        slots = list(state.slots)
        slots[index] = card
        hands = list(state.hands)
        hands[state.turn] -= 1
        state = state.but(slots=tuple(slots), discard=(*state.discard, old), hands=tuple(hands))
        events.append(
            Event(
                "info",
                f"{player.capitalize()} replaces {old} in slot {number} with {card}; {old} goes to the discard pile.",
                ("RU-7",),
                (player,),
            )
        )
        state = self._draw_one(state, state.turn, events)
        return self._after_change(state, index, events, queued)

    def _apply_change_at_once(self, state: TempleState, action: Action, events: list[Event]) -> TempleState:
        """A change as the companion before RU-Q14's order made it: the later colours went back at once."""
        return self._apply_change(state, action, events, queued=False)

    def _draw_one(self, state: TempleState, seat: int, events: list[Event], just_played: bool = False) -> TempleState:
        """The player who used a card draws one; an empty pile is refilled from the discard first."""
        pile, discard = state.pile, state.discard
        if pile == 0 and discard:
            events.append(
                Event("info", "The draw pile is empty: shuffle the discard pile to make a new one.", ("RU-26",))
            )
            pile, discard = len(discard), ()
        hands = list(state.hands)
        if just_played:
            hands[seat] -= 1
        if pile:
            pile -= 1
            hands[seat] += 1
        else:
            events.append(Event("warning", "No card is left to draw; play goes on with a short hand.", ("RU-Q25",)))
        return state.but(pile=pile, discard=discard, hands=tuple(hands))

    def _after_change(self, state: TempleState, index: int, events: list[Event], queued: bool = True) -> TempleState:
        """Pawns on a new hole go back; pawns on a new stairway must take it (RU-Q10 order); then the move."""
        state = self._settle_change(state, index, events, queued)
        return state if state.tasks else self._after_tasks(state, events)  # tasks left: a choice waits

    def _settle_change(self, state: TempleState, index: int, events: list[Event], queued: bool = True) -> TempleState:
        """What the card now in slot ``index`` does to the pawns there, up to the first choice it asks for.

        The change choices are labelled from this very code (``_change_effects``), so a
        choice cannot say one thing and the change do another. ``queued`` False: the later colours' send-backs
        do not wait for an earlier colour's pair choice, as before RU-Q14's order (only ``old_step`` asks it).
        """
        board = self.board
        layout = self.layout(state)
        nodes = set(board.slot_nodes[index])
        order = [state.players[(state.turn + k) % len(state.players)] for k in range(len(state.players))]
        backs: list[Task] = []
        stairs: list[Task] = []
        for colour in order:
            pair = state.pawns[state.seat(colour)]
            off = [i for i, n in enumerate(pair) if n in nodes and not layout.walkable[n]]
            if off and backs and queued:
                # A choice of an earlier colour waits: this colour's send-back waits behind it (RU-Q14).
                prog = board.progress[colour]
                off.sort(key=lambda i: -prog[pair[i]])
                events.append(self._waits_behind(backs[0].colour, colour, off))
                backs.append(Task("off", colour, tuple(off), -1, colour))
            elif len(off) == 2 and state.option["pair_order"] == "ownerChooses" and self._order_matters(state, colour):
                backs.append(Task("back", colour, (0, 1), -1, colour))
            elif off:
                prog = board.progress[colour]
                off.sort(key=lambda i: -prog[pair[i]])
                events.append(
                    Event(
                        "warning",
                        f"The new card leaves {' and '.join(pawn_label(colour, i) for i in off)} off the path.",
                        CHANGE_OFF_PATH,
                        (colour,),
                    )
                )
                state = self._send_back(state, [(colour, i) for i in off], events, CHANGE_OFF_PATH)
            for i, n in enumerate(pair):
                if n in nodes and layout.kind(n) == "stair":
                    chooser = colour if state.option["stair_owner_chooses"] else state.current
                    events.append(
                        Event(
                            "info",
                            f"The new card puts {pawn_label(colour, i)} on {self.stairway(colour, n)}: it takes"
                            " it if there is another.",
                            CHANGE_ONTO_STAIR,
                            (colour,),
                        )
                    )
                    stairs.append(Task("stair", colour, (i,), n, chooser))
        return self._run_tasks(state.but(tasks=(*backs, *stairs), after="move"), events)

    @staticmethod
    def _waits_behind(chooser: str, colour: str, off: Sequence[int]) -> Event:
        """The announcement that a colour's send-back waits for an earlier colour's pair choice (RU-Q14).

        Audit: with pair_order = ownerChooses the later colours' pawns went back at once, before the owner's
        choice, and with send_back_occupied = bump two pawns heading for one marker then ended the other way round
        from RU-Q14's order (the active player first, then clockwise).
        """
        them = " and ".join(pawn_label(colour, i) for i in off)
        goes = "it goes" if len(off) == 1 else "they go"
        return Event(
            "warning",
            f"The new card leaves {them} off the path too; {goes} back once {chooser.capitalize()} has chosen,"
            " as send-backs go colour by colour from the player whose turn it is.",
            (*CHANGE_OFF_PATH, "RU-Q14"),
            (colour,),
        )

    def _order_matters(self, state: TempleState, colour: str) -> bool:
        """Whether it makes a difference which of the colour's two pawns takes the nearer marker (RU-Q13).

        Audit: with pair_order = ownerChooses the owner was asked "which goes back to the nearer marker?" even
        when no marker lay behind either pawn, between two choices that both read "Red 1 back to its Entrance
        Circles, Red 2 back to its Entrance Circles".
        """
        first = self._send_back(state, [(colour, 0), (colour, 1)], [], CHANGE_OFF_PATH)
        return first.pawns != self._send_back(state, [(colour, 1), (colour, 0)], [], CHANGE_OFF_PATH).pawns

    def _change_effects(self, state: TempleState, index: int, card: str) -> str:
        """What a change choice adds to its text: the pawns it sends back or up a stairway, with the clauses.

        Audit: a card putting a hole under a pawn sent it back with no word in the
        choice; the players learnt it once the change was made. The change is played
        out by ``_settle_change`` on a copy; ``_change_actions`` asks only when the card
        puts a hole or a stairway under a pawn (else nothing happens).
        """
        swapped = self.board.layout_with(self.layout(state), index, card)  # so _settle_change finds it built
        events: list[Event] = []
        after = self._settle_change(state.but(slots=swapped.slots), index, events)
        back_rules = [r for e in events if e.kind in ("warning", "penalty") for r in e.rules if r not in SEND_BACK_HOW]
        travellers: list[tuple[str, int]] = []
        back: list[tuple[str, int]] = []
        for task in after.tasks:
            if task.kind == "stair":
                travellers.append((task.colour, task.pawns[0]))
            elif task.kind == "off":  # waits behind an earlier colour's choice (RU-Q14)
                back.extend((task.colour, i) for i in task.pawns)
            else:  # the owner picks which of the two takes the nearer marker (RU-Q13)
                back.extend((task.colour, i) for i in task.pawns)
                back_rules.extend((*CHANGE_OFF_PATH, "RU-19", "RU-Q13"))
        stair_rules = [r for e in events if e.kind == "move" for r in e.rules]
        stairs = set(self.layout(after).stairs)
        for colour, i, node in state.all_pawns():
            now = after.pawn_at(colour, i)
            if now == node or (colour, i) in back:
                continue
            # A send-back ends on an idol marker or the Entrance Circles, a stairway trip on a stairway.
            (travellers if now in stairs else back).append((colour, i))
        text = self._sends_back(back, tuple(dict.fromkeys(back_rules)))
        if travellers:
            rules = tuple(dict.fromkeys([*CHANGE_ONTO_STAIR, *stair_rules]))
            trips = []
            for colour, i in travellers:
                node = state.pawn_at(colour, i)
                now = after.pawn_at(colour, i)
                if now == node:  # waiting for its owner's (or the changer's) pick
                    count = len(self._stair_destinations(after, colour, node))
                    leads = f" to one of {count} others"
                else:
                    leads = f" {self._stair_way(colour, node, now)} to {self.where(colour, now)}"
                trips.append(f"{pawn_label(colour, i)} takes {self.stairway(colour, node)}{leads}")
            text += f", {', '.join(trips)} [{', '.join(rules)}]"
        return text

    # moves ----------------------------------------------------------------------------
    def _moves(self, state: TempleState, colour: str, node: int, steps: int, walls: bool = True) -> dict:
        opt = state.option
        return moves.reachable(
            self.board, self.layout(state), colour, node, steps, opt["must_use_full"], opt["roll1_mode"], walls
        )

    def _pawn_moves(self, state: TempleState) -> list[tuple[int, dict]]:
        colour = state.current
        steps = state.roll[0]
        out = []
        for i, node in enumerate(state.pawns[state.turn]):
            if node == self.board.chamber:
                continue
            found = self._moves(state, colour, node, steps)
            if found:
                out.append((i, found))
        return out

    def _move_actions(self, state: TempleState) -> list[Action]:
        colour = state.current
        board = self.board
        layout = self.layout(state)
        steps = state.roll[0]
        opt = state.option
        occupied = self._occupied(state)
        stairs = set(layout.stairs)
        out: list[Action] = []
        for i, node in enumerate(state.pawns[state.turn]):
            if node == board.chamber:
                continue
            key = ("actions", colour, i, node, steps, opt["must_use_full"], opt["roll1_mode"])
            cached = layout._moves.get(key)
            if cached is None:
                found = self._moves(state, colour, node, steps)
                label = pawn_label(colour, i)
                cached = layout._moves[key] = [
                    (
                        end,
                        {
                            "type": "move",
                            "pawn": pawn_name(colour, i),
                            "to": document.location_doc(board, colour, end),
                            "route": [document.location_doc(board, colour, n) for n in route],
                            "text": f"{label} to {self.where(colour, end)} in {len(route)}",
                        },
                    )
                    for end, route in found.items()
                ]
            for end, action in cached:  # who stands where changes without the moves changing: never cached
                occupant = occupied.get(end)
                rules = () if occupant is None else self._landing(state, colour, occupant, end)
                text = f"{action['text']}{self._sends_back([occupant], rules)}"
                if end in stairs:  # where it leads depends on the other stairways' pawns: never cached either
                    text += self._stair_leads(state, colour, end, (colour, i))
                out.append({**action, "text": text})
        return out

    def _landing(self, state: TempleState, colour: str, occupant: tuple[str, int], end: int) -> tuple[str, ...]:
        """``_landing_rules`` for a move by ``colour`` ending at ``end``, where ``occupant`` stands."""
        stair = self.board.is_cell(end) and self.layout(state).kind(end) == "stair"
        return _landing_rules(colour, occupant, stair, end in self.board.step_nodes)

    @staticmethod
    def _sends_back(occupants: Sequence[tuple[str, int] | None], rules: tuple[str, ...]) -> str:
        """What a choice sending pawns back adds to its text, with the clauses its ruling cites for the send-back.

        Moves, stairway trips, the Ah Kinchil card and card changes all use it: only
        checking the choice said that the pawn there goes back; the listed choice
        read like any other, and a player learnt of it once it was done. Nothing
        (an empty text) when nobody goes back.
        """
        pawns = [p for p in occupants if p is not None]
        if not pawns:
            return ""
        return f", sending {' and '.join(pawn_label(*p) for p in pawns)} back [{', '.join(rules)}]"

    def _to_move(self, state: TempleState, events: list[Event]) -> TempleState:
        state = state.but(phase="move", tasks=(), after="")
        value = state.roll[0]
        if value == 0:
            events.append(Event("info", "A roll of 0 moves no pawn.", ("RU-10",), (state.current,)))
            return self._end_turn(state, events)
        if not self._pawn_moves(state):
            events.append(self._boxed_in(state))
            return self._end_turn(state, events)
        return state

    def _boxed_in(self, state: TempleState) -> Event:
        """Why no pawn can take a step, pawn by pawn: holes all round, its own wall, or (a roll of 1 read as
        the next column) no open space in that column.

        Cited as dead ends (RU-13) it left a table asking why pawns at the
        Entrance Circles, whose entry cells a corridor card had made holes,
        could not even start. Audit: it read "No pawn of Blue can take a step"
        with Blue 2 in the chamber, gave one reason for two pawns boxed in
        differently, and blamed the wall when a roll of 1 under
        ``nextColumnAny3`` found the next column all holes.
        """
        colour = state.current
        reasons: dict[tuple[str, str], list[str]] = {}
        for i, node in enumerate(state.pawns[state.turn]):
            if node != self.board.chamber:
                reasons.setdefault(self._stuck(state, colour, node), []).append(pawn_label(colour, i))
        parts = []
        for (why, _), who in reasons.items():
            pronoun = "them" if len(who) > 1 else "it"
            names = f"Neither {who[0]} nor {who[1]} can" if len(who) > 1 else f"{who[0]} cannot"
            parts.append(f"{names} take a step: {why.format(pronoun)}")
        rules = tuple(dict.fromkeys([*(rule for _, rule in reasons), "RU-Q26"]))
        return Event("warning", f"{'; '.join(parts)}; the turn ends.", rules, (colour,))

    def _stuck(self, state: TempleState, colour: str, node: int) -> tuple[str, str]:
        """Why a pawn with no move is stuck, and the clause: ``{}`` stands for "it" or "them"."""
        steps = state.roll[0]
        if steps == 1 and state.option["roll1_mode"] == "nextColumnAny3":
            return "none of the three spaces of the next column is open to {}", "RU-Q17"
        if self._moves(state, colour, node, steps, walls=False):
            return f"the {colour} wall is in the way", "RU-14"
        return "every space next to {} is a hole", "RU-11"

    def _apply_move(self, state: TempleState, action: Action, events: list[Event]) -> TempleState:
        board = self.board
        colour, i = self._read_pawn(state, action.get("pawn"))
        player = state.current
        label = pawn_label(colour, i)
        if colour != player:
            raise refuse(f"{player.capitalize()} moves only their own pawns, not {label}.", "RU-10")
        start = state.pawn_at(colour, i)
        if start == board.chamber:
            raise refuse(f"{label} is in the Treasure Chamber and stays there.", "RU-15")
        try:
            to = document.parse_location(board, colour, action.get("to"))
        except ValueError as exc:
            drawn = self._drawn_step(action.get("to"))
            if drawn is not None and drawn[0] != colour:
                # Audit: read as malformed input, the refusal cited the move clause (RU-10) and showed the JSON
                # field, '"to": [11, 3] is blue step 1, which only blue pawns climb (RU-15)'.
                (step_colour, k), (x, y) = drawn, action["to"]
                raise refuse(f"[{x},{y}] is {step_colour} step {k}: only {step_colour} pawns climb the {step_colour}"
                             f" steps, and {label} is a {colour} pawn.", "RU-15") from None
            raise InvalidAction(f'"to": {exc}') from None
        steps = state.roll[0]
        found = self._moves(state, colour, start, steps)
        if to not in found:
            raise self._why_not(state, colour, i, start, to, steps)
        route = found[to]
        given = action.get("route")
        if given is not None:
            if not isinstance(given, list):
                raise InvalidAction('"route" must be a list of locations')
            try:
                parsed = tuple(document.parse_location(board, colour, n) for n in given)
            except ValueError as exc:
                raise InvalidAction(f'"route": {exc}') from None
            if not parsed or parsed[-1] != to:
                raise InvalidAction('"route" must end at "to"')
            if steps == 1 and state.option["roll1_mode"] == "nextColumnAny3":
                problem = None if parsed == (to,) else "a roll of 1 goes straight to one of the next three spaces"
            else:
                full = [len(r) for n, r in found.items() if n != board.chamber]
                best = full[0] if full else steps
                problem = moves.route_problem(
                    board, self.layout(state), colour, start, parsed, steps, state.option["must_use_full"], best
                )
            if problem:
                raise refuse(f"That route for {label} is not allowed: {problem}.", _route_rule(problem))
            route = parsed
        rules = ["RU-10", *self._step_rules(state, start, route)]
        if len(route) < steps and to != board.chamber:
            # Audit: a pawn stopping early by choice (must_use_full = false) was told it had hit a dead end.
            rules.append("RU-Q16" if self._stops_by_choice(state, colour, start, steps) else "RU-13")
        if to == board.chamber:
            rules.append("RU-15")
        events.append(
            Event(
                "move",
                f"{label} moves {len(route)} from {self.where(colour, start)} to {self.where(colour, to)}.",
                tuple(rules),
                (colour,),
            )
        )
        occupant = self._occupied(state).get(to)
        state = state.with_pawn(colour, i, to)
        if occupant is not None:
            events.append(
                Event(
                    "penalty",
                    f"{label} lands on {pawn_label(*occupant)}.",
                    self._landing(state, colour, occupant, to),
                    (occupant[0],),
                )
            )
            state = self._send_back(state, [occupant], events, ("RU-12",))
        tasks: tuple[Task, ...] = ()
        if self.layout(state).kind(to) == "stair" and board.is_cell(to):
            tasks = (Task("stair", colour, (i,), to, colour),)
            others = len(self._stair_destinations(state, colour, to))
            if others > 1:  # the choice's "then up the secret stairway there to one of 2 others" [RU-22], ruled
                events.append(
                    Event(
                        "info",
                        f"{label} ends on {self.stairway(colour, to)}: it comes out at one of the {others} others.",
                        ("RU-22",),
                        (colour,),
                    )
                )
        return self._resolve(state.but(tasks=tasks, after="end"), events)

    def _step_rules(self, state: TempleState, start: int, route: Sequence[int]) -> list[str]:
        """The clauses of how a legal move stepped: leaving the Entrance Circles, orthogonal steps, a roll of 1.

        Audit: under ``roll1_mode = nextColumnAny3`` a 1 taken diagonally was ruled by RU-11, the clause that
        forbids diagonal steps, and RU-27 alone, though only the RU-Q17 option allows it; a move off the
        Entrance Circles never said that the step onto the entry row is one of the count (RU-Q19).
        """
        board = self.board
        rules = []
        if start == board.colours[state.current].entrance:
            rules.append("RU-Q19")
        diagonal = False
        here = start
        for node in route:
            if board.is_cell(here) and board.is_cell(node):
                (x1, y1), (x2, y2) = board.xy(here), board.xy(node)
                diagonal = diagonal or (x1 != x2 and y1 != y2)
            here = node
        if not diagonal:
            rules.append("RU-11")
        if len(route) == 1 and state.roll[0] == 1:
            rules.append("RU-27")
            if state.option["roll1_mode"] == "nextColumnAny3":
                rules.append("RU-Q17")
        return rules

    def _drawn_step(self, value: Any) -> tuple[str, int] | None:
        """(colour, step) of a final step named by the cell it is drawn on (``[11, 3]``), else None."""
        size = self.board.size
        if not (isinstance(value, list) and len(value) == 2 and all(
                isinstance(v, int) and not isinstance(v, bool) and 0 <= v < size for v in value)):  # fmt: skip
            return None
        drawn = self.board.drawn_inside(*value)
        return None if drawn is None or drawn[0] == "chamber" else drawn

    def _stops_by_choice(self, state: TempleState, colour: str, start: int, steps: int) -> bool:
        """Whether a route of the whole count exists, so a shorter move is the option's choice, not a dead end."""
        if state.option["must_use_full"]:
            return False
        opt = state.option["roll1_mode"]
        full = moves.reachable(self.board, self.layout(state), colour, start, steps, True, opt)
        return any(len(route) == steps for end, route in full.items() if end != self.board.chamber)

    def _why_not(self, state: TempleState, colour: str, i: int, start: int, to: int, steps: int) -> Exception:
        board = self.board
        label = pawn_label(colour, i)
        place = self.where(colour, to)
        step = board.step_colour(to)
        if step and step[0] != colour:
            return refuse(f"Only {step[0]} pawns climb the {step[0]} steps.", "RU-15")
        if to == board.colours[colour].entrance:
            # Audit: this used to fall through to the walkability test and call the circles "a hole" (RU-11).
            # Nothing moves a pawn back onto its Entrance Circles but a send-back (RU-Q32).
            return refuse(
                f"{label} cannot move onto its Entrance Circles; only a send-back returns it there.", "RU-Q32"
            )
        if not self.layout(state).walkable[to]:
            # A corner's hole is printed (RU-H3): "is a hole" [RU-11] alone sent a table waiting for a card
            # change to open it.
            if to in board.printed:
                return refuse(f"{place} is a hole printed on the board, never covered by a card; {label} cannot "
                              "stand there.", "RU-H3")  # fmt: skip
            return refuse(f"{place} is a hole; {label} cannot stand there.", "RU-11")
        if to == start:
            return refuse(f"{label} already stands on {place}; a move leaves its space.", "RU-11")
        if steps == 1 and state.option["roll1_mode"] == "nextColumnAny3":
            # Audit: the check below walks without walls in ordinary steps, so a space beside the pawn but not in
            # the next column ([4,0] from [4,1]) was refused as "The red wall blocks every route" [RU-14], with
            # no wall near; what rules it out is the option's reading of a 1.
            ends = [self.where(colour, n) for n in self._moves(state, colour, start, steps)]
            where = (f"one of {', '.join(ends[:-1])} or {ends[-1]}" if len(ends) > 1 else ends[0]) if ends else ""
            goes = f"it goes to {where}" if ends else "none of them is open to it"
            return refuse(
                f"With a roll of 1, {label} moves to a space of the next column clockwise, diagonals included;"
                f" {place} is not one: {goes}.",  # three parts, each a sentence aloud: 27 words in one before
                "RU-Q17",
            )
        if to in self._moves(state, colour, start, steps, walls=False):
            return refuse(f"The {colour} wall blocks every route from {self.where(colour, start)} to {place}.", "RU-14")
        if state.option["must_use_full"]:
            loose = moves.reachable(board, self.layout(state), colour, start, steps, False, state.option["roll1_mode"])
            if to in loose:
                return refuse(
                    f"{label} must use the whole roll of {steps}: a longer route exists, so it cannot stop at {place}.",
                    "RU-Q16",
                )
        near = moves.reachable(board, self.layout(state), colour, start, steps, False, "orthogonal", walls=False)
        if to not in near:
            # Audit: a place simply out of reach (the chamber from another colour's steps, the far side of the
            # board) was refused as a walk "entering a space twice", which nobody at the table could make sense of.
            return refuse(
                f"{label} cannot reach {place} with a roll of {steps}: "
                + ("no single step" if steps == 1 else f"no route of {steps} steps or fewer")
                + " over path spaces leads there.",
                "RU-10",
            )
        return refuse(
            f"{label} cannot reach {place} with a roll of {steps} along orthogonal steps without "
            "entering a space twice.",
            "RU-11",
        )

    # send-backs and stairways ----------------------------------------------------------
    def _occupied(self, state: TempleState) -> dict[int, tuple[str, int]]:
        board = self.board
        return {node: (c, i) for c, i, node in state.all_pawns() if board.is_cell(node) or node in board.step_nodes}

    def _send_back(
        self, state: TempleState, group: list[tuple[str, int]], events: list[Event], why: tuple[str, ...]
    ) -> TempleState:
        """Send pawns of one colour back, in the given order (the first takes the nearest marker)."""
        board = self.board
        layout = self.layout(state)
        colour = group[0][0]
        progress = board.progress[colour]
        entrance = board.colours[colour].entrance
        bump = state.option["send_back_occupied"] == "bump"
        moving = set(group)
        limit: int | None = None
        for c, i in group:
            here = state.pawn_at(c, i)
            occupied = {n: p for n, p in self._occupied(state).items() if p not in moving}
            behind = board.behind_from(c, here)
            cap = behind if limit is None else min(behind, limit)
            target = entrance
            skipped = False
            for prog, node in layout.idols_by_progress.get(colour, ()):
                if prog >= cap:
                    continue
                if node in occupied and not bump:
                    skipped = True
                    continue
                target = node
                break
            rules = [*why, "RU-18", "RU-Q11"]
            # Audit: a pawn sent back from its final steps or off one of its own markers cited neither case's
            # clause, and a table asked why it did not stay on the marker under it (RU-Q33) or where "behind"
            # is from the steps (RU-Q15).
            if here in board.colours[c].steps:
                rules.append("RU-Q15")
            elif here in layout.idols.get(c, ()):
                rules.append("RU-Q33")
            if len(group) > 1:
                rules.append("RU-19")
                rules.append("RU-Q13")
            if skipped:
                rules.append("RU-Q12")
            if target == entrance:
                text = f"{pawn_label(c, i)} goes back to its Entrance Circles."
            else:
                text = f"{pawn_label(c, i)} goes back to its idol marker at {self.where(c, target)}."
                rules.append("RU-21" if target == board.ak_idol.get(c) else "RU-20")
            events.append(Event("penalty", text, tuple(dict.fromkeys(rules)), (c,)))
            occupant = occupied.get(target) if target != entrance else None
            # The pawn takes the marker before the occupant goes: still standing where it was, it could be
            # bumped from there by the very occupant it displaces, and the two would bump each other forever.
            state = state.with_pawn(c, i, target)
            if occupant is not None:
                events.append(
                    Event(
                        "penalty",
                        f"{pawn_label(*occupant)} stood on the marker at {self.where(c, target)}.",
                        ("RU-Q12",),
                        (occupant[0],),
                    )
                )
                state = self._send_back(state, [occupant], events, ("RU-Q12",))
            moving.discard((c, i))
            limit = progress[target]
        return state

    def _stair_destinations(self, state: TempleState, colour: str, node: int) -> list[int]:
        layout = self.layout(state)
        out = [s for s in layout.stairs if s != node]
        if state.option["stairs_respect_walls"]:
            prog = self.board.progress[colour]
            half = self.board.lap_length // 2
            out = [s for s in out if abs(prog[s] - prog[node]) <= half]
        return out

    def _stairs_too_far(self, state: TempleState, node: int) -> bool:
        """Whether other stairways lie on the board but ``stairs_respect_walls`` puts them all out of reach.

        Audit: the pawn was said to have "no other stairway there to reach" [RU-24], the lone-stairway
        clause, with another stairway in plain sight on the board; what kept it there is the RU-Q21 option.
        """
        return any(s != node for s in self.layout(state).stairs)

    def _resolve(self, state: TempleState, events: list[Event]) -> TempleState:
        """Carry out queued effects until one needs a choice, then go on with the turn."""
        state = self._run_tasks(state, events)
        return state if state.tasks else self._after_tasks(state, events)

    def _after_tasks(self, state: TempleState, events: list[Event]) -> TempleState:
        if state.after == "move":
            return self._to_move(state, events)
        return self._end_turn(state, events)

    def _run_tasks(self, state: TempleState, events: list[Event]) -> TempleState:
        """Carry out queued effects until one needs a choice (phase resolve, tasks left) or none is left."""
        while state.tasks:
            task = state.tasks[0]
            if task.kind == "back":
                return state.but(phase="resolve")
            if task.kind == "off":
                state = self._run_off(state, task, events)
                if state.tasks and state.tasks[0].kind == "back":
                    return state.but(phase="resolve")
                continue
            i = task.pawns[0]
            if state.pawn_at(task.colour, i) != task.node:
                state = state.but(tasks=state.tasks[1:])
                continue
            dests = self._stair_destinations(state, task.colour, task.node)
            if len(dests) > 1:
                return state.but(phase="resolve")
            if not dests:
                far = self._stairs_too_far(state, task.node)
                why = (
                    "every other stairway is more than half a lap away along its lap, across its wall"
                    if far
                    else "no other stairway is there to reach"
                )
                events.append(
                    Event(
                        "info",
                        f"{pawn_label(task.colour, i)} is on {self.stairway(task.colour, task.node)}, but {why}:"
                        " it stays.",
                        ("RU-24", "RU-Q21") if far else ("RU-24",),
                        (task.colour,),
                    )
                )
            else:
                state = self._teleport(state, task, dests[0], events)
            state = state.but(tasks=state.tasks[1:])
        return state

    def _run_off(self, state: TempleState, task: Task, events: list[Event]) -> TempleState:
        """A colour's send-back that waited behind an earlier colour's choice, carried out now (RU-Q14).

        Its pair choice, if any, is judged only now: the send-backs before it may have changed which markers
        are taken. Returns the state with the task done, or turned into the owner's choice at the head of tasks.
        """
        layout = self.layout(state)
        board = self.board
        colour = task.colour
        off = [i for i in task.pawns if board.is_cell(n := state.pawn_at(colour, i)) and not layout.walkable[n]]
        rest = state.tasks[1:]
        if len(off) == 2 and state.option["pair_order"] == "ownerChooses" and self._order_matters(state, colour):
            return state.but(tasks=(Task("back", colour, (0, 1), -1, colour), *rest))
        state = state.but(tasks=rest)
        if off:  # announced with the change (`_waits_behind`); each pawn's send-back cites RU-Q14 as well
            state = self._send_back(state, [(colour, i) for i in off], events, (*CHANGE_OFF_PATH, "RU-Q14"))
        return state

    def _teleport(self, state: TempleState, task: Task, dest: int, events: list[Event]) -> TempleState:
        colour, i = task.colour, task.pawns[0]
        label = pawn_label(colour, i)
        events.append(
            Event(
                "move",
                f"{label} takes the secret stairway from {self.where(colour, task.node)} "
                f"to {self.where(colour, dest)}.",
                ("RU-22", "RU-Q21"),
                (colour,),
            )
        )
        occupant = self._occupied(state).get(dest)
        state = state.with_pawn(colour, i, dest)
        if occupant is not None:
            events.append(
                Event(
                    "penalty",
                    f"{pawn_label(*occupant)} was on the stairway at {self.where(occupant[0], dest)}.",
                    STAIR_ONTO_PAWN,
                    (occupant[0],),
                )
            )
            state = self._send_back(state, [occupant], events, ("RU-23",))
        return state

    def _task_actions(self, state: TempleState) -> list[Action]:
        task = state.tasks[0]
        if task.kind == "stair":
            i = task.pawns[0]
            occupied = self._occupied(state)
            progress = self.board.progress[task.colour]
            return [
                {
                    "type": "stair",
                    "pawn": pawn_name(task.colour, i),
                    "to": list(self.board.xy(s)),
                    "text": f"{pawn_label(task.colour, i)} {self._stair_way(task.colour, task.node, s)} to the"
                    f" stairway at {self.where(task.colour, s)}{self._sends_back([occupied.get(s)], STAIR_ONTO_PAWN)}",
                }
                # Furthest along the pawn's lap first: in board order ([5,1], [7,2], [14,4], [1,6], ...) the
                # list jumped about the temple.
                for s in sorted(
                    self._stair_destinations(state, task.colour, task.node), key=lambda s: -progress[s]
                )
            ]
        return [
            {"type": "order", "first": pawn_name(task.colour, i), "text": self._order_text(state, task.colour, i)}
            for i in task.pawns
        ]

    def _order_text(self, state: TempleState, colour: str, first: int) -> str:
        """A pair-order choice as it plays out: where each of the two pawns goes, and who else goes back.

        Audit: "Red 1 takes the nearer marker" named no marker, and the table had to work out the two.
        With pawns of later colours waiting behind the choice (RU-Q14) it says where they end (``_order_then``).
        """
        after = self._send_back(state, [(colour, first), (colour, 1 - first)], [], CHANGE_OFF_PATH)
        then = self._order_then(state, colour, after)
        if then:  # said short, with the cells alone: the button still reads in three lines, in two upright
            (a, at_a), (b, at_b) = ((pawn_label(colour, i), self._cell(colour, after.pawn_at(colour, i)))
                                    for i in (first, 1 - first))
            return f"{a} back to {at_a}, {b} to {at_b}{then}"
        entrance = self.board.colours[colour].entrance
        parts = []
        for i in (first, 1 - first):
            node = after.pawn_at(colour, i)
            place = "its Entrance Circles" if node == entrance else f"its idol marker at {self.where(colour, node)}"
            parts.append(f"{pawn_label(colour, i)} back to {place}")
        bumped = [(c, i) for c, i, n in state.all_pawns() if c != colour and after.pawn_at(c, i) != n]
        return ", ".join(parts) + self._sends_back(bumped, ("RU-Q12",))

    def _order_then(self, state: TempleState, colour: str, after: TempleState) -> str:
        """What a pair-order choice leads to for the pawns waiting behind it (RU-Q14): where the other colours'
        pawns end, and whose pair question comes next if one does; empty when nobody waits.

        Audit: the choice said "..., sending Blue 2 back [RU-Q12]" and nothing of Blue 1, waiting on its hole to
        go back once the choice is made, to the markers as the choice leaves them: under bump, Red's choice
        took Blue 2 to the blue corner marker and Blue 1 then bumped it on to its Entrance Circles. The question
        named Blue 1 (``_waiting_after``); where each pawn ends, only doing it told. The pawns the choice itself
        bumps are said where they end too, so RU-Q12 comes with RU-Q14 when a pawn is bumped on the way.
        """
        if not any(t.kind == "off" for t in state.tasks[1:]):
            return ""
        seen: list[Event] = []
        done = self._run_tasks(after.but(tasks=state.tasks[1:]), seen)
        ends = []
        for c, i, n in state.all_pawns():
            node = done.pawn_at(c, i)
            if c != colour and node != n:
                home = node == self.board.colours[c].entrance
                ends.append(f"{pawn_label(c, i)} {'at its Entrance Circles' if home else 'on ' + self._cell(c, node)}")
        asks = done.tasks[0].colour.capitalize() if done.tasks and done.tasks[0].kind == "back" else ""
        if asks:
            ends.append(f"{asks} picks its own pair's order")
        if not ends:
            return ""
        bumps = any(after.pawn_at(c, i) != n for c, i, n in state.all_pawns() if c != colour)
        bumps = bumps or any("RU-Q12" in e.rules for e in seen)
        return f"; then {', '.join(ends)} [{'RU-Q12, RU-Q14' if bumps else 'RU-Q14'}]"

    def _apply_stair(self, state: TempleState, action: Action, events: list[Event]) -> TempleState:
        task = state.tasks[0]
        colour, i = self._read_pawn(state, action.get("pawn"))
        if (colour, i) != (task.colour, task.pawns[0]):
            raise refuse(
                f"{pawn_label(task.colour, task.pawns[0])} is the pawn taking"
                f" {self.stairway(task.colour, task.node)} now.",
                "RU-22",
            )
        try:
            dest = document.parse_location(self.board, colour, action.get("to"))
        except ValueError as exc:
            raise InvalidAction(f'"to": {exc}') from None
        if dest not in self._stair_destinations(state, colour, task.node):
            if dest == task.node:
                raise refuse(
                    f"{pawn_label(colour, i)} is on {self.stairway(colour, dest)}; it must go to another stairway.",
                    "RU-22",
                )
            if self.layout(state).kind(dest) == "stair":
                raise refuse(
                    f"The stairway at {self.where(colour, dest)} is more than half a lap away from"
                    f" {pawn_label(colour, i)}, across its own wall.",
                    "RU-Q21",
                )
            # The way out is named too: `why` on a cell answered only what is not there.
            dests = [self.where(colour, s) for s in self._stair_destinations(state, colour, task.node)]
            ways = f"{', '.join(dests[:-1])} or {dests[-1]}" if len(dests) > 1 else "".join(dests)
            out = f"; {pawn_label(colour, i)} comes out at {ways}" if ways else ""
            raise refuse(f"There is no secret stairway at {self.where(colour, dest)}{out}.", "RU-22")
        state = self._teleport(state, task, dest, events)
        return self._resolve(state.but(tasks=state.tasks[1:]), events)

    def _apply_order(self, state: TempleState, action: Action, events: list[Event]) -> TempleState:
        task = state.tasks[0]
        colour, i = self._read_pawn(state, action.get("first"))
        if colour != task.colour:
            raise refuse(f"Choose one of the two {task.colour} pawns.", "RU-19")
        other = 1 - i
        events.append(
            Event(
                "warning",
                f"The new card leaves both {colour} pawns off the path; {pawn_label(colour, i)}"
                " takes the nearer marker.",
                ("RU-17", "RU-19", "RU-Q13"),
                (colour,),
            )
        )
        state = self._send_back(state, [(colour, i), (colour, other)], events, ("RU-17",))
        return self._resolve(state.but(tasks=state.tasks[1:]), events)

    def old_step(
        self, states: Sequence[TempleState], log: Sequence[Action], action: Action
    ) -> tuple[TempleState, list[Event]] | None:
        """A step of a game journalled before an update, refused now: a pair order answered where it is no longer
        asked (``_unasked_order``), or a step that fits only where the later colours went back before a pair
        choice (``_sent_back_before_choice``)."""
        return self._unasked_order(states, log, action) or self._sent_back_before_choice(states, log, action)

    def _sent_back_before_choice(
        self, states: Sequence[TempleState], log: Sequence[Action], action: Action
    ) -> tuple[TempleState, list[Event]] | None:
        """A step of a game journalled before RU-Q14's order (9300476), fitting only the pawns as they then stood.

        That companion sent the later colours' pawns back as soon as a card was changed, ahead of an earlier
        colour's pair choice; with send_back_occupied = bump two pawns heading for one marker then ended the other
        way round, and a later step naming one of them is refused now. No step says which companion took it, so
        the game is played again from its first change that made a colour wait (none: refused as before), with
        every change made the older way; if this step then fits, it is taken from there and the table told where
        the pawns stand. A step that fits neither way stays refused.
        """
        if len(states) != len(log) + 1:
            return None
        first = next((k for k, step in enumerate(log) if step.get("type") == "change"
                      and any(t.kind == "off" for t in states[k + 1].tasks)), None)  # fmt: skip
        if first is None:
            return None
        older, steps = list(states[: first + 1]), list(log[:first])
        events: list[Event] = []
        for step in [*log[first:], action]:
            try:
                state, events = self._take(older[-1], step, queued=False)
            except IllegalAction:
                taken = self._unasked_order(older, steps, step)
                if taken is None:
                    return None
                state, events = taken
            older.append(state)
            steps.append(step)
        return older[-1], [self._stood_otherwise(states[first + 1], states[-1], older[-2]), *events]

    def _stood_otherwise(self, waited: TempleState, now: TempleState, then: TempleState) -> Event:
        """Where the older companion had the pawns that stand elsewhere now, and why (RU-Q14)."""
        chooser = waited.tasks[0].colour.capitalize()
        early = [pawn_label(t.colour, i) for t in waited.tasks if t.kind == "off" for i in t.pawns]
        moved = [(c, i, n) for c, i, n in then.all_pawns() if now.pawn_at(c, i) != n]
        left = series([f"{pawn_label(c, i)} at {self.where(c, n)}" for c, i, n in moved]) if moved else ""
        them = "it" if len(early) == 1 else "them"
        return Event(
            "info",
            f"The companion this game was journalled on {f'left {left}: it ' if left else ''}sent {series(early)}"
            f" back as soon as the card was changed, before {chooser} chose which pawn takes the nearer marker"
            f" (this one has {them} wait for the choice).",
            (*CHANGE_OFF_PATH, "RU-Q14"),
            tuple(dict.fromkeys(c for c, _, _ in moved)),
        )

    def _unasked_order(
        self, states: Sequence[TempleState], log: Sequence[Action], action: Action
    ) -> tuple[TempleState, list[Event]] | None:
        """A pair order answered in a game journalled before the owner was asked it only when it matters (RU-Q13).

        With pair_order = ownerChooses the companion asked "which goes back to the nearer marker?" whenever a card
        change left both pawns of a colour off the path, even with no marker behind either; now both go back at
        once. The answer journalled after that change is accepted as changing nothing, so such games still resume
        and replay. Only right after the change (or the other answers to it), for a colour whose two pawns it left
        off the path and that has not answered yet.
        """
        if action.get("type") != "order" or not log:
            return None
        k = len(log) - 1
        while k >= 0 and log[k].get("type") == "order":
            k -= 1
        if k < 0 or log[k].get("type") != "change" or len(states) != len(log) + 1:
            return None
        before, changed = states[k], states[k + 1]
        try:
            colour, first = document.parse_pawn(changed, action.get("first"))
        except ValueError:
            return None
        answered = {str(a.get("first", ""))[:-1] for a in log[k + 1 :]}
        if before.option["pair_order"] != "ownerChooses" or colour in answered:
            return None
        if any(t.colour == colour for t in changed.tasks):  # asked, or waiting to be asked, as it matters
            return None
        number = log[k].get("slot")
        if number not in self.board.slot_numbers:
            return None
        nodes = set(self.board.slot_nodes[self.board.slot_numbers.index(number)])
        walkable = self.layout(changed).walkable
        if not all(n in nodes and not walkable[n] for n in before.pawns[before.seat(colour)]):
            return None
        return states[-1], [
            Event(
                "info",
                f"{pawn_label(colour, first)} first changes nothing: no marker lay behind either {colour} pawn, so"
                " both went back when the card was changed (a choice this companion no longer asks).",
                ("RU-19", "RU-Q13"),
                (colour,),
            )
        ]

    # turn end ----------------------------------------------------------------------
    def _end_turn(self, state: TempleState, events: list[Event]) -> TempleState:
        player = state.current
        if all(n == self.board.chamber for n in state.pawns[state.turn]):
            events.append(
                Event(
                    "win",
                    f"Both {player} pawns are in the Treasure Chamber: {player.capitalize()} wins!",
                    ("RU-16", "RU-1"),
                    (player,),
                )
            )
            return state.but(phase="over", winner=player, tasks=(), after="")
        turn = (state.turn + 1) % len(state.players)
        return state.but(phase="roll", turn=turn, roll=None, tasks=(), after="")

    def _read_pawn(self, state: TempleState, value: Any) -> tuple[str, int]:
        try:
            return document.parse_pawn(state, value)
        except ValueError as exc:
            raise InvalidAction(str(exc)) from None

    # disputes, views, checks -----------------------------------------------------------
    def board_rule(self, state: TempleState) -> str | None:
        """RU-2: the ring of spaces three wide round the chamber, its corner blocks and twelve slots."""
        return "RU-2"

    def unknown_place(self, state: TempleState, place: Hashable) -> str | None:
        """A card slot by its number; a cell as x,y (as the drawing numbers its margins) is a place too."""
        size = self.board.size
        if isinstance(place, int) and place in self.board.slot_numbers:
            return None
        if isinstance(place, tuple) and len(place) == 2 and all(isinstance(v, int) and 0 <= v < size for v in place):
            if self.board.node(*place) in self.board.ring:
                return None
            if self.board.drawn_inside(*place) is not None:
                # Audit: a final step or the chamber named by the cell it is drawn on is a place moves take
                # ("Red 1 to red step 2" goes to [4, 4]); refused here, `why 4,4` told the terminal, the protocol
                # and the table that the steps "are no cells", beside that very choice.
                return None
            # Audit: `why 4,8` answered 'Nothing may be done there. "to": [4, 8] is not a space of the temple
            # path.', the action's JSON field and all; the middle holds the steps and the chamber, no cells.
            x, y = self.board.xy(min(self.board.ring))
            return (f"{place[0]},{place[1]} is inside the ring of path cards, not a cell of the path nor one the"
                    f" final steps or the Treasure Chamber are drawn on; path cells go round the edge of the"
                    f" board, such as {x},{y}")
        slots = self.board.slot_numbers
        return (f"a card slot is named by its number, {min(slots)} to {max(slots)}; a cell by its column and row, "
                f"0,0 to {size - 1},{size - 1}")

    def place_within(self, state: TempleState, place: Hashable) -> tuple[Hashable, str] | None:
        """A path cell's card slot ("[6,13] is on the card in slot 8"); None for a corner."""
        size = self.board.size
        if not (isinstance(place, tuple) and len(place) == 2 and all(isinstance(v, int) and 0 <= v < size
                                                                     for v in place)):  # fmt: skip
            return None
        node = self.board.node(*place)
        slot = self.board.slot_of.get(node)
        if slot is None:
            return None
        number = self.board.slot_numbers[slot]  # no "r1c2": the voice would spell it out, and the slot is the answer
        return number, f"[{place[0]},{place[1]}] is on the card in slot {number}"

    def place_elsewhere(self, state: TempleState, place: Hashable, offered: Sequence[Action]) -> Ruling | None:
        """A corner cell during a card change, a slot during a move: what it is, and where the choice goes now.

        Audit: a corner got "what may be done now happens on slots", as though it were on one; a slot during
        the move got "happens on spaces" and six clauses gathered from sample moves (send-backs, stairways).
        """
        board = self.board
        name = state.current.capitalize()
        if state.phase == "change" and isinstance(place, tuple) and len(place) == 2:
            node = board.node(*place)
            if node not in board.ring or node in board.slot_of:
                return None
            slots = sorted({int(a["slot"]) for a in offered if a.get("type") == "change"})
            every = slots == sorted(board.slot_numbers)
            which = f"any slot ({slots[0]} to {slots[-1]})" if every else f"slot {number_runs(slots)}"
            return Ruling(False, f"Nothing may be done there now: [{place[0]},{place[1]}] is on a corner, on no "
                                 f"slot; corners are printed on the board and never change. {name}'s card change "
                                 f"takes the card out of {which} and puts one from their hand in its place.",
                          ("RU-2", "RU-7"))  # fmt: skip
        if state.phase == "move" and isinstance(place, int) and place in board.slot_numbers:
            ends = [a for a in offered if a.get("type") == "move"]
            if not ends:
                return None
            pawn, to = document.parse_pawn(state, ends[0]["pawn"]), ends[0]["to"]
            example = self.where(state.current, document.parse_location(board, pawn[0], to))
            count = f"{state.roll[0]} space" + ("" if state.roll[0] == 1 else "s")
            return Ruling(False, f"Nothing may be done at slot {place} now: {name} moves a pawn {count}, and a move "
                                 f"ends on a space, such as {example}, not on a slot.",
                          ("RU-10", "RU-11"))  # fmt: skip
        stairs = [a for a in offered if a.get("type") == "stair"]
        if state.phase == "resolve" and stairs and isinstance(place, int) and place in board.slot_numbers:
            # Audit: "what may be done now happens on spaces" with the stairway trips and RU-22 beside RU-Q21.
            colour, i = document.parse_pawn(state, stairs[0]["pawn"])
            example = self.where(colour, board.node(*stairs[0]["to"]))
            return Ruling(False, f"Nothing may be done at slot {place} now: {pawn_label(colour, i)} is on a secret "
                                 f"stairway and goes on to another stairway's space, such as {example}, "
                                 f"not to a slot.", ("RU-22",))  # fmt: skip
        return None

    def on_table(self, state: TempleState) -> dict[Hashable, OnTable]:
        """Each pawn's place (RU-10), each card in a slot (RU-7) or on the discard pile, the cards in each hand
        and the draw pile (RU-26): what an undo has the table put back by hand ("Put Blue 2 back at its Entrance
        Circles.", "Put card P05 back in slot 3."). The cards in a hand are hidden (RU-H2): only counted, so a
        card in a slot or on the pile that was in none before the step goes back to a hand (``from_hand``)."""
        from companion.games.temple.view import standing

        out: dict[Hashable, OnTable] = {}
        for colour, i, node in state.all_pawns():
            out[("pawn", colour, i)] = OnTable(colour, pawn_label(colour, i), standing(self, colour, node), ("RU-10",))
        for number, card in zip(self.board.slot_numbers, state.slots, strict=True):
            if card is not None:
                out[("card", card)] = OnTable("", f"card {card}", f"in slot {number}", ("RU-7",), dealt=True,
                                              from_hand=True)
        for card in state.discard:
            out[("card", card)] = OnTable("", f"card {card}", "on the discard pile", ("RU-26",), dealt=True,
                                          from_hand=True)
        for colour, held in zip(state.players, state.hands, strict=True):
            out[("hand", colour)] = OnTable(colour, "cards in hand", held, ("RU-26",), dealt=True)
        out[("pile",)] = OnTable("", "the draw pile", state.pile, ("RU-26",), dealt=True, cards=True)
        return out

    def describe(self, state: TempleState) -> list[str]:
        from companion.games.temple.view import describe

        return describe(self, state)

    def invariants(self, state: TempleState) -> list[str]:
        problems = []
        board = self.board
        on_board = sum(1 for c in state.slots if c is not None)
        if on_board + len(state.discard) + sum(state.hands) + state.pile != self.total_cards:
            problems.append("cards do not add up")
        layout = self.layout(state)
        seen: set[int] = set()
        waiting = {t.colour for t in state.tasks if t.kind in ("back", "off")}
        for colour, i, node in state.all_pawns():
            if board.is_cell(node):
                if node in seen:
                    problems.append(f"two pawns share {board.xy(node)}")
                seen.add(node)
                if not layout.walkable[node] and state.phase != "assembly" and colour not in waiting:
                    problems.append(f"{pawn_name(colour, i)} stands on a hole")
            step = board.step_colour(node)
            if step:
                # Steps are spaces too: no two pawns may share one (RU-12, RU-Q20).
                if node in seen:
                    problems.append(f"two pawns share {step[0]} step {step[1]}")
                seen.add(node)
            if step and step[0] != colour:
                problems.append(f"{pawn_name(colour, i)} is on the {step[0]} steps")
        if state.phase == "move" and not self._pawn_moves(state):
            problems.append("phase move with no possible move")
        return problems

    def sim_choose(self, state: TempleState, legal: list[Action], rng: random.Random) -> Action:
        """Rolls follow the die's real faces; moves lean forward so random games finish."""
        if state.phase in ("first_roll", "roll"):
            rolls = [a for a in legal if a["type"] == "roll"]
            others = [a for a in legal if a["type"] != "roll"]
            if others and rng.random() < 0.05:
                return rng.choice(others)
            weights = [self.face_weights[(a["value"], a["face"]["colour"])] for a in rolls]
            return rng.choices(rolls, weights)[0]
        if state.phase == "move" and rng.random() < 0.8:
            # The furthest end, a tie (the lanes of one lap station) broken at random. Taking the first
            # offered end would favour a fixed compass direction (the route search tries north, east,
            # south, west in turn), that is an inner lane on some edges and an outer one on others, and
            # so some colours over others; the ties are put in an order that turns with the board.
            colour = state.current
            board = self.board
            progress = board.progress[colour]
            ends = [(progress[document.parse_location(board, colour, a["to"])], a) for a in legal]
            best = max(p for p, _ in ends)
            ties = sorted((a for p, a in ends if p == best), key=lambda a: board.depth(a["to"]))
            return ties[0] if len(ties) == 1 else rng.choice(ties)
        return rng.choice(legal)
