"""Targi: the 5x5 layout (border cards, robber, Targi figures, centre cards, tribe markers) and two player panels.

Labels, yields and costs come from the game's data files (a café's own copy
is drawn with its own numbers); where a border card sits is the game
package's ``POSITION``. Panels show what a player checks at a glance: goods,
gold, victory points, the held card and the 3x4 tribe display by symbol.

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

from companion.games.targi.board import POSITION
from companion.games.targi.cards import SYMBOLS
from companion.games.targi.state import slot_name
from ui.boards import focused, provisional_scores
from ui.boards.paint import ASKED, BACKGROUND, HIGHLIGHT, Texts, fit_text, measure, rgb
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
LETTER = {"dates": "D", "salt": "S", "pepper": "P", "gold": "G", "vp": "VP"}
ACTION_WORD = {
    "NOBLE": "Noble",
    "CARAVAN": "Caravan",
    "TRIBAL_EXPANSION": "Expansion",
    "FATA_MORGANA": "Fata Morgana",
    "SILVERSMITH": "Silversmith",
    "TRADER": "Trader",
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
SYMBOL_MIN_SIZE = 7.0  # fit_text's smallest size: below it a symbol's name gives way to its letters


def symbol_names(width: float) -> Mapping[str, str]:
    """The words for symbols on tiles ``width`` wide: full names if every one fits on a line, else letters.

    Decided for all symbols at once, so one display never mixes "well" with
    "C" for camel: a player reads a row's symbols against each other (and a
    held card against the rows it may join).
    """
    if _widest_symbol() <= width:
        return {symbol: symbol for symbol in SYMBOLS}
    return SHORT_SYMBOL


@cache
def _widest_symbol() -> float:
    """The widest symbol name at the smallest size, measured once: a board has 30 tiles and redraws each step."""
    return max(measure(symbol, SYMBOL_MIN_SIZE, True)[0] for symbol in SYMBOLS)


def _ink(fill: Sequence[float]) -> tuple[float, float, float]:
    """Black on light fills, white on dark: the text must read from a metre."""
    return (0, 0, 0) if 0.3 * fill[0] + 0.59 * fill[1] + 0.11 * fill[2] > 0.5 else (1, 1, 1)


def amounts(resources: Mapping[str, Any], sep: str = " ") -> str:
    """'+2 dates +1 salt' in the fixed resource order, so cards with the same yield read the same."""
    parts = [f"+{resources[k]} {'VP' if k == 'vp' else k}" for k in LETTER if resources.get(k)]
    if resources.get("choice"):
        parts.append(f"+{resources['choice']} any")
    return sep.join(parts)


def short_cost(cost: Sequence[Mapping[str, Any]]) -> str:
    """A tribe card's cost options in letters ('2S 1D / 1G'): the same letters as the players' panels."""
    return " / ".join(" ".join(f"{opt[k]}{LETTER[k]}" for k in LETTER if opt.get(k)) for opt in cost)


def border_word(card: Mapping[str, Any]) -> str:
    """A short label for a border card: what it does, since that is what players look for."""
    action = card.get("action") or {}
    code = action.get("code", "")
    if code == "GAIN":
        return amounts(action.get("gain") or {}, "\n")
    if code == "GAIN_CHOICE":
        return f"+{action.get('goods', 1)} any good"
    if code == "RAID":
        return "Raid"
    return ACTION_WORD.get(code, str(card.get("label", code)))


def catalogue(data: Any) -> dict[str, dict[str, Any]]:
    """Goods and tribe cards by id, each tagged with its deck."""
    out: dict[str, dict[str, Any]] = {}
    for deck in ("goods", "tribe"):
        for card in data[deck].get("cards", []):
            out[card["id"]] = {**card, "deck": deck}
    return out


class Layout:
    """Where the 5x5 grid and the two panels go: side by side on a wide area, stacked on a square one."""

    def __init__(self, widget: Any) -> None:
        x, y, w, h = widget.x, widget.y, widget.width, widget.height
        pad = min(w, h) * 0.015
        if w >= h * 1.45:
            gw = min(h, w * 0.6)
            self.grid: Box = (x + pad, y + pad, gw - 2 * pad, h - 2 * pad)
            px, pw = x + gw, w - gw - pad
            half = (h - 3 * pad) / 2
            self.panels: list[Box] = [(px, y + 2 * pad + half, pw, half), (px, y + pad, pw, half)]
        else:
            gh = h * 0.62
            self.grid = (x + pad, y + h - gh + pad, w - 2 * pad, gh - 2 * pad)
            half = (w - 3 * pad) / 2
            ph = h - gh - pad
            self.panels = [(x + pad, y + pad, half, ph), (x + 2 * pad + half, y + pad, half, ph)]
        _, _, gw2, gh2 = self.grid
        self.gap = max(2.0, min(gw2, gh2) * 0.012)
        self.cw = (gw2 - 4 * self.gap) / 5
        self.ch = (gh2 - 4 * self.gap) / 5

    def card(self, row: int, col: int) -> Box:
        gx, gy, _, gh = self.grid
        top = gy + gh
        return (gx + col * (self.cw + self.gap), top - (row + 1) * self.ch - row * self.gap, self.cw, self.ch)

    def cell_at(self, x: float, y: float) -> tuple[int, int] | None:
        """The grid (row, col) of the card under a point; a gap counts for the nearer card, off the grid None.

        A finger is wider than the few pixels between two cards: a tap there
        is meant for one of them, not for nothing.
        """
        gx, gy, gw, gh = self.grid
        half = self.gap / 2
        if not (gx - half <= x < gx + gw + half and gy - half < y <= gy + gh + half):
            return None
        col = math.floor((x - gx + half) / (self.cw + self.gap))
        row = math.floor((gy + gh - y + half) / (self.ch + self.gap))
        return (min(max(row, 0), 4), min(max(col, 0), 4))


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
    cards = catalogue(data)
    border = {int(c["no"]): c for c in data["border"].get("cards", [])}
    players = list(doc.get("players") or [])

    board = Board()

    def mark(box: Box, place: Place) -> Mark:
        return lambda: _mark(box, _mark_kind(view, place), layout.gap, board.ground)

    with widget.canvas:
        Color(*BACKGROUND, 1)
        Rectangle(pos=widget.pos, size=widget.size)
        figures = {int(t["card"]): t.get("player") for t in doc.get("targi") or [] if isinstance(t, Mapping)}
        for no, (row, col) in POSITION.items():
            box = layout.card(row, col)
            robber = doc.get("robber") == no
            _border_card(box, no, border.get(no, {}), figures.get(no), robber, mark(box, no), board)
        markers = {}
        for m in doc.get("markers") or []:
            slot = m.get("slot") if isinstance(m, Mapping) else None
            if isinstance(slot, list | tuple) and len(slot) == 2:
                markers[(int(slot[0]), int(slot[1]))] = m.get("player")
        for r, row in enumerate(doc.get("centre") or []):
            for c, entry in enumerate(row or []):
                box = layout.card(r + 1, c + 1)
                _centre_card(box, entry, cards, slot_name(r * 3 + c), mark(box, (r + 1, c + 1)), board)
                if markers.get((r + 1, c + 1)):
                    _marker(box, str(markers[(r + 1, c + 1)]), board)
        supplies = doc.get("supplies") or {}
        totals = _totals(view)
        for box, player in zip(layout.panels, players, strict=False):
            _panel(box, player, supplies.get(player) or {}, doc, cards, totals.get(player), board)
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


# Frame depth inside the card, as a share of the card's shorter side: the listed card's is the one seen first.
DEPTH = {"focus": 0.08, "asked": 0.07, "last": 0.05, "marked": 0.035}
COLOUR = {"focus": HIGHLIGHT, "marked": HIGHLIGHT, "asked": ASKED, "last": LAST}


def _mark(box: Box, kind: str | None, gap: float, ground: Shapes) -> None:
    """A frame round a card: out into the dark gap, where gold, red and white read, and in over the card's rim.

    The card faces are sand and cream, near the gold of a mark; the part in
    the gap carries the colour, and a dark seam on its inner edge keeps it
    apart from the face. The listed card is washed gold too. Drawn before the
    card's words, so no frame covers a number or a tag.
    """
    if kind is None:
        return
    x, y, w, h = box
    inner = max(2.0, min(w, h) * DEPTH[kind])
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


def _figure(cx: float, cy: float, r: float, player: str, board: Board) -> None:
    """A Targi: a disc in the player's colour with a contrasting rim and head, so white and black both show."""
    fill = rgb(player)
    rim = _ink(fill)
    board.pieces.disc(0, cx, cy - r * 0.25, r, fill, rim, max(1.5, r * 0.18), KIVY_SEGMENTS)
    board.pieces.disc(2, cx, cy + r * 0.75, r * 0.42, fill, rim, max(1.2, r * 0.14), KIVY_SEGMENTS)


def _robber(cx: float, cy: float, r: float, board: Board) -> None:
    def diamond(layer: int, colour: Sequence[float], s: float) -> None:
        board.pieces.polygon(layer, colour, [cx, cy + s, cx + s, cy, cx, cy - s, cx - s, cy])

    diamond(0, (1, 1, 1), r + max(1.5, r * 0.18))
    diamond(1, ROBBER, r)
    # As tall as it is wide: on a portrait board the diamond is 7 px high and an R in a box r high was cut.
    fit_text((cx - r * 0.6, cy - r * 0.6, r * 1.2, r * 1.2), "R", r, (1, 1, 1), bold=True, into=board.labels)


def _border_card(
    box: Box, no: int, card: Mapping[str, Any], player: str | None, robber: bool, mark: Mark, board: Board
) -> None:
    """Number and short label as large as the card allows; the piece on it (Targi or robber) beside them."""
    x, y, w, h = box
    action = card.get("action") or {}
    raid = action.get("code") == "RAID"
    _face(box, RAID_FACE if raid else BORDER_FACE, board.ground)
    mark()
    ink = (1, 1, 1) if raid else INK
    word = f"Raid {action.get('k', '')}".strip() if raid else border_word(card)
    occupied = player is not None or robber
    r = min(h * 0.2, w * 0.14)
    left_w = w * 0.34
    if player is not None and robber:  # only with a card that lets a Targi join the robber: both on a bottom row
        fit_text((x + 2, y + h * 0.55, left_w, h * 0.43), str(no), h * 0.3, ink, bold=True, into=board.texts)
        fit_text((x + left_w, y + h * 0.5, w - left_w - 3, h * 0.48), word, h * 0.22, ink, bold=True, into=board.texts)
        _robber(x + w * 0.3, y + h * 0.26, r, board)
        _figure(x + w * 0.7, y + h * 0.26, r, player, board)
        return
    if w < h * 1.3:  # portrait cards (a wide screen): number and piece on top, the label across below
        top_h = h * 0.34
        fit_text((x + 2, y + h - top_h - 1, w * 0.45, top_h), str(no), h * 0.26, ink, bold=True, into=board.texts)
        fit_text((x + 3, y + 3, w - 6, h - top_h - 6), word, h * 0.2, ink, bold=True, into=board.texts)
        if occupied:
            cx, cy = x + w * 0.72, y + h - top_h / 2 - 1
            rr = min(r, top_h * 0.4)
            if robber:
                _robber(cx, cy, rr, board)
            else:
                _figure(cx, cy, rr, str(player), board)
        return
    number_h = h * (0.4 if occupied else 0.5)
    fit_text((x + 2, y + h - number_h - 2, left_w, number_h), str(no), h * 0.3, ink, bold=True, into=board.texts)
    small = h < 60
    word_box = (x + left_w, y + (3 if small else h * 0.35), w - left_w - 3, h * (0.94 if small else 0.63))
    fit_text(word_box, word, h * (0.3 if small else 0.24), ink, bold=True, into=board.texts)
    if not small:  # the printed name too, where the card is big enough for it to read
        name_box = (x + left_w, y + 3, w - left_w - 3, h * 0.32)
        fit_text(name_box, str(card.get("label", "")), h * 0.15, ink, into=board.texts)
    if occupied:
        cx, cy = x + left_w / 2 + 1, y + h * 0.05 + r * 1.3
        if robber:
            _robber(cx, cy, r, board)
        else:
            _figure(cx, cy, r, str(player), board)


def _tag(box: Box, name: str, board: Board) -> float:
    """The centre place's name ("2-1") on a dark chip in the card's top-left corner; returns the chip's width.

    The texts say "centre 2-1" for a card whose only other mark is what it
    gives; the chip sits over the heading band, which then starts right of it.
    """
    x, y, w, h = box
    th = max(10.0, min(h * 0.3, w * 0.24))
    size = th * 0.82
    tw = min(w * 0.4, measure(name, size, True)[0] + th * 0.5)
    board.ground.rectangle(CHIP, TAG, x + 1.5, y + h - 1.5 - th, tw, th)
    fit_text((x + 1.5, y + h - 1.5 - th, tw, th), name, size, TAG_INK, bold=True, into=board.texts)
    return tw


def _centre_card(
    box: Box, entry: Any, cards: Mapping[str, Mapping[str, Any]], name: str, mark: Mark, board: Board
) -> None:
    """Face-up goods or tribe card from its data; a face-down one as a back naming its deck; each tagged.

    The frame (``mark``) goes on after the card's face and band, before its tag and words.
    """
    x, y, w, h = box
    if not isinstance(entry, Mapping):
        Color(0.4, 0.4, 0.4, 1)
        Line(rectangle=(x + 2, y + 2, w - 4, h - 4), width=1, dash_length=4, dash_offset=4)
        mark()
        if name:
            _tag(box, name, board)
        return
    if "face_down" in entry:
        _face(box, CARD_BACK, board.ground, (0.8, 0.7, 0.5))
        for k in range(1, 4):
            inset = _corners(x + k * w * 0.08, y + k * h * 0.08, w - 2 * k * w * 0.08, h - 2 * k * h * 0.08)
            board.ground.outline(BAND, (0.45, 0.3, 0.18), inset)
        mark()
        fit_text(
            (x + w * 0.1, y + h * 0.3, w * 0.8, h * 0.4),
            str(entry.get("face_down", "")),
            h * 0.22,
            (0.95, 0.85, 0.6),
            into=board.texts,
        )
        if name:
            _tag(box, name, board)
        return
    card = cards.get(str(entry.get("card")), {})
    small = h < 60 or w < 80  # small cards drop the name so the numbers that decide a turn stay readable
    _face(box, GOODS_FACE, board.ground)
    tribe = card.get("deck") == "tribe"
    band_h = h * (0.32 if tribe else 0.24)
    colour = SYMBOL_RGB.get(str(card.get("symbol")), (0.6, 0.6, 0.6)) if tribe else BORDER_FACE
    board.ground.rectangle(BAND, colour, x + 1.5, y + h - band_h, w - 3, band_h - 1.5)
    mark()
    heading = str(card.get("symbol", "")) if tribe else "goods"
    left = _tag(box, name, board) + 2 if name else 3
    band = (x + left, y + h - band_h, w - left - 3, band_h)
    fit_text(band, heading, band_h * 0.8, _ink(colour), True, into=board.texts)
    if tribe:
        stats = f"{card.get('vp', 0)} VP  {short_cost(card.get('cost') or [])}"
    else:
        stats = amounts(card.get("yield") or {}, "\n") or str(entry.get("card", ""))
    body_h = h - band_h - 3
    if small:
        fit_text((x + 3, y + 2, w - 6, body_h), stats, h * 0.3, INK, bold=True, into=board.texts)
        return
    label_box = (x + 3, y + 2 + body_h * 0.5, w - 6, body_h * 0.5)
    fit_text(label_box, str(card.get("label", "")), h * 0.18, INK, into=board.texts)
    fit_text((x + 3, y + 2, w - 6, body_h * 0.5), stats, h * 0.21, INK, bold=True, into=board.texts)


def _marker(box: Box, player: str, board: Board) -> None:
    """A tribe marker at the card's corner: it marks the crossing without hiding what the card gives."""
    x, y, w, h = box
    r = min(w, h) * 0.16
    fill = rgb(player)
    board.pieces.disc(0, x + w - r - 3, y + h - r - 3, r, fill, _ink(fill), max(1.5, r * 0.22), KIVY_SEGMENTS)


def _totals(view: Any) -> dict[str, Any]:
    """Each player's score so far, from the game's own ``score``."""
    return {p: parts.get("total") for p, parts in provisional_scores(view).items() if isinstance(parts, Mapping)}


def _panel(
    box: Box,
    player: str,
    supply: Mapping[str, Any],
    doc: Mapping[str, Any],
    cards: Mapping[str, Mapping[str, Any]],
    total: Any,
    board: Board,
) -> None:
    """Name, goods, gold, VP, held card and the 3x4 display; the player to act is outlined."""
    x, y, w, h = box
    acting = doc.get("actor") == player and doc.get("stage") in ("place", "actions")
    Color(*(HIGHLIGHT if acting else (0.3, 0.3, 0.34)), 1)
    Line(rectangle=(x + 1, y + 1, w - 2, h - 2), width=2 if acting else 1)
    pad = max(2.0, h * 0.025)
    x, y, w, h = x + pad + 1, y + pad + 1, w - 2 * pad - 2, h - 2 * pad - 2
    head_h = h * 0.2
    fill = rgb(player)
    name = str(player).capitalize() + (" (start)" if doc.get("start") == player else "")
    # name chip and VP
    name_w = w * 0.62
    board.ground.rectangle(FILL, fill, x, y + h - head_h, name_w, head_h)
    fit_text((x + 2, y + h - head_h, name_w - 4, head_h), name, head_h * 0.75, _ink(fill), bold=True, into=board.texts)
    # The score so far: the VP tokens alone ("VP 5") read as the score and contradicted the final result.
    _chip((x + name_w + pad, y + h - head_h, w - name_w - pad, head_h), "vp", supply.get("vp", 0),
          f"{total} pts" if total is not None else None, board)
    # goods and gold
    res_y = y + h - 2 * head_h - pad
    chip_w = (w - 3 * pad) / 4
    for k, key in enumerate(("dates", "salt", "pepper", "gold")):
        _chip((x + k * (chip_w + pad), res_y, chip_w, head_h), key, supply.get(key, 0), None, board)
    # display (3 rows x 4, numbered as "play it in row 2" counts them) and the hand to its right
    area_h = res_y - pad - y
    hand_w = w * 0.2
    rh = (area_h - 2 * pad) / 3
    number_w = min(rh * 0.7, w * 0.07)
    cw = (w - hand_w - number_w - 5 * pad) / 4
    rows = supply.get("rows") or []
    names = symbol_names(cw - 4)  # the display's and the hand's alike, so a held card reads as its row's do
    for r in range(3):
        row = rows[r] if r < len(rows) and isinstance(rows[r], list) else []
        row_y = y + area_h - (r + 1) * rh - r * pad
        fit_text((x, row_y, number_w, rh), str(r + 1), rh * 0.62, (0.75, 0.75, 0.75), bold=True, into=board.texts)
        for c in range(4):
            cell = (x + number_w + c * (cw + pad), row_y, cw, rh)
            _tile(cell, cards.get(str(row[c])) if c < len(row) else None, names, board)
    hx = x + w - hand_w
    hand = supply.get("hand") or []
    label_h = rh * 0.6
    fit_text((hx, y + area_h - label_h, hand_w, label_h), "hand", label_h * 0.7, (0.85, 0.85, 0.85), into=board.texts)
    slot_h = (area_h - label_h - pad) / max(1, len(hand) or 1)
    if not hand:
        Color(0.45, 0.45, 0.45, 1)
        Line(rectangle=(hx + 1, y + 1, hand_w - 2, area_h - label_h - pad - 2), width=1, dash_length=4, dash_offset=4)
    for k, card_id in enumerate(hand):
        hand_box = (hx, y + k * slot_h, hand_w, slot_h - (pad if k < len(hand) - 1 else 0))
        _tile(hand_box, cards.get(str(card_id)), names, board)


def _chip(box: Box, key: str, amount: Any, words: str | None, board: Board) -> None:
    x, y, w, h = box
    fill = RESOURCE_RGB[key]
    board.ground.rectangle(FILL, fill, x, y, w, h)
    words = words or f"{LETTER[key]} {amount}"
    fit_text((x + 2, y, w - 4, h), words, h * 0.72, _ink(fill), bold=True, into=board.texts)


def _tile(box: Box, card: Mapping[str, Any] | None, names: Mapping[str, str] | None, board: Board) -> None:
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
    words = (names or symbol_names(w - 4)).get(symbol, symbol)
    inside = (x + 2, y + 1, w - 4, h - 2)
    fit_text(inside, words, h * 0.42, _ink(colour), True, min_size=SYMBOL_MIN_SIZE, into=board.texts)
