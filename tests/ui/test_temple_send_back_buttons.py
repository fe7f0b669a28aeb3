"""The table's buttons for temple moves say which move sends a pawn back, as the protocol's choices do."""

from __future__ import annotations

from typing import Any

import pytest

from companion.session import Session
from tests.core.test_temple_send_back_choice import ak_onto_a_pawn, change_sending_back, landing_on_a_pawn
from tests.games.temple.fixtures import game
from tests.games.temple.test_send_back_order import pair_order_with_blue_waiting
from tests.ui.conftest import advance
from tests.ui.test_layout import buttons_at_each_size, lines_of, shown_whole, text_height
from tests.ui.test_portrait import window_size  # noqa: F401  (a fixture)

pytestmark = pytest.mark.usefixtures("undrawn")  # texts, sizes and states are read, never the window's pixels


def test_the_button_for_a_move_onto_a_pawn_says_it_goes_back(start: Any) -> None:
    session, action = landing_on_a_pawn()
    app = start(session)
    table = app.root.get_screen("table")
    advance(4)
    table.list_all()  # every move, page by page, wherever it goes
    texts = [b.text for b in table.buttons()]
    while table.page + 1 < table.arrangement.pages:
        table.next_page()
        texts += [b.text for b in table.buttons()]
    assert action["text"] in texts and "back [RU-12" in action["text"]


def test_the_button_for_an_ah_kinchil_play_onto_a_pawn_says_it_goes_back(start: Any) -> None:
    session, play = ak_onto_a_pawn()
    app = start(session)
    table = app.root.get_screen("table")
    advance(4)
    texts = [b.text for b in table.buttons()]
    while table.page + 1 < table.arrangement.pages:
        table.next_page()
        texts += [b.text for b in table.buttons()]
    assert play["text"] in texts and play["text"].endswith("sending Blue 1 back [RU-Q23]")


def test_the_button_for_a_change_onto_a_pawn_says_it_goes_back(start: Any) -> None:
    session, change = change_sending_back()
    app = start(session)
    table = app.root.get_screen("table")
    advance(4)
    table.point(change["slot"])  # hundreds of changes: the table marks the slots and a tap lists one's
    advance(2)
    texts = [b.text for b in table.buttons()]
    while table.page + 1 < table.arrangement.pages and change["text"] not in texts:
        table.next_page()
        texts += [b.text for b in table.buttons()]
    assert change["text"] in texts and "back [RU-17" in change["text"]


def test_the_pair_order_buttons_say_where_the_waiting_pawns_end_and_fit(
    window_size: Any, start: Any  # noqa: F811
) -> None:
    """Red's two pair-order choices now end with where Blue 1 (waiting behind the choice) and Blue 2 end up; the
    longer words still read whole, within three lines, and both choices show without scrolling, at 800x480 and
    upright at 480x800 (the 800x480 one stands the two side by side)."""
    after = pair_order_with_blue_waiting()  # on the temple tests' own deck of plain cards
    session = Session(game(), game().to_document(after), after)
    offered = [a["text"] for a in session.legal()]
    assert len(offered) == 2 and all("then Blue 1 on [1,13]" in t for t in offered), offered
    app = start(session)
    table = app.root.get_screen("table")
    for size, buttons in buttons_at_each_size(table, window_size, offered):
        for button in buttons:
            assert lines_of(button) <= 3, (size, lines_of(button))
            assert text_height(button) <= button.height, size
            assert shown_whole(button, table.ids.choice_scroll), size
