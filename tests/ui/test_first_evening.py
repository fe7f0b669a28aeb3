"""A family's first evening: what a table that has read no docs needs to see, in the real offscreen window."""

from __future__ import annotations

import random
from typing import Any

import pytest
from kivy.core.window import Window

from companion.session import Session
from tests.ui.conftest import advance, tap

SIZES = [(800, 480), (480, 800), (1280, 720)]


@pytest.fixture
def sized() -> Any:
    """The window at a size for the test, and back to 800x480 after it."""

    def _size(size: tuple[int, int]) -> None:
        Window.size = size
        advance(3)

    yield _size
    Window.size = (800, 480)
    advance(3)


def finished(game_id: str, players: list[str]) -> Session:
    session = Session.new(game_id, players)
    rng = random.Random(2)
    while not session.pending().is_over:
        session.act(session.game.sim_choose(session.state, session.legal(), rng))
    return session


def test_redo_is_announced_as_the_step_put_back(start: Any) -> None:
    """Redo's line read as a new card drawn ("Centre 1-2 shows ..."), the same words as the step's own: the
    table could not tell what had happened from what the button did. It now says "Put back:"."""
    app = start(Session.new("targi", ["white", "black"]))
    table = app.root.get_screen("table")
    tap(table.buttons()[0])
    taken = app.announcements[0]["text"]
    tap(table.ids.undo)
    assert table.ids.announcements.text.startswith("Correction: ")
    tap(table.ids.redo)
    first = table.ids.announcements.text.splitlines()[0]
    assert first.startswith(f"Put back: {taken}"), first
