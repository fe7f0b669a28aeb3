"""The one frame layout every reader works on: 8-bit BGR.

Real capture devices hand over more than that: grey frames (2-D, or with a
single channel axis), packed YUYV (two channels, luma first) when a driver's
colour conversion is off, BGRA, and 16-bit or float frames. Turning them all
into one layout here keeps each reader's maths on a single case, and lets a
frame no reader can use be told apart from a frame with nothing in it.
"""

from __future__ import annotations

import cv2
import numpy as np

MIN_SIDE = 8  # below this no die or board can show; resizing such slivers trips OpenCV's asserts


def unusable_text(frame: object) -> str:
    """What a frame no reader can use is, so a 1 px photo or a camera in a wrong mode is not read as "no dice"."""
    shape = "x".join(map(str, getattr(frame, "shape", ()))) or "no shape"
    kind = getattr(frame, "dtype", type(frame).__name__)
    return f"no usable frame ({shape}, {kind}): empty, too small or not an image"


def as_bgr(frame: object) -> np.ndarray | None:
    """The frame as 8-bit BGR, or None when it is not an image any reader can use."""
    if not isinstance(frame, np.ndarray) or frame.size == 0:
        return None
    if frame.ndim == 3 and frame.shape[2] in (1, 2):
        frame = frame[:, :, 0]  # grey with a channel axis, or YUYV's luma
    if frame.ndim not in (2, 3) or min(frame.shape[:2]) < MIN_SIDE:
        return None
    if frame.dtype != np.uint8:
        frame = to_uint8(frame)
    if frame.ndim == 2:
        return cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    if frame.shape[2] == 3:
        return frame
    return np.ascontiguousarray(frame[:, :, :3])  # BGRA (or more channels): colour comes first


def to_uint8(frame: np.ndarray) -> np.ndarray:
    """Deeper frames scaled so their brightest pixel is white; float frames in 0..1 kept as they are."""
    values = np.nan_to_num(frame.astype(np.float32), nan=0.0, posinf=0.0, neginf=0.0)
    top = float(values.max())
    scale = 255.0 if frame.dtype.kind == "f" and top <= 1.0 else 255.0 / max(top, 1.0)
    return np.clip(values * scale, 0, 255).astype(np.uint8)
