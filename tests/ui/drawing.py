"""Shared helpers for board-drawing tests: draw one game's board and read its pixels."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from kivy.base import EventLoop
from kivy.core.window import Window
from kivy.uix.widget import Widget

from companion.session import Session
from ui.boards import BoardView, drawer_for


def on_window(size: tuple[int, int] | None = None) -> Iterator[Widget]:
    """A bare widget on the window, for a fixture: the drawing alone, without the app around it."""
    EventLoop.ensure_window()
    widget = Widget(size_hint=(None, None), pos=(0, 0), **({"size": size} if size else {}))
    Window.add_widget(widget)
    yield widget
    Window.remove_widget(widget)


def render(widget: Any, session: Session, document: dict[str, Any] | None = None) -> bytes:
    """Draw straight through the game's drawer (so a bug raises here instead of falling back to text)."""
    doc = document if document is not None else session.document()
    widget.canvas.clear()
    drawer_for(session.game.id)(widget, BoardView(session.game, doc, session.game.describe(session.state)))
    return bytes(widget.export_as_image().texture.pixels)


def pixel(pixels: bytes, widget: Any, x: float, y: float) -> tuple[int, int, int]:
    """RGB at widget coordinates (x, y); the exported pixels run top row first, Kivy's y runs up."""
    i = ((int(widget.height) - 1 - int(y)) * int(widget.width) + int(x)) * 4
    return pixels[i], pixels[i + 1], pixels[i + 2]
