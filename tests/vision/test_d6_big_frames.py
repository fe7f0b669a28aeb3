"""Frames bigger than the photo sets': a 1920x1080 webcam over a table, its dice 26-34 px across.

The fine look shrinks such a frame six times, where a heap of these dice is
one blob the classifier refuses, and the far look at 640 px still sees them
under 14 px. The frames are written as PNG files and read back as a camera
tool would give them.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.vision.test_d6_reader import RecordingNet
from vision.dice_render import background, render_dice_scene


def heap_on_a_big_table(seed: int, folder: Path) -> tuple[np.ndarray, list[int]]:
    """Eight dice in a 400x300 px heap somewhere on a 1920x1080 table, through a PNG file."""
    rng = np.random.default_rng(seed)
    frame = background(rng, 1920, 1080)
    heap, _, values = render_dice_scene(rng, 400, 300, count=8, size_range=(26, 34))
    x, y = int(rng.integers(0, 1920 - 400)), int(rng.integers(0, 1080 - 300))
    frame[y:y + 300, x:x + 400] = heap
    path = folder / f"heap_{seed}.png"
    assert cv2.imwrite(str(path), frame)
    return cv2.imread(str(path), cv2.IMREAD_COLOR), values


@pytest.mark.parametrize("seed", [3, 6, 13, 15])
def test_a_heap_of_small_dice_in_a_1080p_frame_is_found(d6_reader, tmp_path: Path, seed: int) -> None:
    """The fine look kept no die here and the far look was never called: each heap came back as no dice."""
    frame, values = heap_on_a_big_table(seed, tmp_path)
    assert sorted(r.value for r in d6_reader.read(frame)) == sorted(values)


@pytest.mark.parametrize("seed", [4, 10])
def test_dice_still_small_at_640_px_are_looked_at_at_1280(d6_reader, tmp_path: Path, seed: int,
                                                          monkeypatch) -> None:
    """At 640 px these dice are 9-12 px: one or two of the eight were lost. The frame has the pixels for a
    look at twice that, which finds them all."""
    frame, values = heap_on_a_big_table(seed, tmp_path)
    net = RecordingNet(d6_reader.far_detector)
    monkeypatch.setattr(d6_reader, "far_detector", net)
    assert sorted(r.value for r in d6_reader.read(frame)) == sorted(values)
    # A look at 640 px, then one at 1280 over the heap's surroundings, not the whole 1280x720 it would be.
    (_, _, h640, w640), (_, _, h1280, w1280) = net.shapes
    assert h1280 * w1280 > 2 * h640 * w640 and h1280 * w1280 < 0.6 * 1280 * 720, net.shapes


def test_a_640x480_frame_never_pays_for_the_bigger_frames_looks(d6_reader, tmp_path: Path, monkeypatch) -> None:
    """The same heap shrunk into a 640x480 frame (dice 9-11 px) is looked at once at 640 px, as before."""
    frame, _ = heap_on_a_big_table(3, tmp_path)
    small = cv2.resize(frame[:, 240:1680], (640, 480), interpolation=cv2.INTER_AREA)
    net = RecordingNet(d6_reader.far_detector)
    monkeypatch.setattr(d6_reader, "far_detector", net)
    d6_reader.read(small)
    assert len(net.shapes) <= 1 and all(max(shape[2:]) <= 640 for shape in net.shapes), net.shapes
    net.shapes.clear()
    d6_reader.read(np.full((480, 640, 3), 120, np.uint8))  # an empty tray: no look at all
    assert net.shapes == []


@pytest.mark.parametrize("seed", [2, 5, 22, 24])
def test_a_heap_the_fine_look_keeps_as_one_big_die_is_looked_at_again(d6_reader, tmp_path: Path, seed: int) -> None:
    """Here the fine look's blob passed the classifier as one die (140-450 px, unsurely read): the frame came back
    as that one die, whose far look was never taken because it looked big."""
    frame, values = heap_on_a_big_table(seed, tmp_path)
    assert sorted(r.value for r in d6_reader.read(frame)) == sorted(values)


def test_big_dice_read_surely_and_a_close_die_pay_for_no_far_look(d6_reader, monkeypatch) -> None:
    """Dice 80-130 px in a 1920x1080 frame (a camera mounted as the README asks) are read surely, and a die held
    close to the camera is the near look's: neither is looked at again at 640 px, where the far look would find
    a close die's pips as dice of their own."""
    net = RecordingNet(d6_reader.far_detector)
    monkeypatch.setattr(d6_reader, "far_detector", net)
    image, _, values = render_dice_scene(np.random.default_rng(7101), 1920, 1080, size_range=(80, 130))
    assert sorted(r.value for r in d6_reader.read(image)) == sorted(values)
    image, _, values = render_dice_scene(np.random.default_rng(7200), 1920, 1080, count=1, size_range=(450, 650))
    assert [r.value for r in d6_reader.read(image)] == values
    assert net.shapes == []
