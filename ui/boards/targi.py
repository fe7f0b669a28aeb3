"""Targi: the 5x5 layout (border cards, robber, Targi figures, centre cards, tribe markers) and two player panels.

Labels, yields and costs come from the game's data files (a café's own copy
is drawn with its own numbers); where a border card sits is the game
package's ``POSITION``. Panels show what a player checks at a glance: goods,
gold, the score so far, the held cards and the 3x4 tribe display by symbol.

Every text is in one type size, laid out in lines of it (``Layout.text``: 16
px on the 800x480 board, where texts sized to their cards came out 8-13 px):
so each card says what it does in the longest of its forms that fits
(``pick``), and the panels' letters and colours for goods and symbols are
the legend of the shorter ones.

Places are labelled as the referee's texts name them: border cards by number
("card 11"), centre cards by a row-column tag in their corner ("centre 2-1",
the game's own ``slot_name``), display rows by number ("row 2").

A tap names a card as the game's actions do (``place_at``): a border card by
its number (``{"type": "place", "card": 10}``), a centre card by its
``(row, col)`` (``{"type": "use", "slot": [2, 1]}``), so the table can list
what may happen on it or ask the referee why nothing may. The cards offered
are framed in gold, the one listed framed thick and washed gold, one asked
about in red, the last step's card in white; each frame lies under the card's
words and pieces, so it never hides a number, a tag or a Targi.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import Any

from kivy.graphics import Color, Line, Rectangle

from companion.games.targi import card_words as wording
from companion.games.targi.board import POSITION
from companion.games.targi.card_words import (
    LETTER,
    Lines,
    border_forms,
    goods_forms,
    tribe_forms,
)
from companion.games.targi.cards import SYMBOLS
from companion.games.targi.state import slot_name
from ui.boards import focused, provisional_scores
from ui.boards.paint import ASKED, BACKGROUND, HIGHLIGHT, Texts, fit_text, ink, measure, rgb, text
from ui.boards.shapes import KIVY_SEGMENTS, Shapes

Box = tuple[float, float, float, float]  # x, y, w, h
Place = int | tuple[int, int]  # a border card's number, or a centre card's (row, col) from 1 to 3
Mark = Callable[[], None]  # puts a card's frame over its face and under its words, so the words stay on top
AT = {grid: no for no, grid in POSITION.items()}  # grid (row, col) -> border card number
LAST = (1.0, 1.0, 1.0)  # the last step's card: white, as on the other boards


class Board:
    """What a drawing puts on the canvas, gathered so that it goes on in a few draws instead of one a shape.

    The board was 219 draws at a game's end, each card's face, band, frame and
    tiles a rectangle of its own and each text one more. Cards and panels never
    overlap one another, so only the order within a card matters, kept by the
    layers: faces (edge, then fill), bands and a face-down card's lines, a
    listed card's wash, frames, the frame's seam, the centre tags; then every
    text; then the pieces (a Targi's body under its head) and the robber's R.
    Dashed outlines and the panels' rims are drawn at once, under all of it.
    """

    def __init__(self) -> None:
        self.ground = Shapes()
        self.texts = Texts()
        self.pieces = Shapes()
        self.labels = Texts()  # words on pieces

    def draw(self) -> None:
        """All of it, in order; inside ``with widget.canvas``."""
        self.ground.draw()
        self.texts.draw()
        self.pieces.draw()
        self.labels.draw()


FACE, FILL, BAND, WASH, FRAME, SEAM, CHIP = range(7)  # the layers of a card, from the bottom

BORDER_FACE = (0.86, 0.74, 0.52)
RAID_FACE = (0.7, 0.42, 0.3)
GOODS_FACE = (0.93, 0.87, 0.72)
TAG = (0.22, 0.15, 0.1)  # the row-column tag of a centre card: dark, so it reads on every band colour
TAG_INK = (1.0, 0.93, 0.75)
CARD_BACK = (0.32, 0.2, 0.12)
INK = (0.1, 0.07, 0.04)
ROBBER = (0.8, 0.1, 0.1)
SYMBOL_RGB = {
    "well": (0.25, 0.55, 0.95),
    "camel": (0.88, 0.68, 0.25),
    "oasis": (0.2, 0.68, 0.3),
    "targia": (0.68, 0.38, 0.85),
    "tent": (0.88, 0.3, 0.25),
}
RESOURCE_RGB = {
    "dates": (0.5, 0.3, 0.15),
    "salt": (0.93, 0.93, 0.93),
    "pepper": (0.78, 0.16, 0.1),
    "gold": (0.96, 0.78, 0.2),
    "vp": (0.3, 0.3, 0.36),
}


def _short_symbols(symbols: Sequence[str]) -> dict[str, str]:
    """Each symbol by the fewest first letters no other symbol starts with: well W, targia Ta, tent Te.

    A display tile on a portrait screen is a sliver (12 px across at 480x800)
    where "camel" at the smallest size was broken into a letter a line. The
    tile's colour already says the symbol; the letters confirm it, and the
    centre cards' bands spell the same names out in the same colours.
    """
    out = {}
    for symbol in symbols:
        others = [o for o in symbols if o != symbol]
        n = next((k for k in range(1, len(symbol)) if not any(o.startswith(symbol[:k]) for o in others)), len(symbol))
        out[symbol] = symbol[:n].capitalize()
    return out


SHORT_SYMBOL = _short_symbols(SYMBOLS)
SYMBOL_MIN_SIZE = 7.0  # fit_text's smallest size on a board too small for the readable one


def symbol_names(width: float, size: float = SYMBOL_MIN_SIZE) -> Mapping[str, str]:
    """The words for symbols in boxes ``width`` wide: full names if every one fits on a line at ``size``, else letters.

    Decided for all symbols at once, so one display never mixes "well" with
    "C" for camel: a player reads a row's symbols against each other (and a
    held card against the rows it may join). At 800x480 the tiles and the
    centre cards' bands are 26-32 px across at 16 px text: letters there, names
    on larger screens.
    """
    if _widest_symbol(round(size, 1)) <= width:
        return {symbol: symbol for symbol in SYMBOLS}
    return SHORT_SYMBOL


@cache
def _widest_symbol(size: float) -> float:
    """The widest symbol name at ``size``, measured once a size: a board has 30 tiles and redraws each step."""
    return max(measure(symbol, size, True)[0] for symbol in SYMBOLS)


def pick(forms: Sequence[Lines], width: float, lines: int, size: float, bold: bool = True) -> Lines:
    """The first of ``forms`` with at most ``lines`` lines, each no wider than ``width`` at ``size``; else the last."""
    return wording.pick(forms, width, lines, lambda line: measure(line, size, bold)[0])


def card_words(forms: Sequence[Lines], box: Box, inset: float, size: float) -> tuple[Lines, bool]:
    """The form a card ``box`` shows under its top line (``inset`` px of margin across), and whether it fits whole.

    The café data check (``card_words.too_small``) makes the same choice in
    the room this gives at 800x480 (``card_words.BORDER_WIDTH`` and the rest).
    """
    lines, _ = _lines_in(box[3], size)
    form = pick(forms, box[2] - inset, lines - 1, size)
    return form, wording.fits(form, box[2] - inset, lines - 1, lambda line: measure(line, size, True)[0])


def catalogue(data: Any) -> dict[str, dict[str, Any]]:
    """Goods and tribe cards by id, each tagged with its deck."""
    out: dict[str, dict[str, Any]] = {}
    for deck in ("goods", "tribe"):
        for card in data[deck].get("cards", []):
            out[card["id"]] = {**card, "deck": deck}
    return out


TEXT = 16.0  # px: the board's text at 800x480, the smallest a player reads from a chair at the 7 inch display
# The board's shares at 800x480 (398 px square), in px: each row of text 19-20 px high at 16 px type.
COLUMNS = (74.0, 78.0, 78.0, 78.0, 74.0)  # the side columns' cards are a little narrower
ROWS = (41.0, 60.0, 60.0, 60.0, 41.0)  # two lines on the top and bottom rows (number, what it gives); three between
PANEL_H = 114.0  # a panel: five rows of 20 (name, goods, three display rows) and their gaps
PANEL_W = 195.0
GRID_W = sum(COLUMNS) + 4 * 3.0
GRID_H = sum(ROWS) + 4 * 3.0


class Layout:
    """Where the 5x5 grid and the two panels go: side by side on a wide area, stacked on a square one.

    The cards of the top and bottom rows hold two lines (the number and what
    the card gives), those between three (a centre card's band, its VP and
    cost); the panels five. ``text`` is the board's type size: 16 px at
    800x480, where it just fills those lines, and in proportion elsewhere.
    """

    def __init__(self, widget: Any) -> None:
        x, y, w, h = widget.x, widget.y, widget.width, widget.height
        pad = max(1.5, min(w, h) * 0.005)
        self.gap = max(2.0, min(w, h) * 0.0076)
        if w >= h * 1.45:
            gw = min(h, w * 0.6)
            self.grid: Box = (x + pad, y + pad, gw - 2 * pad, h - 2 * pad)
            px, pw = x + gw, w - gw - pad
            half = (h - 3 * pad) / 2
            self.panels: list[Box] = [(px, y + 2 * pad + half, pw, half), (px, y + pad, pw, half)]
        else:
            ph = h * PANEL_H / (PANEL_H + GRID_H + 4 * 1.5)
            self.grid = (x + pad, y + ph + 2 * pad, w - 2 * pad, h - ph - 3 * pad)
            half = (w - 3 * pad) / 2
            self.panels = [(x + pad, y + pad, half, ph), (x + 2 * pad + half, y + pad, half, ph)]
        gx, gy, gw2, gh2 = self.grid
        self.cols = [c * (gw2 - 4 * self.gap) / sum(COLUMNS) for c in COLUMNS]
        self.rows = [r * (gh2 - 4 * self.gap) / sum(ROWS) for r in ROWS]
        self.lefts = [gx + sum(self.cols[:k]) + k * self.gap for k in range(5)]
        self.tops = [gy + gh2 - sum(self.rows[:k]) - k * self.gap for k in range(5)]
        self.cw, self.ch = min(self.cols), min(self.rows)
        _, _, pw2, ph2 = self.panels[0]
        scale = min(
            *(have / want for have, want in zip(self.cols + self.rows, COLUMNS + ROWS, strict=True)),
            pw2 / PANEL_W, ph2 / PANEL_H,
        )
        self.text = round(TEXT * scale, 1)  # Kivy renders whole sizes: 15.997 came out as 15

    def card(self, row: int, col: int) -> Box:
        return (self.lefts[col], self.tops[row] - self.rows[row], self.cols[col], self.rows[row])

    def cell_at(self, x: float, y: float) -> tuple[int, int] | None:
        """The grid (row, col) of the card under a point; a gap counts for the nearer card, off the grid None.

        A finger is wider than the few pixels between two cards: a tap there
        is meant for one of them, not for nothing.
        """
        gx, gy, gw, gh = self.grid
        half = self.gap / 2
        if not (gx - half <= x < gx + gw + half and gy - half < y <= gy + gh + half):
            return None
        col = next((k for k in range(4, -1, -1) if x >= self.lefts[k] - half), 0)
        row = next((k for k in range(4, -1, -1) if y <= self.tops[k] + half), 0)
        return (row, col)


def place_at(widget: Any, view: Any, x: float, y: float) -> Place | None:
    """The card under a tap as the actions name it: a border card's number, a centre card's (row, col); else None.

    The centre grid's rows and columns are the actions' ``slot`` [row, column]
    (1 to 3, from the top left; the tag "2-1" is (2, 1)), so no table is kept
    between the two. Corners are border cards too (4, 8, 12, 16): asking why
    not there is answered with the raid corner's clause. The panels are no place.
    """
    cell = Layout(widget).cell_at(x, y)
    if cell is None:
        return None
    return AT.get(cell, cell)


def draw(widget: Any, view: Any) -> None:
    data = view.game.data
    doc = view.document
    layout = Layout(widget)
    size = layout.text
    cards = catalogue(data)
    border = {int(c["no"]): c for c in data["border"].get("cards", [])}
    players = list(doc.get("players") or [])

    board = Board()

    def mark(box: Box, place: Place) -> Mark:
        return lambda: _mark(box, _mark_kind(view, place), layout.gap, layout.cw * 0.7, board.ground)

    with widget.canvas:
        Color(*BACKGROUND, 1)
        Rectangle(pos=widget.pos, size=widget.size)
        figures = {int(t["card"]): t.get("player") for t in doc.get("targi") or [] if isinstance(t, Mapping)}
        for no, (row, col) in POSITION.items():
            box = layout.card(row, col)
            robber = doc.get("robber") == no
            _border_card(box, no, border.get(no, {}), figures.get(no), robber, mark(box, no), size, board)
        markers = {}
        for m in doc.get("markers") or []:
            slot = m.get("slot") if isinstance(m, Mapping) else None
            if isinstance(slot, list | tuple) and len(slot) == 2:
                markers[(int(slot[0]), int(slot[1]))] = m.get("player")
        band_word = min(_band(layout.card(r, c), slot_name(0), size)[2] for r in (1, 2, 3) for c in (1, 2, 3))
        bands = symbol_names(band_word - 4, size)  # every centre card's band alike, as the panels' tiles are
        for r, row in enumerate(doc.get("centre") or []):
            for c, entry in enumerate(row or []):
                box = layout.card(r + 1, c + 1)
                _centre_card(box, entry, cards, slot_name(r * 3 + c), mark(box, (r + 1, c + 1)), size, bands, board)
                if markers.get((r + 1, c + 1)):
                    _marker(box, str(markers[(r + 1, c + 1)]), size, board)
        supplies = doc.get("supplies") or {}
        totals = _totals(view)
        for box, player in zip(layout.panels, players, strict=False):
            _panel(box, player, supplies.get(player) or {}, doc, cards, totals.get(player), size, board)
        board.draw()


def _mark_kind(view: Any, place: Place) -> str | None:
    """Which frame a card gets, one at most: a question asked outranks the choices, which outrank the last step.

    The table asks only about places with nothing offered, and focuses only
    marked ones, so "asked" and "marked" never meet; a card both offered and
    last stepped on shows the offer, as on the temple's board.
    """
    if place == view.asked:
        return "asked"
    if place in focused(view):
        return "focus"
    if place in view.marked:
        return "marked"
    if place == view.last:
        return "last"
    return None


# Frame depth inside the card, as a share of the board's card size: the listed card's is the one seen first.
DEPTH = {"focus": 0.08, "asked": 0.07, "last": 0.05, "marked": 0.035}
COLOUR = {"focus": HIGHLIGHT, "marked": HIGHLIGHT, "asked": ASKED, "last": LAST}


def _mark(box: Box, kind: str | None, gap: float, depth: float, ground: Shapes) -> None:
    """A frame round a card: out into the dark gap, where gold, red and white read, and in over the card's rim.

    The card faces are sand and cream, near the gold of a mark; the part in
    the gap carries the colour, and a dark seam on its inner edge keeps it
    apart from the face. The listed card is washed gold too. Drawn before the
    card's words, so no frame covers a number or a tag. ``depth`` is the same
    for every card (the top and bottom rows' cards are lower than the rest),
    so a frame's weight says its kind, not its card's shape.
    """
    if kind is None:
        return
    x, y, w, h = box
    inner = max(2.0, depth * DEPTH[kind])
    outer = gap * 0.3  # short of the gap's middle: a dark seam keeps two framed neighbours two frames
    if kind == "focus":
        ground.rectangle(WASH, (*HIGHLIGHT, 0.35), x + inner, y + inner, w - 2 * inner, h - 2 * inner)
    colour = COLOUR[kind]
    left, bottom, right, top = x - outer, y - outer, x + w + outer, y + h + outer
    thick = outer + inner
    ground.rectangle(FRAME, colour, left, bottom, right - left, thick)
    ground.rectangle(FRAME, colour, left, top - thick, right - left, thick)
    ground.rectangle(FRAME, colour, left, bottom + thick, thick, top - bottom - 2 * thick)
    ground.rectangle(FRAME, colour, right - thick, bottom + thick, thick, top - bottom - 2 * thick)
    ground.outline(SEAM, INK, _corners(x + inner, y + inner, w - 2 * inner, h - 2 * inner))


def _corners(x: float, y: float, w: float, h: float) -> list[float]:
    """A rectangle's corners as a ``Line(rectangle=...)`` goes round them."""
    return [x, y, x + w, y, x + w, y + h, x, y + h]


def _face(box: Box, fill: Sequence[float], ground: Shapes, edge: Sequence[float] = INK) -> None:
    x, y, w, h = box
    ground.rectangle(FACE, edge, x, y, w, h)
    ground.rectangle(FILL, fill, x + 1.5, y + 1.5, w - 3, h - 3)


def _line(size: float) -> float:
    """The height of a line of text at ``size`` (19 px at 16): the rows of the board are made of these."""
    return float(measure("Ag", size)[1])


def _lines_in(height: float, size: float) -> tuple[int, float]:
    """How many lines of ``size`` text a card ``height`` high holds (two at least), and each line's height."""
    n = max(2, int((height - 3) // _line(size)))
    return n, (height - 3) / n


def _figure(cx: float, cy: float, r: float, player: str, board: Board) -> None:
    """A Targi: a disc in the player's colour with a contrasting rim and head, so white and black both show."""
    fill = rgb(player)
    rim = ink(fill)
    board.pieces.disc(0, cx, cy - r * 0.25, r, fill, rim, max(1.5, r * 0.18), KIVY_SEGMENTS)
    board.pieces.disc(2, cx, cy + r * 0.75, r * 0.42, fill, rim, max(1.2, r * 0.14), KIVY_SEGMENTS)


def _robber(cx: float, cy: float, r: float, size: float, board: Board) -> None:
    """The robber: a red octagon, white-rimmed, with an R at the board's text size, as high as a line of text.

    A diamond a line high left the R no room at a size a player reads; the
    octagon holds it, and no Targi or tribe marker is drawn so.
    """

    def octagon(layer: int, colour: Sequence[float], s: float) -> None:
        corners = [(math.cos(math.pi / 8 + k * math.pi / 4), math.sin(math.pi / 8 + k * math.pi / 4)) for k in range(8)]
        board.pieces.polygon(layer, colour, [v for dx, dy in corners for v in (cx + dx * s, cy + dy * s)])

    octagon(0, (1, 1, 1), r + max(1.5, r * 0.12))
    octagon(1, ROBBER, r)
    text(cx, cy, "R", size, (1, 1, 1), bold=True, into=board.labels)


def _border_card(
    box: Box, no: int, card: Mapping[str, Any], player: str | None, robber: bool, mark: Mark, size: float,
    board: Board,
) -> None:
    """The number on the top line with the piece on the card (Targi or robber) at its right; what it gives under it."""
    x, y, w, h = box
    action = card.get("action") or {}
    raid = action.get("code") == "RAID"
    _face(box, RAID_FACE if raid else BORDER_FACE, board.ground)
    mark()
    number_ink = ink(RAID_FACE) if raid else INK  # black on the raid's rust, 5.1 to 1 (white was 4.1)
    _, lh = _lines_in(h, size)
    top = y + h - 1.5 - lh
    number_w = min(w * 0.45, measure(str(no), size, True)[0] + 2)
    fit_text((x + 3, top, number_w, lh), str(no), size, number_ink, bold=True, into=board.texts)
    r = lh * 0.4
    cx, cy = x + w - 3 - r - 1.5, top + lh / 2
    if player is not None:
        _figure(cx, cy, r, player, board)
        cx -= 2 * r + 4
    if robber:
        rr = lh * 0.5
        _robber(cx - (rr - r), cy, rr, size, board)
    form, _ = card_words(border_forms(card), box, 6, size)
    fit_text((x + 3, y + 1.5, w - 6, h - 3 - lh), "\n".join(form), size, number_ink, bold=True, into=board.texts)


def _band(box: Box, name: str, size: float) -> tuple[float, float, float]:
    """A centre card's top line: the tag's width, the line's height, and the room left for the symbol's word.

    The room keeps a tribe marker's place free at the right end, marker or not,
    so every card's word is chosen from the same room: the marker, its rim and
    2 px (the rim was left out, and the room ended 0.4 px from it).
    """
    _, _, w, h = box
    _, band_h = _lines_in(h, size)
    tw = min(w * 0.45, measure(name, size, True)[0] + size * 0.3)
    r = _marker_r(band_h)
    return tw, band_h, w - 3 - tw - _tag_gap(size) - (2 * r + _marker_rim(r) + 4)


def _tag_gap(size: float) -> float:
    """The room between a centre card's tag chip and the word beside it on the band.

    The tag's figures sit about 0.15 of the type size inside its chip; 2 px
    more left "1-2" 7.7 px from a red band's "Te" at 800x480, under half the
    type size, where two texts on a line start to read as one ("1-2Te").
    With 0.35 of the size more, the word's letters start half the type size
    or more from the tag's at every size, however the word sits in its room.
    """
    return max(2.0, size * 0.35)


def _tag(box: Box, name: str, size: float, board: Board) -> float:
    """The centre place's name ("2-1") on a dark chip in the card's top-left corner; returns the chip's width.

    The texts say "centre 2-1" for a card whose only other mark is what it
    gives; the chip sits over the heading band, which then starts right of it.
    """
    x, y, _, h = box
    tw, th, _ = _band(box, name, size)
    board.ground.rectangle(CHIP, TAG, x + 1.5, y + h - 1.5 - th, tw, th)
    fit_text((x + 1.5, y + h - 1.5 - th, tw, th), name, size, TAG_INK, bold=True, into=board.texts)
    return tw


def _centre_card(
    box: Box, entry: Any, cards: Mapping[str, Mapping[str, Any]], name: str, mark: Mark, size: float,
    bands: Mapping[str, str], board: Board,
) -> None:
    """Face-up goods or tribe card from its data; a face-down one as a back naming its deck; each tagged.

    The top line is the tag and the tribe card's symbol (its name, or its
    letters as on the panels' tiles where the names do not fit); the lines
    under it what the card gives, or its VP over its cost. The card's name is
    in the choices and answers about it ("Use Pepper Pouch (G03) at centre
    3-1"). The frame (``mark``) goes on after the card's face and band, before
    its tag and words.
    """
    x, y, w, h = box
    _, band_h = _lines_in(h, size)
    body = (x + 2, y + 1.5, w - 4, h - 3 - band_h)
    if not isinstance(entry, Mapping):
        Color(0.4, 0.4, 0.4, 1)
        Line(rectangle=(x + 2, y + 2, w - 4, h - 4), width=1, dash_length=4, dash_offset=4)
        mark()
        if name:
            _tag(box, name, size, board)
        return
    if "face_down" in entry:
        _face(box, CARD_BACK, board.ground, (0.8, 0.7, 0.5))
        for k in range(1, 4):
            inset = _corners(x + k * w * 0.08, y + k * h * 0.08, w - 2 * k * w * 0.08, h - 2 * k * h * 0.08)
            board.ground.outline(BAND, (0.45, 0.3, 0.18), inset)
        mark()
        fit_text(body, str(entry.get("face_down", "")), size, (0.95, 0.85, 0.6), into=board.texts)
        if name:
            _tag(box, name, size, board)
        return
    card = cards.get(str(entry.get("card")), {})
    _face(box, GOODS_FACE, board.ground)
    tribe = card.get("deck") == "tribe"
    colour = SYMBOL_RGB.get(str(card.get("symbol")), (0.6, 0.6, 0.6)) if tribe else BORDER_FACE
    board.ground.rectangle(BAND, colour, x + 1.5, y + h - 1.5 - band_h, w - 3, band_h)
    mark()
    left = _tag(box, name, size, board) + 1.5 + _tag_gap(size) if name else 3
    _, _, room = _band(box, name or "", size)
    symbol = str(card.get("symbol", ""))
    heading = bands.get(symbol, symbol) if tribe else "goods" if measure("goods", size, True)[0] <= room - 4 else ""
    # The word starts at the tag's gap, not centred in its room: centred, "Te" and "Ta" ended 3.9 px from a
    # marker's rim at 800x480 (2.9 at 120%), a ring over their last letter.
    fit_text((x + left, y + h - 1.5 - band_h, room, band_h), heading, size, ink(colour), True, "left",
             into=board.texts)
    forms = tribe_forms(card) if tribe else goods_forms(card, str(entry.get("card", "")))
    form, _ = card_words(forms, box, 4, size)
    fit_text(body, "\n".join(form), size, INK, bold=True, into=board.texts)


def _marker_r(band_h: float) -> float:
    return band_h * 0.38


def _marker_rim(r: float) -> float:
    """The dark rim round a marker of radius ``r``, outside it (``paint.disc``'s edge)."""
    return max(1.5, r * 0.22)


def _marker(box: Box, player: str, size: float, board: Board) -> None:
    """A tribe marker at the right end of the card's top line, kept free for it: it hides no word."""
    x, y, w, h = box
    _, band_h = _lines_in(h, size)
    r = _marker_r(band_h)
    fill = rgb(player)
    cx, cy = x + w - 1.5 - 2 - r, y + h - 1.5 - band_h / 2
    board.pieces.disc(0, cx, cy, r, fill, ink(fill), _marker_rim(r), KIVY_SEGMENTS)


def _totals(view: Any) -> dict[str, Any]:
    """Each player's score so far, from the game's own ``score``."""
    scores = provisional_scores(view).get("scores")
    if not isinstance(scores, Mapping):
        return {}
    return {p: parts.get("total") for p, parts in scores.items() if isinstance(parts, Mapping)}


def _panel(
    box: Box,
    player: str,
    supply: Mapping[str, Any],
    doc: Mapping[str, Any],
    cards: Mapping[str, Mapping[str, Any]],
    total: Any,
    size: float,
    board: Board,
) -> None:
    """Name, score, goods, the 3x4 display and the held cards, a line of text each; the player to act outlined."""
    x, y, w, h = box
    acting = doc.get("actor") == player and doc.get("stage") in ("place", "actions")
    Color(*(HIGHLIGHT if acting else (0.3, 0.3, 0.34)), 1)
    Line(rectangle=(x + 1, y + 1, w - 2, h - 2), width=2 if acting else 1)
    gap = max(1.0, size / TEXT * 2)
    x, y, w, h = x + gap + 1, y + gap + 1, w - 2 * gap - 2, h - 2 * gap - 2
    rh = (h - 4 * gap) / 5

    def row_y(k: int) -> float:
        return y + h - (k + 1) * rh - k * gap

    fill = rgb(player)
    name = str(player).capitalize() + (" (start)" if doc.get("start") == player else "")
    name_w = w * 0.58
    board.ground.rectangle(FILL, fill, x, row_y(0), name_w, rh)
    fit_text((x + 2, row_y(0), name_w - 4, rh), name, size, ink(fill), bold=True, into=board.texts)
    # The score so far: the VP tokens alone ("VP 5") read as the score and contradicted the final result.
    _chip((x + name_w + gap, row_y(0), w - name_w - gap, rh), "vp", supply.get("vp", 0),
          f"{total} pts" if total is not None else None, size, board)
    chip_w = (w - 3 * gap) / 4
    for k, key in enumerate(("dates", "salt", "pepper", "gold")):  # the letters the cards' yields and costs use
        _chip((x + k * (chip_w + gap), row_y(1), chip_w, rh), key, supply.get(key, 0), None, size, board)
    # display (3 rows x 4, numbered as "play it in row 2" counts them) and the hand to its right
    number_w = min(measure("3", size, True)[0] + 2, w * 0.08)
    hand_w = min(max(measure("hand", size)[0] + 4, w * 0.18), w * 0.3)
    cw = (w - hand_w - number_w - 5 * gap) / 4
    rows = supply.get("rows") or []
    names = symbol_names(cw - 4, size)  # the display's and the hand's alike, so a held card reads as its row's do
    for r in range(3):
        row = rows[r] if r < len(rows) and isinstance(rows[r], list) else []
        ry = row_y(2 + r)
        fit_text((x, ry, number_w, rh), str(r + 1), size, (0.75, 0.75, 0.75), bold=True, into=board.texts)
        for c in range(4):
            cell = (x + number_w + gap + c * (cw + gap), ry, cw, rh)
            _tile(cell, cards.get(str(row[c])) if c < len(row) else None, names, size, board)
    hx = x + w - hand_w
    hand = supply.get("hand") or []
    fit_text((hx, row_y(2), hand_w, rh), "hand", size, (0.85, 0.85, 0.85), into=board.texts)
    room = row_y(2) - gap - y
    if not hand:
        Color(0.45, 0.45, 0.45, 1)
        Line(rectangle=(hx + 1, y + 1, hand_w - 2, room - 2), width=1, dash_length=4, dash_offset=4)
    slot_h = (room - gap * (len(hand) - 1)) / max(1, len(hand))
    for k, card_id in enumerate(hand):
        _tile((hx, y + room - (k + 1) * slot_h - k * gap, hand_w, slot_h), cards.get(str(card_id)), names, size, board)


def _chip(box: Box, key: str, amount: Any, words: str | None, size: float, board: Board) -> None:
    x, y, w, h = box
    fill = RESOURCE_RGB[key]
    board.ground.rectangle(FILL, fill, x, y, w, h)
    words = words or f"{LETTER[key]} {amount}"
    fit_text((x + 2, y, w - 4, h), words, size, ink(fill), bold=True, into=board.texts)


def _tile(
    box: Box, card: Mapping[str, Any] | None, names: Mapping[str, str] | None, size: float, board: Board
) -> None:
    """A display card as its symbol colour and name (row bonuses go by symbol); an empty place as an outline.

    ``names`` are the words for the symbols (``symbol_names``), chosen once for
    the whole panel; without them the tile chooses by its own width.
    """
    x, y, w, h = box
    if card is None:
        board.ground.outline(FACE, (0.3, 0.3, 0.34), _corners(x + 1, y + 1, w - 2, h - 2))
        return
    colour = SYMBOL_RGB.get(str(card.get("symbol")), (0.6, 0.6, 0.6))
    _face(box, colour, board.ground, (0, 0, 0))
    symbol = str(card.get("symbol", card.get("id", "")))
    words = (names or symbol_names(w - 4, size)).get(symbol, symbol)
    fit_text((x + 2, y, w - 4, h), words, size, ink(colour), True, min_size=SYMBOL_MIN_SIZE, into=board.texts)



TABLE_BOARD = (398.0, 398.0)  # the table screen's board at 800x480, the smallest display (a UI test checks it)
