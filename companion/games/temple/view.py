"""What the table sees of a temple position: the terminal picture (the ring of cards, the pawns and the
hidden-hand counts), where each pawn stands, and the pieces an undo has put back by hand."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import TYPE_CHECKING, Any

from companion.game import OnTable
from companion.games.temple import document
from companion.games.temple.places import cell_name
from companion.games.temple.state import TempleState, pawn_label

if TYPE_CHECKING:
    from companion.games.temple.rules import TempleGame


SYMBOLS = {"path": ".", "hole": "#", "stair": "S"}
PAWN_LETTERS = {"red": "R", "blue": "B", "green": "G", "yellow": "Y"}


def value_words(game: TempleGame, state: TempleState, key: str, value: Any) -> str | None:
    """A field's value as the temple's texts write it: a face by its colour ("Die shows red 3"), a pawn "Red 1", a
    place "[7,2] (slot 2)" or "step 2", a route by its cells "[5,0], [5,1]", the card "Ah Kinchil card". None
    for what says itself (a path card "P05", a number)."""
    if key == "face" and isinstance(value, Mapping) and set(value) == {"colour"} and isinstance(value["colour"], str):
        return value["colour"]
    if key == "card" and value == game.board.ak_card:  # the draw says "Ah Kinchil card"; path cards go by "P05"
        return "Ah Kinchil card"
    colour = state.current  # "step2" and "chamber" are reached by the steps of the colour to move
    try:
        if key in ("pawn", "first"):  # "first": the pawn of a pair that moves first
            return pawn_label(*document.parse_pawn(state, value))
        if key == "to":
            words = game.where(colour, document.parse_location(game.board, colour, value))
            # "step2" is a step of the moving pawn's colour, whichever pawn the action names: "step 2"
            return words.removeprefix(f"{colour} ") if isinstance(value, str) else words
        if key == "route" and isinstance(value, list) and value:
            return ", ".join(cell_name(game, colour, document.parse_location(game.board, colour, n)).removeprefix(
                f"{colour} ") for n in value)
    except (ValueError, KeyError, TypeError, IndexError):
        return None  # not a pawn or place of this game: shown as it was typed
    return None


def cell_symbol(kind: str) -> str:
    if kind.startswith("idol:"):
        return kind[5]  # r, b, g, y: an idol marker of that colour
    return SYMBOLS.get(kind, "?")


def standing(game: TempleGame, colour: str, node: int) -> str:
    """Where a pawn is, with the word English puts before the place: "in the Treasure Chamber", "on red step 2".

    Audit: every place took "at", and the board and the score read "Red 2 at the Treasure Chamber".
    """
    place = game.where(colour, node)
    if node == game.board.chamber:
        return f"in {place}"
    return f"on {place}" if game.board.step_colour(node) else f"at {place}"


def steps_key(game: TempleGame) -> str:
    """The key's words for the step numbers: how many steps each colour has on this board.

    A café board may give its colours 1 to 6 steps each; the key once said
    "1-3" whatever the board, so a player on a taller stairway read its top
    steps as someone else's.
    """
    counts = {colour: len(geo.steps) for colour, geo in game.board.colours.items()}
    top = max(counts.values())
    numbers = "1 final step" if top == 1 else f"1-{top} final steps"
    if len(set(counts.values())) == 1:
        return numbers
    return f"{numbers} ({', '.join(f'{colour} {n}' for colour, n in counts.items())})"


def describe(game: TempleGame, state: TempleState) -> list[str]:
    board = game.board
    layout = game.layout(state)
    pawns = {node: (colour, i) for colour, i, node in state.all_pawns() if board.is_cell(node)}
    # Final steps are drawn inside the ring by their number, the chamber as C.
    inner: dict[tuple[int, int], str] = {board.chamber_cell: "C"}
    for geo in board.colours.values():
        for k, (cell, node) in enumerate(zip(geo.step_cells, geo.steps, strict=True)):
            on = [c for c, _i, n in state.all_pawns() if n == node]
            inner[cell] = PAWN_LETTERS.get(on[0], "P") if on else str(k + 1)
    lines = ["    " + "".join(f"{x % 10}" for x in range(board.size))]
    for y in range(board.size):
        row = []
        for x in range(board.size):
            node = board.node(x, y)
            if node not in board.ring:
                row.append(inner.get((x, y), " "))
            elif node in pawns:
                colour = pawns[node][0]
                row.append(PAWN_LETTERS.get(colour, "P"))
            else:
                row.append(cell_symbol(layout.kind(node)))
        lines.append(f"{y:>3} " + "".join(row))
    lines.append(f"key: . path  # hole  S stairway  r/b/g/y idol marker  R/B/G/Y pawn  {steps_key(game)}  C chamber")
    in_chamber = [f"{pawn_label(c, i)}" for c, i, n in state.all_pawns() if n == board.chamber]
    if in_chamber:
        lines.append(f"in the Treasure Chamber: {', '.join(in_chamber)}")
    slots = ", ".join(f"{n}:{c or '-'}" for n, c in zip(board.slot_numbers, state.slots, strict=True))
    lines.append(f"slots: {slots}")
    for seat, colour in enumerate(state.players):
        pair = enumerate(state.pawns[seat])
        places = "; ".join(f"{pawn_label(colour, i)} {standing(game, colour, n)}" for i, n in pair)
        marker = "*" if seat == state.turn and state.phase not in ("assembly", "first_roll", "over") else " "
        lines.append(f"{marker} {colour:<6} hand {state.hands[seat]}  {places}")
    lines.append(f"draw pile {state.pile}, discard {len(state.discard)}: {' '.join(state.discard) or '-'}")
    if state.roll is not None:
        lines.append(f"roll: {state.roll[1]} {state.roll[0]}")
    # No "next: ..." line: the prompt under the board (terminal and table screen) says it; it was said twice.
    return lines


def on_table(game: TempleGame, state: TempleState) -> dict[Hashable, OnTable]:
    """Each pawn's place (RU-10), each card in a slot (RU-7) or on the discard pile, the cards in each hand
    and the draw pile (RU-26): what an undo has the table put back by hand ("Put Blue 2 back at its Entrance
    Circles.", "Put card P05 back in slot 3."). The cards in a hand are hidden (RU-H2): only counted, so a
    card in a slot or on the pile that was in none before the step goes back to a hand (``from_hand``)."""
    out: dict[Hashable, OnTable] = {}
    for colour, i, node in state.all_pawns():
        out[("pawn", colour, i)] = OnTable(colour, pawn_label(colour, i), standing(game, colour, node), ("RU-10",))
    for number, card in zip(game.board.slot_numbers, state.slots, strict=True):
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
