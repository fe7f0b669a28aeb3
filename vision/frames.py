"""The one frame layout every reader works on: 8-bit BGR.

Real capture devices hand over more than that: grey frames (2-D, or with a
single channel axis), packed YUYV (two channels, luma first) when a driver's
colour conversion is off, BGRA, and 16-bit or float frames. Turning them all
into one layout here keeps each reader's maths on a single case, and lets a
frame no reader can use be told apart from a frame with nothing in it.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

MIN_SIDE = 8  # below this no die or board can show; resizing such slivers trips OpenCV's asserts
BRIGHTNESS_KINDS = "biuf"  # bool, signed, unsigned, float: the dtypes whose values are brightness
WHITE_PERCENTILE = 99.9  # a deep frame's white: above it, a few stuck or hot pixels are clipped, not made white
LEVEL_SAMPLES = 1 << 16  # pixels the white level is judged on: a 4000x3000 frame's in milliseconds, not a second


def decode_image(data: bytes) -> np.ndarray | None:
    """A picture file's bytes as BGR, or None when they are no image OpenCV can read."""
    try:
        return cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    except cv2.error:  # an empty file, among others
        return None


def image_file(path: Path) -> np.ndarray | None:
    """A picture file read by Python and decoded by OpenCV, or None when it cannot be read or is no image.

    Not `cv2.imread`: given a name that is not UTF-8 (a photo copied from an
    old camera's card, a folder named on another machine) it killed the whole
    process with a segmentation fault, where this reads the file like any other.
    """
    try:
        return decode_image(path.read_bytes())
    except OSError:
        return None


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
        numbers = brightness(frame)
        if numbers is None:
            return None
        frame = to_uint8(numbers)
    if frame.ndim == 2:
        return cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    if frame.shape[2] == 3:
        return frame
    return np.ascontiguousarray(frame[:, :, :3])  # BGRA (or more channels): colour comes first


def colourless(frame: np.ndarray | None) -> bool:
    """Whether an 8-bit BGR frame has no colour: grey, as `as_bgr` makes a mono or YUYV camera's frame.
    Every fourth pixel each way tells: no colour camera sends thousands of pixels exactly grey."""
    if frame is None:
        return False
    sample = frame[::4, ::4]
    return bool((sample[:, :, 0] == sample[:, :, 1]).all() and (sample[:, :, 1] == sample[:, :, 2]).all())


def brightness(frame: np.ndarray) -> np.ndarray | None:
    """The frame's values as numbers, or None for text, records or dates: those have no brightness, and
    converting them raised inside every reader instead of being told as no usable frame."""
    if frame.dtype.kind in BRIGHTNESS_KINDS:
        return frame
    if frame.dtype.kind == "c":
        return frame.real  # as numpy's own cast to float took it, without its warning
    if frame.dtype.kind == "O":
        try:
            return frame.astype(np.float64)
        except (TypeError, ValueError, OverflowError):
            return None
    return None


def to_uint8(frame: np.ndarray) -> np.ndarray:
    """Deeper frames scaled so their white level is white; float frames in 0..1 kept as they are.

    The white level is a high percentile, not the brightest value: one stuck
    pixel at 65535 in a 10-bit camera's frame made the whole picture black, and
    "no dice" was read on it. It is judged on a strided sample, and the frame is
    scaled straight into one float32 copy: a 12-megapixel float64 frame took a
    second in every reader, it now takes a sixth.
    """
    step = max(1, int(np.sqrt(frame.shape[0] * frame.shape[1] / LEVEL_SAMPLES)))
    with np.errstate(over="ignore", invalid="ignore"):  # float64 beyond float32's range: taken as white below
        sample = frame[::step, ::step].astype(np.float32)
        sample = sample[np.isfinite(sample)]
        top = float(np.percentile(sample, WHITE_PERCENTILE)) if sample.size else 0.0
        scale = 255.0 if frame.dtype.kind == "f" and top <= 1.0 else 255.0 / max(top, 1.0)
        values = np.multiply(frame, scale, dtype=np.float32, casting="unsafe")
    np.fmax(values, 0.0, out=values)  # fmax, not clip: a NaN pixel becomes 0, no light, as clip would keep it NaN
    np.fmin(values, 255.0, out=values)
    return values.astype(np.uint8)
