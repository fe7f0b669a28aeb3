"""A camera mounted sideways or upside down, or one sending its picture mirrored, put upright for the readers."""

from __future__ import annotations

import numpy as np
import pytest

from companion.observations import CardsSeen, LinkChanged
from tests.vision.test_feed import Frames, board_frame, dice_news, die_at, tumbling
from vision.feed import BOARD_MISSES, CameraFeed
from vision.orientation import TURNS, UPRIGHT, Orientation


def marked() -> np.ndarray:
    """A 4x6 picture whose top-left pixel alone is white, so where it lands tells the turn."""
    frame = np.zeros((4, 6, 3), np.uint8)
    frame[0, 0] = 255
    return frame


def white_at(frame: np.ndarray) -> tuple[int, int]:
    rows, cols = np.nonzero(frame[:, :, 0])
    return int(rows[0]), int(cols[0])


@pytest.mark.parametrize(("turn", "mirror", "shape", "corner"), [
    (0, False, (4, 6, 3), (0, 0)),
    (90, False, (6, 4, 3), (0, 3)),  # clockwise: the top-left corner goes to the top right
    (180, False, (4, 6, 3), (3, 5)),
    (270, False, (6, 4, 3), (5, 0)),
    (0, True, (4, 6, 3), (0, 5)),
    (90, True, (6, 4, 3), (0, 0)),  # turned first, then the shown picture's left and right swapped
])
def test_each_orientation_moves_the_picture_as_named(turn: int, mirror: bool, shape: tuple, corner: tuple) -> None:
    upright = Orientation(turn, mirror).apply(marked())
    assert upright.shape == shape and white_at(upright) == corner and upright.flags.c_contiguous


@pytest.mark.parametrize("dtype", [bool, np.int64, np.uint16, np.float32])
def test_pictures_opencv_cannot_turn_are_turned_by_numpy(dtype: type) -> None:
    frame = marked().astype(dtype)
    assert white_at(Orientation(90, True).apply(frame).astype(np.uint8)) == (0, 0)


def test_four_quarter_turns_come_back_round_and_anything_not_a_picture_passes() -> None:
    frame = np.random.default_rng(3).integers(0, 255, (48, 64, 3), np.uint8)
    orientation, turned = UPRIGHT, frame
    for _ in TURNS:
        orientation = orientation.turned_once_more()
        turned = Orientation(90).apply(turned)
    assert orientation == UPRIGHT and np.array_equal(turned, frame)
    for thing in (None, np.zeros(5, np.uint8), "frame"):
        assert Orientation(180, True).apply(thing) is thing


@pytest.mark.parametrize("turn", [45, -90, 360, True, "90"])
def test_a_turn_that_is_no_quarter_turn_is_refused_in_words(turn: object) -> None:
    with pytest.raises(ValueError, match="0, 90, 180 or 270 degrees"):
        Orientation(turn)  # type: ignore[arg-type]


def test_the_orientation_is_said_in_words() -> None:
    assert UPRIGHT.words() == "as the camera sends it"
    assert Orientation(90).words() == "turned 90°"
    assert Orientation(0).mirrored().words() == "mirrored"
    assert Orientation(270, True).words() == "turned 270°, mirrored"


def board_news(frames: list[np.ndarray], orientation: Orientation) -> tuple[list, list[str]]:
    """The cards a feed in a temple game saw, and what it said of the board's markers."""
    seen: list = []
    with CameraFeed(lambda: Frames(frames), seen.append, mode="cards", fps=None, card_interval=0,
                    orientation=orientation) as feed:
        assert feed.ended.wait(30)
    notes = [o.detail for o in seen if isinstance(o, LinkChanged) and "markers" in o.detail]
    return [o.slots for o in seen if isinstance(o, CardsSeen)], notes


def test_a_mirrored_board_is_read_once_the_feed_mirrors_it_back() -> None:
    """ArUco markers in a mirror are no markers: without the mirror no card is read, and the table learns why."""
    mirrored = [board_frame({3: "P07", 5: "P12"})[:, ::-1].copy()] * (BOARD_MISSES + 6)
    cards, notes = board_news(mirrored, UPRIGHT)
    assert cards == [] and len(notes) == 1
    assert notes[0].startswith("board markers seen mirrored") and "Mirror on the camera screen" in notes[0]
    assert board_news(mirrored, Orientation(mirror=True)) == ([{3: "P07", 5: "P12"}], [])


def test_turning_the_picture_while_dice_lie_still_is_no_roll(d6_reader) -> None:
    """Turned on the camera screen, the whole picture moves at once and the die lands elsewhere in it:
    read on, that was a second roll of a die nobody threw."""
    still = die_at(1)
    frames = [*tumbling(7), *[still] * 8, *[still] * 10]
    seen: list = []
    feed = CameraFeed(lambda: Frames(frames), seen.append, mode="d6", fps=None, readers={"d6": d6_reader})
    feed.on_frame = lambda number: setattr(feed, "orientation", Orientation(180)) if number == 13 else None
    with feed:
        assert feed.ended.wait(30)
    assert dice_news(seen) == [("RollStarted", None), ("DieRead", 6)]
    assert feed.dice_in_view and feed.dice_in_view[0].box[0] > 640 / 2  # read where the turn put it
