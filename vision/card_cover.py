"""What lies on a card in a teach photo: a pawn, a die, a finger, found on the card's plain cells.

A taught photo becomes a reference every later reading of that card is held
against, so a pawn standing on it while it was taught stands in every reading
of it. The drawings a card is made of say which cells are plain path and which
are holes; all cells of one kind are printed alike, so whatever differs in
colour from the rest of its kind's cells lies on the card, not in its print.
A few pixels of it (a pawn on the next slot leaning over) are painted out of
the reference (`mend_covered`); more than COVER_REFUSED of a cell refuses the
photo (`covered_cell`), since what was under it is not in the photo to mend.

At reading time a hand laying a card, or an arm reaching across the board and
held still, hides much of a slot: what is left of it matched some card, often
surely enough for the tracker. A slot most of whose pixels no reference of the
card it matched comes near (`unexplained_share`) is read as covered.
"""

from __future__ import annotations

import cv2
import numpy as np

# Measured on the card photos the teach step takes from `eval-cards`' board photos (uneven light, casts, blur,
# noise; seeds 3 and 5, 130 boards, house, grey and pale mint prints; up to six pawns a board): the share of a plain
# or hole cell's middle lying more than COVER_AB (Lab a/b distance, 0..100 lightness scale) from its kind's median
# colour reached 0.04 on cards with nothing on them and 0.145 where a pawn of the next slot leant over; a pawn on the
# card's own plain cells covered 0.19 of a cell or more in nine cases of ten.
COVER_AB = 20.0
COVER_MARGIN = 0.12  # of a cell, left out at each side where a cell's middle is measured: the printed lines
COVER_REFUSED = 0.25
# A print whose own plain cells carry coloured marks shows them on nearly every cell of that kind, where a pawn
# covers two to four cells of the card (with two pawns on the card, 5 of 8 cells had some of one). A kind of three
# cells or more with COVER_PRINTED of them marked keeps its marks as the print's: none is mended or refused.
COVER_PRINTED = 0.8
COVER_SEEN = 0.06  # a cell counts as marked when this much of its middle differs
COVER_GROW = 1  # pixels: a pawn's shaded rim fades into the paper


def _cell_box(shape: tuple[int, ...], row: int, column: int, margin: float) -> tuple[slice, slice]:
    height, width = shape[:2]
    return (
        slice(round(height * (row + margin) / 3), round(height * (row + 1 - margin) / 3)),
        slice(round(width * (column + margin) / 3), round(width * (column + 1 - margin) / 3)),
    )


def _kinds(cells: tuple[tuple[str, ...], ...] | None) -> dict[str, list[tuple[int, int]]]:
    """Plain and hole cells by kind; a bare slot (None) is plain all over."""
    if cells is None:
        return {"path": [(r, c) for r in range(3) for c in range(3)]}
    kinds: dict[str, list[tuple[int, int]]] = {}
    for r in range(3):
        for c in range(3):
            if cells[r][c] in ("path", "hole"):
                kinds.setdefault(cells[r][c], []).append((r, c))
    return kinds


def _covering(photo: np.ndarray, cells: tuple[tuple[str, ...], ...] | None) -> dict[tuple[int, int], np.ndarray]:
    """Per plain or hole cell, which of its pixels lie off its kind's colour (the whole cell, lines and all); a
    kind whose marks are the print's own (COVER_PRINTED) is left out."""
    lab = cv2.cvtColor(photo.astype(np.float32) / 255.0, cv2.COLOR_BGR2LAB)
    covering = {}
    for members in _kinds(cells).values():
        middles = np.concatenate([lab[_cell_box(lab.shape, r, c, COVER_MARGIN)].reshape(-1, 3) for r, c in members])
        if middles.size == 0:
            continue
        a, b = np.median(middles[:, 1]), np.median(middles[:, 2])
        apart = {}
        for r, c in members:
            cell = lab[_cell_box(lab.shape, r, c, 0.0)]
            apart[(r, c)] = np.hypot(cell[:, :, 1] - a, cell[:, :, 2] - b) > COVER_AB
        marked = sum(_middle_share(mask) >= COVER_SEEN for mask in apart.values())
        if len(members) < 3 or marked < COVER_PRINTED * len(members):
            covering.update(apart)
    return covering


def _middle_share(mask: np.ndarray) -> float:
    """The share of a cell's middle (COVER_MARGIN off each side) that ``mask`` marks."""
    height, width = mask.shape
    dy, dx = round(height * COVER_MARGIN), round(width * COVER_MARGIN)
    middle = mask[dy : height - dy, dx : width - dx]
    return float(middle.mean()) if middle.size else 0.0


def covered_cell(photo: np.ndarray, cells: tuple[tuple[str, ...], ...] | None) -> tuple[int, int, float] | None:
    """(row, column, share) of the plain or hole cell most covered by something lying on the card, counted from
    1, when more than COVER_REFUSED of its middle is covered; None when nothing lies on it that much."""
    shares = {cell: _middle_share(mask) for cell, mask in _covering(photo, cells).items()}
    if not shares:
        return None
    (row, column), share = max(shares.items(), key=lambda item: item[1])
    return (row + 1, column + 1, share) if share > COVER_REFUSED else None


def mend_covered(photo: np.ndarray, cells: tuple[tuple[str, ...], ...] | None) -> np.ndarray:
    """``photo`` (BGR, uint8) with what lies on its plain and hole cells painted in its kind's colour."""
    covering = _covering(photo, cells)
    if not any(mask.any() for mask in covering.values()):
        return photo
    far = np.zeros(photo.shape[:2], bool)
    for (r, c), mask in covering.items():
        far[_cell_box(photo.shape, r, c, 0.0)] = mask
    grown = cv2.dilate(far.astype(np.uint8), np.ones((2 * COVER_GROW + 1,) * 2, np.uint8)) > 0
    mended = photo.copy()
    for members in _kinds(cells).values():
        inside = np.zeros(photo.shape[:2], bool)
        middles = np.zeros(photo.shape[:2], bool)
        for r, c in members:
            inside[_cell_box(photo.shape, r, c, 0.0)] = True
            middles[_cell_box(photo.shape, r, c, COVER_MARGIN)] = True
        clear = middles & ~grown
        if not clear.any():
            continue  # every middle of the kind covered: nothing to paint with
        mended[grown & inside] = np.median(photo[clear], 0).astype(np.uint8)
    return mended


# An arm held still over `eval-cards`' photos (a skin-coloured band from a frame edge to a slot, 100 photos, seed 46):
# of a slot's pixels (MATCH_SIZE, `normalise`d Lab with doubled chroma), those lying more than COVER_FAR (summed over
# L, a and b) from the best reference of the card read reached 0.42 of a slot without an arm (a pawn on it; 0.25 at
# the 99th percentile) and more than READ_COVERED on 30 of the 52 slots under the arm read wrong surely enough for
# the tracker. Two right readings of 1,200 without an arm lay above it.
COVER_FAR = 45.0
READ_COVERED = 0.3
COVER_REACH = 1


def unexplained_share(queries: np.ndarray, references: np.ndarray, side: int, reach: int = COVER_REACH) -> np.ndarray:
    """For each slot image (``queries``: rows of `seen_lab` raveled, ``side`` pixels square), the least share over
    ``references`` (rows: one card's reference images) of its pixels that lie more than COVER_FAR from the
    reference within ``reach`` pixels of their own place: a card laid a little askew is still explained by its
    drawing. A pixel the camera clipped (NaN) is no evidence either way and counts as near."""
    seen = queries.reshape(-1, 1, side, side, 3)
    drawn = references.reshape(1, -1, side, side, 3)
    if reach:
        drawn = np.pad(drawn, ((0, 0), (0, 0), (reach, reach), (reach, reach), (0, 0)), mode="edge")
    nearest = None
    for dy in range(2 * reach + 1):
        for dx in range(2 * reach + 1):
            apart = np.abs(drawn[:, :, dy : dy + side, dx : dx + side] - seen)
            apart = apart[..., 0] + apart[..., 1] + apart[..., 2]  # numpy's sum over a last axis of 3 is slow
            nearest = apart if nearest is None else np.fmin(nearest, apart, out=nearest)
    return (nearest > COVER_FAR).mean((2, 3)).min(1)
