"""A café's card taught under a lamp so bright that the camera clips its paper in some colours.

A mint print under a bright lamp shows its green at 255 while its red and blue are not: the photo stored has
another hue than the card. Taught so, the deck's cards were read as others surely enough for the table to take
them (240 slots of 20 photos: 0.52 right, 55 wrong and sure); now the teach step refuses the photo and says to dim
the light. Every picture is rendered, written as a PNG and read back with OpenCV, as a café's photo is.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.vision.test_cafe_cards_robust import MINT, photo, printed_board, straight_view
from vision.card_looks import CLIPPED_COLOUR_SHARE, clipped_colour_share
from vision.card_reader import CardReader
from vision.teaching import TeachRefused, teach_card

LAYOUT = {3: "P07", 8: "P20"}


def lit(image: np.ndarray, gain: float) -> np.ndarray:
    """``image`` under a lamp ``gain`` times as bright, as a camera clips it."""
    return np.clip(image.astype(np.float32) * gain, 0, 255).astype(np.uint8)


def test_a_mint_card_clipped_by_a_bright_lamp_is_refused_and_taught_once_dimmed(tmp_path: Path) -> None:
    board = printed_board(LAYOUT, {3: MINT})[0]
    folder = tmp_path / "taught"
    bright = photo(tmp_path / "bright.png", lit(straight_view(board), 1.3))
    with pytest.raises(TeachRefused, match=r"slot 3 is too brightly lit in this view: the camera clips \d+% of the "
                                           r"card .*dim the lamp over the board or lower the camera's exposure"):
        teach_card(bright, 3, "P07", folder)
    assert not folder.exists() or not any(folder.iterdir())  # nothing stored
    dimmed = photo(tmp_path / "dimmed.png", lit(straight_view(board), 0.9))
    taught = teach_card(dimmed, 3, "P07", folder)
    assert taught.path == folder / "P07__0.png"
    again = photo(tmp_path / "again.png", straight_view(board, seed=4))
    read = CardReader(taught_dir=folder).read(again)
    assert read is not None and read.cards()[3] == "P07"


def test_the_house_print_and_white_glare_are_not_taken_for_clipped_colours(tmp_path: Path) -> None:
    """The house print at the camera's usual light is taught as before; a spot of glare (white in all three
    colours) is no lost hue."""
    board = printed_board(LAYOUT)[0]
    frame = photo(tmp_path / "house.png", straight_view(board))
    assert teach_card(frame, 3, "P07", tmp_path / "taught").what == "P07 from slot 3"
    card = np.full((60, 60, 3), (120, 178, 214), np.uint8)
    card[10:40, 10:40] = 255  # glare
    assert clipped_colour_share(card) < CLIPPED_COLOUR_SHARE
    card[:, :, 2] = 255  # the red clipped all over
    assert clipped_colour_share(card) > CLIPPED_COLOUR_SHARE
