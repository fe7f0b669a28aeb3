"""Targi's placing and using buttons say what a goods-giving border card gives, in the board's own words.

"Place a Targi on 2 (Palm Grove)" named a card the board shows as "2 / +2 dates": a first game matched the
two by the number alone, and what the Targi would bring was not in the choice. Now "Place a Targi on 2 (Palm
Grove: +2 dates)" and "Use Palm Grove (card 2): +2 dates"; a card whose name is its action (Trader, Caravan)
keeps its name alone."""

from __future__ import annotations

from typing import Any

import pytest

from companion.session import Session
from tests.games.targi.helpers import CENTRE
from tests.ui.test_layout import buttons_at_each_size, lines_of, text_height
from tests.ui.test_portrait import window_size  # noqa: F401  (a fixture)

pytestmark = pytest.mark.usefixtures("undrawn")  # texts and sizes are read, never the window's pixels

PLACES = ["Place a Targi on 2 (Palm Grove: +2 dates)", "Place a Targi on 3 (Silversmith)",
          "Place a Targi on 5 (Salt Pans: +2 salt)", "Place a Targi on 6 (Fata Morgana)",
          "Place a Targi on 7 (Spice Stall: +1 date +1 pepper)", "Place a Targi on 9 (Trader)",
          "Place a Targi on 10 (Crossroads Well: +1 any good)", "Place a Targi on 11 (Nomad Market: +1 gold)",
          "Place a Targi on 13 (Caravan)", "Place a Targi on 14 (Tribal Expansion)",
          "Place a Targi on 15 (Council Fire: +1 VP)"]


def test_the_placing_buttons_say_what_each_card_gives_and_read_whole(start: Any, window_size: Any) -> None:  # noqa: F811
    session = Session.new("targi", ["white", "black"])
    for card in CENTRE:
        session.act({"type": "draw", "deck": "goods" if card.startswith("G") else "tribe", "card": card})
    assert [a["text"] for a in session.legal()] == PLACES
    app = start(session)
    table = app.root.get_screen("table")
    for size, buttons in buttons_at_each_size(table, window_size, PLACES):
        for button in buttons:
            assert lines_of(button) <= 3, (size, button.text)
            assert text_height(button) <= button.height, (size, button.text)
    white = [2, 13]  # Palm Grove, then the Caravan; Black and White's last Targi take what is open
    while session.pending().text.endswith("place a Targi on a border card."):
        cards = [a["card"] for a in session.legal()]
        mine = session.pending().player == "white" and next((c for c in white if c in cards), None)
        session.act({"type": "place", "card": mine or next(c for c in cards if c not in white)})
    uses = [a["text"] for a in session.legal() if a["type"] == "use"]
    assert "Use Palm Grove (card 2): +2 dates" in uses and "Use Caravan (card 13)" in uses, uses
    # the goods cards at the centre too, as the board's centre cards say it ("Use Date Basket at centre 1-1" named
    # what the board shows as "+1 date"); a tribe card's cost comes with the decision it opens
    cat, centre_cards = session.game.cat, session.state.centre
    goods = [a["text"] for a in session.legal() if a["type"] == "use" and isinstance(a.get("slot"), list)
             and centre_cards[(a["slot"][0] - 1) * 3 + a["slot"][1] - 1].card in cat.goods]
    assert goods and all(" at centre " in text and text.split(": ", 1)[1].startswith("+") for text in goods), goods
    app.controller.set_session(session)
    for size, buttons in buttons_at_each_size(table, window_size, [a["text"] for a in session.legal()]):
        for button in buttons:
            assert lines_of(button) <= 3, (size, button.text)
            assert text_height(button) <= button.height, (size, button.text)
