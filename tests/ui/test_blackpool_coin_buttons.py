"""Blackpool's coin buttons on the real table after a six, as a first game reads them before the tap.

"Spend a coin on the charm deck (3 cards left)" and "... curse deck ..." said nothing of what either deck's
cards do: a table new to the game read the two as names for one pile and learnt from the card played that a
curse is played on a rival (BP-8). The buttons now say whom each serves, and still read whole."""

from __future__ import annotations

from typing import Any

import pytest

from companion.session import Session
from tests.ui.test_layout import buttons_at_each_size, lines_of, text_height
from tests.ui.test_portrait import window_size  # noqa: F401  (a fixture)

pytestmark = pytest.mark.usefixtures("undrawn")  # texts and sizes are read, never the window's pixels


def test_the_coin_buttons_say_whom_each_deck_serves(start: Any, window_size: Any) -> None:  # noqa: F811
    session = Session.new("blackpool", ["yellow", "red", "green"])
    session.act({"type": "roll", "value": 6})  # Yellow's six at the opening: bring one out, or a coin
    app = start(session)
    table = app.root.get_screen("table")
    offered = [a["text"] for a in session.legal()]
    assert offered[-2:] == ["Spend a coin on the charm deck (for you; 3 cards left)",
                            "Spend a coin on the curse deck (against a rival; 3 cards left)"]
    for size, buttons in buttons_at_each_size(table, window_size, offered):
        for button in buttons[-2:]:
            assert lines_of(button) <= 3, (size, button.text)
            assert text_height(button) <= button.height, (size, button.text)
