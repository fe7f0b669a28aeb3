"""A camera unplugged mid-game and plugged back in: the die lying there then is named, not taken as a roll.

While the camera was out the table asked the players to tap each roll. A die thrown meanwhile lay elsewhere when
the camera came back, matched no die the feed had seen, and was told as a roll: the next player's, applied unasked.
Real OpenCV and the real d6 reader on rendered frames; the camera is a stand-in whose cable is pulled once.
"""

from __future__ import annotations

import numpy as np

from companion.controller import Controller
from companion.observations import LinkChanged
from companion.session import Session
from tests.vision.test_feed import _drawn, dice_news, die_at, tumbling
from vision.feed import CameraFeed

BACK = "6 already lay in view when the camera came back: not taken as a roll (roll to play)"


class Camera:
    """Hands out its frames; the read after `pulled_after` frames fails as an unplugged camera's does."""

    name = "camera 0"
    live = True

    def __init__(self, frames: list[np.ndarray], pulled_after: int | None = None) -> None:
        self.frames = list(frames)
        self.pulled_after = pulled_after
        self.given = 0
        self.finished = False

    def read(self) -> np.ndarray | None:
        if self.given == self.pulled_after:
            self.pulled_after = None
            raise OSError("the USB cable is out")
        if not self.frames:
            self.finished = True
            return None
        self.given += 1
        return self.frames.pop(0)

    def close(self) -> None:
        pass


def seen_through_an_outage(before: list[np.ndarray], after: list[np.ndarray], d6_reader, submit=None) -> list:
    seen: list = []
    cameras = [Camera(before, pulled_after=len(before)), Camera(after)]

    def told(observation: object) -> None:
        seen.append(observation)
        if submit is not None:
            submit(observation)

    with CameraFeed(lambda: cameras.pop(0), told, mode="d6", fps=None, readers={"d6": d6_reader},
                    retry_seconds=0.01) as feed:
        assert feed.ended.wait(30)
    return seen


def notes(seen: list) -> list[str]:
    return [o.detail for o in seen if isinstance(o, LinkChanged) and "lay" in o.detail]


def test_a_die_thrown_while_the_camera_was_out_is_not_applied_when_it_is_back(d6_reader) -> None:
    """A 6 lay in the tray when reading began (named, not taken); while the camera was out a 3 was thrown
    elsewhere: it read "Yellow rolls 3." when the camera came back, a roll the table never saw thrown."""
    controller = Controller(Session.new("blackpool", ["yellow", "red"]))
    three = _drawn(2, 1, (3,))[0].copy()  # a lone 3, elsewhere on another tray
    seen = seen_through_an_outage([die_at(1)] * 8, [three] * 8, d6_reader, controller.submit)
    assert dice_news(seen) == [], dice_news(seen)
    assert notes(seen) == ["6 already lay in view when the camera began reading: not taken as a roll (roll to play)",
                           "3 already lay in view when the camera came back: not taken as a roll (roll to play)"]
    assert any(isinstance(o, LinkChanged) and not o.up and "USB cable" in o.detail for o in seen)
    assert [u.kind for u in controller.pump() if u.kind == "step"] == [] and controller.session.log == []


def test_the_die_as_it_lay_is_named_alike(d6_reader) -> None:
    seen = seen_through_an_outage([*tumbling(7), *[die_at(1)] * 6], [die_at(1)] * 8, d6_reader)
    assert dice_news(seen) == [("RollStarted", None), ("DieRead", 6)]
    assert notes(seen) == [BACK]


def test_a_throw_once_the_camera_is_back_is_a_roll(d6_reader) -> None:
    seen = seen_through_an_outage([*tumbling(7), *[die_at(1)] * 6], [*[die_at(2)] * 6, *tumbling(8),
                                                                       *[die_at(3)] * 6], d6_reader)
    assert dice_news(seen) == [("RollStarted", None), ("DieRead", 6)] * 2, dice_news(seen)
    assert notes(seen) == [BACK]


def test_watch_says_the_die_lying_there_when_the_camera_is_back_is_no_roll(monkeypatch, capsys) -> None:
    """`vision watch` said "the table would take it" of the 3 lying there, as the table then did."""
    import functools

    import vision.watch
    from vision.cli import main
    from vision.sources import RetryingSource

    three = _drawn(2, 1, (3,))[0].copy()
    cameras = [Camera([*tumbling(7), *[die_at(1)] * 6], pulled_after=11), Camera([three] * 8)]
    monkeypatch.setattr(vision.watch, "is_device", lambda spec: True)
    monkeypatch.setattr(vision.watch, "open_source", lambda spec: cameras.pop(0))
    monkeypatch.setattr(vision.watch, "RetryingSource", functools.partial(RetryingSource, retry_seconds=0.01))
    assert main(["vision", "watch", "0", "--turn", "0", "--no-mirror", "--mains", "0", "--tray", "whole"]) == 0
    out = capsys.readouterr().out
    said = [line.split(": ", 1)[1] for line in out.splitlines() if "settled" in line]
    assert "source problem: the USB cable is out" in out, out
    assert len(said) == 2 and said[0].startswith("die shows 6") and said[0].endswith("the table would take it"), said
    assert said[1].startswith("die shows 3") and said[1].endswith(
        "it lay in view when the camera came back, so the table would not take it as a roll (roll to play)"), said
