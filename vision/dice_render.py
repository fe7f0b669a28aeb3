"""Synthetic six-sided dice scenes drawn with OpenCV.

The project renders its own dice so tests never need a camera or the shared
photo sets, and so training sees die colours and backgrounds the public
photos lack. Drawn top-down with a soft shadow; good enough to exercise the
whole pipeline, not a substitute for real photos.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.readings import Box

# Pip centres on a unit face, per value (x, y in 0..1).
PIP_LAYOUT: dict[int, list[tuple[float, float]]] = {
    1: [(0.5, 0.5)],
    2: [(0.27, 0.27), (0.73, 0.73)],
    3: [(0.25, 0.25), (0.5, 0.5), (0.75, 0.75)],
    4: [(0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)],
    5: [(0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)],
    6: [(0.27, 0.23), (0.73, 0.23), (0.27, 0.5), (0.73, 0.5), (0.27, 0.77), (0.73, 0.77)],
}

DIE_COLOURS = [
    ((245, 245, 245), (20, 20, 20)),
    ((30, 30, 200), (250, 250, 250)),
    ((40, 140, 30), (250, 250, 250)),
    ((30, 200, 230), (10, 10, 10)),
    ((160, 60, 20), (250, 250, 250)),
    ((20, 20, 20), (250, 250, 250)),
    ((120, 40, 120), (240, 240, 240)),
    ((210, 210, 240), (40, 40, 170)),
]


def draw_face(value: int, size: int, body: tuple[int, int, int], pip: tuple[int, int, int]) -> np.ndarray:
    """A square top face of a die as a BGRA image (alpha carries the rounded corners)."""
    scale = 4  # draw big, then shrink: cheap anti-aliasing
    big = size * scale
    face = np.zeros((big, big, 4), np.uint8)
    radius = big // 7
    cv2.rectangle(face, (radius, 0), (big - radius, big), (*body, 255), -1)
    cv2.rectangle(face, (0, radius), (big, big - radius), (*body, 255), -1)
    for cx, cy in ((radius, radius), (big - radius, radius), (radius, big - radius), (big - radius, big - radius)):
        cv2.circle(face, (cx, cy), radius, (*body, 255), -1)
    pip_radius = int(big * (0.12 if value == 1 else 0.085))
    for px, py in PIP_LAYOUT[value]:
        cv2.circle(face, (int(px * big), int(py * big)), pip_radius, (*pip, 255), -1, cv2.LINE_AA)
    return cv2.resize(face, (size, size), interpolation=cv2.INTER_AREA)


def paste_rotated(canvas: np.ndarray, sprite: np.ndarray, centre: tuple[float, float], angle: float) -> None:
    """Alpha-blend a BGRA sprite onto a BGR canvas, rotated about its centre.

    Blended only where the rotated sprite lies (its alpha's bounding box): elsewhere the blend gave each pixel
    back as it was, over the whole picture in floats, about 9 times the work for a die 60 px across on a 640x480
    table. A float canvas has the rest of its pixels rounded to bytes, as the whole-picture blend rounded them.
    """
    h, w = sprite.shape[:2]
    matrix = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
    matrix[0, 2] += centre[0] - w / 2
    matrix[1, 2] += centre[1] - h / 2
    warped = cv2.warpAffine(sprite, matrix, (canvas.shape[1], canvas.shape[0]), flags=cv2.INTER_LINEAR)
    x, y, box_w, box_h = cv2.boundingRect(np.ascontiguousarray(warped[:, :, 3]))
    spot, warped = canvas[y:y + box_h, x:x + box_w], warped[y:y + box_h, x:x + box_w]
    alpha = warped[:, :, 3:4].astype(np.float32) / 255.0
    blended = (spot * (1 - alpha) + warped[:, :, :3] * alpha).astype(np.uint8)
    if canvas.dtype != np.uint8:
        canvas[:] = canvas.astype(np.uint8)
    spot[:] = blended


def background(rng: np.random.Generator, width: int, height: int) -> np.ndarray:
    """A plain table surface with low-frequency light and fine texture."""
    base = rng.integers(40, 230, size=3)
    img = np.empty((height, width, 3), np.float32)
    img[:] = base
    light = cv2.resize(rng.normal(0, 25, (4, 4)).astype(np.float32), (width, height), interpolation=cv2.INTER_CUBIC)
    img += light[:, :, None]
    img += rng.normal(0, 6, (height, width, 1))
    return np.clip(img, 0, 255).astype(np.uint8)


def speckled_background(rng: np.random.Generator, width: int, height: int) -> np.ndarray:
    """A granite or terrazzo table: a plain surface strewn with grains of a few tones.

    Clusters of dark grains look like pips at a die's size, so such a table is
    where a reader trained on plain trays finds dice that are not there.
    """
    img = background(rng, width, height).astype(np.float32)
    base = float(img.mean())
    # Dark grains, light grains, and grains a little off the table's own tone.
    tones = [float(rng.uniform(0, 60)), float(rng.uniform(180, 255)),
             float(np.clip(base + rng.uniform(-70, 70), 0, 255))]
    grains = int(width * height * rng.uniform(0.002, 0.012))
    for _ in range(grains):
        centre = (int(rng.integers(width)), int(rng.integers(height)))
        axes = (int(rng.integers(1, 4)), int(rng.integers(1, 4)))
        tone = tones[int(rng.integers(len(tones)))]
        cv2.ellipse(img, centre, axes, float(rng.uniform(0, 180)), 0, 360, (tone, tone, tone), -1, cv2.LINE_AA)
    return np.clip(cv2.GaussianBlur(img, (0, 0), 0.6), 0, 255).astype(np.uint8)


def render_dice_scene(
    rng: np.random.Generator,
    width: int = 640,
    height: int = 480,
    count: int | None = None,
    size_range: tuple[int, int] = (28, 70),
    values: list[int] | None = None,
    speckled: bool = False,
) -> tuple[np.ndarray, list[tuple[float, float, float, float]], list[int]]:
    """A scene of non-overlapping dice; returns (image, boxes as x0,y0,x1,y1, values).

    `speckled` lays them on a granite-like table instead of a plain one.
    """
    img = (speckled_background if speckled else background)(rng, width, height)
    if values is None:
        values = [int(v) for v in rng.integers(1, 7, size=count or int(rng.integers(1, 7)))]
    boxes: list[tuple[float, float, float, float]] = []
    placed: list[int] = []
    for value in values:
        size = int(rng.integers(size_range[0], size_range[1] + 1))
        half_diag = size * 0.75
        for _ in range(50):
            cx = float(rng.uniform(half_diag, width - half_diag))
            cy = float(rng.uniform(half_diag, height - half_diag))
            if all(abs(cx - (b[0] + b[2]) / 2) > half_diag * 2 or abs(cy - (b[1] + b[3]) / 2) > half_diag * 2
                   for b in boxes):
                break
        else:
            continue
        body, pip = DIE_COLOURS[int(rng.integers(len(DIE_COLOURS)))]
        angle = float(rng.uniform(0, 90))
        face = draw_face(value, size, body, pip)
        shadow = face.copy()
        shadow[:, :, :3] = 0
        shadow[:, :, 3] = (shadow[:, :, 3] * 0.35).astype(np.uint8)
        shadow = cv2.GaussianBlur(shadow, (0, 0), max(1.0, size / 12))
        paste_rotated(img, shadow, (cx + size * 0.08, cy + size * 0.1), angle)
        paste_rotated(img, face, (cx, cy), angle)
        rad = np.deg2rad(angle % 90)
        extent = size * (abs(np.cos(rad)) + abs(np.sin(rad))) / 2
        boxes.append((cx - extent, cy - extent, cx + extent, cy + extent))
        placed.append(value)
    img = cv2.GaussianBlur(img, (0, 0), float(rng.uniform(0.3, 1.0)))
    return img, boxes, placed


def render_far_dice_scene(rng: np.random.Generator, count: int = 8, tray: bool = False) -> tuple[np.ndarray, list[int]]:
    """Dice 10-13 px across in a 640x480 frame, as a camera far from the table sees them.

    Drawn twice as big and shrunk, then JPEG-coded, so the dice are as soft as
    real small ones; drawn at that size directly they are crisp and too easy.
    They are strewn over the whole frame, or with `tray` lie in a tray a third
    of the frame across somewhere on the table (`render_far_tray_scene`).
    """
    if tray:
        image, values, _ = render_far_tray_scene(rng, count)
        return image, values
    img, _, values = render_dice_scene(rng, 1280, 960, count=count, size_range=(20, 26))
    return _far(img), values


def render_far_tray_scene(rng: np.random.Generator, count: int = 8) -> tuple[np.ndarray, list[int], Box]:
    """Far dice in a tray 224x168 px somewhere on a 640x480 table, and the tray's box (x0, y0, x1, y1): what a
    café marks as its tray area (`vision.tray_area`)."""
    img = background(rng, 1280, 960)
    inner, _, values = render_dice_scene(rng, 448, 336, count=count, size_range=(20, 26))
    x, y = int(rng.integers(0, 1280 - 448)), int(rng.integers(0, 960 - 336))
    img[y:y + 336, x:x + 448] = inner
    return _far(img), values, (x / 2, y / 2, x / 2 + 224, y / 2 + 168)


def _far(img: np.ndarray) -> np.ndarray:
    """A 1280x960 drawing as a far camera's 640x480 JPEG frame."""
    img = cv2.resize(img, (640, 480), interpolation=cv2.INTER_AREA)
    coded = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 80])[1]
    return cv2.imdecode(coded, cv2.IMREAD_COLOR)
