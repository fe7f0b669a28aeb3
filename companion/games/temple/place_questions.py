"""Answers to "why" about a place: which places the temple has, a cell's slot, and a place the choice is not on."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING

from companion.game import Action, Ruling
from companion.games.temple import document
from companion.games.temple.state import TempleState, pawn_label
from companion.phrases import number_runs

if TYPE_CHECKING:
    from companion.games.temple.rules import TempleGame


def place_named(game: TempleGame, words: str) -> int | None:
    """A card slot typed as the choices write it, 'slot 5' or 'Slot 5': the hint said "a card slot is named by
    its number", and 'why slot 5' was "no place called 'slot 5'" beside the choice "Slot 5: P37 out, P01 in"."""
    said = words.strip().casefold().removeprefix("slot").strip()
    named = said != words.strip().casefold() and said.isdecimal() and said.isascii()
    return int(said) if named and int(said) in game.board.slot_numbers else None


def unknown_place(game: TempleGame, state: TempleState, place: Hashable) -> str | None:
    """A card slot by its number; a cell as x,y (as the drawing numbers its margins) is a place too."""
    size = game.board.size
    if isinstance(place, int) and place in game.board.slot_numbers:
        return None
    if isinstance(place, tuple) and len(place) == 2 and all(isinstance(v, int) and 0 <= v < size for v in place):
        if game.board.node(*place) in game.board.ring:
            return None
        if game.board.drawn_inside(*place) is not None:
            # Audit: a final step or the chamber named by the cell it is drawn on is a place moves take
            # ("Red 1 to red step 2" goes to [4, 4]); refused here, `why 4,4` told the terminal, the protocol
            # and the table that the steps "are no cells", beside that very choice.
            return None
        # Audit: `why 4,8` answered 'Nothing may be done there. "to": [4, 8] is not a space of the temple
        # path.', the action's JSON field and all; the middle holds the steps and the chamber, no cells.
        x, y = game.board.xy(min(game.board.ring))
        return (f"{place[0]},{place[1]} is inside the ring of path cards, not a cell of the path nor one the"
                f" final steps or the Treasure Chamber are drawn on; path cells go round the edge of the"
                f" board, such as {x},{y}")
    slots = game.board.slot_numbers
    return (f"a card slot is named by its number, {min(slots)} to {max(slots)}; a cell by its column and row, "
            f"0,0 to {size - 1},{size - 1}")


def place_within(game: TempleGame, state: TempleState, place: Hashable) -> tuple[Hashable, str] | None:
    """A path cell's card slot ("[6,13] is on the card in slot 8"); None for a corner."""
    size = game.board.size
    if not (isinstance(place, tuple) and len(place) == 2 and all(isinstance(v, int) and 0 <= v < size
                                                                 for v in place)):  # fmt: skip
        return None
    node = game.board.node(*place)
    slot = game.board.slot_of.get(node)
    if slot is None:
        return None
    number = game.board.slot_numbers[slot]  # no "r1c2": the voice would spell it out, and the slot is the answer
    return number, f"[{place[0]},{place[1]}] is on the card in slot {number}"


def place_elsewhere(game: TempleGame, state: TempleState, place: Hashable, offered: Sequence[Action]) -> Ruling | None:
    """A corner cell during a card change, a slot during a move: what it is, and where the choice goes now.

    Audit: a corner got "what may be done now happens on slots", as though it were on one; a slot during
    the move got "happens on spaces" and six clauses gathered from sample moves (send-backs, stairways).
    """
    board = game.board
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
        example = game.where(state.current, document.parse_location(board, pawn[0], to))
        count = f"{state.roll[0]} space" + ("" if state.roll[0] == 1 else "s")
        return Ruling(False, f"Nothing may be done at slot {place} now: {name} moves a pawn {count}, and a move "
                             f"ends on a space, such as {example}, not on a slot.",
                      ("RU-10", "RU-11"))  # fmt: skip
    stairs = [a for a in offered if a.get("type") == "stair"]
    if state.phase == "resolve" and stairs and isinstance(place, int) and place in board.slot_numbers:
        # Audit: "what may be done now happens on spaces" with the stairway trips and RU-22 beside RU-Q21.
        colour, i = document.parse_pawn(state, stairs[0]["pawn"])
        example = game.where(colour, board.node(*stairs[0]["to"]))
        return Ruling(False, f"Nothing may be done at slot {place} now: {pawn_label(colour, i)} is on a secret "
                             f"stairway and goes on to another stairway's space, such as {example}, "
                             f"not to a slot.", ("RU-22",))  # fmt: skip
    return None
