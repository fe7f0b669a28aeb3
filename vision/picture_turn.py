"""A camera turned or tilted on its mount rather than slid: no one shift explains the picture.

`motion.picture_shift` follows a camera knocked sideways, where the whole
picture moves by one shift. A camera turned a few degrees about its axis, or
tilted (the table drawn nearer on one side, farther on the other), moves each
part of the picture by a different amount, so no shift explains it, and the
marked tray stayed where it was, off the tray: a throw against its walls was
read in part or missed.

Points of the table's grain are tracked from the still picture before to the
still picture now (pyramidal Lucas-Kanade, each checked by tracking it back),
and a homography is fitted through those that agree (RANSAC). It is trusted
only when most tracked points agree on it and, moved by it, the picture before
is the picture now everywhere but where dice lay or lie, as a shift must be.
A hand held still, a cup set down or a lamp dimmed changes part of the picture
or its light: the table's points stay where they were, and the fit is the
picture unmoved.

Run only when the scene has come to rest (dice settled elsewhere, a marked
tray read empty), and only once the picture changed outside the dice: after
an ordinary roll on a camera that stayed put it costs one comparison of two
small pictures.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from vision.motion import MOVE_CELLS, SHIFT_CHANGE, SHIFT_EXPLAINS, SHIFT_LEAST, matched_views, worse_somewhere

TURN_POINTS = 200  # grain points tracked, at most
TURN_SPACING = 8  # px of the small view between two points tracked
TRACK_WINDOW = (15, 15)  # px of the small view: a point's patch, tracked over 3 pyramid levels (some 60 px)
TRACK_LEVELS = 3
TRACKED_BACK = 0.5  # px of the small view: a point tracked there and back must come home this near
FIT_TOLERANCE = 1.0  # px of the small view (2 of a 640 px frame): a point this far off the fit disagrees
LEAST_POINTS = 30  # points agreeing on the fit, at least: fewer is the grain of a plain tray, or noise
AGREE = 0.6  # share of the points tracked that must agree: the table moved, not a hand or a cup on it
FAR_TURNS = (12.0, -12.0, 24.0, -24.0)  # degrees the picture before is turned to look again for a turn so far
TRIED_NEAR = 4.0  # degrees: a turn to look again from this near one tried already is not tried
SPECTRUM_ANGLES = 360  # rows of the spectrum's polar picture, one a degree: a turn is measured to a tenth of one
FOLLOW_TURN = 10.0  # degrees: a marked tray turned farther is asked to be marked again
FOLLOW_SCALE = (0.85, 1.18)  # the picture this much smaller or larger at most: else marked again
WORDS_TURN = 0.5  # degrees, WORDS_SCALE a share, WORDS_TILT a share of a side: less goes unsaid
WORDS_SCALE = 0.01
WORDS_TILT = 0.03


@dataclass(frozen=True)
class Turn:
    """How the picture moved: a homography ``matrix`` (row by row) taking a point of the picture before to where
    it lies in the picture now, both ``size`` (width, height) px."""

    matrix: tuple[float, ...]
    size: tuple[int, int]

    def _h(self) -> np.ndarray:
        return np.array(self.matrix, np.float64).reshape(3, 3)

    def points(self, points: Sequence[tuple[float, float]]) -> list[tuple[float, float]]:
        """Where ``points`` (frame px, before) lie now."""
        moved = cv2.perspectiveTransform(np.array(points, np.float64).reshape(-1, 1, 2), self._h()).reshape(-1, 2)
        return [(float(x), float(y)) for x, y in moved]

    def point(self, x: float, y: float) -> tuple[float, float]:
        return self.points([(x, y)])[0]

    def _axes(self) -> tuple[np.ndarray, np.ndarray]:
        """The picture's middle moved, its two unit axes there as they lie now (a little way along each)."""
        cx, cy = self.size[0] / 2, self.size[1] / 2
        reach = 0.1 * min(self.size)
        mid, right, down = (np.array(p) for p in self.points([(cx, cy), (cx + reach, cy), (cx, cy + reach)]))
        return (right - mid) / reach, (down - mid) / reach

    @property
    def angle(self) -> float:
        """Degrees the picture turned about its middle, clockwise as the picture is shown."""
        across, _ = self._axes()
        return math.degrees(math.atan2(across[1], across[0]))

    @property
    def scale(self) -> float:
        """How much larger the picture's middle is drawn now (a camera tilted or lowered nearer the table)."""
        across, down = self._axes()
        return math.sqrt(abs(float(across[0] * down[1] - across[1] * down[0])))

    @property
    def shift(self) -> tuple[float, float]:
        """How far the picture's middle moved, px."""
        cx, cy = self.size[0] / 2, self.size[1] / 2
        x, y = self.point(cx, cy)
        return x - cx, y - cy

    @property
    def tilt(self) -> float:
        """How much longer one side of the picture is drawn now than the side across from it, as a share: a
        camera tilted sees the table nearer on one side."""
        w, h = self.size
        tl, tr, br, bl = (np.array(p) for p in self.points([(0, 0), (w, 0), (w, h), (0, h)]))
        sides = [(np.linalg.norm(tr - tl), np.linalg.norm(br - bl)), (np.linalg.norm(bl - tl), np.linalg.norm(br - tr))]
        return max((abs(a / b - 1.0) for a, b in sides if b > 0), default=0.0)

    @property
    def moved(self) -> float:
        """How far the picture's corner that moved most moved, px."""
        w, h = self.size
        corners = [(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)]
        return max(math.hypot(x1 - x0, y1 - y0) for (x0, y0), (x1, y1) in zip(corners, self.points(corners),
                                                                             strict=True))

    @property
    def followable(self) -> bool:
        """Whether a marked tray may follow it: turned and scaled no more than a nudged camera is. The area
        followed is the upright box round the tray's corners moved, which grows as the picture turns."""
        return abs(self.angle) <= FOLLOW_TURN and FOLLOW_SCALE[0] <= self.scale <= FOLLOW_SCALE[1]

    def boxes(self, boxes: Sequence[tuple[float, float, float, float]]) -> list[tuple[float, float, float, float]]:
        """``boxes`` (x0, y0, x1, y1 frame px, before) where they lie now: each one's middle moved, its size
        scaled with the picture."""
        scale = self.scale
        middles = self.points([((x0 + x1) / 2, (y0 + y1) / 2) for x0, y0, x1, y1 in boxes]) if boxes else []
        return [(cx - (x1 - x0) * scale / 2, cy - (y1 - y0) * scale / 2, cx + (x1 - x0) * scale / 2,
                 cy + (y1 - y0) * scale / 2) for (cx, cy), (x0, y0, x1, y1) in zip(middles, boxes, strict=True)]

    def placed(self, dice: Sequence[Any]) -> list[Any]:
        """``dice`` (readings boxed in frame px, before) boxed where they lie now (`boxes`)."""
        return [dataclasses.replace(d, box=b) for d, b in zip(dice, self.boxes([d.box for d in dice]), strict=True)]

    def words(self) -> str:
        """What the picture did: "turned 4 degrees clockwise and moved 12 px", "tilted, grew 3% and moved 9 px"."""
        parts = []
        angle = self.angle
        if abs(angle) >= WORDS_TURN:
            parts.append(f"turned {_number(abs(angle))} degrees {'clockwise' if angle > 0 else 'anticlockwise'}")
        if self.tilt >= WORDS_TILT:
            parts.append("tilted")
        if abs(self.scale - 1.0) >= WORDS_SCALE:
            parts.append(f"{'grew' if self.scale > 1 else 'shrank'} {abs(self.scale - 1.0):.0%}")
        shift = math.hypot(*self.shift)
        if shift >= SHIFT_LEAST or not parts:
            parts.append(f"moved {shift if parts else self.moved:.0f} px")
        return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"


def _number(value: float) -> str:
    return f"{value:.1f}" if value < 2 else f"{value:.0f}"


def picture_turn(before: np.ndarray, now: np.ndarray, keep_out: Sequence[Any] = ()) -> Turn | None:
    """How the whole picture moved between two still frames of one size when no one shift explains it (the
    camera turned or tilted on its mount), as a `Turn`; None when it did not move, or nothing in view tells.

    The ``keep_out`` boxes (frame px: the dice, where they lay and where they
    lie) are neither tracked nor judged, so a die thrown is never what the
    picture follows. A plain tray with nothing else in view tells nothing.
    """
    views = matched_views(before, now)
    if views is None:
        return None
    old, new, _ = views
    h, w = old.shape[:2]
    sx, sy = w / before.shape[1], h / before.shape[0]
    boxes = [(x0 * sx, y0 * sy, x1 * sx, y1 * sy) for x0, y0, x1, y1 in keep_out]
    clear = _clear_of(old.shape, boxes)
    if np.count_nonzero(clear) < clear.size // 4:
        return None
    if float(np.mean(np.abs(new - old)[clear])) < SHIFT_CHANGE:
        return None  # nothing but the dice changed: the camera stayed (an ordinary roll costs only this)
    old8, new8 = (np.clip(v, 0, 255).astype(np.uint8) for v in (old, new))
    found = _spread(cv2.goodFeaturesToTrack(old8, 0, 0.01, TURN_SPACING, mask=clear.astype(np.uint8), blockSize=7),
                    old8.shape)
    if len(found) < LEAST_POINTS:
        return None
    fit = _fitted(old8, new8, found)
    if fit is None:
        fit = _far_fit(old, new, old8, new8, found, clear)
    if fit is None:
        return None  # the table's points do not move as one picture
    # Tracked again from the picture before moved by that fit: each patch now lies turned as it lies now, and
    # a few px from its place, where the tracker is exact (a turn of 4 degrees and a slide of 28 px: the
    # picture's corners within 5 px at once, within 1 px so).
    ahead = cv2.perspectiveTransform(found.astype(np.float64), fit).astype(np.float32)
    within = ((ahead[:, 0, 0] >= 0) & (ahead[:, 0, 0] < w) & (ahead[:, 0, 1] >= 0) & (ahead[:, 0, 1] < h))
    again = _fitted(cv2.warpPerspective(old8, fit, (w, h), borderMode=cv2.BORDER_REPLICATE), new8, ahead[within], 1)
    if again is not None:
        fit = again @ fit
    small = np.array([[sx, 0.0, (sx - 1) / 2], [0.0, sy, (sy - 1) / 2], [0.0, 0.0, 1.0]])  # frame px to small's
    to_frame = np.linalg.inv(small) @ fit @ small
    if not np.all(np.isfinite(to_frame)) or abs(to_frame[2, 2]) < 1e-9:
        return None  # no picture moves so (points fitted along one line)
    turn = Turn(tuple(float(v) for v in (to_frame / to_frame[2, 2]).ravel()), (before.shape[1], before.shape[0]))
    if turn.moved < SHIFT_LEAST:
        return None  # the picture stayed: whatever changed moved on the table
    # Moved back by the fit, the picture before must be the picture now, clear of the dice (moved too).
    moved = cv2.warpPerspective(old, fit, (w, h), flags=cv2.INTER_LINEAR)
    inside = cv2.warpPerspective(np.ones((h, w), np.uint8), fit, (w, h), flags=cv2.INTER_NEAREST)
    inside = cv2.erode(inside, np.ones((5, 5), np.uint8)).astype(bool)
    shown = [(x0 * sx, y0 * sy, x1 * sx, y1 * sy) for x0, y0, x1, y1 in turn.boxes(list(keep_out))]
    judged = _clear_of(old.shape, boxes + shown) & inside
    if np.count_nonzero(judged) < judged.size // 4:
        return None
    change, left = np.abs(new - old), np.abs(new - moved)
    if float(np.mean(change[judged])) - float(np.mean(left[judged])) < SHIFT_CHANGE:
        return None
    if float(np.mean(left[judged])) > float(np.mean(change[judged])) * SHIFT_EXPLAINS:
        return None
    if worse_somewhere(change, left, judged):
        return None  # a game board slid and turned on a still table: the fit follows it, the table stayed
    return turn


def _far_fit(old: np.ndarray, new: np.ndarray, old8: np.ndarray, new8: np.ndarray, found: np.ndarray,
             clear: np.ndarray) -> np.ndarray | None:
    """The homography taking the small view ``old`` to ``new`` (``old8``, ``new8``: as bytes, for the tracker)
    when the tracker found none from ``found`` (its patches turned with the picture): looked for again from
    ``old`` turned by each of `_far_turns` and slid as the two pictures then agree (phase correlation), so the
    café is told the tray must be marked again. Both are measured where ``clear`` of the dice, which are
    painted out (a die's edges and pips, stronger than a fine grain, turned the spectrum with the die).

    Where the tracker cannot follow the grain even so (grain as fine as the
    camera's pixels, drawn anew at each turn), a turn the spectrum measured
    farther than a marked tray follows (`FOLLOW_TURN`) and its slide are the
    fit: `picture_turn` then keeps it only if the picture before, moved by it,
    is the picture now, as for any fit. It is not exact (a rendered 40 degree
    turn with a die thrown was measured 45), so it is never followed.
    """
    h, w = old.shape[:2]
    old, new = (np.where(clear, v, np.float32(np.mean(v[clear]))).astype(np.float32) for v in (old, new))
    window = cv2.createHanningWindow((w, h), cv2.CV_32F)
    rough: tuple[float, np.ndarray] | None = None
    for angle, measured in _far_turns(old, new):
        turned = np.vstack([cv2.getRotationMatrix2D(((w - 1) / 2, (h - 1) / 2), angle, 1.0), [0.0, 0.0, 1.0]])
        (dx, dy), agree = cv2.phaseCorrelate(cv2.warpPerspective(old, turned, (w, h)), new, window)
        turned = np.array([[1.0, 0.0, dx], [0.0, 1.0, dy], [0.0, 0.0, 1.0]]) @ turned
        fit = _fitted(cv2.warpPerspective(old8, turned, (w, h), borderMode=cv2.BORDER_REPLICATE), new8,
                      cv2.perspectiveTransform(found.astype(np.float64), turned).astype(np.float32))
        if fit is not None:
            return fit @ turned
        if measured and abs(angle) > FOLLOW_TURN and (rough is None or agree > rough[0]):
            rough = (agree, turned)
    return None if rough is None else rough[1]


def _far_turns(old: np.ndarray, new: np.ndarray) -> list[tuple[float, bool]]:
    """The turns (degrees, as `cv2.getRotationMatrix2D` turns a picture) to look again from, when the tracker
    found none, each with whether the spectra measured it: the turn the two pictures' spectra measure, either
    way up, then `FAR_TURNS`, each unless one tried (or no turn) lies within `TRIED_NEAR` of it.

    Tried only at 12 and 24 degrees, a camera turned 30 degrees or more on its
    mount (swung round on its arm) was found by none, and nothing was said:
    the marked tray stayed where it was, off the tray. The spectrum's
    magnitude does not move with the picture, only turns with it (and is the
    same turned half round), so its turn is measured wherever the camera
    points: 30, 45, 90 or 180 degrees alike, in some 2 ms.
    """
    measured = _spectrum_turn(old, new)
    tried: list[tuple[float, bool]] = [(0.0, False)]
    for i, angle in enumerate((-measured, 180.0 - measured, *FAR_TURNS)):
        angle = (angle + 180.0) % 360.0 - 180.0
        if all(abs((angle - t + 180.0) % 360.0 - 180.0) >= TRIED_NEAR for t, _ in tried):
            tried.append((angle, i < 2))
    return tried[1:]


def _spectrum_turn(old: np.ndarray, new: np.ndarray) -> float:
    """Degrees the picture ``new`` is turned from ``old`` (clockwise as shown, as `Turn.angle`; one way up or
    the other: less 180), measured on their middle squares' spectra drawn round their middle (Fourier-Mellin)."""
    polar = [_polar_spectrum(view) for view in (old, new)]
    (_, rows), _ = cv2.phaseCorrelate(polar[0], polar[1])
    return float(rows) * 360.0 / SPECTRUM_ANGLES


def _polar_spectrum(view: np.ndarray) -> np.ndarray:
    """The magnitude of the middle square of ``view``'s spectrum (softened at its edges, log scaled), drawn
    round its middle: a row for each degree, a column for each frequency between the lowest (the light's
    unevenness) and the highest (the camera's noise) left out."""
    h, w = view.shape[:2]
    side = min(h, w)
    top, left = (h - side) // 2, (w - side) // 2
    square = view[top:top + side, left:left + side].astype(np.float32)
    square = (square - float(square.mean())) * cv2.createHanningWindow((side, side), cv2.CV_32F)
    magnitude = np.log1p(np.abs(np.fft.fftshift(np.fft.fft2(square)))).astype(np.float32)
    polar = cv2.warpPolar(magnitude, (side // 2, SPECTRUM_ANGLES), (side / 2, side / 2), side / 2,
                          cv2.WARP_POLAR_LINEAR + cv2.INTER_LINEAR)
    return np.ascontiguousarray(polar[:, side // 16:side // 2 - side // 8])


def _fitted(old: np.ndarray, new: np.ndarray, found: np.ndarray, levels: int = TRACK_LEVELS) -> np.ndarray | None:
    """The homography most of the points ``found`` in ``old`` agree on, tracked into ``new`` over ``levels``
    pyramid levels (and back again to where they were found); None when too few were tracked or too few agree."""
    if len(found) < LEAST_POINTS:
        return None
    track = {"winSize": TRACK_WINDOW, "maxLevel": levels}
    ahead, went, _ = cv2.calcOpticalFlowPyrLK(old, new, found, None, **track)
    back, came, _ = cv2.calcOpticalFlowPyrLK(new, old, ahead, None, **track)
    home = np.linalg.norm((back - found).reshape(-1, 2), axis=1) < TRACKED_BACK
    tracked = (went.ravel() == 1) & (came.ravel() == 1) & home
    if np.count_nonzero(tracked) < LEAST_POINTS:
        return None
    fit, agreed = cv2.findHomography(found[tracked], ahead[tracked], cv2.RANSAC, FIT_TOLERANCE)
    if fit is None or agreed is None or int(agreed.sum()) < max(LEAST_POINTS, AGREE * np.count_nonzero(tracked)):
        return None
    return fit


def _spread(found: np.ndarray | None, shape: tuple[int, ...]) -> np.ndarray:
    """The strongest points ``found`` (strongest first, as the finder gives them), at most an even share of
    `TURN_POINTS` in each cell (`motion.move_cells`): a board's printed grid, its corners the strongest in view, would
    otherwise be all the points tracked, and the fit would follow the board."""
    if found is None:
        return np.empty((0, 1, 2), np.float32)
    h, w = shape[:2]
    across, down = MOVE_CELLS
    share = TURN_POINTS // (across * down)
    cell = (np.minimum(found[:, 0, 1] * down // h, down - 1) * across
            + np.minimum(found[:, 0, 0] * across // w, across - 1)).astype(int)
    taken: dict[int, int] = {}
    kept = []
    for i, c in enumerate(cell.tolist()):
        taken[c] = taken.get(c, 0) + 1
        if taken[c] <= share:
            kept.append(i)
    return found[kept]


def _clear_of(shape: tuple[int, ...], boxes: Sequence[tuple[float, float, float, float]]) -> np.ndarray:
    """Where a small view of ``shape`` lies clear of ``boxes`` (its px, each grown a fifth) and of its edges."""
    h, w = shape[:2]
    clear = np.zeros((h, w), bool)
    clear[2:h - 2, 2:w - 2] = True
    for x0, y0, x1, y1 in boxes:
        grow = 0.2 * max(x1 - x0, y1 - y0)
        cols = slice(max(0, int(x0 - grow)), max(0, min(w, math.ceil(x1 + grow))))
        rows = slice(max(0, int(y0 - grow)), max(0, min(h, math.ceil(y1 + grow))))
        clear[rows, cols] = False
    return clear
