"""Flat shapes gathered by colour and drawn as a few meshes: a board of hundreds of hexes in a handful of draws.

Every Kivy vertex instruction (an ``Ellipse``, a ``Line``, a ``Mesh``) keeps buffers of its own in the GL
driver for as long as it is on the canvas. Through the Desert's map drew each hex, its edge and every camel's
discs as one each, close to a thousand of them late in a game, and the driver held about 40-70 kB for each
(measured with Mesa's llvmpipe): the kiosk's memory rose by steps whenever a game reached a fuller map than
any before. Gathered here, a colour's shapes are one mesh however many there are.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Sequence

from kivy.graphics import Color, Mesh

Colour = tuple[float, float, float, float]
Triangle = tuple[float, float, float, float, float, float]  # x0, y0, x1, y1, x2, y2
KIVY_SEGMENTS = 180  # a Kivy Ellipse's own
KIVY_PRECISION = 10  # a Kivy Line's joint_precision and cap_precision
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

    def piece(
        self,
        layer: int,
        shape: str,
        cx: float,
        cy: float,
        r: float,
        fill: Sequence[float],
        outline: Sequence[float],
        edge: float,
        segments: int | None = None,
    ) -> None:
        """A player's piece in its colour's shape (``companion.colours.piece_shape``) where a disc of radius ``r``
        would be: the rim in ``layer``, the fill in the next, as ``disc``."""
        inner = piece_points(shape, cx, cy, r)
        if inner is None:
            self.disc(layer, cx, cy, r, fill, outline, edge, segments)
            return
        if edge > 0:
            self.polygon(layer, outline, piece_points(shape, cx, cy, r, edge) or inner)
        self.polygon(layer + 1, fill, inner)

    def ring(self, layer: int, colour: Sequence[float], outer: Sequence[float], inner: Sequence[float]) -> None:
        """The band between two polygons of as many corners, ``inner`` inside ``outer``: a thick outline whose
        corners do not overlap, so a see-through colour is even all round."""
        corners = min(len(outer), len(inner)) // 2
        for i in range(corners):
            j = (i + 1) % corners
            quad = [outer[2 * i], outer[2 * i + 1], outer[2 * j], outer[2 * j + 1],
                    inner[2 * j], inner[2 * j + 1], inner[2 * i], inner[2 * i + 1]]
            self.polygon(layer, colour, quad)

    def triangles(self, layer: int, colour: Sequence[float], triangles: Sequence[Triangle]) -> None:
        """Triangles as they are, in order (``line_triangles``, or pieces of them): overlaps blend as listed."""
        for triangle in triangles:
            indices, first = self._add(self._fills, layer, colour, triangle)
            indices += [first, first + 1, first + 2]

    def line(self, layer: int, colour: Sequence[float], points: Sequence[float], width: float,
             close: bool = False) -> None:  # fmt: skip
        """A Kivy ``Line(points=..., width=width, close=close)`` wider than 1, as its very triangles."""
        self.triangles(layer, colour, line_triangles(points, width, close))

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


SQUARE = 0.88  # a square piece's half side over the disc's radius: as much colour as the disc (0.886 exactly)
DIAMOND = 1.15  # a diamond's half diagonal: its number (16 px, 9x12 px of ink) still fits inside


def piece_points(shape: str, cx: float, cy: float, r: float, edge: float = 0.0) -> list[float] | None:
    """The corners of a square or diamond piece standing where a disc of radius ``r`` would, grown by a rim
    ``edge`` wide all round; None for a disc (or a shape it does not know), which is drawn round."""
    if shape == "square":
        s = r * SQUARE + edge
        return [cx - s, cy - s, cx + s, cy - s, cx + s, cy + s, cx - s, cy + s]
    if shape == "diamond":
        d = r * DIAMOND + edge * math.sqrt(2)
        return [cx, cy - d, cx + d, cy, cx, cy + d, cx - d, cy]
    return None


def piece_reach(shape: str) -> float:
    """How far a piece of ``shape`` reaches from its middle, over the disc's radius: a ring round it clears that."""
    return {"square": SQUARE * math.sqrt(2), "diamond": DIAMOND}.get(shape, 1.0)


def piece_within(shape: str, r: float, edge: float) -> float:
    """The radius to give a piece of ``shape`` with a rim ``edge`` wide so that, rim and corners too, it reaches no
    farther than a disc of radius ``r`` with that rim: a row of pips stays apart whatever their shape."""
    if shape not in ("square", "diamond"):
        return r
    return max(0.0, (r + edge - edge * math.sqrt(2)) / piece_reach(shape))


def piece_inside(shape: str) -> float:
    """The radius of the largest circle inside a piece of ``shape``, over the disc's: a mark drawn in it stays in."""
    return {"square": SQUARE, "diamond": DIAMOND / math.sqrt(2)}.get(shape, 1.0)


def circle_points(cx: float, cy: float, r: float) -> list[float]:
    """The points of a Kivy ``Line(circle=(cx, cy, r))``: 183, the first and last at the top (it is not closed)."""
    segments = int(360 / 2) + 3
    step = abs(360 * 0.017453292519943295 - 0.0) / (segments * 2 - 2)
    points: list[float] = []
    for i in range(0, segments * 2, 2):
        angle = i * step
        points += [cx + r * math.sin(angle), cy + r * math.cos(angle)]
    return points


def line_triangles(points: Sequence[float], width: float, close: bool = False) -> list[Triangle]:
    """The triangles a Kivy ``Line`` wider than 1 draws (round joints and caps), in the order it draws them.

    Kivy builds a wide line's triangles itself (``build_extended`` in its ``vertex_instructions_line.pxi``),
    overlapping where segments meet (a closed rectangle's first side is laid twice, an inner corner's square
    twice). Made here the same way, to the same float32 corners, an opaque line gathered into a mesh leaves
    the very pixels the ``Line`` did. A see-through one Kivy draws through the stencil, each pixel once:
    for a rectangle that is ``frame_triangles``.
    """
    corners, triangles, _ = _line_build(points, width, close)
    return [(*corners[a], *corners[b], *corners[c]) for a, b, c in triangles]


def frame_triangles(x: float, y: float, w: float, h: float, width: float) -> list[Triangle]:
    """What a Kivy ``Line(rectangle=(x, y, w, h), width=width)`` covers, in triangles that do not overlap.

    A see-through line (a mark's dark rim at 0.85) is drawn by Kivy through the stencil, so each pixel under
    it is blended once, where its own triangles overlap. The same cover, made of the line's own corners: its
    four sides cut where they would overlap, and its four round corners as they are.
    """
    corners, triangles, quads = _line_build([x, y, x + w, y, x + w, y + h, x, y + h], width, True)
    if len(quads) < 4:
        return line_triangles([x, y, x + w, y, x + w, y + h, x, y + h], width, True)
    bottom, right, top, left = (corners[q : q + 4] for q in quads[:4])
    x0, x1, y0, y1 = bottom[0][0], bottom[1][0], right[0][1], right[1][1]
    l_out, l_in, r_out, r_in = left[0][0], left[2][0], right[0][0], right[2][0]
    b_out, b_in, t_out, t_in = bottom[0][1], bottom[2][1], top[0][1], top[2][1]
    if not (l_out < x0 < l_in < r_in < x1 < r_out and b_out < y0 < b_in < t_in < y1 < t_out):
        return line_triangles([x, y, x + w, y, x + w, y + h, x, y + h], width, True)
    out: list[Triangle] = []
    for left_x, bottom_y, right_x, top_y in (
        (x0, b_out, x1, y0),
        (l_out, y0, r_out, b_in),
        (l_out, b_in, l_in, t_in),
        (r_in, b_in, r_out, t_in),
        (l_out, t_in, r_out, y1),
        (x0, y1, x1, t_out),
    ):
        out.append((left_x, bottom_y, right_x, bottom_y, right_x, top_y))
        out.append((left_x, bottom_y, right_x, top_y, left_x, top_y))
    joints = {v for v in range(len(corners)) if not any(q <= v < q + 4 for q in quads)}
    for a, b, c in triangles:
        if a in joints:  # a round corner's fan, from the corner out
            out.append((*corners[a], *corners[b], *corners[c]))
    return out


def _line_build(
    points: Sequence[float], width: float, close: bool
) -> tuple[list[tuple[float, float]], list[tuple[int, int, int]], list[int]]:
    """Kivy's ``build_extended``: the corners (float32), the triangles by corner, each segment's first corner."""
    p = list(points)
    count = len(p) // 2
    if count < 2:
        return [], [], []
    cap = True
    if close and count > 2:
        p += p[0:4]
        count += 2
        cap = False
    w, half = _f32(width), math.pi / 2  # Kivy keeps the width in a float32
    vertices: list[tuple[float, float]] = []
    out: list[tuple[int, int, int]] = []
    quads: list[int] = []
    angle = 0.0
    cx = cy = 0.0
    piv = iv = skip = 0
    sangle = 0.0
    for i in range(count - 1):
        ax, ay, bx, by = p[2 * i], p[2 * i + 1], p[2 * i + 2], p[2 * i + 3]
        if (ax, ay) == (bx, by):
            skip += 1
            continue
        pcx, pcy = cx, cy
        piv2, piv = piv, iv
        cx, cy = bx - ax, by - ay
        angle = math.atan2(cy, cx)
        a1, a2 = angle - half, angle + half
        cos1, sin1, cos2, sin2 = math.cos(a1) * w, math.sin(a1) * w, math.cos(a2) * w, math.sin(a2) * w
        if i - skip == 0:
            sangle = angle
        quads.append(iv)
        out += [(iv, iv + 1, iv + 2), (iv, iv + 2, iv + 3)]
        vertices += [(ax + cos1, ay + sin1), (bx + cos1, by + sin1), (bx + cos2, by + sin2), (ax + cos2, ay + sin2)]
        iv += 4
        if i - skip == 0:
            continue
        jangle = math.atan2(cx * pcy - cy * pcx, cx * pcx + cy * pcy)
        if jangle == 0:
            continue
        if jangle < 0:
            a0, step = angle + half, abs(jangle) / KIVY_PRECISION
            pivstart, pivend = piv + 3, piv2 + 1
        else:
            a0, step = angle - half, -abs(jangle) / KIVY_PRECISION
            pivstart, pivend = piv, piv2 + 2
        siv = iv
        vertices.append((ax, ay))
        iv += 1
        for j in range(KIVY_PRECISION - 1):
            vertices.append((ax - math.cos(a0 - step * j) * w, ay - math.sin(a0 - step * j) * w))
            out.append((siv, pivstart if j == 0 else iv - 1, iv))
            iv += 1
        out.append((siv, iv - 1, pivend))
    if cap and quads:
        for centre, start, step, near, far in (
            ((p[0], p[1]), sangle - half, ((sangle - half) - (sangle + half)) / KIVY_PRECISION, quads[0],
             quads[0] + 3),
            ((p[-2], p[-1]), angle - half, ((angle + half) - (angle - half)) / KIVY_PRECISION, piv + 1, piv + 2),
        ):  # fmt: skip
            siv = iv
            vertices.append(centre)
            iv += 1
            for k in range(KIVY_PRECISION - 1):
                turned = start + step * k
                vertices.append((centre[0] + math.cos(turned) * w, centre[1] + math.sin(turned) * w))
                out.append((siv, near if k == 0 else iv - 1, iv))
                iv += 1
            out.append((siv, iv - 1, far))
    return [(_f32(x), _f32(y)) for x, y in vertices], out, quads


def _f32(value: float) -> float:
    """``value`` as the float32 Kivy keeps a vertex in."""
    return struct.unpack("f", struct.pack("f", value))[0]
