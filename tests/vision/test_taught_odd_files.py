"""Files in a café's taught folder that teaching never writes (a hand edit, a copy gone wrong), as the card
reader, the temple die reader, `watch` and the table's camera feed meet them.

- A taught card photo of 1 x 1 pixels, one pixel high or one flat colour replaced the card's drawing, and the
  card lying there was then read as another, 21% sure, without a word.
- A hand-edited `board_markers.json` with places no marker can have (all zeros, far off the board, 1e300, the four
  on top of each other) was taken without a note: with a marker hidden the board was "not seen", or "stick each
  marker at its own corner" where the markers were stuck right, and 1e300 raised numpy's overflow warnings.
- A hand-edited `temple_die.json` whose glyph held values no glyph has (1e30, below 0) or nothing drawn was taken:
  that value was never read again (a 5 read as a 3, 55% sure), and 1e30 raised numpy's overflow warning.

Every file is written here with OpenCV or as JSON and read back by the readers as the table reads it.
"""

from __future__ import annotations

import json
import queue
import warnings
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.observations import CardsSeen, LinkChanged
from tests.vision.test_feed import board_frame, cup_on_marker, write_frames
from vision.card_reader import NO_BOARD, CardReader
from vision.cli import main as vision_main
from vision.feed import CameraFeed
from vision.marker_places import PLACES_FILE, load_places
from vision.taught import temple_die_reader
from vision.temple_die import GLYPH_SIZE, TempleDieReader
from vision.temple_die_render import render_temple_die

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



def learnt_places(frame: np.ndarray) -> dict[int, np.ndarray]:
    """The places the reader learns from ``frame``, which shows all four markers."""
    reader = CardReader()
    assert reader.read(frame) is not None and reader.finder.marker_cells is not None
    return reader.finder.marker_cells


def misplaced() -> dict[str, callable]:
    """Hand edits of the places learnt (marker id -> 4 x 2 corners in cells) no marker can have."""
    return {
        "all zeros": lambda learnt: {i: np.zeros((4, 2)) for i in learnt},
        "far off the board": lambda learnt: {i: corners - 40.0 for i, corners in learnt.items()},
        "1e300": lambda learnt: {i: corners * 1e300 + 1e300 for i, corners in learnt.items()},
        "on top of each other": lambda learnt: {i: learnt[0] for i in learnt},
        "a marker turned inside out": lambda learnt: {**learnt, 2: learnt[2][::-1]},
    }


def write_places(folder: Path, places: dict[int, np.ndarray]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    document = {"schema": 1, "board_size": 15, "markers": {str(i): places[i].tolist() for i in sorted(places)}}
    (folder / PLACES_FILE).write_text(json.dumps(document), encoding="utf-8")
    return folder / PLACES_FILE


@pytest.mark.parametrize("edit", list(misplaced()))
def test_marker_places_no_marker_can_have_are_refused_with_a_note(tmp_path: Path, edit: str) -> None:
    laid = board_frame(LAID)
    path = write_places(tmp_path / "taught", misplaced()[edit](learnt_places(laid)))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # numpy's overflow warnings, in the log of every start
        kept, note = load_places(tmp_path / "taught", 15)
        assert kept is None and note is not None and note.startswith(f"{path}: "), note
        assert note.endswith("learning them again from a view of all four")
        reader = CardReader(taught_dir=tmp_path / "taught")
        assert reader.places_problem == note and reader.finder.marker_cells is None
        assert reader.read(cup_on_marker(laid)) is None
    assert reader.last_problem != NO_BOARD and reader.last_problem.startswith("board markers not seen: north-east")


def test_marker_places_as_learnt_are_kept(tmp_path: Path) -> None:
    laid = board_frame(LAID)
    write_places(tmp_path / "taught", learnt_places(laid))
    kept, note = load_places(tmp_path / "taught", 15)
    assert note is None and kept is not None
    reading = CardReader(taught_dir=tmp_path / "taught").read(cup_on_marker(laid))
    assert reading is not None and {s.slot: s.card for s in reading.slots if s.slot in LAID} == LAID


def test_the_table_says_marker_places_refused_and_writes_them_again_from_all_four(tmp_path: Path) -> None:
    laid = board_frame(LAID)
    learnt = learnt_places(laid)
    path = write_places(tmp_path / "taught", misplaced()["on top of each other"](learnt))
    frames = write_frames(tmp_path / "frames", [cup_on_marker(laid)] * 3 + [laid] * 4)
    seen: queue.Queue = queue.Queue()
    with CameraFeed(str(frames), seen.put, mode="cards", fps=None, card_interval=0,
                    taught_dir=tmp_path / "taught") as feed:
        assert feed.ended.wait(15)
    told = list(seen.queue)
    notes = [o.detail for o in told if isinstance(o, LinkChanged) and o.detail.startswith(str(path))]
    assert len(notes) == 1, [o.detail for o in told if isinstance(o, LinkChanged)]
    assert not any(isinstance(o, LinkChanged) and NO_BOARD in o.detail for o in told)
    assert [o.slots for o in told if isinstance(o, CardsSeen)] == [LAID]
    rewritten, note = load_places(tmp_path / "taught", 15)
    assert note is None and rewritten is not None
    assert all(np.allclose(rewritten[i], learnt[i], atol=0.05) for i in learnt)


def a_five(folder: Path) -> np.ndarray:
    """A photo of the die showing 5 on white, written to ``folder`` and read back."""
    image, _ = render_temple_die(np.random.default_rng(5), "5", "white", edge=60)
    assert cv2.imwrite(str(folder / "five.png"), image)
    return cv2.imread(str(folder / "five.png"))


@pytest.mark.parametrize("edit", ["1e30", "below 0", "nothing drawn"])
def test_a_taught_glyph_no_face_can_have_is_refused_and_the_die_read_by_its_drawings(tmp_path: Path,
                                                                                    edit: str) -> None:
    five = a_five(tmp_path)
    taught = TempleDieReader()
    assert taught.teach(five, "5", "white")
    glyph = taught.examples["5"][0]
    taught.examples["5"][0] = {"1e30": glyph * 1e30, "below 0": -glyph,
                               "nothing drawn": np.zeros((GLYPH_SIZE, GLYPH_SIZE), np.float32)}[edit]
    path = taught.save(tmp_path / "taught")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        reader, note = temple_die_reader(tmp_path / "taught")
        reading = reader.read(five)
    assert note is not None and note.startswith(f"{path}: glyphs.5: "), note
    assert note.endswith("reading the die with its rendered faces")
    assert [(r.value, r.face) for r in reading] == [(5, "white")] and reading[0].confidence >= 0.8


def test_a_die_taught_as_teaching_writes_it_is_still_read(tmp_path: Path) -> None:
    five = a_five(tmp_path)
    taught = TempleDieReader()
    assert taught.teach(five, "5", "white")
    taught.save(tmp_path / "taught")
    reader, note = temple_die_reader(tmp_path / "taught")
    assert note is None and len(reader.examples["5"]) == 1
    assert [(r.value, r.face) for r in reader.read(five)] == [(5, "white")]
