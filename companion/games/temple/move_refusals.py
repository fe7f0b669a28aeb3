"""Why a move is refused, with the clause it breaks: a hole, a wall, the whole roll, another colour's steps.

A refusal names what the table can see ("the red wall blocks every route"), never only "not allowed".
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.game import refuse
from companion.games.temple import moves
from companion.games.temple.move_reach import moves_from
from companion.games.temple.state import TempleState, pawn_label

if TYPE_CHECKING:
    from companion.games.temple.rules import TempleGame


def drawn_step(game: TempleGame, value: Any) -> tuple[str, int] | None:
    """(colour, step) of a final step named by the cell it is drawn on (``[11, 3]``), else None."""
    size = game.board.size
    if not (isinstance(value, list) and len(value) == 2 and all(
            isinstance(v, int) and not isinstance(v, bool) and 0 <= v < size for v in value)):  # fmt: skip
        return None
    drawn = game.board.drawn_inside(*value)
    return None if drawn is None or drawn[0] == "chamber" else drawn


def why_not(game: TempleGame, state: TempleState, colour: str, i: int, start: int, to: int, steps: int) -> Exception:
    board = game.board
    label = pawn_label(colour, i)
    place = game.where(colour, to)
    step = board.step_colour(to)
    if step and step[0] != colour:
        return refuse(f"Only {step[0]} pawns climb the {step[0]} steps.", "RU-15")
    if to == board.colours[colour].entrance:
        # Audit: this used to fall through to the walkability test and call the circles "a hole" (RU-11).
        # Nothing moves a pawn back onto its Entrance Circles but a send-back (RU-Q32).
        return refuse(
            f"{label} cannot move onto its Entrance Circles; only a send-back returns it there.", "RU-Q32"
        )
    if not game.layout(state).walkable[to]:
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
        ends = [game.where(colour, n) for n in moves_from(game, state, colour, start, steps)]
        where = (f"one of {', '.join(ends[:-1])} or {ends[-1]}" if len(ends) > 1 else ends[0]) if ends else ""
        goes = f"it goes to {where}" if ends else "none of them is open to it"
        return refuse(
            f"With a roll of 1, {label} moves to a space of the next column clockwise, diagonals included;"
            f" {place} is not one: {goes}.",  # three parts, each a sentence aloud: 27 words in one before
            "RU-Q17",
        )
    if to in moves_from(game, state, colour, start, steps, walls=False):
        return refuse(f"The {colour} wall blocks every route from {game.where(colour, start)} to {place}.", "RU-14")
    if state.option["must_use_full"]:
        loose = moves.reachable(board, game.layout(state), colour, start, steps, False, state.option["roll1_mode"])
        if to in loose:
            return refuse(
                f"{label} must use the whole roll of {steps}: a longer route exists, so it cannot stop at {place}.",
                "RU-Q16",
            )
    near = moves.reachable(board, game.layout(state), colour, start, steps, False, "orthogonal", walls=False)
    if to not in near:
        # Audit: a place simply out of reach (the chamber from another colour's steps, the far side of the
        # board) was refused as a walk "entering a space twice", which nobody at the table could make sense of.
        return refuse(
            f"{label} cannot reach {place} with a roll of {steps}: "
            + ("no single step" if steps == 1 else f"no route of {steps} steps or fewer")
            + " over path spaces leads there.",
            "RU-10",
        )
    # Left (with must_use_full, as without it the wall check above takes every shorter route): routes shorter than
    # the roll reach the place only across the wall (``near`` walks without walls, ``loose`` with them), and none
    # of the whole roll ends there. Audit: [2,1], one step from [3,1] across the red wall, with a roll of 2, was
    # refused as "cannot reach ... without entering a space twice" [RU-11], a rule no route broke.
    return refuse(
        f"The {colour} wall blocks every route from {game.where(colour, start)} to {place} shorter than the roll"
        f" of {steps}, and no route of all {steps} steps ends there.",
        "RU-14",
    )
