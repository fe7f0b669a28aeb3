"""Faults of a camera's picture that only the café can mend, told while it sets a camera up.

The reader copes with a dim room, warm light, noise and JPEG (docs/vision.md,
"Spoilt photos and a leaning camera"), but not with a lens out of focus or a
tray left nearly dark: on the byler holdout blurred by a Gaussian of 3 px the
reader found and read 0.62 of the dice, darkened to an eighth 0.25 (against
0.96 as photographed). Both are told by `vision watch` and on the app's camera
screen beside the dice's size (`d6_reader.small_dice_size`), and so are a
temple board so far away that its slots are small in the frame
(`small_slots`), a temple die as far (`small_temple_die`) and a board seen washed out (`washed_out`); the
thresholds and the measurements behind them are in docs/vision.md, "Is the
picture good enough".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

import cv2
import numpy as np

from vision.d6_reader import Box, dice_look_small, side
from vision.die_crops import CROP_MARGIN, crop_die
from vision.mains import rolling_bands_mains
from vision.shadow_band import lift_band

DARK_BELOW = 40  # the picture's 95th-percentile grey level: darker than any photo of the three sets (60 and up)
BLURRED_BELOW = 0.15  # the dice's median sharpness: no photo of the three sets scores under it
BOARD_BLURRED_BELOW = 0.2  # the board markers' median sharpness: rendered boards under it lose slots
SHARPNESS_CROP = 48  # the crop the sharpness is measured on, so a die's size in the frame does not count
DARK_EVERY = 30  # frames between two looks at the light (one a second at 30 frames/s)
# The board markers' black at this share of their paper or more (`markers.InkSeen.share`): a lens smeared, a lamp
# shining into it. The card reader tones its drawings to the ink the markers show (`CardReader._tone_to`), so of 480
# slots of rendered boards printed with real ink's black (a share of 0.25) and seen through a veil of scattered light
# (`board_photos.veiled`), 479 were read right at a share of 0.52, 477 at 0.59, 470 at 0.66 (one wrong surely enough
# to count) and 424 at 0.73; past that the board was not found (docs/vision.md, "Is the picture good enough").
WASHED_OUT_FROM = 0.6
SMALL_SLOT = 28  # px across a slot: the card reader read every slot of boards seen with slots of 29 px and more
SLOT_WANTED = 30  # what a café is asked to mount for
SMALL_TEMPLE_DIE = 0.1  # of the frame's long side, a temple die's box: rendered dice under it were misread
TEMPLE_DIE_WANTED = 0.125  # what a café is asked to mount for (80 px at 640)
# Seconds without one still frame before the picture is called restless: a throw and a hand take two or three.
RESTLESS_SECONDS = 10.0
# The same, before the table is told its camera reads nothing: longer, as a hand may hover over a board a while.
STUCK_SECONDS = 30.0


class Mends(NamedTuple):
    """How a setting that mends the picture is given where the advice is read: the app's camera screen, or a
    command's flags."""

    set_mains: str  # followed by the frequency
    mark_tray: str


ON_SCREEN = Mends("set Mains to", "mark the tray")
IN_TERMINAL = Mends("give --mains", "give --tray")


def restless_advice(banded: bool, mains_hz: int, mends: Mends, fps: float | None = None,
                    tray_marked: bool = False) -> str:
    """What mends a picture that never holds still: for a lamp's bands the mains frequency, else the mount, the
    shadows and, where no tray is marked yet, marking it (`vision.tray_area`). A live camera's frame rate
    ``fps`` tells which mains gives rolling bands (`mains.rolling_bands_mains`)."""
    set_mains = mends.set_mains
    if not banded:
        tray = "" if tray_marked else f" (or {mends.mark_tray}, so that only the tray is watched)"
        return (f"steady the camera's mount, keep people and moving shadows out of its view{tray}, and if a lamp "
                f"flickers, {set_mains} 50 or 60 Hz")
    rolling = rolling_bands_mains(fps) if fps else None
    if rolling and rolling != mains_hz:
        return (f"a lamp on {rolling} Hz mains rolls bands through it (at {fps:.0f} frames a second only those roll): "
                f"{set_mains} {rolling} Hz")
    if mains_hz and rolling:  # the right frequency, and still bands
        return (f"a lamp rolls bands through it even at {mains_hz} Hz mains, which this camera cannot avoid: light "
                "the tray with a lamp that does not flicker")
    if mains_hz:
        other = 110 - mains_hz  # 50 and 60 Hz: a café abroad may have picked its home country's
        return (f"a lamp rolls bands through it even at {mains_hz} Hz mains: if the mains here is {other} Hz, "
                f"{set_mains} {other}, else light the tray with a lamp that does not flicker")
    return f"a flickering lamp rolls bands through it: {set_mains} the mains frequency here, 50 or 60 Hz"


def brightest(frame: np.ndarray) -> int:
    """The grey level that 5% of the picture reaches: under a lamp, the tray, the dice and the board do."""
    small = cv2.resize(frame, (max(1, frame.shape[1] // 4), max(1, frame.shape[0] // 4)), interpolation=cv2.INTER_AREA)
    grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY) if small.ndim == 3 else small
    return int(np.percentile(grey, 95))


DARK_MENDS = {  # what to light, and what the noise of a dark picture costs, by reader: `vision watch` and the table
    "dice": ("the tray", "makes dice misread"),
    "temple-die": ("the tray", "makes the die misread"),
    "cards": ("the board", "hides its markers and makes cards misread"),
}


def too_dark(frame: np.ndarray) -> int | None:
    """The picture's `brightest` level when it is under `DARK_BELOW`, else None."""
    level = brightest(frame)
    return level if level < DARK_BELOW else None


def shadow_kept(frame: np.ndarray) -> float | None:
    """The share of the light a shadow's band across the picture keeps, while the readers lift one off it
    (`shadow_band`); None when they lift none. A café learns that a lamp's shadow lies there: the lift was measured
    on drawn shadows only, and a dark stripe of its own table would be lifted too."""
    band = lift_band(frame)[1]
    return None if band is None else band.kept


def sharpness(crop: np.ndarray) -> float:
    """How steep a crop's sharpest edges are for its contrast: a die's pip rims, a marker's cells in focus.

    The 99th percentile of the grey level's slope over the spread between its 2nd and 98th percentiles: an
    edge blurred over w px of the crop slopes about 0.4 / w of the way across, whatever the light, and the
    percentiles keep a camera's noise and rounding from passing for edges.
    """
    grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY).astype(np.float32)
    slope = np.hypot(cv2.Sobel(grey, cv2.CV_32F, 1, 0), cv2.Sobel(grey, cv2.CV_32F, 0, 1)) / 8  # grey levels a px
    low, high = np.percentile(grey, [2, 98])
    return float(np.percentile(slope, 99) / (high - low + 1.0))


def dice_sharpness(frame: np.ndarray, boxes: list[Box]) -> float | None:
    """The dice's median `sharpness`; None for no dice, or dice small in the frame.

    Small dice are soft in any picture (their crop is enlarged), and the camera is then asked to come
    closer instead (`d6_reader.small_dice_size`), so they are not judged for focus.
    """
    if not boxes or dice_look_small(boxes, frame.shape):
        return None
    return round(float(np.median([sharpness(crop_die(frame, box, SHARPNESS_CROP, CROP_MARGIN)) for box in boxes])), 3)


def blurred_dice(frame: np.ndarray, boxes: list[Box]) -> float | None:
    """The dice's `dice_sharpness` when it is under `BLURRED_BELOW`, else None."""
    level = dice_sharpness(frame, boxes)
    return level if level is not None and level < BLURRED_BELOW else None


def board_sharpness(frame: np.ndarray, markers: Mapping[int, np.ndarray] | None) -> float | None:
    """The board markers' median `sharpness`, each measured on its own box in the frame; None with no markers.

    A marker's black and white cells are the crispest edges on the table, and a
    board seen out of focus loses its slots before its markers: rendered boards
    read 0.992 of slots down to a marker sharpness of 0.23 (a 1.5 px blur),
    0.967 at 0.19, 0.94 at 0.16 and 0.74 at 0.14 (docs/vision.md).
    """
    if not markers:
        return None
    levels = []
    for quad in markers.values():
        x0, y0 = np.maximum(np.floor(quad.min(axis=0)).astype(int), 0)
        x1, y1 = np.ceil(quad.max(axis=0)).astype(int)
        box = frame[y0:y1, x0:x1]
        if min(box.shape[:2]) >= 4:
            levels.append(sharpness(box))
    return round(float(np.median(levels)), 3) if levels else None


def blurred_board(frame: np.ndarray, markers: Mapping[int, np.ndarray] | None) -> float | None:
    """The board's `board_sharpness` when it is under `BOARD_BLURRED_BELOW`, else None."""
    level = board_sharpness(frame, markers)
    return level if level is not None and level < BOARD_BLURRED_BELOW else None


def washed_out(share: float | None) -> float | None:
    """The markers' black against their paper (`CardReader.last_ink_share`) when it is `WASHED_OUT_FROM` or more,
    else None (None too where the board was not seen).

    A veil of light over the lens lifts every dark colour of the cards towards their paper; the card reader
    allows for as much of it as the markers show (`CardReader._tone_to`), up to a point past which cards are
    misread. No one at the table sees it, and wiping the lens or turning a lamp away mends it.
    """
    return share if share is not None and share >= WASHED_OUT_FROM else None


def small_slots(outlines: Mapping[int, Sequence[tuple[float, float]]] | None) -> int | None:
    """The board's slots' median size in frame px (the side of a square of the same area) under `SMALL_SLOT`.

    Given the slots' corners where the card reader last found them (`CardReader.last_outlines`); None when
    the board was not seen or its slots are large enough.
    """
    if not outlines:
        return None
    sides = [abs(cv2.contourArea(np.array(corners, np.float32))) ** 0.5 for corners in outlines.values()]
    across = round(float(np.median(sides)))
    return across if across < SMALL_SLOT else None


def small_temple_die(boxes: list[Box], shape: tuple[int, ...]) -> tuple[int, int] | None:
    """(px across, px wanted) for a temple die whose box is under `SMALL_TEMPLE_DIE` of the frame's long side.

    The temple die reader finds the die at 320 px and reads its face from the frame itself; rendered dice
    whose box was a tenth of a 640 px frame were read right 46 times in 48, a twelfth 35 times.
    """
    if not boxes:
        return None
    long_side = max(shape[:2])
    across = float(np.median([side(box) for box in boxes]))
    return (round(across), round(TEMPLE_DIE_WANTED * long_side)) if across < SMALL_TEMPLE_DIE * long_side else None
