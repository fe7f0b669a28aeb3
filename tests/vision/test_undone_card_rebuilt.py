"""A temple card change taken back with undo, its new card still lying in the slot, and the camera's readers made
afresh within the game (something taught in Settings, the picture turned, the tray marked): the cards lying there
are no news, and the change is not taken again.

Real OpenCV and the real card reader on a folder of rendered board frames; the undo and the rebuild come the moment
the change is taken, while the camera still reads frames.
"""

from __future__ import annotations

import threading
from pathlib import Path

import cv2
import pytest

from companion.controller import Controller
from companion.observations import ButtonPressed, CardsSeen
from tests.controller_loop import pump_until
from tests.vision.test_feed import LOOKS_UNIQUE, board_frame, held_after_a_read, laid_board, on_the_table, write_frames
from vision.feed import CameraFeed
from vision.orientation import Orientation
from vision.tray_area import TrayArea

REBUILDS = {
    "taught": lambda feed: feed.reload_taught(),  # Settings' Teach and Clear, the camera screen's Take back
    "turned": lambda feed: setattr(feed, "orientation", Orientation(180)),
    "tray marked": lambda feed: setattr(feed, "tray", TrayArea(0.0, 0.0, 0.5, 1.0)),
}


@pytest.mark.parametrize("rebuild", list(REBUILDS))
def test_an_undone_change_still_lying_is_not_taken_again_when_the_readers_are_made_afresh(
    tmp_path: Path, rebuild: str
) -> None:
    """The rebuilt card reader told every card it saw again, and the new card, lying there until the old one is put
    back as the undo asked, was taken as the change made anew."""
    session = laid_board()
    controller = Controller(session)
    change = next(a for a in session.legal() if a["type"] == "change" and a["card"] in LOOKS_UNIQUE)
    laid = on_the_table(session) | {change["slot"]: change["card"]}
    upright = board_frame(laid)
    # Read three times, the change is taken and the camera held; the frames after come as the camera gives them,
    # upside down for a picture the café then turns.
    after = cv2.rotate(upright, cv2.ROTATE_180) if rebuild == "turned" else upright
    frames = write_frames(tmp_path / "frames", [upright] * 3 + [after] * 6)
    steps = len(session.log)
    seen: list = []
    undone = threading.Event()  # the camera reads on once it is set
    with CameraFeed(str(frames), held_after_a_read(controller, seen, undone, CardsSeen), mode="cards", fps=None,
                    card_interval=0) as feed:
        step = pump_until(controller, lambda u: u.kind == "step", timeout=30)[-1]
        assert step.action["card"] == change["card"] and len(session.log) == steps + 1
        assert controller.handle(ButtonPressed("undo")).kind == "undo"
        REBUILDS[rebuild](feed)
        undone.set()
        assert feed.ended.wait(30)
    later = controller.pump()
    assert [u.text for u in later if u.kind in ("step", "confirm")] == []
    assert len(session.log) == steps and session.state.slots[change["slot"] - 1] != change["card"]
    assert [o.slots for o in seen if isinstance(o, CardsSeen)] == [laid]
