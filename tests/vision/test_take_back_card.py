"""`vision untaught-card`: a card photo taught from the wrong slot or as the wrong card, taken back from the
command line as the camera screen's Take back does, with the same safety.

Before, a photo taught with `vision teach-card` was undone only by finding and deleting its `P07__1.png` by hand.
The boards are rendered, written as PNG files and read back with OpenCV; the photos are the teach step's own.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import cv2
import pytest

from tests.vision.test_feed import board_frame
from vision.cli import main


@pytest.fixture
def board(tmp_path: Path) -> Path:
    path = tmp_path / "board.png"
    assert cv2.imwrite(str(path), board_frame({3: "P05", 8: "P07"}))
    return path


def teach(board: Path, slot: int, card: str, out: Path) -> Path:
    assert main(["vision", "teach-card", str(board), "--slot", str(slot), "--card", card, "--out", str(out)]) == 0
    return max(out.iterdir(), key=lambda p: p.stat().st_mtime_ns)


def untaught(*args: str) -> int:
    return main(["vision", "untaught-card", *args])


def test_the_photo_last_taught_of_a_card_is_taken_back_and_the_others_kept(
    tmp_path: Path, board: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "taught"
    monkeypatch.setattr("vision.teaching.SAME_PHOTO", -1.0)  # one board twice: both stored, as under other light
    first, second = teach(board, 3, "P05", out), teach(board, 3, "P05", out)
    seven = teach(board, 8, "P07", out)
    os.utime(first, ns=(time.time_ns(), time.time_ns() + 10**9))  # written last: P05__0.png freed and taught again
    kept = second.read_bytes()
    capsys.readouterr()

    assert untaught("--card", "p05", "--out", str(out)) == 0  # the deck's case need not be typed
    assert capsys.readouterr().out == f"the photo of P05 (P05__0.png) taken back (1 photo of P05 left): {first}\n"
    assert not first.exists() and second.read_bytes() == kept and seven.is_file()
    assert untaught("--photo", "P07__0.png", "--out", str(out)) == 0
    assert capsys.readouterr().out.startswith(
        "the photo of P07 (P07__0.png) taken back (no photo of P07 left: it is read by its drawing): ")
    assert untaught("--photo", str(second)) == 0  # the whole path teach-card printed names its folder
    assert sorted(out.iterdir()) == []


def test_what_cannot_be_taken_back_is_said_and_left_as_it_was(
    tmp_path: Path, board: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "taught"
    photo = teach(board, 3, "P05", out)
    photo.write_bytes(b"\x89PNG cut short")
    capsys.readouterr()
    # Exit status 1 for what the folder holds, 2 for a name left empty (a mistake in the command line).
    refusals = {
        ("--card", "P05"): f"vision: {photo} is not the card photo taught (not a readable image): it was left as it "
                           "was; look at it, and delete it by hand if it is not wanted\n",
        ("--card", "P09"): f"vision: no photo was taught as 'P09' in {out}; nothing was taken back (cards taught "
                           "there: P05)\n",
        ("--card", " "): "vision: --card is empty: give the card id the photo was taught as (P07)\n",
        ("--photo", ""): "vision: --photo is empty: give the photo's file name, as teach-card named it (P07__1.png)\n",
        ("--photo", str(board)): f"vision: {board} is not a card photo a teach step stored in {out}; nothing was "
                                 "taken back\n",
    }
    for args, said in refusals.items():
        assert untaught(*args, "--out", str(out)) == (2 if not args[1].strip() else 1), args
        assert capsys.readouterr().err == said
    assert photo.read_bytes() == b"\x89PNG cut short"
    (tmp_path / "drive").symlink_to(tmp_path / "unplugged")
    assert untaught("--card", "P05", "--out", str(tmp_path / "drive")) == 1
    assert capsys.readouterr().err == (f"vision: cannot read {tmp_path / 'drive'}: it is a link to "
                                       f"{tmp_path / 'unplugged'}, which is not there (a drive not plugged in?); "
                                       "nothing was taken back\n")
    with pytest.raises(SystemExit) as both:
        untaught("--card", "P05", "--photo", photo.name)
    assert both.value.code == 2 and "not allowed with argument" in capsys.readouterr().err


def test_a_slip_mended_by_teaching_the_right_card_names_the_wrong_photo_to_take_back(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The advice said to take back the right photo just taught (the slot read as P13 by the slip's own photo)."""
    board = tmp_path / "p01.png"
    assert cv2.imwrite(str(board), board_frame({3: "P01"}))
    out = tmp_path / "taught"
    slip = teach(board, 3, "P13", out)
    capsys.readouterr()
    right = teach(board, 3, "P01", out)
    advice = capsys.readouterr().out.splitlines()[1]
    assert advice == (f"slot 3 read as P13 before (100% sure), by the photo taught as P13 (P13__0.png), where the "
                      f"drawings read P01: if P01 lies there, that photo shows it too and pulls its readings to P13: "
                      f"take that photo back (companion vision untaught-card --photo {slip})")
    assert main(advice.rsplit("(companion ", 1)[1].rstrip(")").split()) == 0
    assert sorted(out.iterdir()) == [right]

