"""Glare off glossy cards or sleeves under a café's lamp.

Where a lamp's glare lies on a card the camera clips to white, and white matched the deck's paler cells: with three
spots of glare on each of 60 of `eval-cards`' photos (seed 8), 693 of 720 slots were read right and four wrong
readings were sure enough for the tracker to take them, one a card read as a bare slot 93% surely. Clipped pixels
now cost every card alike and stay out of a slot's gain (`card_looks.seen_lab`).

Every picture is an image the test renders, writes as a PNG and reads back with OpenCV, as a camera's frame.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.vision.test_cards_askew import read_boards
from vision.card_looks import MATCH_SIZE
from vision.card_reader import CardReader


def test_glare_on_cards_leaves_no_wrong_card_sure_enough_to_count(tmp_path: Path) -> None:
    """709 of 720 slots right now, and no wrong reading sure enough to count."""
    right, slots, counted, lost = read_boards(tmp_path, 60, 8, glare=3)
    assert (slots, lost) == (720, 0)  # the glare lies on slots, never on a marker
    assert counted == []
    assert right >= 0.98 * slots, (right, slots)


def test_without_glare_nothing_changes(tmp_path: Path) -> None:
    assert read_boards(tmp_path, 30, 5, glare=0) == (360, 360, [], 0)


@pytest.mark.parametrize("clipped", [255, 250])
def test_a_slot_all_glare_reads_as_nothing_sure(clipped: int) -> None:
    """A slot the camera saw as white all over says nothing of its card: no card is read surely from it."""
    reader = CardReader()
    white = np.full((MATCH_SIZE, MATCH_SIZE, 3), clipped, np.uint8)
    card, sure = reader.match_many([white], [np.array([255.0, 255.0, 255.0])])[0]
    assert sure == 0.0, (card, sure)
