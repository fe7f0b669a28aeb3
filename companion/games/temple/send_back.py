"""Send-backs: which spaces pawns hold, where a pawn sent back goes, and what a choice says of it.

A send-back is the one consequence every kind of step can have (a move, a stairway trip, the Ah Kinchil
card, a card change); they all come here so each cites RU-18 and the marker's clause the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from companion.game import Event
from companion.games.temple.clauses import CHANGE_OFF_PATH
from companion.games.temple.state import TempleState, pawn_label
from companion.phrases import series

if TYPE_CHECKING:
    from companion.games.temple.rules import TempleGame


def sends_back(occupants: Sequence[tuple[str, int] | None], rules: tuple[str, ...]) -> str:
    """What a choice sending pawns back adds to its text, with the clauses its ruling cites for the send-back.

    Moves, stairway trips, the Ah Kinchil card and card changes all use it: only
    checking the choice said that the pawn there goes back; the listed choice
    read like any other, and a player learnt of it once it was done. Nothing
    (an empty text) when nobody goes back.
    """
    pawns = [p for p in occupants if p is not None]
    if not pawns:
        return ""
    # Three pawns on one changed card read "sending Red 1 and Blue 1 and Green 1 back": listed as a sentence lists.
    return f", sending {series([pawn_label(*p) for p in pawns])} back [{', '.join(rules)}]"


def in_order_sent(
    pawns: Sequence[tuple[str, int]], events: Sequence[Event], by_end: bool = False
) -> list[tuple[str, int]]:
    """``pawns`` in the order the send-backs told in ``events`` took them: RU-Q14's, colour by colour from the
    player whose turn it is, a pawn a send-back bumps right after the pawn that bumped it. Pawns no send-back
    there names (waiting on a hole for a choice) follow, in their given order. ``by_end``: by the send-back that
    took each where it ends (a pawn bumped on from a marker it was sent to goes by its second send-back), for a
    text saying where the pawns end.

    Audit: a change's choice listed the pawns it sends back in seat order, "sending Red 1, Blue 1 and Green 1
    back" on Blue's turn, where the change then sent Blue 1, Green 1 and Red 1 back in that order; a referee
    reading the choice saw the colours the other way round from what happened. The order is read from the
    events ``send_back`` writes ("Blue 1 goes back to ..."), so it cannot drift from the order they happen in.
    """
    said = [e.text for e in events if e.kind == "penalty"]
    told = list(enumerate(said))

    def sent(pawn: tuple[str, int]) -> int:
        head = f"{pawn_label(*pawn)} goes back "
        return next((k for k, text in (told[::-1] if by_end else told) if text.startswith(head)), len(said))

    return sorted(pawns, key=sent)


def occupied_spaces(game: TempleGame, state: TempleState) -> dict[int, tuple[str, int]]:
    """The pawn on each space that holds one: path cells and final steps (the Entrance Circles and the chamber
    hold any number)."""
    board = game.board
    return {node: (c, i) for c, i, node in state.all_pawns() if board.is_cell(node) or node in board.step_nodes}


def send_back(
    game: TempleGame, state: TempleState, group: list[tuple[str, int]], events: list[Event], why: tuple[str, ...]
) -> TempleState:
    """Send pawns of one colour back, in the given order (the first takes the nearest marker)."""
    board = game.board
    layout = game.layout(state)
    colour = group[0][0]
    progress = board.progress[colour]
    entrance = board.colours[colour].entrance
    bump = state.option["send_back_occupied"] == "bump"
    moving = set(group)
    limit: int | None = None
    for c, i in group:
        here = state.pawn_at(c, i)
        occupied = {n: p for n, p in occupied_spaces(game, state).items() if p not in moving}
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
            text = f"{pawn_label(c, i)} goes back to its idol marker at {game.where(c, target)}."
            rules.append("RU-21" if target == board.ak_idol.get(c) else "RU-20")
        events.append(Event("penalty", text, tuple(dict.fromkeys(rules)), (c,)))
        occupant = occupied.get(target) if target != entrance else None
        # The pawn takes the marker before the occupant goes: still standing where it was, it could be
        # bumped from there by the very occupant it displaces, and the two would bump each other forever.
        state = state.with_pawn(c, i, target)
        if occupant is not None:
            said = f"{pawn_label(*occupant)} stood on the marker at {game.where(c, target)}."
            state = send_back_occupant(game, state, occupant, events, said, ("RU-Q12",), ("RU-Q12",))
        moving.discard((c, i))
        limit = progress[target]
    return state


def send_back_occupant(
    game: TempleGame,
    state: TempleState,
    occupant: tuple[str, int],
    events: list[Event],
    said: str,
    rules: tuple[str, ...],
    why: tuple[str, ...],
) -> TempleState:
    """The pawn a move, a stairway trip or a send-back found on its space: the table is told how it was
    displaced (``said``, under ``rules``), then it goes back, its send-back citing ``why``.

    The arriving pawn already stands on the space (see ``send_back``), so the two never bump each other.
    """
    events.append(Event("penalty", said, rules, (occupant[0],)))
    return send_back(game, state, [occupant], events, why)


def order_matters(game: TempleGame, state: TempleState, colour: str) -> bool:
    """Whether it makes a difference which of the colour's two pawns takes the nearer marker (RU-Q13).

    Audit: with pair_order = ownerChooses the owner was asked "which goes back to the nearer marker?" even
    when no marker lay behind either pawn, between two choices that both read "Red 1 back to its Entrance
    Circles, Red 2 back to its Entrance Circles".
    """
    first = send_back(game, state, [(colour, 0), (colour, 1)], [], CHANGE_OFF_PATH)
    return first.pawns != send_back(game, state, [(colour, 1), (colour, 0)], [], CHANGE_OFF_PATH).pawns
