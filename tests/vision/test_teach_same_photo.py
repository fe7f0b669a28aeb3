"""A card taught again from the same slot under the same light is not stored twice, and taking back a card's new
photo puts back the clipped one its teaching set aside.

Every board is rendered (`camera_view`: turned, a little oblique, lit unevenly, blurred and noisy), written as a
PNG and read back with OpenCV, as a café's photo is; the taught photos are real files.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.vision.test_cafe_cards_robust import camera_view, photo, printed_board
from tests.vision.test_clipped_photos import taught_by_an_older_version
from vision.card_looks import stored_clipped
from vision.cli import main
from vision.teaching import take_back_card, teach_card

LAYOUT = {3: "P07", 8: "P20"}
EVEN = np.ones((3, 3))
SIDE_LAMP = np.array([[0.6, 0.8, 1.05], [0.65, 0.9, 1.15], [0.7, 1.0, 1.25]])  # a lamp off the board's east side


def view(tmp_path: Path, name: str, light: np.ndarray, noise: int) -> np.ndarray:
    """The board as the café's camera sees it under ``light``, with sensor noise of seed ``noise``."""
    image = camera_view(printed_board(LAYOUT)[0], np.random.default_rng(3), light)
    noisy = np.clip(image + np.random.default_rng(noise).normal(0, 3, image.shape), 0, 255).astype(np.uint8)
    return photo(tmp_path / name, noisy)


def test_the_same_card_taught_again_in_the_same_slot_and_light_keeps_the_first_photo(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Before, every tap stored one more photo all but the first (1.6 levels apart at most), each compared at every
    reading; under another light the photo differs, and is stored."""
    folder = tmp_path / "taught"
    first = teach_card(view(tmp_path, "a.png", EVEN, 1), 3, "P07", folder)
    assert first.path == folder / "P07__0.png" and not first.kept
    again = teach_card(view(tmp_path, "b.png", EVEN, 2), 3, "P07", folder)  # the next frame: fresh noise alone
    assert again.kept and again.path == first.path
    assert again.what.startswith("P07 is already taught from slot 3 under this light: this photo matches P07__0.png, "
                                 "taught before (")
    assert "so that one was kept and no second one stored" in again.what
    assert sorted(p.name for p in folder.iterdir()) == ["P07__0.png"]
    assert main(["vision", "teach-card", str(tmp_path / "b.png"), "--slot", "3", "--card", "P07", "--out",
                 str(folder), "--turn", "0", "--no-mirror"]) == 0
    said = capsys.readouterr().out
    assert said.startswith("P07 is already taught from slot 3 under this light") and said.rstrip().endswith(
        f": {first.path}"), said
    assert sorted(p.name for p in folder.iterdir()) == ["P07__0.png"]
    other = teach_card(view(tmp_path, "c.png", SIDE_LAMP, 1), 3, "P07", folder)  # another light: worth keeping
    assert not other.kept and other.path == folder / "P07__1.png"
    beside = teach_card(view(tmp_path, "d.png", EVEN, 3), 8, "P20", folder)  # another card, in the same light
    assert not beside.kept and beside.path == folder / "P20__0.png"


def test_taking_back_a_card_taught_again_puts_its_clipped_photo_back(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Taught again, P29's clipped photo was set aside; its new photo taken back left P29 read by its drawing and
    the old photo aside for good. Only the one that teaching set aside comes back."""
    board, folder = taught_by_an_older_version(tmp_path, monkeypatch)
    earlier = folder / "P29__7.png.clipped"  # set aside by an earlier teaching of P29: stays aside
    earlier.write_bytes((folder / "P29__0.png").read_bytes())
    taught = teach_card(cv2.imread(str(board)), 1, "P29", folder)
    assert taught.path == folder / "P29__1.png" and (folder / "P29__0.png.clipped").is_file()
    taken = take_back_card(taught.path, folder)
    assert taken.what == ("the photo of P29 (P29__1.png) taken back; P29__0.png, set aside as stored clipped when it "
                          "was taught, put back (teach P29 again to replace it)")
    assert not taught.path.exists() and not (folder / "P29__0.png.clipped").exists()
    assert stored_clipped(cv2.imread(str(folder / "P29__0.png")))  # as it was before the teaching
    assert earlier.is_file() and not (folder / "P29__7.png").exists()
