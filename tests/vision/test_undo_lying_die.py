"""An undo of a roll the camera read: the die still lying there is no roll when the camera sees it again.

Real OpenCV and the real d6 reader on a folder of rendered frames; the undo is pressed on the button box the moment
the roll is taken, while the camera still reads frames.
"""

from __future__ import annotations

import threading
from pathlib import Path

import cv2

from companion.controller import Controller
from companion.observations import ButtonPressed, DieRead, LinkChanged
from companion.session import Session
from tests.controller_loop import pump_until
from tests.vision.test_feed import dice_news, die_at, hand_over, tumbling
from vision.feed import CameraFeed


def test_the_die_whose_roll_was_undone_is_not_taken_again_when_a_hand_passes(tmp_path: Path, d6_reader) -> None:
    still = die_at(1)
    folder = tmp_path / "frames"
    folder.mkdir()
    for number, frame in enumerate([*tumbling(7), *[still] * 6, *hand_over(still), *[still] * 8]):
        cv2.imwrite(str(folder / f"{number:03}.png"), frame)
    controller = Controller(Session.new("blackpool", ["yellow", "red"]))
    seen: list = []
    undone = threading.Event()

    def submit(observation: object) -> None:
        seen.append(observation)
        controller.submit(observation)
        if isinstance(observation, DieRead):  # the camera reads on only once the roll is taken back
            assert undone.wait(30)

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
