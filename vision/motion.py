"""A motion gate: reading a die that is still rolling wastes time and produces misreads.

Frames are compared on a small blurred grey copy, so camera noise and slow
light changes do not count as motion, while a die moving a few pixels does.
A picture that is brighter or darker as a whole than the one before (a lamp
flickering at the mains' rate, the camera's exposure settling after a hand
has passed) is first brought to the earlier one's brightness: left as it was,
a light flickering by a tenth kept a still tray "moving" on two frames in three.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable

import cv2
import numpy as np

from vision.frames import as_bgr

GATE_WIDTH = 160
GATE_TALLEST = 4 * GATE_WIDTH  # px: a picture stood on end keeps its shape; a strip taller than 1:4 is squeezed
FRAME_GAP = 1.0  # seconds without a frame after which a camera is taken to have paused, not to be moving
LIGHT_CHANGE = (0.8, 1.25)  # a whole picture this much brighter or darker is light; beyond it, something moved
BANDS_EXPLAIN = 0.75  # share of a change that each row's own gain must account for, for the change to be bands
BANDS_ROWS = 0.5  # share of the rows bands brighten or darken, each as a whole (all but those between two bands)
BAND_GAIN = 0.01  # a row's gain that far from 1 is a row changed
BANDS_FRAMES = 16  # moving frames the gate remembers when it tells bands from motion


def light_change(now: np.ndarray, before: np.ndarray) -> float:
    """How much brighter `now` is than `before` as a whole: the median of their ratios, over pixels bright enough
    to have one. A die or a hand changes only its own part of the picture, which the median passes over. A
    change beyond `LIGHT_CHANGE` (lights switched on, the lens covered) is left as motion: 1.0."""
    now, before = now[::2, ::2], before[::2, ::2]  # a quarter of the pixels tell the light as well
    lit = before > 16
    if np.count_nonzero(lit) < lit.size // 4:
        return 1.0
    gain = float(np.median(now[lit].astype(np.float32) / before[lit]))
    return gain if LIGHT_CHANGE[0] <= gain <= LIGHT_CHANGE[1] else 1.0


def bands(now: np.ndarray, before: np.ndarray, pixel_delta: int) -> bool:
    """Whether the change between two frames is light bands across the picture, not something moving.

    A camera whose rows are read one after the other shows a flickering lamp
    as bands, each row brighter or darker as a whole: a gain per row then
    accounts for nearly all of the change. Something that moves (a die, a
    shaking mount's edges, a shadow) changes only part of each row it crosses,
    which the row's median passes over; an arm or a shadow across the whole
    picture changes a stretch of rows, where bands change nearly every row.
    """
    now_f, before_f = now.astype(np.float32), before.astype(np.float32)
    changed = np.count_nonzero(np.abs(now_f - before_f) > pixel_delta)
    if not changed:
        return False
    ratio = np.where(before_f > 16, now_f / np.maximum(before_f, 1.0), 1.0)
    row_gain = np.median(ratio, axis=1, keepdims=True)
    if np.count_nonzero(np.abs(row_gain - 1.0) > BAND_GAIN) < len(row_gain) * BANDS_ROWS:
        return False  # bands cover the picture; an arm or a shadow across it changes a stretch of rows
    left = np.count_nonzero(np.abs(now_f - before_f * row_gain) > pixel_delta)
    return left <= changed * (1 - BANDS_EXPLAIN)


class MotionGate:
    """Says whether the scene has been still for `still_frames` consecutive frames."""

    def __init__(self, pixel_delta: int = 18, moving_fraction: float = 0.0015, still_frames: int = 1,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.pixel_delta = pixel_delta
        self.moving_fraction = moving_fraction
        self.still_frames = still_frames
        self.previous: np.ndarray | None = None
        self.still_count = 0
        self.last_motion = 0.0
        self.clock = clock
        # Seconds of frames since one was last still, for telling a picture that never holds still
        # (view_check.RESTLESS_SECONDS). Counted on frames: a camera that stops sending is not moving.
        self.moving_for = 0.0
        self._still_at = self._seen_at = clock()
        self._compared: tuple[np.ndarray, np.ndarray] | None = None  # the last two frames compared, light matched
        self._changed: np.ndarray | None = None  # the pixels that changed between them
        # Where anything moved since the readers last settled on what lies there (`forget_moves`), in pixels of
        # the gate's small copy; None when a frame could not be compared (the first, an unusable one): then
        # anywhere may have moved. Still frames between do not forget it: a throw whose hand paused for a frame
        # above the tray moved the die's landing place in the motion before the pause.
        self.moved: np.ndarray | None = None
        self._banded: deque[bool] = deque(maxlen=BANDS_FRAMES)  # for each recent moving frame: bands, or motion
        self._gaps: deque[float] = deque(maxlen=2 * BANDS_FRAMES)  # seconds between recent frames

    def _small(self, frame: np.ndarray) -> np.ndarray | None:
        bgr = as_bgr(frame)
        if bgr is None:
            return None
        grey = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
        h, w = grey.shape[:2]
        # Scaled to the gate's width, a strip 8 px wide and 100000 tall became 2 million rows: 6 s a frame.
        if h * GATE_WIDTH / w <= GATE_TALLEST:
            size = (GATE_WIDTH, max(1, round(h * GATE_WIDTH / w)))
        else:
            size = (max(1, round(w * GATE_TALLEST / h)), GATE_TALLEST)
        small = cv2.resize(grey, size, interpolation=cv2.INTER_AREA)
        return cv2.GaussianBlur(small, (5, 5), 0)

    def motion(self, frame: np.ndarray) -> float:
        """Share of the frame that changed since the previous frame (1.0 for the first frame).

        A frame that is not a usable image counts as all motion: nothing is read
        until real frames are still again.
        """
        small = self._small(frame)
        self._compared = self._changed = None
        if small is None:
            self.previous = None
            return 1.0
        if self.previous is None or self.previous.shape != small.shape:
            self.previous = small
            return 1.0
        before = self.previous
        self.previous = small
        gain = light_change(small, before)
        if gain != 1.0:
            before = np.clip(before.astype(np.float32) * gain, 0, 255).astype(np.uint8)
        self._compared = (small, before)
        self._changed = changed = cv2.absdiff(small, before) > self.pixel_delta
        return float(np.count_nonzero(changed)) / changed.size

    def is_still(self, frame: np.ndarray) -> bool:
        """Whether the scene has held still for `still_frames` frames, this one included; also keeps the time
        the picture has moved for (`moving_for`), the gaps between frames and whether the motion was bands."""
        now = self.clock()
        gap = now - self._seen_at
        # Frames back after a gap: the time without any is no motion. A clock that went back (a clock given
        # to the gate, set back) is counted afresh the same way: measured from a moment that is now in the
        # future, a picture moving all along had moved for less than no time, so a shaking camera went untold
        # for as long as the clock had gone back.
        if not 0.0 <= gap <= FRAME_GAP:
            self._still_at = now
        else:
            self._gaps.append(gap)
        self._seen_at = now
        self.last_motion = self.motion(frame)
        if self.last_motion > self.moving_fraction:
            self.still_count = 0
            changed = self._changed
            if changed is None or self.moved is None or self.moved.shape != changed.shape:
                self.moved = None if changed is None else changed.copy()
            else:
                self.moved |= changed
            if self._compared is not None:
                self._banded.append(bands(*self._compared, self.pixel_delta))
        else:
            self.still_count += 1
            self._still_at = now
        self.moving_for = now - self._still_at
        return self.still_count >= self.still_frames

    def rebase(self, frame: np.ndarray) -> None:
        """Compare the next frame with ``frame``, not with the last one fed: the view the gate watches moved on
        the picture (a marked tray following a knocked camera), so what it showed before is no motion."""
        small = self._small(frame)
        if small is not None:
            self.previous = small

    def forget_moves(self) -> None:
        """What lies in view now has been read: motion counts again from here (`moved_over`)."""
        if self.moved is not None:
            self.moved[:] = False

    def moved_over(self, boxes: list, shape: tuple[int, ...]) -> bool:
        """Whether anything moved over any of ``boxes`` (x0, y0, x1, y1 in pixels of frames of ``shape``, as the
        gate is fed them) since `forget_moves`: a hand reaching past dice to a pawn did not touch them."""
        if self.moved is None:
            return True
        h, w = self.moved.shape
        sy, sx = h / shape[0], w / shape[1]
        for x0, y0, x1, y1 in boxes:
            cols = slice(max(0, int(x0 * sx)), min(w, int(np.ceil(x1 * sx))))
            rows = slice(max(0, int(y0 * sy)), min(h, int(np.ceil(y1 * sy))))
            if self.moved[rows, cols].any():
                return True
        return False

    def moved_beyond(self, boxes: list, shape: tuple[int, ...]) -> bool:
        """Whether anything moved outside all of ``boxes`` (as for `moved_over`) since `forget_moves`: a hand
        coming into view, a die thrown in. A camera knocked over a plain tray moves only the dice's own places."""
        if self.moved is None:
            return True
        h, w = self.moved.shape
        sy, sx = h / shape[0], w / shape[1]
        left = self.moved.copy()
        for x0, y0, x1, y1 in boxes:
            cols = slice(max(0, int(x0 * sx)), max(0, min(w, int(np.ceil(x1 * sx)))))
            rows = slice(max(0, int(y0 * sy)), max(0, min(h, int(np.ceil(y1 * sy)))))
            left[rows, cols] = False
        return bool(left.any())

    @property
    def banded(self) -> bool:
        """Whether most of the recent moving frames were light bands rolling through a still picture (a lamp
        flickering with the mains), so a picture that never holds still can be told the one thing that mends it."""
        return len(self._banded) >= BANDS_FRAMES // 2 and sum(self._banded) >= len(self._banded) * 3 / 4

    @property
    def frame_rate(self) -> float | None:
        """Frames a second as they reach the gate: a live camera's own rate while nothing slower than the gate
        runs, as in a picture that never holds still. None until a second's worth of frames has come."""
        if len(self._gaps) < BANDS_FRAMES:  # half the gaps kept
            return None
        gap = float(np.median(self._gaps))
        return 1.0 / gap if gap > 0 else None

    def reset(self) -> None:
        self.previous = None
        self._banded.clear()
        self._gaps.clear()
        self.still_count = 0
        self.moving_for = 0.0
        self._still_at = self._seen_at = self.clock()


SHIFT_WIDTH = 320  # px: the width two still pictures are compared at for a camera that moved
SHIFT_LEAST = 2.0  # px of the frame: a picture moved less than this has not moved
SHIFT_EXPLAINS = 0.5  # the change left once the picture is moved back, at most, of the change before
SHIFT_CHANGE = 1.0  # grey levels of mean change the shift must take away: less is the camera's noise


def _shift_view(frame: np.ndarray, scale: float) -> np.ndarray:
    """A frame as `picture_shift` compares it: grey, scaled and softened."""
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
    small = cv2.resize(grey, (SHIFT_WIDTH, max(1, round(grey.shape[0] * scale))), interpolation=cv2.INTER_AREA)
    return cv2.GaussianBlur(small.astype(np.float32), (0, 0), 1.0)


def picture_shift(before: np.ndarray, now: np.ndarray, keep_out: list = ()) -> tuple[float, float] | None:
    """How far the whole picture moved between two still frames of one size, in their pixels (x, y), when the
    camera was moved (bumped, its mount nudged); None when it was not, or nothing in view tells.

    The table, the tray's grain and its edges all move by one shift; a die
    thrown moves alone. The shift must explain the change: moved back by it,
    the picture before must be the picture now (allowing for a change of the
    light) everywhere but in the ``keep_out`` boxes (the dice, where they lay
    and where they lie), so a die is never what it follows. A plain tray with
    nothing in view but the dice tells nothing, and gives None.
    """
    views = matched_views(before, now)
    if views is None:
        return None
    old, new, scale = views
    window = cv2.createHanningWindow((old.shape[1], old.shape[0]), cv2.CV_32F)
    (dx, dy), _ = cv2.phaseCorrelate(old.copy(), new.copy(), window)  # it windows its inputs in place
    if np.hypot(dx, dy) < SHIFT_LEAST * scale:
        return None
    # the dice's boxes where they lay, and where the shift takes them
    judged = _judged(old.shape, (dx, dy), keep_out, scale, ((0.0, 0.0), (dx / scale, dy / scale)))
    if judged is None:
        return None
    moved = cv2.warpAffine(old, np.float32([[1, 0, dx], [0, 1, dy]]), (old.shape[1], old.shape[0]))
    change = float(np.mean(np.abs(new - old)[judged]))
    left = float(np.mean(np.abs(new - moved)[judged]))
    if change - left < SHIFT_CHANGE or left > change * SHIFT_EXPLAINS:
        return None
    if worse_somewhere(np.abs(new - old), np.abs(new - moved), judged):
        return None  # part of the picture stayed: something on the table moved, not the camera
    return dx / scale, dy / scale


MOVE_CELLS = (4, 3)  # across, down: the picture is judged in each of these cells, as well as whole


def move_cells(shape: tuple[int, ...]) -> list[tuple[slice, slice]]:
    """A small view of ``shape`` cut into `MOVE_CELLS`: the rows and columns of each cell."""
    h, w = shape[:2]
    across, down = MOVE_CELLS
    return [(slice(h * j // down, h * (j + 1) // down), slice(w * i // across, w * (i + 1) // across))
            for j in range(down) for i in range(across)]


def worse_somewhere(change: np.ndarray, left: np.ndarray, judged: np.ndarray) -> bool:
    """Whether, in any cell (`move_cells`) with a quarter of it ``judged``, the picture moved back explains the
    picture now worse than its standing still does: ``left`` (the change left once moved back) exceeds
    ``change`` (the change as it stands) there by half a grey level on average.

    A game board slid or turned by a player beside the tray is most of what
    changed in view and moves as one picture, so the whole picture's change
    followed it: a rendered board, a third of the view, slid 16 px, and the
    marked tray moved with it, off the tray. The table round the board stayed,
    and there the move makes the picture worse. Moved with a knocked camera,
    every part of the picture is explained (a plain part neither way).
    """
    for rows, cols in move_cells(judged.shape):
        here = judged[rows, cols]
        if np.count_nonzero(here) >= here.size // 4 and (
                float(np.mean(left[rows, cols][here])) > float(np.mean(change[rows, cols][here])) + SHIFT_CHANGE / 2):
            return True
    return False


SHIFT_SEEN = 2 * SHIFT_CHANGE  # grey levels of mean change a picture moved by a shift would show, to tell it


def picture_stayed(before: np.ndarray, now: np.ndarray, shift: tuple[float, float], keep_out: list = ()) -> bool:
    """Whether the picture outside the ``keep_out`` boxes shows it did not move by ``shift`` between two still
    frames of one size: moved so, it would have changed plainly (it has grain or edges enough), yet it changed
    by less than half of that. A plain tray with nothing else in view shows nothing either way: False.

    Where `picture_shift` finds no shift, this tells a picture that held still (the dice
    moved on their own: thrown) from one that cannot tell (the dice must, `knock.moved_together`).
    """
    views = matched_views(before, now)
    if views is None:
        return False
    old, new, scale = views
    dx, dy = shift[0] * scale, shift[1] * scale
    judged = _judged(old.shape, (dx, dy), keep_out, scale, ((0.0, 0.0),))
    if judged is None:
        return False
    moved = cv2.warpAffine(old, np.float32([[1, 0, dx], [0, 1, dy]]), (old.shape[1], old.shape[0]))
    would = float(np.mean(np.abs(moved - old)[judged]))
    change = float(np.mean(np.abs(new - old)[judged]))
    return would >= SHIFT_SEEN and change <= would * SHIFT_EXPLAINS


def matched_views(before: np.ndarray, now: np.ndarray) -> tuple[np.ndarray, np.ndarray, float] | None:
    """The two still frames small and grey, ``before`` brought to ``now``'s light (a lamp dimmed meanwhile is
    no change of place), and their scale; None when they cannot be compared (sizes differ, too small, dark)."""
    if before.shape[:2] != now.shape[:2] or before.shape[1] < 16 or before.shape[0] < 16:
        return None
    scale = SHIFT_WIDTH / before.shape[1]
    old, new = _shift_view(before, scale), _shift_view(now, scale)
    lit = old > 16
    if np.count_nonzero(lit) < lit.size // 4:
        return None  # a dark picture: nothing to match
    old *= float(np.median(new[lit] / old[lit]))
    return old, new, scale


def _judged(
    shape: tuple[int, ...], shift: tuple[float, float], keep_out: list, scale: float,
    offsets: tuple[tuple[float, float], ...],
) -> np.ndarray | None:
    """Where the small views are compared: clear of the edges the shift brings in and of the ``keep_out`` boxes
    (grown a fifth, at each of ``offsets`` in full-frame pixels); None when too little is left to judge."""
    h, w = shape[:2]
    edge_x, edge_y = int(abs(shift[0])) + 2, int(abs(shift[1])) + 2
    if 4 * edge_x >= w or 4 * edge_y >= h:
        return None
    judged = np.zeros((h, w), bool)
    judged[edge_y:h - edge_y, edge_x:w - edge_x] = True
    for x0, y0, x1, y1 in keep_out:
        grow = 0.2 * max(x1 - x0, y1 - y0)
        for ox, oy in offsets:
            cols = slice(max(0, int((x0 + ox - grow) * scale)), max(0, min(w, int(np.ceil((x1 + ox + grow) * scale)))))
            rows = slice(max(0, int((y0 + oy - grow) * scale)), max(0, min(h, int(np.ceil((y1 + oy + grow) * scale)))))
            judged[rows, cols] = False
    return judged if np.count_nonzero(judged) >= judged.size // 4 else None
