"""Which moves a pawn has for a roll, and why a pawn has none.

Apart from the move itself (``move_action``) because the turn's flow asks it too: a turn whose roll moves
no pawn ends at once (``turns.to_move``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.game import Event
from companion.games.temple import moves
from companion.games.temple.state import TempleState, pawn_label

if TYPE_CHECKING:
    from companion.games.temple.rules import TempleGame


def moves_from(game: TempleGame, state: TempleState, colour: str, node: int, steps: int, walls: bool = True) -> dict:
    opt = state.option
    return moves.reachable(
        game.board, game.layout(state), colour, node, steps, opt["must_use_full"], opt["roll1_mode"], walls
    )


def pawn_moves(game: TempleGame, state: TempleState) -> list[tuple[int, dict]]:
    colour = state.current
    steps = state.roll[0]
    out = []
    for i, node in enumerate(state.pawns[state.turn]):
        if node == game.board.chamber:
            continue
        found = moves_from(game, state, colour, node, steps)
        if found:
            out.append((i, found))
    return out


def boxed_in(game: TempleGame, state: TempleState) -> Event:
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
        if node != game.board.chamber:
            reasons.setdefault(stuck(game, state, colour, node), []).append(pawn_label(colour, i))
    parts = []
    for (why, _), who in reasons.items():
        pronoun = "them" if len(who) > 1 else "it"
        names = f"Neither {who[0]} nor {who[1]} can" if len(who) > 1 else f"{who[0]} cannot"
        parts.append(f"{names} take a step: {why.format(pronoun)}")
    rules = tuple(dict.fromkeys([*(rule for _, rule in reasons), "RU-Q26"]))
    return Event("warning", f"{'; '.join(parts)}; the turn ends.", rules, (colour,))


def stuck(game: TempleGame, state: TempleState, colour: str, node: int) -> tuple[str, str]:
    """Why a pawn with no move is stuck, and the clause: ``{}`` stands for "it" or "them"."""
    steps = state.roll[0]
    if steps == 1 and state.option["roll1_mode"] == "nextColumnAny3":
        return "none of the three spaces of the next column is open to {}", "RU-Q17"
    if moves_from(game, state, colour, node, steps, walls=False):
        return f"the {colour} wall is in the way", "RU-14"
    return "every space next to {} is a hole", "RU-11"


def stops_by_choice(game: TempleGame, state: TempleState, colour: str, start: int, steps: int) -> bool:
    """Whether a route of the whole count exists, so a shorter move is the option's choice, not a dead end."""
    if state.option["must_use_full"]:
        return False
    opt = state.option["roll1_mode"]
    full = moves.reachable(game.board, game.layout(state), colour, start, steps, True, opt)
    return any(len(route) == steps for end, route in full.items() if end != game.board.chamber)
