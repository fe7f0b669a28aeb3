"""The one way a die is cut out of a frame for the face classifier.

Training and reading must crop identically, so both import this module.
A square around the box, a little larger than it, copes with both box
conventions in the photo sets (whole die, or only the top face's pips).
"""

from __future__ import annotations

import math

import cv2
import numpy as np

CROP_SIZE = 32
CROP_MARGIN = 1.25


def crop_die(
    image: np.ndarray,
    box: tuple[float, float, float, float],
    size: int = CROP_SIZE,
    margin: float = CROP_MARGIN,
) -> np.ndarray:
    """A size x size BGR crop centred on the box; pixels past the frame's edge replicate the border.

    A box that is no place in the frame (a coordinate not finite) gives a black crop, as one wholly off
    the frame does: a crop is never worth a crash. A square far bigger than the frame is shrunk before
    its border is padded, so its cost stays the frame's instead of growing with its area (a 40000 px
    box took 7 GB); a die's square, inside the frame or partly past its edge, is padded first as
    training cropped it.
    """
    if not all(math.isfinite(v) for v in box):
        return np.zeros((size, size, 3), np.uint8)
    x0, y0, x1, y1 = box
    side = max(x1 - x0, y1 - y0, 2.0) * margin
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    left, top = round(cx - side / 2), round(cy - side / 2)
    span = max(2, round(side))
    h, w = image.shape[:2]
    pad = [max(0, -top), max(0, top + span - h), max(0, -left), max(0, left + span - w)]
    roi = image[max(0, top):min(h, top + span), max(0, left):min(w, left + span)]
    if roi.size == 0:
        return np.zeros((size, size, 3), np.uint8)
    if span > 2 * max(h, w, size):
        scale = size / span
        roi = cv2.resize(roi, (max(1, round(roi.shape[1] * scale)), max(1, round(roi.shape[0] * scale))),
                         interpolation=cv2.INTER_AREA)
        roi = cv2.copyMakeBorder(roi, *(round(p * scale) for p in pad), cv2.BORDER_REPLICATE)
        return cv2.resize(roi, (size, size), interpolation=cv2.INTER_LINEAR)
    if any(pad):
        roi = cv2.copyMakeBorder(roi, *pad, cv2.BORDER_REPLICATE)
    interp = cv2.INTER_AREA if span > size else cv2.INTER_LINEAR
    return cv2.resize(roi, (size, size), interpolation=interp)


def crops_to_blob(crops: list[np.ndarray]) -> np.ndarray:
    """Stack crops into the N x 3 x H x W float blob the classifier takes (0..1, BGR)."""
    if not crops:
        return np.zeros((0, 3, CROP_SIZE, CROP_SIZE), np.float32)  # never fed to a net: callers skip empty input
    stack = np.stack(crops).astype(np.float32) / 255.0
    return np.ascontiguousarray(stack.transpose(0, 3, 1, 2))
