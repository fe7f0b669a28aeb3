"""Files in a café's taught folder that teaching never writes (a hand edit, a copy gone wrong), as the card
reader, the temple die reader, `watch` and the table's camera feed meet them.

- A taught card photo of 1 x 1 pixels, one pixel high or one flat colour replaced the card's drawing, and the
  card lying there was then read as another, 21% sure, without a word.

Every file is written here with OpenCV or as JSON and read back by the readers as the table reads it.
"""

from __future__ import annotations

import queue
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.observations import CardsSeen, LinkChanged
from tests.vision.test_feed import board_frame, write_frames
from vision.card_reader import CardReader
from vision.cli import main as vision_main
from vision.feed import CameraFeed

LAID = {3: "P42", 5: "P07"}


def unfit_photos() -> dict[str, tuple[np.ndarray, str]]:
    """Taught photos no card can be, and the words that say why."""
    rng = np.random.default_rng(1)
    return {
        "1x1": (np.full((1, 1, 3), 128, np.uint8), "1 x 1 pixels"),
        "one pixel high": (rng.integers(0, 256, (1, 60, 3)).astype(np.uint8), "60 x 1 pixels"),
        "a strip": (rng.integers(0, 256, (600, 40, 3)).astype(np.uint8), "40 x 600 pixels"),
        "blank": (np.full((60, 60, 3), (90, 160, 200), np.uint8), "one flat colour"),
    }


@pytest.mark.parametrize("kind", list(unfit_photos()))
def test_a_taught_photo_that_cannot_be_a_card_is_passed_over_and_said(tmp_path: Path, kind: str) -> None:
    image, why = unfit_photos()[kind]
    taught = tmp_path / "taught"
    taught.mkdir()
    assert cv2.imwrite(str(taught / "P42__0.png"), image)
    frame = cv2.imread(str(write_frames(tmp_path / "frames", [board_frame(LAID)]) / "0000.png"))
    reader = CardReader(taught_dir=taught)
    reading = reader.read(frame)
    assert reading is not None
    assert {s.slot: s.card for s in reading.slots if s.slot in LAID} == LAID  # P42 by its drawing
    assert reader.taught_cards == []
    assert len(reader.taught_skipped) == 1 and reader.taught_skipped[0].startswith(f"P42__0.png ({why}")
    assert reader.photos_problem is not None and "P42__0.png" in reader.photos_problem
    assert why in reader.photos_problem and str(taught) in reader.photos_problem


def test_a_card_photo_as_teaching_writes_it_or_a_little_off_is_still_taken(tmp_path: Path) -> None:
    """What teaching writes (60 px squares), a café's own crop a little off square, and one shrunk to a few pixels
    a cell still replace the drawing."""
    frame = cv2.imread(str(write_frames(tmp_path / "frames", [board_frame(LAID)]) / "0000.png"))
    photo = CardReader().teach(frame, 3, "P42")
    for size in [(60, 60), (80, 60), (6, 6), (180, 60)]:
        taught = tmp_path / f"{size[0]}x{size[1]}"
        taught.mkdir()
        assert cv2.imwrite(str(taught / "P42__0.png"), cv2.resize(photo, size, interpolation=cv2.INTER_AREA))
        reader = CardReader(taught_dir=taught)
        assert reader.taught_cards == ["P42"] and reader.taught_skipped == [] and reader.photos_problem is None
        reading = reader.read(frame)
        assert reading is not None and reading.cards()[3] == "P42"


def test_the_feed_and_watch_say_a_taught_photo_that_cannot_be_a_card(tmp_path: Path, capsys) -> None:
    taught = tmp_path / "taught"
    taught.mkdir()
    assert cv2.imwrite(str(taught / "P42__0.png"), np.full((1, 1, 3), 128, np.uint8))
    frames = write_frames(tmp_path / "frames", [board_frame(LAID)] * 4)
    seen: queue.Queue = queue.Queue()
    with CameraFeed(str(frames), seen.put, mode="cards", fps=None, card_interval=0, taught_dir=taught) as feed:
        assert feed.ended.wait(15)
    told = list(seen.queue)
    assert [o.slots for o in told if isinstance(o, CardsSeen)] == [LAID]
    notes = [o.detail for o in told if isinstance(o, LinkChanged) and "P42__0.png" in o.detail]
    assert len(notes) == 1 and "1 x 1 pixels" in notes[0]
    assert vision_main(["vision", "watch", str(frames / "0000.png"), "--reader", "cards", "--taught", str(taught),
                        "--turn", "0", "--no-mirror"]) == 0
    out, err = capsys.readouterr()
    assert "slot 3 P42" in out and "P42__0.png (1 x 1 pixels" in out + err

