"""Blackpool: the 9x9 grid with its rings and camps, travellers stacked with their riders.

Blackpool's actions name a piece, not a square (``{"type": "move",
"traveller": "red-1"}``: the roll decides where it goes), so the place a tap
names is a traveller (``place_at``): the piece under the finger, or the
nearest within a finger's reach, since a piece is half a square across at
most, a fifth in the crowded centre (whose pieces are also drawn full size
in a tray beside the grid, ``tray``). The pieces with an offered action are
ringed gold, the one listed in a thicker gold, one asked about ("why can't
Red 2 move?") red, the one that moved last white; every ring lies under the
square names and the pieces, so it never hides a name or a neighbour. A
frozen traveller carries an ice rim inside its own disc, so it cannot be
taken for a ringed one.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from kivy.graphics import Color, Ellipse, Line

from companion.colours import SHAPES
from ui.boards import focused
from ui.boards.paint import (
    ASKED,
    BACKGROUND,
    HIGHLIGHT,
    Texts,
    disc,
    fitted_text,
    ink,
    ink_for,
    measure,
    piece_shape,
    rgb,
    text,
)
from ui.boards.paint import piece as draw_piece
from ui.boards.shapes import KIVY_SEGMENTS, Shapes, piece_inside, piece_points, piece_reach, piece_within

ZONE_RGB = {
    "edge": (0.82, 0.76, 0.6),
    "ring2": (0.45, 0.7, 0.9),
    "ring3": (0.25, 0.5, 0.8),
    "ring4": (0.12, 0.3, 0.62),
    "centre": (0.05, 0.05, 0.1),
}
ICE = (0.8, 0.95, 1.0)  # a frozen traveller's rim, inside its disc: white-blue, apart from the white last-step ring
LAST = (1.0, 1.0, 1.0)  # the last step's piece: white, as on the other boards
OUTLINE = 1.5  # the black rim every piece has, so light pieces show on light squares


def travellers(document: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Travellers from the position document, listed or keyed by id."""
    raw = document.get("travellers", [])
    items: Iterable[Any] = raw.items() if isinstance(raw, Mapping) else enumerate(raw)
    out = []
    for key, t in items:
        entry = dict(t)
        entry.setdefault("id", key)
        colour, _, number = str(entry["id"]).partition("-")
        entry.setdefault("colour", colour)
        entry.setdefault("number", number)
        out.append(entry)
    return out


def stacks(document: Mapping[str, Any], camps: Mapping[str, str], centre: str) -> dict[str, list[list[dict[str, Any]]]]:
    """Square id -> stacks bottom-up, so a rider is drawn on its carrier."""
    pieces = travellers(document)
    by_id = {p["id"]: p for p in pieces}
    rider_of = {p["on"]: p["id"] for p in pieces if p.get("on")}
    out: dict[str, list[list[dict[str, Any]]]] = {}
    for piece in pieces:
        if piece.get("on") in by_id:
            continue  # drawn on top of its carrier
        stack = [piece]
        while stack[-1]["id"] in rider_of and len(stack) < 12:
            stack.append(by_id[rider_of[stack[-1]["id"]]])
        at = piece.get("at", centre)
        square = camps.get(piece["colour"], at) if at == "camp" else centre if at == "centre" else at
        out.setdefault(square, []).append(stack)
    return out


STRIP = 0.1  # share of the height for the players' strip under a café board without chess-like names
LABEL = 0.33  # a café square's name: its height as a share of the square, in the top-left corner
COIN_RGB = (0.95, 0.78, 0.2)
REACH = 0.5  # a tap this far from a piece's middle, in squares, still means it: a fingertip is wider than a piece
READABLE = 16.0  # px: the smallest text on the board at 800x480, read from a chair (as Targi's)
COUNT = 0.5  # a coin's count as a share of the strip's row height: the row is twice the board's text size


def coordinates(board: Mapping[str, Any]) -> bool:
    """Whether every square is named chess-like by its column and row ("e3" at x 4, y 2), as the house board is:
    then the letters and numbers along the edges name every square, and no square needs its own name."""
    return all(str(s["id"]) == f"{chr(97 + int(s['x']))}{int(s['y']) + 1}" for s in board["squares"]) and max(
        board["width"], board["height"]) <= 26  # fmt: skip


class Grid:
    """Where the 9x9 grid goes in a widget: the same sums for the drawing and for a tap.

    The board's texts are one size (``text``: 16 px on the 398 px board at
    800x480, more on larger ones): the column letters under the grid, the row
    numbers left of it, the pieces' numbers and the strip's counts. The strip
    is as many rows of players (and the decks, two players wide) as the
    board's width needs: on a portrait board (269 px wide, four players and
    the decks) one row ran each player over the next's coin and the last off
    the board.
    """

    def __init__(self, widget: Any, board: Mapping[str, Any], slots: int = 3, decks: Sequence[str] = ()) -> None:
        width, height = board["width"], board["height"]
        self.text = max(READABLE, min(widget.width, widget.height) / 25)
        self.row_h = self.text / COUNT
        self.columns = max(1, min(max(1, slots), int(widget.width // (PLAYER_W * self.row_h))))
        self.rows = math.ceil(max(1, slots) / self.columns)
        self.strip_h = self.rows * self.row_h
        self.edges = coordinates(board)
        if self.edges:
            self.band = measure("g", self.text, True)[1]  # the column letters' line under the grid
            digits = measure("9" * len(str(height)), self.text, True)[0]
            # The row numbers' room, each side: a quarter of the text between them and the grid (4 px at 16 px) and
            # a little more at the board's edge. A fixed 4 px at 28 px text (720x1280) left a camp's "1" and the
            # row's "9" 14 px apart, under the half a text size that reads as a gap (``APART``).
            self.margin = digits + self.text * 0.375
        else:  # a café's own names, drawn in each square
            self.strip_h = widget.height * STRIP
            self.band = self.margin = 0.0
        # The decks' counts (``decks``: their names, `deck_names`) on one line where the rest of their row holds
        # them, "Charm deck 3, Curse deck 3"; else one over the other (``split``). Unlabelled, "charm 3 curse 3"
        # fitted anywhere; labelled, one line is 199 px at 16 px, where four players leave the decks 123 px at
        # 800x480. Two lines are taller than the row (38 px in 32 at 16 px), and a quarter of the size is kept clear
        # over them, under the column letters' "g": the strip grows by the difference (``extra``), under its last
        # row, where the decks are. Judged with two figures a deck, so the board does not move as the decks empty.
        self.extra, self.split = 0.0, False
        self.deck_slot = decks_slot(max(0, slots - 2), self.columns)
        if decks:
            row, segment = self.strip_h / self.rows, widget.width / self.columns
            size = min(row, segment / PLAYER_W) * COUNT
            room = widget.width - (self.deck_slot % self.columns) * segment - min(row, segment / PLAYER_W) * 0.2
            self.split = measure(DECKS_APART.join(f"{name} 99" for name in decks), size)[0] > room
            if self.split:
                self.extra = max(0.0, len(decks) * measure(DECK_PROBE, size)[1] + DECK_GAP * size - row)
                self.strip_h += self.extra
        room_h = widget.height - self.strip_h - self.band
        side_w = widget.width - 2 * self.margin
        # Room over the grid for a ring round a piece in the top row (the house board's camps a9 and i9): at 120%
        # display scale the grid reached the board's top and a white "just moved" ring 9 px past it, off the window.
        first = min(side_w / width, room_h / height)
        self.top = overhang(first) if self.edges else 0.0
        # The row numbers stand clear of a ring round a piece in the first column (a9's and a1's camps): a white
        # ring lay under the light "9" beside a9 and hid most of it.
        self.gutter = max(self.text / 4, overhang(first, "left")) if self.edges else 0.0
        # Right of the grid, the centre's tray (``tray``) stands past a ring round a piece in column i with a gap
        # between: centred in a margin as wide as the row numbers', its white rim lay 0.8 px off the grid at
        # 800x480, and a ring round a piece on i5 ran 13 px over it.
        self.side = self.margin
        if self.edges:
            self.margin = digits + self.gutter + self.text / 8
            self.side = max(self.margin, overhang(first, "right") + TRAY_GAP + tray_width(self.text))
            side_w = widget.width - self.margin - self.side
        self.cell = max(1.0, min(side_w / width, (room_h - self.top) / height))
        self.x0 = widget.x + self.margin + (widget.width - self.margin - self.side - self.cell * width) / 2
        self.y0 = widget.y + self.strip_h + self.band + (room_h - self.top - self.cell * height) / 2

    def origin(self, square: Mapping[str, Any]) -> tuple[float, float]:
        # Row 1 at the bottom, as the board data and the terminal view have it: drawn the other way up,
        # every path ran clockwise on the screen where the rules say anti-clockwise.
        return self.x0 + square["x"] * self.cell, self.y0 + square["y"] * self.cell


def decks_shown(document: Mapping[str, Any], names: Mapping[str, str]) -> list[str]:
    """The decks whose counts the strip shows, each named as the game's texts name it (`Game.deck_names`) and
    begun with a capital, as the temple's "Pile 9": "Charm deck", "Curse deck"."""
    decks = document.get("decks") or {}
    named = [str(names.get(deck, f"{deck} deck")) for deck, cards in decks.items() if isinstance(cards, Mapping)]
    return [f"{name[:1].upper()}{name[1:]}" for name in named]


def slots(document: Mapping[str, Any]) -> int:
    """The strip's slots: one a player, two for the decks' counts."""
    return len(document.get("players") or []) + (2 if decks_shown(document, {}) else 0)


def decks_slot(players: int, columns: int) -> int:
    """The strip's slot the decks' counts begin at: after the players, or at the next row's start where only one
    slot is left in the row (the decks are two: one left at a row's end gave them a player's room and their words
    shrank to 9.9 px, four players at 120% display scale; the row below is theirs)."""
    return players + 1 if columns > 1 and players % columns == columns - 1 else players


def grid_for(widget: Any, view: Any) -> Grid:
    names = decks_shown(view.document, view.game.deck_names)
    return Grid(widget, view.game.data["board"], slots(view.document), names)


DECK_PROBE = "Charm deck 3"  # a deck's line, measured for its height
DECK_GAP = 0.25  # of the text size: kept clear over the decks' lines, so they do not read as one with the letters
DECKS_APART = ", "  # between the decks' counts on one line


def deck_lines(document: Mapping[str, Any], names: Mapping[str, str]) -> list[str]:
    """Each deck's cards left under its name (`decks_shown`): "Charm deck 3", "Curse deck 3". "charm 3 curse 3"
    read as two words and two numbers, neither said to be a deck's count."""
    decks = [cards for cards in (document.get("decks") or {}).values() if isinstance(cards, Mapping)]
    counts = [sum(v for v in cards.values() if isinstance(v, int)) for cards in decks]
    return [f"{name} {n}" for name, n in zip(decks_shown(document, names), counts, strict=True)]


@dataclass(frozen=True)
class Piece:
    """One traveller as drawn: its disc's middle and radius, so a tap and a ring find the piece a player sees."""

    id: str
    colour: str
    number: str
    frozen: bool
    x: float
    y: float
    r: float


def centre_of(board: Mapping[str, Any]) -> str:
    return str(next(s["id"] for s in board["squares"] if s["zone"] == "centre"))


def pieces(widget: Any, view: Any) -> list[Piece]:
    """Every traveller's disc in drawing order: square by square, each stack carrier first, riders above it.

    A later piece lies on top of an earlier one it overlaps (a rider on its carrier).
    """
    board = view.game.data["board"]
    grid = grid_for(widget, view)
    centre = centre_of(board)
    by_square = stacks(view.document, board["camps"], centre)
    out = []
    for square in board["squares"]:
        x, y = grid.origin(square)
        piles = by_square.get(square["id"], [])
        named = square["id"] != centre and not grid.edges  # a café square's name in its corner stays clear
        for i, stack in enumerate(piles):
            if grid.edges and len(piles) <= 3:  # the centre too, once no more than three stacks are left there
                out.extend(_apart(stack, x, y, grid.cell, i, len(piles)))
            else:
                out.extend(_stack_discs(stack, x, y, grid.cell, i, len(piles), clear_name=named))
    return out + tray(widget, grid, board, by_square.get(centre, []))


def tray(widget: Any, grid: Grid, board: Mapping[str, Any], piles: list[list[dict[str, Any]]]) -> list[Piece]:
    """The centre's crowd again, beside the grid at the board's text size: four stacks or more (all twelve
    travellers at a four-player start) share the centre square as dots a fifth of a square across, too small
    for a readable number, so each stack is drawn once more, in full, in a column right of the grid, level with
    the centre square (or, on a tall narrow board with no room there, in rows above the grid).

    The column is the room the row numbers leave on the grid's other side (32 px at 800x480, 48 at 120%: a disc
    20 px across with its 16 px number); a rider sits on its carrier, touching it, and stacks lie a little apart.
    Nothing on the grid moves or shrinks, so every square and piece is the size it was. Empty where the
    centre holds three stacks or fewer (they are drawn full size in it), on a café board named square by
    square, and where neither side has room (the dots then keep their small numbers, as before).
    """
    if not grid.edges or len(piles) <= 3:
        return []
    r = grid.text * TRAY
    size = 2 * (r + OUTLINE)  # one disc across, its rim included
    right = grid.x0 + int(board["width"]) * grid.cell
    height = int(board["height"]) * grid.cell
    free_x = widget.x + widget.width - right
    free_y = widget.y + widget.height - (grid.y0 + height)
    centre = next(s for s in board["squares"] if s["zone"] == "centre")
    for full in (True, False):  # a diamond as large as on the grid where the column has room, else a disc wide
        slots = [[(piece, r if full else across(str(piece["colour"]), r)) for piece in stack] for stack in piles]
        heights = [max(size, 2 * extent(str(p["colour"]), pr)) for stack in slots for p, pr in stack]
        # Between two stacks: a rider touches its carrier, stacks do not touch (less apart on a short grid).
        gap = max(1.0, min(r * 0.4, (height - sum(heights)) / (len(piles) - 1)))
        length = sum(heights) + (len(piles) - 1) * gap
        reach = overhang(grid.cell, "right") + TRAY_GAP  # clear of a ring round a piece in column i
        if free_x - reach >= max(heights) + 2 and length <= height:  # a column, level with the centre square
            cx, middle = right + reach + (free_x - reach) / 2, grid.origin(centre)[1] + grid.cell / 2
            top = min(grid.y0 + height, max(grid.y0 + length, middle + length / 2))
            return _column(slots, cx, top, size, gap)
    if free_y - grid.top >= size + 2:  # rows above the grid (a tall narrow board), each piece a disc wide
        # above the room the grid leaves for a ring round a piece in its top row (``overhang``)
        box = (widget.x + 2, grid.y0 + height + grid.top + 1, widget.width - 4, free_y - grid.top - 2)
        return _rows(piles, box, r, size, r * 0.4)
    return []


TRAY = 0.62  # a piece's radius beside the grid as a share of the board's text size: 16 px figures on 20 px discs
TRAY_GAP = 3.0  # px between a ring's black edge round a piece in column i and the tray's white rim beside it


def tray_width(text: float) -> float:
    """The tray's column across, its white rim included (``_tray_frame``), at the board's text size: as wide
    as its widest piece, a full-size red diamond."""
    return 2 * max(extent(colour, text * TRAY) for colour in ("red", "yellow")) + 2 * TRAY_PAD


TRAY_PAD = 2.0  # px between the tray's pieces and the outer edge of its white rim


def _tray_piece(piece: Mapping[str, Any], x: float, y: float, r: float) -> Piece:
    """A piece of the tray's rows, its shape no wider or taller than a disc of radius ``r`` (``across``)."""
    colour = str(piece["colour"])
    return Piece(str(piece["id"]), colour, str(piece["number"]), bool(piece.get("frozen")), x, y, across(colour, r))


def extent(colour: str, r: float) -> float:
    """How far a piece of ``colour`` drawn at radius ``r`` reaches left, right, up and down, its black rim
    included: a disc's radius and rim, a square's half side (less), a diamond's half diagonal (more)."""
    corners = piece_points(piece_shape(colour), 0.0, 0.0, r, OUTLINE)
    return max(map(abs, corners)) if corners else r + OUTLINE


def across(colour: str, r: float) -> float:
    """The radius at which a piece of ``colour`` reaches no farther across than a disc of radius ``r`` (``extent``).

    The tray's pieces lie a disc's width apart in a column a disc wide: a red diamond at the discs' radius
    reached 2 px further each way, through the tray's white rim and over the diamond above and below it.
    Its number stays at the board's text size (radius 8.1 px where a disc's is 9.9, ``_draw_piece``), but it
    fills the diamond to its rim, so only a column too short for full-size diamonds (all twelve at the start at
    120% display scale and 800x480, a 286 px grid) draws them so.
    """
    if extent(colour, r) <= r + OUTLINE:
        return r
    return piece_within(piece_shape(colour), r, OUTLINE)


def _column(
    slots: list[list[tuple[dict[str, Any], float]]], cx: float, top: float, size: float, gap: float
) -> list[Piece]:
    """Stacks top down, each carrier under its riders (riders are drawn above their carrier on the squares too);
    ``slots``: each stack's pieces, carrier first, with their radius. A piece takes a disc's height (``size``),
    a full-size diamond its own."""
    out = []
    for stack in slots:
        rooms = [max(size, 2 * extent(str(piece["colour"]), r)) for piece, r in stack]
        y = top - sum(rooms)
        for (piece, r), room in zip(stack, rooms, strict=True):
            out.append(Piece(str(piece["id"]), str(piece["colour"]), str(piece["number"]), bool(piece.get("frozen")),
                             cx, y + room / 2, r))  # fmt: skip
            y += room
        top -= sum(rooms) + gap
    return out


def _rows(
    piles: list[list[dict[str, Any]]], box: tuple[float, float, float, float], r: float, size: float, gap: float
) -> list[Piece]:
    """Stacks left to right (a rider right of its carrier, touching it) in lines as wide as ``box`` (x, y, w, h)
    allows, each line centred, the lines at the foot of the box; none where they do not all fit."""
    lines: list[list[list[dict[str, Any]]]] = [[]]
    for stack in piles:
        line = [*lines[-1], stack]
        if lines[-1] and sum(map(len, line)) * size + (len(line) - 1) * gap > box[2]:
            lines.append([stack])
        else:
            lines[-1] = line
    if any(sum(map(len, line)) * size > box[2] for line in lines) or len(lines) * (size + gap) - gap > box[3]:
        return []
    out = []
    top = box[1] + min(box[3], len(lines) * (size + gap) - gap + 2 * gap)  # just over the grid, not adrift above it
    for k, line in enumerate(lines):
        length = sum(map(len, line)) * size + (len(line) - 1) * gap
        x, y = box[0] + (box[2] - length) / 2, top - k * (size + gap) - size / 2
        for stack in line:
            out.extend(_tray_piece(piece, x + (level + 0.5) * size, y, r) for level, piece in enumerate(stack))
            x += len(stack) * size + gap
    return out


_hit_cache: list[Any] = [None, None]  # (view, widget box) -> pieces: the last position asked about


def _hit_pieces(widget: Any, view: Any) -> list[Piece]:
    """The pieces, kept while the view and the widget's box stay: a tap's reach asks a few hundred times
    (``ui/reach.py``), and laying the pieces out again each time made a tap take 40 ms here."""
    box = (widget.x, widget.y, widget.width, widget.height)
    key, drawn = _hit_cache
    if key is None or key[0] is not view or key[1] != box:
        drawn = pieces(widget, view)
        _hit_cache[:] = [(view, box), drawn]
    return drawn


def place_at(widget: Any, view: Any, x: float, y: float) -> str | None:
    """The traveller a tap names, by its id as the actions spell it ("red-1"); None away from every piece.

    A piece is half a square across at most (a fifth in the crowded centre,
    whose tray beside the grid holds each of them again, 20 px across at
    800x480), smaller than a fingertip: the piece drawn on top under the finger wins
    (a rider over its carrier), else the nearest piece within half a square.
    Squares are no place: a diagonal step names its square too, but as a
    choice among the stepping piece's buttons, found by tapping the piece.
    """
    drawn = _hit_pieces(widget, view)
    for piece in reversed(drawn):  # the last drawn is the one seen on top
        if (x - piece.x) ** 2 + (y - piece.y) ** 2 <= (piece.r + OUTLINE) ** 2:
            return piece.id
    reach = grid_for(widget, view).cell * REACH
    near = [(math.hypot(x - p.x, y - p.y), k, p) for k, p in enumerate(drawn)]
    near = [entry for entry in near if entry[0] <= max(reach, entry[2].r * 1.6)]
    return min(near, key=lambda entry: (entry[0], -entry[1]))[2].id if near else None


def draw(widget: Any, view: Any) -> None:
    board = view.game.data["board"]
    grid = grid_for(widget, view)
    cell = grid.cell
    camp_owner = {sq: colour for colour, sq in board["camps"].items()}
    centre = centre_of(board)
    crowd = stacks(view.document, board["camps"], centre).get(centre, [])
    drawn = pieces(widget, view)
    shelf = tray(widget, grid, board, crowd)
    dots = {piece.id for piece in shelf}  # in the centre square as coloured dots, numbered in the tray beside it

    with widget.canvas:
        # The squares and the names' patches are a few meshes, one a colour, rather than a draw each (the GL
        # driver keeps buffers for every draw); the rings, pieces and texts keep their own order over them.
        ground = Shapes()
        ground.rectangle(0, BACKGROUND, widget.x, widget.y, widget.width, widget.height)
        for square in board["squares"]:
            x, y = grid.origin(square)
            ground.rectangle(1, _fill(square, camp_owner), x + 1, y + 1, cell - 2, cell - 2)
        if shelf:
            _tray_frame(grid, next(sq for sq in board["squares"] if sq["id"] == centre), shelf, ground)
        ground.draw()
        # The rings go on before the names and the pieces: neither a name nor a neighbour is ever covered.
        shelved = set(shelf)
        for piece in drawn:  # no glow in the tray, at the board's edge: it reached over the announcements' words
            _ring(piece, _mark_kind(view, piece.id), glow=piece not in shelved)
        patches, names = Shapes(), []
        for square in board["squares"] if not grid.edges else ():
            if square["id"] == centre and crowd:
                continue  # "the centre" in the texts; its crowd of pieces would leave a scrap of its name
            x, y = grid.origin(square)
            fill = _fill(square, camp_owner)
            names.append(_name(square["id"], x, y, cell, ink(fill), fill, patches))
        patches.draw()
        for write in names:
            write()
        if grid.edges:
            _draw_edges(grid, board)
        for piece in drawn:
            _draw_piece(piece, grid.text if grid.edges else 0.0, numbered=piece.id not in dots or piece in shelved)
        _draw_players((widget.x, widget.y, widget.width, grid.strip_h), view.document, board["camps"], grid,
                      view.game.deck_names)


def _fill(square: Mapping[str, Any], camp_owner: Mapping[str, str]) -> tuple[float, float, float]:
    """A square's colour: its camp's player's, else its zone's."""
    owner = camp_owner.get(square["id"])
    return rgb(owner) if owner else ZONE_RGB.get(square["zone"], (0.5, 0.5, 0.5))


def _name(
    name: str, x: float, y: float, cell: float, ink: tuple[float, float, float], fill: Any, patches: Shapes
) -> Callable[[], Any]:
    """A square's name in its top-left corner, on a patch of the square's own colour (put in ``patches``);
    returns the drawing of the name, for after every patch.

    The texts name squares ("forward 3 to e3"): the name is as large as the
    corner left free of pieces allows. The patch is invisible on a bare
    square; where a piece's ring reaches the corner (a white ring behind a
    white name) it cuts the ring, so the name always reads on its square.
    """
    size, room = cell * LABEL, cell * 0.45
    w, h = measure(name, size, True)
    if w > room > 0:  # a café's long square names shrink rather than run under the pieces
        size = max(6.0, size * room / w)
        w, h = measure(name, size, True)
    left, bottom = x + 3, y + cell * (1 - LABEL / 2) - 1 - h / 2
    top, right = min(bottom + h, y + cell - 1), min(left + w, x + cell - 1)  # inside the square: the grid lines stay
    patches.rectangle(0, fill, left, max(bottom, y + 1), right - left, top - max(bottom, y + 1))
    return lambda: text(left, bottom, name, size, ink, anchor="bottomleft", bold=True)


def _mark_kind(view: Any, place: Hashable) -> str | None:
    """Which ring a piece gets, one at most: a question asked outranks the choices, which outrank the last step.

    The table asks only about pieces with nothing offered and lists only
    offered ones, so "asked" and "marked" never meet; a piece both offered
    and moved last shows the offer, as on the other boards.
    """
    if place == getattr(view, "asked", None):
        return "asked"
    if place in focused(view):
        return "focus"
    if place in (getattr(view, "marked", None) or ()):
        return "marked"
    if place == getattr(view, "last", None):
        return "last"
    return None


# Ring width as a share of the piece's radius, and at least this many pixels: the listed piece's is seen first.
RING = {"focus": (0.55, 4.0), "asked": (0.45, 3.0), "last": (0.35, 2.5), "marked": (0.3, 2.0)}
RING_RGB = {"focus": HIGHLIGHT, "marked": HIGHLIGHT, "asked": ASKED, "last": LAST}


def ring_size(shape: str, r: float, kind: str) -> tuple[float, float]:
    """A ring's inner radius (the black gap round a piece of ``shape`` and radius ``r``) and its width; its black
    outer edge is ``RING_EDGE`` more."""
    share, least = RING[kind]
    small = min(1.0, r / 10)  # the crowded centre's pieces are 4 px: a ring thinner than its piece, not a blob
    return r * piece_reach(shape) + OUTLINE + max(1.5 * small, r * 0.12), max(least * small, r * share)


RING_EDGE = 1.0


def overhang(cell: float, side: str = "top") -> float:
    """How far a ring round a piece reaches past its square's top (or left, or right) edge, at most (``APART``'s
    places, the widest shape and ring): the grid leaves that much room over its top row, so no ring runs off the
    board's top, the row numbers stand that far left of it, so no ring lies under a number, and the centre's
    tray that far right of it (and ``TRAY_GAP`` more), so no ring runs into the tray."""
    return max(
        0.0,
        *(sum(ring_size(shape, share * cell, kind)) + RING_EDGE - {"top": 1 - y, "left": x, "right": 1 - x}[side] * cell
          for spots, share in APART.values() for x, y in spots for shape in SHAPES for kind in RING),
    )  # fmt: skip


def _ring(piece: Piece, kind: str | None, glow: bool = True) -> None:
    """A coloured ring round a piece, black on both sides, so it reads on sand, water and the dark centre.

    Drawn as discs under the piece: a ring drawn on top would cover a
    rider's carrier or a neighbour in the crowded centre. The black gap
    inside keeps the gold of a mark apart from a yellow piece, which it
    otherwise merges into. The listed piece also gets a faint gold glow (with ``glow``).
    """
    if kind is None:
        return
    gap, width = ring_size(piece_shape(piece.colour), piece.r, kind)
    outer = gap + width
    if kind == "focus" and glow:
        Color(*HIGHLIGHT, 0.35)
        glow = outer + width
        Ellipse(pos=(piece.x - glow, piece.y - glow), size=(2 * glow, 2 * glow))
    disc(piece.x, piece.y, outer, RING_RGB[kind], (0, 0, 0), RING_EDGE)
    Color(0, 0, 0, 1)
    Ellipse(pos=(piece.x - gap, piece.y - gap), size=(2 * gap, 2 * gap))


def _draw_edges(grid: Grid, board: Mapping[str, Any]) -> None:
    """The column letters under the grid and the row numbers left of it, at the board's text size.

    Each square's name in its corner was a third of a square high, 13 px at
    800x480 (81 texts under 16 px); "forward 3 to e3" is found as on a chess
    board, and the squares are left to the pieces.
    """
    words, colour, ground = Texts(), (0.85, 0.85, 0.85), Shapes()
    for x in range(int(board["width"])):
        cx, letter = grid.x0 + (x + 0.5) * grid.cell, chr(97 + x)
        # The letter's own patch of the ground, over any ring round a piece in row 1 (a1's and i1's camps): a
        # white ring ran 8 px under the light "i" below i1. Moving the letters clear of the widest ring would
        # have taken 12.6 px off the grid's height at 120% display scale, and the 16 px off the numbers of three
        # travellers home in one camp: the ring is cut round the letter instead, as round a café square's name.
        w, h = measure(letter, grid.text, True)
        bottom, top = grid.y0 - grid.band / 2 - h / 2, min(grid.y0 - grid.band / 2 + h / 2, grid.y0)
        ground.rectangle(0, BACKGROUND, cx - w / 2 - 1, bottom, w + 2, top - bottom)
        text(cx, grid.y0 - grid.band / 2, letter, grid.text, colour, bold=True, into=words)
    for y in range(int(board["height"])):
        fitted_text(grid.x0 - grid.gutter, grid.y0 + (y + 0.5) * grid.cell, str(y + 1), grid.text, grid.margin,
                    colour, anchor="right", bold=True, into=words)  # fmt: skip
    ground.draw()
    words.draw()


# Where one, two or three stacks lie in a square of the house board (``_apart``): their middles as shares of the
# square across and up, and their radius as a share of its side.
APART = {
    1: ([(0.5, 0.5)], 0.42),
    2: ([(0.25, 0.25), (0.75, 0.75)], 0.27),
    3: ([(0.19, 0.17), (0.8, 0.24), (0.42, 0.75)], 0.26),
}


def _apart(stack: list[dict[str, Any]], x: float, y: float, cell: float, i: int, n: int) -> list[Piece]:
    """Stack ``i`` of ``n`` (three at most) on a square of the house board, each piece large enough for a 16 px
    number, no number's box over another's.

    A lone piece fills most of its square; a carrier and its rider, or two
    stacks, lie corner to corner (the first low and left), so neither number
    hides under the other piece; three (a camp with everyone home) two low
    and one high, each a number's width apart across, as large as three discs in a square can be (a quarter of
    it across): at 23% a camp with everyone home drew its numbers at 8 px wherever a square is under 35 px (the
    display scale's 120% at 800x480 and upright), its discs too small for the board's 16 px.

    The two corners are half a square apart each way, the three's low pair more than half a square across: a
    16 px number's letters are 9x11 px, so two read apart 15 px one over the other or 17 px side by side
    (``tests/ui/test_boards_robust.run_together``). At 120% display scale and 800x480 (a 32 px square) two
    stacks 0.44 of a square apart drew their numbers 5.6 px across and 2.6 px down from each other, read as
    one ("13"), and a camp with everyone home its low two 7 px apart. The three stand staggered: level and 0.56 of
    a square apart, red's diamonds (1.15 times a disc's reach) ran their red into each other under the rims; now
    a black rim at least lies between any two shapes' colours, their numbers still apart.
    """
    if n == 3:
        spots, share = APART[3][0][i : i + 1], APART[3][1]
    elif n == 1 and len(stack) == 1:
        spots, share = APART[1]
    else:
        low, high = APART[2][0]
        spots, share = ([low, high] if n == 1 else [low if i == 0 else high]), APART[2][1]
    radius = cell * share
    out = []
    for level, piece in enumerate(stack):
        sx, sy = spots[min(level, len(spots) - 1)]
        above = max(0, level - (len(spots) - 1))  # riders beyond the spots: smaller, lifted, as before
        out.append(Piece(str(piece["id"]), str(piece["colour"]), str(piece["number"]), bool(piece.get("frozen")),
                         x + sx * cell, y + sy * cell + above * radius * 0.6, radius * 0.85**above))  # fmt: skip
    return out


def _tray_frame(grid: Grid, centre: Mapping[str, Any], shelf: list[Piece], ground: Shapes) -> None:
    """The tray's ground in the centre square's colour, rimmed white, and the centre square rimmed white too
    (in ``ground``): the two dark boxes with white rims read as one place drawn twice."""
    pad = TRAY_PAD
    left = min(p.x - extent(p.colour, p.r) for p in shelf) - pad
    right = max(p.x + extent(p.colour, p.r) for p in shelf) + pad
    bottom = min(p.y - extent(p.colour, p.r) for p in shelf) - pad
    top = max(p.y + extent(p.colour, p.r) for p in shelf) + pad
    x, y = grid.origin(centre)
    for bx, by, bw, bh in ((left, bottom, right - left, top - bottom), (x + 1, y + 1, grid.cell - 2, grid.cell - 2)):
        ground.rectangle(1, RIM, bx, by, bw, bh)
        ground.rectangle(2, ZONE_RGB["centre"], bx + 1.5, by + 1.5, bw - 3, bh - 3)


RIM = (1.0, 1.0, 1.0)  # the white rim round the crowded centre square and round its tray beside the grid


def _draw_piece(piece: Piece, least: float = 0.0, numbered: bool = True) -> None:
    """A disc in the traveller's colour (a square or diamond for some colours: ``piece_shape``) with a black rim
    and its number; a frozen one with an ice rim inside.

    The number is ``least`` px at least (the board's text size) where the disc holds it; a dot in the crowded
    centre has none (its number is in the tray beside the grid)."""
    draw_piece(piece.x, piece.y, piece.r, piece.colour, edge=OUTLINE)
    if piece.frozen:
        inside = piece.r * 0.78 * piece_inside(piece_shape(piece.colour))
        Color(0, 0, 0, 1)
        Line(circle=(piece.x, piece.y, inside), width=max(1.6, piece.r * 0.16))
        Color(*ICE, 1)
        Line(circle=(piece.x, piece.y, inside), width=max(1.0, piece.r * 0.1))
    if not numbered:
        return
    size = piece.r * 1.1
    if least and piece.r >= least * 0.5:  # a 16 px figure, 9x12 px of ink, fits a 16 px disc
        size = max(size, least)
    text(piece.x, piece.y, piece.number, size, ink_for(piece.colour), bold=True)


def _draw_players(
    box: tuple[float, float, float, float],
    document: Mapping[str, Any],
    camps: Mapping[str, str],
    grid: Grid,
    deck_names: Mapping[str, str],
) -> None:
    """Each player's coins and travellers home (a pip each), the one to play edged in gold, then the decks' cards
    (`deck_lines`, one over the other).

    Coins are spent on the charm deck and never showed anywhere, though the
    buttons count them ("Spend a coin on the charm deck (3 left)"). A row is
    twice the board's text size high, so a coin's count is that size.
    """
    x, y, w, h = box
    players = [str(p) for p in document.get("players") or []]
    if h < 8 or not players:
        return
    coins = document.get("coins") or {}
    home: dict[str, int] = {}
    for piece in travellers(document):
        if piece.get("at") == "camp" or piece.get("at") == camps.get(piece["colour"]):
            home[piece["colour"]] = home.get(piece["colour"], 0) + 1
    lines = deck_lines(document, deck_names)
    columns = grid.columns
    segment, row_h, u = strip_slot(box, grid, 0)[2:]
    discs, counts = Shapes(), []  # side by side, none over another: a few meshes, then the coins' counts on them
    for k, player in enumerate(players):
        sx, sy = strip_slot(box, grid, k)[:2]
        if player == document.get("turn"):
            Color(*HIGHLIGHT, 1)
            Line(rectangle=(sx + 2, sy + 2, segment - 4, row_h - 4), width=1.5)
        cy = sy + row_h / 2
        shape = piece_shape(player)  # the player's own shape, as its travellers, within a disc's room
        discs.piece(0, shape, sx + u * 0.2, cy, piece_within(shape, u * 0.14, 1.2), rgb(player), (1, 1, 1), 1.2,
                    KIVY_SEGMENTS)  # fmt: skip
        # Coins as a gold coin with its count (words shrank unreadably in a quarter of a 400 px board).
        discs.disc(0, sx + u * COIN[0], cy, u * COIN[1], COIN_RGB, (0, 0, 0), 1.0, KIVY_SEGMENTS)
        counts.append((sx + u * COIN[0], cy, str(coins.get(player, 0))))
        for i, (px, py, pr) in enumerate(home_pips(sx, cy, u)):  # travellers home, filled in the player's colour
            pip = rgb(player) if i < home.get(player, 0) else BACKGROUND
            discs.piece(0, shape, px, py, piece_within(shape, pr, 1.0), pip, (1, 1, 1), 1.0, KIVY_SEGMENTS)
    discs.draw()
    for cx, cy, count in counts:
        text(cx, cy, count, u * COUNT, (0, 0, 0), bold=True)
    if lines:
        k = grid.deck_slot
        lines = lines if grid.split else [DECKS_APART.join(lines)]
        sx, sy = x + (k % columns) * segment, y + h - (k // columns + 1) * row_h
        room = x + w - sx - u * 0.2  # the rest of the row: two players' room at least
        # The last row and the room the strip grew by under it (``Grid.extra``), less the gap over them, a line a deck.
        size = u * COUNT
        gap = DECK_GAP * size if grid.split else 0.0
        middle, step = (sy - grid.extra + sy + row_h - gap) / 2, measure(DECK_PROBE, size)[1]
        for i, words in enumerate(lines):
            cy = middle + step * ((len(lines) - 1) / 2 - i)
            fitted_text(sx + u * 0.1, cy, words, size, room, (0.8, 0.8, 0.8), anchor="left")


PLAYER_W = 2.05  # a player's disc, coin and three pips side by side, in units of their height
# The pips for travellers home: their colour's radius (a 1 px white rim round it) and middles (across from the
# slot's left, up from its middle), in the player's unit. Three in a row were 0.1 (6.4 px of colour, 8.4 px with the
# rim, in the 32 px row at 800x480): two low and one high between them are 12 px across with the rim, 10 of colour
# (a 16 px figure is 11.5 px high), a rim apart, clear of the coin and inside the gold frame round the one to play.
PIP = 0.15625
PIPS = ((1.345, -0.2), (1.75, -0.2), (1.5475, 0.2))
COIN = (0.8, 0.36)  # the coin's middle from the slot's left and its radius, in the player's unit


Box = tuple[float, float, float, float]  # x, y, width, height


def strip_slot(box: Box, grid: Grid, k: int) -> tuple[float, float, float, float, float]:
    """Slot ``k`` of the players' strip in ``box``: its left and foot, width and height, and the player's unit (the
    height their disc, coin and pips scale with)."""
    x, y, w, h = box
    segment, row_h = w / grid.columns, (h - grid.extra) / grid.rows
    u = min(row_h, segment / PLAYER_W)
    return x + (k % grid.columns) * segment, y + h - (k // grid.columns + 1) * row_h, segment, row_h, u


def strip_pips(widget: Any, view: Any) -> list[tuple[str, tuple[float, float, float], Box]]:
    """Each player's pips counting travellers home as drawn: (player, (x, y, radius), their slot (x, y, w, h))."""
    grid = grid_for(widget, view)
    box = (widget.x, widget.y, widget.width, grid.strip_h)
    out = []
    for k, player in enumerate(str(p) for p in view.document.get("players") or []):
        sx, sy, segment, row_h, u = strip_slot(box, grid, k)
        out += [(player, pip, (sx, sy, segment, row_h)) for pip in home_pips(sx, sy + row_h / 2, u)]
    return out


def home_pips(sx: float, cy: float, u: float) -> list[tuple[float, float, float]]:
    """The three pips counting a player's travellers home, right of the coin in the player's slot (``sx`` its
    left, ``cy`` its middle, ``u`` its height): each (x, y, radius), the rim and a square's or diamond's corners
    within the radius (``piece_within``)."""
    return [(sx + u * x, cy + u * y, u * PIP) for x, y in PIPS]


def _stack_discs(
    stack: list[dict[str, Any]],
    x: float,
    y: float,
    cell: float,
    i: int,
    n: int,
    clear_name: bool = False,
) -> list[Piece]:
    """One carrier with its riders above it; several stacks on a square share it in a small grid.

    With ``clear_name`` the pieces keep off the square's name in its top-left
    corner: a lone stack sits down and to the right, several share the part
    of the square below the name.
    """
    if n == 1 and clear_name:
        radius = cell * 0.27
        cx, cy = x + cell * 0.62, y + cell * 0.37 - radius * 0.3 * (len(stack) - 1)
    else:
        room = cell * (1 - LABEL) if clear_name else cell
        columns = max(1, math.ceil(math.sqrt(n)))
        rows = math.ceil(n / columns)
        slot = cell / columns
        radius = min(slot, room / rows) * (0.34 if n == 1 else 0.4)
        cx = x + slot * (i % columns + 0.5)
        cy = y + room - (room / rows) * (i // columns + 0.5) - radius * 0.3 * (len(stack) - 1)
    out = []
    for level, piece in enumerate(stack):
        r = radius * (0.85**level)
        py = cy + level * radius * 0.6
        out.append(Piece(str(piece["id"]), str(piece["colour"]), str(piece["number"]), bool(piece.get("frozen")),
                         cx, py, r))  # fmt: skip
    return out
