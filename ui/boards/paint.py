"""Shared drawing helpers: colours, and text drawn straight onto a canvas."""

from __future__ import annotations

from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Rectangle

PIECE_RGB = {
    "yellow": (0.98, 0.84, 0.1),
    "red": (0.9, 0.15, 0.15),
    "green": (0.1, 0.7, 0.25),
    "blue": (0.2, 0.45, 0.95),
    "white": (0.95, 0.95, 0.95),
    "black": (0.1, 0.1, 0.1),
    "orange": (0.98, 0.55, 0.1),
    "purple": (0.6, 0.3, 0.8),
    "pink": (0.95, 0.5, 0.75),
    "brown": (0.55, 0.35, 0.2),
}
BACKGROUND = (0.07, 0.07, 0.09)


def rgb(name: str) -> tuple[float, float, float]:
    return PIECE_RGB.get(str(name).lower(), (0.7, 0.7, 0.7))


def ink_for(name: str) -> tuple[float, float, float]:
    """Black text on light pieces, white on dark ones: contrast from a metre away."""
    r, g, b = rgb(name)
    return (0, 0, 0) if 0.3 * r + 0.59 * g + 0.11 * b > 0.5 else (1, 1, 1)


def text(
    x: float,
    y: float,
    words: str,
    size: float,
    colour: tuple[float, float, float] = (1, 1, 1),
    anchor: str = "center",
    width: float | None = None,
    bold: bool = False,
) -> tuple[float, float]:
    """Draw ``words`` at (x, y) on the canvas in the current context; returns the drawn size."""
    label = CoreLabel(text=words, font_size=max(6, size), bold=bold, text_size=(width, None) if width else (None, None))
    label.refresh()
    w, h = label.texture.size
    if anchor == "center":
        x, y = x - w / 2, y - h / 2
    elif anchor == "topleft":
        y = y - h
    Color(*colour, 1)
    Rectangle(texture=label.texture, pos=(x, y), size=(w, h))
    return w, h
