"""Drawing the temple's path cards and board from their data.

The same drawing gives the reader its reference images and gives the tests and
`eval-cards` their board photos, so house cards (which a café can print from
these drawings) are recognised without anyone photographing them.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.card_catalogue import BoardSpec, CardSpec
from vision.markers import MARKER_IDS, marker_image

SAND = (120, 178, 214)
SAND_EDGE = (90, 140, 176)
HOLE = (40, 32, 28)
BOARD = (52, 70, 46)
EMPTY_SLOT = (70, 78, 74)
IDOL_COLOURS = {"red": (40, 40, 200), "blue": (190, 100, 30), "green": (60, 150, 40), "yellow": (40, 205, 235)}


def draw_cell(img: np.ndarray, x0: int, y0: int, px: int, kind: str) -> None:
    """One cell of a card, px pixels square, at (x0, y0) of img."""
    x1, y1 = x0 + px, y0 + px
    if kind == "hole":
        cv2.rectangle(img, (x0, y0), (x1 - 1, y1 - 1), HOLE, -1)
        return
    cv2.rectangle(img, (x0, y0), (x1 - 1, y1 - 1), SAND, -1)
    cv2.rectangle(img, (x0, y0), (x1 - 1, y1 - 1), SAND_EDGE, max(1, px // 16))
    if kind == "stair":
        # Bold steps: at 10 px per cell a thin drawing would vanish in the camera's blur.
        for i in range(3):
            y = y0 + px // 10 + i * px * 3 // 10
            cv2.rectangle(img, (x0 + px // 10, y), (x1 - px // 10, y + px * 3 // 20), (40, 60, 90), -1)
    elif kind.startswith("idol:"):
        colour = IDOL_COLOURS.get(kind.split(":", 1)[1], (200, 0, 200))
        c = (x0 + px // 2, y0 + px // 2)
        r = px * 0.42
        diamond = np.array([(c[0], c[1] - r), (c[0] + r, c[1]), (c[0], c[1] + r), (c[0] - r, c[1])], np.int32)
        cv2.fillConvexPoly(img, diamond, colour, cv2.LINE_AA)


def render_cells(cells: tuple[tuple[str, ...], ...] | None, px: int) -> np.ndarray:
    """A card (or an empty slot when cells is None) as a BGR image of 3 x px pixels square."""
    img = np.empty((3 * px, 3 * px, 3), np.uint8)
    img[:] = EMPTY_SLOT
    if cells is None:
        return img
    for r in range(3):
        for c in range(3):
            draw_cell(img, c * px, r * px, px, cells[r][c])
    return img


def render_card(card: CardSpec | None, size: int, supersample: int = 4) -> np.ndarray:
    """A card drawn large and shrunk to size x size, as a camera would see it (soft edges)."""
    px = max(4, size * supersample // 3)
    big = render_cells(card.cells if card else None, px)
    return cv2.resize(big, (size, size), interpolation=cv2.INTER_AREA)


def recolour(img: np.ndarray, palette: dict[tuple[int, int, int], tuple[int, int, int]]) -> np.ndarray:
    """``img`` with each house colour of ``palette`` printed in the café's own (BGR -> BGR), in place."""
    before = img.copy()
    for house, own in palette.items():
        img[np.all(before == np.array(house, np.uint8), axis=2)] = own
    return img


def card_placement(across: float, down: float, turn: float = 0.0) -> np.ndarray:
    """3x3 affine matrix: a card's points (in cells) as laid ``across`` and ``down`` cells off its slot, along its
    own columns and rows, and turned ``turn`` degrees about its middle."""
    angle = np.deg2rad(turn)
    cos, sin = np.cos(angle), np.sin(angle)
    middle = 1.5 - cos * 1.5 + sin * 1.5, 1.5 - sin * 1.5 - cos * 1.5  # the card's middle stays put when turned
    return np.array([[cos, -sin, middle[0] + across], [sin, cos, middle[1] + down], [0.0, 0.0, 1.0]])


def render_board(
    board: BoardSpec,
    slot_cards: dict[int, CardSpec | None],
    cell_px: int,
    margin_cells: float = 3.5,
    marker_cells: float = 2.5,
    palette: dict[tuple[int, int, int], tuple[int, int, int]] | None = None,
    askew: dict[int, tuple[float, float, float]] | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """The board seen straight from above with markers outside its corners.

    ``palette`` prints the cards laid in the slots in a café's own colours (house colour -> the café's, BGR);
    the board, its corner path and the bare slots keep the house colours. ``askew`` lays a slot's card as a
    hand does, off its slot (slot -> (across, down, turn): shifted in cells along the card's own columns and
    rows, turned in degrees about its middle), over the bare slot.
    Returns (image, matrix) where matrix maps board cells to image pixels (3x3).
    """
    margin = round(margin_cells * cell_px)
    side = board.size * cell_px + 2 * margin
    img = np.empty((side, side, 3), np.uint8)
    img[:] = (225, 225, 225)
    b0, b1 = margin, margin + board.size * cell_px
    cv2.rectangle(img, (b0, b0), (b1 - 1, b1 - 1), BOARD, -1)
    for (ox, oy), cells in board.corners:
        for r in range(3):
            for c in range(3):
                draw_cell(img, b0 + (ox + c) * cell_px, b0 + (oy + r) * cell_px, cell_px, cells[r][c])
    scale = np.diag([1 / cell_px, 1 / cell_px, 1.0])
    to_img = np.array([[cell_px, 0, b0], [0, cell_px, b0], [0, 0, 1]], float)
    for slot in board.slots:
        card = slot_cards.get(slot.slot)
        laid = (askew or {}).get(slot.slot) if card else None
        if laid is not None:  # the bare slot shows where the card leaves it
            cv2.warpAffine(render_cells(None, cell_px), (to_img @ slot.card_to_board() @ scale)[:2], (side, side),
                           dst=img, flags=cv2.INTER_NEAREST, borderMode=cv2.BORDER_TRANSPARENT)
        art = render_cells(card.cells if card else None, cell_px)
        if card and palette:
            recolour(art, palette)
        to_board = slot.card_to_board() @ card_placement(*laid) if laid is not None else slot.card_to_board()
        cv2.warpAffine(art, (to_img @ to_board @ scale)[:2], (side, side), dst=img, flags=cv2.INTER_NEAREST,
                       borderMode=cv2.BORDER_TRANSPARENT)
    mpx = round(marker_cells * cell_px)
    quiet = max(2, mpx // 6)
    spots = [(b0 - mpx, b0 - mpx), (b1, b0 - mpx), (b1, b1), (b0 - mpx, b1)]
    for marker_id, (x, y) in zip(MARKER_IDS, spots, strict=True):
        cv2.rectangle(img, (x - quiet, y - quiet), (x + mpx + quiet - 1, y + mpx + quiet - 1), (255, 255, 255), -1)
        img[y:y + mpx, x:x + mpx] = cv2.cvtColor(marker_image(marker_id, mpx), cv2.COLOR_GRAY2BGR)
    matrix = np.array([[cell_px, 0, b0], [0, cell_px, b0], [0, 0, 1]], float)
    return img, matrix
