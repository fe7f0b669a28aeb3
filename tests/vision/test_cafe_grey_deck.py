"""Reading a café's deck printed in the bare slot's own grey, once taught: bare slots read bare, cards right.

- The taught photos of such a deck matched bare slots better than the drawn bare slot did: 58 of 360 bare slots
  read as a card, mostly the café's card of nine path cells (a phantom card change for the game).
- A taught photo keeps its frame's sensor noise and the slope of its light, and in a grey deck, whose cells differ
  in lightness alone, that drew one card's slots to another card's photo (P47 read as P46, P08 as P17).

Every picture is an image the test renders, writes as a PNG and reads back with OpenCV, as a café's photo.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from vision.board_photos import board_photo
from vision.card_catalogue import appearance_groups, load_temple_board, load_temple_cards
from vision.card_reader import CardReader
from vision.card_render import HOLE, SAND, SAND_EDGE
from vision.slot_tracker import SlotTracker

CARDS = load_temple_cards()
BOARD = load_temple_board()
GREY = {SAND: (78, 86, 82), SAND_EDGE: (62, 68, 66), HOLE: (40, 44, 42)}  # paper a shade off EMPTY_SLOT (70, 78, 74)


def photo(path: Path, image: np.ndarray) -> np.ndarray:
    """``image`` written to ``path`` and read back as a café's photo file is."""
    assert cv2.imwrite(str(path), image)
    read = cv2.imread(str(path))
    assert read is not None
    return read


@pytest.fixture(scope="module")
def grey_taught(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder a café filled teaching its 48 grey cards, one photo each, from board photos as `eval-cards` makes
    them (uneven light, casts, blur, noise; 9 photos of full boards, no pawns while teaching)."""
    tmp_path = tmp_path_factory.mktemp("grey")
    folder = tmp_path / "taught"
    groups = appearance_groups(CARDS)
    untaught = set(groups.values())
    rng = np.random.default_rng(7)
    teacher = CardReader()  # as `teach_card` teaches and stores, without reading the folder again for each card
    teach_photos = 0
    while untaught:
        shot = board_photo(rng, CARDS, BOARD, empty_slots=frozenset(), palette=GREY, pawns=0)
        frame = photo(tmp_path / f"teach{teach_photos}.png", shot.image)
        teach_photos += 1
        for slot, card in sorted(shot.truth.items()):
            if card is not None and groups[card] in untaught:
                teacher.save_taught(folder, card, teacher.teach(frame, slot, card))
                untaught.discard(groups[card])
    assert teach_photos == 9
    return folder


def read_grey_boards(tmp_path: Path, folder: Path, boards: int, seed: int, **laid: Any) -> tuple[int, int, list, list]:
    """(bare slots read bare, cards read right, bare slots read as a card, cards read wrong) over ``boards`` fresh
    photos with six grey cards, six bare slots and up to four pawns each (`board_photo` with ``laid``)."""
    reader = CardReader(taught_dir=folder)
    assert len(reader.taught_cards) == 48 and reader.taught_skipped == []
    groups = appearance_groups(CARDS)
    rng = np.random.default_rng(seed)
    bare_right, cards_right, phantoms, wrong = 0, 0, [], []
    for n in range(boards):
        empty = frozenset(int(s) for s in rng.choice(np.arange(1, 13), 6, replace=False))
        shot = board_photo(rng, CARDS, BOARD, empty_slots=empty, palette=GREY, **laid)
        reading = reader.read(photo(tmp_path / "read.png", shot.image))
        assert reading is not None, n
        for seen in reading.slots:
            card = shot.truth[seen.slot]
            if card is None:
                bare_right += seen.card is None
                if seen.card is not None:
                    phantoms.append((n, seen.slot, seen.card, round(seen.confidence, 2)))
            elif seen.card == groups[card]:
                cards_right += 1
            else:
                wrong.append((n, seen.slot, card, seen.card, round(seen.confidence, 2)))
    return bare_right, cards_right, phantoms, wrong


def test_a_grey_deck_taught_reads_its_bare_slots_bare_and_its_cards_right(tmp_path: Path, grey_taught: Path) -> None:
    """The camera reads 60 fresh photos of the taught grey deck. Before, 302 of the 360 bare slots read bare (58 read
    as a card, 31 of them surely enough for the tracker to count: phantom cards) and 339 of the 360 cards right; now
    360 and 358, no bare slot is read as a card and no wrong card is sure enough to count (the house deck reads
    0.9983 of `eval-cards`' slots right). About 8 s."""
    bare_right, cards_right, phantoms, wrong = read_grey_boards(tmp_path, grey_taught, 60, 2024)
    assert bare_right == 360, f"{360 - bare_right} of 360 bare slots read as a card: {phantoms[:10]}"
    assert cards_right >= 354, f"{360 - cards_right} of 360 grey cards read wrong: {wrong[:10]}"
    assert sum(SlotTracker().counts(w[4]) for w in wrong) <= 2, wrong  # the few wrong ones mostly too unsure to count


def test_a_grey_deck_laid_askew_is_read(tmp_path: Path, grey_taught: Path) -> None:
    """The taught grey deck laid by hand, every card up to 0.3 cells off and turned up to 8 degrees (30 photos):
    the lines between its cells, which tell it from a bare slot, were looked for where a card laid true has them,
    and 121 of the 180 cards read right, most of the others as bare slots; their lines are now looked for off
    their place and turned (`lines_laid_askew`): 174, and the bare slots still read bare."""
    bare_right, cards_right, phantoms, wrong = read_grey_boards(tmp_path, grey_taught, 30, 2025, askew=(0.3, 8.0))
    assert bare_right == 180, phantoms
    assert cards_right >= 170, wrong
