"""Every `companion vision` command's ways to fail, and the exit status each ends with.

As every other command ends: 2 for a mistake in the command line itself (a
name left empty, flags that do not go together, a card, slot, face or camera
number that cannot be), 1 for what the machine, its files or the camera would
not give (a folder without images, a file not there or unreadable, a sheet
that cannot be written, nothing seen to teach). Every one of these ended 2,
which told a script, and a café owner reading ``$?``, to mend a command line
that was not at fault.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

import vision.sources
from companion.cli import main
from tests.vision.test_watch_robust import Frames

REPO = Path(__file__).resolve().parents[2]
AS_SENT = ["--turn", "0", "--no-mirror"]  # the picture as the camera sends it, whatever a settings file says
WATCH = [*AS_SENT, "--mains", "0", "--tray", "whole"]


@pytest.fixture
def place(tmp_path: Path) -> Path:
    """A folder of things that go wrong: an empty folder, a text file, a damaged photo and video, a grey picture
    (no board, no die), photo sets without labels or readable photos."""
    (tmp_path / "empty").mkdir()
    (tmp_path / "unplugged").symlink_to(tmp_path / "usb")
    (tmp_path / "notes.txt").write_text("x")
    (tmp_path / "bad.png").write_bytes(b"not a png")
    (tmp_path / "bad.avi").write_bytes(b"not a video")
    cv2.imwrite(str(tmp_path / "grey.png"), np.full((480, 640, 3), 120, np.uint8))
    (tmp_path / "unlabelled" / "valid" / "images").mkdir(parents=True)
    cv2.imwrite(str(tmp_path / "unlabelled" / "valid" / "images" / "a.jpg"), np.full((64, 64, 3), 100, np.uint8))
    for part in ("images", "labels"):
        (tmp_path / "broken" / "valid" / part).mkdir(parents=True)
    (tmp_path / "broken" / "valid" / "images" / "a.jpg").write_bytes(b"junk")
    (tmp_path / "broken" / "valid" / "labels" / "a.txt").write_text("0 0.5 0.5 0.1 0.1\n")
    return tmp_path


TEACH_CARD = ["--slot", "3", "--card", "P01", "--out", "{t}/taught", *AS_SENT]
TEACH_DIE = ["--value", "3", "--colour", "red", "--out", "{t}/taught", *AS_SENT]

# (command line, with {t} for the folder above; exit status; words the message must hold)
RUNTIME = [
    (["eval-dice", "{t}/nope"], "give the folder of a photo set"),
    (["eval-dice", "{t}/notes.txt"], "is a file, not a folder: give the folder of a photo set"),
    (["eval-dice", "{t}/empty"], "no images under"),
    (["eval-dice", "{t}/unlabelled"], "has a label file"),
    (["eval-dice", "{t}/broken", "--models", "{t}/nope"], "give the folder holding d6_detector.onnx"),
    (["eval-dice", "{t}/broken", "--models", "{t}/empty"], "d6_detector.onnx is missing; rebuild it"),
    (["eval-dice", "{t}/broken"], "could be used: a.jpg (not a readable image)"),
    (["markers", "{t}/no/such/folder/sheet.pdf"], "give a name in a folder that is there and may be written to"),
    (["markers", "{t}/notes.txt/sheet.pdf"], "give a name in a folder that is there"),
    (["watch", "{t}/no.png", *WATCH], "image {t}/no.png does not exist"),
    (["watch", "{t}/no.avi", *WATCH], "video file {t}/no.avi does not exist"),
    (["watch", "no-such-camera", *WATCH], "is not a camera index, URL, video file, image or folder"),
    (["watch", "{t}/bad.avi", *WATCH], "cannot read video file"),
    (["watch", "{t}/bad.png", *WATCH], "not a readable image"),
    (["watch", "{t}/empty", *WATCH], "{t}/empty is empty: the camera plays the pictures put in it (.bmp,"),
    (["watch", "{t}/grey.png", "--reader", "cards", "--taught", "{t}/notes.txt", *WATCH],
     "give the --out folder of the teach commands"),
    (["watch", "{t}/grey.png", "--save", "{t}/unplugged/frames", *WATCH],
     "cannot be made a folder: {t}/unplugged is a link to {t}/usb, which is not there (a drive not plugged in?)"),
    (["teach-card", "{t}/no.png", *TEACH_CARD], "does not exist"),
    (["teach-card", "{t}/bad.png", *TEACH_CARD], "not a readable image"),
    (["teach-card", "{t}/grey.png", *TEACH_CARD], "board markers not seen"),
    (["teach-die", "{t}/no.png", *TEACH_DIE], "does not exist"),
    (["teach-die", "{t}/empty", *TEACH_DIE], "{t}/empty is empty: the camera plays the pictures"),
    (["teach-die", "{t}/grey.png", *TEACH_DIE], "no die found in the frame; put it on the tray"),
    (["untaught-face", "--value", "3", "--colour", "red", "--out", "{t}/empty"], "no face was taught as '3'"),
    (["untaught-face", "--value", "3", "--colour", "red", "--out", "{t}/taught"], "there is no folder {t}/taught"),
    (["untaught-card", "--card", "P01", "--out", "{t}/empty"], "no photo was taught as 'P01'"),
    (["untaught-card", "--card", "P01", "--out", "{t}/taught"], "there is no folder {t}/taught (--out)"),
    (["untaught-card", "--photo", "{t}/notes.txt", "--out", "{t}/taught"], "is not a card photo a teach step"),
    (["untaught-card", "--photo", "P01__4.png", "--out", "{t}/empty"],
     "no photo taught in {t}/empty is named P01__4.png; nothing was taken back (no photo is taught there)"),
]
MISUSED = [
    (["eval-dice", " "], "eval-dice DIR is empty"),
    (["eval-temple-die", "--on-board", "--shadow", "0.5"], "leave --shadow out"),
    (["eval-temple-die", "--tray-marked"], "add --on-board"),
    (["markers", "{t}/sheet.png"], "give a name ending in .pdf"),
    # Passed over in silence: `--soak 1500 --json` printed lines, no JSON, and ended 0.
    (["bench", "--soak", "3", "--json"], "--soak prints its report of the throws as lines and times no reader: "
                                         "leave out --json"),
    (["bench", "--soak", "3", "--repeat", "5"], "leave out --repeat"),
    (["watch", " ", *WATCH], "SOURCE is empty"),
    (["watch", "99999999999999999999", *WATCH], "is not a camera index (0 to"),
    (["watch", "file://elsewhere/clip.avi", *WATCH], "give file:///full/path"),
    (["watch", "{t}/grey.png", "--keep", "3", *WATCH], "add --save DIR, or leave --keep out"),
    (["watch", "{t}/grey.png", "--reader", "cards", *AS_SENT, "--mains", "0", "--tray", "0.2,0.2,0.8,0.8"],
     "leave --tray out"),
    (["teach-card", " ", *TEACH_CARD], "SOURCE is empty"),
    (["teach-card", "99999999999999999999", *TEACH_CARD], "is not a camera index"),
    (["teach-card", "{t}/grey.png", "--slot", "3", "--card", "ZZ9", "--out", "{t}/taught", *AS_SENT],
     "unknown card 'ZZ9'; the deck has"),
    (["teach-card", "{t}/grey.png", "--slot", "99", "--card", "P01", "--out", "{t}/taught", *AS_SENT],
     "slot 99 is not on the board; its slots are 1, 2"),
    # Before the camera is opened: a source that would fail is not reached.
    (["teach-card", "{t}/no.png", "--slot", "3", "--card", "ZZ9", "--out", "{t}/taught", *AS_SENT], "unknown card"),
    (["teach-card", "{t}/no.png", "--slot", "0", "--card", "p01", "--out", "{t}/taught", *AS_SENT],
     "slot 0 is not on the board"),
    (["teach-die", "{t}/grey.png", "--value", "9", "--colour", "red", "--out", "{t}/taught", *AS_SENT],
     "the temple die has no 9 on red"),
    (["teach-die", "", *TEACH_DIE], "SOURCE is empty"),
    (["untaught-card", "--card", " ", "--out", "{t}/taught"], "--card is empty"),
    (["untaught-card", "--photo", " ", "--out", "{t}/taught"], "--photo is empty"),
]


def run(place: Path, argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(["vision", *(arg.replace("{t}", str(place)) for arg in argv)])
    return code, capsys.readouterr().err


@pytest.mark.parametrize(("argv", "said"), RUNTIME, ids=[" ".join(a[:2]).replace("{t}/", "") for a, _ in RUNTIME])
def test_what_the_machine_would_not_give_ends_with_exit_status_1(
        argv: list[str], said: str, place: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, err = run(place, argv, capsys)
    assert code == 1 and err.startswith("vision: ") and said.replace("{t}", str(place)) in err, err
    assert "Traceback" not in err and not (place / "taught").exists()  # nothing taught, nothing taken, none made


@pytest.mark.parametrize(("argv", "said"), MISUSED, ids=[" ".join(a[:2]).replace("{t}/", "") for a, _ in MISUSED])
def test_a_mistake_in_the_command_line_still_ends_with_exit_status_2(
        argv: list[str], said: str, place: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, err = run(place, argv, capsys)
    assert code == 2 and err.startswith("vision: ") and said in err, err
    assert not list((place / "taught").glob("*"))


FRAMES = "a folder's path for the frames (. for the one you are in)"
PHOTOS = "a folder's path for the taught photos (. for the one you are in)"
DIE = "a folder's path for the taught die (. for the one you are in)"
FOLDER_IN_A_FILE = [
    (["watch", "{t}/grey.png", "--save", "{t}/notes.txt", *WATCH],
     f"'{{t}}/notes.txt' cannot be a folder: it is a file; give {FRAMES}"),
    (["watch", "{t}/grey.png", "--save", "{t}/notes.txt/frames", *WATCH],
     f"'{{t}}/notes.txt/frames' cannot be a folder: '{{t}}/notes.txt' in it is a file; give {FRAMES}"),
    (["teach-card", "{t}/grey.png", "--slot", "3", "--card", "P01", "--out", "{t}/notes.txt", *AS_SENT],
     f"'{{t}}/notes.txt' cannot be a folder: it is a file; give {PHOTOS}"),
    (["teach-die", "{t}/grey.png", "--value", "3", "--colour", "red", "--out", "{t}/notes.txt/die", *AS_SENT],
     f"'{{t}}/notes.txt/die' cannot be a folder: '{{t}}/notes.txt' in it is a file; give {DIE}"),
]


@pytest.mark.parametrize(("argv", "said"), FOLDER_IN_A_FILE, ids=["save", "save-in", "teach-card", "teach-die"])
def test_a_folder_to_write_into_that_is_a_file_is_refused_as_the_command_is_read(
        argv: list[str], said: str, place: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """As `data template` and `ui screenshots` refuse it: `watch --save notes.txt` and `teach-card --out
    notes.txt` read the picture first and ended with exit status 1 ("cannot be made a folder", "cannot write
    to"), a machine's problem, where the command line named a file."""
    opened: list[str] = []
    monkeypatch.setattr(vision.sources, "open_source", opened.append)  # no camera, nor file, is opened
    with pytest.raises(SystemExit) as usage:
        run(place, argv, capsys)
    err = capsys.readouterr().err.splitlines()[-1]
    option = "--save" if argv[0] == "watch" else "--out"
    assert usage.value.code == 2 and err == (f"companion vision {argv[0]}: error: argument {option}: "
                                             f"{said.replace('{t}', str(place))}"), err
    assert opened == [] and (place / "notes.txt").read_text() == "x"


def test_a_camera_that_opens_and_sends_nothing_says_what_to_check(
        place: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """"no frame from 0" left the café owner guessing; the app holding the camera is the usual reason."""
    monkeypatch.setattr(vision.sources, "open_source", lambda spec: Frames([]))
    code, err = run(place, ["teach-die", "0", *TEACH_DIE], capsys)
    assert code == 1 and err == ("vision: no frame from 0: check that the camera is plugged in and that nothing else "
                                 "(the app: sudo systemctl stop companion) is using it, then try again\n")


def test_the_process_itself_ends_so(place: Path) -> None:
    """As a script sees it: `companion vision ...` run as a command."""
    for argv, status in ((["eval-dice", str(place / "empty")], 1), (["markers", str(place / "sheet.png")], 2)):
        done = subprocess.run([sys.executable, "-m", "companion", "vision", *argv], capture_output=True, text=True,
                              timeout=120, cwd=REPO)
        assert done.returncode == status and done.stderr.startswith("vision: "), done.stderr


def test_a_photo_never_taught_is_said_so_with_the_names_nearest_it(
        place: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """"P07__5.png is no longer there as the photo taught (removed or replaced by a link?)" of a photo that never
    was: the café looked for one removed, where it had mistyped the number."""
    taught = place / "taught"
    taught.mkdir()
    for name in ("P07__0.png", "P07__1.png", "P12__0.png"):
        cv2.imwrite(str(taught / name), np.full((60, 40, 3), 120, np.uint8))
    code, err = run(place, ["untaught-card", "--photo", "P07__5.png", "--out", "{t}/taught"], capsys)
    assert code == 1 and err == (f"vision: no photo taught in {taught} is named P07__5.png; nothing was taken back "
                                 "(the nearest taught: P07__1.png, P07__0.png)\n")
    code, err = run(place, ["untaught-card", "--photo", str(taught / "Q99__0.png")], capsys)
    assert code == 1 and err == (f"vision: no photo taught in {taught} is named Q99__0.png; nothing was taken back "
                                 "(photos taught there: P07__0.png, P07__1.png, P12__0.png)\n")
    (taught / "P07__3.png").symlink_to(taught / "P07__0.png")
    code, err = run(place, ["untaught-card", "--photo", "P07__3.png", "--out", "{t}/taught"], capsys)
    assert code == 1 and err == (f"vision: {taught / 'P07__3.png'} is a link, not a photo a teach step stored; "
                                 "nothing was taken back\n")
    assert sorted(p.name for p in taught.iterdir()) == ["P07__0.png", "P07__1.png", "P07__3.png", "P12__0.png"]


@pytest.mark.parametrize("argv", [["untaught-face", "--value", "3", "--colour", "red"],
                                  ["untaught-card", "--photo", "P01__0.png"], ["untaught-card", "--card", "P01"]])
def test_taking_back_from_a_folder_never_made_makes_none(
        argv: list[str], place: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """untaught-face made the taught folder, empty, to say no face was taught there; a folder named that is not
    there is said to be missing, where "no face was taught as '3' in nope/temple_die.json" sent a café looking
    for a face in a folder it had mistyped."""
    for out in ("taught", "new/taught"):
        code, err = run(place, [*argv, "--out", f"{{t}}/{out}"], capsys)
        assert code == 1 and err == (f"vision: there is no folder {place / out} (--out); nothing was taken back: "
                                     "check its name, or leave --out out for the folder the camera feed reads\n")
        assert not (place / "taught").exists() and not (place / "new").exists()


def test_a_photo_named_in_a_folder_not_there_is_said_so(place: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The whole path teach-card printed, its folder mistyped: the folder is named as missing."""
    code, err = run(place, ["untaught-card", "--photo", str(place / "nope" / "P07__1.png")], capsys)
    assert code == 1 and err == (f"vision: there is no folder {place / 'nope'} (--photo); nothing was taken back: "
                                 "check its name\n")
    assert not (place / "nope").exists()


def test_the_camera_feeds_folder_not_made_yet_is_nothing_taught(
        place: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Left unnamed, the folder the camera feed reads is not there until something is taught: nothing taught."""
    monkeypatch.setenv("XDG_DATA_HOME", str(place / "data"))
    code, err = run(place, ["untaught-face", "--value", "3", "--colour", "red"], capsys)
    assert code == 1 and "no face was taught as '3' in " in err and "(values taught: none)" in err, err
