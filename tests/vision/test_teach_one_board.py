"""The board of a photo every slot is taught from is found once, not once a slot.

A café (or `eval-cards`) teaches up to 12 slots from one photo, and each `CardReader.teach` searched that photo for
the board's markers again, lifted its shadow band and warped every slot out of it: about half of what teaching a
board cost. The board found is kept for the next slot taught from the same photo (`TeachView`), and what is taught
is what a reader teaching the slot from the photo alone stores, byte for byte.

The photos are `eval-cards`' seeded board photos (uneven light, a colour cast, blur, noise), as real OpenCV images.
"""

from __future__ import annotations

import numpy as np

from tests.vision.test_cafe_cards_robust import BOARD, CARDS
from vision.board_photos import board_photo
from vision.card_reader import CardReader


def counting(reader: CardReader) -> list[int]:
    """Counts the board searches ``reader``'s finder makes (one item a search)."""
    searches: list[int] = []
    search = reader.finder.homography

    def counted(frame: np.ndarray) -> np.ndarray | None:
        searches.append(1)
        return search(frame)

    reader.finder.homography = counted  # type: ignore[method-assign]
    return searches


def test_twelve_slots_taught_from_one_photo_search_it_once_and_teach_what_each_alone_would() -> None:
    rng = np.random.default_rng(5)
    shot = board_photo(rng, CARDS, BOARD, empty_slots=frozenset(), pawns=0)
    reader = CardReader()
    searches = counting(reader)
    taught = {slot: reader.teach(shot.image, slot, card) for slot, card in sorted(shot.truth.items())}
    assert len(taught) == 12 and len(searches) == 1
    for slot, card in sorted(shot.truth.items()):
        alone = CardReader().teach(shot.image, slot, card)
        assert alone.dtype == taught[slot].dtype and alone.tobytes() == taught[slot].tobytes(), slot


def test_another_photo_a_photo_changed_in_place_or_a_reading_between_search_again() -> None:
    """The board kept is the photo's: another photo, the same array drawn on, or the finder's state moved on by a
    reading of another frame (a board with a marker hidden is found by where the last one lay) is searched anew."""
    rng = np.random.default_rng(6)
    first, second = (board_photo(rng, CARDS, BOARD, empty_slots=frozenset(), pawns=0) for _ in range(2))
    reader = CardReader()
    searches = counting(reader)
    slot, card = min(first.truth.items())
    reader.teach(first.image, slot, card)
    reader.teach(first.image.copy(), slot, card)  # an equal photo is the same photo
    assert len(searches) == 1
    other_slot, other_card = min(second.truth.items())
    reader.teach(second.image, other_slot, other_card)
    assert len(searches) == 2
    image = second.image.copy()
    reader.teach(image, other_slot, other_card)
    assert len(searches) == 2
    image[0, 0] ^= 1  # drawn on where no slot lies: searched again all the same
    reader.teach(image, other_slot, other_card)
    assert len(searches) == 3
    assert reader.read(first.image) is not None
    reader.teach(image, other_slot, other_card)
    assert len(searches) == 5
