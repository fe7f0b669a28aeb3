"""The one frame layout every reader works on: 8-bit BGR.

Real capture devices hand over more than that: grey frames (2-D, or with a
single channel axis), packed YUYV (two channels, luma first) when a driver's
colour conversion is off, BGRA, and 16-bit or float frames. Turning them all
into one layout here keeps each reader's maths on a single case, and lets a
frame no reader can use be told apart from a frame with nothing in it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np

MIN_SIDE = 8  # below this no die or board can show; resizing such slivers trips OpenCV's asserts
BRIGHTNESS_KINDS = "biuf"  # bool, signed, unsigned, float: the dtypes whose values are brightness
WHITE_PERCENTILE = 99.9  # a deep frame's white: above it, a few stuck or hot pixels are clipped, not made white
LEVEL_SAMPLES = 1 << 16  # pixels the white level is judged on: a 4000x3000 frame's in milliseconds, not a second
MAX_PIXELS = 128_000_000  # a 108-megapixel phone photo decodes (384 MB as BGR); a Pi has 1-8 GB in all


def header_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) as a PNG, JPEG, BMP or WebP file's header gives them; None for other files.

    Read before decoding, because the header alone can ask for any size: a
    1 MB PNG of 20000 x 20000 pixels took 2.4 GB and 19 s to decode, which on
    a Pi ends the whole app, not just the photo.
    """
    if data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR" and len(data) >= 24:
        return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    if data[:2] == b"\xff\xd8":
        return _jpeg_size(data)
    if data[:2] == b"BM" and len(data) >= 26:
        if int.from_bytes(data[14:18], "little") == 12:  # the old OS/2 header: 16-bit sides
            return int.from_bytes(data[18:20], "little"), int.from_bytes(data[20:22], "little")
        width = int.from_bytes(data[18:22], "little", signed=True)
        height = int.from_bytes(data[22:26], "little", signed=True)  # negative: rows stored top down
        return abs(width), abs(height)
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP" and len(data) >= 30:
        chunk = data[12:16]
        if chunk == b"VP8 ":
            return int.from_bytes(data[26:28], "little") & 0x3FFF, int.from_bytes(data[28:30], "little") & 0x3FFF
        if chunk == b"VP8L":
            bits = int.from_bytes(data[21:25], "little")
            return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
        if chunk == b"VP8X":
            return int.from_bytes(data[24:27], "little") + 1, int.from_bytes(data[27:30], "little") + 1
    return None


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    """The sides in a JPEG's start-of-frame segment, walked to past the segments before it (EXIF, tables)."""
    at = 2
    while at + 9 <= len(data):
        if data[at] != 0xFF:
            return None
        marker = data[at + 1]
        if marker == 0xFF:  # fill bytes before a marker
            at += 1
            continue
        if 0xD0 <= marker <= 0xD9 or marker == 0x01:  # markers with no length
            at += 2
            continue
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            return int.from_bytes(data[at + 7 : at + 9], "big"), int.from_bytes(data[at + 5 : at + 7], "big")
        at += 2 + int.from_bytes(data[at + 2 : at + 4], "big")
    return None


def too_large(data: bytes) -> str | None:
    """Why a picture file is not decoded at all ("20000 x 20000 pixels, ..."), or None when it may be."""
    size = header_size(data)
    if size is None or size[0] * size[1] <= MAX_PIXELS:
        return None
    width, height = size
    return (f"{width} x {height} pixels ({width * height / 1e6:.0f} megapixels), more than the "
            f"{MAX_PIXELS / 1e6:.0f} read: save it smaller")


@contextlib.contextmanager
def quiet_opencv(errors_too: bool = False) -> Iterator[None]:
    """Keep OpenCV's own warnings about a missing camera out of the log (and its errors, ``errors_too``).

    A kiosk retries an unplugged camera every few seconds all day; OpenCV would
    write two backend warnings each time, next to our one plain SourceError.
    The teach step silences errors too: a cut-short photo's "PNG input buffer
    is incomplete" read as though teaching had failed, though the photo is
    passed over all the same.
    """
    logging = cv2.utils.logging
    level = logging.getLogLevel()
    logging.setLogLevel(logging.LOG_LEVEL_SILENT if errors_too else logging.LOG_LEVEL_ERROR)
    try:
        yield
    finally:
        logging.setLogLevel(level)


def decode_image(data: bytes) -> np.ndarray | None:
    """A picture file's bytes as BGR, or None when they are no image OpenCV can read or `too_large` to read.

    OpenCV's own lines are kept off stderr: a TIFF of 32-bit float samples
    (a scientific camera's, an export from an editor) wrote a warning of its
    own beside our sentence. Its colour reader cannot take one; read as it is
    and scaled as a deep camera's frame is (`as_bgr`), it is a picture like any.
    """
    if too_large(data) is not None:
        return None
    buffer = np.frombuffer(data, np.uint8)
    with quiet_opencv(errors_too=True):
        try:
            image = cv2.imdecode(buffer, cv2.IMREAD_COLOR)
            if image is None and data[:4] in (b"II*\x00", b"MM\x00*"):  # a TIFF: maybe of samples IMREAD_COLOR refuses
                image = as_bgr(cv2.imdecode(buffer, cv2.IMREAD_UNCHANGED))
        except cv2.error:  # an empty file, among others
            return None
    return image


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


def image_problem(path: Path) -> str:
    """Why `image_file` gave None for ``path``, in a few words for the sentence that names the file."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        return f"cannot be read: {exc.strerror or exc}"
    return too_large(data) or "not a readable image"


def unusable_text(frame: object) -> str:
    """What a frame no reader can use is, so a 1 px photo or a camera in a wrong mode is not read as "no dice"."""
    shape = "x".join(map(str, getattr(frame, "shape", ()))) or "no shape"
    kind = getattr(frame, "dtype", type(frame).__name__)
    return f"no usable frame ({shape}, {kind}): empty, too small or not an image"


UNCLIPPED = 250.0  # `lifted` leaves the brightest half percent of a picture under this


def lifted(frame: np.ndarray, below: float, target: float) -> np.ndarray:
    """A BGR frame brightened by one gain where it is underexposed (its 95th-percentile grey under ``below``)
    towards ``target``, so far as its brightest half percent stays under UNCLIPPED; else the frame itself.

    The readers' nets and thresholds were set on pictures lit as the photo sets
    and renders are; a dim room's picture kept its dice unfound. Held under
    UNCLIPPED, a bright die on dark felt is not washed out. 0.03 ms at 640x480.
    """
    height, width = frame.shape[:2]
    small = cv2.resize(frame, (max(1, width // 4), max(1, height // 4)), interpolation=cv2.INTER_NEAREST)
    counts = cv2.calcHist([cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)], [0], None, [256], [0, 256]).ravel().cumsum()
    bright, brightest = (int(np.searchsorted(counts, share * counts[-1])) for share in (0.95, 0.995))
    if bright >= below:
        return frame
    gain = min(target / max(bright, 1), UNCLIPPED / max(brightest, 1))
    return frame if gain <= 1.0 else cv2.convertScaleAbs(frame, alpha=gain)


def noise_level(frame: np.ndarray) -> float:
    """The camera's noise, as the standard deviation in grey levels that Gaussian noise of this much would show.

    Taken from the median step between neighbours along every fourth row:
    most of a tray photo is plain table, where a step is noise, and the
    median passes over the edges of dice and pips. 0.2 ms at 640x480.
    """
    rows = np.ascontiguousarray(frame[::4])
    grey = rows if rows.ndim == 2 else cv2.cvtColor(rows, cv2.COLOR_BGR2GRAY)
    if grey.shape[1] < 2:
        return 0.0
    steps = cv2.calcHist([cv2.absdiff(grey[:, 1:], grey[:, :-1])], [0], None, [256], [0, 256]).ravel()
    counts = steps.cumsum()
    half = counts[-1] / 2
    middle = int(np.searchsorted(counts, half))
    below = counts[middle - 1] if middle else 0.0
    # The median of |a - b| for two samples of Gaussian noise is 0.954 of the noise's standard deviation.
    return float(middle + (half - below) / max(steps[middle], 1.0)) / 0.954


def quietened(frame: np.ndarray, above: float, sigma: float) -> np.ndarray:
    """The frame blurred by ``sigma`` px where its `noise_level` is over ``above``; else the frame itself."""
    return cv2.GaussianBlur(frame, (0, 0), sigma) if noise_level(frame) > above else frame


def to_light(levels: np.ndarray) -> np.ndarray:
    """8-bit sRGB levels as light (0-1): light adds up in these terms (a veil, an ink's reflection), not in the
    picture's levels."""
    v = np.clip(np.asarray(levels, np.float32) / 255.0, 0.0, 1.0)
    return np.where(v <= 0.04045, v / 12.92, ((v + 0.055) / 1.055) ** 2.4)


def to_levels(light: np.ndarray) -> np.ndarray:
    """`to_light`'s inverse, as 8-bit levels."""
    light = np.clip(light, 0.0, 1.0)
    encoded = np.where(light <= 0.0031308, light * 12.92, 1.055 * light ** (1 / 2.4) - 0.055)
    return np.clip(np.round(encoded * 255.0), 0, 255).astype(np.uint8)


def toned(drawing: np.ndarray, ink: float) -> np.ndarray:
    """A drawing as printed: its black reflecting ``ink`` of the paper's light (`markers.InkSeen.light`; real ink
    about 0.05, which a camera shows at about a quarter of the paper's level), every colour lifted alike in light.
    As 8-bit levels, looked up level by level (a reader tones its whole deck at once when the light changes)."""
    table = to_levels(ink + (1.0 - ink) * to_light(np.arange(256)))
    return table[np.clip(np.rint(drawing), 0, 255).astype(np.uint8)]


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
