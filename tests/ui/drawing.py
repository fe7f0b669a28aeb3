"""Shared helpers for board-drawing tests: draw one game's board and read its pixels."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from unittest.mock import patch

from kivy.base import EventLoop
from kivy.core.window import Window
from kivy.graphics import Color, Mesh, Rectangle
from kivy.uix.widget import Widget

from companion.session import Session
from ui.boards import BoardView, drawer_for, paint


def on_window(size: tuple[int, int] | None = None) -> Iterator[Widget]:
    """A bare widget on the window, for a fixture: the drawing alone, without the app around it."""
    EventLoop.ensure_window()
    widget = Widget(size_hint=(None, None), pos=(0, 0), **({"size": size} if size else {}))
    Window.add_widget(widget)
    yield widget
    Window.remove_widget(widget)


def render(widget: Any, session: Session, document: dict[str, Any] | None = None, **marks: Any) -> bytes:
    """Draw straight through the game's drawer (so a bug raises here instead of falling back to text), and the
    pixels drawn; ``marks``: the view's other fields (``named``, ``asked`` ...), as the table gives them."""
    draw(widget, session, document, **marks)
    return pixels_of(widget)


def pixels_of(widget: Any) -> bytes:
    """The pixels of what the widget's canvas holds now (``render``'s picture of the last drawing): after
    ``words_drawn``, the picture of the board whose texts it read, without drawing the board again."""
    return bytes(widget.export_as_image().texture.pixels)


def draw(widget: Any, session: Session, document: dict[str, Any] | None = None, **marks: Any) -> None:
    """``render``'s drawing on the widget's canvas, without reading its pixels back: for a test that reads the
    canvas's own instructions (``words_drawn``), not the picture. The read back was half such a test's CPU."""
    doc = document if document is not None else session.document()
    widget.canvas.clear()
    drawer_for(session.game.id)(widget, BoardView(session.game, doc, session.game.describe(session.state), **marks))


def pixel(pixels: bytes, widget: Any, x: float, y: float) -> tuple[int, int, int]:
    """RGB at widget coordinates (x, y); the exported pixels run top row first, Kivy's y runs up."""
    i = ((int(widget.height) - 1 - int(y)) * int(widget.width) + int(x)) * 4
    return pixels[i], pixels[i + 1], pixels[i + 2]


@dataclass(frozen=True)
class Words:
    """A piece of text as drawn: what it says and the rectangle it fills, in widget coordinates (y up)."""

    text: str
    x: float
    y: float
    w: float
    h: float
    lines: tuple[str, ...] = ()  # the lines Kivy laid the text out in, to find a word it broke in two
    full: tuple[float, float] = (0.0, 0.0)  # the whole text's size: a drawn rectangle smaller shows only part
    size: float = 0.0  # the font size it was rendered at, in px: what a player at the table has to read
    colour: tuple[float, float, float] = (1.0, 1.0, 1.0)  # the colour it is drawn in (the canvas's Color before it)
    ink: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)  # (x, y, w, h) of its letters' pixels, no margin

    @property
    def broken(self) -> bool:
        """Whether a line ends inside a word: the words of the lines are not the words of the text.

        Kivy wraps a word wider than its box letter by letter ("came" over
        "l"), which a player reads as two words, or none.
        """
        return [word for line in self.lines for word in line.split()] != self.text.split()

    @property
    def cut(self) -> float:
        """How many pixels of the text's width or height are left off the drawing (a label's own margin aside)."""
        return max(self.full[0] - self.w, self.full[1] - self.h, 0.0)

    @property
    def centre(self) -> tuple[float, float]:
        return self.x + self.w / 2, self.y + self.h / 2

    def inside(self, box: tuple[float, float, float, float]) -> bool:
        """Whether the middle of the text lies in ``box`` (x, y, w, h)."""
        cx, cy = self.centre
        return box[0] <= cx <= box[0] + box[2] and box[1] <= cy <= box[1] + box[3]


def words_drawn(widget: Any, session: Session, document: dict[str, Any] | None = None, **marks: Any) -> list[Words]:
    """Every text the drawing left on the canvas, read back from the canvas itself.

    Pixels cannot say what a label reads, so each label the paint helpers
    render is remembered by its texture; a text measured but never drawn
    (a size probe) has no rectangle on the canvas and is not listed.
    """
    made: dict[int, Any] = {}

    class Remembered(paint.CoreLabel):  # type: ignore[misc, valid-type]
        def refresh(self) -> None:
            super().refresh()
            made[id(self.texture)] = self  # held, so no texture id is reused while the drawing runs
            self.laid_out = tuple("".join(word.text for word in line.words) for line in self._cached_lines)

    with patch.object(paint, "CoreLabel", Remembered):
        draw(widget, session, document, **marks)
    out: list[Words] = []
    inked: dict[int, tuple[int, int, int, int]] = {}
    colour = (1.0, 1.0, 1.0)
    for instruction in widget.canvas.children:
        if isinstance(instruction, Color):
            colour = (instruction.r, instruction.g, instruction.b)
        if id(getattr(instruction, "texture", None)) not in made or not made[id(instruction.texture)].text:
            continue
        label = made[id(instruction.texture)]
        full = (float(label.texture.size[0]), float(label.texture.size[1]))
        if id(label) not in inked:
            inked[id(label)] = ink(label)
        left, top, right, bottom = inked[id(label)]
        for x, y, w, h in quads(instruction):
            size = float(label.options["font_size"])
            x, y = x - widget.x, y - widget.y
            box = (x + left, y + full[1] - bottom, min(right, w) - left, bottom - top)  # a cut text: its ink drawn
            out.append(Words(str(label.text), x, y, w, h, label.laid_out, full, size, colour, box))
    return out


def words_of(labels: Any) -> list[Words]:
    """Kivy labels (buttons too) as drawn, in window coordinates: each text where Kivy's Label rule draws its
    texture, centred on the widget, with its lines, font size and letters, so the board tests' checks
    (``tests/ui/test_boards_robust.py`` ``unreadable``, ``run_together``) read the screens' own texts as well."""
    out = []
    for label in labels:
        tw, th = (float(v) for v in label.texture_size)
        cx, cy = label.to_window(label.center_x, label.center_y)
        x, y = int(cx - tw / 2), int(cy - th / 2)
        lines = tuple("".join(word.text for word in line.words) for line in label._label._cached_lines)
        left, top, right, bottom = ink(label)
        box = (x + left, y + th - bottom, right - left, bottom - top)
        colour = (float(label.color[0]), float(label.color[1]), float(label.color[2]))
        out.append(Words(str(label.text), x, y, tw, th, lines, (tw, th), float(label.font_size), colour, box))
    return out


def ink(label: Any) -> tuple[int, int, int, int]:
    """Where a rendered label's letters are in its texture: (left, top, right, bottom) in pixels from its top
    left, right and bottom exclusive. A texture holds a margin round the letters, so two labels whose textures
    lie a pixel apart may hold letters five pixels apart, or one: a player sees the letters."""
    w, h = (int(v) for v in label.texture.size)
    alpha = label.texture.pixels[3::4]  # label textures are stored upside down: the first row is the top
    # A row or column is inked where its most opaque pixel is: bytes' max runs in C (a pixel at a time in Python
    # was a board test's second cost after the drawing). A column's pixels outside the inked rows are all clear.
    rows = [row for row in range(h) if w and max(alpha[row * w : (row + 1) * w]) > 80]
    cols = [col for col in range(w) if rows and max(alpha[col::w]) > 80]
    return (cols[0], rows[0], cols[-1] + 1, rows[-1] + 1) if rows else (0, 0, 0, 0)


def quads(instruction: Any) -> list[tuple[float, float, float, float]]:
    """(x, y, w, h) of each place a text's texture is drawn by ``instruction``: a ``Rectangle``, or a ``Mesh``
    of the texts sharing that texture (``paint.Texts``: four corners a text, the lower left first)."""
    if isinstance(instruction, Rectangle):
        (x, y), (w, h) = instruction.pos, instruction.size
        return [(x, y, w, h)]
    if isinstance(instruction, Mesh):
        v = instruction.vertices
        return [(v[k], v[k + 1], v[k + 4] - v[k], v[k + 9] - v[k + 1]) for k in range(0, len(v), 16)]
    return []
