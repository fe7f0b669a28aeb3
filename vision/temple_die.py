"""The temple's 20-sided die: value (X or a number) and background colour (red or white) of its top face.

There is no public photo set of this die, so the reader works by examples: a
café teaches it its own die (`teach`: show each face once or a few times), and
until then it uses examples rendered by `temple_die_render`. Reading: find the
die against the tray, take its top face round the die's middle, call the face's
colour by the nearest taught colour, and its glyph by the best match over all
rotations of the taught glyphs.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from companion.observations import CONFIRM_BELOW
from vision.card_catalogue import TEMPLE_DATA
from vision.die_on_board import BoardMemory
from vision.frames import MIN_SIDE, as_bgr, colourless, lifted
from vision.markers import board_outline, coarse_markers, paper_white
from vision.readings import DieReading
from vision.shadow_band import band_lifted
from vision.taught import DIE_FILE, write_whole
from vision.temple_die_render import FACE_COLOURS, render_temple_die

GLYPH_SIZE = 32
ROTATIONS = 24
TEMPLE_VALUES: tuple[str, ...] = ("X", "1", "2", "3", "4", "5", "6", "7")
GREY_CONFIDENCE = 0.5  # at most, for a face read in a grey picture: its colour is a guess between two, to be asked
# A dim room (`frames.lifted`): the die is told from its tray by colour distances and edges of fixed size, which
# shrink with the light. `eval-temple-die` at half its exposure read 0.691 of values (0.716 of colours), at 0.3
# 0.069 / 0.213. A picture darker than DIM_BELOW is lifted towards DIM_TARGET (the renders' median): half 0.825
# / 0.853, 0.3 0.759 / 0.778, as rendered 0.984 / 0.994 as before. Lifting every picture under 70 or 56 read
# half its exposure 0.903 or 0.872 but lost 3 of 320 as rendered, on dark trays.
DIM_BELOW = 45
DIM_TARGET = 100.0
# The top face is then found and read by colour distances and lightness steps of fixed size, so a die in a
# half-lit picture, whole frame lifted or not, lost its face: at 0.7 of the exposure 0.906 of values were read, at
# half 0.825 (43 of 320 frames with no face found). The square round the die is lifted on its own (`face_sample`)
# where its 95th-percentile grey is under VIEW_DIM_BELOW, towards VIEW_TARGET (white faces as rendered reach 176 and
# more, red ones 91): 0.7 0.975, half 0.978, 0.3 0.966, as rendered 0.991 / 1.0 (0.984 / 0.994 before); seed 12 of
# the same renders as rendered 0.991 -> 0.997, 0.7 0.900 -> 0.972, half 0.825 -> 0.969.
VIEW_DIM_BELOW = 140
VIEW_TARGET = 170.0
# A lamp's glare on the top face hides part of the value or adds a bright blot to it, and a face so spoilt was read
# as another value surely enough to be applied: with one spot of glare the size of the glyph on each of
# `eval-temple-die`'s 320 faces, 5 wrong readings at 80% or more (74 values right of 320). Glare is what lies
# GLARE_ABOVE brighter (Lab lightness, 0..255) than both the face and its glyph; on faces without glare it covered
# 0.027 of the face at most, and a face where more than GLARE_SHARE does is read at most GLARE_CONFIDENCE surely
# (asked), which asks 3 of those 5 (the other two: glare no brighter than a face the camera clipped already).
GLARE_ABOVE = 15.0
GLARE_SHARE = 0.04
GLARE_CONFIDENCE = 0.5


def die_faces(data_dir: Path | None = None) -> set[tuple[str, str]]:
    """(value, colour) of every face the game's die data lists: what a teach step may be told."""
    try:
        doc = json.loads(((data_dir or TEMPLE_DATA) / "die.json").read_text())
        return {(str(face["value"]), str(face["colour"])) for face in doc["faces"]}
    except (OSError, ValueError, KeyError, TypeError):
        return {(value, colour) for value in TEMPLE_VALUES for colour in FACE_COLOURS}


# ---------------------------------------------------------------- reading

MAX_DIE_SHARE = 0.8  # of the frame's short side: a blob wider than this is no die
TRAY_APART = 30  # Lab distance from the tray's colour at which a pixel differs from it
# A die in or beside a shadow's band across the tray (`_in_a_shadow`): some of its top face may lie in the shadow
# and some not, and a glyph so split was read as another value; such a face is read at most SHADOW_CONFIDENCE
# surely (asked) and not taught.
SHADOW_CONFIDENCE = 0.5
# A die rolled onto the board is taken only when read this surely (`TempleDieReader.read`): of 100 rendered pawn
# moves with the die away from the board, 7 left a face read at 0.37-0.68 (1 once blobs unlike the die in size were
# left out), and of 100 dice rolled onto it (`eval-temple-die --on-board`) 95 were read at 0.8 or more, all right.
ON_BOARD_SURE = CONFIRM_BELOW  # applied without the confirm tap


SEARCH_SIDE = 320  # px of the long side the die is looked for at


def search_lab(frame: np.ndarray) -> tuple[float, np.ndarray] | None:
    """(scale, the frame shrunk by it to SEARCH_SIDE in Lab as float32): what the die is looked for in, beside the
    board and on it; None for a strip too thin to hold a die."""
    scale = SEARCH_SIDE / max(frame.shape[:2])
    if min(frame.shape[:2]) * scale < MIN_SIDE:
        # A strip this thin holds no blob both as large as a die (40 px) and narrower than MAX_DIE_SHARE of
        # it; and shrunk to under a pixel, it made OpenCV's resize raise.
        return None
    small = cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    return scale, cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32)


def find_die_in_light(frame: np.ndarray, ignore: np.ndarray | None = None,
                      searched: tuple[float, np.ndarray] | None = None
                      ) -> tuple[tuple[float, float, float] | None, bool]:
    """The die as (cx, cy, radius), and whether it was found in or beside a shadow's band (`_in_a_shadow`): its top
    face may be half in it. The die is the largest blob that differs in colour from the tray (`tray_distance`),
    grown on a smooth tray by the busy edges next to it.

    ``ignore`` is a polygon (frame pixels) where no die is looked for and the
    tray is not sampled: the temple board, when its markers are in view.
    ``searched``: `search_lab` of the frame, made already.
    """
    searched = searched or search_lab(frame)
    if searched is None:
        return None, False
    small_scale, lab = searched
    keep = np.ones(lab.shape[:2], np.uint8)
    if ignore is not None:
        cv2.fillPoly(keep, [np.round(ignore * small_scale).astype(np.int32)], 0)
    differs = (tray_distance(lab, keep.astype(bool)) > TRAY_APART).astype(np.uint8) & keep
    # A die on a tray of its own colour differs from it only in part, but its faces' edges
    # still show. On a smooth tray the busy areas join the die; on a grained one, busy
    # all over, they would join the die to the whole tray, so only colour counts there.
    light = cv2.GaussianBlur(lab[:, :, 0], (0, 0), 1.0)
    edges = cv2.magnitude(cv2.Sobel(light, cv2.CV_32F, 1, 0), cv2.Sobel(light, cv2.CV_32F, 0, 1))
    busy = (cv2.GaussianBlur(edges, (0, 0), 3.0) > 25).astype(np.uint8) & keep
    wide, die = _largest_blob(differs | busy if busy.mean() < 0.15 else differs, differs, lab.shape)
    in_a_shadow = die is None and wide is not None
    if in_a_shadow:
        die = _in_a_shadow(lab, differs, wide)
    if die is None:
        return None, False
    x, y, r = die
    return (x / small_scale, y / small_scale, r / small_scale), in_a_shadow


def _largest_blob(mask: np.ndarray, differs: np.ndarray, shape: tuple[int, ...]
                  ) -> tuple[np.ndarray | None, tuple[float, float, float] | None]:
    """The blobs of ``mask`` (cleaned) left out for being wider than a die, as one mask (None when there are
    none), and the circle (cx, cy, radius) round the largest die-sized one (None when there is none)."""
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
    # Busy areas that join nothing differing in colour (a crumb, a shadow's edge) are not the die.
    opened = cv2.morphologyEx(differs, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    differing = np.bincount(labels[opened > 0], minlength=count)
    areas = np.where(differing >= 20, stats[:, cv2.CC_STAT_AREA], 0)
    # Nor is a blob wider than most of the frame's short side: that is a board, a sheet or a
    # hand (the die at its largest in a tray camera is under half of it).
    extent = np.maximum(stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT])
    wide = (extent > MAX_DIE_SHARE * min(shape[:2])) & (areas > 0)
    wide[0] = False
    areas[wide] = 0
    areas[0] = 0
    best = int(areas.argmax())
    left_out = np.isin(labels, np.flatnonzero(wide)).astype(np.uint8) if wide.any() else None
    if areas[best] < 40:
        return left_out, None
    (x, y), r = cv2.minEnclosingCircle(cv2.findNonZero((labels == best).astype(np.uint8)))
    return left_out, (x, y, r)


def _in_a_shadow(lab: np.ndarray, differs: np.ndarray, wide: np.ndarray) -> tuple[float, float, float] | None:
    """The die looked for again where a blob wider than a die was left out: a shadow's band across the tray
    (a lamp past the camera's arm) differs from the lit tray as much as the die does, and a die lying in it or
    touching it joined it and went with it. Inside, what lies near the band's own colour (its median) is tray too.
    A die found so lay by the band, whose edge may cross its top face."""
    band = np.median(lab[wide > 0], axis=0)
    shadow = (np.sqrt(((lab - band) ** 2).sum(axis=2)) <= TRAY_APART).astype(np.uint8)
    return _largest_blob(differs & (1 - shadow), differs, lab.shape)[1]


def tray_distance(lab: np.ndarray, keep: np.ndarray | None = None) -> np.ndarray:
    """How far each pixel's colour is from the empty tray's, the tray being a plane through the border's colours.

    A single border median made a tray lit from one side differ from itself by
    more than the die does, and its bright end was taken for the die.
    """
    grid_x, grid_y = unit_grids(*lab.shape[:2])

    def border(image: np.ndarray) -> np.ndarray:
        return np.concatenate([image[0], image[-1], image[:, 0], image[:, -1]])

    values, xs, ys = border(lab), border(grid_x), border(grid_y)
    if keep is not None and np.count_nonzero(sampled := border(keep)) >= MIN_TRAY_BORDER:
        values, xs, ys = values[sampled], xs[sampled], ys[sampled]  # the board's rim is no tray
    design = np.stack([np.ones_like(xs), xs, ys], 1)
    # Least absolute deviations by reweighting: a die touching the border must not tilt the plane.
    weights = np.ones(len(design), np.float32)
    for _ in range(4):
        weighted = design * weights[:, None]
        # The small ridge keeps a frame one pixel high (no vertical slope to fit) solvable.
        coef = np.linalg.solve(weighted.T @ design + RIDGE, weighted.T @ values)
        residual = np.sqrt(((values - design @ coef) ** 2).sum(axis=1))
        weights = 1 / np.sqrt(np.maximum(residual, 2.0))
    total = np.zeros(grid_x.shape, np.float32)
    for channel, (base, slope_x, slope_y) in zip(cv2.split(lab), coef.T, strict=True):
        plane = cv2.addWeighted(grid_x, float(slope_x), grid_y, float(slope_y), float(base))
        offset = cv2.subtract(channel, plane)
        total = cv2.add(total, cv2.multiply(offset, offset))
    return cv2.sqrt(total)


RIDGE = np.eye(3, dtype=np.float32) * 1e-3
MIN_TRAY_BORDER = 40  # border pixels (at 320 px) left beside the board to fit the tray by; fewer: all of them


@functools.cache
def unit_grids(h: int, w: int) -> tuple[np.ndarray, np.ndarray]:
    """x / width and y / height at every pixel, 0..1 (read only: shared between frames)."""
    grid_x, grid_y = np.meshgrid(np.linspace(0, 1, w, dtype=np.float32), np.linspace(0, 1, h, dtype=np.float32))
    grid_x.flags.writeable = False
    grid_y.flags.writeable = False
    return grid_x, grid_y


FACE_VIEW = 128  # px across the square the top face is looked for in


def face_sample(frame: np.ndarray, die: tuple[float, float, float], white: np.ndarray | None = None
                ) -> tuple[np.ndarray, np.ndarray, float, tuple[float, float]] | None:
    """(median BGR of the top face's background, normalised glyph mask, share of the face under glare, the face's
    middle in frame pixels), or None when no top face is there; looked for as white light would show it where
    ``white``, the light's colour, is known (`white_balanced`).

    The top face is the hull of the region of one colour round the die's middle,
    and the glyph is what differs inside it. A fixed disc round the middle, used
    before, reached past the face's edges (the triangle's incircle is under a
    third of the silhouette's radius) and, whenever the tray's colour hid part of
    the die and moved the middle, took neighbouring faces' edges for strokes of
    the glyph.

    A blob with no face-sized region of one colour round its middle is not the
    die: 318 of the 320 rendered faces of `eval-temple-die` have one, while the
    uneven light on a table round a board (or the board itself) makes blobs that
    have none, and reading those through a fixed disc offered dice nobody rolled.
    """
    cx, cy, r = die
    side = max(16, round(r * 2))
    view = white_balanced(cv2.getRectSubPix(frame, (side, side), (cx, cy)), white)
    view = lifted(view, VIEW_DIM_BELOW, VIEW_TARGET)
    shrink = cv2.INTER_AREA if side > FACE_VIEW else cv2.INTER_LINEAR
    view = cv2.resize(view, (FACE_VIEW, FACE_VIEW), interpolation=shrink)
    lab = cv2.cvtColor(view, cv2.COLOR_BGR2LAB).astype(np.float32)
    region = top_face_region(lab)
    if region is None:
        return None
    # The face's own rim blends into its neighbours: leave it out of the glyph's search.
    inside = cv2.erode(region.astype(np.uint8), np.ones((5, 5), np.uint8)).astype(bool)
    if not inside.any():
        return None
    glyph = face_glyph(lab, inside)  # the minority of `inside`, so the background below is never empty
    face_bgr = np.median(view[inside & ~glyph], axis=0)
    rows, cols = np.nonzero(region)
    to_frame = side / FACE_VIEW
    middle = (cx + (cols.mean() - (FACE_VIEW - 1) / 2) * to_frame, cy + (rows.mean() - (FACE_VIEW - 1) / 2) * to_frame)
    glyph_mask = normalise_glyph(main_strokes(glyph).astype(np.uint8))
    return face_bgr.astype(np.float32), glyph_mask, glare_share(lab, region, inside, glyph), middle


def glare_share(lab: np.ndarray, region: np.ndarray, inside: np.ndarray, glyph: np.ndarray) -> float:
    """The share of the face ``region`` lying GLARE_ABOVE brighter than both its background and its glyph, in
    blots of more than a pixel or two (noise)."""
    light = lab[:, :, 0]
    background = inside & ~glyph
    top = max(float(np.median(light[background])), float(np.median(light[glyph])) if glyph.any() else 0.0)
    bright = ((light > top + GLARE_ABOVE) & region).astype(np.uint8)
    bright = cv2.morphologyEx(bright, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    return float(bright.sum() / max(int(region.sum()), 1))


def face_glyph(lab: np.ndarray, region: np.ndarray) -> np.ndarray:
    """Pixels of the region far in lightness from its median: the printed value."""
    light = lab[:, :, 0]
    level = np.median(light[region])
    glyph = (np.abs(light - level) > 45) & region
    if glyph.sum() > region.sum() * 0.5:  # the glyph is the minority; flip if the split went the wrong way
        glyph = region & ~glyph
    return glyph


STROKES_KEPT = 0.15
"""A part of the glyph smaller than this share of its largest is left out of it: the 6's underline, a speck of the
face's edge. Each value of the die is one stroke, and the 6's underline, thin and close to the face's edge, was
kept on some faces and lost on others, so a 6 matched the 4 nearly as well as its own taught glyphs
(`eval-temple-die`: 2 sixes of 320 faces read as fours and 8 faces asked, now none and none). At 0.2 a 2 split by
a spot of glare lost a part and was read as a 7 surely (docs/vision.md, "Temple die reader")."""


def main_strokes(glyph: np.ndarray) -> np.ndarray:
    """The glyph mask without its parts smaller than STROKES_KEPT of its largest part."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(glyph.astype(np.uint8), connectivity=8)
    if count <= 2:
        return glyph
    areas = stats[1:, cv2.CC_STAT_AREA]
    return np.isin(labels, np.flatnonzero(areas >= STROKES_KEPT * areas.max()) + 1)


PARTS_CONFIDENCE = 0.5
"""At most, for a glyph in more or fewer parts than every glyph taught for the value it matches: a stroke cut by glare
or a shadow's edge (a 2 so cut was read as a 7 surely), or no die at all. A red card with a white letter on it lying
beside the board was read as a 1 at 0.84, its letter's holes taken for the glyph, once its smallest part was left
out (`main_strokes`); every value of the die is one part, and a café's die printed otherwise is taught so."""


def glyph_parts(glyph: np.ndarray) -> int:
    """How many separate parts a normalised glyph (`normalise_glyph`) shows."""
    return cv2.connectedComponents((glyph > 0.5).astype(np.uint8), connectivity=8)[0] - 1


def _strokes_kept(glyph: np.ndarray) -> np.ndarray:
    """A normalised glyph taught before small parts were left out (`main_strokes`), as it is taught now: otherwise
    a café's 6 taught with its underline matched the 6 now read without it less well than before."""
    drawn = glyph > 0.5
    kept = main_strokes(drawn)
    return glyph if kept.sum() == drawn.sum() else normalise_glyph(kept.astype(np.uint8))


def top_face_region(lab: np.ndarray) -> np.ndarray | None:
    """The top face, glyph included, as a mask of the view; None when no plausible face is found.

    The view's middle holds the face's colour and the glyph's, in proportions
    that vary with the glyph; each of the two (split by lightness) seeds a region
    of its colour round the middle, and the one most like a triangle is the face.
    """
    middle = disc_mask(lab.shape[0], 0.12)
    light = lab[:, :, 0][middle].astype(np.uint8)
    if np.ptp(light) < 30:  # no glyph in the middle: one colour throughout
        seeds = [np.median(lab[middle], axis=0)]
    else:
        split, _ = cv2.threshold(light, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
        upper = light.ravel() > split
        seeds = [np.median(lab[middle][side], axis=0) for side in (upper, ~upper)]
    regions = [region for region in (colour_region(lab, seed, middle) for seed in seeds) if region is not None]
    return max(regions, key=lambda region: region[1], default=(None, 0.0))[0]


LEAST_TRIANGLE_FILL = 0.6
"""The d20's top face is a triangle, and fills its smallest enclosing triangle nearly whole (1,273 faces of
`eval-temple-die`'s renders, four runs: 1% under 0.82, the least 0.595); a square fills half of it at most and a disc
0.6. Under this, a region is no top face: a path card or the draw pile lying beside the board (a card's back read as
a die every time the die was lifted, offered as a roll)."""


def colour_region(lab: np.ndarray, seed: np.ndarray, middle: np.ndarray) -> tuple[np.ndarray, float] | None:
    """The convex hull of the region of the seed's colour that overlaps the middle most, if face-sized,
    and how much of its smallest enclosing triangle it fills."""
    size = lab.shape[0]
    channels = zip(cv2.split(lab), seed, strict=True)
    light, green_red, blue_yellow = (cv2.subtract(channel, float(level)) for channel, level in channels)
    # Lightness weighs less: the face is lit unevenly, its colour holds.
    distance = cv2.magnitude(light * 0.6, cv2.magnitude(green_red, blue_yellow))
    same = cv2.morphologyEx((distance < 22).astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    count, labels = cv2.connectedComponents(same)
    overlap = np.bincount(labels[middle], minlength=count)
    overlap[0] = 0
    best = int(overlap.argmax())
    if overlap[best] == 0:
        return None
    # The face is convex: its hull takes in the glyph even where a stroke reaches the face's edge.
    hull = cv2.convexHull(cv2.findNonZero((labels == best).astype(np.uint8)))
    filled = np.zeros((size, size), np.uint8)
    cv2.fillConvexPoly(filled, hull, 1)
    # The top triangle covers about a ninth of the silhouette's square; far more
    # is neighbouring faces of the same colour run together, far less is noise.
    area = filled.sum() / (size * size)
    if not 0.04 <= area <= 0.3:
        return None
    triangle_area, _ = cv2.minEnclosingTriangle(hull.astype(np.float32))
    fill = float(filled.sum() / max(triangle_area, 1.0))
    return None if fill < LEAST_TRIANGLE_FILL else (filled.astype(bool), fill)


@functools.cache
def disc_mask(size: int, radius: float) -> np.ndarray:
    """A centred disc of `radius` times the side in a size x size square (read only: it is shared)."""
    yy, xx = np.mgrid[0:size, 0:size]
    centre = (size - 1) / 2
    disc = (xx - centre) ** 2 + (yy - centre) ** 2 <= (size * radius) ** 2
    disc.flags.writeable = False
    return disc


@dataclass(frozen=True)
class TopFace:
    """The die as (cx, cy, radius), its top face's background BGR and its normalised glyph."""

    die: tuple[float, float, float]
    bgr: np.ndarray
    glyph: np.ndarray
    glare: float = 0.0  # the share of the face under a lamp's glare (`glare_share`)
    shadow_edge: bool = False  # the die lies in or beside a shadow's band (`find_die_in_light`)

    @property
    def blank(self) -> bool:
        """No value made out on the face (a die out of focus, or its glyph washed out by glare): taught, such a
        face was stored as an empty glyph under the value named, which no later face can ever match."""
        return not self.glyph.any()


@dataclass(frozen=True)
class TableView:
    """A temple table's frame made ready for the die's search: lifted out of a shadow's band and a dim room, with
    the board's markers (`coarse_markers`), its outline (`board_outline`, None without a board), the light's
    colour from the paper round the markers (`paper_white`) and the frame shrunk for the search (`search_lab`)."""

    frame: np.ndarray
    quads: dict[int, np.ndarray]
    outline: np.ndarray | None
    white: np.ndarray | None
    searched: tuple[float, np.ndarray] | None

    @classmethod
    def of(cls, frame: np.ndarray) -> TableView:
        frame = lifted(band_lifted(frame), DIM_BELOW, DIM_TARGET)
        quads = coarse_markers(frame)
        return cls(frame, quads, board_outline(frame, quads), paper_white(frame, quads), search_lab(frame))


def top_face(frame: np.ndarray, view: TableView | None = None) -> TopFace | None:
    """The die's top face sampled from a frame, or None when the frame is unusable or shows no die beside the board.

    The temple game's camera sees the board too: the board is left out when its
    markers show, or it would be taken for the die (and taught as one); and the
    paper round its markers shows the light's colour, which the face's colour is
    taken as seen under white light by (`white_balanced`). A spotlight's band of
    shadow across the tray is lifted off first (`shadow_band`): a die in it was
    joined to it, or its face read by half its light. ``view``: the frame so
    prepared already.
    """
    if view is None:
        frame = as_bgr(frame)
        if frame is None:
            return None
        view = TableView.of(frame)
    die, shadow_edge = find_die_in_light(view.frame, view.outline, view.searched)
    sample = None if die is None else face_sample(view.frame, die, view.white)
    return None if sample is None else TopFace(die, *sample[:3], shadow_edge=shadow_edge)


def faces_on_board(view: TableView, board: BoardMemory) -> list[TopFace]:
    """Top faces with a value on them among what is new on the board since ``board`` was remembered
    (`die_on_board`): the die rolled onto the board, or a pawn or card a hand moved meanwhile."""
    if view.outline is None or view.searched is None:
        return []
    samples = ((die, face_sample(view.frame, die, view.white))
               for die in board.new_on_it(view.searched, view.quads, view.outline))
    # Placed by its top face's middle, at the size it had beside the board where known: a blob joined by a card
    # changed beside the die, or a pawn moved off from beside it, is wider than the die and off its middle, and
    # the die so boxed no longer lay where it lay, so a card laid beside it made it a new roll.
    faces = (TopFace((*sample[3], board.die_radius or die[2]), *sample[:3]) for die, sample in samples
             if sample is not None)
    return [face for face in faces if not face.blank]


def white_balanced(image: np.ndarray, white: np.ndarray | None) -> np.ndarray:
    """A BGR picture as white light would show it, the light's colour being ``white`` (None: unknown, as seen).

    Each channel is scaled so that ``white`` would come out grey at its own mean level. A bulb's warm light
    (BGR gains 0.55, 0.85, 1.3) showed the white face nearer the red face's rendered colour than the white one's,
    and hid some faces' glyphs: of 45 faces beside the board, 35 read their colour right and 42 their value, 21
    and 43 at two thirds of that light; 45 of each so balanced (a cool light, 1.4, 1.0, 0.6: values 39 -> 44). A
    die taught by day read 11 of its 15 faces' colours right under the bulb, 15 so balanced; and teaching refused
    a white face under the bulb as looking red.
    """
    if white is None:
        return image
    return cv2.convertScaleAbs(image * (float(white.mean()) / np.maximum(white, 1.0)).astype(np.float32))


def normalise_glyph(mask: np.ndarray) -> np.ndarray:
    """Centre the glyph on its centroid and scale it by its spread: position and size no longer matter."""
    ys, xs = np.nonzero(mask)
    out = np.zeros((GLYPH_SIZE, GLYPH_SIZE), np.float32)
    if len(xs) < 5:
        return out
    cx, cy = xs.mean(), ys.mean()
    spread = max(np.sqrt(((xs - cx) ** 2 + (ys - cy) ** 2).mean()), 1.0)
    scale = (GLYPH_SIZE * 0.22) / spread
    matrix = np.array([[scale, 0, GLYPH_SIZE / 2 - cx * scale], [0, scale, GLYPH_SIZE / 2 - cy * scale]], np.float32)
    out = cv2.warpAffine(mask.astype(np.float32), matrix, (GLYPH_SIZE, GLYPH_SIZE), flags=cv2.INTER_LINEAR)
    return cv2.GaussianBlur(out, (3, 3), 0.7)


def face_name(value: object, colour: object) -> str:
    """The value as the reader keeps it; ValueError for a value or colour the die has not, raised before
    anything is stored: stored, a value of None was offered back by `read` as a roll."""
    name = str(value)
    if name not in TEMPLE_VALUES or not isinstance(colour, str) or colour not in FACE_COLOURS:
        raise ValueError(
            f"the temple die shows {', '.join(TEMPLE_VALUES)} on {' or '.join(FACE_COLOURS)}, "
            f"not {value!r} on {colour!r}"
        )
    return name


class TaughtDieUnreadable(ValueError):
    """A café's temple_die.json that is not what `TempleDieReader.save` writes."""


def _arrays(values: object, shape: tuple[int, ...], where: str, top: float | None = None) -> list[np.ndarray]:
    """Stored glyph masks or colours, each checked for its shape (and colours for lying within 0..``top``) so a
    damaged file is named, not half-read: a colour of 1e9 was cast to a byte as whatever it wrapped to and
    turned every red face white."""
    span = f" from 0 to {top:g}" if top is not None else ""
    wanted = f"{where}: expected a list of {' x '.join(map(str, shape))} numbers{span} each"
    if not isinstance(values, list):
        raise TaughtDieUnreadable(wanted)
    arrays = []
    for value in values:
        try:
            array = np.array(value, np.float32)
        except (TypeError, ValueError, OverflowError):
            raise TaughtDieUnreadable(wanted) from None
        if array.shape != shape or not np.isfinite(array).all():
            raise TaughtDieUnreadable(wanted)
        if top is not None and not ((array >= 0) & (array <= top)).all():
            raise TaughtDieUnreadable(wanted)
        arrays.append(array)
    return arrays


def teachable(face: TopFace | None) -> bool:
    """A face found with a value made out, and no glare or shadow's edge that may lie on it (`teach`)."""
    return face is not None and not face.blank and face.glare <= GLARE_SHARE and not face.shadow_edge


@functools.cache
def rendered_faces(seed: int, per_face: int) -> tuple[tuple[TopFace, str, str], ...]:
    """The rendered faces `TempleDieReader.teach` takes, sampled, with their value and colour: the same on every
    call, since the renders are seeded, so made once (each reader learns copies of them)."""
    taught = []
    rng = np.random.default_rng(seed)
    for value in TEMPLE_VALUES:
        for colour in FACE_COLOURS:
            for _ in range(per_face):
                img, _ = render_temple_die(rng, value, colour, size=(320, 240), edge=float(rng.uniform(45, 60)))
                face = top_face(img)
                if teachable(face):
                    taught.append((face, value, colour))
    return tuple(taught)


def rotations(glyph: np.ndarray) -> np.ndarray:
    centre = (GLYPH_SIZE / 2, GLYPH_SIZE / 2)
    out = [
        cv2.warpAffine(glyph, cv2.getRotationMatrix2D(centre, k * 360 / ROTATIONS, 1.0), (GLYPH_SIZE, GLYPH_SIZE))
        for k in range(ROTATIONS)
    ]
    flat = np.stack(out).reshape(ROTATIONS, -1)
    flat -= flat.mean(1, keepdims=True)
    return flat / np.maximum(np.linalg.norm(flat, axis=1, keepdims=True), 1e-6)


@dataclass
class TempleDieReader:
    """Learns a die from examples; `examples` maps value -> list of glyphs, `colours` colour -> list of BGR."""

    examples: dict[str, list[np.ndarray]] = field(default_factory=dict)
    colours: dict[str, list[np.ndarray]] = field(default_factory=dict)
    _bank: list[tuple[str, np.ndarray]] = field(default_factory=list)
    _kept: dict[str, object] = field(default_factory=dict)  # what `load` found beside glyphs and colours
    board: BoardMemory = field(default_factory=BoardMemory, repr=False, compare=False)
    """The board as last seen with the die beside it, to find the die rolled onto it (`die_on_board`)."""

    @classmethod
    def from_renders(cls, seed: int = 20, per_face: int = 3) -> TempleDieReader:
        """A reader taught with rendered faces: what works before a café teaches its own die.

        The faces are rendered and sampled once per process (`rendered_faces`, about 2.5 s of CPU here, far more
        on a Pi): every reader made after, as when the feed switches back to the die, is taught them at once.
        """
        reader = cls()
        for face, value, colour in rendered_faces(seed, per_face):
            reader.learn(TopFace(face.die, face.bgr.copy(), face.glyph.copy()), value, colour)
        return reader

    def teach(self, frame: np.ndarray, value: str, colour: str) -> bool:
        """Learn one shown face; False when no die was found in the frame (or it is not a usable image), no
        value could be made out on its top face, or glare or a shadow's edge may lie on it."""
        face_name(value, colour)  # refused before the frame is looked at, whatever it shows
        face = top_face(frame)
        if not teachable(face):
            return False
        self.learn(face, value, colour)
        return True

    def learn(self, face: TopFace, value: str, colour: str) -> None:
        """Learn a face already sampled (the teach step samples first to check its colour)."""
        value = face_name(value, colour)
        self.examples.setdefault(value, []).append(face.glyph)
        self.colours.setdefault(colour, []).append(face.bgr)
        self._bank.append((value, rotations(face.glyph)))

    def fill_from(self, other: TempleDieReader) -> list[str]:
        """Take ``other``'s glyphs for each value not taught here; returns the values taken.

        A café teaches its die one face at a time. Until every value has been
        shown, the rendered glyphs keep the rest readable; without them every
        face would read as one of the few taught so far.
        """
        taken = [value for value in other.examples if value not in self.examples]
        for value in taken:
            for glyph in other.examples[value]:
                self.examples.setdefault(value, []).append(glyph)
                self._bank.append((value, rotations(glyph)))
        return taken

    def read(self, frame: np.ndarray) -> list[DieReading]:
        """The die's top face as one reading (or none when no die is found or nothing is taught).

        A die read beside the board has the board remembered without it
        (`board`); where none lies beside it, the one rolled onto the board is
        looked for among what is new there, and taken only when read at least
        ON_BOARD_SURE surely: pawns and cards move there between rolls too, and
        a card seen where a pawn stood read as a face now and then, never so
        surely (`die_on_board`). Until a die is read beside the board, the
        first frame read with no die in it is remembered instead (the app
        started, the die in a hand), so the day's first roll may land on the
        board. Only then: a memory replaced within the still frames read after
        a roll would lose the die on the board from the next frame on.
        """
        bgr = as_bgr(frame)
        if bgr is None or not self._bank:
            return []
        view = TableView.of(bgr)
        face = top_face(bgr, view)
        if face is not None and not face.blank:
            self.board.remember(view.searched, view.quads, face.die[2])
            return [self._reading(bgr, face)]
        return self.on_board(view, self.board)

    def on_board(self, view: TableView, board: BoardMemory) -> list[DieReading]:
        """The die rolled onto the board, read surely, among what is new there since ``board`` was remembered; a
        ``board`` not remembered yet is remembered now instead (the die in a hand, or on the board already).

        Its own call for a café's marked tray (`board_die.BoardDieReader`): the
        die is looked for beside the board in the tray alone, and on the board
        over the whole picture.
        """
        if board.empty:
            board.remember(view.searched, view.quads)
            return []
        if not self._bank:
            return []
        sure = [r for r in map(functools.partial(self._reading, view.frame), faces_on_board(view, board))
                if r.confidence >= ON_BOARD_SURE]
        return [max(sure, key=lambda r: r.confidence)] if sure else []

    def _reading(self, bgr: np.ndarray, face: TopFace) -> DieReading:
        ranked = sorted(self.scores(face.glyph).items(), key=lambda kv: -kv[1])
        value, score = ranked[0]
        runner = ranked[1][1] if len(ranked) > 1 else 0.0
        colour = self.colour_of(face.bgr)
        confidence = float(np.clip((score - runner) * 5 + 0.5, 0, 1) * np.clip(score, 0, 1))
        if colourless(bgr):  # a mono camera, or one sending its luma alone: red and white are both grey
            confidence = min(confidence, GREY_CONFIDENCE)
        if face.glare > GLARE_SHARE:
            confidence = min(confidence, GLARE_CONFIDENCE)
        if face.shadow_edge:
            confidence = min(confidence, SHADOW_CONFIDENCE)
        if glyph_parts(face.glyph) not in {glyph_parts(taught) for taught in self.examples.get(value, ())}:
            confidence = min(confidence, PARTS_CONFIDENCE)
        cx, cy, r = face.die
        number: int | str = int(value) if value.isdigit() else value
        return DieReading(number, colour, confidence, (cx - r, cy - r, cx + r, cy + r))

    def scores(self, glyph: np.ndarray) -> dict[str, float]:
        """How well ``glyph`` matches each value taught, at its best rotation (1.0: the same glyph).

        The teach step asks it too: a face that matches a value taught before
        as closely as a face matches itself was most likely taught under another
        answer already.
        """
        query = glyph.ravel() - glyph.mean()
        query /= max(float(np.linalg.norm(query)), 1e-6)
        best: dict[str, float] = {}
        for value, bank in self._bank:
            best[value] = max(best.get(value, -1.0), float((bank @ query).max()))
        return best

    def colour_of(self, bgr: np.ndarray) -> str:
        # A colour not taught yet keeps the rendered one: a café that has shown only red
        # faces so far must still be able to see (and teach) a white one.
        protos = {c: np.array(v, np.float32) for c, v in FACE_COLOURS.items()}
        protos.update({c: np.mean(v, axis=0) for c, v in self.colours.items()})
        lab = cv2.cvtColor(bgr.reshape(1, 1, 3).astype(np.uint8), cv2.COLOR_BGR2LAB).astype(np.float32).ravel()

        def distance(proto: np.ndarray) -> float:
            p = cv2.cvtColor(proto.reshape(1, 1, 3).astype(np.uint8), cv2.COLOR_BGR2LAB).astype(np.float32).ravel()
            return float(np.linalg.norm((lab - p) * np.array([0.5, 1.5, 1.5])))

        return min(protos, key=lambda c: distance(protos[c]))

    def save(self, folder: Path) -> Path:
        """Store what was taught (glyph masks and colours) so the café teaches once.

        What `load` found beside them is written back as it was (a later
        version's additions are not this version's to drop), and a file that is
        a link is written where the link points: replaced by a file of its own,
        the link would be cut from the teaching it stands for.
        """
        folder.mkdir(parents=True, exist_ok=True)
        data = {
            **self._kept,
            "glyphs": {v: [g.round(3).tolist() for g in gs] for v, gs in self.examples.items()},
            "colours": {c: [b.tolist() for b in bs] for c, bs in self.colours.items()},
        }
        path = folder / DIE_FILE
        target = path.resolve() if path.is_symlink() else path
        write_whole(target, json.dumps(data).encode())
        return path

    @classmethod
    def load(cls, folder: Path) -> TempleDieReader:
        """What `save` stored; raises `TaughtDieUnreadable` naming the fault of a damaged or foreign file."""
        path = folder / DIE_FILE
        try:
            data = json.loads(path.read_text())
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            raise TaughtDieUnreadable(f"{path}: cannot be read ({exc})") from None
        except RecursionError:  # lists nested thousands deep: no file `save` writes, and the parser gives up
            raise TaughtDieUnreadable(f"{path}: cannot be read (nested too deep)") from None
        # Neither key: some other file under the name (`{}`, another program's), which teaching on would
        # overwrite with one face as though nothing had been taught.
        if not (
            isinstance(data, dict)
            and all(isinstance(data.get(k, {}), dict) for k in ("glyphs", "colours"))
            and ("glyphs" in data or "colours" in data)
        ):
            raise TaughtDieUnreadable(f'{path}: expected an object with "glyphs" and "colours" objects')
        reader = cls()
        reader._kept = {k: v for k, v in data.items() if k not in ("glyphs", "colours")}
        foreign = [v for v in data.get("glyphs", {}) if v not in TEMPLE_VALUES] + [
            c for c in data.get("colours", {}) if c not in FACE_COLOURS
        ]
        if foreign:  # read back, a hand-edited "9" would be offered as a roll
            raise TaughtDieUnreadable(
                f"{path}: {', '.join(map(repr, foreign))} is no value or colour of the "
                f"temple die ({', '.join(TEMPLE_VALUES)} on {' or '.join(FACE_COLOURS)})"
            )
        # An empty list is a value or colour not taught: kept as taught, an empty colour was averaged into
        # NaN and crashed every reading, and an empty value kept its rendered glyphs from filling in.
        # A glyph is a mask centred and scaled (`normalise_glyph`): from 0 to 1, and never empty, as teaching
        # refuses a face with no value made out (`TopFace.blank`). A hand edit of 1e30, a glyph below 0 or one with
        # nothing drawn was taken, and that value never read again.
        for value, glyphs in data.get("glyphs", {}).items():
            where = f"{path}: glyphs.{value}"
            stored = _arrays(glyphs, (GLYPH_SIZE, GLYPH_SIZE), where, top=1)
            if any(not glyph.any() for glyph in stored):
                raise TaughtDieUnreadable(f"{where}: a glyph with nothing drawn, which teaching never stores")
            for glyph in map(_strokes_kept, stored):
                reader.examples.setdefault(value, []).append(glyph)
                reader._bank.append((value, rotations(glyph)))
        for colour, values in data.get("colours", {}).items():
            if shades := _arrays(values, (3,), f"{path}: colours.{colour}", top=255):
                reader.colours[colour] = shades
        return reader
