"""The camera feed under readers that misbehave: odd confidences, failures, odd answers, and slowness at close."""

from __future__ import annotations

import logging
import threading
import time

import numpy as np
import pytest

from companion.controller import Controller
from companion.observations import CardsSeen, DieRead, LinkChanged, RollStarted
from companion.session import Session
from tests.vision.test_feed import Frames, die_at, tumbling
from vision.feed import CameraFeed
from vision.readings import BoardReading, DieReading, SlotReading
from vision.slot_tracker import SlotTracker

NOT_CONFIDENCES = [float("nan"), float("inf"), -0.1, 1.5, 95, None, "0.9", True]


def a_six(confidence: float = 0.95) -> DieReading:
    """The die die_at(1) shows, as a reader would give it (its box is not compared with any other here)."""
    return DieReading(6, None, confidence, (300.0, 200.0, 355.0, 255.0))


def a_roll() -> list[np.ndarray]:
    """A die tumbling, then lying still long enough to settle."""
    return [*tumbling(7), *[die_at(1)] * 8]


def rests_and_hands(rounds: int = 5) -> list[np.ndarray]:
    """A still table again and again, with a hand (motion) between: most frames reach no reader."""
    return [frame for _ in range(rounds) for frame in (*[die_at(1)] * 4, *tumbling(3, 2))]


class Scripted:
    """A reader answering each call with the next of `answers`: a value, or an exception to raise."""

    def __init__(self, *answers: object) -> None:
        self.answers = list(answers)
        self.calls = 0

    def read(self, frame):
        answer = self.answers[min(self.calls, len(self.answers) - 1)]
        self.calls += 1
        if isinstance(answer, Exception):
            raise answer
        return answer() if callable(answer) else answer


def feed_sees(frames: list[np.ndarray], submit, mode: str, reader: object, **kwargs) -> CameraFeed:
    kind = "cards" if mode == "cards" else "d6"
    with CameraFeed(lambda: Frames(frames), submit, mode=mode, fps=None, card_interval=0, readers={kind: reader},
                    **kwargs) as feed:
        assert feed.ended.wait(30)
    return feed


def passed_over(seen: list) -> list[str]:
    return [o.detail for o in seen if isinstance(o, LinkChanged) and "passed over" in o.detail]


# ---------------------------------------------------------------- 4: confidences that are no number from 0 to 1


@pytest.mark.parametrize("confidence", NOT_CONFIDENCES)
def test_a_slot_read_with_a_confidence_that_is_no_number_from_0_to_1_never_counts(confidence: object) -> None:
    """NaN compared as neither low nor high, so the tracker accepted its card and the table applied it unasked."""
    tracker = SlotTracker()
    for _ in range(6):
        assert tracker.update(BoardReading((SlotReading(1, "P01", confidence),))) == []  # type: ignore[arg-type]
    assert tracker.board() == BoardReading()


def test_a_slot_read_surely_by_a_numpy_number_still_counts() -> None:
    tracker = SlotTracker()
    changed = [tracker.update(BoardReading((SlotReading(1, "P01", np.float32(0.9)),))) for _ in range(3)]
    assert [len(c) for c in changed] == [0, 0, 1] and changed[-1][0].card == "P01"


def test_a_card_read_with_a_nan_confidence_is_not_applied_unasked() -> None:
    controller = Controller(Session.new("temple", ["red", "blue"]))
    seen: list = []

    def submit(observation) -> None:
        seen.append(observation)
        controller.submit(observation)

    reader = Scripted(BoardReading((SlotReading(1, "P01", float("nan")),)))
    feed_sees([*tumbling(3, 3), *[die_at(1)] * 15], submit, "cards", reader, idle_card_interval=0)
    controller.pump()
    assert reader.calls >= 10 and not [o for o in seen if isinstance(o, CardsSeen)]
    assert controller.session.log == []


@pytest.mark.parametrize("confidence", [95.0, 1.5, float("nan")])
def test_a_die_read_with_a_confidence_that_is_no_number_from_0_to_1_is_asked(confidence: float) -> None:
    """A reader giving percent (95) looked sure to the controller, and its die was applied without the tap."""
    controller = Controller(Session.new("blackpool", ["yellow", "red"]))
    seen: list = []

    def submit(observation) -> None:
        seen.append(observation)
        controller.submit(observation)

    feed_sees(a_roll(), submit, "d6", Scripted([a_six(confidence)]))
    reads = [o for o in seen if isinstance(o, DieRead)]
    assert len(reads) == 1 and reads[0].confidence == 0.0
    assert [u.kind for u in controller.pump() if u.kind in ("step", "confirm")] == ["confirm"]
    assert controller.session.log == []


# ---------------------------------------------------------------- 6: a failing reader is told once, in words


@pytest.mark.parametrize("mode", ["d6", "cards"])
def test_a_failing_reader_is_told_once_while_it_keeps_failing(mode: str, caplog: pytest.LogCaptureFixture) -> None:
    """Frames no reader looked at (a hand passing, a still board between card reads) ended the streak, so a
    broken card reader was told to the table every second all day. Told once in the service's log too: the
    report is the app's to log (a warning); the feed logged "camera frame N skipped: ..." beside it."""
    caplog.set_level(logging.DEBUG, logger="vision.feed")
    seen: list = []
    reader = Scripted(RuntimeError("model file gone"))
    feed = feed_sees(rests_and_hands(), seen.append, mode, reader)
    name = "card reader" if mode == "cards" else "d6 reader"
    assert reader.calls >= 5 and feed.errors == reader.calls
    assert passed_over(seen) == [f"the {name} failed on a frame, which was passed over: RuntimeError: model file "
                                 "gone"]
    assert not [r.getMessage() for r in caplog.records if r.name == "vision.feed" and r.levelno >= logging.WARNING]


def test_a_reader_that_works_again_and_fails_again_is_told_again() -> None:
    seen: list = []
    broken = RuntimeError("lost its model")
    reader = Scripted(broken, broken, broken, None, broken)
    feed_sees(rests_and_hands(), seen.append, "cards", reader)
    assert reader.calls > 5 and len(passed_over(seen)) == 2


@pytest.mark.parametrize(("mode", "answer", "said"), [
    ("d6", lambda: (a_six() for _ in range(1)), "the d6 reader failed on a frame, which was passed over: it answered "
                                                 "a generator, not a list of dice"),
    ("d6", [None], "the d6 reader failed on a frame, which was passed over: it answered [None], not a list of dice"),
    ("cards", [], "the card reader failed on a frame, which was passed over: it answered [], not a board reading"),
])
def test_a_reader_answering_no_reading_is_told_as_a_fault(mode: str, answer: object, said: str) -> None:
    """A generator read as no dice and was told to nobody; a list where the board was due said "'list' object
    has no attribute 'slots'" to the players."""
    seen: list = []
    feed_sees(a_roll(), seen.append, mode, Scripted(answer))
    assert passed_over(seen) == [said]
    assert not [o for o in seen if isinstance(o, (DieRead, RollStarted, CardsSeen))]


def test_a_failing_temple_die_reader_leaves_the_cards_read() -> None:
    """In the temple game the die reader ran first on each frame, and its fault skipped the card read too: a
    path card laid went unseen for as long as the die reader kept failing."""
    seen: list = []
    die = Scripted(RuntimeError("taught faces unreadable"))
    cards = Scripted(BoardReading((SlotReading(1, "P01", 0.95),)))
    with CameraFeed(lambda: Frames([*tumbling(3, 3), *[die_at(1)] * 15]), seen.append, mode="temple", fps=None,
                    card_interval=0, idle_card_interval=0, readers={"temple-die": die, "cards": cards}) as feed:
        assert feed.ended.wait(30)
    assert die.calls >= 3 and cards.calls >= 10
    assert [o.slots for o in seen if isinstance(o, CardsSeen)] == [{1: "P01"}]
    assert passed_over(seen) == ["the temple die reader failed on a frame, which was passed over: RuntimeError: "
                                 "taught faces unreadable"]


# ---------------------------------------------------------------- 7: nothing is submitted once closed


class Camera(Frames):
    """A live camera: after the frames given it keeps sending the last."""

    live = True

    def read(self) -> np.ndarray | None:
        return self.frames.pop(0) if len(self.frames) > 1 else self.frames[0]


class SlowOnThird:
    """A d6 reader that stalls on its third read (the one that settles the vote) until the test lets it go."""

    def __init__(self) -> None:
        self.calls = 0
        self.stalled = threading.Event()
        self.go_on = threading.Event()

    def read(self, frame):
        self.calls += 1
        if self.calls == 3:
            self.stalled.set()
            self.go_on.wait(10)
        return [a_six()]


def test_a_reader_that_outlasts_close_submits_nothing() -> None:
    """close() waited 5 s for a reader slow on one frame, returned, and a second later the closed feed's roll
    was applied to the game."""
    seen: list = []
    reader = SlowOnThird()
    feed = CameraFeed(lambda: Camera(a_roll()), seen.append, mode="d6", fps=None, readers={"d6": reader}).start()
    thread = feed._thread
    assert thread is not None and reader.stalled.wait(10)
    feed.close(timeout=0.05)
    assert not feed.running and thread.is_alive()
    closed_with = list(seen)
    reader.go_on.set()
    thread.join(10)
    assert not thread.is_alive() and reader.calls == 3
    assert seen == closed_with and not [o for o in seen if isinstance(o, (DieRead, RollStarted))]


def test_a_source_no_wait_can_mend_is_not_said_to_be_retried(tmp_path) -> None:
    """'picamera2 is not installed (retrying every 2 s)' promised a camera that waiting would never bring."""
    from vision.sources import SourceRefused

    seen: list = []

    def refused():
        raise SourceRefused("picamera2 is not installed")

    with CameraFeed(refused, seen.append, fps=None, retry_seconds=0.05):
        for _ in range(200):
            if any(isinstance(o, LinkChanged) for o in seen):
                break
            time.sleep(0.01)
    (lost,) = [o for o in seen if isinstance(o, LinkChanged)]
    assert not lost.up and lost.detail == ("picamera2 is not installed (waiting will not mend it: give the camera "
                                           "another source)")
