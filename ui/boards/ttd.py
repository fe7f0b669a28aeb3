"""Through the Desert: the hex map with its camels, and a score strip under it.

The map is laid out from the board file's axial coordinates (pointy-top hexes,
rows of r running down the screen, odd rows half a hex to the right, as in the
game's text board), so a café's own transcription draws without code changes.
Camels are discs in their camel colour with a dot in the owner's rider colour;
a leader (the camel with a rider) is ringed in the rider colour, because the
leader is what a player looks for when checking where a caravan may grow.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from kivy.graphics import Color, Line, Mesh, Rectangle

from companion.games.ttd.board import hex_label, hexes_named
from companion.games.ttd.paints import CAMEL_RGB, SAND, camel_paints, camel_rgb  # noqa: F401 - tests read them here
from ui.boards import focused, paint, provisional_scores
from ui.boards.paint import ASKED, BACKGROUND, HIGHLIGHT, Texts, fitted_text, fitting_size, measure, piece_shape, rgb
from ui.boards.shapes import Shapes, piece_reach

SQRT3 = math.sqrt(3)
MOUNTAIN = (0.36, 0.31, 0.28)
PALM_GROUND = (0.42, 0.7, 0.35)
UNUSED = (0.2, 0.2, 0.22)
WATER = (0.1, 0.42, 0.85)
EDGE = (0.45, 0.37, 0.22)
TEXT = 16.0  # px: the smallest text on the board, what a player reads from a chair at the 7 inch display (800x480)
LINE = 18.5  # px: a row of the score strip at the least, 16 px text set solid (its 19 px label is blank at the ends)
NAMED = (0.55, 0.9, 1.0)  # a place a text names: light blue, unlike gold (may be tapped), red (asked), white (last)
NAMED_SHOWN = 3  # the places named beside the map's hexes at once: a refusal's two and the prompt's one
PARTS = (("water", "Water"), ("oases", "Oases"), ("areas", "Areas"), ("longest", "Long"))  # the strip's columns


def hex_key(raw: Any) -> tuple[int, int] | None:
    """A document hex ``[q, r]`` as a tuple, or None for anything else (a drawing must not raise on it)."""
    if isinstance(raw, Sequence) and len(raw) == 2 and all(isinstance(v, int) for v in raw):
        return int(raw[0]), int(raw[1])
    return None


def regions_in_play(board: Mapping[str, Any], players: int) -> set[str]:
    return {str(reg["id"]) for reg in board.get("regions", []) if players in reg.get("players", ())}


def layout(
    cells: Iterable[Mapping[str, Any]], width: float, height: float
) -> tuple[float, float, float, float, float]:
    """Hex size and map origin that fit every cell into width x height: (size, left, top, map_w, map_h).

    Pointy-top axial centres are x = sqrt3 * size * (q + r / 2), y = 1.5 * size * r (downwards).
    """
    xs, ys = [], []
    for cell in cells:
        q, r = cell["q"], cell["r"]
        xs.append(SQRT3 * (q + r / 2))
        ys.append(1.5 * r)
    if not xs:
        return 1.0, 0.0, 0.0, 0.0, 0.0
    units_w = max(xs) - min(xs) + SQRT3
    units_h = max(ys) - min(ys) + 2
    size = min(width / units_w, height / units_h)
    return size, -min(xs) * size + size * SQRT3 / 2, -min(ys) * size + size, units_w * size, units_h * size


def hex_points(cx: float, cy: float, size: float) -> list[float]:
    pts: list[float] = []
    for k in range(6):
        angle = math.radians(30 + 60 * k)
        pts += [cx + size * math.cos(angle), cy + size * math.sin(angle)]
    return pts


def fill_hex(cx: float, cy: float, size: float, colour: tuple[float, float, float], alpha: float = 1) -> None:
    pts = hex_points(cx, cy, size)
    vertices = [cx, cy, 0, 0]
    for i in range(0, 12, 2):
        vertices += [pts[i], pts[i + 1], 0, 0]
    vertices += [pts[0], pts[1], 0, 0]
    Color(*colour, alpha)
    Mesh(vertices=vertices, indices=list(range(8)), mode="triangle_fan")


@dataclass(frozen=True)
class MapFrame:
    """Hex size, the widget-relative centre of hex (0, 0), the strip's top edge and the margin."""

    size: float
    ox: float
    oy: float
    strip_top: float
    pad: float

    def centre(self, q: int, r: int) -> tuple[float, float]:
        return self.ox + SQRT3 * self.size * (q + r / 2), self.oy - 1.5 * self.size * r


def map_frame(cells: Sequence[Mapping[str, Any]], width: float, height: float, players: int) -> MapFrame:
    """Where the map goes in a width x height area, leaving the score strip its rows below it."""
    pad = min(width, height) * 0.01
    # A heading row, a row a player and the camels left, each a 16 px line at least (5 players: 138 px), which
    # the share below already leaves on the 7 and 5 inch displays: the hexes are as large as before the heading.
    min_strip = min(height * 0.38, max(height * 0.22, (players + 1) * height * 0.055))
    min_strip = max(min_strip, (players + 2) * LINE + 2 * pad)
    size, left, top, map_w, map_h = layout(cells, width - 2 * pad, height - min_strip - 2 * pad)
    ox = (width - map_w) / 2 + left
    oy = height - pad - top
    return MapFrame(size, ox, oy, height - pad - map_h - pad, pad)


def _frame(widget: Any, view: Any) -> MapFrame:
    players = view.document.get("players") or []
    return map_frame(list(view.game.data["board"].get("cells", [])), widget.width, widget.height, len(players))


NEIGHBOURS = ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))
_hit_cache: list[Any] = [None, None]  # (cells, width, height, players) -> (frame, hexes): the last board asked


def _hit_frame(widget: Any, view: Any) -> tuple[MapFrame, frozenset[tuple[int, int]]]:
    """The frame and the map's hexes, kept while the board and its size stay: a tap's reach asks a few hundred
    times (``ui/reach.py``), and working the frame out from 234 cells took 1 ms each time."""
    cells = view.game.data["board"].get("cells", [])
    key = (cells, widget.width, widget.height, len(view.document.get("players") or []))
    cached_key, cached = _hit_cache
    if cached_key is None or cached_key[0] is not cells or cached_key[1:] != key[1:]:
        hexes = frozenset((c["q"], c["r"]) for c in cells)
        cached = (_frame(widget, view), hexes)
        _hit_cache[:] = [key, cached]
    return cached


def place_at(widget: Any, view: Any, x: float, y: float) -> tuple[int, int] | None:
    """The hex under a tap, as ``(q, r)``; None off the map (the score strip, the margins)."""
    frame, hexes = _hit_frame(widget, view)
    # The hex whose centre is nearest, by inverting MapFrame.centre and rounding; its neighbours too,
    # for a point off the map's edge that is still within reach of an edge hex.
    fr = (frame.oy - (y - widget.y)) / (1.5 * frame.size)
    fq = (x - widget.x - frame.ox) / (SQRT3 * frame.size) - fr / 2
    q0, r0 = round(fq), round(fr)
    best, best_d = None, frame.size * 0.95  # inside the hex, give or take its corners
    for dq, dr in NEIGHBOURS:
        q, r = q0 + dq, r0 + dr
        if (q, r) not in hexes:
            continue
        cx, cy = frame.centre(q, r)
        d = math.hypot(widget.x + cx - x, widget.y + cy - y)
        if d < best_d:
            best, best_d = (q, r), d
    return best


def draw(widget: Any, view: Any) -> None:
    board = view.game.data["board"]
    document = view.document
    players = [str(p) for p in document.get("players") or []]
    in_play = regions_in_play(board, len(players))
    cells = list(board.get("cells", []))
    frame = _frame(widget, view)
    size, pad = frame.size, frame.pad

    def centre(q: int, r: int) -> tuple[float, float]:
        x, y = frame.centre(q, r)
        return widget.x + x, widget.y + y

    values = {}
    for site in document.get("waterholes") or []:
        key = hex_key(site.get("hex")) if isinstance(site, Mapping) else None
        if key is not None:
            values[key] = site.get("value")
    pieces = [p for p in document.get("pieces") or [] if isinstance(p, Mapping) and hex_key(p.get("hex"))]
    taken = {hex_key(p.get("hex")) for p in pieces}
    paints = camel_paints(view.game.data["camels"])
    palms = [(c["q"], c["r"]) for c in cells
             if str(c.get("region")) in in_play and len(players) in (c.get("oasis") or ())]
    shapes, later, figures = Shapes(), [], Texts()  # the map's shapes in a few meshes; lines and texts over them
    for cell in cells:
        at = centre(cell["q"], cell["r"])
        _draw_cell(cell, at, size, len(players), in_play, values, taken, shapes, later, figures)
    for piece in pieces:
        q, r = hex_key(piece["hex"]) or (0, 0)
        _draw_piece(piece, centre(q, r), size, piece.get("player") == document.get("turn"), paints, shapes)

    with widget.canvas:
        Color(*BACKGROUND, 1)
        Rectangle(pos=widget.pos, size=widget.size)
        shapes.draw()
        for draw_over in later:
            draw_over()
        figures.draw()
        strong = focused(view)
        marks = Shapes()  # a hundred hexes may be marked at a leader's placement
        for q, r in (key for key in view.marked if key not in strong and hex_key(key)):
            half = max(1.2, size * 0.08) / SQRT3 * 2  # a Line's width is half its thickness; corners reach further
            at = centre(q, r)
            marks.ring(0, (*HIGHLIGHT, 0.8), hex_points(*at, size * 0.8 + half), hex_points(*at, size * 0.8 - half))
        marks.draw()
        for q, r in (key for key in strong if hex_key(key)):
            fill_hex(*centre(q, r), size * 0.9, HIGHLIGHT, 0.45)
            Color(*HIGHLIGHT, 1)
            Line(points=hex_points(*centre(q, r), size * 0.95), close=True, width=max(2.0, size * 0.2))
        if view.last is not None and hex_key(view.last) and view.last not in strong:
            Color(1, 1, 1, 0.9)
            Line(points=hex_points(*centre(*view.last), size * 0.92), close=True, width=max(1.5, size * 0.1))
        if view.asked is not None and hex_key(view.asked):
            Color(*ASKED, 1)
            Line(points=hex_points(*centre(*view.asked), size * 0.9), close=True, width=max(2.0, size * 0.16))
        _draw_names(widget, frame, view, {(c["q"], c["r"]) for c in cells}, _crowd(frame, pieces, values, taken, palms))
        _draw_strip(  # from the board's foot to the map's margin: five players' rows need every pixel of it
            (widget.x + pad, widget.y, widget.width - 2 * pad, frame.strip_top),
            document,
            players,
            provisional_scores(view),
            paints,
        )


def places_named(text: str) -> list[tuple[int, int]]:
    """The hexes a text names ("(0,3) touches Black at (1,3)"): the table puts them in ``BoardView.named``."""
    return hexes_named(text)


# What a tag hides, by weight: a water hole's figure in its disc (its value, read at scoring) most, then a camel,
# then a palm (an oasis, printed on the board).
FIGURE_WEIGHT, PIECE_WEIGHT, PALM_WEIGHT = 10.0, 1.0, 0.25


def _crowd(
    frame: MapFrame,
    pieces: Sequence[Mapping[str, Any]],
    values: Mapping[tuple[int, int], Any],
    taken: set[Any],
    palms: Iterable[tuple[int, int]],
) -> list[tuple[float, float, float, float]]:
    """(x, y, radius, weight) of what a named place's tag should leave in sight, widget-relative."""
    size = frame.size
    crowd = []
    for piece in pieces:
        crowd.append((*frame.centre(*(hex_key(piece.get("hex")) or (0, 0))), _piece_reach(piece, size), PIECE_WEIGHT))
    site = size * 0.75 + max(1.0, size * 0.06)  # a water hole's disc and rim (``_draw_cell``)
    crowd += [(*frame.centre(*key), site, FIGURE_WEIGHT) for key in values if key not in taken]
    crowd += [(*frame.centre(*key), size * 0.55, PALM_WEIGHT) for key in palms]
    return crowd


Box = tuple[float, float, float, float]  # x, y, w, h, widget-relative
Leader = tuple[float, float, float, float]  # x0, y0 (on the hex's ring), x1, y1 (on the tag's rim)


def _draw_names(
    widget: Any,
    frame: MapFrame,
    view: Any,
    hexes: set[tuple[int, int]],
    crowd: list[tuple[float, float, float, float]],
) -> None:
    """Each place a text names (``view.named``) ringed, its name as the texts spell it ("(4,6)") in a tag beside it.

    The map has no room for coordinates along its edges: at 800x480 it is 390 px wide on a 398 px board, and a
    16 px row number needs 18. So the names come to the places instead: a player told "not allowed at (4,6)",
    by the screen or the voice, sees "(4,6)" on the map where it is. Where each tag goes: ``_tags_placed``.
    """
    named = [key for key in (hex_key(k) for k in getattr(view, "named", ())) if key in hexes][:NAMED_SHOWN]
    if not named:
        return
    size = frame.size
    font = max(TEXT, size * 1.05)  # as the water holes' figures: 16 px at 800x480, larger on larger boards
    Color(*NAMED, 1)
    for q, r in named:  # the rings first: a tag lies over another named hex's ring, never under it
        cx, cy = frame.centre(q, r)
        Line(points=hex_points(widget.x + cx, widget.y + cy, size), close=True, width=max(1.5, size * 0.1))
    texts = Texts()
    for key, ((x, y, bw, bh), leader) in _tags_placed(widget, frame, named, crowd, font).items():
        if leader is not None:
            Color(*NAMED, 1)
            x0, y0, x1, y1 = leader
            Line(points=[widget.x + x0, widget.y + y0, widget.x + x1, widget.y + y1], width=1.2)
        Color(*BACKGROUND, 0.9)
        Rectangle(pos=(widget.x + x, widget.y + y), size=(bw, bh))
        Color(*NAMED, 1)
        Line(rectangle=(widget.x + x, widget.y + y, bw, bh), width=1.2)
        fitted_text(widget.x + x + bw / 2, widget.y + y + bh / 2, hex_label(*key), font, bw, (1, 1, 1), bold=True,
                    into=texts)  # fmt: skip
    texts.draw()


def _tags_placed(
    widget: Any,
    frame: MapFrame,
    named: list[tuple[int, int]],
    crowd: list[tuple[float, float, float, float]],
    font: float,
) -> dict[tuple[int, int], tuple[Box, Leader | None]]:
    """Each named hex's tag and its leader line, if it has one (``_tag_place``), the tags placed together.

    Tags are placed one after another, each clear of those before it, in the order hiding least of the map
    (``_crowd``), then with the fewest and shortest leader lines: placed first, (1,0)'s tag took the one free
    side of (2,0), whose tag then hid a camel. A tag is never over another tag, nor over a named hex's middle.
    """
    size = frame.size
    half = size * 0.6  # a named hex's middle, its camel
    spots = {key: (x - half, y - half, 2 * half, 2 * half) for key, (x, y) in ((k, frame.centre(*k)) for k in named)}
    # The next tag's name keeps half the type size from a tag's beside it, a quarter above or below it (the names
    # lie 3 px inside their tags' sides, their brackets 1 px inside top and bottom): two tags 3.5 px apart (the
    # top edge's (1,0) and (2,0) at 720x1280) read as one strip, "(1,0)(2,0)", and two one on the other, their
    # names 3.4 px apart ((0,3) and (-3,6) at 480x800), as one two-line name.
    gx, gy = max(0.0, font / 2 - 6), max(0.0, font / 4 - 2)
    best: dict[tuple[int, int], tuple[Box, Leader | None]] = {}
    best_cost: tuple[float, ...] = (math.inf,)
    for order in itertools.permutations(named):
        taken: list[Box] = []
        leaders: list[Leader] = []
        placed: dict[tuple[int, int], tuple[Box, Leader | None]] = {}
        cost = [0.0, 0.0, 0.0, 0.0]  # tags left out, weight hidden, hexes away, discs a leader crosses
        for key in order:
            cx, cy = frame.centre(*key)
            w, h = measure(hex_label(*key), font, bold=True)
            near = [c for c in crowd if math.dist(c[:2], (cx, cy)) > size * 0.5]  # its own camel is under its ring
            others = [spot for other, spot in spots.items() if other != key]
            found = _tag_place(widget, frame, cx, cy, w + 6, h, near, taken + others, leaders)
            if found is None:
                cost[0] += 1
                continue
            box, leader, (hidden, away, crossed) = found
            placed[key] = (box, leader)
            cost[1:] = [cost[1] + hidden, cost[2] + away, cost[3] + crossed]
            x, y, bw, bh = box
            taken.append((x - gx, y - gy, bw + 2 * gx, bh + 2 * gy))
            leaders += [leader] if leader else []
        if tuple(cost) < best_cost:
            best, best_cost = {key: placed[key] for key in named if key in placed}, tuple(cost)
        if best_cost == (0.0, 0.0, 0.0, 0.0):
            break
    return best


def _hidden(box: Box, crowd: list[tuple[float, float, float, float]]) -> float:
    """What ``box`` hides (``_crowd``): each disc reaching more than half a pixel under it by its weight, in full
    where the box reaches its middle, in part as far as it reaches in (a camel's rim hidden less than the camel)."""
    x, y, w, h = box
    total = 0.0
    for px, py, reach, weight in crowd:
        nx, ny = min(max(px, x), x + w), min(max(py, y), y + h)  # the box's point nearest the disc's middle
        depth = reach - math.hypot(nx - px, ny - py)
        if depth > 0.5:
            total += weight * min(1.0, depth / reach)
    return total


def _along(segment: Leader, steps: int) -> list[tuple[float, float]]:
    x0, y0, x1, y1 = segment
    return [(x0 + (x1 - x0) * k / steps, y0 + (y1 - y0) * k / steps) for k in range(steps + 1)]


def _crosses(segment: Leader, box: Box) -> bool:
    """Whether a leader line runs through ``box`` (sampled a pixel or two apart: the boxes are 16 px or more)."""
    x, y, w, h = box
    steps = max(1, int(math.hypot(segment[2] - segment[0], segment[3] - segment[1]) / 2))
    return any(x < px < x + w and y < py < y + h for px, py in _along(segment, steps))


def _tag_place(
    widget: Any,
    frame: MapFrame,
    cx: float,
    cy: float,
    bw: float,
    bh: float,
    crowd: list[tuple[float, float, float, float]],
    taken: list[Box],
    leaders: list[Leader],
) -> tuple[Box, Leader | None, tuple[float, int, int]] | None:
    """Where a bw x bh tag naming the hex centred at (cx, cy) goes, its leader line when it lies away from its
    hex, and its cost (weight hidden, hexes away, discs its leader crosses); None where no place is free.

    ``crowd``: what a tag hides (``_crowd``); ``taken``: boxes no tag or leader may cover (the tags already
    placed, the named hexes' middles); ``leaders``: the lines already drawn, which no tag may lie over. The least
    hidden wins, then the nearest: against the hex (over or under a tip, against one of its six sides), else one
    or two hexes further out the same way, joined to its hex by a leader line (the map is crowded there).
    """
    size = frame.size
    half_w = size * SQRT3 / 2
    gap = max(1.0, size * 0.05)  # clear of the named ring's line
    ex, ey = half_w / 2 + gap, size * 0.75 + gap  # a slanting side's middle, pushed out a little
    along = [min(max(x, 1.0), widget.width - 1 - bw) for x in (cx - bw / 2, cx - half_w / 2, cx + half_w / 2 - bw)]
    # (x, y, direction out of the hex): over its top tip, clear of a leader's ring and rim, centred or reaching
    # right or left from its middle; under it; against its right and left sides; against its four slanting sides.
    sides: list[tuple[float, float, float]] = [
        *((x, cy + size * 0.95, 90.0) for x in along),
        *((x, cy - size * 0.95 - bh, 270.0) for x in along),
        (cx + half_w + gap, cy - bh / 2, 0.0),
        (cx - half_w - gap - bw, cy - bh / 2, 180.0),
        (cx + ex, cy + ey, 60.0),
        (cx - ex - bw, cy + ey, 120.0),
        (cx - ex - bw, cy - ey - bh, 240.0),
        (cx + ex, cy - ey - bh, 300.0),
    ]
    best, best_cost = None, (math.inf, 0, 0)
    reach = (AWAY + 1) * size * SQRT3 + bw  # what a tag so far off may hide or its leader cross
    crowd = [c for c in crowd if abs(c[0] - cx) < reach + c[2] and abs(c[1] - cy) < reach + c[2]]

    def consider(x: float, y: float, away: int, over_figures: bool = True) -> None:
        nonlocal best, best_cost
        box = (x, y, bw, bh)
        if y < frame.strip_top or y + bh > widget.height - 1 or x < 1 or x + bw > widget.width - 1:
            return
        if any(x < tx + tw and tx < x + bw and y < ty + th and ty < y + bh for tx, ty, tw, th in taken):
            return
        hidden = _hidden(box, crowd)
        if hidden > best_cost[0] or any(_crosses(line, box) for line in leaders):
            return
        leader, crossed = None, 0
        if away:  # from the hex's ring to the tag's nearest point
            nx, ny = min(max(cx, x), x + bw), min(max(cy, y), y + bh)
            d = math.hypot(nx - cx, ny - cy)
            if d <= size:
                return
            leader = (cx + (nx - cx) / d * size, cy + (ny - cy) / d * size, nx, ny)
            if any(_crosses(leader, t) for t in taken):
                return
            points = _along(leader, max(1, int(d / 2)))
            under = [w for px, py, reach, w in crowd if any(math.dist(p, (px, py)) < reach for p in points)]
            if not over_figures and FIGURE_WEIGHT in under:
                return
            crossed = len(under)
        cost = (hidden, away, crossed)
        if cost < best_cost:
            best, best_cost = (box, leader), cost

    for away in (0, 1, 2):
        for x0, y0, angle in sides:
            ux, uy = math.cos(math.radians(angle)), math.sin(math.radians(angle))
            consider(x0 + ux * away * size * SQRT3, y0 + uy * away * size * SQRT3, away)
        if best is not None and best_cost[0] == 0:
            return (*best, best_cost)
    # Every side hides something up to two hexes out (on five players' full map at 800x480, 72 of the 234 hexes
    # named alone): the tag goes on the nearest ground that hides nothing, its middle on a hex up to ``AWAY``
    # hexes off (a mountain, the sand between caravans), or reaching left or right from it, its leader line
    # through no water hole's figure.
    for dq, dr in HEXES_NEAR:
        if best_cost[0] == 0 and _hex_distance(dq, dr) > best_cost[1]:
            break  # the nearest ground that hides nothing is found
        ax, ay = cx + SQRT3 * size * (dq + dr / 2), cy - 1.5 * size * dr
        for x in (ax - bw / 2, ax - half_w / 2, ax + half_w / 2 - bw):
            consider(x, ay - bh / 2, _hex_distance(dq, dr), over_figures=False)
    return None if best is None else (*best, best_cost)


def _hex_distance(dq: int, dr: int) -> int:
    return max(abs(dq), abs(dr), abs(dq + dr))


AWAY = 4  # hexes: how far from its hex a tag may go to hide nothing, on a leader line
HEXES_NEAR = sorted(((dq, dr) for dq in range(-AWAY, AWAY + 1) for dr in range(-AWAY, AWAY + 1)
                     if 2 <= _hex_distance(dq, dr) <= AWAY), key=lambda d: _hex_distance(*d))  # fmt: skip


def _draw_cell(
    cell: Mapping[str, Any],
    at: tuple[float, float],
    size: float,
    players: int,
    in_play: set[str],
    values: Mapping[tuple[int, int], Any],
    taken: set[Any],
    shapes: Shapes,
    later: list[Callable[[], Any]],
    figures: Texts,
) -> None:
    """A hex's ground, edge and what stands printed on it, into ``shapes`` (layers 0-3); its ring and figure
    into ``later``, drawn over every shape (no camel stands on either), the figure gathered into ``figures``."""
    cx, cy = at
    key = (cell["q"], cell["r"])
    used = str(cell.get("region")) in in_play
    palm = used and players in (cell.get("oasis") or ())
    site = used and bool(cell.get("waterhole")) and not palm
    if not used:
        ground = UNUSED
    elif cell.get("type") == "mountain":
        ground = MOUNTAIN
    elif palm:
        ground = PALM_GROUND
    else:
        ground = SAND
    shapes.polygon(0, ground, hex_points(cx, cy, size * 0.97))
    shapes.outline(1, EDGE if used else (0.3, 0.3, 0.32), hex_points(cx, cy, size))
    if not used:
        return
    if cell.get("type") == "mountain":
        h = size * 0.55
        shapes.polygon(2, (0.75, 0.7, 0.66), [cx - h, cy - h * 0.6, cx + h, cy - h * 0.6, cx, cy + h * 0.75])
    elif palm:
        _draw_palm(cx, cy, size, shapes)
    elif site and key in taken:
        ring = hex_points(cx, cy, size * 0.86)  # the token was taken by the piece standing here
        later.append(lambda: (Color(*WATER, 1), Line(points=ring, close=True, width=max(1.5, size * 0.12))))
    elif site:
        value = values.get(key)
        shapes.disc(2, cx, cy, size * 0.75, WATER, (1, 1, 1), max(1.0, size * 0.06))
        figure = "?" if value is None else str(value)
        # 16 px at least: a 12 px hex (800x480) holds a 16 px figure, 10 px wide, its digits 12 px high.
        font = max(TEXT, size * 1.05)
        later.append(lambda: fitted_text(cx, cy, figure, font, size * 1.6, (1, 1, 1), bold=True, into=figures))


def _draw_palm(cx: float, cy: float, size: float, shapes: Shapes) -> None:
    """A trunk and a crown: an oasis reads as a tree at a glance, unlike a letter."""
    half = max(1.2, size * 0.09)  # a Line's width is half its thickness
    (x0, y0), (x1, y1) = (cx, cy - size * 0.55), (cx + size * 0.08, cy + size * 0.2)
    length = math.hypot(x1 - x0, y1 - y0)
    nx, ny = -(y1 - y0) / length * half, (x1 - x0) / length * half
    trunk = (0.4, 0.25, 0.1)
    shapes.polygon(2, trunk, [x0 + nx, y0 + ny, x0 - nx, y0 - ny, x1 - nx, y1 - ny, x1 + nx, y1 + ny])
    for x, y in ((x0, y0), (x1, y1)):  # a Line's round caps
        shapes.ellipse(2, trunk, x, y, half, half)
    for dx in (-0.28, 0.0, 0.28):
        r = size * 0.26
        shapes.ellipse(3, (0.05, 0.4, 0.1), cx + dx * size, cy + size * (0.28 - abs(dx) * 0.4), r, 0.7 * r)


def _piece_reach(piece: Mapping[str, Any], size: float) -> float:
    """How far a camel's drawing (``_draw_piece``) reaches from its hex's middle, rim and ring too."""
    if piece.get("colour") == "guide":
        return size * 0.6 * piece_reach(piece_shape(str(piece.get("player")))) + max(1.5, size * 0.12) * SQRT3
    if piece.get("leader"):
        return size * 0.6 + max(2.0, size * 0.2) + 1.5
    return size * 0.6 + 1.2


def _draw_piece(
    piece: Mapping[str, Any],
    at: tuple[float, float],
    size: float,
    to_play: bool,
    paints: Mapping[str, tuple[float, float, float]],
    shapes: Shapes,
) -> None:
    """A camel's discs into ``shapes`` (layers 4-9, over the map): no two camels' discs overlap."""
    cx, cy = at
    owner = rgb(str(piece.get("player")))
    colour = str(piece.get("colour"))
    body = paints.get(colour) or camel_rgb(colour)
    r = size * 0.6
    shape = piece_shape(str(piece.get("player")))  # a red rider is a diamond, a purple one a square: colour-blind
    if colour == "guide":  # the as-written single guide: the rider alone, in the rider colour
        shapes.piece(4, shape, cx, cy, r, owner, (1, 1, 1), max(1.5, size * 0.12))
        return
    if piece.get("leader"):
        ring = max(2.0, size * 0.2)
        shapes.disc(4, cx, cy, r + ring, owner, (1, 1, 1) if to_play else (0, 0, 0), 1.5)
        shapes.disc(6, cx, cy, r - ring * 0.2, body, (0, 0, 0), 1.0)
        shapes.piece(8, shape, cx, cy, size * 0.26, owner, (0, 0, 0), 0)
    else:
        shapes.disc(4, cx, cy, r, body, (0, 0, 0), 1.2)
        # The owner's centre, edged in black: at 0.2 of the hex it was a 3 px dot, and a red dot and an
        # orange one on a pink camel could not be told apart from a metre away.
        shapes.piece(6, shape, cx, cy, size * 0.34, owner, (0, 0, 0), 1.0)


def _draw_strip(
    box: tuple[float, float, float, float],
    document: Mapping[str, Any],
    players: list[str],
    scores: Mapping[str, Any],
    paints: Mapping[str, tuple[float, float, float]],
) -> None:
    """Totals first (who leads), the parts in columns under a heading, camels left per colour last (the game
    ends when one runs out). Every text is 16 px at least: the parts were one line of words ("water 0  oases 5
    areas 0  longest 25") shrunk to 11-13 px at 800x480, so their names are said once, in the heading."""
    x, y, w, h = box
    if w < 20 or h < 10 or not players:
        return
    texts = Texts()  # the strip's thirty-odd texts, a draw a texture and colour instead of a draw each
    _strip_rows(x, y, w, h, document, players, scores, paints, texts)
    texts.draw()


# Mid-game the totals are the score as if the game ended now, the longest-caravan bonus and all: under "Total"
# alone a first-time table took them for points banked. The first that fits the heading row's room at its size.
PROVISIONAL = ("Total if it ended now", "Total if ended now", "If ended now")


def _total_heading(scores: Mapping[str, Any], document: Mapping[str, Any], size: float, room: float) -> str:
    """The totals' heading: "Total" at the end, the words saying they are provisional before it."""
    if document.get("phase") == "over" or not scores.get("provisional"):
        return "Total"
    return next((words for words in PROVISIONAL if fitting_size(words, size, room) >= size), PROVISIONAL[-1])


def _strip_rows(
    x: float,
    y: float,
    w: float,
    h: float,
    document: Mapping[str, Any],
    players: list[str],
    scores: Mapping[str, Any],
    paints: Mapping[str, tuple[float, float, float]],
    texts: Texts,
) -> None:
    """The strip's rows inside (x, y, w, h): rings and discs drawn now, texts gathered into ``texts``."""
    rows = len(players) + 2
    row_h = min(h / rows, w * 0.085)
    top = y + h - (h - row_h * rows) / 2
    totals = scores.get("totals") or {}
    detail = scores.get("scores") or {}
    turn = document.get("turn") if document.get("phase") not in ("over", "waterholes") else None
    winners = (scores.get("winners") or []) if document.get("phase") == "over" else []
    font = max(TEXT, row_h * 0.62)
    grey = (0.85, 0.85, 0.85)
    name_x, total_right, parts_x = x + row_h * 1.1, x + w * 0.4, x + w * 0.42
    column = (x + w - parts_x) / len(PARTS)
    cy = top - row_h * 0.5
    # The headings half their size apart at least ("Water" and "Oases" 4 px apart read as one word), all one size.
    heading_font = min(fitting_size(heading, font, column - font / 2) for _key, heading in PARTS)
    room = total_right - x - row_h * 0.2  # the heading row has no rider's disc: the names' room and the disc's
    fitted_text(total_right, cy, _total_heading(scores, document, heading_font, room), heading_font, room, grey,
                anchor="right", into=texts)
    for i, (_key, heading) in enumerate(PARTS):
        fitted_text(parts_x + column * (i + 0.5), cy, heading, heading_font, column - 2, grey, into=texts)
    for k, player in enumerate(players):
        cy = top - row_h * (k + 1.5)
        if player == turn or player in winners:  # at the end the ring marks the winners, the status names them
            Color(*HIGHLIGHT, 1)
            # At the row's edges: 16 px names fill rows of 19-20 px, and a ring inside them crossed the letters.
            Line(rectangle=(x, cy - row_h / 2, w, row_h), width=1.2)
        paint.piece(x + row_h * 0.6, cy, row_h * 0.3, player, outline=(1, 1, 1), edge=1.2)  # its riders' shape
        name = player.capitalize()
        fitted_text(name_x, cy, name, font, w * 0.27, (1, 1, 1), anchor="left", bold=True, into=texts)
        total = totals.get(player)
        fitted_text(total_right, cy, "-" if total is None else str(total), font, w * 0.1, HIGHLIGHT,
                    anchor="right", bold=True, into=texts)
        parts = detail.get(player) or {}
        for i, (key, _heading) in enumerate(PARTS):
            if isinstance(parts.get(key), Mapping) and "points" in parts[key]:
                points = str(parts[key]["points"])
                fitted_text(parts_x + column * (i + 0.5), cy, points, font, column - 2, grey, into=texts)
    supply = document.get("supply") or {}
    cy = top - row_h * (len(players) + 1.5)
    fitted_text(x + row_h * 0.2, cy, "Left:", font, w * 0.14, grey, anchor="left", into=texts)
    slot = (w * 0.86) / max(1, len(paints))
    for i, (colour, body) in enumerate(paints.items()):
        sx = x + w * 0.14 + slot * i
        paint.disc(sx + row_h * 0.35, cy, row_h * 0.3, body, (0, 0, 0), 1.0)
        left = supply.get(colour)
        ink = (1, 0.45, 0.4) if isinstance(left, int) and left <= 3 else (1, 1, 1)
        fitted_text(sx + row_h * 0.8, cy, "-" if left is None else str(left), font, slot - row_h * 0.9, ink,
                    anchor="left", bold=True, into=texts)
