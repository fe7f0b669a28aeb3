"""Targi's choices that end the round say so, and what follows, and still read whole at 800x480 and 480x800."""

from __future__ import annotations

from typing import Any

import pytest

from companion.session import Session
from tests.games.targi.helpers import B, W, actions_doc, doc_of, load, set_supply
from tests.ui import test_portrait
from tests.ui.conftest import advance
from tests.ui.test_display_scale import uneven_choices
from tests.ui.test_layout import buttons_at_each_size, lines_of, text_height
from tests.ui.test_portrait import window_size  # noqa: F401  (a fixture)

pytestmark = pytest.mark.usefixtures("undrawn")  # texts, sizes and states are read, never the window's pixels

# Round 3, Black done, White's tribe marker on the Date Basket its last piece: what White and Black hold.
HOLDINGS = [
    ({}, {}, "; the round ends, then the raid (First Raid)"),
    ({"gold": 5}, {}, "; the round ends, White returns 2 gold, then the raid (First Raid)"),
    ({"dates": 6, "salt": 6, "pepper": 6, "gold": 5}, {"gold": 4},
     ", Black 1 gold, then the raid (First Raid)"),
]


def last_piece(white: dict[str, int], black: dict[str, int]) -> Session:
    doc = actions_doc(W, targi=[(5, W)], markers=[(1, 1, W)], round_=3)
    doc["done"] = [B]
    set_supply(doc, W, **white)
    set_supply(doc, B, **black)
    session = Session.from_start("targi", {"kind": "load", "state": doc_of(load(doc))})
    session.act({"type": "use", "card": 5})  # the Salt Pans: only the tribe marker is left
    return session


@pytest.mark.parametrize(("white", "black", "tail"), HOLDINGS)
def test_the_choices_that_end_the_round_say_what_follows_and_fit(
    white: dict[str, int], black: dict[str, int], tail: str, window_size: Any, start: Any  # noqa: F811
) -> None:
    """'Finish my actions this round' and the last use read like any other choice, though the round ended with
    them, gold went back (TG-E2) and the robber raided (TG-R2). Said on the buttons, they still show whole and
    without scrolling at 800x480 and 480x800; with one player's return or none, in three lines at most, each row
    of buttons even (no word alone on a line)."""
    session = last_piece(white, black)
    offered = [a["text"] for a in session.legal()]
    assert offered[-1].startswith("Finish my actions; the round ends")
    assert all(text.endswith(tail) for text in offered), offered
    app = start(session)
    app.show("table")
    advance(2)
    table = app.root.get_screen("table")
    for size, buttons in buttons_at_each_size(table, window_size, offered):
        assert not test_portrait.faults(table), size
        assert all(text_height(b) <= b.height for b in buttons), size
        if not black:
            assert all(lines_of(b) <= 3 for b in buttons), (size, [lines_of(b) for b in buttons])
            assert not uneven_choices(table), (size, uneven_choices(table))


@pytest.mark.parametrize("percent", (100, 120))
def test_the_twelfth_cards_play_says_the_game_ends_with_the_round_and_fits(
    percent: int, window_size: Any, start: Any  # noqa: F811
) -> None:
    """White lays a twelfth tribe card with Black still to act: the play says the game ends with this round
    (TG-END2) and, with the hold and the discard, still reads whole and evenly at 800x480 and 480x800."""
    from kivy.app import App

    from tests.games.targi.test_rules import twelfth_position
    from tests.ui.test_display_scale import scaled

    session = Session.from_start("targi", {"kind": "load", "state": doc_of(load(twelfth_position(W)))})
    session.act({"type": "use", "slot": [1, 2]})
    offered = [a["text"] for a in session.legal()]
    assert offered[0].endswith("; the game ends with this round"), offered
    app = start(session)
    app.show("table")
    scaled(App.get_running_app(), percent)
    table = app.root.get_screen("table")
    for size, buttons in buttons_at_each_size(table, window_size, offered):
        assert not test_portrait.faults(table), size
        assert all(text_height(b) <= b.height for b in buttons), size
        assert not uneven_choices(table), (size, uneven_choices(table))
