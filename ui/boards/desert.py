"""Desert lap race: the loop as a ring of spaces round the edge, a panel per player inside it.

The ring is laid out from the board file (any length a café gives it), so the
drawing follows the data rather than a picture of one printed board. Space
colours follow the rule text's colour names (red Collection, blue Mystery, ...),
or a café board's own ``#rrggbb``, which is how players at the table find a
space on the real board. Each space carries its number on the loop (``index``
in board.json, 0 the start) at 16 px or more, and the referee's texts give it
beside the name ("3: to Twin Dunes (11)" on a roll's button): at 800x480 a space is
36 px, where no word of a name can be read from a chair. Where a space has
room (larger screens) its type label stands beside the number and one word of
its name, the shortest no other space shares, along its foot.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

from kivy.graphics import Color, Rectangle

from companion.games.desert.board import Board as Loop
from companion.games.desert.standing import standing
from ui.boards import focused
from ui.boards.paint import (
    ASKED,
    BACKGROUND,
    HIGHLIGHT,
    Texts,
    fitted_text,
    fitting_size,
    hex_rgb,
    ink,
    measure,
    piece_shape,
    rgb,
)
from ui.boards.shapes import (
    KIVY_SEGMENTS,
    Shapes,
    Triangle,
    circle_points,
    frame_triangles,
    line_triangles,
    piece_points,
    piece_reach,
)

TYPE_RGB = {
    "start": (0.97, 0.88, 0.6),
    "safe": (0.8, 0.68, 0.45),
    "collection": (0.82, 0.14, 0.14),
    "mystery": (0.16, 0.36, 0.88),
    "life": (0.98, 0.55, 0.1),
    "trade": (0.08, 0.6, 0.25),
    "scared": (0.98, 0.88, 0.15),
    "challenge": (0.97, 0.97, 0.97),
    "secret_passage": (0.9, 0.7, 0.1),
}
TYPE_LABEL = {
    "start": "GO",
    "safe": "safe",
    "collection": "item",
    "mystery": "?",
    "life": "+1",
    "trade": "swap",
    "scared": "-2",
    "secret_passage": "SP",
}
ITEM_SHORT = {
    "golden_compass": "Compass",
    "desert_flask": "Flask",
    "sunshield_amulet": "Amulet",
    "sandstorm_sneakers": "Sneakers",
    "mirage_cloak": "Cloak",
}
ITEM_RGB = {
    "golden_compass": (0.98, 0.8, 0.15),
    "desert_flask": (0.55, 0.8, 0.95),
    "sunshield_amulet": (0.98, 0.6, 0.3),
    "sandstorm_sneakers": (0.85, 0.75, 0.55),
    "mirage_cloak": (0.75, 0.6, 0.95),
}
# The smallest font a space's number is drawn in: below it, on a café's long loop (72 spaces leave 20 px spaces at
# 800x480), the number shrinks to fit its space, never under this.
READABLE_FONT = 8
# The font of a space's number, type label and word where they fit: what a player reads from a chair on the 7 and
# 5 inch displays (800x480), where the words and labels were 8.7-10.5 px. A larger space takes a quarter of its side.
RING_FONT = 16.0
# The smallest font in the players' panel, where it fits (the panel at 800x480 and larger): what a player reads
# from a chair on the 7 and 5 inch displays.
PANEL_FONT = 16.0
PAWN_SHARE = 0.17  # a lone pawn's radius as a share of its space's side
SMALL_WORDS = {"a", "an", "and", "of", "the"}


class Board:
    """What the drawing puts on the canvas, gathered so that it goes on in a few draws instead of one a shape.

    The board was 157-164 draws, each space's colour, each word and each panel row and chip one of its own.
    Spaces, the panel's rows and chips never overlap, so their colours are a mesh a colour (``flat``); the
    red frames, the acting row's rim and the panel's pawns go on over them (``over``), then the marks
    (``marks``), every word (a mesh a texture and colour), and the pawns on the ring (``pawns``), each a
    mesh a layer and colour whose layers keep the order the shapes were drawn in one by one.
    """

    def __init__(self) -> None:
        self.flat = Shapes()
        self.over = Shapes()
        self.marks = Shapes()
        self.texts = Texts()
        self.pawns = Shapes()


def challenge_label(challenge: Mapping[str, Any]) -> str:
    """The demand as printed on a challenge space: short enough to read inside one space."""
    pred, k = challenge.get("pred"), challenge.get("k", 0)
    if challenge.get("attemptLimit", 3) is None and pred == "eq":
        return f"{k}!"  # the Guardian's Test: only this face, no try limit
    if pred == "gte":
        return f"{k}+"
    if pred == "lte":
        return f"{k}-"
    if pred == "eq":
        return f"={k}"
    if pred in ("even", "odd"):
        return str(pred)
    values = [int(v) for v in challenge.get("values", ())]
    if values and values == list(range(values[0], values[-1] + 1)) and len(values) > 1:
        return f"{values[0]}-{values[-1]}"
    return ",".join(map(str, values))


def space_label(space: Mapping[str, Any]) -> str:
    if space.get("type") == "challenge" and isinstance(space.get("challenge"), Mapping):
        return challenge_label(space["challenge"])
    return TYPE_LABEL.get(str(space.get("type")), "")


def _stem(word: str) -> str:
    """A word as compared for "does another space share it": Dune and Dunes, Sand and Sands would be mixed up."""
    word = word.lower().strip(".,:;!?'\u2019")
    word = word.removesuffix("'s").removesuffix("\u2019s")
    return word.removesuffix("s") if len(word) > 3 else word


def _bare(word: str) -> str:
    """A word of a name without the marks round it; a dash, a dot or a sign alone is no word at all.

    A café's "Oase der Stille · Nordtor" had its space drawn as "·", and
    "Hafen — Ost" as "—": the shortest "word" no other space shares, which
    no player could look for.
    """
    return re.sub(r"^[\W_]+|[\W_]+$", "", word)


def short_names(spaces: Sequence[Mapping[str, Any]]) -> dict[str, str]:
    """Space id -> the word of its name drawn in the space.

    The shortest word no other space's name shares (near enough: "Dune" and
    "Dunes" count as shared), so a player reading "Whispering Winds" looks
    for "Winds" and finds exactly one space; a capitalised word first, so a
    café's "Oase der Stille" is "Oase", not "der"; a name with no such word
    is drawn whole, shrunk to fit.
    """
    words = {
        str(s.get("id")): [
            w for w in map(_bare, str(s.get("name") or s.get("id")).split()) if w and w.lower() not in SMALL_WORDS
        ]
        for s in spaces
    }
    counts: dict[str, int] = {}
    for listed in words.values():
        for stem in {_stem(w) for w in listed}:
            counts[stem] = counts.get(stem, 0) + 1
    out = {}
    for space in spaces:
        key = str(space.get("id"))
        own = [w for w in words[key] if counts[_stem(w)] == 1]
        # Names are written in title case, where only the small words start in lower case, in any language:
        # "Oase der Stille" was drawn "der" and "Brunnen am Hafen" "am", which SMALL_WORDS (English) let through.
        capitals = [w for w in own if w[0].isupper() or w[0].isdigit()]
        out[key] = min(capitals or own, key=len) if own else str(space.get("name") or key)
    return out


@functools.lru_cache(maxsize=256)  # pure, and asked at every hit test: finding a space by taps, thousands
def ring_shape(n: int, width: float, height: float) -> tuple[int, int]:
    """Columns and rows of the ring with room for ``n`` spaces and the largest square spaces in the area; of rings
    whose spaces are as large to ``RING_SLACK``, the squarest, whose inside (the players' panel) is the tallest.

    The largest spaces alone chose 21x17 spaces of 22.3 px for a café's 72-space loop upright at 120% display
    scale (a 468x398 board), where 20x18 of 22.1 px gives the panel 287 px of height instead of 267: six
    players' rows then hold two 16 px lines, which were 14.6 px. The house loop's 40 spaces get the ring they
    had at every size the table draws.

    An area of no size (a board before its first layout) gets the first ring with room: every ring's spaces
    were 0 px there, none larger than the 3x3 start, whose 8 slots left the drawing an IndexError for space 8.
    """
    rings = []
    for rows in range(3, max(4, n)):
        cols = max(3, math.ceil((n + 4) / 2) - rows)
        if 2 * (cols + rows) - 4 >= n:
            rings.append((min(width / cols, height / rows), cols, rows))
    if not rings:
        return 3, 3
    largest = max(cell for cell, _, _ in rings)
    near = [ring for ring in rings if ring[0] >= largest - RING_SLACK]
    _, cols, rows = max(near, key=lambda ring: (min(ring[1], ring[2]) * ring[0], ring[0]))
    return cols, rows


RING_SLACK = 0.5  # px: spaces this much smaller than the largest the area allows are no smaller to a player


def ring_slots(cols: int, rows: int) -> list[tuple[int, int]]:
    """(col, row) of each ring slot, row 0 at the bottom: up the left side from the bottom-left corner, clockwise."""
    slots = [(0, j) for j in range(rows)]
    slots += [(i, rows - 1) for i in range(1, cols)]
    slots += [(cols - 1, j) for j in range(rows - 2, -1, -1)]
    slots += [(i, 0) for i in range(cols - 2, 0, -1)]
    return slots


def player_pieces(document: Mapping[str, Any]) -> list[tuple[str, Mapping[str, Any]]]:
    """(player, piece) in seat order; a document missing a piece just leaves that player off the board."""
    pieces = document.get("pieces") or {}
    order = [p for p in document.get("players") or [] if p in pieces]
    order += [p for p in pieces if p not in order]
    return [(p, pieces[p]) for p in order]


def ring_frame(widget: Any, n: int) -> tuple[float, float, float, int, int]:
    """Cell side, bottom-left corner (x0, y0), columns and rows of the ring of ``n`` spaces in the widget."""
    cols, rows = ring_shape(n, widget.width, widget.height)
    cell = min(widget.width / cols, widget.height / rows)
    return cell, widget.x + (widget.width - cell * cols) / 2, widget.y + (widget.height - cell * rows) / 2, cols, rows


def place_at(widget: Any, view: Any, x: float, y: float) -> Any:
    """The id of the space under a tap; None inside the ring (the players' panel) or outside it."""
    spaces = view.game.data["board"]["spaces"]
    cell, x0, y0, cols, rows = ring_frame(widget, len(spaces))
    at = (math.floor((x - x0) / cell), math.floor((y - y0) / cell))
    slots = ring_slots(cols, rows)[: len(spaces)]
    return spaces[slots.index(at)]["id"] if at in slots else None


def draw(widget: Any, view: Any) -> None:
    spaces: Sequence[Mapping[str, Any]] = view.game.data["board"]["spaces"]
    document = view.document
    cell, x0, y0, cols, rows = ring_frame(widget, len(spaces))
    slots = ring_slots(cols, rows)
    index_of = {s["id"]: i for i, s in enumerate(spaces)}
    layout = ring_layout(spaces, cell)
    mover = document.get("turn")
    winner = document.get("winner")
    by_space: dict[int, list[tuple[str, Mapping[str, Any]]]] = {}
    for player, piece in player_pieces(document):
        by_space.setdefault(index_of.get(piece.get("space"), 0), []).append((player, piece))

    board = Board()
    with widget.canvas:
        Color(*BACKGROUND, 1)
        Rectangle(pos=widget.pos, size=widget.size)
        for i, space in enumerate(spaces):
            col, row = slots[i]
            _fill_space(space, layout, x0 + col * cell, y0 + row * cell, cell, board)
        small = lone_pawn(spaces, layout, cell) < PAWN_READABLE  # a long café loop: pawns stack in a lane inside
        inset = PAWN_LANE if small else 1.15
        inner = (x0 + cell * inset, y0 + cell * inset, cell * (cols - 2 * inset), cell * (rows - 2 * inset))
        loops = (spaces, view.game.board)
        _draw_panel(inner, document, loops, index_of, mover, winner, board)  # inside the ring: no overlap
        board.flat.draw()
        board.over.draw()
        # The marks go between a space's colour and its words: drawn over the words, the gold frame cut
        # every marked space's labels in half and blanked the tapped one, the very space being chosen.
        _mark_spaces(view, spaces, slots, (x0, y0, cell), board.marks)
        board.marks.draw()
        for i, space in enumerate(spaces):
            col, row = slots[i]
            crowded = len(by_space.get(i, ())) > 3
            _label_space(space, layout, x0 + col * cell, y0 + row * cell, cell, crowded, board.texts)
        board.texts.draw()
        on_ring = []
        for i, here in by_space.items():
            col, row = slots[i]
            if small:
                inward = (_inward(col, cols), _inward(row, rows))
                box = (x0 + col * cell, y0 + row * cell, cell, cell * (inset - 0.5))
                on_ring += _stack_pawns(here, box, inward, mover, winner)
            else:
                band = layout.pawn_band(spaces[i], y0 + row * cell, cell, len(here) > 3)
                on_ring += _draw_pawns(here, x0 + col * cell, band, cell, mover, winner)
        _lay_pawns(on_ring, board.pawns)
        board.pawns.draw()


def space_rgb(space: Mapping[str, Any]) -> tuple[float, float, float]:
    """The colour a café's board prints the space in (``"#rrggbb"``), else its type's colour from the rules."""
    return hex_rgb(space.get("colour")) or TYPE_RGB.get(str(space.get("type")), (0.6, 0.6, 0.6))


def space_ink(space: Mapping[str, Any]) -> tuple[float, float, float]:
    """Black or white words, whichever has more contrast on the colour the space is drawn in (``ink``)."""
    return ink(space_rgb(space))


def _fill_space(
    space: Mapping[str, Any], layout: RingLayout, x: float, y: float, cell: float, board: Board
) -> None:  # fmt: skip
    """The space's colour, and the red frame of the two spaces the race is about."""
    board.flat.rectangle(0, space_rgb(space), x + 1, y + 1, cell - 2, cell - 2)
    if framed(space):
        # The two spaces the race is about, the Guardian's Test and the goal, framed red inside their colour
        # (``frame_inset``: on their rim where the number leaves no room inside).
        at, width = frame_inset(space, layout, cell)
        board.over.line(0, (0.75, 0.05, 0.05), _rectangle(x + at, y + at, cell - 2 * at, cell - 2 * at), width,
                        close=True)  # fmt: skip


def frame_inset(space: Mapping[str, Any], layout: RingLayout, cell: float) -> tuple[float, float]:
    """How far in from a framed space's sides its red frame runs, and the frame's width (a Kivy line's: that much
    either side of where it runs).

    3 px in, inside the space's colour, where the number leaves room (a space with labels, which stand inside the
    frame: ``RingLayout.inset``); else as far in as the number's figures leave, out over the dark gap round the
    space where they leave none: on a café's 72-space loop (21 px spaces at 800x480) "63" is 18 px wide and
    its figures' tops 2 px under the space's top, and the frame 3 px in ran through them, which no text
    shrinks under 16 px to leave it room. On the house loop (36 px spaces) the frame ran along the tops of
    "31"; it now stands 0.8 px over them.
    """
    width = frame_width(cell)
    if layout.labels:
        return 3.0, width
    size = number_size(space, layout, cell)
    side = (cell - measure(space_number(space), size, True)[0]) / 2
    top = 1 + min(layout.line, cell * 0.6) / 2 - FIGURE_HEIGHT * size / 2  # the figures' tops (``_label_space``)
    inner = max(0.0, min(3 + width, side - 0.5, top - 0.5))  # the frame's inner edge, clear of the figures
    width = min(width, (inner + 1) / 2)  # the gap round a space is 1 px: the frame reaches no further out
    return inner - width, width


FIGURE_HEIGHT = 0.72  # a figure's height as a share of its font size (11.5 px at 16), in the middle of its line


def framed(space: Mapping[str, Any]) -> bool:
    """Whether the space is one the race is about, framed red: the Secret Passage or the Guardian's Test."""
    challenge = space.get("challenge") if isinstance(space.get("challenge"), Mapping) else None
    return space.get("type") == "secret_passage" or (challenge is not None and challenge.get("attemptLimit", 3) is None)


def frame_width(cell: float) -> float:
    return max(1.5, cell * 0.05)


def _rectangle(x: float, y: float, w: float, h: float) -> list[float]:
    """The corners a Kivy ``Line(rectangle=...)`` goes through."""
    return [x, y, x + w, y, x + w, y + h, x, y + h]


# The marks' layers: a mark's dark rim reaches past its space (1.5 px at 800x480), under the next marked space's
# own and over the one marked before it, as when each mark was drawn whole in turn.
BEFORE, WASH, RIM, EDGE, AFTER = range(5)
DARK_RIM = (0.0, 0.0, 0.0, 0.85)


def _mark_spaces(
    view: Any, spaces: Sequence[Mapping[str, Any]], slots: Sequence[tuple[int, int]],
    grid: tuple[float, float, float], marks: Shapes,
) -> None:  # fmt: skip
    """Where a legal move may go, gold edged; the one listed washed gold and edged thick; one asked about, red.

    Each mark was two lines and a wash of its own, so a Desert Vortex marking every space drew about 75 times.
    They are a few meshes now, to the same pixels: what a mark's rim puts on its own space is drawn with every
    mark's (``RIM``), and what it puts on a space marked after it goes under that space's mark (``BEFORE``),
    on one marked before it over that one's (``AFTER``). Kivy draws a see-through line through the stencil,
    each pixel once, which ``frame_triangles`` does without it.
    """
    x0, y0, cell = grid
    chosen = [i for i, space in enumerate(spaces) if space["id"] in view.marked or space["id"] == view.asked]
    rank = {slots[i]: k for k, i in enumerate(chosen)}
    strong_ones = focused(view)
    washed = {slots[i] for i in chosen if spaces[i]["id"] in strong_ones}
    for k, i in enumerate(chosen):

        def keep(at: tuple[int, int], k: int = k) -> bool:
            """Whether the rim may go on a square with its own: its own, or one not marked before it nor washed."""
            return at not in rank or rank[at] == k or (rank[at] > k and at not in washed)

        space = spaces[i]
        marked, asked = space["id"] in view.marked, space["id"] == view.asked
        col, row = slots[i]
        strong = space["id"] in strong_ones
        if strong:
            marks.rectangle(WASH, (*HIGHLIGHT, 0.45), x0 + col * cell, y0 + row * cell, cell, cell)
        edge = cell * (0.12 if strong else 0.1 if asked else 0.05)
        frame = (x0 + col * cell + edge, y0 + row * cell + edge, cell - 2 * edge, cell - 2 * edge)
        # A dark rim either side, as Blackpool's rings have: gold on the yellow "-2" spaces and red on the red
        # item spaces were the space's own colour, and the table could not see which space was meant.
        for at, pieces in _by_cell(frame_triangles(*frame, edge + max(1.5, cell * 0.03)), grid, keep).items():
            marks.triangles(RIM if at is None else BEFORE if rank[at] > k else AFTER, DARK_RIM, pieces)
        gold = (*(HIGHLIGHT if marked else ASKED), 1 if strong or asked else 0.8)  # asked: red, nothing may go there
        marks.triangles(EDGE, gold, frame_triangles(*frame, edge))


def _by_cell(
    triangles: Sequence[Triangle], grid: tuple[float, float, float], keep: Callable[[tuple[int, int]], bool]
) -> dict[tuple[int, int] | None, list[Triangle]]:
    """``triangles`` by the (column, row) of the ring's square each lies on, cut along the grid where they lie
    on a square that is not ``keep``'s; None gathers the triangles and pieces on squares that ``keep`` accepts.

    Cut pieces may differ from the whole triangle in a pixel whose middle lies within the rasteriser's
    precision (1/256 px) of its edge, so only what must be cut is cut.
    """
    x0, y0, cell = grid
    out: dict[tuple[int, int] | None, list[Triangle]] = {}
    for triangle in triangles:
        xs, ys = triangle[0::2], triangle[1::2]
        cols = range(math.floor((min(xs) - x0) / cell), math.floor((max(xs) - x0) / cell) + 1)
        rows = range(math.floor((min(ys) - y0) / cell), math.floor((max(ys) - y0) / cell) + 1)
        if all(keep((col, row)) for col in cols for row in rows):
            out.setdefault(None, []).append(triangle)
            continue
        for col in cols:
            for row in rows:
                box = (x0 + col * cell, y0 + row * cell, x0 + (col + 1) * cell, y0 + (row + 1) * cell)
                piece = _clip(list(zip(xs, ys, strict=True)), box)
                at = None if keep((col, row)) else (col, row)
                for j in range(1, len(piece) - 1):
                    out.setdefault(at, []).append((*piece[0], *piece[j], *piece[j + 1]))
    return out


def _clip(polygon: list[tuple[float, float]], box: tuple[float, float, float, float]) -> list[tuple[float, float]]:
    """The part of a convex polygon inside ``box`` (left, bottom, right, top): Sutherland and Hodgman's way."""
    for axis, bound, keep_below in ((0, box[0], False), (0, box[2], True), (1, box[1], False), (1, box[3], True)):
        if not polygon:
            break
        inside = [(p[axis] <= bound) if keep_below else (p[axis] >= bound) for p in polygon]
        cut: list[tuple[float, float]] = []
        for j, point in enumerate(polygon):
            before, was_in = polygon[j - 1], inside[j - 1]
            if inside[j] != was_in:
                t = (bound - before[axis]) / (point[axis] - before[axis])
                other = before[1 - axis] + t * (point[1 - axis] - before[1 - axis])
                cut.append((bound, other) if axis == 0 else (other, bound))
            if inside[j]:
                cut.append(point)
        polygon = cut
    return polygon


class RingLayout(NamedTuple):
    """What each space of the ring carries at this size: its number always, the rest where it reads.

    ``font`` is the number's (and any label's and word's) size, ``line`` a line of it high; ``labels`` whether
    every space's type label stands beside its number (all or none, so a player never wonders why one space
    says "swap" and the next green one does not); ``names`` the word of each space's name drawn along its foot
    where it fits, with room left for the pawns between.
    """

    font: float
    line: float
    labels: bool
    names: Mapping[str, str]

    def pawn_band(self, space: Mapping[str, Any], y: float, cell: float, crowded: bool) -> tuple[float, float]:
        """The bottom and top of the room a space leaves its pawns: under its number, over its word if any."""
        inset = self.inset(space, cell)
        foot = self.line + inset if self.names.get(str(space.get("id"))) and not crowded else 0.0
        return y + 1 + foot, y + cell - 1 - inset - min(self.line, cell * 0.6)

    def inset(self, space: Mapping[str, Any], cell: float) -> float:
        """How far a framed space's words stand in from its edges where labels line them up against the sides:
        at 1920x1080 the red frame ran through the Guardian's Test's "6!" and the Secret Passage's "37"."""
        return 2 + frame_width(cell) if self.labels and framed(space) else 0.0


def ring_font(cell: float) -> float:
    """A space's words' font: ``RING_FONT``, or a quarter of a larger space's side."""
    return max(RING_FONT, cell * 0.24)


def space_number(space: Mapping[str, Any]) -> str:
    """The number a space is drawn with: its ``index`` on the loop, the one the referee's texts give."""
    return str(space.get("index", ""))


def ring_layout(spaces: Sequence[Mapping[str, Any]], cell: float) -> RingLayout:
    """Which of a space's words fit at ``ring_font`` (``RingLayout``): at 800x480 (36 px spaces) only numbers."""
    font = ring_font(cell)
    line = float(measure("0", font, True)[1])
    gap = font * 0.3

    def room(space: Mapping[str, Any]) -> float:
        """The width between the number's left edge and the label's right edge (``_label_space``)."""
        return cell - 2 * max(cell * 0.04, 4 + frame_width(cell) if framed(space) else 0.0)

    labels = all(
        measure(space_number(s), font, True)[0] + gap + measure(space_label(s), font, True)[0] <= room(s)
        for s in spaces if space_label(s)
    )  # fmt: skip
    names: dict[str, str] = {}
    # A word along the foot leaves the pawns the middle: a lone pawn's disc and rim between two lines.
    if cell - 2 - 2 * line >= 2 * cell * PAWN_SHARE + 4:
        names = {
            key: word for key, word in short_names(spaces).items() if measure(word, font, True)[0] <= cell * 0.96
        }
    return RingLayout(font, line, labels, names)


def number_size(space: Mapping[str, Any], layout: RingLayout, cell: float) -> float:
    """The font of a space's number drawn alone in the middle of its top: ``layout.font`` where it fits the
    space, shrunk to fit it beyond (on a very long loop), never under ``READABLE_FONT``."""
    return max(READABLE_FONT, fitting_size(space_number(space), layout.font, cell * 0.96, bold=True))


def _label_space(
    space: Mapping[str, Any], layout: RingLayout, x: float, y: float, cell: float, crowded: bool,
    texts: Texts | None = None,
) -> None:  # fmt: skip
    """The number along the top (the type label beside it where every one fits), the word of the name along the
    foot where it fits, the pawns between them.

    A crowded space (four pawns or more, at the start mostly) needs its height for the pawns: its word is left
    off, and its number still names it as the texts do.
    """
    words_ink = space_ink(space)
    number = space_number(space)
    inset = layout.inset(space, cell)
    top = y + cell - 1 - inset - min(layout.line, cell * 0.6) / 2
    label = space_label(space) if layout.labels else ""
    if label:
        side = max(cell * 0.04, inset + 2)  # inside a red frame: past the frame's inner edge
        fitted_text(x + side, top, number, layout.font, cell - 2 * side, words_ink, anchor="left", bold=True,
                    into=texts)  # fmt: skip
        fitted_text(x + cell - side, top, label, layout.font, cell - 2 * side, words_ink, anchor="right", bold=True,
                    into=texts)  # fmt: skip
    else:
        size = number_size(space, layout, cell)
        fitted_text(x + cell / 2, top, number, size, cell * 0.96, words_ink, bold=True, into=texts)
    name = layout.names.get(str(space.get("id")), "")
    if name and not crowded:
        fitted_text(x + cell / 2, y + 1 + inset + layout.line / 2, name, layout.font, cell * 0.96, words_ink,
                    bold=True, into=texts)  # fmt: skip


class Pawn(NamedTuple):
    """A pawn on the ring as drawn: where, how big, whose, and whether it is haloed (to move, or the winner)."""

    cx: float
    cy: float
    radius: float
    player: str
    out: bool
    haloed: bool

    @property
    def reach(self) -> float:
        """How far from its middle the pawn's halo or rim goes (a square or diamond pawn's rim, to its corners)."""
        shape = "disc" if self.out else piece_shape(self.player)
        corners = self.radius * piece_reach(shape) + 2.5 * math.sqrt(2) if shape != "disc" else 0.0
        if self.haloed:
            return max(corners, self.radius + max(2.5, self.radius * 0.45))
        return max(corners, self.radius + (1.5 if self.out else 2.5))


def _draw_pawns(
    here: list[tuple[str, Mapping[str, Any]]],
    x: float,
    band: tuple[float, float],
    cell: float,
    mover: str | None,
    winner: str | None,
) -> list[Pawn]:
    """Every pawn on a space stays visible: up to three in a row in the ``band`` (bottom, top) the space's words
    leave, more in a small grid."""
    count = len(here)
    columns = min(3, count) if count > 1 else 1
    rows = math.ceil(count / columns)
    bottom, area_top = band
    area_w, area_h = cell * 0.94, area_top - bottom
    slot_w, slot_h = area_w / columns, area_h / rows
    radius = min(slot_w * 0.38, slot_h * 0.46, max(cell * PAWN_SHARE, PAWN_READABLE))
    out = []
    for k, (player, piece) in enumerate(here):
        cx = x + (cell - area_w) / 2 + slot_w * (k % columns + 0.5)
        cy = bottom + area_h - slot_h * (k // columns + 0.5)
        out.append(Pawn(cx, cy, radius, player, bool(piece.get("out")), player in (mover, winner)))
    return out


PAWN_LAYERS = 4  # a pawn's halo, rim, fill and an out pawn's ring
# A pawn's radius on a space too small for it (a lone pawn on the house loop at 800x480 is 6.1 px): on a café's long
# loop (72 spaces: 21 px spaces at 800x480) the pawns were 3.6 px across their colour, three on a space 2.5 px.
PAWN_READABLE = 6.0
PAWN_LANE = 2.5  # such a loop's panel starts this many spaces in (1.15 otherwise), leaving its pawns a lane (2.2 when
# the first pawn stood over its space: behind one clear of its space, a square to move left 14 px of the next in sight)


def lone_pawn(spaces: Sequence[Mapping[str, Any]], layout: RingLayout, cell: float) -> float:
    """The radius a lone pawn gets under the number of the tightest space (``_draw_pawns``).

    Below ``PAWN_READABLE`` the pawns stack in a lane instead, the first over its space's middle. The test was
    the space's side alone (``PAWN_SHARE`` of it under 6 px): at 120% display scale the house loop's 34.7 px
    spaces fell 0.1 px short, and every pawn was drawn over its space's number ("13" under Pink), with room
    for a 6 px pawn below the number.
    """
    bands = [layout.pawn_band(space, 0.0, cell, False) for space in spaces]
    room = min((top - bottom for bottom, top in bands), default=cell)
    return min(cell * 0.94 * 0.38, room * 0.46, max(cell * PAWN_SHARE, PAWN_READABLE))


def _inward(at: int, count: int) -> int:
    """The way from a ring square at column (or row) ``at`` of ``count`` to the ring's middle: 1, -1 or 0."""
    return 1 if at == 0 else -1 if at == count - 1 else 0


def _stack_pawns(
    here: list[tuple[str, Mapping[str, Any]]],
    box: tuple[float, float, float, float],
    inward: tuple[int, int],
    mover: str | None,
    winner: str | None,
) -> list[Pawn]:
    """Pawns on a space too small for them: in the lane before the panel, the first whole just inside its space,
    the others behind it, fanned towards the ring's middle like a stack of coins, each showing a crescent of its
    colour.

    The first stood over its space's middle, where the space's number is: on a 72-space loop (22 px spaces
    upright at 480x800 at 120%) a pawn hid the number of the very space its player's prompt named ("move from
    Sunken Temple (58)"). ``box`` is the space's (x, y, side) and how far the lane reaches in from the space's
    middle; ``inward`` the way to the ring's middle (a corner's both ways).
    """
    x, y, cell, room = box
    radius = min(PAWN_READABLE, cell * 0.3)
    dx, dy = inward
    norm = math.hypot(dx, dy) or 1.0
    room *= norm  # a corner's lane runs to the panel's corner: the diagonal is longer
    count = len(here)
    reach = max(_extent(Pawn(0, 0, radius, p, bool(piece.get("out")), p in (mover, winner))) for p, piece in here)
    start = min((cell / 2 + reach) * norm, room - reach)  # clear of its space, along a corner's diagonal too
    step = min(radius * 1.25, max(0.0, room - start - reach) / (count - 1)) if count > 1 else 0.0
    pawns = []
    for k, (player, piece) in enumerate(here):
        away = start + step * k
        cx, cy = x + cell / 2 + dx / norm * away, y + cell / 2 + dy / norm * away
        pawns.append(Pawn(cx, cy, radius, player, bool(piece.get("out")), player in (mover, winner)))
    return pawns[::-1]  # the one nearest its space drawn last, whole


def _extent(pawn: Pawn) -> float:
    """How far a pawn reaches from its middle up, down or across (its rim's or halo's box; ``Pawn.reach`` is the
    farthest corner, 12 px for a 6 px square, which left the pawns behind a square no room in the lane)."""
    corners = piece_points("disc" if pawn.out else piece_shape(pawn.player), 0.0, 0.0, pawn.radius, 2.5) or []
    ring = pawn.radius + (max(2.5, pawn.radius * 0.45) if pawn.haloed else 2.5)
    return max([ring, *map(abs, corners)])


def _lay_pawns(pawns: Sequence[Pawn], shapes: Shapes) -> None:
    """The pawns in a few meshes, each over the pawns drawn before it that it touches, as when drawn one by one.

    Small pawns side by side overlap (three on a 42 px space: each rim over the one before), so a pawn goes
    a stage above every pawn before it that it touches; pawns apart share a stage, and a stage's halos,
    rims and fills are a mesh a colour.
    """
    stages: list[int] = []
    for k, pawn in enumerate(pawns):
        touched = [
            stages[j] for j, other in enumerate(pawns[:k])
            if math.dist((pawn.cx, pawn.cy), (other.cx, other.cy)) < pawn.reach + other.reach + 1
        ]  # fmt: skip
        stages.append(max(touched) + 1 if touched else 0)
        layer, cx, cy, radius = PAWN_LAYERS * stages[-1], pawn.cx, pawn.cy, pawn.radius
        if pawn.haloed:
            halo = radius + max(2.5, radius * 0.45)
            shapes.ellipse(layer, HIGHLIGHT, cx, cy, halo, halo, KIVY_SEGMENTS)
        if pawn.out:
            shapes.disc(layer + 1, cx, cy, radius, (0.35, 0.35, 0.35), (1, 1, 1), 1.5, KIVY_SEGMENTS)
            ring = line_triangles(circle_points(cx, cy, radius * 0.7), max(1.2, radius * 0.25))
            shapes.triangles(layer + 3, rgb(pawn.player), ring)
        elif (shape := piece_shape(pawn.player)) != "disc":  # grey and purple squares, teal diamonds: colour-blind
            shapes.polygon(layer + 1, (0, 0, 0), piece_points(shape, cx, cy, radius, 2.5) or [])
            shapes.polygon(layer + 2, (1, 1, 1), piece_points(shape, cx, cy, radius, 1.5) or [])
            shapes.polygon(layer + 3, rgb(pawn.player), piece_points(shape, cx, cy, radius) or [])
        else:  # a white rim in a black one: black pawns on the red and blue spaces
            shapes.disc(layer + 1, cx, cy, radius + 1.5, (1, 1, 1), (0, 0, 0), 1.0, KIVY_SEGMENTS)
            shapes.ellipse(layer + 3, rgb(pawn.player), cx, cy, radius, radius, KIVY_SEGMENTS)


def _draw_panel(
    box: tuple[float, float, float, float],
    document: Mapping[str, Any],
    loops: tuple[Sequence[Mapping[str, Any]], Loop],
    index_of: Mapping[str, int],
    mover: str | None,
    winner: str | None,
    board: Board,
) -> None:
    """One row per player inside the ring: what a player asks the referee most (Lives, items, lap, out)."""
    spaces, loop = loops  # the board file's spaces, and the referee's loop that says where a runner stands
    x, y, w, h = box
    if w < 20 or h < 20:
        return
    unit = min(w, h)
    top = y + h
    round_no = document.get("round") or "-"
    if winner:
        header = f"{str(winner).capitalize()} wins!"
    elif mover:
        header = f"Round {round_no}  -  {str(mover).capitalize()} to play"
    elif not document.get("round"):  # the roll-off before the first round: "Round  -  -  roll for order" read wrong
        header = "Roll for order"
    else:
        header = f"Round {round_no}  -  roll for order"
    header_h = unit * 0.1
    fitted_text(x + w / 2, top - header_h / 2, header, unit * 0.065, w, HIGHLIGHT, bold=True, into=board.texts)
    players = player_pieces(document)
    if not players:
        return
    gap = unit * 0.02
    row_h = min((h - header_h - gap) / len(players), unit * 0.26)
    for k, (player, piece) in enumerate(players):
        row_top = top - header_h - gap - k * row_h
        index = index_of.get(piece.get("space"), 0)
        items = piece.get("items")
        compass = isinstance(items, list) and "golden_compass" in items
        # What the runner still needs, as the text view says it: "lap done" read as finished at a lap race.
        progress = standing(loop, index, bool(piece.get("lap")), compass, player == winner).short
        _draw_player_row(
            (x, row_top - row_h + gap / 2, w, row_h - gap / 2), player, piece, spaces, progress, index, player == mover,
            board,
        )


def _draw_player_row(
    box: tuple[float, float, float, float],
    player: str,
    piece: Mapping[str, Any],
    spaces: Sequence[Mapping[str, Any]],
    progress: str,
    index: int,
    to_play: bool,
    board: Board,
) -> None:
    x, y, w, h = box
    out = bool(piece.get("out"))
    board.flat.rectangle(0, (0.2, 0.2, 0.22) if not out else (0.12, 0.12, 0.13), x, y, w, h)
    line1, line2 = y + h * 0.75, y + h * 0.25  # two 16 px lines (19 px high) half a row apart (``row_font``)
    big = row_font(h)
    r = h * 0.3

    if to_play:
        board.over.line(0, HIGHLIGHT, _rectangle(x + 1, y + 1, w - 2, h - 2), max(1.5, h * 0.04), close=True)
    board.over.piece(1, piece_shape(player), x + h * 0.45, y + h / 2, r, rgb(player) if not out else (0.35, 0.35, 0.35),
                     (1, 1, 1), 1.5, KIVY_SEGMENTS)  # fmt: skip
    texts = board.texts
    left = x + h * 0.9
    right = x + w - h * 0.15
    dim = (0.6, 0.6, 0.6)
    lives = int(piece.get("lives", 0) or 0)
    lives_text = "OUT this round" if out else f"{lives} {'Life' if lives == 1 else 'Lives'}"
    lives_ink = (1, 0.45, 0.4) if out or lives <= 1 else (1, 1, 1)
    lives_w, _ = fitted_text(
        right, line1, lives_text, big, (right - left) * 0.55, lives_ink, anchor="right", bold=True, into=texts
    )
    fitted_text(left, line1, str(player).capitalize(), big, right - left - lives_w - h * 0.3,
                dim if out else (1, 1, 1), anchor="left", bold=True, into=texts)
    lap_ink = (0.85, 0.85, 0.85) if progress.startswith("lap ") else (0.45, 0.95, 0.5)
    # A third of the row, or as much as the standing needs at full size up to half of it: "needs Compass" is
    # wider than "lap 23/40", and the items beside it give way first (the Compass chip leads them).
    room = min((right - left) * 0.5, max((right - left) * 0.34, measure(progress, big, True)[0]))
    lap_w, _ = fitted_text(right, line2, progress, big, room, lap_ink, anchor="right", bold=True, into=texts)
    _draw_items(left, line2, right - lap_w - h * 0.2 - left, max(h * 0.36, big / 0.78), piece, spaces, index, board)


def row_font(height: float) -> float:
    """The font of a player's row ``height`` px high: a third of it, and never under ``PANEL_FONT`` where two lines
    of that fit (six players at 800x480 have 46 px rows, whose third, 15 px, left "lap 0/40" at 12 px and
    "no items" at 12 px: the counts a player asks the referee most, too small to read from a chair).

    Two lines fit where the row is two of their lines high (38 px at 16 px: the lines stand half a row apart);
    40 px was asked for, and six players' 39.3 px rows on a café's 72-space loop upright at 120% display scale
    drew their names, Lives and laps at 15.7 px.
    """
    two_lines = 2 * measure("Lives", PANEL_FONT, True)[1]
    return max(height * 0.34, min(PANEL_FONT, PANEL_FONT * height / two_lines))


def _draw_items(
    left: float,
    cy: float,
    width: float,
    chip_h: float,
    piece: Mapping[str, Any],
    spaces: Sequence[Mapping[str, Any]],
    index: int,
    board: Board,
) -> None:
    """Items as coloured chips (a Compass is what wins), then any turn-affecting notes.

    Chips shrink together a little when a hand is long; beyond that the Compass
    keeps its chip and the rest become a count, since text too small to read
    from the chair helps nobody (the full list is in the Dispute screen's text).
    """
    counts: dict[str, int] = {}
    for item in piece.get("items") or []:
        counts[str(item)] = counts.get(str(item), 0) + 1
    chips: list[tuple[str, tuple[float, float, float]]] = []
    for item, count in sorted(counts.items(), key=lambda kv: kv[0] != "golden_compass"):
        name = ITEM_SHORT.get(item, item.replace("_", " "))
        chips.append((name if count == 1 else f"{name} x{count}", ITEM_RGB.get(item, (0.8, 0.8, 0.8))))
    notes: list[str] = []
    if not chips and not piece.get("out"):
        notes.append("no items")
    if piece.get("skip"):
        notes.append(f"misses {piece['skip']} turn")
    space = spaces[index] if 0 <= index < len(spaces) else {}
    if piece.get("failures") and space.get("type") == "challenge":
        notes.append(f"{piece['failures']} failed")
    size, pad, gap = chip_h * 0.78, chip_h * 0.25, chip_h * 0.3
    note = "  ".join(notes)
    note_w = measure(note, size)[0] + gap if note else 0.0
    natural = sum(measure(word, size, True)[0] + 2 * pad + gap for word, _ in chips)
    room = max(0.0, width - note_w)
    if len(chips) == 1 and size * room / natural < min(PANEL_FONT, size):  # one chip first, the note if it fits
        room = width
    scale = min(1.0, room / natural) if natural else 1.0
    if (scale < 0.75 or size * scale < PANEL_FONT <= size) and len(chips) > 1:
        extra = sum(counts.values()) - (counts.get("golden_compass", 0) if chips[0][0].startswith("Compass") else 0)
        head = chips[:1] if chips[0][0].startswith(ITEM_SHORT["golden_compass"]) else []
        chips = head
        notes = [*notes, f"+{extra} items" if head else f"{extra} items"]  # what changes a turn comes first
        scale = 1.0
    x = left
    for word, fill in chips:
        x += _chip(x, cy, word, size * scale, left + width - x, fill, chip_h, pad * scale, board) + gap
    # Parts that do not fit at a readable size are left off from the end, rather than the whole note
    # shrunk to 5 px: "2 failed" squeezed beside an item count could not be read from the chair.
    while len(notes) > 1 and measure("  ".join(notes), size)[0] > left + width - x:
        notes.pop()
    note = "  ".join(notes)
    if note and measure(note, size)[0] <= left + width - x:  # shrunk, it could not be read from the chair
        fitted_text(x, cy, note, size, left + width - x, (0.8, 0.8, 0.8), anchor="left", into=board.texts)


def _chip(
    x: float,
    cy: float,
    word: str,
    size: float,
    budget: float,
    fill: tuple[float, float, float],
    h: float,
    pad: float,
    board: Board,
) -> float:
    """A label on the item's colour; returns its width so the next chip follows it."""
    tw, _ = measure(word, size, True)
    if tw > budget - 2 * pad:
        size = max(6.0, size * (budget - 2 * pad) / max(tw, 1))
        tw, _ = measure(word, size, True)
    cw = tw + 2 * pad
    board.flat.rectangle(1, fill, x, cy - h / 2, cw, h)  # over its row
    fitted_text(x + cw / 2, cy, word, size, cw, (0, 0, 0), bold=True, into=board.texts)
    return cw
