"""A camera knocked over a plain tray with nothing else in view: only the dice can tell it was no throw.

The picture round the die is a felt of one colour, so `picture_shift` finds
nothing to follow; the die moved with the picture, its face turned as it was,
and nothing else moved. Videos written here (MJPG, real OpenCV), played
through the real feed into a real controller and a journalled Blackpool
session, and through `companion vision watch`.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.observations import DieRead, LinkChanged
from tests.vision.test_camera_knocked import HEIGHT, MARGIN, SIZE, WIDTH, Table, play, recorded, recorded_once
from vision.cli import main
from vision.dice_render import draw_face, paste_rotated
from vision.knock import moved_together
from vision.motion import picture_stayed
from vision.readings import DieReading

FELT = (70.0, 120.0, 50.0)  # BGR: a green felt tray filling the view
SKIN = (120, 160, 215)


class PlainTray(Table):
    """A felt tray of one colour under a lamp's soft pool of light, filling the camera's view."""

    def __init__(self, seed: int = 5) -> None:
        self.noise = np.random.default_rng(seed)
        h, w = HEIGHT + 2 * MARGIN, WIDTH + 2 * MARGIN
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        pool = 1.0 - 0.25 * (((xx - w / 2) / w) ** 2 + ((yy - h / 2) / h) ** 2)
        self.table = np.array(FELT, np.float32)[None, None, :] * pool[:, :, None]

    def view(self, die: tuple[int, tuple[float, float], float] | None = None, at: tuple[int, int] = (0, 0),
             hand: float = 0.0) -> np.ndarray:
        """What the camera at ``at`` sees; ``hand`` is how far (0..1) a hand reaches in from the bottom edge
        towards the picture's middle, drawn over the die."""
        img = self.scene(die)
        if hand > 0:
            tip = int(HEIGHT + 2 * MARGIN - hand * (HEIGHT / 2 + MARGIN + 60))
            cv2.rectangle(img, (MARGIN + 200, tip), (MARGIN + 330, HEIGHT + 2 * MARGIN), SKIN, -1)
        return self.shot(img, at)


FIVE = (5, (260.0, 220.0), 20.0)


def knocked_video(tmp_path: Path) -> str:
    """A 5 thrown and lying still; the camera knocked 28 px; still again; then a real throw elsewhere that
    shows 5 again."""

    def frames() -> list[np.ndarray]:
        tray = PlainTray()
        frames = [tray.view() for _ in range(20)] + tray.throw(*FIVE)
        frames += [tray.view(FIVE, at=(-8 * k, -5 * k)) for k in (1, 2, 3)]
        frames += [tray.view(FIVE, at=(-24, -14)) for _ in range(45)]
        return frames + tray.throw(5, (440.0, 330.0), 50.0)

    return recorded_once("knocked-plain.avi", tmp_path, frames)


def test_a_camera_knocked_over_a_plain_tray_is_no_roll(tmp_path: Path) -> None:
    """Nothing in view but the die: it was told as a new roll, and Blue was given Red's 5 again."""
    session, seen = play(knocked_video(tmp_path))
    assert [o.value for o in seen if isinstance(o, DieRead)] == [5, 5]
    assert [a["value"] for a in session.log] == [5, 5]  # the throw, then the real second throw; no knock between
    notes = [o.detail for o in seen if isinstance(o, LinkChanged) and "lie where they lay" in o.detail]
    assert len(notes) == 1 and notes[0].startswith("the dice moved 28 px all together"), notes


def test_watch_says_the_knock_over_a_plain_tray_is_no_roll(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`vision watch` judges as the feed does."""
    assert main(["vision", "watch", knocked_video(tmp_path)]) == 0
    said = [line.split("sure: ", 1)[1] for line in capsys.readouterr().out.splitlines() if "settled" in line]
    assert said == ["the table would take it", "the same dice where they lay: not a new roll",
                    "the table would take it"], said


def test_the_same_face_thrown_again_nearby_by_a_hand_is_a_roll(tmp_path: Path) -> None:
    """A hand comes in over the picture's edge, picks the 5 up and lays it 47 px off, turned as it was: the
    die alone looks knocked, but the hand moved where no die did, so it is a roll."""
    tray = PlainTray()
    again = (5, (300.0, 245.0), 20.0)
    frames = [tray.view() for _ in range(20)] + tray.throw(*FIVE)
    frames += [tray.view(FIVE, hand=k / 5) for k in range(1, 6)] + [tray.view(hand=1.0) for _ in range(3)]
    frames += [tray.view(again, hand=1 - k / 5) for k in range(1, 6)] + [tray.view(again) for _ in range(45)]
    session, seen = play(recorded(tmp_path / "laid-again.avi", frames))
    assert [o.value for o in seen if isinstance(o, DieRead)] == [5, 5]
    assert [a["value"] for a in session.log] == [5, 5]


def nothing_else(boxes: list) -> bool:
    """The gate saw nothing move beyond the dice's way."""
    return False


def _die(box: tuple[float, float, float, float], value: int = 5) -> DieReading:
    return DieReading(value, None, 0.97, box)


def test_the_dice_tell_a_knock_only_as_one_picture_moved() -> None:
    """Moved together with nothing else moving, the same faces turned the same way: a knock. Anything else: not."""
    tray = PlainTray()
    lying = tray.view(FIVE)
    box = (225.0, 185.0, 295.0, 255.0)
    moved = [_die((249.0, 199.0, 319.0, 269.0))]
    knock = moved_together([_die(box)], moved, lying, tray.view(FIVE, at=(-24, -14)), nothing_else)
    assert knock is not None and abs(knock.shift[0] - 24) < 1 and abs(knock.shift[1] - 14) < 1
    assert knock.told_by == "dice"
    # The same face turned 25 degrees further: thrown, landing on the same value.
    turned = tray.view((5, (284.0, 234.0), 45.0))
    assert moved_together([_die(box)], moved, lying, turned, nothing_else) is None
    # Something else moved in view on the way (a hand).
    assert moved_together([_die(box)], moved, lying, tray.view(FIVE, at=(-24, -14)), lambda boxes: True) is None
    # Another face where the die lay.
    assert moved_together([_die(box)], [_die(moved[0].box, 3)], lying, tray.view(FIVE, at=(-24, -14)),
                          nothing_else) is None
    # Moved farther than a knock moves a picture (200 px).
    far = tray.view((5, (460.0, 220.0), 20.0))
    assert moved_together([_die(box)], [_die((425.0, 185.0, 495.0, 255.0))], lying, far, nothing_else) is None


def test_two_dice_moved_apart_are_thrown() -> None:
    tray = PlainTray()
    three = (3, (450.0, 330.0), 60.0)
    before = tray.table[MARGIN:MARGIN + HEIGHT, MARGIN:MARGIN + WIDTH].astype(np.uint8).copy()
    for value, (cx, cy), angle in (FIVE, three):
        paste_rotated(before, draw_face(value, SIZE, (245, 245, 245), (20, 20, 20)), (cx, cy), angle)
    after = tray.table[MARGIN:MARGIN + HEIGHT, MARGIN:MARGIN + WIDTH].astype(np.uint8).copy()
    paste_rotated(after, draw_face(5, SIZE, (245, 245, 245), (20, 20, 20)), (284, 234), 20)
    paste_rotated(after, draw_face(3, SIZE, (245, 245, 245), (20, 20, 20)), (430, 300), 60)
    dice = [_die((225.0, 185.0, 295.0, 255.0)), _die((415.0, 295.0, 485.0, 365.0), 3)]
    now = [_die((249.0, 199.0, 319.0, 269.0)), _die((395.0, 265.0, 465.0, 335.0), 3)]
    assert moved_together(dice, now, before, after, lambda boxes: False) is None


def test_a_table_with_grain_that_stayed_says_so() -> None:
    """Where the table round the die has grain and did not move, the die moved alone: no knock, whatever the
    die looks like. On the plain tray the picture cannot tell either way."""
    grain = Table()
    box = [(225.0, 185.0, 295.0, 255.0), (249.0, 199.0, 319.0, 269.0)]
    lying, slid = grain.view(FIVE), grain.view((5, (284.0, 234.0), 20.0))
    assert picture_stayed(lying, slid, (24.0, 14.0), box)
    assert moved_together([_die(box[0])], [_die(box[1])], lying, slid, lambda boxes: False) is None
    assert not picture_stayed(lying, grain.view(FIVE, at=(-24, -14)), (24.0, 14.0), box)
    plain = PlainTray()
    assert not picture_stayed(plain.view(FIVE), plain.view((5, (284.0, 234.0), 20.0)), (24.0, 14.0), box)
