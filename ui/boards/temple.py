"""The temple path-card race: the ring of cards as the table sees it, pawns, steps, chamber, hands.

Geometry (slots, corners, walls, entrances, steps, chamber) comes from the
game's ``board.json`` and the cards from ``cards.json``, so a café's own copy
is drawn as it is printed; where each card cell lands on the board is the game
package's own ``slot_cells``, never re-derived here.

The referee's texts name a cell by its board coordinates ("[3,0] (slot
1)", x from the west edge, y from the north), so the columns are numbered
along the top and bottom edges and the rows along the left and right; each
number shows on at least one side wherever an Entrance Circle covers the other.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import Any

from kivy.graphics import Color, Line

from companion.games.temple.board import slot_cells, slot_transform
from ui.boards import focused
from ui.boards.paint import (
    ASKED,
    BACKGROUND,
    HIGHLIGHT,
    Texts,
    fit_text,
    fitted_text,
    ink_for,
    measure,
    piece,
    piece_shape,
    rgb,
    text,
)
from ui.boards.shapes import Shapes, piece_within

PATH_CARD = (0.87, 0.78, 0.58)
PATH_PRINTED = (0.74, 0.66, 0.5)  # corner blocks are printed on the board: a shade darker than cards
HOLE = (0.05, 0.04, 0.03)
FLOOR = (0.2, 0.19, 0.18)
CARD_EDGE = (0.25, 0.18, 0.1)
STAIR = (0.35, 0.22, 0.1)
GOLD = (0.95, 0.75, 0.2)
EDGE_INK = (0.72, 0.7, 0.66)  # coordinates round the board: quieter than the slot numbers
SLOT_INK = (0.9, 0.86, 0.76)
MARGIN = 1.2  # cells round the 15 x 15 board for the Entrance Circles
STRIP = 1.7  # cells below the board for hands, pile and roll
CHAMBER_HALF = 1.42  # cells from the chamber's middle to its gold edge: its 3 x 3 cells, clear of the steps' corners
TEXT = 16.0  # px: the smallest text a player reads from a chair at the 7 inch display (800x480, 20.8 px cells)

Cell = tuple[int, int]
Spots = list[tuple[float, float]]  # screen points


def _cell(value: Any) -> Cell | None:
    """A document location as a board cell, or None for "entrance", "stepN", "chamber"."""
    if isinstance(value, list | tuple) and len(value) == 2 and all(isinstance(v, int) for v in value):
        return int(value[0]), int(value[1])
    return None


def card_cells(cards: Mapping[str, Any]) -> dict[str, list[list[str]]]:
    return {c["id"]: c["cells"] for c in cards.get("cards", [])}


def slot_kinds(board: Mapping[str, Any], cards: Mapping[str, Any], slots: Sequence[Any]) -> dict[Cell, str]:
    """Board cell -> cell kind for every slot holding a card, turned as the slot turns it."""
    by_id = card_cells(cards)
    out: dict[Cell, str] = {}
    for spec, card in zip(board["slots"], slots, strict=False):
        cells = by_id.get(card) if card is not None else None
        if cells is None:
            continue
        kinds = [kind for row in cells for kind in row]
        out.update(zip(slot_cells(tuple(spec["origin"]), spec["out"]), kinds, strict=False))
    return out


def printed_kinds(board: Mapping[str, Any]) -> dict[Cell, str]:
    """The corner blocks, which are printed and never turned."""
    out: dict[Cell, str] = {}
    for corner in board["corners"]:
        x0, y0 = corner["origin"]
        for r, row in enumerate(corner["cells"]):
            for c, kind in enumerate(row):
                out[(x0 + c, y0 + r)] = kind
    return out


class Frame:
    """Board cells to screen pixels; y runs south on the board and up on the screen."""

    def __init__(self, widget: Any, size: int) -> None:
        span = size + 2 * MARGIN
        self.size = size
        self.cell = min(widget.width / span, widget.height / (span + STRIP))
        self.x0 = widget.x + (widget.width - self.cell * span) / 2 + MARGIN * self.cell
        total_h = self.cell * (span + STRIP)
        self.top = widget.y + (widget.height + total_h) / 2 - MARGIN * self.cell
        self.strip_y = self.top - (size + MARGIN + STRIP) * self.cell
        # Every text on the board is in this size: 16 px at 800x480, in proportion on larger boards, and never
        # taller than a cell (a label is 1.19 times its font size high), so a row of numbers never overlaps.
        self.text = round(min(max(TEXT, self.cell * 0.77), self.cell * 0.84), 1)

    def corner(self, x: float, y: float) -> tuple[float, float]:
        """Screen position of the board point (x, y), in cell units from the north-west corner."""
        return self.x0 + x * self.cell, self.top - y * self.cell

    def centre(self, cell: Sequence[float]) -> tuple[float, float]:
        return self.corner(cell[0] + 0.5, cell[1] + 0.5)


def place_at(widget: Any, view: Any, x: float, y: float) -> Hashable | None:
    """The place under a tap, as the offered actions spell it: a slot number while cards change (and whenever
    no space is offered); a space while pawns move or take a stairway: ``(x, y)`` on the ring, ``"stepK"``
    on the mover's own steps, ``"chamber"``; None on a corner block, the middle or the strip.

    Audit: only slots answered, so a move list longer than the table lists (a roll of 7 offers up to 58
    ends) was put on the map with nothing marked and nothing to tap: "34 choices at 17 marked places:
    tap a to on the board.", and only 'List all' reached a move.
    """
    board = view.game.data["board"]
    frame = Frame(widget, int(board["size"]))
    cell = (math.floor((x - frame.x0) / frame.cell), math.floor((frame.top - y) / frame.cell))
    if any(not isinstance(place, int) for place in view.marked):
        for place, spot in _spaces(board, view, view.marked).items():
            if spot == cell:
                return place
        if cell in _ring_cells(board):  # a space where nothing may go: asked "why not here?" as a space
            return cell
    for spec in board["slots"]:
        if cell in slot_cells(tuple(spec["origin"]), spec["out"]):
            return int(spec["slot"])
    return None


def _ring_cells(board: Mapping[str, Any]) -> set[Cell]:
    return {tuple(cell) for station in board["loop"] for cell in station}  # type: ignore[misc]


def _spaces(board: Mapping[str, Any], view: Any, places: Iterable[Hashable]) -> dict[Hashable, Cell]:
    """Each of ``places`` that is a space and the board cell it is drawn on: ring cells as themselves, the
    mover's steps on their step cells, the chamber on its cell (the middle of its square)."""
    mover = board["colours"].get(str(view.document.get("turn")), {})
    steps = [tuple(cell) for cell in mover.get("steps", {}).get("cells", [])]
    out: dict[Hashable, Cell] = {}
    for place in places:
        if isinstance(place, tuple) and len(place) == 2:
            out[place] = (int(place[0]), int(place[1]))
        elif place == "chamber":
            out[place] = (int(board["chamber"][0]), int(board["chamber"][1]))
        elif isinstance(place, str) and place.startswith("step") and place[4:].isdigit():
            k = int(place[4:])
            if 1 <= k <= len(steps):
                out[place] = (int(steps[k - 1][0]), int(steps[k - 1][1]))
    return out


def _marks(frame: Frame, board: Mapping[str, Any], view: Any) -> None:
    """Gold edges round the slots a legal change may go to, or round the spaces a move or a stairway trip may
    end on; the one whose choices are listed, thick. A slot or space asked "why not?" about is edged red.
    """
    bands = Shapes()  # a card change may mark all twelve slots
    for place, cell in _spaces(board, view, view.marked).items():  # a move's or a stairway trip's ends
        strong = place in focused(view)
        width = frame.cell * (0.16 if strong else 0.07)
        _block_band(frame, [cell], width, bands, (*HIGHLIGHT, 1 if strong else 0.75), layer=1 if strong else 0)
    if view.asked is not None and view.asked not in view.marked:
        for cell in _spaces(board, view, [view.asked]).values():
            _block_band(frame, [cell], frame.cell * 0.12, bands, (*ASKED, 1))
    for spec in board["slots"]:
        cells = slot_cells(tuple(spec["origin"]), spec["out"])
        if spec["slot"] in view.marked:
            strong = spec["slot"] in focused(view)
            width = frame.cell * (0.16 if strong else 0.07)
            _block_band(frame, cells, width, bands, (*HIGHLIGHT, 1 if strong else 0.75), layer=1 if strong else 0)
        elif spec["slot"] == view.asked:
            _block_band(frame, cells, frame.cell * 0.12, bands, (*ASKED, 1))
        elif spec["slot"] == view.last:  # the card just laid or changed
            _block_band(frame, cells, frame.cell * 0.08, bands, (1, 1, 1, 0.9))
    bands.draw()


def draw(widget: Any, view: Any) -> None:
    board = view.game.data["board"]
    cards = view.game.data["cards"]
    doc = view.document
    frame = Frame(widget, int(board["size"]))
    kinds = printed_kinds(board)
    printed = set(kinds)
    kinds.update(slot_kinds(board, cards, doc.get("slots") or []))
    with widget.canvas:
        # What lies flat and never overlaps (the ground, the cells, the steps, the strip's chips) is a few meshes,
        # one a colour, rather than a draw each: the GL driver keeps buffers for every draw on a canvas.
        ground = Shapes()
        ground.rectangle(0, BACKGROUND, widget.x, widget.y, widget.width, widget.height)
        x, y = frame.corner(0, board["size"])
        ground.rectangle(1, FLOOR, x, y, frame.cell * board["size"], frame.cell * board["size"])
        _ring(frame, board, kinds, printed, ground)
        _middle(frame, board, doc)
        _walls(frame, board)
        _entrances(frame, board, doc)
        _coordinates(frame, board, doc)
        _pawns(frame, board, doc)
        _marks(frame, board, view)
        _strip(frame, board, doc)


def _ring(
    frame: Frame, board: Mapping[str, Any], kinds: Mapping[Cell, str], printed: set[Cell], ground: Shapes
) -> None:
    """Every ring cell from its card or corner (into ``ground``, drawn here); empty slots (during assembly) stay
    dark outlines."""
    c = frame.cell
    for (x, y), kind in kinds.items():
        sx, sy = frame.corner(x, y + 1)
        ground.rectangle(2, PATH_PRINTED if (x, y) in printed else PATH_CARD, sx, sy, c, c)
        if kind == "hole":
            ground.rectangle(3, HOLE, sx + c * 0.08, sy + c * 0.08, c * 0.84, c * 0.84)
        elif kind == "stair":
            _stair(sx, sy, c, ground)
        elif kind.startswith("idol:"):
            colour = kind[5:]
            is_ak = (x, y) in printed
            _diamond(sx + c / 2, sy + c / 2, c * (0.42 if is_ak else 0.34), rgb(colour), ground, ring=is_ak)
    ground.draw()
    # card edges: one outline per slot, the corner blocks too, so the twelve cards read as cards
    edges = Shapes()
    width = max(1.0, c * 0.06)
    blocks = [(tuple(s["origin"]), s["out"]) for s in board["slots"]]
    for spec, out in blocks:
        _block_band(frame, slot_cells(spec, out), width, edges)
    for corner in board["corners"]:
        x0, y0 = corner["origin"]
        _block_band(frame, [(x0 + i, y0 + j) for i in range(3) for j in range(3)], width, edges)
    edges.draw()
    # slot numbers just inside each card, where the referee's texts name them ("slot 4")
    inner = {tuple(cell) for spec in board["colours"].values() for cell in spec["steps"]["cells"]}
    for spec in board["slots"]:
        where = _slot_number_cell(board, kinds, inner, tuple(spec["origin"]), spec["out"])
        if where is not None:
            px, py = frame.centre(where)
            fitted_text(px, py, str(spec["slot"]), max(frame.text, c * 0.85), c * 1.3, SLOT_INK, bold=True)


def _slot_number_cell(
    board: Mapping[str, Any], kinds: Mapping[Cell, str], steps: set[Cell], origin: Cell, out: str
) -> Cell | None:
    """The floor cell for a slot's number: just inside the card, by its middle column, or by another of its columns
    where a colour's step lies beside the middle one (the step's number beside it: "12" and red "2" read "122").
    None where every one is a step, a card or by the chamber."""
    (x0, y0), (rx, ry), (cx, cy) = slot_transform(origin, out)
    chamber = board["chamber"]
    for k in (1, 0, 2):
        where = (x0 + 3 * rx + k * cx, y0 + 3 * ry + k * cy)
        if where in steps or where in kinds or abs(where[0] - chamber[0]) + abs(where[1] - chamber[1]) < 2:
            continue
        if k == 1 and any((where[0] + d, where[1]) in steps for d in (-1, 1)):
            continue
        return where
    return None


def _coordinates(frame: Frame, board: Mapping[str, Any], doc: Mapping[str, Any]) -> None:
    """Column numbers above and below the board, row numbers left and right of it, in the margin.

    A number an Entrance Circle in play would cover is left off that side: the
    circles lie on different cells on opposite sides, so the opposite edge
    still shows it.
    """
    size = int(board["size"])
    c = frame.cell
    circles = [spot for _, spots in _circles(frame, board, doc) for spot in spots]
    out = 0.55  # cells beyond the board edge, where the Entrance Circles sit too
    numbers, dots = Texts(), Shapes()  # each number four times round the board: a draw a number, not one each
    named = numbered_columns(size)
    for k in range(size):
        for bx, by in ((k + 0.5, -out), (k + 0.5, size + out), (-out, k + 0.5), (size + out, k + 0.5)):
            px, py = frame.corner(bx, by)
            if any(abs(px - sx) < c * 0.95 and abs(py - sy) < c * 0.95 for sx, sy in circles):
                continue
            if bx < 0 or bx > size or k in named:
                fitted_text(px, py, str(k), frame.text, c * 0.95, EDGE_INK, into=numbers)
            else:  # a column between two numbered ones: a dot (a stroke read as a "1"), counted from either
                dot = max(3.0, c * 0.16)
                dots.rectangle(0, EDGE_INK, px - dot / 2, py - dot / 2, dot, dot)
    dots.draw()
    numbers.draw()


def numbered_columns(size: int) -> set[int]:
    """The columns whose number is written above and below the board; the others get a dot.

    Side by side, "10 11 12 13 14" stood 4-5 px apart at 800x480 (in proportion at every size), no more than the
    figures of one number, and read as "1011121314". One-figure numbers stand well apart; from 10 on, every other
    column is numbered, counted back from the last (14, 12, 10), so 11 and 13 are a dot between numbered
    neighbours. The rows, one number above another, keep all theirs.
    """
    return {k for k in range(size) if k < 10 or (size - 1 - k) % 2 == 0}


def _block_band(
    frame: Frame, cells: Sequence[Cell], width: float, shapes: Shapes, colour: Any = CARD_EDGE, layer: int = 0
) -> None:
    """The edge round a block of cells into ``shapes``: the band a ``Line(rectangle=..., width=width)`` draws,
    ``width`` out and in from the edge, its outer corners rounded as the line's joints are (the same pixels)."""
    xs, ys = [x for x, _ in cells], [y for _, y in cells]
    x, y = frame.corner(min(xs), max(ys) + 1)
    w, h = (max(xs) - min(xs) + 1) * frame.cell, (max(ys) - min(ys) + 1) * frame.cell
    outer: list[float] = []
    inner: list[float] = []
    steps = 10  # Kivy's joint_precision
    for (px, py), start in (((x + w, y + h), 0.0), ((x, y + h), 90.0), ((x, y), 180.0), ((x + w, y), 270.0)):
        for k in range(steps + 1):
            angle = math.radians(start + 90.0 * k / steps)
            outer += [px + width * math.cos(angle), py + width * math.sin(angle)]
            inner += [px - width * (1 if px > x + w / 2 else -1), py - width * (1 if py > y + h / 2 else -1)]
    shapes.ring(layer, colour, outer, inner)


def _stair(x: float, y: float, c: float, ground: Shapes) -> None:
    """Three treads climbing left to right: a stairway is recognised by shape, not colour."""
    for k in range(3):
        ground.rectangle(3, STAIR, x + c * (0.14 + 0.24 * k), y + c * 0.12, c * 0.22, c * 0.22 * (k + 1))


def _diamond(
    cx: float, cy: float, r: float, colour: tuple[float, float, float], ground: Shapes, ring: bool = False
) -> None:
    """An idol marker: a diamond, so it is never mistaken for a round pawn; Ah Kinchil's gets a gold rim."""

    def shape(layer: int, paint: tuple[float, float, float], radius: float) -> None:
        ground.polygon(layer, paint, [cx, cy + radius, cx + radius, cy, cx, cy - radius, cx - radius, cy])

    shape(3, GOLD if ring else (0, 0, 0), r + max(1.5, r * (0.28 if ring else 0.18)))
    shape(4, colour, r)


def _middle(frame: Frame, board: Mapping[str, Any], doc: Mapping[str, Any]) -> None:
    """Each colour's final steps from its foot towards the chamber, and the chamber itself."""
    c = frame.cell
    chamber = board["chamber"]
    chx, chy = frame.centre(chamber)
    for colour, spec in board["colours"].items():
        steps = [tuple(cell) for cell in spec["steps"]["cells"]]
        points = [frame.centre(spec["steps"]["foot"]), *(frame.centre(s) for s in steps), (chx, chy)]
        Color(*rgb(colour), 0.9)
        Line(points=[v for p in points for v in p], width=max(1.0, c * 0.08))
    # The steps and the chamber after every colour's line, and their numbers on them: none overlaps another.
    blocks, numbers = Shapes(), []
    stood_on = {(colour, at) for colour, places in _pawn_places(doc) for at in places if isinstance(at, str)}
    for colour, spec in board["colours"].items():
        for k, step in enumerate(tuple(cell) for cell in spec["steps"]["cells"]):
            sx, sy = frame.corner(step[0], step[1] + 1)
            blocks.rectangle(0, (0, 0, 0), sx + c * 0.04, sy + c * 0.04, c * 0.92, c * 0.92)
            blocks.rectangle(1, rgb(colour), sx + c * 0.1, sy + c * 0.1, c * 0.8, c * 0.8)
            if (colour, f"step{k + 1}") not in stood_on:  # a pawn there covers the step and shows its own number
                numbers.append((sx + c / 2, sy + c / 2, str(k + 1), ink_for(colour)))
    half = c * CHAMBER_HALF
    blocks.rectangle(0, (0, 0, 0), chx - half - 2, chy - half - 2, 2 * half + 4, 2 * half + 4)
    blocks.rectangle(1, GOLD, chx - half, chy - half, 2 * half, 2 * half)
    blocks.draw()
    figures = Texts()  # "1" to "3" on each colour's steps
    for x, y, number, ink in numbers:
        text(x, y, number, frame.text, ink, bold=True, into=figures)
    figures.draw()
    # The gold square is the Treasure Chamber, where every colour's steps lead; its name, 8-11 px in two lines on
    # the 62 px square at 800x480, is left off: "Chamber" alone is 66 px at 16 px, and the texts say "chamber".


def _chamber_pawns(doc: Mapping[str, Any]) -> list[tuple[str, int]]:
    return [(colour, i) for colour, places in _pawn_places(doc) for i, at in enumerate(places) if at == "chamber"]


def _pawn_places(doc: Mapping[str, Any]) -> list[tuple[str, list[Any]]]:
    pawns = doc.get("pawns") or {}
    return [(colour, list(places or [])) for colour, places in pawns.items()] if isinstance(pawns, Mapping) else []


def _walls(frame: Frame, board: Mapping[str, Any]) -> None:
    """A colour's wall as a thick bar in its colour on the edge between the two cells it separates."""
    c = frame.cell
    bars = Shapes()  # each bar as the band a Line(cap="none") of that width draws: its width is half the band's
    for colour, spec in board["colours"].items():
        for a, b in spec.get("wall", []):
            (ax, ay), (bx, by) = a, b
            if ax != bx:
                ex = max(ax, bx)
                p, q = frame.corner(ex, ay), frame.corner(ex, ay + 1)
            else:
                ey = max(ay, by)
                p, q = frame.corner(ax, ey), frame.corner(ax + 1, ey)
            for layer, paint, half in ((0, (0, 0, 0), max(2.0, c * 0.16)), (1, rgb(colour), max(1.2, c * 0.09))):
                nx, ny = (0.0, half) if p[1] == q[1] else (half, 0.0)
                bars.polygon(layer, paint, [p[0] - nx, p[1] - ny, q[0] - nx, q[1] - ny, q[0] + nx, q[1] + ny,
                                            p[0] + nx, p[1] + ny])  # fmt: skip
    bars.draw()


def _entrance_spots(frame: Frame, board: Mapping[str, Any], circle: Sequence[int]) -> list[tuple[float, float]]:
    """Two Entrance Circles side by side along the edge, one per pawn, centred on the board's circle cell."""
    cx, cy = frame.centre(circle)
    along_x = 0 <= circle[0] < board["size"]  # above or below the board: circles side by side in x
    d = frame.cell * 0.62
    return [(cx - d, cy), (cx + d, cy)] if along_x else [(cx, cy + d), (cx, cy - d)]


def _circles(frame: Frame, board: Mapping[str, Any], doc: Mapping[str, Any]) -> list[tuple[str, Spots]]:
    """Each colour in play with its two Entrance Circles on screen.

    An unused colour's entrance is just part of the printed board: it is left
    quiet, and the coordinates may use its place.
    """
    players = set(doc.get("players") or [])
    return [
        (colour, _entrance_spots(frame, board, spec["entrance"]["circle"]))
        for colour, spec in board["colours"].items()
        if not players or colour in players
    ]


def _entrances(frame: Frame, board: Mapping[str, Any], doc: Mapping[str, Any]) -> None:
    c = frame.cell
    for colour, spots in _circles(frame, board, doc):
        for sx, sy in spots:
            Color(*rgb(colour), 1)
            Line(circle=(sx, sy, c * 0.44), width=max(1.0, c * 0.07))


def _pawn(cx: float, cy: float, r: float, colour: str, number: int, size: float) -> None:
    """A disc in the colour (a square or diamond for some colours: ``piece_shape``) with its number (1 or 2) at
    the board's text size: the disc nearly fills its cell."""
    piece(cx, cy, r, colour, outline=(1, 1, 1) if sum(rgb(colour)) < 0.9 else (0, 0, 0), edge=max(1.5, r * 0.12))
    text(cx, cy, str(number), size, ink_for(colour), bold=True)


def _pawns(frame: Frame, board: Mapping[str, Any], doc: Mapping[str, Any]) -> None:
    """Pawns on cells, on their own steps, waiting in their Entrance Circles, or in the chamber."""
    c = frame.cell
    r = c * 0.47  # the number at 16 px is 12 px of ink: a disc of 20 px round it at 800x480 (it was 16 px, 10 px)
    for colour, places in _pawn_places(doc):
        spec = board["colours"].get(colour)
        waiting = 0
        for i, at in enumerate(places):
            cell = _cell(at)
            if cell is None and isinstance(at, str) and at.startswith("step") and spec is not None:
                k = int(at[4:]) - 1 if at[4:].isdigit() else -1
                steps = spec["steps"]["cells"]
                cell = tuple(steps[k]) if 0 <= k < len(steps) else None
            if cell is not None:
                _pawn(*frame.centre(cell), r, colour, i + 1, frame.text)
            elif at == "entrance" and spec is not None:
                spots = _entrance_spots(frame, board, spec["entrance"]["circle"])
                _pawn(*spots[min(waiting, len(spots) - 1)], r, colour, i + 1, frame.text)
                waiting += 1
    inside = _chamber_pawns(doc)
    if inside:
        chx, chy = frame.centre(board["chamber"])
        cols = 2 if len(inside) <= 4 else 3
        rows = (len(inside) + cols - 1) // cols
        # five pawns: three a row, the rows a label's height apart, every disc inside the gold square
        step = min(c * 1.2, c * 2.9 / max(cols, rows))
        pr = min(r, step * 0.47, c * CHAMBER_HALF - step * (max(cols, rows) - 1) / 2)
        for n, (colour, i) in enumerate(inside):
            row, col = divmod(n, cols)
            in_row = min(cols, len(inside) - row * cols)  # a shorter last row is centred under the full ones
            px = chx + (col - (in_row - 1) / 2) * step
            py = chy + ((rows - 1) / 2 - row) * step
            _pawn(px, py, pr, colour, i + 1, frame.text)


def _strip(frame: Frame, board: Mapping[str, Any], doc: Mapping[str, Any]) -> None:
    """Hand sizes per colour (whose turn outlined), the draw pile and the roll: what hidden hands leave public."""
    c = frame.cell
    players = list(doc.get("players") or [])
    hands = doc.get("hands") or {}
    left, _ = frame.corner(-MARGIN, 0)
    right, _ = frame.corner(board["size"] + MARGIN, 0)
    y = frame.strip_y + c * 0.15
    h = (STRIP - 0.3) * c
    size = max(frame.text, c * 0.78)
    x = left + c * 0.2
    w, _ = fitted_text(x, y + h / 2, "Hands", size, c * 3.2, (0.85, 0.85, 0.85), anchor="left")
    x += w + c * 0.3
    turn = doc.get("turn") if doc.get("phase") not in ("assembly", "first_roll", "over") else None
    room = right - x - c * (3.4 + 3.6)  # leave the pile and the roll their room, whatever the player count
    chip = max(c * 1.0, min(c * 1.9, room / max(1, len(players)) - c * 0.35))
    chips, counts = Shapes(), []  # side by side: a mesh a colour, then the counts on them
    for colour in players:
        if colour == turn:
            chips.rectangle(0, (1, 1, 1), x - 3, y - 3, chip + 6, h + 6)
        chips.rectangle(1, rgb(colour), x, y, chip, h)
        count = str(hands.get(colour, "?") if isinstance(hands, Mapping) else "?")
        # The colour's pawn shape in its ink, the count pushed right of it: a red chip and a green one are one
        # colour to a deuteranope. Only where the count leaves it room (a chip is a cell wide at the least).
        wide = measure(count, size * 1.1, True)[0]
        room = chip - wide - 4
        mark = min(h * 0.25, room / 2 - 2)
        if mark >= 3:
            shape = piece_shape(colour)
            chips.piece(2, shape, x + room / 2, y + h / 2, piece_within(shape, mark, 0), ink_for(colour),
                        ink_for(colour), 0)  # fmt: skip
            counts.append((x + chip - 4 - wide / 2, count, ink_for(colour)))
        else:
            counts.append((x + chip / 2, count, ink_for(colour)))
        x += chip + c * 0.35
    winner = doc.get("winner")
    roll = doc.get("roll")
    face = str(roll.get("colour") or "white") if isinstance(roll, Mapping) and not winner else None
    rw = c * 3.4
    if face is not None:  # the roll's colour matters (red lets the player change a card): show it
        chips.rectangle(1, rgb(face), right - rw - c * 0.2, y, rw, h)
    chips.draw()
    for cx, count, ink in counts:
        text(cx, y + h / 2, count, size * 1.1, ink, bold=True)
    if winner:
        fit_text((x + c * 0.2, y, right - x - c * 0.4, h), f"{str(winner).capitalize()} wins", size, bold=True)
        return
    if isinstance(roll, Mapping) and face is not None:
        fit_text(
            (right - rw - c * 0.1, y, rw - c * 0.2, h), f"Roll {roll.get('value', '?')}", size, ink_for(face), True
        )
        right -= rw + c * 0.3
    fit_text((x + c * 0.2, y, right - x - c * 0.4, h), f"Pile {doc.get('pile', '?')}", size, bold=True)
