"""Photos a café taught before the teach step stopped clipping them (session 57) stay clipped on disk: the reader
now notices them and `teach-card`, `vision watch` and the table say which cards to teach again; teaching one again
sets its clipped photo aside, so the word goes away. Nothing refuses to run for them.

The clipped photos are made as the older teach step made them: a mint deck under a lamp over the board's middle,
each card taught from a rendered camera view written as a PNG, with the photo clipped at 255 after its division by
the board's white (the old `taught_image`). Every file is real and read back with OpenCV.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

import vision.card_reader
import vision.teaching
from tests.vision.test_cafe_cards_robust import MINT, camera_view, photo, printed_board
from tests.vision.test_teach_clipped import LAMP_OVER_THE_MIDDLE
from vision.card_looks import stored_clipped
from vision.card_reader import CardReader, clipped_photos
from vision.cli import main
from vision.teaching import teach_card

LAYOUT = {1: "P29", 5: "P17", 6: "P33", 7: "P15"}


def old_taught_image(large: np.ndarray, white: np.ndarray) -> np.ndarray:
    """The teach step's photo before session 57: divided by the board's white and clipped at 255 at once."""
    seen = large.astype(np.float32) * (255.0 / np.asarray(white, np.float32).reshape(1, 1, 3))
    return np.clip(seen, 0, 255).astype(np.uint8)


def taught_by_an_older_version(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """The board photo (a PNG) and a taught folder with LAYOUT's cards as the older teach step stored them."""
    rng = np.random.default_rng(1)
    board = tmp_path / "lamp.png"
    photo(board, camera_view(printed_board(LAYOUT, dict.fromkeys(LAYOUT, MINT))[0], rng, LAMP_OVER_THE_MIDDLE))
    folder = tmp_path / "taught"
    with monkeypatch.context() as older:
        older.setattr(vision.card_reader, "taught_image", old_taught_image)
        for slot, card in LAYOUT.items():
            teach_card(cv2.imread(str(board)), slot, card, folder)
    return board, folder


def test_clipped_photos_are_named_by_the_reader_watch_and_the_teach_step_and_set_aside_when_taught_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    board, folder = taught_by_an_older_version(tmp_path, monkeypatch)
    clipped = [f"{card}__0.png" for card in sorted(LAYOUT.values())]
    assert all(stored_clipped(cv2.imread(str(folder / name))) for name in clipped)
    assert clipped_photos(folder) == clipped
    reader = CardReader(taught_dir=folder)
    assert reader.taught_clipped == clipped and sorted(reader.taught_cards) == sorted(LAYOUT.values())  # read on
    assert reader.clipped_problem == (
        f"teach P15, P17, P29, P33 again: their photos ({', '.join(clipped)}) in {folder} were stored by an older "
        "version with part of the colours cut off, and pale cards so stored are misread; each is set aside as its "
        "card is taught again")

    assert main(["vision", "watch", str(board), "--reader", "cards", "--taught", str(folder), "--frames", "1",
                 "--every-frame", "--turn", "0", "--no-mirror"]) == 0
    assert reader.clipped_problem in capsys.readouterr().err

    assert main(["vision", "teach-card", str(board), "--slot", "1", "--card", "P29", "--out", str(folder),
                 "--turn", "0", "--no-mirror"]) == 0
    said = capsys.readouterr().out
    assert said.startswith(f"taught P29 from slot 1: {folder / 'P29__1.png'}\n"), said
    assert "P29__0.png, stored clipped by an older version, was set aside as P29__0.png.clipped" in said
    assert "teach P15, P17, P33 again: their photos (P15__0.png, P17__0.png, P33__0.png)" in said
    assert not stored_clipped(cv2.imread(str(folder / "P29__1.png")))  # stored first: a failed save sets nothing aside
    assert (folder / "P29__0.png.clipped").is_file() and not (folder / "P29__0.png").exists()
    assert clipped_photos(folder) == clipped[:2] + clipped[3:]
    for slot, card in LAYOUT.items():
        if card != "P29":
            teach_card(cv2.imread(str(board)), slot, card, folder)
    again = CardReader(taught_dir=folder)
    assert again.taught_clipped == [] and again.clipped_problem is None
    assert sorted(p.name for p in folder.iterdir()) == sorted(
        [name.replace("__0", "__1") for name in clipped] + [f"{name}.clipped" for name in clipped])


def test_photos_stored_since_are_never_taken_for_clipped(tmp_path: Path) -> None:
    """The same cards under the same lamp, taught by the teach step as it is now: not a word."""
    rng = np.random.default_rng(1)
    frame = photo(tmp_path / "lamp.png",
                  camera_view(printed_board(LAYOUT, dict.fromkeys(LAYOUT, MINT))[0], rng, LAMP_OVER_THE_MIDDLE))
    folder = tmp_path / "taught"
    for slot, card in LAYOUT.items():
        assert "older version" not in teach_card(frame, slot, card, folder).advice
    reader = CardReader(taught_dir=folder)
    assert clipped_photos(folder) == [] and reader.clipped_problem is None


def test_the_table_is_told_which_cards_to_teach_again_and_reads_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import queue

    from companion.observations import CardsSeen, LinkChanged
    from vision.feed import CameraFeed

    board, folder = taught_by_an_older_version(tmp_path, monkeypatch)
    camera = tmp_path / "camera"
    camera.mkdir()
    for n in range(4):
        (camera / f"{n}.png").write_bytes(board.read_bytes())
    seen: queue.Queue = queue.Queue()
    with CameraFeed(str(camera), seen.put, mode="cards", fps=None, card_interval=0, taught_dir=folder) as feed:
        assert feed.ended.wait(30)
    told = list(seen.queue)
    assert [o.detail for o in told if isinstance(o, LinkChanged) and o.detail.startswith("teach ")] == [
        CardReader(taught_dir=folder).clipped_problem]
    assert any(isinstance(o, CardsSeen) for o in told)  # not refused: read on with them


def test_a_clipped_photo_gone_since_it_was_read_in_is_passed_over(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Taken back by the command line while the camera screen taught the card: the new photo took its free name
    and was set aside in its place."""
    board, folder = taught_by_an_older_version(tmp_path, monkeypatch)
    made = vision.teaching.CardReader

    def read_in_then_gone(*args: object, **kwargs: object) -> CardReader:
        reader = made(*args, **kwargs)
        (folder / "P29__0.png").unlink(missing_ok=True)
        return reader

    monkeypatch.setattr(vision.teaching, "CardReader", read_in_then_gone)
    taught = teach_card(cv2.imread(str(board)), 1, "P29", folder)
    assert "P29__0.png" not in taught.advice and "by hand" not in taught.advice, taught.advice
    assert "teach P15, P17, P33 again" in taught.advice
    # The new photo took the freed name P29__0.png, and was set aside in its place as clipped.
    assert taught.path == folder / "P29__0.png" and taught.path.is_file()
    assert not (folder / "P29__0.png.clipped").exists()


def test_a_photo_taught_since_under_a_clipped_ones_name_is_not_set_aside(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The clipped P29__0.png taken back, and P29 taught again from elsewhere, while this teach step looked: the
    name the reader read in as clipped holds a good photo now, which is kept."""
    board, folder = taught_by_an_older_version(tmp_path, monkeypatch)
    monkeypatch.setattr(vision.teaching, "SAME_PHOTO", -1.0)  # the other step's photo is this one's: kept apart
    good = tmp_path / "good.png"
    made = vision.teaching.CardReader

    def read_in_then_replaced(*args: object, **kwargs: object) -> CardReader:
        reader = made(*args, **kwargs)
        monkeypatch.setattr(vision.teaching, "CardReader", made)  # the other step's teach is a plain one
        (folder / "P29__0.png").unlink()
        teach_card(cv2.imread(str(board)), 1, "P29", tmp_path / "elsewhere")
        (tmp_path / "elsewhere" / "P29__0.png").rename(good)
        (folder / "P29__0.png").write_bytes(good.read_bytes())
        return reader

    monkeypatch.setattr(vision.teaching, "CardReader", read_in_then_replaced)
    taught = teach_card(cv2.imread(str(board)), 1, "P29", folder)
    assert taught.path == folder / "P29__1.png" and "P29__0.png" not in taught.advice, taught.advice
    assert (folder / "P29__0.png").read_bytes() == good.read_bytes()
