"""A board seen washed out (a smeared lens, a lamp shining into it) is told by how bright its markers' black is
beside their paper; a camera's ordinary picture of printed ink, or a thin veil the reader allows for, is not."""

from __future__ import annotations

import numpy as np
import pytest

from vision.board_photos import board_photo, veiled
from vision.card_catalogue import load_temple_board, load_temple_cards
from vision.card_reader import CardReader
from vision.markers import BoardFinder, ink_seen
from vision.view_check import WASHED_OUT_FROM, washed_out

CARDS, BOARD = load_temple_cards(), load_temple_board()


def photo_and_markers(seed: int, ink: float = 0.05) -> tuple[np.ndarray, dict[int, np.ndarray]]:
    image = board_photo(np.random.default_rng(seed), CARDS, BOARD, ink=ink).image
    finder = BoardFinder(BOARD.size)
    assert finder.homography(image) is not None
    return image, finder.last_markers


def ink_share(image: np.ndarray, markers: dict[int, np.ndarray]) -> float | None:
    seen = ink_seen(image, markers)
    return None if seen is None else seen.share


@pytest.mark.parametrize("seed", [3, 4, 5])
def test_the_share_rises_with_the_veil_and_only_a_thick_veil_is_told(seed: int) -> None:
    drawn, markers = photo_and_markers(seed, ink=0.0)
    printed, _ = photo_and_markers(seed)
    shares = [ink_share(image, markers) for image in (drawn, printed, veiled(printed, 0.2), veiled(printed, 0.6))]
    assert shares[0] < 0.05 < 0.2 < shares[1] < 0.35 < shares[2] < WASHED_OUT_FROM < shares[3], shares
    assert [washed_out(share) for share in shares] == [None, None, None, shares[3]]


def test_the_reader_keeps_the_share_of_the_board_it_last_saw() -> None:
    printed, _ = photo_and_markers(9)
    reader = CardReader(CARDS, BOARD)
    assert reader.read(veiled(printed, 0.6)) is not None
    assert washed_out(reader.last_ink_share) == ink_share(veiled(printed, 0.6), reader.finder.last_markers)
    assert reader.read(printed) is not None and washed_out(reader.last_ink_share) is None
    assert reader.read(np.full_like(printed, 128)) is None and reader.last_ink_share is None


def test_the_inks_light_is_what_the_board_was_printed_with() -> None:
    for ink in (0.0, 0.05, 0.1):
        image, markers = photo_and_markers(8, ink=ink)
        seen = ink_seen(image, markers)
        assert seen is not None and seen.light == pytest.approx(ink, abs=0.015)


def test_under_two_markers_in_the_picture_say_nothing() -> None:
    image, markers = photo_and_markers(7)
    smeared = veiled(image, 0.6)
    assert ink_seen(smeared, {}) is None and ink_seen(smeared, {0: markers[0]}) is None
    assert washed_out(None) is None
    # A marker whose modules fall outside the picture is left out, not read from the frame's edge.
    off = {0: markers[0], 1: markers[1] + np.float32([image.shape[1], 0])}
    assert ink_seen(smeared, off) is None
    pair = {0: markers[0], 2: markers[2]}
    assert ink_share(smeared, pair) == pytest.approx(ink_share(smeared, markers), abs=0.05)
