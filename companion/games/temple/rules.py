"""The temple path-card race (published as Ruin): the game as the companion sees it.

The table enters every chance event: the cards that fill the slots during
assembly, each roll of the 20-sided die (value and background colour) and the
card a player takes from their hidden hand to change the path. The engine
never shuffles: hands are hidden, so it only counts them.

This module binds the rules to the ``Game`` contract: what is asked next,
which steps are offered, and which part takes a step. The rules themselves
live in modules named for what they hold: ``assembly``, ``rolls``,
``card_change``, ``move_action`` (with ``move_reach`` and ``move_refusals``),
``ah_kinchil``, ``send_back``, ``stairways``, ``tasks`` (the queue of effects),
``pair_order``, ``stair_choice``, ``turns``, ``old_journals``,
``place_questions``; ``places`` names places, ``clauses`` and ``options`` hold
shared clause ids and the table's options.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence
from typing import Any, ClassVar

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
    not_playing,
    refuse,
    shapes,
    unknown_type,
)
from companion.games.temple import INFO, document, old_journals, place_questions, view
from companion.games.temple.ah_kinchil import ak_actions, ak_targets, apply_ak
from companion.games.temple.assembly import DECK_ID, apply_draw, next_slot, read_draw
from companion.games.temple.board import COLOURS, Board, Layout
from companion.games.temple.card_change import apply_change, apply_change_at_once, apply_skip_change, change_actions
from companion.games.temple.die import DIE_ID, die_spec, house_die
from companion.games.temple.move_action import apply_move, move_actions
from companion.games.temple.move_reach import pawn_moves
from companion.games.temple.options import ALTERNATIVES, OPTIONS
from companion.games.temple.pair_order import apply_order, order_actions, waiting_after
from companion.games.temple.places import place_name, stairway
from companion.games.temple.rolls import apply_roll, next_first_roller, read_roll, roll_action
from companion.games.temple.schemas import SCHEMAS, cross_check
from companion.games.temple.stair_choice import apply_stair, stair_actions
from companion.games.temple.state import TempleState, pawn_label, pawn_name


class TempleGame(Game):
    """Rules of the temple race bound to a board, a deck and a die."""

    id: ClassVar[str] = INFO.id
    win_rules: ClassVar[tuple[str, ...]] = ("RU-1", "RU-16")
    title: ClassVar[str] = INFO.title
    min_players: ClassVar[int] = INFO.min_players
    max_players: ClassVar[int] = INFO.max_players
    first_by_roll: ClassVar[bool] = INFO.first_by_roll
    players_rule: ClassVar[str | None] = "RU-Q31"
    actions_rule: ClassVar[str | None] = "RU-6"  # a turn: roll, change a card if asked, move; or Ah Kinchil
    turn_rule: ClassVar[str | None] = "RU-28"
    slots_dealt_rule: ClassVar[str | None] = "RU-3"  # the deck shuffled and a card drawn for each slot
    action_shapes = shapes(draw="deck card", roll="value face", ahkinchil="pawn", change="slot card",
                           skip_change="", move="pawn to route", stair="pawn to", order="first")
    field_words: ClassVar[Mapping[str, str]] = {"to": "where the pawn goes", "stair.to": "which stairway's end",
                                                 "first": "which pawn goes first", "deck": "which pile"}
    kind_names: ClassVar[Mapping[str, str]] = {"ahkinchil": "Ah Kinchil", "skip_change": "leave the path",
                                               "stair": "stairway"}
    colours: ClassVar[tuple[str, ...]] = COLOURS
    dice: ClassVar[tuple[DieSpec, ...]] = (house_die(),)
    decks: ClassVar[tuple[str, ...]] = (DECK_ID,)
    deck_names: ClassVar[Mapping[str, str]] = {DECK_ID: "draw pile"}  # "The draw pile is empty: shuffle ..." (RU-26)
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
                found = self._cell_names[node] = place_name(self, colour, node)
            return found
        return place_name(self, colour, node)

    def _move_words(self, state: TempleState) -> str:
        """The move prompt's count as the moves offered bear it out (RU-10, RU-13, RU-Q16).

        Audit (a first game): "Red: move a pawn 6." stood over eight buttons all saying "... in 5": no way from
        the Entrance Circles went six spaces, so each stopped where its way ended (a dead end, RU-13), and a table
        that had not read the rules took the app for wrong. With ``must_use_full`` off a pawn may stop early: "up
        to 6". A route into the Treasure Chamber may be shorter (it ends there) and says nothing of a dead end.
        """
        roll = state.roll[0]
        if not state.option["must_use_full"]:
            return f"move a pawn up to {roll}"
        lengths = {len(a["route"]) for a in move_actions(self, state) if a["to"] != "chamber"}
        if not lengths or max(lengths) >= roll:
            return f"move a pawn {roll}"
        far = f"{min(lengths)} to {max(lengths)}" if len(lengths) > 1 else str(max(lengths))
        return f"move a pawn {roll}: every way ends sooner, so a pawn goes {far} and stops there (a dead end)"

    # -- what happens next -----------------------------------------------------
    def pending(self, state: TempleState) -> Pending:
        phase = state.phase
        if phase == "over":
            return Pending("over", None, f"{state.winner.capitalize()} wins.", result={"winner": state.winner})
        if phase == "assembly":
            slot = next_slot(state)
            return Pending("draw", None, f"Draw a card for slot {slot} (curved edge out).", deck=DECK_ID)
        if phase == "first_roll":
            who = next_first_roller(state)
            return Pending("roll", who, f"{who.capitalize()}: roll for the first turn.", die=DIE_ID)
        player = state.current
        name = player.capitalize()
        if phase == "roll":
            # Audit: offered whenever the card was not in the discard pile, even when it had no pawn to move (a
            # pawn in the chamber, one on its marker, rivals not past theirs), and then every play was refused.
            extra = " (or play the Ah Kinchil card)" if ak_targets(self, state) else ""
            return Pending("roll", player, f"{name}: roll the die{extra}.", die=DIE_ID)
        if phase == "change":
            rolled = f"red {state.roll[0]}" if state.roll else "a red number"  # the die's face, not the player Red
            # Audit: with change_optional the text still said "first replace", as if leaving the path were refused.
            may = ", or leave the path as it is" if state.option["change_optional"] else ""
            return Pending("choose", player, f"{name}: {rolled} rolled; first replace one path card with one from "
                                             f"your hand{may}.")
        if phase == "move":
            return Pending("choose", player, f"{name}: {self._move_words(state)}.")
        task = state.tasks[0]
        if task.kind == "stair":
            who = pawn_label(task.colour, task.pawns[0])
            return Pending(
                "choose",
                task.chooser,
                f"{task.chooser.capitalize()}: {who} is on {stairway(self, task.colour, task.node)};"
                " pick the stairway it comes out at.",
            )
        return Pending(
            "choose",
            task.chooser,
            f"{task.colour.capitalize()}: the new card leaves both {task.colour} pawns off the path; which goes back"
            f" to the nearer marker?{waiting_after(state)}",
        )

    def legal_actions(self, state: TempleState) -> list[Action]:
        phase = state.phase
        if phase == "over":
            return []
        if phase == "assembly":
            on_board = set(state.slots)
            slot = next_slot(state)
            out = [
                {"type": "draw", "deck": DECK_ID, "card": card, "text": f"{card} for slot {slot}"}
                for card in self.board.card_order
                if card not in on_board
            ]
            out.append({"type": "draw", "deck": DECK_ID, "card": self.board.ak_card, "text": "Ah Kinchil card"})
            return out
        if phase in ("first_roll", "roll"):
            out = [roll_action(v, c) for v, c in self.outcomes]
            if phase == "roll":
                out.extend(ak_actions(self, state))
            return out
        if phase == "change":
            return change_actions(self, state)
        if phase == "move":
            return move_actions(self, state)
        return self._task_actions(state)

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
            "draw": apply_draw,
            "roll": apply_roll,
            "ahkinchil": apply_ak,
            "change": apply_change if queued else apply_change_at_once,
            "skip_change": apply_skip_change,
            "move": apply_move,
            "stair": apply_stair,
            "order": apply_order,
        }.get(kind)
        if handler is None:
            raise unknown_type(kind, self.action_shapes, names=self.kind_names)
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
            # A value the die or deck cannot give is named as such at any time, as the other games do;
            # only a possible one is "Not now" (a roll of 99 during the set-up was "Not now").
            if kind == "roll":
                read_roll(self, action)
            elif kind == "draw":
                read_draw(self, action)
            raise refuse(f"Not now: {pending.text}", self._phase_rule(state))
        who = action.get("player")
        if who is not None and (not isinstance(who, str) or who not in state.players):
            # A colour nobody plays is a slip of the pen, not a question of whose turn it is.
            raise not_playing(who, state.players, self.turn_rule)
        if who is not None and pending.player is not None and who != pending.player:
            # Named as the table says it ("Blue"), like every other text; the id is for actions only.
            raise refuse(f"It is not {who.capitalize()}'s turn to act: {pending.text}", "RU-28")
        events: list[Event] = []
        new_state = handler(self, state, action, events)
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

    def _task_actions(self, state: TempleState) -> list[Action]:
        if state.tasks[0].kind == "stair":
            return stair_actions(self, state)
        return order_actions(self, state)

    # disputes, views, checks -----------------------------------------------------------
    def board_rule(self, state: TempleState) -> str | None:
        """RU-2: the ring of spaces three wide round the chamber, its corner blocks and twelve slots."""
        return "RU-2"

    def old_step(
        self, states: Sequence[TempleState], log: Sequence[Action], action: Action
    ) -> tuple[TempleState, list[Event]] | None:
        """A step of a game journalled before an update, refused now (``old_journals.old_step``)."""
        return old_journals.old_step(self, states, log, action)

    def card_copies(self) -> Mapping[str, int]:
        """The path cards and Ah Kinchil's card, one of each."""
        return dict.fromkeys((*self.board.card_order, self.board.ak_card), 1)

    def value_words(self, state: TempleState, key: str, value: Any) -> str | None:
        return view.value_words(self, state, key, value)

    def field_numbers(self, state: TempleState, key: str) -> Sequence[int] | None:
        """A card change's slot is one of the board's (its data's twelve, RU-2): Build offered 0 to 12."""
        return self.board.slot_numbers if key == "slot" else None

    def unknown_place(self, state: TempleState, place: Hashable) -> str | None:
        return place_questions.unknown_place(self, state, place)

    def place_named(self, state: TempleState, words: str) -> Hashable | None:
        return place_questions.place_named(self, words)

    def place_words(self, state: TempleState, place: Hashable) -> str | None:
        """Where a move ends as the moves themselves say it: a cell "[8,1]" (said "column 8, row 1"), the final
        steps and the chamber by name. The button box's walk said "to (8, 1)", Python's spelling of the move's
        "to", read aloud as "to eight one", and "to chamber"."""
        if isinstance(place, tuple) and len(place) == 2 and all(type(v) is int for v in place):
            return f"[{place[0]},{place[1]}]"
        if place == "chamber":
            return "the Treasure Chamber"
        if isinstance(place, str) and place.startswith("step") and place[4:].isdigit():
            return f"step {place[4:]}"
        return None

    def place_within(self, state: TempleState, place: Hashable) -> tuple[Hashable, str] | None:
        return place_questions.place_within(self, state, place)

    def place_elsewhere(self, state: TempleState, place: Hashable, offered: Sequence[Action]) -> Ruling | None:
        return place_questions.place_elsewhere(self, state, place, offered)

    def on_table(self, state: TempleState) -> dict[Hashable, OnTable]:
        return view.on_table(self, state)

    def describe(self, state: TempleState) -> list[str]:
        return view.describe(self, state)

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
        if state.phase == "move" and not pawn_moves(self, state):
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
