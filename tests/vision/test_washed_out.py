"""A board seen washed out (a smeared lens, a lamp shining into it, markers printed grey) is told by how bright
its markers' black is beside their paper; a camera's ordinary picture of printed ink is not."""

from __future__ import annotations

import numpy as np
import pytest

from vision.board_photos import board_photo, veiled
from vision.card_catalogue import load_temple_board, load_temple_cards
from vision.markers import BoardFinder, ink_share
from vision.view_check import WASHED_OUT_FROM, washed_out_board

CARDS, BOARD = load_temple_cards(), load_temple_board()


def photo_and_markers(seed: int) -> tuple[np.ndarray, dict[int, np.ndarray]]:
    image = board_photo(np.random.default_rng(seed), CARDS, BOARD).image
    finder = BoardFinder(BOARD.size)
    assert finder.homography(image) is not None
    return image, finder.last_markers


@pytest.mark.parametrize("seed", [3, 4, 5])
def test_the_share_rises_with_the_veil_and_only_a_veiled_board_is_told(seed: int) -> None:
    image, markers = photo_and_markers(seed)
    drawn = ink_share(image, markers)
    printed = ink_share(veiled(image, 0.0, ink=0.05), markers)
    smeared = ink_share(veiled(image, 0.3, ink=0.05), markers)
    assert drawn is not None and printed is not None and smeared is not None
    assert drawn < 0.05 < 0.2 < printed < WASHED_OUT_FROM < smeared, (drawn, printed, smeared)
    assert washed_out_board(veiled(image, 0.0, ink=0.05), markers) is None
    assert washed_out_board(veiled(image, 0.3, ink=0.05), markers) == smeared


def test_a_grey_print_is_told_as_a_veil_is() -> None:
    """Markers printed with a weak toner lose the contrast a veil takes: the cards printed so lose it too."""
    image, markers = photo_and_markers(6)
    assert washed_out_board(veiled(image, 0.0, ink=0.2), markers) is not None


def test_under_two_markers_in_the_picture_say_nothing() -> None:
    image, markers = photo_and_markers(7)
    smeared = veiled(image, 0.3, ink=0.05)
    one = {0: markers[0]}
    assert ink_share(smeared, {}) is None and ink_share(smeared, one) is None
    assert washed_out_board(smeared, None) is None and washed_out_board(smeared, one) is None
    # A marker whose modules fall outside the picture is left out, not read from the frame's edge.
    off = {0: markers[0], 1: markers[1] + np.float32([image.shape[1], 0])}
    assert ink_share(smeared, off) is None
    pair = {0: markers[0], 2: markers[2]}
    assert ink_share(smeared, pair) == pytest.approx(ink_share(smeared, markers), abs=0.05)
