"""Frames no reader can use are told as such, and a few hot pixels do not black out a deep frame."""

from __future__ import annotations

import numpy as np
import pytest

from vision.dice_render import render_dice_scene
from vision.frames import as_bgr
from vision.motion import MotionGate
from vision.readings import DieReading
from vision.settle import dice_settler
from vision.temple_die import TempleDieReader

NOT_IMAGES = [
    np.full((48, 64, 3), "a"),
    np.zeros((48, 64, 3), dtype=[("a", np.uint8), ("b", np.float32)]),
    np.zeros((48, 64, 3), "datetime64[s]"),
    np.full((48, 64, 3), "x", object),
]


@pytest.mark.parametrize("index", range(len(NOT_IMAGES)))
def test_text_records_and_dates_are_no_usable_frame(d6_reader, index: int) -> None:
    frame = NOT_IMAGES[index]
    assert as_bgr(frame) is None
    assert d6_reader.read(frame) == []
    assert TempleDieReader.from_renders(per_face=1).read(frame) == []
    assert MotionGate().is_still(frame) is False

    class Reader:
        def read(self, frame: np.ndarray) -> list[DieReading]:
            return []

    assert dice_settler(Reader()).feed(frame) is None


def test_numbers_held_as_complex_or_objects_still_read() -> None:
    half = np.full((48, 64, 3), 0.5)
    assert as_bgr(half.astype(complex))[0, 0, 0] == 127
    assert as_bgr(half.astype(object))[0, 0, 0] == 127


def test_a_stuck_pixel_does_not_black_out_a_deep_frame(d6_reader) -> None:
    img, boxes, values = render_dice_scene(np.random.default_rng(4), 640, 480, count=3, size_range=(50, 70))
    ten_bit = img.astype(np.uint16) * 4  # 0..1020, as a 10-bit sensor sends it in 16-bit words
    ten_bit[5, 5] = 65535  # one stuck pixel
    unit = img.astype(np.float64) / 255.0
    unit[5, 5] = 1e6
    for frame in (ten_bit, unit):
        assert abs(int(as_bgr(frame)[240, 320].mean()) - int(img[240, 320].mean())) <= 2
        assert [r.value for r in d6_reader.read_boxes(frame, boxes)] == values
        assert sorted(r.value for r in d6_reader.read(frame)) == sorted(values)


def test_eight_bit_frames_pass_untouched_and_nan_is_no_light() -> None:
    frame = np.random.default_rng(1).integers(0, 256, (48, 64, 3), np.uint8)
    assert as_bgr(frame) is frame
    blank = np.full((48, 64, 3), np.nan, np.float32)
    blank[0, 0] = np.inf
    assert as_bgr(blank)[1, 1].tolist() == [0, 0, 0] and as_bgr(blank)[0, 0].tolist() == [255, 255, 255]
