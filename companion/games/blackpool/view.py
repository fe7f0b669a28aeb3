"""A text picture of the board for the terminal referee.

The grid follows the board's own coordinates (row 1 at the bottom, so
"anti-clockwise" reads the same as on the table); each square shows its
stack bottom-up (``Y1+R2``: Red 2 rides Yellow 1) and ``*`` marks frozen.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.games.blackpool.board import CAMP, CENTRE
from companion.games.blackpool.cards import DECKS
from companion.games.blackpool.state import State, Traveller, traveller_name

if TYPE_CHECKING:
    from companion.games.blackpool.rules import Blackpool

CELL = 7


def short(t: Traveller) -> str:
    return f"{t.colour[0].upper()}{t.number}{'*' if t.frozen else ''}"


def stack_text(state: State, ids: tuple[str, ...]) -> str:
    by_id = state.by_id
    members = [by_id[i] for i in ids]
    ordered: list[Traveller] = []
    bases = [t for t in members if t.on is None or t.on not in ids]
    riders = state.riders
    for base in bases:
        current: Traveller | None = base
        while current is not None:
            ordered.append(current)
            nxt = riders.get(current.id)
            current = by_id[nxt] if nxt and nxt in ids else None
    joiner = "+" if len(bases) == 1 else "&"
    return joiner.join(short(t) for t in ordered)


def describe_state(game: Blackpool, state: State) -> list[str]:
    board = game.board
    lines: list[str] = []
    chess_ids = board.by_xy.get((0, 0)) is not None and board.by_xy[(0, 0)].id == "a1"
    camp_counts = {p: sum(1 for t in state.own(p) if t.at == CAMP) for p in state.players}
    centre_count = sum(1 for t in state.travellers if t.at == CENTRE)
    draft = bool(state.opts["variant.glossaryDraft"])
    for y in range(board.height - 1, -1, -1):
        cells = []
        for x in range(board.width):
            sq = board.by_xy.get((x, y))
            if sq is None:
                cells.append(" " * CELL)
                continue
            ids = state.at_square.get(sq.id, ())
            if sq.zone == "camp":
                owner = board.camp_colour.get(sq.id, "?")
                count = camp_counts.get(owner)
                text = f"[{owner[0].upper()}:{count}]" if count is not None else f"[{owner[0].upper()}]"
            elif sq.zone == "centre":
                text = f"(C:{centre_count})"
            elif ids:
                text = stack_text(state, ids)
            elif sq.zone == "edge":
                text = "."
            else:
                text = str(board.pull(sq.id, draft))
            cells.append(text.center(CELL))
        label = f"{y + 1:>2} " if chess_ids else "   "
        lines.append(label + "".join(cells).rstrip())
    if chess_ids:
        lines.append(("   " + "".join(chr(ord("a") + x).center(CELL) for x in range(board.width))).rstrip())
    # The centre shows how many wait there, not its pull: "(C:6)" at the opening, beside rings showing 4, 3
    # and 2, read as a pull of 6 while the legend said only that water squares show their pull.
    lines.append(
        "Empty water squares show their pull; '.' is the edge; [Y:n] a camp with n home; "
        "(C:n) n waiting in the centre; * frozen."
    )
    for p in state.players:
        marks = []
        if p == state.turn and state.phase != "over":
            marks.append("to play")
        if p in state.finished:
            marks.append(f"finished #{state.finished.index(p) + 1}")
        head = f"{p.capitalize()}" + (f" ({', '.join(marks)})" if marks else "")
        parts = [f"coins {state.coins_of(p)}"]
        for t in state.own(p):
            parts.append(traveller_line(game, state, t))
        lines.append(f"{head}: " + "; ".join(parts))
    deck_parts = []
    for deck in DECKS:
        names = [game.catalogue[cid].name for cid, n in state.decks if n > 0 and game.catalogue[cid].deck == deck]
        size = state.deck_size(game.catalogue, deck)
        deck_parts.append(f"{deck} {size} left" + (f" ({', '.join(names)})" if names else ""))
    lines.append("Decks: " + "; ".join(deck_parts))
    # No "Now: ..." line: the terminal's prompt and the table screen's say what is pending right under it,
    # and the terminal showed it twice after every step (three times at the end, with the winner's event).
    return lines


def traveller_line(game: Blackpool, state: State, t: Traveller) -> str:
    board = game.board
    name = traveller_name(t.id)
    if t.at == CENTRE:
        text = f"{name} in the centre"
    elif t.at == CAMP:
        text = f"{name} in camp"
    else:
        step = board.index[t.colour].get(t.at, -1) + 1
        text = f"{name} {board.label(t.at)} step {step}/{board.path_length(t.colour)}"
    if t.on:
        text += f", riding {traveller_name(t.on)}"
    rider = state.riders.get(t.id)
    if rider:
        text += f", carrying {traveller_name(rider)}"
    if t.frozen:
        text += ", frozen"
    return text
