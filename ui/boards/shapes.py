"""Flat shapes gathered by colour and drawn as a few meshes: a board of hundreds of hexes in a handful of draws.

Every Kivy vertex instruction (an ``Ellipse``, a ``Line``, a ``Mesh``) keeps buffers of its own in the GL
driver for as long as it is on the canvas. Through the Desert's map drew each hex, its edge and every camel's
discs as one each, close to a thousand of them late in a game, and the driver held about 40-70 kB for each
(measured with Mesa's llvmpipe): the kiosk's memory rose by steps whenever a game reached a fuller map than
any before. Gathered here, a colour's shapes are one mesh however many there are.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from kivy.graphics import Color, Mesh

Colour = tuple[float, float, float, float]
KIVY_SEGMENTS = 180  # a Kivy Ellipse's own
MAX_VERTICES = 60_000  # a mesh's indices are 16-bit: a longer list goes on in a second mesh
Store = dict[tuple[int, Colour], list[tuple[list[float], list[int]]]]  # (layer, colour): its meshes' data


class Shapes:
    """Filled polygons, ellipses and thin outlines, each in a layer; ``draw`` puts lower layers first.

    Within a layer the order of shapes is lost, so a layer holds shapes that do not overlap (or
    overlap in one colour): a disc's rim in one layer and its fill, drawn over it, in the next.
    """

    def __init__(self) -> None:
        self._fills: Store = {}
        self._lines: Store = {}

    def polygon(self, layer: int, colour: Sequence[float], points: Sequence[float]) -> None:
        """A convex polygon from its corners ``[x0, y0, x1, y1, ...]``, filled."""
        corners = len(points) // 2
        if corners < 3:
            return
        indices, first = self._add(self._fills, layer, colour, points)
        for i in range(1, corners - 1):
            indices += [first, first + i, first + i + 1]

    def ellipse(
        self,
        layer: int,
        colour: Sequence[float],
        cx: float,
        cy: float,
        rx: float,
        ry: float,
        segments: int | None = None,
    ) -> None:
        """An ellipse centred on (cx, cy), filled; smooth to well under a pixel at a board's sizes.

        ``segments=KIVY_SEGMENTS`` gives the very pixels of a Kivy ``Ellipse`` of that box, for a drawing
        turned into meshes that should look exactly as before.
        """
        if rx <= 0 or ry <= 0:
            return
        segments = segments or max(12, min(64, int(max(rx, ry) * 2)))
        points: list[float] = []
        for k in range(segments):
            angle = 2 * math.pi * k / segments
            points += [cx + rx * math.sin(angle), cy + ry * math.cos(angle)]
        self.polygon(layer, colour, points)

    def rectangle(self, layer: int, colour: Sequence[float], x: float, y: float, w: float, h: float) -> None:
        """An upright rectangle from its lower-left corner and size, filled: a Kivy ``Rectangle`` without texture."""
        self.polygon(layer, colour, [x, y, x + w, y, x + w, y + h, x, y + h])

    def disc(
        self,
        layer: int,
        cx: float,
        cy: float,
        r: float,
        fill: Sequence[float],
        outline: Sequence[float],
        edge: float,
        segments: int | None = None,
    ) -> None:
        """``paint.disc`` gathered here: the rim in ``layer``, the fill over it in the next (no rim at ``edge`` 0)."""
        if edge > 0:
            self.ellipse(layer, outline, cx, cy, r + edge, r + edge, segments)
        self.ellipse(layer + 1, fill, cx, cy, r, r, segments)

    def ring(self, layer: int, colour: Sequence[float], outer: Sequence[float], inner: Sequence[float]) -> None:
        """The band between two polygons of as many corners, ``inner`` inside ``outer``: a thick outline whose
        corners do not overlap, so a see-through colour is even all round."""
        corners = min(len(outer), len(inner)) // 2
        for i in range(corners):
            j = (i + 1) % corners
            quad = [outer[2 * i], outer[2 * i + 1], outer[2 * j], outer[2 * j + 1],
                    inner[2 * j], inner[2 * j + 1], inner[2 * i], inner[2 * i + 1]]
            self.polygon(layer, colour, quad)

    def outline(self, layer: int, colour: Sequence[float], points: Sequence[float]) -> None:
        """A closed one-pixel line through ``[x0, y0, x1, y1, ...]`` (a ``Line(close=True, width=1)``)."""
        corners = len(points) // 2
        if corners < 2:
            return
        indices, first = self._add(self._lines, layer, colour, points)
        for i in range(corners):
            indices += [first + i, first + (i + 1) % corners]

    def draw(self) -> None:
        """Every layer in turn, fills before outlines within one; call inside ``with widget.canvas``."""
        layers = sorted({layer for layer, _ in self._fills} | {layer for layer, _ in self._lines})
        for layer in layers:
            for store, mode in ((self._fills, "triangles"), (self._lines, "lines")):
                for (at, colour), meshes in store.items():
                    if at != layer:
                        continue
                    Color(*colour)
                    for vertices, indices in meshes:
                        Mesh(vertices=vertices, indices=indices, mode=mode)

    @staticmethod
    def _add(store: Store, layer: int, colour: Sequence[float], points: Sequence[float]) -> tuple[list[int], int]:
        """Put a shape's corners on its layer and colour's mesh; that mesh's index list, for the shape's own
        indices, and the number of its first corner there."""
        corners = len(points) // 2
        rgba = (*colour, 1.0) if len(colour) == 3 else tuple(colour)
        meshes = store.setdefault((layer, rgba), [])
        if not meshes or len(meshes[-1][0]) // 4 + corners > MAX_VERTICES:
            meshes.append(([], []))
        vertices, indices = meshes[-1]
        first = len(vertices) // 4
        for i in range(corners):
            vertices += [points[2 * i], points[2 * i + 1], 0, 0]
        return indices, first
