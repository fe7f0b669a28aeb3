"""One card photo taken back by the teach steps' own code (`teaching.take_back_card`), as a face is taken back.

Before, a photo taught from the wrong slot was undone only by deleting its `P07__1.png` by hand. Photos are
written by the teach step from a rendered board frame and read back with OpenCV.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.vision.test_feed import BY_ID, board_frame
from vision.card_reader import CardReader
from vision.teaching import TeachRefused, take_back_card, teach_card


def test_a_taught_photo_is_taken_back_and_the_reader_reads_without_it(tmp_path: Path) -> None:
    card = sorted(BY_ID)[4]
    out = tmp_path / "taught"
    taught = [teach_card(board_frame({3: card}), 3, card, out) for _ in range(2)]
    assert [t.path.name for t in taught] == [f"{card}__0.png", f"{card}__1.png"]
    said = take_back_card(taught[1].path, out)
    assert said.what == f"the photo of {card} ({card}__1.png) taken back" and said.path == taught[1].path
    assert not taught[1].path.exists() and taught[0].path.is_file()
    assert CardReader(taught_dir=out).taught_cards == [card]


def test_a_damaged_photo_a_link_or_a_file_not_taught_is_refused_and_left(tmp_path: Path) -> None:
    card = sorted(BY_ID)[4]
    out = tmp_path / "taught"
    photo = teach_card(board_frame({3: card}), 3, card, out).path
    assert cv2.imwrite(str(photo), np.full((60, 60, 3), 128, np.uint8))  # painted over by hand
    painted = photo.read_bytes()
    with pytest.raises(TeachRefused, match=r"is not the card photo taught \(one flat colour, no card printed on "
                                           r"it\): it was left as it was"):
        take_back_card(photo, out)
    assert photo.read_bytes() == painted
    photo.write_bytes(b"")
    with pytest.raises(TeachRefused, match=r"\(not a readable image\)"):
        take_back_card(photo, out)
    assert photo.read_bytes() == b""

    photo.unlink()
    elsewhere = tmp_path / "kept.png"
    elsewhere.write_bytes(b"the cafe's own")
    photo.symlink_to(elsewhere)
    with pytest.raises(TeachRefused, match="no longer there as the photo taught"):
        take_back_card(photo, out)
    assert photo.is_symlink() and elsewhere.read_bytes() == b"the cafe's own"
    for other in (elsewhere, out / "notes.png", out / "temple_die.json"):
        with pytest.raises(TeachRefused, match="is not a card photo a teach step stored"):
            take_back_card(other, out)
    assert elsewhere.is_file()
