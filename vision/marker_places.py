"""Where the board's markers lie on it, kept beside what the café taught, so that a marker hidden when the table's
camera starts does not hide the board.

`BoardFinder` learns each marker's corners in board cells from a frame showing
all four and finds the board from the others with them (`markers.LEARNT_FIT`). Kept
in memory only, a marker that peeled off overnight, or a cup standing on one
when the kiosk started in the morning, left the cards unread all day: no frame
ever showed the four. The places are written to the taught folder when first
learnt and when a marker has moved since (PLACES_MOVED), and read back when a
card reader is made.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np

from companion.paths import write_whole
from vision.markers import CORNER_NAMES, MARKER_IDS, goes_round

PLACES_FILE = "board_markers.json"
# Learnt again from every frame showing all four, the places wander by a few hundredths of a cell with the
# camera's noise; a move of a quarter of a cell is a marker stuck again, worth writing down.
PLACES_MOVED = 0.25
SCHEMA = 1
# Places no marker can have are refused (`misplaced`), as a hand edit may give them. The places are learnt through
# the homography that puts each marker's corner nearest the board's middle on the board's own corner
# (`BoardFinder.homography`): that corner lies on it to 0.03 cells at most (20 camera-like photos at 640x480 and
# three times that), so a marker with no corner within PLACE_OFF of its board corner is not where one is learnt.
# Seen through that homography a marker's four corners go round it as on the frame (`markers.goes_round`), and a
# marker touching its corner is far smaller than the board, so no corner lies a board's width beyond the board
# (checked first, so that 1e300 is refused before any sum).
PLACE_OFF = 0.5


def load_places(folder: Path | None, board_size: int) -> tuple[dict[int, np.ndarray] | None, str | None]:
    """The places kept in ``folder`` for a board of ``board_size`` cells, and a note when a file there could not
    be used (the board is then found from all four markers until they are learnt again)."""
    if folder is None:
        return None, None
    path = Path(folder) / PLACES_FILE
    try:
        if not path.exists():
            return None, None
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as error:
        return None, f"{path}: cannot be read ({getattr(error, 'strerror', None) or error}); learning the markers' " \
                     "places again from a view of all four"
    places = _places(document, board_size)
    if places is None:
        return None, f"{path}: not a file of the board's marker places; learning them again from a view of all four"
    wrong = misplaced(places, board_size)
    if wrong:  # a hand edit: with a marker hidden the board went unseen, or was said stuck wrong, without a word
        return None, f"{path}: {wrong}, a place no marker can have; learning them again from a view of all four"
    return places, None


def misplaced(places: dict[int, np.ndarray], board_size: int) -> str | None:
    """Which marker lies where `save_places` never puts one, or None (PLACE_OFF says what it puts where)."""
    size = float(board_size)
    board_corners = np.array([[0.0, 0.0], [size, 0.0], [size, size], [0.0, size]])
    for i in MARKER_IDS:
        corners, name = places[i], f"the {CORNER_NAMES[i]} marker"
        if np.any(corners < -size) or np.any(corners > 2 * size):
            return f"{name} lies more than the board's width off the board"
        if np.linalg.norm(corners - board_corners[i], axis=1).min() > PLACE_OFF:
            return f"{name} does not touch its corner of the board"
        if not goes_round(corners):
            return f"{name} has no area, or its corners are out of turn"
    return None


def _places(document: object, board_size: int) -> dict[int, np.ndarray] | None:
    """The places a loaded document holds, or None where it is not what `save_places` writes for this board."""
    if not isinstance(document, dict) or document.get("schema") != SCHEMA or document.get("board_size") != board_size:
        return None
    markers = document.get("markers")
    if not isinstance(markers, dict) or set(markers) != {str(i) for i in MARKER_IDS}:
        return None
    places = {}
    for key, corners in markers.items():
        if not (isinstance(corners, list) and len(corners) == 4 and all(
                isinstance(xy, list) and len(xy) == 2 and all(
                    isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v) for v in xy)
                for xy in corners)):
            return None
        places[int(key)] = np.array(corners, np.float64)
    return places


def places_moved(learnt: dict[int, np.ndarray], kept: dict[int, np.ndarray] | None) -> bool:
    """Whether ``learnt`` places are worth writing over ``kept`` ones: none kept, or a marker moved."""
    if kept is None:
        return True
    return any(i not in kept or float(np.abs(learnt[i] - kept[i]).max()) > PLACES_MOVED for i in learnt)


def save_places(folder: Path, places: dict[int, np.ndarray], board_size: int) -> None:
    """Write the places whole (`write_whole`); ``OSError`` says nothing was written."""
    document = {"schema": SCHEMA, "board_size": board_size,
                "markers": {str(i): [[round(float(x), 4), round(float(y), 4)] for x, y in places[i]]
                            for i in sorted(places)}}
    write_whole(Path(folder) / PLACES_FILE, (json.dumps(document, indent=1) + "\n").encode("utf-8"))
