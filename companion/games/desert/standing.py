"""Where a runner stands in the race, said once for every view that shows it.

The board's player row and the text view (and so the score sheet's standings)
said "lap done" for a runner who had passed Desert Dawn, on space 23 as on
space 2: at a lap race the table read it as finished, though the race ends
only when a runner with the lap and a Golden Compass ends a move on the Secret
Passage (DR-1, DR-28). The lap is one of two things a runner needs; the views
now say what is still missing, from this one function.
"""

from __future__ import annotations

from typing import NamedTuple

from companion.games.desert.board import Board
from companion.games.desert.flow import spaces_word


class Standing(NamedTuple):
    """``short`` fits the board's row ("lap 23/40", "needs Compass", "14 to go", "won"); ``text`` is the
    same thing in full for the text view; ``rules`` the clauses it rests on."""

    short: str
    text: str
    rules: tuple[str, ...]


def to_passage(board: Board, space: int) -> int:
    """Spaces forward from ``space`` to the Secret Passage; a full loop when standing on it (a Vortex may put
    a piece there without a win, DR-Q2), since only a move that ends there enters it."""
    return (board.passage - space) % board.size or board.size


def standing(board: Board, space: int, lap: bool, compass: bool, won: bool = False) -> Standing:
    """What the runner on ``space`` still needs to win: the lap (counted in spaces round from Desert Dawn), a
    Golden Compass, or only the spaces to the Secret Passage."""
    passage = board.passage_label
    if won:
        return Standing("won", f"won: entered {passage}", ("DR-28",))
    if not lap:
        counted = f"lap {space}/{board.size}"  # the spaces round: the lap counts once Desert Dawn is passed
        return Standing(counted, counted, ("DR-1", "DR-Q10"))
    if not compass:
        return Standing("needs Compass", f"lap done; needs a Golden Compass for {passage}", ("DR-17", "DR-28"))
    ahead = to_passage(board, space)
    return Standing(f"{ahead} to go", f"lap done, holds the Compass: {passage} is {spaces_word(ahead)} ahead",
                    ("DR-28", "DR-Q2"))


__all__ = ["Standing", "standing", "to_passage"]
