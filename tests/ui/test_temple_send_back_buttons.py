"""The table's buttons for temple moves say which move sends a pawn back, as the protocol's choices do."""

from __future__ import annotations

from typing import Any

from tests.core.test_temple_send_back_choice import ak_onto_a_pawn, change_sending_back, landing_on_a_pawn
from tests.ui.conftest import advance


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
