"""A temple table under one camera, drawn: the board with its markers on the left, the die's tray on the right.

The temple die is rolled beside the board and now and then onto it; the tests
and `eval-temple-die --on-board` need both, from one fixed light and board, in
frames drawn afresh: the camera's noise differs from frame to frame, and so do
the shades of the die's sides, so a test wanting a die that did not move copies
the frame it lies in.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import cv2
import numpy as np

from vision.card_catalogue import load_temple_board, load_temple_cards
from vision.card_render import IDOL_COLOURS, render_board
from vision.temple_die_render import SILHOUETTE, draw_die
from vision.tray_area import TrayArea

TABLE_SIZE = (800, 480)
TRAY = (60.0, 70.0, 55.0)
BOARD_AT = (10, 10)  # the board with its markers' sheet, 460 px square, lies here
BOARD_SIDE = 460
TRAY_LEFT = 480  # the tray is what lies right of this
MARKED_TRAY = TrayArea(TRAY_LEFT / TABLE_SIZE[0], 0.0, 1.0, 1.0)  # the tray as a café would mark it on this table
MARGIN_CELLS = 3.5  # the markers' sheet round the board, in the board's cells


@dataclass(frozen=True)
class RolledDie:
    """Where a die lies on the drawn table and what it shows."""

    value: str
    colour: str
    centre: tuple[float, float]
    edge: float = 55.0
    angle: float = 0.0


@functools.cache
def _flat_board(layout: tuple[int, ...] | None = None) -> np.ndarray:
    """The board with the house deck's card ``layout[i]`` in its i-th slot (default: card i)."""
    board, cards = load_temple_board(), load_temple_cards()
    laid = layout or tuple(range(len(board.slots)))
    flat, _ = render_board(board, {s.slot: cards[laid[i]] for i, s in enumerate(board.slots)}, 20, MARGIN_CELLS)
    flat = cv2.resize(flat, (BOARD_SIDE, BOARD_SIDE), interpolation=cv2.INTER_AREA)
    flat.flags.writeable = False
    return flat


def board_cells() -> tuple[float, float, float]:
    """(left, top, side) in table pixels of the board's own square, inside the markers' margin: where a die rolled
    onto the board comes to rest."""
    board = load_temple_board()
    cell = BOARD_SIDE / (board.size + 2 * MARGIN_CELLS)
    return BOARD_AT[0] + MARGIN_CELLS * cell, BOARD_AT[1] + MARGIN_CELLS * cell, board.size * cell


def temple_table(rng: np.random.Generator, die: RolledDie | None = None,
                 pawns: tuple[tuple[tuple[float, float], str], ...] = (), light: float = 1.0,
                 pawn_radius: float = 14.0, layout: tuple[int, ...] | None = None) -> np.ndarray:
    """One frame of the table: ``die`` wherever it lies (tray or board), ``pawns`` as (centre, idol colour) discs
    on the board, the cards as ``layout`` lays them (`_flat_board`), everything times ``light``, with the camera's
    noise drawn from ``rng``."""
    width, height = TABLE_SIZE
    img = np.empty((height, width, 3), np.float32)
    img[:] = TRAY
    x, y = BOARD_AT
    img[y:y + BOARD_SIDE, x:x + BOARD_SIDE] = _flat_board(layout)
    for (cx, cy), colour in pawns:
        shade = IDOL_COLOURS[colour]
        cv2.circle(img, (round(cx), round(cy)), round(pawn_radius), tuple(c * 0.6 for c in shade), -1, cv2.LINE_AA)
        cv2.circle(img, (round(cx), round(cy)), round(pawn_radius * 0.7), shade, -1, cv2.LINE_AA)
    if die is not None:
        draw_die(img, rng, die.value, die.colour, die.centre, die.edge, die.angle)
    img = img * light + rng.normal(0, 4, img.shape)
    return np.clip(cv2.GaussianBlur(img, (0, 0), 0.6), 0, 255).astype(np.uint8)


def on_board_place(rng: np.random.Generator, edge: float = 55.0) -> tuple[float, float]:
    """A place on the board's own square for a die of ``edge`` to rest, wholly on it."""
    left, top, side = board_cells()
    reach = edge * SILHOUETTE
    return float(rng.uniform(left + reach, left + side - reach)), float(rng.uniform(top + reach, top + side - reach))


def in_tray_place(rng: np.random.Generator, edge: float = 55.0) -> tuple[float, float]:
    reach = edge * SILHOUETTE + 5
    width, height = TABLE_SIZE
    return float(rng.uniform(TRAY_LEFT + reach, width - reach)), float(rng.uniform(reach, height - reach))
