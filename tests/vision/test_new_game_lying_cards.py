"""A new temple game begun with the last game's cards still lying in the board's slots: the camera reads them, and
they are not the new game's draws. The opening draws are cards drawn now into empty slots (RU-3); a card that lay in
its slot through the game's start is named, and the table asked to clear the board, while a card laid once the
camera reads is the draw, as before.

Real OpenCV and the real card reader on folders of rendered board frames (`tests/vision/test_feed.py`).
"""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from companion.controller import Controller
from companion.observations import CardsSeen
from companion.session import Session
from tests.controller_loop import pump_until
from tests.vision.test_camera_restarted import read_afresh
from tests.vision.test_feed import LOOKS_UNIQUE, board_frame, held_after_a_read, laid_board, on_the_table, write_frames
from vision.feed import start_camera

CLEAR = ("hold cards that lay there before this game began: not taken as draws. Clear the last game's cards off the "
         "board and shuffle them into the deck, then lay each card drawn in its slot.")


def test_a_camera_started_over_a_new_game_takes_no_card_left_lying_as_a_draw(tmp_path: Path) -> None:
    """The app started again (or the camera switched on) as the next table begins, the last game's twelve cards
    still in their slots: every one was taken as the new game's draw, slot after slot, the old path never
    shuffled. Named, with the clause; the card drawn and laid in slot 1 once the camera reads is the first draw."""
    lying = on_the_table(laid_board())
    session = Session.new("temple", ["red", "blue"])
    first = next(a["card"] for a in session.legal() if a["type"] == "draw" and a["card"] in LOOKS_UNIQUE
                 and a["card"] not in lying.values())
    frames = [board_frame(lying)] * 6 + [board_frame(lying | {1: None})] * 6 + [board_frame(lying | {1: first})] * 6
    seen, updates = read_afresh(Controller(session), write_frames(tmp_path / "frames", frames))
    told = [o for o in seen if isinstance(o, CardsSeen)]
    assert told[0].slots == lying and told[0].first_seen == frozenset(lying)
    [named] = [u for u in updates if u.kind == "unapplied"]
    assert named.text == f"Slots 1 to 12 {CLEAR}" and named.rules == ("RU-3",)
    assert [u.action for u in updates if u.kind == "step"] == [{"type": "draw", "deck": "path", "card": first}]
    assert session.state.slots[0] == first and list(session.state.slots[1:]) == [None] * 11


@pytest.mark.parametrize("taught", [False, True])
def test_the_next_tables_game_is_told_to_clear_the_last_games_cards(tmp_path: Path, taught: bool) -> None:
    """The same camera reading on as 'New game for the next table' is tapped, the last game's cards left in the
    slots: its readers went on as they were, so nothing was said and the new game waited for draws over a full board.
    A new game makes them afresh: the cards lying there are read again, named, and none is a draw. So too when
    something was taught (Settings' Teach) just as the game began: the readers made afresh for it started from the
    last game's cards, as within one game."""
    old = laid_board()
    lying = on_the_table(old)
    controller = Controller(old)
    seen: list = []
    begun = threading.Event()  # the camera reads on once it is set
    submit = held_after_a_read(controller, seen, begun, CardsSeen)
    folder = write_frames(tmp_path / "frames", [board_frame(lying)] * 30)
    feed = start_camera(str(folder), submit, lambda: controller.session, fps=None, card_interval=0,
                        taught_dir=tmp_path / "taught")
    try:
        assert pump_until(controller, lambda u: "hold the cards the game has there" in u.text, timeout=30)
        new = Session.new("temple", ["red", "blue"])
        assert controller.set_session(new).kind == "new_game"
        if taught:
            feed.reload_taught()
        begun.set()
        assert feed.ended.wait(30)
    finally:
        feed.close()
    later = controller.pump()
    assert [u.text for u in later if u.kind == "unapplied"] == [f"Slots 1 to 12 {CLEAR}"]
    assert not [u for u in later if u.kind in ("step", "confirm")] and new.log == []
