"""The four ArUco markers at the board's corners, and finding the board through them.

Marker 0 goes at the north-west corner (the corner before slot 1), 1 north-east,
2 south-east, 3 south-west, each just outside the board with one corner touching
the board's corner. The reader uses, of each marker, the corner nearest the
board's centre, so a marker stuck at any rotation still works and the marker's
printed size does not matter.
"""

from __future__ import annotations

import cv2
import numpy as np

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


OUT_OF_PLACE = ("board markers out of place: stick 0 at the north-west corner, 1 north-east, 2 south-east and "
                "3 south-west, each touching its corner of the board")
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

    def board_corners(self, frame: np.ndarray) -> np.ndarray | None:
        """The board's four corners in the frame (NW, NE, SE, SW), or None with `last_problem` saying why."""
        grey = frame if frame.ndim == 2 else cv2.cvtColor(frame[:, :, :3], cv2.COLOR_BGR2GRAY)
        scale = min(1.0, self.search_side / max(grey.shape[:2]))
        search = grey if scale == 1.0 else cv2.resize(grey, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        found = self._markers(search)
        self.last_markers = None
        missing = [CORNER_NAMES[i] for i in MARKER_IDS if i not in found]
        if len(missing) == len(MARKER_IDS) and len(self._markers(cv2.flip(search, 1))) >= 2:
            # A marker seen in a mirror is no marker, so a mirrored picture showed a board in plain view as
            # "not seen". Searched again only when none is found: a board out of view costs one search more.
            self.last_problem = ("board markers seen mirrored: the camera sends its picture mirrored (switch on "
                                 "Mirror on the camera screen, or give --mirror)")
            return None
        if missing:
            self.last_problem = f"board markers not seen: {', '.join(missing)}"
            return None
        centre = np.mean([found[i].mean(0) for i in MARKER_IDS], axis=0)
        inner = [found[i][np.argmin(np.linalg.norm(found[i] - centre, axis=1))] for i in MARKER_IDS]
        if not goes_round(np.array(inner, np.float64)):
            self.last_problem = OUT_OF_PLACE
            return None
        self.last_problem = None
        self.last_markers = {i: quad / scale for i, quad in found.items()}
        points = np.array(inner, np.float32) / scale
        if scale < 1.0:
            half = max(3, round(2 / scale))  # two pixels of the searched image, at full size
            stop = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_COUNT, 30, 0.01)
            points = cv2.cornerSubPix(grey, points.reshape(-1, 1, 2), (half, half), (-1, -1), stop).reshape(4, 2)
        return points

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
        """Board cells -> frame pixels."""
        corners = self.board_corners(frame)
        if corners is None:
            return None
        s = float(self.board_size)
        board = np.array([[0, 0], [s, 0], [s, s], [0, s]], np.float32)
        return cv2.getPerspectiveTransform(board, corners)


OUTLINE_SCALE_BELOW = 400  # frames with a longer side than this are searched at half size


def board_outline(frame: np.ndarray) -> np.ndarray | None:
    """The board with its markers as a convex polygon (N x 2, frame pixels), or None under three markers.

    The temple die is looked for beside the board, not on it: the board under
    the same camera is a far bigger blob than the die and was read as one. This
    only has to say where the board is, so it looks at half size with one
    threshold window (about 2 ms against 17 for `BoardFinder`'s sub-pixel look
    on a 640x480 board). A hand or a cup may hide one marker; the other three
    give the fourth, the board being a parallelogram seen from above.
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
