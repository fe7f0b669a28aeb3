"""The fallback drawing: the game's own describe() lines, fitted to the board area.

Monospaced, because describe() output is often a text grid whose columns must
line up; the font is sized for the typical line and only the few long lines
(keys, legends) wrap.
"""

from __future__ import annotations

from typing import Any

from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Rectangle

from ui.boards.paint import BACKGROUND

MONO = "RobotoMono-Regular"  # bundled with Kivy


def fit_size(lines: list[str], width: float, height: float) -> float:
    lengths = sorted(len(line) for line in lines) or [1]
    typical = max(lengths[int(len(lengths) * 0.75) - 1 if len(lengths) > 3 else -1], 8)
    by_width = width / (typical * 0.6)
    by_height = height / ((len(lines) + 2) * 1.25)
    return max(7.0, min(by_width, by_height, height / 12))


def draw(widget: Any, view: Any) -> None:
    lines = list(view.lines) or ["(no position yet)"]
    pad = widget.width * 0.02
    width, height = widget.width - 2 * pad, widget.height - 2 * pad
    size = fit_size(lines, width, height)
    for _ in range(6):  # wrapped lines take more rows than estimated: shrink until nothing is cut off
        label = CoreLabel(text="\n".join(lines), font_size=size, font_name=MONO, text_size=(width, None))
        label.refresh()
        if label.texture.size[1] <= height or size <= 7:
            break
        size = max(7.0, size * (height / label.texture.size[1]) ** 0.5 * 0.97)
    with widget.canvas:
        Color(*BACKGROUND, 1)
        Rectangle(pos=widget.pos, size=widget.size)
        Color(1, 1, 1, 1)
        w, h = label.texture.size
        Rectangle(texture=label.texture, pos=(widget.x + pad, widget.top - pad - h), size=(w, h))
