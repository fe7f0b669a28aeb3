"""The top-down dice renderer's paste and the temple die's glyph paste: blended where the sprite lies alone, the
picture the same as blended whole."""

from __future__ import annotations

import cv2
import numpy as np

from vision.dice_render import draw_face, paste_rotated
from vision.temple_die_render import draw_glyph, paste_glyph


def pasted_whole(canvas: np.ndarray, sprite: np.ndarray, centre: tuple[float, float], angle: float) -> np.ndarray:
    """The paste as it was: the sprite warped onto the whole picture and every pixel blended."""
    h, w = sprite.shape[:2]
    matrix = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
    matrix[0, 2] += centre[0] - w / 2
    matrix[1, 2] += centre[1] - h / 2
    warped = cv2.warpAffine(sprite, matrix, (canvas.shape[1], canvas.shape[0]), flags=cv2.INTER_LINEAR)
    alpha = warped[:, :, 3:4].astype(np.float32) / 255.0
    return (canvas * (1 - alpha) + warped[:, :, :3] * alpha).astype(np.uint8)


def test_a_die_pasted_where_it_lies_gives_the_picture_blended_whole() -> None:
    """Dice of every size and turn, inside, across the edge of and wholly outside pictures of bytes or floats."""
    rng = np.random.default_rng(11)
    for _ in range(50):
        width, height = int(rng.integers(120, 700)), int(rng.integers(120, 500))
        size = int(rng.integers(10, 120))
        face = draw_face(int(rng.integers(1, 7)), size, (245, 245, 245), (20, 20, 20))
        centre = (float(rng.uniform(-100, width + 100)), float(rng.uniform(-100, height + 100)))
        angle = float(rng.uniform(0, 360))
        for canvas in (rng.integers(0, 256, (height, width, 3), dtype=np.uint8),
                       rng.uniform(-20, 280, (height, width, 3)).astype(np.float32)):
            wanted = pasted_whole(canvas, face, centre, angle)
            paste_rotated(canvas, face, centre, angle)
            assert np.array_equal(canvas, wanted), (width, height, size, centre, angle, canvas.dtype)


def glyph_pasted_whole(img: np.ndarray, sprite: np.ndarray, centre: tuple[float, float], angle: float) -> np.ndarray:
    """The temple die's glyph paste as it was: warped onto the whole picture, every pixel blended."""
    h, w = sprite.shape[:2]
    matrix = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
    matrix[0, 2] += centre[0] - w / 2
    matrix[1, 2] += centre[1] - h / 2
    warped = cv2.warpAffine(sprite, matrix, (img.shape[1], img.shape[0])).astype(np.float32)
    alpha = warped[:, :, 3:4] / 255.0
    return img * (1 - alpha) + warped[:, :, :3] * alpha


def test_a_temple_die_glyph_pasted_where_it_lies_gives_the_picture_blended_whole() -> None:
    """Every value in both colours, of every size and turn, inside, across the edge of and wholly outside float
    pictures (the renderer's, before its light, blur and noise)."""
    rng = np.random.default_rng(12)
    values = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "X"]
    for n in range(60):
        width, height = int(rng.integers(120, 700)), int(rng.integers(120, 500))
        glyph = draw_glyph(values[n % len(values)], ("red", "white")[n % 2], int(rng.integers(8, 60)))
        centre = (float(rng.uniform(-80, width + 80)), float(rng.uniform(-80, height + 80)))
        angle = float(rng.uniform(0, 360))
        img = rng.uniform(-20, 280, (height, width, 3)).astype(np.float32)
        wanted = glyph_pasted_whole(img, glyph, centre, angle)
        paste_glyph(img, glyph, centre, angle)
        assert img.dtype == wanted.dtype and np.array_equal(img, wanted), (width, height, centre, angle)
