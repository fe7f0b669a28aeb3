"""Which offered place a finger on the board meant.

A fingertip is about 9 mm, 48 px on the 7 inch display, while Through the
Desert's hexes are 22 px across there and Blackpool's pieces 8-40 px: the
point Kivy reports is often on the hex next to the one aimed at, or in the
gap beside a card. So a tap is read as the finger's whole contact: the offered
place nearest to the point within ``REACH`` of it, whatever lies under the
point itself. When two or more offered places are about equally near (a
finger on the edge between two lit hexes) it does not guess: it answers with
all of them (``Nearby``) and the table asks which. The place under the point
stands when no offered place is in reach, or when the point is firmly inside
it (``FIRM`` from its every edge: the middle of a hex, most of a card), so a
finger aimed at an unlit place still asks "why not here?", and a rider on a
lit carrier is still the rider.

Distances are found with the drawing's own hit test (``place_at``), sampled on
rings round the point, so every board gets this without a geometry of its own.
No Kivy here: the arithmetic is tested with a plain function for a board.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Hashable, Iterator
from dataclasses import dataclass

REACH = 24.0  # units (px at 800x480): half a 9 mm fingertip on the 7 inch display
TIE = 3.0  # units: offered places whose distances differ by no more than this are equally near
FIRM = 6.0  # units: a point this deep inside an unlit place means that place (22 px hexes: their middle 9 px)
# Ring radii in units: fine near the point, where a tie is decided, coarser out to the reach.
RADII = (0.0, 1.5, 3.0, 6.0, 9.0, 12.0, 15.0, 18.0, 21.0, REACH)
SPACING = 3.0  # units between two samples on a ring: no place 3 units across slips between them

HitTest = Callable[[float, float], Hashable | None]


@dataclass(frozen=True)
class Nearby:
    """Offered places about equally near one tap: the table lists what may happen at each and asks which."""

    places: frozenset[Hashable]


def _ring(radius: float, unit: float) -> Iterator[tuple[float, float]]:
    if radius == 0:
        yield 0.0, 0.0
        return
    count = max(8, math.ceil(2 * math.pi * radius / SPACING))
    for i in range(count):
        angle = 2 * math.pi * i / count
        yield radius * unit * math.cos(angle), radius * unit * math.sin(angle)


def reached(
    hit: HitTest, x: float, y: float, offered: Collection[Hashable], unit: float = 1.0
) -> Hashable | Nearby | None:
    """The offered place a tap at (x, y) means, a ``Nearby`` when several are, else the place under the point.

    ``unit`` is the table's (1.0 at 800x480): the reach follows the drawing's scale.
    Rings are searched outwards and the search stops ``TIE`` past the first
    offered place met, so a tap on an offered place costs a few dozen hit tests.
    """
    under = hit(x, y)
    if not offered:
        return under
    found: dict[Hashable, float] = {}
    firm = under is not None and under not in offered  # still only this unlit place round the point
    for radius in RADII:
        if found and radius > min(found.values()) + TIE:
            break
        if firm and radius > FIRM:
            return under
        for dx, dy in _ring(radius, unit):
            place = under if radius == 0 else hit(x + dx, y + dy)
            firm = firm and place == under
            if place is not None and place in offered and place not in found:
                found[place] = radius
    if not found:
        return under
    nearest = min(found.values())
    close = frozenset(place for place, distance in found.items() if distance <= nearest + TIE)
    return next(iter(close)) if len(close) == 1 else Nearby(close)
