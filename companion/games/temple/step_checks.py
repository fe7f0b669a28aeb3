"""Checks on a colour's final steps in ``board.json``: one unbroken stairway from its foot up to the chamber.

The referee climbs the steps in the order listed whatever cells they name
(RU-15, RU-Q20), so nothing in play goes wrong when the cells are scattered;
but the screen and the terminal draw the steps on those cells, and the
players follow the drawing. Steps with a gap, listed top first, shared by two
colours or hidden under the chamber show a climb that differs from the one
refereed, and a foot on a printed hole is a climb nobody can ever start.
Each problem names the field, the cells and what to change, like the rest of
``schemas.py``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import pairwise
from typing import Any

Cell = tuple[int, int]


def _xy(value: Any) -> Cell:
    return (value[0], value[1])


def touch(a: Cell, b: Cell) -> bool:
    """Side by side or corner to corner: the house steps climb along the diagonals."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1])) == 1


def chamber_block(chamber: Cell) -> tuple[Cell, Cell]:
    """The first and last cell the Treasure Chamber covers: it is drawn 1.3 cells round its centre cell."""
    return (chamber[0] - 1, chamber[1] - 1), (chamber[0] + 1, chamber[1] + 1)


def _under_chamber(cell: Cell, chamber: Cell) -> bool:
    return max(abs(cell[0] - chamber[0]), abs(cell[1] - chamber[1])) <= 1


def _beside_chamber(cell: Cell, chamber: Cell) -> bool:
    return max(abs(cell[0] - chamber[0]), abs(cell[1] - chamber[1])) == 2


def _climbs(foot: Cell, cells: Sequence[Cell], chamber: Cell) -> bool:
    chain = [foot, *cells]
    return all(touch(a, b) for a, b in pairwise(chain)) and _beside_chamber(cells[-1], chamber)


def steps_problems(
    board: Mapping[str, Any], ring: Mapping[Cell, str], printed: Mapping[Cell, tuple[str, str]]
) -> list[str]:
    """Every colour's steps: on the board, each cell its own, clear of the chamber, unbroken, not from a hole.

    ``ring`` maps each ring cell to the slot or corner covering it; ``printed``
    maps each corner cell to its kind and where the file writes it.
    """
    size = board["size"]
    chamber = _xy(board["chamber"])
    first, last = chamber_block(chamber)
    drawn = f"drawn over {list(first)} to {list(last)} round {list(chamber)}"
    problems: list[str] = []
    taken: dict[Cell, tuple[str, int]] = {}
    for colour, spec in board["colours"].items():
        where = f"board.json: colours.{colour}.steps"
        foot = _xy(spec["steps"]["foot"])
        cells = [_xy(raw) for raw in spec["steps"]["cells"]]
        kind, written = printed.get(foot, ("path", ""))
        if kind == "hole":
            problems.append(
                f"{where}.foot {list(foot)} is a hole ({written}), so a {colour} pawn could never reach its steps "
                f"(RU-15); make that cell path, or put the foot on a path cell of the ring's inner lane"
            )
        sound = foot in ring
        for k, cell in enumerate(cells, start=1):
            if not (0 <= cell[0] < size and 0 <= cell[1] < size):
                problems.append(
                    f"{where}.cells {list(cell)} (step {k}) is off the {size}x{size} board; steps are drawn inside "
                    f"the ring, from the foot {list(foot)} to the Treasure Chamber"
                )
                sound = False
            elif cell in ring:
                problems.append(f"{where}.cells {list(cell)} must be a cell inside the ring, where the steps are drawn")
                sound = False
            elif _under_chamber(cell, chamber):
                problems.append(
                    f"{where}.cells {list(cell)} (step {k}) lies under the Treasure Chamber, {drawn}, which would "
                    "hide it; end the steps on a cell next to the chamber"
                )
                sound = False
            other = taken.setdefault(cell, (colour, k))
            if other == (colour, k):
                continue
            sound = False
            if other[0] == colour:
                problems.append(
                    f"{where}.cells {list(cell)} is step {other[1]} and step {k}; give each step a cell of its own"
                )
            else:
                problems.append(
                    f"{where}.cells {list(cell)} (step {k}) is {other[0]}'s step {other[1]} too; two colours' "
                    "steps cannot share a cell: give each colour its own"
                )
        if sound:
            problems.extend(_gaps(where, foot, cells, chamber, drawn))
    return problems


def _gaps(where: str, foot: Cell, cells: Sequence[Cell], chamber: Cell, drawn: str) -> list[str]:
    """Where the stairway from the foot through the listed cells to the chamber breaks, or that it runs backwards."""
    if _climbs(foot, cells, chamber):
        return []
    if len(cells) > 1 and _climbs(foot, cells[::-1], chamber):
        return [
            f"{where}.cells are listed from the chamber down ({list(cells[0])} first, {list(cells[-1])} beside the "
            f"foot {list(foot)} last); list them bottom first, from the foot up, as a pawn climbs them"
        ]
    problems = []
    below, below_name = foot, "the foot"
    for k, cell in enumerate(cells, start=1):
        if not touch(below, cell):
            problems.append(
                f"{where}.cells {list(cell)} (step {k}) does not touch {below_name} {list(below)}; each step must "
                f"be next to the one below it (side or corner): move it, or add the steps between"
            )
        below, below_name = cell, f"step {k}"
    if not _beside_chamber(cells[-1], chamber):
        problems.append(
            f"{where}.cells {list(cells[-1])} (step {len(cells)}, the top one) is not next to the Treasure Chamber, "
            f"{drawn}; the top step must touch it (side or corner): move it, or add the steps between"
        )
    return problems
