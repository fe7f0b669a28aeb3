"""A hard shadow's band across a dice tray, found and lifted off before the dice are looked for.

A spotlight past the camera's arm, or past a player's, lays a band of shadow
with sharp, straight edges across the tray. The detector learnt dice in even
light: in a band that keeps a quarter of the light, 13 of the byler holdout's
102 dice lying in it were lost. Dividing the frame by its own blurred light did
not help (the dice are as big as the blur, and the lift reached dice outside
the band), and the frame as a whole is not dim, so the dim room's lift never
comes in.

What tells a shadow from a dark stripe of the table is its edges: in log light
a shadow's edge is one step, the same wherever it crosses (tray, rim, paper,
die), in every colour alike, and a band's two edges step by the same amount,
down then up. So the band is looked for as two long straight parallel edges
with equal and opposite steps (`find_band`, on a small copy of the frame); each
edge is then fitted at full size, its place, its softness and its step in each
colour, and the band is lifted by that step (`ShadowBand.lifted`). A band is
not lifted where the lift would clip its inside white (`CLIPS_MORE`): the tray
itself seen as a band between its rims, once, lifted its floor to white.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import cv2
import numpy as np

from vision.frames import to_levels, to_light

# The coarse search: the frame shrunk to SEARCH_SIDE px on its long side, lines tried in SEARCH_TURNS directions
# round a half turn, a px apart; a line's step is the log level STEP_AT px past it less STEP_AT px before it.
SEARCH_SIDE = 96
SEARCH_LEAST = 16  # px: a frame whose short side shrinks under this is not searched
SEARCH_TURNS = 36
STEP_AT = 2.0
# Only pixels where the small frame's log level changes by SLOPE_LEAST a pixel or more (blurred by SLOPE_BLUR px
# first) are looked at across, each for the lines VOTE_TURNS turns either side of its change's own direction (a
# band's edge across a busy photo's texture turns its pixels' directions by up to 20 degrees).
SLOPE_LEAST = 0.04
SLOPE_BLUR = 1.2
VOTE_TURNS = 4
# An edge: at least AGREE of the line's length (inside the frame, itself at least LINE_LEAST of the short side) steps
# the same way by STEP_LEAST to STEP_MOST in log levels (the dark side 0.86 to 0.14 as light as the other).
STEP_LEAST = 0.15
STEP_MOST = 2.0
AGREE = 0.6
LINE_LEAST = 0.5
# A band: its two edges at least WIDTH_LEAST of the short side apart, their mean steps equal within STEPS_MATCH.
WIDTH_LEAST = 0.06
STEPS_MATCH = 0.15
# The best BANDS_TRIED bands of the coarse search are fitted in turn, the first that fits a shadow taken.
BANDS_TRIED = 3
# The fit at full size: from COARSE_REACH small px each side of the coarse line (its offset may be a px or two off,
# where the step measured beside the edge agreed best), then from FITTED_REACH px each side of the first fit's line;
# samples SAMPLE_EVERY px along it, each counting when its step in log light is within SAMPLE_AGREE of the line's
# median step, the line fitted when SAMPLES_LEAST count.
COARSE_REACH = 2.5
FITTED_REACH = 8
SAMPLE_EVERY = 2.0
SAMPLE_AGREE = 0.15
SAMPLES_LEAST = 15
# The fitted band: each colour's step in log light on both edges at least FITTED_LEAST and equal within FITTED_MATCH,
# the three colours' steps within COLOURS_AGREE of their mean (a shadow darkens every colour alike), the edges
# parallel within PARALLEL_DEGREES.
FITTED_LEAST = 0.15
FITTED_MATCH = 0.3
COLOURS_AGREE = 0.25
PARALLEL_DEGREES = 4.0
# Not lifted when more of the band's inside than of the frame outside it would be clipped (254 or more in a colour):
# by CLIPS_MORE of it. Every shadowed photo of the three sets clipped at most 0.07 more; the tray taken for a band 0.89.
CLIPS_MORE = 0.2
# Frames with a short side under this are not searched: no band and die both fit.
SIDE_LEAST = 48
# Each level's log light (`frames.to_light`), a shadow being the light times a share: on a blue tray in a band keeping
# 0.15 of the light, the dark green channel, in the curve's straight foot, stepped 1.3 in log levels and blue 0.88.
_LIGHT = to_light(np.arange(256))
_LOG_LIGHT = np.log(_LIGHT + 1e-4).astype(np.float32)
_LOG_LEVEL = np.log(np.arange(256) + 4.0).astype(np.float32)  # the coarse search's, in levels (cheaper, near enough)


@dataclass(frozen=True)
class BandEdge:
    """One straight edge at full size: the pixels p with p . normal = offset lie on it; ``steps`` is the log light
    of each colour (BGR) crossing it along the normal, ``softness`` its blur (px, as a Gaussian's sigma)."""

    normal: np.ndarray
    offset: float
    softness: float
    steps: np.ndarray

    def past(self, shape: tuple[int, ...]) -> np.ndarray:
        """How far each pixel of a frame of ``shape`` lies past the edge along its normal, 0..1, blurred as the edge
        is: a straight ramp 2.5 softnesses wide, as steep in its middle as a Gaussian's integral (and far cheaper)."""
        across = np.add.outer(np.arange(shape[0], dtype=np.float32) * np.float32(self.normal[1]),
                              np.arange(shape[1], dtype=np.float32) * np.float32(self.normal[0]))
        # In place: a whole frame's floats, each step the same sum, quotient and clip as written out.
        across -= np.float32(self.offset)
        across /= np.float32(2.5 * self.softness)
        across += 0.5
        return np.clip(across, 0.0, 1.0, out=across)


@dataclass(frozen=True)
class ShadowBand:
    """A shadow's band: the light drops at ``into`` and comes back at ``out`` (normals pointing the same way)."""

    into: BandEdge
    out: BandEdge

    @property
    def kept(self) -> float:
        """The share of the light the band keeps, over the three colours."""
        return float(1.0 / self.gains.mean())

    @property
    def gains(self) -> np.ndarray:
        """What the band's light is multiplied by to be the light outside it, per colour (BGR), in light (not in the
        picture's levels, whose curve makes a dark colour step further than a light one)."""
        return np.exp((self.out.steps - self.into.steps) / 2.0).astype(np.float32)

    def inside(self, shape: tuple[int, ...]) -> np.ndarray:
        """How far each pixel of a frame of ``shape`` lies inside the band, 0..1."""
        inside, out = self.into.past(shape), self.out.past(shape)
        inside *= np.subtract(1.0, out, out=out)
        return inside

    def lifted(self, frame: np.ndarray) -> np.ndarray | None:
        """The frame with the band's light made the light round it; None when that would clip the band's inside
        more than the frame outside it (no shadow: a dark stripe of the table, or the tray between its rims)."""
        inside = self.inside(frame.shape)
        # A colour at a time, each lifted whole through a table of its 256 levels (in light, then back to levels),
        # then blended in by how far inside the band each pixel lies: only the edges' few px are partly lifted.
        planes = []
        for plane, gain in zip(cv2.split(frame), self.gains, strict=True):
            whole = cv2.LUT(plane, to_levels(_LIGHT * float(gain)))
            change = cv2.subtract(whole, plane, dtype=cv2.CV_32F)
            change *= inside
            change += plane
            planes.append(cv2.convertScaleAbs(change))
        out = cv2.merge(planes)
        clipped = cv2.inRange(out, (0, 0, 0), (253, 253, 253)) == 0
        within, without = inside > 0.9, inside < 0.1
        inner, outer = np.count_nonzero(within), np.count_nonzero(without)
        if inner and outer and (np.count_nonzero(clipped & within) / inner
                                > np.count_nonzero(clipped & without) / outer + CLIPS_MORE):
            return None
        return out


def band_lifted(frame: np.ndarray) -> np.ndarray:
    """The frame with a shadow's band lifted off (`find_band`), or the frame itself when it shows none."""
    return lift_band(frame)[0]


def lift_band(frame: np.ndarray) -> tuple[np.ndarray, ShadowBand | None]:
    """`band_lifted`, and the band lifted off (None when none was)."""
    band = find_band(frame)
    lifted = band.lifted(frame) if band is not None else None
    return (frame, None) if lifted is None else (lifted, band)


def find_band(frame: np.ndarray) -> ShadowBand | None:
    """A shadow's band across a BGR frame, fitted at its full size; None when it shows none."""
    if min(frame.shape[:2]) < SIDE_LEAST:
        return None
    coarse_reach = max(FITTED_REACH, int(np.ceil(COARSE_REACH * max(frame.shape[:2]) / SEARCH_SIDE)))
    for normal, into_offset, out_offset in _coarse_bands(frame):
        # Fitted once, a line's middle is placed and its steps measured there: enough to turn down the tray's rims
        # before the second fit, which places its ends.
        edges = []
        for offset in (into_offset, out_offset):
            edge = _fitted_edge(frame, normal, offset, coarse_reach)
            if edge is None:
                break
            edges.append(edge)
        if len(edges) < 2 or not _a_shadow(*edges):
            continue
        into, out = (_fitted_edge(frame, edge.normal, edge.offset) or edge for edge in edges)
        if _a_shadow(into, out):
            return ShadowBand(into, out)
    return None


def _a_shadow(into: BandEdge, out: BandEdge) -> bool:
    """Whether two fitted edges bound a shadow: steps down and up alike, in every colour alike, edges parallel."""
    down, up = -into.steps, out.steps
    return bool(np.abs(down - up).max() <= FITTED_MATCH and min(down.min(), up.min()) >= FITTED_LEAST
                and all(np.ptp(side) <= COLOURS_AGREE * side.mean() for side in (down, up))
                and float(into.normal @ out.normal) >= np.cos(np.deg2rad(PARALLEL_DEGREES)))


def _coarse_bands(frame: np.ndarray) -> list[tuple[np.ndarray, float, float]]:
    """The best bands of the small search, best first, one a turn: (unit normal, offset of the edge into it, offset of
    the edge out of it) in the frame's own pixels. The tray between its rims is a band to this search too, and
    scored better than a shadow across it in one photo of 40."""
    height, width = frame.shape[:2]
    scale = SEARCH_SIDE / max(height, width)
    size = (round(width * scale), round(height * scale))
    if min(size) < SEARCH_LEAST:  # a strip: no two edges of a band fit across it
        return []
    small = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    while small.shape[0] >= 2 * size[1] and small.shape[1] >= 2 * size[0]:  # area alone took 1.4 ms a 640 px frame
        small = cv2.pyrDown(small)
    small = cv2.resize(small, size, interpolation=cv2.INTER_AREA)
    scale = size[0] / width
    grey = cv2.GaussianBlur(cv2.LUT(small, _LOG_LEVEL), (0, 0), 0.7)  # a table: 5 times numpy's indexing's speed
    lines = _search_lines(*grey.shape)
    # Each pixel where the light changes votes for the lines through it across its change's own direction (the
    # nearest turns), with the step measured there: a tenth of the pixels, or less, instead of every pixel each turn.
    smooth = cv2.GaussianBlur(grey, (0, 0), SLOPE_BLUR)  # a speckled tray's grain changes too, in every direction
    across_x, across_y = cv2.Sobel(smooth, cv2.CV_32F, 1, 0) / 8.0, cv2.Sobel(smooth, cv2.CV_32F, 0, 1) / 8.0
    slope = cv2.magnitude(across_x, across_y).ravel()
    changing = np.flatnonzero(slope > SLOPE_LEAST)
    if changing.size == 0:  # an empty tray, evenly lit
        return []
    heading = cv2.phase(across_x, across_y).ravel()[changing]  # 0..2 pi, towards the lighter side
    nearest = np.rint(heading / (np.pi / SEARCH_TURNS)).astype(np.int64)
    turns = (nearest[None, :] + np.arange(-VOTE_TURNS, VOTE_TURNS + 1)[:, None]) % SEARCH_TURNS
    height, width = grey.shape
    xs, ys = (changing % width).astype(np.float32), (changing // width).astype(np.float32)
    cos, sin = lines.normals[turns, 0], lines.normals[turns, 1]
    ahead_x, ahead_y = xs + STEP_AT * cos, ys + STEP_AT * sin
    behind_x, behind_y = xs - STEP_AT * cos, ys - STEP_AT * sin
    steps = (cv2.remap(grey, ahead_x, ahead_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
             - cv2.remap(grey, behind_x, behind_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE))
    size = np.abs(steps)
    seen = ((np.minimum(ahead_x, behind_x) >= 0) & (np.maximum(ahead_x, behind_x) <= width - 1)
            & (np.minimum(ahead_y, behind_y) >= 0) & (np.maximum(ahead_y, behind_y) <= height - 1))
    sized = (size > STEP_LEAST) & (size < STEP_MOST) & seen
    voting = np.rint(xs * cos + ys * sin).astype(np.int64) - lines.first + turns * lines.per_turn
    shares, mean_steps = [], []
    for way in (sized & (steps < 0), sized & (steps > 0)):
        bins = voting[way]
        counts = np.bincount(bins, minlength=lines.share.size)
        shares.append((counts * lines.share).reshape(SEARCH_TURNS, -1))
        sums = np.bincount(bins, steps[way], lines.share.size)
        mean_steps.append((sums / np.maximum(counts, 1)).reshape(SEARCH_TURNS, -1))
    down_share, up_share = shares
    found: list[tuple[float, int, int, int]] = []
    for turn in np.flatnonzero(((down_share >= AGREE).any(axis=1)) & ((up_share >= AGREE).any(axis=1))):
        into, out = np.flatnonzero(down_share[turn] >= AGREE), np.flatnonzero(up_share[turn] >= AGREE)
        into_steps, out_steps = mean_steps[0][turn][into], mean_steps[1][turn][out]
        fits = ((out[None, :] - into[:, None] >= WIDTH_LEAST * min(grey.shape))
                & (np.abs(into_steps[:, None] + out_steps[None, :]) <= STEPS_MATCH))
        if fits.any():
            score = np.where(fits, down_share[turn][into][:, None] + up_share[turn][out][None, :], -1.0)
            i, j = np.unravel_index(int(score.argmax()), score.shape)
            found.append((float(score[i, j]), int(turn), int(into[i]), int(out[j])))
    kept: list[tuple[float, int, int, int]] = []
    for band in sorted(found, reverse=True):  # a band is found at the turns next to its own too: kept once
        if all(min(abs(band[1] - other[1]), SEARCH_TURNS - abs(band[1] - other[1])) > 1 for other in kept):
            kept.append(band)
    return [(lines.normals[turn].astype(np.float64), (into_bin + lines.first) / scale, (out_bin + lines.first) / scale)
            for _, turn, into_bin, out_bin in kept[:BANDS_TRIED]]


@dataclass(frozen=True)
class _Lines:
    """The coarse search's lines over a small frame of one shape: line i of turn k is bin k * per_turn + i, at
    offset i + first along the turn's normal; ``share`` is each line's share of a pixel (1 / its pixels, 0 for a
    line under LINE_LEAST of the short side)."""

    normals: np.ndarray  # turns x 2, float32
    per_turn: int
    first: int
    share: np.ndarray


@functools.cache
def _search_lines(height: int, width: int) -> _Lines:
    turns = np.arange(SEARCH_TURNS) * np.pi / SEARCH_TURNS
    normals = np.stack([np.cos(turns), np.sin(turns)], axis=1).astype(np.float32)
    ys, xs = np.mgrid[0:height, 0:width]
    offsets = normals[:, :1] * xs.ravel()[None, :] + normals[:, 1:] * ys.ravel()[None, :]
    first = int(np.floor(offsets.min()))
    per_turn = int(np.ceil(offsets.max())) - first + 1
    bins = np.rint(offsets).astype(np.int64) - first + np.arange(SEARCH_TURNS)[:, None] * per_turn
    total = np.bincount(bins.ravel(), minlength=SEARCH_TURNS * per_turn)
    share = np.where(total >= LINE_LEAST * min(height, width), 1.0 / np.maximum(total, 1), 0.0)
    return _Lines(normals, per_turn, first, share)


def _fitted_edge(frame: np.ndarray, normal: np.ndarray, offset: float, reach_px: int = FITTED_REACH
                 ) -> BandEdge | None:
    """The edge near the line (``normal``, ``offset``) fitted at full size from where it lies within ``reach_px`` of
    that line: from a coarse line, whose turn is up to 2.5 degrees off, its middle; fitted again, all of it."""
    height, width = frame.shape[:2]
    along = np.array([-normal[1], normal[0]])
    span = float(np.hypot(height, width))
    points = normal * offset + np.arange(-span, span, SAMPLE_EVERY)[:, None] * along
    inside = ((points[:, 0] >= reach_px) & (points[:, 0] < width - reach_px)
              & (points[:, 1] >= reach_px) & (points[:, 1] < height - reach_px))
    points = points[inside]
    if len(points) < SAMPLES_LEAST:
        return None
    reach = np.arange(-reach_px, reach_px + 1, dtype=np.float64)
    profiles = _colours_mean(_sampled(frame, points, normal, reach))
    low, high = profiles[:, :3].mean(axis=1), profiles[:, -3:].mean(axis=1)
    step = high - low
    typical = float(np.median(step))
    agree = (np.abs(step - typical) < SAMPLE_AGREE) & (np.abs(step) >= FITTED_LEAST / 2)
    if agree.sum() < SAMPLES_LEAST:
        return None
    profiles, points = profiles[agree], points[agree]
    low, step = low[agree, None], step[agree, None]
    rise = np.maximum.accumulate((profiles - low) / step, axis=1)  # 0 before the edge, 1 past it
    middle = _crossing(rise, reach, 0.5)
    softness = max(float(np.median(_crossing(rise, reach, 0.75) - _crossing(rise, reach, 0.25))) / 1.35, 0.5)
    on_edge = (points + middle[:, None] * normal[None, :]).astype(np.float32)
    vx, vy, x0, y0 = cv2.fitLine(on_edge, cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
    fitted = np.array([-vy, vx], np.float64)
    fitted = fitted if fitted @ normal >= 0 else -fitted
    fitted_offset = float(fitted @ np.array([x0, y0]))
    # Each colour's step, measured past the edge's blur on both sides of the fitted line.
    on_line = on_edge - ((on_edge @ fitted) - fitted_offset)[:, None] * fitted[None, :]
    far = max(2.5 * softness + 1.5, 4.0)
    ring = np.array([-far - 1.0, -far, far, far + 1.0])
    across = _sampled(frame, on_line, fitted, ring)
    steps = np.median(across[:, 2:].mean(axis=1) - across[:, :2].mean(axis=1), axis=0)
    return BandEdge(fitted, fitted_offset, softness, steps)


def _sampled(frame: np.ndarray, points: np.ndarray, normal: np.ndarray, reach: np.ndarray) -> np.ndarray:
    """The frame's log light along ``normal`` through each point (rows) at each distance of ``reach`` (columns), per
    colour: sampled first, so the log is looked up for these few pixels, not for the frame."""
    map_x = (points[:, :1] + reach[None, :] * normal[0]).astype(np.float32)
    map_y = (points[:, 1:] + reach[None, :] * normal[1]).astype(np.float32)
    return cv2.LUT(cv2.remap(frame, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE), _LOG_LIGHT)


def _colours_mean(light: np.ndarray) -> np.ndarray:
    """The mean of the colours (the last axis, of 3) of float32 ``light``: ``light.mean(axis=-1)`` to the bit (summed
    in the same order, the first colour first), in a tenth of its time (numpy reduces an axis of 3 slowly)."""
    return (light[..., 0] + light[..., 1] + light[..., 2]) / 3


def _crossing(rise: np.ndarray, reach: np.ndarray, level: float) -> np.ndarray:
    """Where each row of the rising ``rise`` first reaches ``level``, between samples, in ``reach``'s units."""
    after = np.clip(np.argmax(rise >= level, axis=1), 1, rise.shape[1] - 1)
    rows = np.arange(len(rise))
    before_value, after_value = rise[rows, after - 1], rise[rows, after]
    share = np.clip((level - before_value) / np.maximum(after_value - before_value, 1e-6), 0.0, 1.0)
    return reach[after - 1] + share * (reach[after] - reach[after - 1])
