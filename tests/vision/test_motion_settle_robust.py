"""The motion gate and the settler on frames that are no picture, or a strange one."""

from __future__ import annotations

import numpy as np
import pytest

from vision.dice_render import render_dice_scene
from vision.motion import GATE_TALLEST, GATE_WIDTH, MotionGate
from vision.readings import DieReading
from vision.settle import dice_settler


@pytest.mark.parametrize(("shape", "small"), [
    ((480, 640, 3), (120, 160)),
    ((1080, 1920, 3), (90, 160)),
    ((640, 480, 3), (213, 160)),  # a camera turned on its side keeps its gate picture
    ((8, 100000, 3), (1, 160)),
    ((100000, 8, 3), (GATE_TALLEST, 1)),  # scaled to the gate's width, 2 million rows
])
def test_the_gate_picture_is_small_whatever_the_frame_s_shape(shape: tuple, small: tuple) -> None:
    gate = MotionGate()
    gate.motion(np.full(shape, 90, np.uint8))
    assert gate.previous.shape == small and max(small) <= max(GATE_WIDTH, GATE_TALLEST)


class Steady:
    """A reader that sees one die wherever it looks, with the confidence it is given."""

    def __init__(self, confidence: float = 0.9) -> None:
        self.confidence = confidence

    def read(self, frame: np.ndarray) -> list[DieReading]:
        return [DieReading(3, None, self.confidence, (0, 0, 10, 10))]


@pytest.mark.parametrize("glitch", [
    None, np.zeros((1, 1, 3), np.uint8), np.zeros((4, 4, 4, 4), np.uint8), np.full((48, 64, 3), "a"),
])
def test_a_glitch_between_still_frames_reports_the_dice_once(glitch: object) -> None:
    img, _, _ = render_dice_scene(np.random.default_rng(0), 640, 480, count=1)
    settler = dice_settler(Steady())
    out = [settler.feed(img) for _ in range(5)]
    before = (settler.gate.previous, settler.gate.still_count, list(settler.history), settler.reported)
    out.append(settler.feed(glitch))
    assert (settler.gate.previous, settler.gate.still_count, list(settler.history), settler.reported) == before
    out += [settler.feed(img) for _ in range(5)]
    assert [i for i, o in enumerate(out) if o] == [3]


@pytest.mark.parametrize("confidence", [float("nan"), float("inf")])
def test_a_confidence_that_is_no_number_is_asked(confidence: float) -> None:
    img = np.full((48, 64, 3), 90, np.uint8)
    settler = dice_settler(Steady(confidence))
    (settled,) = [s for s in (settler.feed(img) for _ in range(5)) if s]
    assert settled.needs_confirm and settled.confidence == 0.0
