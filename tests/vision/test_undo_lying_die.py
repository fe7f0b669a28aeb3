"""An undo of a roll the camera read: the die still lying there is no roll when the camera sees it again.

Real OpenCV and the real d6 reader on a folder of rendered frames; the undo is pressed on the button box the moment
the roll is taken, while the camera still reads frames.
"""

from __future__ import annotations

import threading
from pathlib import Path

from companion.controller import Controller
from companion.observations import ButtonPressed, LinkChanged
from companion.session import Session
from tests.controller_loop import pump_until
from tests.vision.test_feed import dice_news, held_after_a_read, rolled_then_a_hand_over
from vision.feed import CameraFeed


def test_the_die_whose_roll_was_undone_is_not_taken_again_when_a_hand_passes(tmp_path: Path, d6_reader) -> None:
    folder = rolled_then_a_hand_over(tmp_path / "frames")
    controller = Controller(Session.new("blackpool", ["yellow", "red"]))
    seen: list = []
    undone = threading.Event()  # the camera reads on once it is set
    submit = held_after_a_read(controller, seen, undone)

    with CameraFeed(str(folder), submit, mode="d6", fps=None, readers={"d6": d6_reader}) as feed:
        step = pump_until(controller, lambda u: u.kind == "step", timeout=30)[-1]
        assert step.action == {"type": "roll", "value": 6}
        assert controller.handle(ButtonPressed("undo")).kind == "undo"
        undone.set()
        assert feed.ended.wait(30)
    later = controller.pump()
    assert [u.kind for u in later if u.kind == "step"] == [] and controller.session.log == []
    assert dice_news(seen) == [("RollStarted", None), ("DieRead", 6)]
    assert [o.detail for o in seen if isinstance(o, LinkChanged) and "lay" in o.detail] == [
        "the dice lie where they lay, 6: not taken as a new roll; roll again or enter the value by hand"]
