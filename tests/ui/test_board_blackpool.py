"""The Blackpool drawing the right way up: row 1 at the bottom, as the board data and the rules have it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from kivy.uix.widget import Widget

from companion.session import Session
from tests.ui.drawing import on_window, pixel, render
from ui.boards import blackpool
from ui.boards.paint import rgb


@pytest.fixture
def canvas() -> Iterator[Widget]:
    yield from on_window((450, 450))


def test_each_camp_is_drawn_in_its_own_corner(canvas: Widget) -> None:
    """Blue's camp a1 bottom-left, yellow's i1 bottom-right: upside down, every path ran clockwise on screen."""
    session = Session.new("blackpool", ["yellow", "red"])
    pixels = render(canvas, session)
    strip = canvas.height * blackpool.STRIP
    cell = min(canvas.width, canvas.height - strip) / 9
    x0, y0 = (canvas.width - 9 * cell) / 2, strip + (canvas.height - strip - 9 * cell) / 2
    corners = {"blue": (0, 0), "yellow": (8, 0), "green": (0, 8), "red": (8, 8)}  # (column, row from the bottom)
    for colour, (col, row) in corners.items():
        x, y = x0 + (col + 0.5) * cell, y0 + (row + 0.15) * cell  # low in the square: under its label and pieces
        assert pixel(pixels, canvas, x, y) == tuple(round(c * 255) for c in rgb(colour)), colour


def test_the_strip_shows_each_players_coins_and_travellers_home(canvas: Widget) -> None:
    """Coins are spent on the charm deck; the board never showed how many a player had."""
    session = Session.new("blackpool", ["yellow", "red"])
    document = session.document()
    document["travellers"]["red-1"]["at"] = "camp"
    pixels = render(canvas, session, document)
    h = canvas.height * blackpool.STRIP
    segment = canvas.width / 3  # two players and the decks
    gold = tuple(round(c * 255) for c in blackpool.COIN_RGB)
    for k in range(2):
        assert pixel(pixels, canvas, k * segment + h * 0.95 + h * 0.2, h * 0.5) == gold  # the coin, beside its count
    red = tuple(round(c * 255) for c in rgb("red"))
    assert pixel(pixels, canvas, segment + h * 1.48, h * 0.5) == red  # red's first pip: one traveller home
    assert pixel(pixels, canvas, h * 1.48, h * 0.5) != tuple(round(c * 255) for c in rgb("yellow"))  # none home
