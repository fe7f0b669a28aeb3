"""Shared drawing helpers: colours, and text drawn straight onto a canvas."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Ellipse, Mesh, Rectangle

from companion.colours import BACKGROUND, hex_rgb, ink, piece_shape  # noqa: F401 - the boards take them from here
from companion.colours import piece_rgb as rgb
from ui.boards.shapes import Shapes

HIGHLIGHT = (1.0, 0.85, 0.2)  # what may be tapped now, the same gold on every board
ASKED = (0.95, 0.3, 0.25)  # a place asked about where nothing may happen: the red of a refusal


LABELS_KEPT = 256  # rendered texts kept for the next drawing: a board's texts and size probes (Targi's first, 151)
_labels: OrderedDict[tuple[Any, ...], Any] = OrderedDict()


def label(words: str, size: float, bold: bool = False, width: float | None = None, halign: str = "left") -> Any:
    """``words`` rendered (a Kivy core label with its texture), the same one again for the same words and font.

    A board is drawn again at every step, each text a texture of its own: the temple's and Blackpool's boards
    rendered 150-180 labels a step, nearly all as the step before (the coordinates, the square names), and
    made as many textures for the GL driver to take in. A label already rendered is used as it is; the
    least recently used give way beyond ``LABELS_KEPT``, so a day of games holds no more. The class in use
    is part of the key, so a test that swaps ``CoreLabel`` for its own sees every label it draws rendered.

    The size is made whole pixels, as Kivy's SDL2 text renders it anyway (``int``): Kivy keeps a font open for
    each size as written (``str``), so the fractions of fitted texts (the desert race's item chips, 16.2, 16.6)
    each opened the same font again, 61 fonts after a day's forty games for 26 pixel sizes (docs/ui.md, "Open
    files over a day"); the same pixels are drawn. A float, as the screens' labels have it: 24.0, not 24.
    """
    size = float(int(size))
    key = (CoreLabel, words, size, bold, width, halign)
    made = _labels.get(key)
    if made is None:
        made = CoreLabel(text=words, font_size=size, bold=bold, text_size=(width, None), halign=halign)
        made.refresh()
        _labels[key] = made
        if len(_labels) > LABELS_KEPT:
            _labels.popitem(last=False)
    else:
        _labels.move_to_end(key)
    return made


class Texts:
    """Texts gathered by texture and colour, each group drawn as one textured mesh instead of a draw a text.

    Every draw on a canvas holds buffers in the GL driver; the temple's 56 edge coordinates are 15 textures
    ("0" to "14"), so 15 draws. Texts gathered in one lose their order among themselves: gather texts that do
    not overlap (a row of numbers), then ``draw`` them inside ``with widget.canvas``.
    """

    def __init__(self) -> None:
        self._groups: dict[tuple[int, tuple[float, ...]], tuple[Any, list[float], list[int]]] = {}

    def add(
        self,
        texture: Any,
        colour: tuple[float, ...],
        pos: tuple[float, float],
        size: tuple[float, float],
        tex_coords: tuple[float, ...] | None = None,
    ) -> None:
        """A ``Rectangle(texture=texture, pos=pos, size=size, tex_coords=...)`` drawn in ``colour``, later."""
        (x, y), (w, h) = pos, size
        u = tex_coords or texture.tex_coords
        _, vertices, indices = self._groups.setdefault((id(texture), tuple(colour)), (texture, [], []))
        first = len(vertices) // 4
        vertices += [x, y, u[0], u[1], x + w, y, u[2], u[3], x + w, y + h, u[4], u[5], x, y + h, u[6], u[7]]
        indices += [first, first + 1, first + 2, first + 2, first + 3, first]

    def draw(self) -> None:
        for (_, colour), (texture, vertices, indices) in self._groups.items():
            Color(*colour, 1)
            Mesh(vertices=vertices, indices=indices, mode="triangles", texture=texture)


def _quad(into: Texts | None, texture: Any, colour: tuple[float, ...], pos: tuple[float, float],
          size: tuple[float, float], tex_coords: tuple[float, ...] | None = None) -> None:  # fmt: skip
    """A text's rectangle: drawn now, or gathered ``into`` a ``Texts``."""
    if into is not None:
        into.add(texture, colour, pos, size, tex_coords)
        return
    Color(*colour, 1)
    if tex_coords is None:
        Rectangle(texture=texture, pos=pos, size=size)
    else:
        Rectangle(texture=texture, pos=pos, size=size, tex_coords=tex_coords)


def ink_for(name: str) -> tuple[float, float, float]:
    """The words on a named colour's pieces: black or white, whichever has more contrast (``ink``)."""
    return ink(rgb(name))


def text(
    x: float,
    y: float,
    words: str,
    size: float,
    colour: tuple[float, float, float] = (1, 1, 1),
    anchor: str = "center",
    width: float | None = None,
    bold: bool = False,
    into: Texts | None = None,
) -> tuple[float, float]:
    """Draw ``words`` at (x, y) on the canvas in the current context (or gather it ``into``); returns its size."""
    made = label(words, max(6, size), bold, width or None)
    w, h = made.texture.size
    if anchor == "center":
        x, y = x - w / 2, y - h / 2
    elif anchor == "topleft":
        y = y - h
    _quad(into, made.texture, colour, (x, y), (w, h))
    return w, h


def fit_text(
    box: tuple[float, float, float, float],
    words: str,
    size: float,
    colour: tuple[float, float, float] = (1, 1, 1),
    bold: bool = False,
    halign: str = "center",
    min_size: float = 7,
    into: Texts | None = None,
) -> float:
    """Draw ``words`` centred in ``box`` (x, y, w, h), wrapped at spaces and shrunk until nothing is cut off.

    Card labels and panel captions come from café data of any length, so a
    drawing cannot know in advance which font size fits; returns the size used.
    ``into`` gathers the text there (``Texts``) instead of drawing it now.
    """
    x, y, w, h = box
    if w < 2 or h < 2 or not words:
        return 0.0
    size = max(min_size, size)
    while True:
        widest = 0
        for word in words.split():  # a single word wider than the box would be broken mid-word: shrink first
            widest = max(widest, label(word, size, bold).texture.size[0])
        made = label(words, size, bold, w, halign)
        tw, th = made.texture.size
        if (widest <= w and th <= h) or size <= min_size:
            break
        size = max(min_size, size * 0.9)
    if widest > w:
        # A word wider than the box even at the smallest size: Kivy's wrapping broke it mid-word ("came" over
        # "l"), which reads as two words. Lines break only at spaces here, and the word is cut at the edge below.
        made = label(wrap_at_spaces(words, w, size, bold), size, bold, halign=halign)
        tw, th = made.texture.size
    if tw <= w and th <= h:
        _quad(into, made.texture, colour, (x + (w - tw) / 2, y + (h - th) / 2), (tw, th))
    else:  # even the minimum font overflows: show the top-left part that fits rather than spill over neighbours
        u, v = min(1.0, w / tw), min(1.0, h / th)
        cw, ch = tw * u, th * v
        coords = (0, v, u, v, u, 0, 0, 0)  # label textures are stored upside down
        _quad(into, made.texture, colour, (x + (w - cw) / 2, y + (h - ch) / 2), (cw, ch), coords)
    return size


def wrap_at_spaces(words: str, width: float, size: float, bold: bool) -> str:
    """``words`` with a line break before each word that would take its line past ``width``: never inside a word."""
    lines: list[str] = []
    for paragraph in words.split("\n"):
        line = ""
        for word in paragraph.split():
            longer = f"{line} {word}" if line else word
            if line and measure(longer, size, bold)[0] > width:
                lines.append(line)
                line = word
            else:
                line = longer
        lines.append(line)
    return "\n".join(lines)


def disc(
    cx: float,
    cy: float,
    r: float,
    fill: tuple[float, float, float],
    outline: tuple[float, float, float] = (0, 0, 0),
    edge: float = 1.5,
) -> None:
    """A filled circle with a contrasting rim, so light pieces show on light ground and dark on dark."""
    Color(*outline, 1)
    Ellipse(pos=(cx - r - edge, cy - r - edge), size=(2 * (r + edge), 2 * (r + edge)))
    Color(*fill, 1)
    Ellipse(pos=(cx - r, cy - r), size=(2 * r, 2 * r))


def piece(
    cx: float,
    cy: float,
    r: float,
    name: str,
    fill: tuple[float, float, float] | None = None,
    outline: tuple[float, float, float] = (0, 0, 0),
    edge: float = 1.5,
) -> None:
    """A player's piece (or its mark in a panel) drawn now: ``disc`` in the shape of the colour ``name``
    (``piece_shape``: a square, a diamond or a disc), filled in ``fill`` or the colour's own."""
    shape = piece_shape(name)
    if shape == "disc":
        disc(cx, cy, r, fill or rgb(name), outline, edge)
        return
    drawn = Shapes()
    drawn.piece(0, shape, cx, cy, r, fill or rgb(name), outline, edge)
    drawn.draw()


def measure(words: str, size: float, bold: bool = False) -> tuple[float, float]:
    """The size ``words`` would take, so a layout can shrink text before drawing instead of letting it overflow."""
    return label(words, max(6, size), bold).texture.size


def fitting_size(words: str, size: float, max_width: float, bold: bool = False) -> float:
    """The font size ``fitted_text`` draws ``words`` in: ``size``, or smaller until they fit ``max_width`` (6 at least).

    A drawing asks first when a text shrunk that far could not be read, to leave it off instead.
    """
    w, _ = measure(words, size, bold)
    while w > max_width > 0 and size > 6:
        # Kivy renders whole font sizes, so one step in proportion could leave the text a few pixels too wide,
        # and the cut took the last figure off ("longest 25" read "longest 2"): step down until it fits.
        size = max(6.0, min(size - 1, size * max_width / w))
        w, _ = measure(words, size, bold)
    return size


def fitted_text(
    x: float,
    y: float,
    words: str,
    size: float,
    max_width: float,
    colour: tuple[float, float, float] = (1, 1, 1),
    anchor: str = "center",
    bold: bool = False,
    into: Texts | None = None,
) -> tuple[float, float]:
    """Like ``text`` but never wider than ``max_width``: long names shrink rather than spill onto neighbours.

    ``anchor`` also accepts "left" (x is the left edge, y the vertical middle) and "right" (x the right edge).
    """
    size = fitting_size(words, size, max_width, bold)
    w, h = measure(words, size, bold)
    if w > max_width > 0:
        # Still too wide at the smallest size (a café's one-word space name of 20 letters in a 36 px space):
        # drawn whole, it ran across its neighbours' labels and off the board, so its end is cut instead.
        left = x - max_width / 2 if anchor == "center" else x - max_width if anchor == "right" else x
        return _clipped(left, y, words, size, max_width, colour, anchor, bold, into)
    if anchor == "left":
        return text(x, y - h / 2, words, size, colour, anchor="bottomleft", bold=bold, into=into)
    if anchor == "right":
        return text(x - w, y - h / 2, words, size, colour, anchor="bottomleft", bold=bold, into=into)
    return text(x, y, words, size, colour, anchor=anchor, bold=bold, into=into)


def _clipped(
    left: float,
    y: float,
    words: str,
    size: float,
    width: float,
    colour: tuple[float, float, float],
    anchor: str,
    bold: bool,
    into: Texts | None = None,
) -> tuple[float, float]:
    """``words`` from ``left``, only their first ``width`` pixels: what does not fit is left off, not overdrawn."""
    made = label(words, max(6, size), bold)
    tw, th = made.texture.size
    u = min(1.0, width / tw)
    bottom = {"center": y - th / 2, "left": y - th / 2, "right": y - th / 2, "topleft": y - th}.get(anchor, y)
    coords = (0, 1, u, 1, u, 0, 0, 0)  # label textures are stored upside down
    _quad(into, made.texture, colour, (left, bottom), (tw * u, th), coords)
    return tw * u, th
