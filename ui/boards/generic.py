"""The fallback drawing: the game's own describe() lines, fitted to the board area."""

from __future__ import annotations

from typing import Any

from kivy.graphics import Color, Rectangle

from ui.boards.paint import BACKGROUND, text


def draw(widget: Any, view: Any) -> None:
    lines = list(view.lines) or ["(no position yet)"]
    with widget.canvas:
        Color(*BACKGROUND, 1)
        Rectangle(pos=widget.pos, size=widget.size)
        pad = widget.width * 0.03
        longest = max(len(line) for line in lines)
        # Shrink to fit both the longest line and the line count; monospace-ish width estimate.
        size = min(widget.height / (len(lines) * 1.35 + 1), widget.width / max(longest * 0.55, 1), widget.height / 14)
        y = widget.top - pad
        for line in lines:
            _, h = text(widget.x + pad, y, line, size, anchor="topleft", width=widget.width - 2 * pad)
            y -= h
            if y < widget.y:
                break
