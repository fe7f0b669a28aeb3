"""The Blackpool drawing the right way up: row 1 at the bottom, as the board data and the rules have it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from kivy.base import EventLoop
from kivy.core.window import Window
from kivy.uix.widget import Widget

from companion.session import Session
from tests.ui.drawing import pixel, render
from ui.boards.paint import rgb


@pytest.fixture
def canvas() -> Iterator[Widget]:
    EventLoop.ensure_window()
    widget = Widget(size_hint=(None, None), pos=(0, 0), size=(450, 450))
    Window.add_widget(widget)
    yield widget
    Window.remove_widget(widget)


def test_each_camp_is_drawn_in_its_own_corner(canvas: Widget) -> None:
    """Blue's camp a1 bottom-left, yellow's i1 bottom-right: upside down, every path ran clockwise on screen."""
    session = Session.new("blackpool", ["yellow", "red"])
    pixels = render(canvas, session)
    cell = canvas.width / 9
    corners = {"blue": (0, 0), "yellow": (8, 0), "green": (0, 8), "red": (8, 8)}  # (column, row from the bottom)
    for colour, (col, row) in corners.items():
        x, y = (col + 0.5) * cell, (row + 0.15) * cell  # low in the square: under its label and pieces
        assert pixel(pixels, canvas, x, y) == tuple(round(c * 255) for c in rgb(colour)), colour
