"""The temple die rolled onto the board: found by what is new on the board since the die last lay beside it.

The die's search beside the board leaves the board out: its cards and walls are
far bigger blobs than the die and were read as one. A die rolled onto the board
was then not read at all (the slot under it only read covered). On the board
the die cannot be told from the cards by being unlike one plain tray, but it
can by being new there: the board as the camera saw it the last time the die
lay beside it (or, before it ever did, the first time no die was in view)
holds everything but the die, and whatever hands moved since (a pawn, a
card). Of what changed, a blob of a die's size whose middle holds a top face
(`temple_die.face_sample`) is the die.
"""

from __future__ import annotations

import cv2
import numpy as np

BOARD_APART = 30.0  # Lab distance past which a pixel differs from the board remembered
MOVED_MORE = 0.01
"""A marker further than this share of the frame's long side from where it was remembered: the camera or the board
moved, and every pixel of the board differs from its memory."""
LARGEST_DIE = 0.35  # of the board's extent: a blob of changes wider than this is a hand's work (a card, a swept board)
SMALLEST_DIE = 40  # px of area at the search's size (`temple_die.search_lab`), as beside the board
TRIED = 3  # places looked at for a top face, the largest blob's first
JOINED = 1.15  # a blob this much wider than the die is also looked at round its thickest part
SIZE_APART = 1.5
"""A blob of changes wider or narrower than this many times the die last read beside the board is something else:
the die lies on the same table under the same camera. A pawn moved left blobs where it went and where it stood, and
a card seen where a pawn stood was read as a die's face now and then (7 of 100 rendered moves, at 0.37-0.68)."""


def _centres(quads: dict[int, np.ndarray]) -> dict[int, np.ndarray]:
    return {marker: np.asarray(quad, np.float32).mean(axis=0) for marker, quad in quads.items()}


class BoardMemory:
    """The board as last seen with the die beside it (or, until the die was, as first seen without one), where its
    markers lay then, and how big the die was."""

    def __init__(self) -> None:
        self._lab: np.ndarray | None = None
        self._markers: dict[int, np.ndarray] = {}
        self._radius = 0.0  # unknown until the die is read beside the board

    @property
    def empty(self) -> bool:
        return self._lab is None

    @property
    def die_radius(self) -> float:
        """The die's radius (frame pixels) when last read beside the board; 0 before it was."""
        return self._radius

    def remember(self, searched: tuple[float, np.ndarray] | None, quads: dict[int, np.ndarray],
                 radius: float | None = None) -> None:
        """The board of a frame whose die, ``radius`` px round, was read beside it, as the board without the die;
        with no radius, the board of a frame where no die was read at all.

        ``searched``: (scale, the frame shrunk by it in Lab) as the die's search
        shrank it (`temple_die.search_lab`); ``quads``: the frame's markers as
        `markers.coarse_markers` found them. A frame showing no marker holds no
        board to remember.
        """
        if not quads or searched is None:
            return
        self._lab = searched[1]
        self._radius = radius or self._radius
        self._markers = _centres(quads)

    def new_on_it(self, searched: tuple[float, np.ndarray], quads: dict[int, np.ndarray], outline: np.ndarray
                  ) -> list[tuple[float, float, float]]:
        """Blobs of a die's size new on the board since it was remembered, as (cx, cy, radius) in frame pixels,
        largest first; none when nothing is remembered, or the board or camera moved since.

        ``searched``, ``quads``: as `remember` takes them, of the frame now; ``outline``: the board and its
        markers (`markers.board_outline`) in it.
        """
        scale, lab = searched
        if self._lab is None or lab.shape != self._lab.shape or not self._still_in_place(quads, scale):
            return []
        inside = np.zeros(lab.shape[:2], np.uint8)
        cv2.fillPoly(inside, [np.round(outline * scale).astype(np.int32)], 1)
        on_board = inside.astype(bool)
        change = cv2.subtract(lab, self._lab)
        # A camera's exposure or a cloud moves the whole board's colour a little: that is no change on it.
        # (The median of every seventh pixel: of them all it took 3 ms a frame.)
        change = cv2.subtract(change, (*np.median(change[on_board][::7], axis=0).tolist(), 0.0))
        apart = cv2.transform(cv2.multiply(change, change), np.ones((1, 3), np.float32))
        differs = ((apart > BOARD_APART ** 2) & on_board).astype(np.uint8)
        differs = cv2.morphologyEx(differs, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        differs = cv2.morphologyEx(differs, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
        count, labels, stats, _ = cv2.connectedComponentsWithStats(differs)
        _, _, w, h = cv2.boundingRect(np.round(outline * scale).astype(np.int32))
        widest = LARGEST_DIE * max(w, h)
        blobs = [i for i in range(1, count) if stats[i, cv2.CC_STAT_AREA] >= SMALLEST_DIE
                 and max(stats[i, cv2.CC_STAT_WIDTH], stats[i, cv2.CC_STAT_HEIGHT]) <= widest]
        blobs.sort(key=lambda i: -stats[i, cv2.CC_STAT_AREA])
        found = []
        die = self._radius * scale
        for i in blobs:
            blob = (labels == i).astype(np.uint8)
            (cx, cy), r = cv2.minEnclosingCircle(cv2.findNonZero(blob))
            if die and not 1 / SIZE_APART <= r / die <= SIZE_APART:
                continue
            found.append((cx / scale, cy / scale, r / scale))
            if die and r > JOINED * die:
                # Something joined the die (a pawn moved against it): its middle is the blob's thickest part.
                thickness = cv2.distanceTransform(blob, cv2.DIST_L2, 3)
                y, x = np.unravel_index(int(thickness.argmax()), thickness.shape)
                found.append((x / scale, y / scale, self._radius))
        return found[:TRIED]

    def _still_in_place(self, quads: dict[int, np.ndarray], scale: float) -> bool:
        """At least two markers seen both times, none of them moved (a die on the board may hide one or two)."""
        now = _centres(quads)
        common = set(now) & set(self._markers)
        reach = MOVED_MORE * max(self._lab.shape[:2]) / scale
        return len(common) >= 2 and all(float(np.linalg.norm(now[m] - self._markers[m])) <= reach for m in common)
