"""The board markers' places kept in the taught folder: a marker hidden when the camera starts (peeled off
overnight, a cup set on it) no longer hides the board all day."""

from __future__ import annotations

import json
import queue
from pathlib import Path

import numpy as np
import pytest

from companion.observations import CardsSeen, LinkChanged
from tests.vision.test_feed import LOOKS_UNIQUE, board_frame, cup_on_marker, write_frames
from vision.feed import CameraFeed
from vision.marker_places import PLACES_FILE, PLACES_MOVED, load_places, places_moved, save_places


def places(shift: float = 0.0) -> dict[int, np.ndarray]:
    corner = np.array([[-2.5, -2.5], [0.0, -2.5], [0.0, 0.0], [-2.5, 0.0]])
    return {i: corner + np.array([15.0 * (i in (1, 2)) + shift, 15.0 * (i in (2, 3))]) for i in range(4)}


def test_places_are_kept_and_read_back_whole(tmp_path: Path) -> None:
    save_places(tmp_path, places(), 15)
    back, note = load_places(tmp_path, 15)
    assert note is None and back is not None
    assert all(np.allclose(back[i], places()[i]) for i in range(4))
    assert not list(tmp_path.glob(".*"))  # no aside file left


def test_no_folder_or_no_file_keeps_nothing_and_says_nothing(tmp_path: Path) -> None:
    assert load_places(None, 15) == (None, None)
    assert load_places(tmp_path, 15) == (None, None)


@pytest.mark.parametrize("content", [
    b"", b"not json", b"\xff\xfe", b"[]", b'{"schema": 1, "board_size": 15}',
    json.dumps({"schema": 2, "board_size": 15, "markers": {}}).encode(),
    json.dumps({"schema": 1, "board_size": 15,
                "markers": {str(i): [[0, 0]] * 4 for i in range(3)}}).encode(),
    json.dumps({"schema": 1, "board_size": 15,
                "markers": {str(i): [[0, 0], [1, 0], [1, 1], [0, "1"]] for i in range(4)}}).encode(),
    json.dumps({"schema": 1, "board_size": 15,
                "markers": {str(i): [[0, 0], [1, 0], [1, 1], [0, True]] for i in range(4)}}).encode(),
    b'{"schema": 1, "board_size": 15, "markers": {"0": [[0, 0], [1, 0], [1, 1], [0, NaN]], '
    b'"1": [[0, 0], [1, 0], [1, 1], [0, 1]], "2": [[0, 0], [1, 0], [1, 1], [0, 1]], '
    b'"3": [[0, 0], [1, 0], [1, 1], [0, 1]]}}',
])
def test_a_damaged_file_is_said_and_not_used(tmp_path: Path, content: bytes) -> None:
    (tmp_path / PLACES_FILE).write_bytes(content)
    kept, note = load_places(tmp_path, 15)
    assert kept is None and note is not None and note.startswith(str(tmp_path / PLACES_FILE))
    assert note.endswith("again from a view of all four")


def test_places_of_another_board_are_not_used(tmp_path: Path) -> None:
    save_places(tmp_path, places(), 15)
    assert load_places(tmp_path, 13)[0] is None


def test_places_are_written_again_only_when_a_marker_moved() -> None:
    assert places_moved(places(), None)
    assert not places_moved(places(PLACES_MOVED / 2), places())
    assert places_moved(places(PLACES_MOVED * 2), places())


def run(folder: Path, taught: Path) -> list:
    seen: queue.Queue = queue.Queue()
    with CameraFeed(str(folder), seen.put, mode="cards", fps=None, card_interval=0, taught_dir=taught) as feed:
        assert feed.ended.wait(15)
    return list(seen.queue)


def test_a_marker_hidden_when_the_camera_starts_is_read_round_by_the_places_kept(tmp_path: Path) -> None:
    """One day the board is seen whole; the next the camera starts with a cup on a marker and still reads the
    cards, and says which marker it does without."""
    ids = sorted(LOOKS_UNIQUE)[:12]
    first = {i + 1: c for i, c in enumerate(ids[:11])}
    taught = tmp_path / "taught"
    run(write_frames(tmp_path / "day1", [board_frame(first)] * 4), taught)
    assert (taught / PLACES_FILE).exists()
    told = run(write_frames(tmp_path / "day2", [cup_on_marker(board_frame({**first, 12: ids[11]}))] * 10), taught)
    assert [o.slots for o in told if isinstance(o, CardsSeen)] == [{**first, 12: ids[11]}]
    assert any(isinstance(o, LinkChanged) and o.detail.startswith("board marker not seen: north-east")
               for o in told)


def test_without_places_kept_a_marker_hidden_at_start_hides_the_board(tmp_path: Path) -> None:
    ids = sorted(LOOKS_UNIQUE)[:12]
    (tmp_path / "taught").mkdir()
    (tmp_path / "taught" / PLACES_FILE).write_text("{}")
    told = run(write_frames(tmp_path / "day2", [cup_on_marker(board_frame({1: ids[0]}))] * 10), tmp_path / "taught")
    assert not [o for o in told if isinstance(o, CardsSeen)]
    details = [o.detail for o in told if isinstance(o, LinkChanged)]
    assert any(d.startswith(str(tmp_path / "taught" / PLACES_FILE)) for d in details), details
    assert any(d.startswith("board markers not seen: north-east") for d in details), details


def test_a_taught_folder_that_cannot_be_written_leaves_the_cards_read(tmp_path: Path, caplog) -> None:
    ids = sorted(LOOKS_UNIQUE)[:2]
    blocked = tmp_path / "taught"
    blocked.write_text("a file where the folder should be")
    told = run(write_frames(tmp_path / "frames", [board_frame({1: ids[0], 2: ids[1]})] * 5), blocked)
    assert [o.slots for o in told if isinstance(o, CardsSeen)] == [{1: ids[0], 2: ids[1]}]
    assert sum("places could not be kept" in r.getMessage() for r in caplog.records) == 1  # not every frame


def test_watch_finds_the_board_by_the_places_the_table_kept(tmp_path: Path, capsys) -> None:
    import cv2

    from vision.cli import main

    laid = board_frame({1: sorted(LOOKS_UNIQUE)[0]})
    taught = tmp_path / "taught"
    run(write_frames(tmp_path / "day1", [laid] * 4), taught)
    photo = tmp_path / "cup.png"
    cv2.imwrite(str(photo), cup_on_marker(laid))
    assert main(["vision", "watch", str(photo), "--reader", "cards", "--taught", str(taught)]) == 0
    out = capsys.readouterr().out
    assert "board marker not seen: north-east" in out and f"slot 1 {sorted(LOOKS_UNIQUE)[0]}" in out, out
