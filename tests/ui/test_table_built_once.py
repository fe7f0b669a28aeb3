"""A table coming on screen (a resumed game at start-up, a Start from home) builds its choices once, for the board
they are marked on: the app sets the choices before the board, and they were arranged first for no board (every
choice a button) and again when the board came."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import Any

import pytest

from companion.places import place_of
from companion.session import Session
from tests.ui.conftest import advance
from ui.screens.table import TableScreen
from ui.shots import default_players, long_list

pytestmark = pytest.mark.usefixtures("undrawn")  # builds, marks and texts are counted, never the window's pixels


@pytest.fixture
def built(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Each arrangement of the table's choices ("arranged"), each choice button built ("button"), and each
    evening out of their labels, on the window ("evened") or before the table is on it ("evened off the window",
    where its grid has not its width: Kivy's default 100 px at start-up)."""
    seen: list[str] = []
    rearrange, choice, even_out = TableScreen.rearrange, TableScreen._choice, TableScreen.even_out

    @functools.wraps(even_out)  # the same name: the table's clock trigger calls it by name
    def counted_even_out(self: TableScreen, *args: Any) -> None:
        seen.append("evened" if self.get_root_window() is not None else "evened off the window")
        even_out(self, *args)

    def counted_rearrange(self: TableScreen) -> None:
        seen.append("arranged")
        rearrange(self)

    def counted_choice(self: TableScreen, *args: Any, **kwargs: Any) -> Any:
        seen.append("button")
        return choice(self, *args, **kwargs)

    monkeypatch.setattr(TableScreen, "rearrange", counted_rearrange)
    monkeypatch.setattr(TableScreen, "_choice", counted_choice)
    monkeypatch.setattr(TableScreen, "even_out", counted_even_out)
    yield seen


def shown_right(app: Any) -> TableScreen:
    """The table as its choices should show on the game's board: each a button, or its place marked."""
    table = app.root.get_screen("table")
    legal = app.controller.session.legal()
    assert app.root.current == "table"
    assert table.can_point and table.view is not None and table.view.marked == table.arrangement.marked
    listed = [b.action for b in table.buttons()]
    assert listed == table.arrangement.buttons and all(a in legal for a in listed)
    return table


def test_a_resumed_temple_builds_its_card_plays_once(start: Any, built: list[str]) -> None:
    session = Session.new("temple", default_players("temple"))
    app = start(session)
    table = shown_right(app)
    assert len(table.buttons()) == len(session.legal()) == 50
    assert built.count("arranged") == 1, built.count("arranged")
    assert built.count("button") == 50, built.count("button")  # were 100: 50 for no board, 50 again for it
    assert "evened" in built and "evened off the window" not in built  # wrapped for 100 px first: 7 ms of CPU


def test_a_resumed_long_list_is_marked_on_the_board_without_buttons_first(start: Any, built: list[str]) -> None:
    """Through the Desert's leader placement: every choice a place marked on the map, no button built at all
    (there were 60, the first page of the 156 listed for no board)."""
    app = start(long_list("ttd", ["red", "black", "orange", "purple", "brown"]))
    table = shown_right(app)
    assert table.view.marked == {place_of(a) for a in app.controller.session.legal()}
    assert built.count("arranged") == 1, built.count("arranged")
    assert "button" not in built


@pytest.mark.parametrize("game", ["blackpool", "targi"])
def test_start_from_home_builds_the_choices_once(start: Any, built: list[str], game: str) -> None:
    app = start()
    home = app.root.get_screen("home")
    home.chosen_game, home.players = game, default_players(game)
    built.clear()
    home.start()
    advance(3)
    table = shown_right(app)
    assert built.count("arranged") == 1, built.count("arranged")
    assert built.count("button") == len(table.buttons()) == len(app.controller.session.legal())
    assert "evened" in built and "evened off the window" not in built
