"""A café's card taught under a lamp so bright that the camera clips its paper in some colours.

A mint print under a bright lamp shows its green at 255 while its red and blue are not: the photo stored has
another hue than the card. Taught so, the deck's cards were read as others surely enough for the table to take
them (240 slots of 20 photos: 0.52 right, 55 wrong and sure); now the teach step refuses the photo and says to dim
the light. And a pale card the camera did not clip, in a slot lit more brightly than the board's corners, was
clipped by the teach step itself when it divided the photo by the board's white: now lowered whole, it keeps its hue.
Every picture is rendered, written as a PNG and read back with OpenCV, as a café's photo is.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.vision.test_cafe_cards_robust import BOARD, MINT, camera_view, photo, printed_board, straight_view
from vision.card_looks import CLIPPED_COLOUR_SHARE, clipped_colour_share
from vision.card_reader import CardReader
from vision.slot_tracker import SlotTracker
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


# A lamp over the board's middle: its slots lit up to 1.7 times as brightly as its corners, whose printed path gives
# the white, and no colour the camera clips.
LAMP_OVER_THE_MIDDLE = np.array([[0.6, 0.85, 0.6], [0.85, 1.05, 0.85], [0.6, 0.85, 0.6]])
# Cards that differ by a cell or two (P17 is P01 without its idol, P46 P29 with a hole for it), as a deck has many.
LOOK_ALIKES = ("P01", "P17", "P29", "P46", "P20", "P49", "P02", "P47", "P21", "P33", "P11", "P15")


def test_a_pale_deck_taught_under_a_lamp_keeps_its_hue_and_reads_right_in_other_light(tmp_path: Path) -> None:
    """The photo was stored divided by the board's white alone, and clipped at 255: a slot brighter than the board's
    corners lost the mint paper's green-over-red (up to 65% of a photo at 255 here), while a slot read later keeps
    it, so a card's own photo fitted it worse than a look-alike's and the look-alike was read, surely (11 of 48
    slots). Now stored in the colours a read slot is looked at in, lowered whole where it would still clip."""
    rng = np.random.default_rng(1)
    slots = [slot.slot for slot in BOARD.slots]
    layout = {int(slot): card for slot, card in zip(rng.permutation(slots), LOOK_ALIKES, strict=True)}
    frame = photo(tmp_path / "lamp.png",
                  camera_view(printed_board(layout, dict.fromkeys(layout, MINT))[0], rng, LAMP_OVER_THE_MIDDLE))
    folder = tmp_path / "taught"
    for slot, card in layout.items():
        teach_card(frame, slot, card, folder)
    for stored in folder.iterdir():
        image = cv2.imread(str(stored))
        assert (image.max(2) >= 255).mean() < 0.02, stored.name  # the print's hue kept
    reader, tracker = CardReader(taught_dir=folder), SlotTracker()
    for n in range(4):  # the deck laid again, read under the café's usual uneven light
        again = {int(slot): card for slot, card in zip(rng.permutation(slots), LOOK_ALIKES, strict=True)}
        image = camera_view(printed_board(again, dict.fromkeys(again, MINT))[0], rng)
        read = reader.read(photo(tmp_path / f"again{n}.png", image))
        assert read is not None
        taken = [(again[s.slot], s.card) for s in read.slots if s.slot in again and tracker.counts(s.confidence)]
        assert [(card, seen) for card, seen in taken if seen != card] == [], n
        assert len(taken) >= 10, n  # most of them read surely enough for the table
