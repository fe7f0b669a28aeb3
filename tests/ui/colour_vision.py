"""How the boards' colours look to colour-blind players, and which shape a drawn piece has: test helpers.

About 1 man in 12 lacks one kind of cone or has a weak one. The simulation is Machado, Oliveira and
Fernandes (2009, IEEE TVCG 15(6)), severity 1: a 3x3 matrix on linear sRGB for each full deficiency, the
matrices every later simulator reuses. Distances are CIEDE2000 (``companion.colours.delta_e``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from companion.colours import RGB, delta_e, linear
from tests.ui.drawing import pixel

MACHADO: dict[str, tuple[RGB, RGB, RGB]] = {  # severity 1.0, linear RGB in and out
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.303900)),
}
CONFUSED = 20.0  # CIEDE2000 under a simulation below which two pieces are not told apart at a glance


def encode(c: float) -> float:
    """A linear channel back to sRGB, clipped to the screen's range (IEC 61966-2-1)."""
    c = max(0.0, min(1.0, c))
    return c * 12.92 if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055


def simulate(colour: RGB, deficiency: str) -> RGB:
    """``colour`` as a person with ``deficiency`` (a ``MACHADO`` key) sees it, as the sRGB colour that looks so."""
    channels = [linear(c) for c in colour]
    return tuple(encode(sum(m * c for m, c in zip(row, channels, strict=True))) for row in MACHADO[deficiency])  # type: ignore[return-value]


def least_apart(one: RGB, two: RGB) -> tuple[float, str]:
    """The smallest CIEDE2000 difference of two colours under the three simulations, and which one gives it."""
    return min((delta_e(simulate(one, kind), simulate(two, kind)), kind) for kind in MACHADO)


def shape_at(
    pixels: bytes,
    widget: Any,
    cx: float,
    cy: float,
    r: float,
    fill: RGB,
    letters: Sequence[tuple[float, float, float, float]] = (),
) -> str:
    """``disc``, ``square`` or ``diamond``: the shape of a piece of colour ``fill`` drawn round (cx, cy) where a
    disc of radius ``r`` would be, read off the pixels; ``letters`` are the ink boxes (x, y, w, h) of the words
    drawn (``Words.ink``), whose pixels are passed over.

    Along a line out from the middle, the piece's colour (past its number) ends where the piece does: at the
    same distance on the axes and the diagonals for a disc, 1.4 times farther on the diagonals for a square,
    1.4 times nearer for a diamond.
    """

    def lettered(x: float, y: float) -> bool:
        return any(lx - 1 <= x <= lx + lw + 1 and ly - 1 <= y <= ly + lh + 1 for lx, ly, lw, lh in letters)

    def reach(angle: float) -> float:
        d, inside = 0.2 * r, False
        while d < 2 * r:
            x, y = cx + d * math.cos(angle), cy + d * math.sin(angle)
            if not lettered(x, y):
                got = pixel(pixels, widget, x, y)
                filled = max(abs(g - round(w * 255)) for g, w in zip(got, fill, strict=True)) <= 40
                if inside and not filled:
                    return d
                inside = inside or filled
            d += 0.25
        return d

    axes = sum(reach(math.radians(a)) for a in (0, 90, 180, 270))
    diagonals = sum(reach(math.radians(a)) for a in (45, 135, 225, 315))
    ratio = diagonals / axes
    return "square" if ratio > 1.2 else "diamond" if ratio < 0.85 else "disc"
