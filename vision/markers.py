"""The four ArUco markers at the board's corners, and finding the board through them.

Marker 0 goes at the north-west corner (the corner before slot 1), 1 north-east,
2 south-east, 3 south-west, each just outside the board with one corner touching
the board's corner. The reader uses, of each marker, the corner nearest the
board's centre, so a marker stuck at any rotation still works and the marker's
printed size does not matter.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import cv2
import numpy as np

from vision.frames import to_light
from vision.view_check import too_dark

DICTIONARY = cv2.aruco.DICT_4X4_50
MARKER_IDS = (0, 1, 2, 3)
CORNER_NAMES = ("north-west", "north-east", "south-east", "south-west")


def dictionary() -> cv2.aruco.Dictionary:
    return cv2.aruco.getPredefinedDictionary(DICTIONARY)


def marker_image(marker_id: int, pixels: int) -> np.ndarray:
    """The marker as a grey image, black border included, no quiet zone."""
    return cv2.aruco.generateImageMarker(dictionary(), marker_id, pixels)


def marker_bits(marker_id: int) -> np.ndarray:
    """The marker's modules (border included) as a 6x6 array, 1 = black."""
    img = marker_image(marker_id, 6)
    return (img < 128).astype(np.uint8)


NOT_SEEN = "board markers not seen"
OUT_OF_PLACE = ("board markers out of place: stick 0 at the north-west corner, 1 north-east, 2 south-east and "
                "3 south-west, each touching its corner of the board")
# A marker whose black square is under this many frame pixels a side is often missed (3 px a cell of its 6 x 6):
# on rendered boards at 640x480 all four were found with markers 17 px across and up, at 13-16 px one to three of
# the four, at 9-11 px mostly one. The board is read well below it (slots 28 px), so markers printed small next to
# the board (the sheet goes down to 15 mm) were missed where the board was in plain view, and the café was told to
# bring the board into view.
SMALL_MARKER_PX = 18.0
SMALL_MARKERS = "px across"


def small_markers_text(side: float) -> str:
    """Why markers in plain view may have been missed: those seen are too few pixels across."""
    return (f"the markers seen are only {int(side)} {SMALL_MARKERS} ({SMALL_MARKER_PX:.0f} or more wanted, or some "
            "are missed): print them larger (companion vision markers sheet.pdf --size-mm 50) or mount the camera "
            "closer")


# The least turn at each corner of the four markers' quadrilateral, as the sine of its angle (20 degrees):
# a board seen from anywhere above the table keeps its corners far from a straight line (rendered board
# photos turn by 0.99 or more).
MIN_TURN = 0.35


def goes_round(corners: np.ndarray) -> bool:
    """Whether the four corners (NW, NE, SE, SW) go round the board clockwise on screen, turning at each.

    Markers in a row, swapped or stuck on the wrong corners still give a
    homography, which would read slots off the table or teach a card from the
    wrong place; a board seen in a frame is a convex shape, turned the same way
    at each corner (a camera cannot mirror it: mirrored markers are not found).
    """
    edges = np.roll(corners, -1, axis=0) - corners
    following = np.roll(edges, -1, axis=0)
    turns = edges[:, 0] * following[:, 1] - edges[:, 1] * following[:, 0]
    lengths = np.linalg.norm(edges, axis=1) * np.linalg.norm(following, axis=1)
    return bool(np.all(turns > MIN_TURN * np.maximum(lengths, 1e-9)))


MARKER_SEARCH_SIDE = 800  # a bigger frame is searched for the markers shrunk to this long side
# A cup or a phone set down on one marker, a hand's hard shadow across it or a marker peeling off hid the board
# until it was mended, though three markers tell where it lies: the markers are stuck to the board, so each one's
# four corners in board cells, learnt from the last frame showing all four (`BoardFinder.marker_cells`), stay
# where they were whatever the camera does. With one hidden, the other three's twelve corners give the homography
# (least squares), taken only where every corner lies within LEARNT_FIT frame pixels of where the fit puts its
# learnt place: farther, a marker was stuck again or is no marker, and the board is not read until all four show.
# Three markers' fit takes up most of one marker's move, so the check is tight: on rendered board photos learnt
# from another photo the worst corner lay 0.7 px off at 640x480 and 1280x720 (1.9 at 320x240, whose markers are
# about 25 px across, where the board is then not read), and a marker moved half a cell 1.2-1.3 px off, a cell
# 2.6-3.0 px.
LEARNT_FIT = 1.5
# Two markers hidden (a box lid on one side of the board, arms resting on two corners) leave eight corners, which
# a homography fitted to them alone bends to fit: nothing far from them would check it. But the board lies on the
# table, so where the camera has not moved, a board slid or turned on the table (bumped by a player) moves only in
# the table's plane: the last homography times a rigid motion of the board's cells, three numbers fitted to the
# eight corners (`rigid_motion`), each corner then within LEARNT_FIT of where the fit puts its learnt place. A
# camera moved or tilted changes the board's size or foreshortening in the frame, which no rigid motion fits.


def detector_parameters() -> cv2.aruco.DetectorParameters:
    """OpenCV's marker search, allowed to mend one wrong bit of a marker's code.

    A lens a little out of focus smears a marker's cells into each other, and
    with OpenCV's default (no bit of a 4x4 code mended) the board was lost:
    rendered boards blurred by 2 px were found 16 times in 40, by 3 px never;
    mending a bit finds 39 and 30 of them. Four ids of fifty, each a bit from
    no other, leave a wrong marker rare: none in the 1,580 dice photos of the
    three sets, none among the boards' own cards and pawns (docs/vision.md,
    "Temple card reader").
    """
    params = cv2.aruco.DetectorParameters()
    params.errorCorrectionRate = 1.0
    return params


class BoardFinder:
    """Finds the four markers and the board-to-frame homography (board in cell units, 0..size).

    The marker search costs what the frame's area costs (14-17 ms at
    1920x1080 against 5 at 640x480 on the bench machine), and markers big
    enough for the slots to be read are found as well at 800 px; so a bigger
    frame, as network cameras send, is searched shrunk, and the four corners
    the homography rests on are then refined on the full frame (within 0.12
    px of a full-size search on rendered 720p to 5 Mpx boards).
    """

    def __init__(self, board_size: int = 15, search_side: int = MARKER_SEARCH_SIDE) -> None:
        params = detector_parameters()
        params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
        self.detector = cv2.aruco.ArucoDetector(dictionary(), params)
        self.board_size = board_size
        self.search_side = search_side
        self.last_problem: str | None = None
        self.last_markers: dict[int, np.ndarray] | None = None  # each marker's corners in frame px, at the last find
        self.marker_cells: dict[int, np.ndarray] | None = None  # each marker's corners in board cells (LEARNT_FIT)
        self.hidden: tuple[str, ...] = ()  # the markers the last board found was read without, by corner name
        self.last_homography: np.ndarray | None = None  # of the last frame whose board was found

    def board_corners(self, frame: np.ndarray) -> np.ndarray | None:
        """The board's four corners in the frame (NW, NE, SE, SW) from all four markers, or None with
        `last_problem` saying why."""
        grey, found, scale = self._search(frame)
        return self._four_corners(grey, found, scale)

    def _search(self, frame: np.ndarray) -> tuple[np.ndarray, dict[int, np.ndarray], float]:
        """(grey frame, markers found in it by id, the scale they were searched at)."""
        grey = frame if frame.ndim == 2 else cv2.cvtColor(frame[:, :, :3], cv2.COLOR_BGR2GRAY)
        scale = min(1.0, self.search_side / max(grey.shape[:2]))
        return grey, self._markers(_shrunk(grey, scale)), scale

    def _four_corners(self, grey: np.ndarray, found: dict[int, np.ndarray], scale: float) -> np.ndarray | None:
        """`board_corners` of markers found at ``scale``."""
        self.last_markers = None
        missing = [CORNER_NAMES[i] for i in MARKER_IDS if i not in found]
        if len(missing) == len(MARKER_IDS) and len(self._markers(cv2.flip(_shrunk(grey, scale), 1))) >= 2:
            # A marker seen in a mirror is no marker, so a mirrored picture showed a board in plain view as
            # "not seen". Searched again only when none is found: a board out of view costs one search more.
            self.last_problem = ("board markers seen mirrored: the camera sends its picture mirrored (switch on "
                                 "Mirror on the camera screen, or give --mirror)")
            return None
        if missing:
            self.last_problem = f"{NOT_SEEN}: {', '.join(missing)}"
            sides = [float(np.linalg.norm(np.roll(quad, -1, axis=0) - quad, axis=1).mean()) / scale
                     for quad in found.values()]
            if sides and max(sides) < SMALL_MARKER_PX:
                self.last_problem += f"; {small_markers_text(max(sides))}"
            return None
        centre = np.mean([found[i].mean(0) for i in MARKER_IDS], axis=0)
        inner = [found[i][np.argmin(np.linalg.norm(found[i] - centre, axis=1))] for i in MARKER_IDS]
        if not goes_round(np.array(inner, np.float64)):
            self.last_problem = OUT_OF_PLACE
            return None
        self.last_problem = None
        self.last_markers = {i: quad / scale for i, quad in found.items()}
        return _refined(grey, np.array(inner, np.float32), scale)

    def _markers(self, grey: np.ndarray) -> dict[int, np.ndarray]:
        """The board's markers found in a grey picture, by id: each one's four corners."""
        corners, ids, _ = self.detector.detectMarkers(grey)
        found: dict[int, np.ndarray] = {}
        if ids is not None:
            for quad, marker_id in zip(corners, ids.ravel(), strict=True):
                if int(marker_id) in MARKER_IDS and int(marker_id) not in found:
                    found[int(marker_id)] = quad.reshape(4, 2)
        return found

    def homography(self, frame: np.ndarray) -> np.ndarray | None:
        """Board cells -> frame pixels, from all four markers or, with one hidden, the other three
        (LEARNT_FIT); None with `last_problem` saying why."""
        grey, found, scale = self._search(frame)
        corners = self._four_corners(grey, found, scale)
        self.hidden = ()
        if corners is None:
            homography = self._from_fewer(grey, found, scale)
        else:
            s = float(self.board_size)
            board = np.array([[0, 0], [s, 0], [s, s], [0, s]], np.float32)
            homography = cv2.getPerspectiveTransform(board, corners)
            to_cells = np.linalg.inv(homography)
            self.marker_cells = {i: cv2.perspectiveTransform(quad[None].astype(np.float64), to_cells)[0]
                                 for i, quad in (self.last_markers or {}).items()}
        self.last_homography = homography
        return homography

    def _from_fewer(self, grey: np.ndarray, found: dict[int, np.ndarray], scale: float) -> np.ndarray | None:
        """The homography from three markers' corners at their learnt places in board cells, or with two the last
        homography moved as the board moved on the table; else None (leaving `last_problem` as the search for four
        set it)."""
        learnt = self.marker_cells or {}
        seen = [i for i in MARKER_IDS if i in found and i in learnt]
        if len(seen) < 2 or not (self.last_problem or "").startswith(NOT_SEEN):
            return None
        cells = np.concatenate([learnt[i] for i in seen]).astype(np.float32)
        pixels = _refined(grey, np.concatenate([found[i] for i in seen]).astype(np.float32), scale)
        if len(seen) == 2:
            if self.last_homography is None:
                return None
            on_table = cv2.perspectiveTransform(pixels[None].astype(np.float64), np.linalg.inv(self.last_homography))
            homography = self.last_homography @ rigid_motion(cells.astype(np.float64), on_table[0])
        else:
            homography, _ = cv2.findHomography(cells, pixels, 0)
        if homography is None or abs(np.linalg.det(homography)) < 1e-12:
            return None
        fitted = cv2.perspectiveTransform(cells[None].astype(np.float64), homography)[0]
        if np.linalg.norm(fitted - pixels, axis=1).max() > LEARNT_FIT:
            return None
        self.hidden = tuple(CORNER_NAMES[i] for i in MARKER_IDS if i not in seen)
        self.last_markers = {i: found[i] / scale for i in seen}
        self.last_problem = None
        return homography


def rigid_motion(before: np.ndarray, after: np.ndarray) -> np.ndarray:
    """The turn and shift (no scaling) taking points ``before`` nearest to ``after`` in least squares, as a 3x3
    matrix: how a board slid on the table moved, in its own cells."""
    middle_before, middle_after = before.mean(axis=0), after.mean(axis=0)
    u, _, vt = np.linalg.svd((before - middle_before).T @ (after - middle_after))
    turn = vt.T @ np.diag([1.0, np.sign(np.linalg.det(vt.T @ u.T))]) @ u.T
    motion = np.eye(3)
    motion[:2, :2] = turn
    motion[:2, 2] = middle_after - turn @ middle_before
    return motion


def in_view_text(problem: str) -> str:
    """A board not found, with what to do where markers were missed: the finder names only the markers it
    missed, which told a café teaching a card with the board half out of view nothing of what to mend."""
    if problem.startswith(NOT_SEEN) and SMALL_MARKERS not in problem:  # markers too small were in view
        return f"{problem} (the whole board and the four markers round it must be in view)"
    return problem


def hidden_text(hidden: tuple[str, ...]) -> str:
    """What the table is told of a marker the board is found without (`BoardFinder.hidden`)."""
    if len(hidden) == 1:
        return (f"board marker not seen: {hidden[0]} (a cup on it, or peeled off?): the path cards are read from "
                "the other three")
    return (f"board markers hidden: {', '.join(hidden)} (something on them?): the path cards are read from the "
            "other two while the camera stays where it is")


DARK_MARKERS = "the picture is too dark to find them in"


def dark_markers_text(frame: np.ndarray, hidden: tuple[str, ...], problem: str | None) -> str | None:
    """Markers missed in a dark picture (`view_check.too_dark`), said as lost in the dark: drowned in the camera's
    noise, they were guessed covered ("a cup on it, or peeled off?") or out of view. ``hidden`` and ``problem`` are
    the finder's (`BoardFinder.hidden`, the reader's ``last_problem``). None where no marker was missed, those seen
    are too small (`SMALL_MARKERS`), or the picture is light enough. `vision watch` and the table's feed both say
    this, so a café hears the same words at the table as at the terminal."""
    missed = bool(hidden) or (bool(problem) and problem.startswith(NOT_SEEN) and SMALL_MARKERS not in problem)
    if not missed or too_dark(frame) is None:
        return None
    dark = f"{DARK_MARKERS} (light the board)"
    if hidden:
        return f"{NOT_SEEN}: {', '.join(hidden)}: {dark}; the path cards are read from the others"
    return f"{problem}: {dark}"


def _shrunk(grey: np.ndarray, scale: float) -> np.ndarray:
    return grey if scale == 1.0 else cv2.resize(grey, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)


def _refined(grey: np.ndarray, points: np.ndarray, scale: float) -> np.ndarray:
    """Marker corners found in the frame shrunk by ``scale``, at full size: refined on the full frame."""
    points = points.reshape(-1, 2) / scale
    if scale == 1.0:
        return points
    half = max(3, round(2 / scale))  # two pixels of the searched image, at full size
    stop = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_COUNT, 30, 0.01)
    return cv2.cornerSubPix(grey, points.reshape(-1, 1, 2), (half, half), (-1, -1), stop).reshape(-1, 2)


OUTLINE_SCALE_BELOW = 400  # frames with a longer side than this are searched at half size


def coarse_markers(frame: np.ndarray) -> dict[int, np.ndarray]:
    """The board's markers found quickly, by id: each one's four corners in frame pixels.

    Only where the board lies is wanted of them (`board_outline`, `paper_white`), so
    this looks at half size with one threshold window (about 2 ms against 17 for
    `BoardFinder`'s sub-pixel look on a 640x480 board).
    """
    grey = frame if frame.ndim == 2 else cv2.cvtColor(frame[:, :, :3], cv2.COLOR_BGR2GRAY)
    scale = 0.5 if max(grey.shape[:2]) > OUTLINE_SCALE_BELOW else 1.0
    if scale != 1.0:
        grey = cv2.resize(grey, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    params = detector_parameters()
    params.adaptiveThreshWinSizeMin = params.adaptiveThreshWinSizeMax = 13
    corners, ids, _ = cv2.aruco.ArucoDetector(dictionary(), params).detectMarkers(grey)
    quads: dict[int, np.ndarray] = {}
    for quad, marker_id in zip(corners, [] if ids is None else ids.ravel(), strict=True):
        if int(marker_id) in MARKER_IDS:
            quads.setdefault(int(marker_id), quad.reshape(4, 2) / scale)
    return quads


def board_outline(frame: np.ndarray, quads: dict[int, np.ndarray] | None = None) -> np.ndarray | None:
    """The board with its markers as a convex polygon (N x 2, frame pixels), or None under three markers.

    The temple die is looked for beside the board, not on it: the board under
    the same camera is a far bigger blob than the die and was read as one. A
    hand or a cup may hide one marker; the other three give the fourth, the
    board being a parallelogram seen from above. ``quads``: `coarse_markers`
    already found in the frame.
    """
    quads = dict(coarse_markers(frame) if quads is None else quads)
    if len(quads) < 3:
        return None
    for missing in (i for i in MARKER_IDS if i not in quads):
        opposite, before, after = ((missing + k) % 4 for k in (2, 3, 1))
        shift = quads[before].mean(0) + quads[after].mean(0) - 2 * quads[opposite].mean(0)
        quads[missing] = quads[opposite] + shift
    # A marker's side further out all round: the paper round the markers and the rim of
    # the board are not the tray either.
    side = float(np.mean([np.linalg.norm(q - np.roll(q, 1, axis=0), axis=1).mean() for q in quads.values()]))
    turns = np.linspace(0, 2 * np.pi, 16, endpoint=False)
    ring = side * np.stack([np.cos(turns), np.sin(turns)], 1)
    points = np.concatenate([corner + ring for quad in quads.values() for corner in quad])
    return cv2.convexHull(points.astype(np.float32)).reshape(-1, 2)


# A marker's white modules are the sheet's paper, unprinted, whatever margin a café cut round it or stuck it on:
# whatever colour they show is the light's (a mix with the black ink round them, blurred in, keeps that colour's
# proportions, the ink being grey too). Each is sampled at PAPER_SPOTS across its middle, as shares of the module.
PAPER_SPOTS = (0.35, 0.5, 0.65)


@functools.cache
def _module_spots(marker_id: int, black: bool) -> np.ndarray:
    """Where a marker's white (or black) modules are sampled, in modules across its printed square (0..6 each
    way); a black module only at its middle, so that the white paper round a marker, blurred in, stays out."""
    rows, cols = np.nonzero(marker_bits(marker_id) == int(black))
    shares = (0.5,) if black else PAPER_SPOTS
    spots = np.array([(dx, dy) for dy in shares for dx in shares])
    return np.concatenate([np.column_stack([cols, rows]) + spot for spot in spots]).astype(np.float32)


def _module_samples(frame: np.ndarray, quads: dict[int, np.ndarray], black: bool) -> dict[int, np.ndarray]:
    """Each marker's white (or black) modules as BGR samples, for the markers wholly inside the frame."""
    height, width = frame.shape[:2]
    square = np.array([[0, 0], [6, 0], [6, 6], [0, 6]], np.float32)
    samples = {}
    for marker_id, quad in quads.items():
        to_frame = cv2.getPerspectiveTransform(square, quad.astype(np.float32))
        spots = cv2.perspectiveTransform(_module_spots(marker_id, black)[None], to_frame)[0]
        xs, ys = np.round(spots).astype(int).T
        if ((xs >= 0) & (xs < width) & (ys >= 0) & (ys < height)).all():
            samples[marker_id] = frame[ys, xs].astype(np.float32)
    return samples


def paper_white(frame: np.ndarray, quads: dict[int, np.ndarray]) -> np.ndarray | None:
    """The BGR of the markers' paper (the median over each marker's white modules, then over the markers), or
    None when fewer than two markers are in view."""
    whites = [np.median(spots, axis=0) for spots in _module_samples(frame, quads, black=False).values()]
    return np.median(whites, axis=0).astype(np.float32) if len(whites) >= 2 else None


class InkSeen(NamedTuple):
    """How bright the markers' printed black is beside their paper (each marker's median black module middle and
    median white module, the median over the markers seen).

    Ink reflects a few percent of the light paper does, which a camera shows at about a sixth to a third of the
    paper's level; a veil of scattered light (a smeared lens, a lamp shining into it) or a print come out grey lifts
    it further, and every card printed or seen so loses contrast with it.
    """

    share: float  # in grey levels, as the picture shows it (`view_check.washed_out`)
    light: float  # in light (`frames.to_light`): what a drawing's black is lifted by (`frames.toned`)


def ink_seen(frame: np.ndarray, quads: dict[int, np.ndarray]) -> InkSeen | None:
    """`InkSeen` in ``frame``, or None with fewer than two markers wholly in it."""
    blacks = _module_samples(frame, quads, black=True)
    whites = _module_samples(frame, quads, black=False)
    both = sorted(blacks.keys() & whites.keys())
    if len(both) < 2:
        return None

    def grey(samples: np.ndarray) -> float:
        return float(np.median(cv2.cvtColor(samples[None], cv2.COLOR_BGR2GRAY)))

    levels = [(grey(blacks[marker]), grey(whites[marker])) for marker in both]
    share = float(np.median([black / max(white, 1.0) for black, white in levels]))
    light = float(np.median([to_light(black) / max(float(to_light(white)), 1e-4) for black, white in levels]))
    return InkSeen(round(share, 3), light)
