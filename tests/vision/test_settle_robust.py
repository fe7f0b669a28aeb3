"""From frames to the game on a busy café table: odd confidences, a clock set back, a camera that changes its
picture size, and a die laid beside the last roll's and lifted out again.

Real OpenCV on rendered frames, the real d6 reader, the real settler, feed and controller; only the readers that
stand for a misbehaving third-party reader are scripted.
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np
import pytest

from companion.controller import Controller
from companion.observations import DieRead, LinkChanged
from companion.session import Session
from tests.vision.test_feed import Frames, camera_sees, dice_news, die_at, hand_over, tumbling
from tests.vision.test_feed_robust import Scripted, a_six, feed_sees
from vision import settle
from vision.dice_render import draw_face, paste_rotated
from vision.feed import CameraFeed
from vision.motion import MotionGate
from vision.readings import DieReading
from vision.settle import dice_settler

# ---------------------------------------------------------------- a reader's confidence that is no share


@pytest.mark.parametrize("confidence", [None, "0.9", True, float("nan"), 95, -0.5])
def test_a_die_read_with_a_confidence_that_is_no_share_settles_and_is_asked(confidence: object) -> None:
    """None and "0.9" made the vote raise on every still frame (the roll was never read); True voted as sure."""
    settler = dice_settler(Scripted([a_six(confidence)]))  # type: ignore[arg-type]
    settled = [s for s in (settler.feed(die_at(1)) for _ in range(6)) if s is not None]
    assert len(settled) == 1
    assert settled[0].confidence == 0.0 and settled[0].needs_confirm


def test_one_die_of_several_with_no_confidence_makes_the_roll_asked() -> None:
    """min() compared None with a number and raised."""
    dice = [a_six(0.95), DieReading(2, None, None, (10.0, 10.0, 60.0, 60.0))]  # type: ignore[arg-type]
    settler = dice_settler(Scripted(dice))
    (settled,) = [s for s in (settler.feed(die_at(1)) for _ in range(6)) if s is not None]
    assert settled.confidence == 0.0 and settled.needs_confirm


@pytest.mark.parametrize(("value", "share"), [(np.float32(0.5), 0.5), (1, 1.0), (0, 0.0), (np.int64(1), 1.0),
                                              (True, 0.0), ("1", 0.0), (float("inf"), 0.0), (1.0001, 0.0)])
def test_a_share_is_a_real_number_from_0_to_1(value: object, share: float) -> None:
    assert settle.unit_confidence(value) == share


@pytest.mark.parametrize("confidence", [None, "0.9", True])
def test_a_die_read_with_such_a_confidence_reaches_the_table_as_a_question(confidence: object) -> None:
    """Through the feed into a Blackpool game: the roll is asked, not passed over in silence or applied unasked."""
    controller = Controller(Session.new("blackpool", ["yellow", "red"]))
    seen: list = []

    def submit(observation: object) -> None:
        seen.append(observation)
        controller.submit(observation)  # type: ignore[arg-type]

    feed_sees([*tumbling(7), *[die_at(1)] * 8], submit, "d6", Scripted([a_six(confidence)]))  # type: ignore[arg-type]
    assert not [o for o in seen if isinstance(o, LinkChanged) and "passed over" in o.detail]
    reads = [o for o in seen if isinstance(o, DieRead)]
    assert len(reads) == 1 and reads[0].value == 6 and reads[0].confidence == 0.0
    assert [u.kind for u in controller.pump() if u.kind in ("step", "confirm")] == ["confirm"]
    assert controller.session.log == []


# ---------------------------------------------------------------- a clock that goes back


def test_a_clock_set_back_does_not_hide_a_picture_that_never_holds_still() -> None:
    """Measured from a moment now in the future, a shaking picture had moved for -600 s and went untold."""
    now = [1000.0]
    gate = MotionGate(clock=lambda: now[0])
    frame = die_at(1)
    moving = []
    for index in range(90):
        now[0] += 1 / 30 - (600.0 if index == 30 else 0.0)
        gate.is_still(np.roll(frame, 3 if index % 2 else -3, axis=1))
        moving.append(gate.moving_for)
    assert all(seconds >= 0.0 for seconds in moving)
    assert moving[-1] == pytest.approx(59 / 30)  # counted afresh from the step back, as after a gap in the frames
    assert gate.frame_rate == pytest.approx(30.0)  # the step back is no gap between frames


def test_a_clock_set_back_on_a_still_picture_keeps_it_still() -> None:
    now = [50.0]
    gate = MotionGate(clock=lambda: now[0])
    frame = die_at(1)
    still = []
    for index in range(10):
        now[0] += -40.0 if index == 5 else 1 / 30
        still.append(gate.is_still(frame))
    assert still == [False] + [True] * 9 and gate.moving_for == 0.0


# ---------------------------------------------------------------- a camera that changes its picture size


def resized(frames: list[np.ndarray], width: int, height: int) -> list[np.ndarray]:
    return [cv2.resize(frame, (width, height), interpolation=cv2.INTER_AREA) for frame in frames]


@pytest.mark.parametrize(("later", "note"), [
    # Another shape (a camera reopened in a wide mode): read afresh, the die named as lying there.
    (lambda still: resized([still] * 8, 800, 480),
     "6 already lay in view when the picture changed size (640x480 to 800x480): not taken as a roll (roll to play)"),
    # The same picture scaled: the die keeps its place, and a hand passing over it is no roll either.
    (lambda still: resized([still] * 4 + hand_over(still) + [still] * 8, 320, 240),
     "the dice lie where they lay, 6: not taken as a new roll; roll again or enter the value by hand"),
])
def test_a_die_lying_still_while_the_picture_changes_size_is_not_a_second_roll(
        d6_reader, later: Callable[[np.ndarray], list[np.ndarray]], note: str) -> None:
    """Its boxes in other pixels matched none before, so the 6 that never moved was applied again."""
    still = die_at(1)
    seen: list = []
    camera_sees([*tumbling(7), *[still] * 6, *later(still)], seen.append, d6_reader)
    assert dice_news(seen) == [("RollStarted", None), ("DieRead", 6)]
    assert [o.detail for o in seen if isinstance(o, LinkChanged) and "not taken" in o.detail] == [note]


def test_a_roll_after_the_picture_changed_size_is_still_a_roll(d6_reader) -> None:
    seen: list = []
    frames = [*tumbling(7), *[die_at(1)] * 6, *resized([die_at(1)] * 6 + tumbling(8) + [die_at(2)] * 6, 800, 480)]
    camera_sees(frames, seen.append, d6_reader)
    assert dice_news(seen) == [("RollStarted", None), ("DieRead", 6)] * 2


# ---------------------------------------------------------------- a die laid in beside the last roll's


def beside(frame: np.ndarray, value: int, centre: tuple[int, int]) -> np.ndarray:
    """The frame with a white die showing `value` laid at `centre` (the 6 of die_at(1) lies left of the middle)."""
    shot = frame.copy()
    paste_rotated(shot, draw_face(value, 55, (240, 240, 240), (20, 20, 20)), centre, 20)
    return shot


def test_a_die_laid_beside_the_last_roll_and_lifted_out_leaves_no_new_roll(d6_reader) -> None:
    """The next player set her die in the tray (two dice: refused) and lifted it out again; the last roll's 6,
    which never moved, was then told as her roll and applied to her."""
    still = die_at(1)
    two = beside(still, 2, (540, 240))
    seen: list = []
    camera_sees([*tumbling(7), *[still] * 6, *hand_over(still)[:3], *[two] * 6, *hand_over(still)[3:],
                 *[still] * 8], seen.append, d6_reader)
    assert [(o.value, o.dice) for o in seen if isinstance(o, DieRead)] == [(6, 1), (6, 2)]
    notes = [o.detail for o in seen if isinstance(o, LinkChanged) and "not taken" in o.detail]
    assert notes == ["the dice lie where they lay, 6: not taken as a new roll; roll again or enter the value by hand"]


def test_two_dice_thrown_and_one_lifted_out_leave_the_other_as_the_roll(d6_reader) -> None:
    """What the two-dice refusal asks for still works: both dice were thrown, so the one left is the roll."""
    first, thrown = die_at(1), die_at(2)
    seen: list = []
    camera_sees([*tumbling(7), *[first] * 6, *tumbling(8), *[beside(thrown, 2, (100, 100))] * 6,
                 *hand_over(thrown), *[thrown] * 8], seen.append, d6_reader)
    assert [(o.value, o.dice) for o in seen if isinstance(o, DieRead)] == [(6, 1), (6, 2), (6, 1)]


def test_dice_lying_at_the_start_are_no_roll_when_one_is_lifted_out(d6_reader) -> None:
    """Two dice already in view when the camera began (named, not taken): lifting the spare one out made the
    other, which never moved, a roll."""
    still = die_at(1)
    seen: list = []
    camera_sees([*[beside(still, 2, (540, 240))] * 8, *hand_over(still), *[still] * 8], seen.append, d6_reader)
    assert dice_news(seen) == []
    notes = [o.detail for o in seen if isinstance(o, LinkChanged) and "not taken" in o.detail]
    assert notes == ["2, 6 already lay in view when the camera began reading: not taken as a roll (roll to play)",
                     "the dice lie where they lay, 6: not taken as a new roll; roll again or enter the value by hand"]


def test_a_camera_that_changes_size_on_every_frame_is_told_as_never_still(d6_reader) -> None:
    """Read afresh on every frame, such a camera would read nothing in silence; it is a picture that never holds
    still, and the table hears so."""
    still = die_at(1)
    frames = [still if index % 2 else cv2.resize(still, (800, 480)) for index in range(120)]
    seen: list = []
    ticks = iter(range(1_000_000))
    feed = CameraFeed(lambda: Frames(frames), seen.append, mode="d6", fps=60, readers={"d6": d6_reader},
                      gate=lambda: MotionGate(clock=lambda: next(ticks) / 60))
    feed.stuck_after = 1.0
    with feed:
        assert feed.ended.wait(30)
    assert dice_news(seen) == []
    assert [o.detail.split(",")[0] for o in seen if isinstance(o, LinkChanged) and not o.up][:1] == [
        "picture not still for 1 s"]


def test_watch_takes_a_die_left_beside_a_lifted_one_as_the_table_does(d6_reader, tmp_path, capsys) -> None:
    """`watch` compared each reading with the one before, the refused pair included, and called the last roll's
    die, which never moved, a new roll once the extra die was lifted out; the table's feed does not."""
    from vision.cli import main

    still = die_at(1)
    frames = [*tumbling(7), *[still] * 6, *hand_over(still)[:3], *[beside(still, 2, (540, 240))] * 6,
              *hand_over(still)[3:], *[still] * 8]
    for index, frame in enumerate(frames):
        cv2.imwrite(str(tmp_path / f"{index:03d}.png"), frame)
    assert main(["vision", "watch", str(tmp_path)]) == 0
    settled = [line.split(": ", 1)[1] for line in capsys.readouterr().out.splitlines() if "settled" in line]
    assert len(settled) == 3 and "table would take it" in settled[0], settled
    assert settled[2].endswith("the same dice where they lay: not a new roll"), settled
