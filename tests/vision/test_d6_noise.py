"""A noisy picture (a dim room's, lifted, or a cheap sensor's): its grain is blurred away before the dice are
looked for, and a picture as clean as the photo sets' is read as it is."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.d6_reader import NOISY, NOISY_BLUR
from vision.dice_render import render_dice_scene
from vision.frames import noise_level, quietened


def grainy(image: np.ndarray, exposure: float, noise: float, rng: np.random.Generator) -> np.ndarray:
    return np.clip(image.astype(np.float32) * exposure + rng.normal(0, noise, image.shape), 0, 255).astype(np.uint8)


def test_small_dice_in_a_dim_grainy_picture_are_found_and_read(d6_reader) -> None:
    """At a fifth of the exposure with noise of 8 levels, 49 of these 72 small dice (18-24 px) were read
    right, 70 now."""
    rng = np.random.default_rng(62)
    dice = right = 0
    for _ in range(16):
        image, boxes, values = render_dice_scene(rng, 640, 480, count=int(rng.integers(2, 7)), size_range=(18, 24))
        readings = d6_reader.read(grainy(image, 0.2, 8, rng))
        dice += len(boxes)
        right += sum(any(abs(r.box[0] + r.box[2] - box[0] - box[2]) < 16 and abs(r.box[1] + r.box[3] - box[1] - box[3])
                         < 16 and r.value == value for r in readings) for box, value in zip(boxes, values, strict=True))
    assert dice == 72 and right >= 68, right


@pytest.mark.parametrize("sigma", [8.0, 16.0, 24.0])
def test_the_noise_level_of_a_table_is_the_noise_put_on_it(sigma: float) -> None:
    """A plain table with dice on it: the dice's edges do not count as noise. Noise of so much in each colour
    is 0.67 of it in grey, whose weights average part of it away. (Under about 5 levels the steps between whole
    grey levels add their own.)"""
    rng = np.random.default_rng(int(sigma))
    image = render_dice_scene(rng, 640, 480, count=6)[0]
    table = cv2.GaussianBlur(image, (0, 0), 3)  # the render's own grain and texture smoothed away
    table[100:160, 100:160] = 240
    assert noise_level(table) < 1.0
    assert noise_level(grainy(table, 1.0, sigma, rng)) == pytest.approx(0.67 * sigma, rel=0.15)


def test_a_clean_picture_is_not_blurred_and_a_grainy_one_is() -> None:
    rng = np.random.default_rng(63)
    image = render_dice_scene(rng, 640, 480, count=3)[0]
    assert noise_level(image) < NOISY / 2 and quietened(image, NOISY, NOISY_BLUR) is image
    noisy = grainy(image, 1.0, 20, rng)
    assert noise_level(quietened(noisy, NOISY, NOISY_BLUR)) < noise_level(noisy) / 2


def test_a_frame_one_pixel_wide_has_no_noise_to_tell() -> None:
    assert noise_level(np.zeros((40, 1, 3), np.uint8)) == 0.0
