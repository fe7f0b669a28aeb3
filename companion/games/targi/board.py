"""The 5x5 layout: border card numbers, their grid positions, opposites and lines of sight.

Card 1 sits right of the top-left corner and numbers run clockwise, so the
top edge holds 1-3, the right edge 5-7, the bottom edge 9-11 (right to left)
and the left edge 13-15 (bottom to top); 4, 8, 12 and 16 are the corners.
"""

from __future__ import annotations

from companion.games.targi.cards import CORNERS

# Grid position (row, col) of every border card; the centre is rows/cols 1..3.
POSITION: dict[int, tuple[int, int]] = {
    1: (0, 1), 2: (0, 2), 3: (0, 3), 4: (0, 4),
    5: (1, 4), 6: (2, 4), 7: (3, 4), 8: (4, 4),
    9: (4, 3), 10: (4, 2), 11: (4, 1), 12: (4, 0),
    13: (3, 0), 14: (2, 0), 15: (1, 0), 16: (0, 0),
}  # fmt: skip
OPPOSITE: dict[int, int] = {1: 11, 2: 10, 3: 9, 5: 15, 6: 14, 7: 13}
OPPOSITE.update({b: a for a, b in list(OPPOSITE.items())})
EDGE_CARDS = tuple(n for n in range(1, 17) if n not in CORNERS)


def column_of(card: int) -> int | None:
    """The centre column a top or bottom card looks down; None for side cards and corners."""
    row, col = POSITION[card]
    return col if row in (0, 4) and 1 <= col <= 3 else None


def row_of(card: int) -> int | None:
    """The centre row a left or right card looks across; None for top/bottom cards and corners."""
    row, col = POSITION[card]
    return row if col in (0, 4) and 1 <= row <= 3 else None


def same_line(a: int, b: int) -> bool:
    """Whether two border cards share a grid row or column (the as-written placement ban)."""
    (ra, ca), (rb, cb) = POSITION[a], POSITION[b]
    return ra == rb or ca == cb


def intersections(cards: list[int] | tuple[int, ...]) -> list[int]:
    """Central slots (0..8) where one player's columns cross that player's rows."""
    cols = sorted({c for c in (column_of(n) for n in cards) if c is not None})
    rows = sorted({r for r in (row_of(n) for n in cards) if r is not None})
    return [(r - 1) * 3 + (c - 1) for r in rows for c in cols]
