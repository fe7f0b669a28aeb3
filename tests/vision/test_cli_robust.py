"""`watch` and the teach commands given odd sources, stalled streams and folders in the way: a sentence, and exit
status 1 (2 for a camera number out of range, a mistake in the command line)."""

from __future__ import annotations

import functools
import http.server
import importlib.util
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
import pytest

import vision.sources
from tests.vision.test_feed import BY_ID, board_frame
from vision.cli import main

AS_SENT = ["--turn", "0", "--no-mirror"]  # the picture as the camera sends it, whatever a settings file says
WATCH = [*AS_SENT, "--mains", "0", "--tray", "whole"]
CARD = sorted(BY_ID)[4]


def write_video(path: Path, frames: list[np.ndarray]) -> Path:
    height, width = frames[0].shape[:2]
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 30, (width, height))
    for frame in frames:
        writer.write(frame)
    writer.release()
    return path


@pytest.fixture
def served(tmp_path: Path) -> Iterator[str]:
    """A local web server over tmp_path/www, as an IP camera serves its stream; gives its address."""
    (tmp_path / "www").mkdir()

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=tmp_path / "www"))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    server.server_close()


@pytest.mark.parametrize(("word", "status"), [("²", 1), ("99999999999999999999", 2)])
def test_a_number_that_is_no_camera_is_refused_by_every_command(word: str, status: int, tmp_path: Path,
                                                                 capsys) -> None:
    """'²' raised a ValueError traceback, a huge number OpenCV's "Overload resolution failed"; watch retried both.
    '²' may be a file not there (1); no camera has a number past the range (2)."""
    out = str(tmp_path / "taught")
    for argv in (["teach-card", word, "--slot", "5", "--card", "P10", "--out", out, *AS_SENT],
                 ["teach-die", word, "--value", "3", "--colour", "red", "--out", out, *AS_SENT],
                 ["watch", word, "--timeout", "1", *WATCH]):
        assert main(["vision", *argv]) == status, argv
        captured = capsys.readouterr()
        assert captured.err.startswith(f"vision: '{word}' is not a camera index") and "source problem" not in (
            captured.out), argv


def test_watch_ends_at_once_on_a_pi_camera_module_not_installed(monkeypatch, capsys) -> None:
    """"picamera2 is not installed ... retrying every 2 s" went on all day; no wait installs it."""
    find_spec = importlib.util.find_spec
    monkeypatch.setattr(vision.sources.importlib.util, "find_spec",
                        lambda name, *rest: None if name == "picamera2" else find_spec(name, *rest))
    started = time.monotonic()
    assert main(["vision", "watch", "picamera", "--timeout", "5", *WATCH]) == 1
    captured = capsys.readouterr()
    assert captured.err == "vision: picamera2 is not installed (it comes with Raspberry Pi OS: python3-picamera2)\n"
    assert "retrying" not in captured.out and time.monotonic() - started < 4


def test_watch_gives_up_on_a_stream_that_never_answers_at_its_timeout(monkeypatch, capsys) -> None:
    """A camera that took the connection and said nothing held watch --timeout 3 for 30 s."""
    monkeypatch.setattr(vision.sources, "STREAM_OPEN_MS", 1000)
    listening = socket.create_server(("127.0.0.1", 0))  # the backlog takes the connection; nothing answers
    try:
        started = time.monotonic()
        url = f"http://127.0.0.1:{listening.getsockname()[1]}/video.mjpg"
        assert main(["vision", "watch", url, "--timeout", "1", *WATCH]) == 1
        assert time.monotonic() - started < 6
    finally:
        listening.close()
    out = capsys.readouterr().out
    assert "source problem: cannot open stream" in out and "no frame for 1 s; giving up" in out


def test_watch_names_the_unusable_photo_and_still_says_why_nothing_was_read(tmp_path: Path, capsys) -> None:
    """"frame 5: no usable frame" left the café counting photos, and counted as a reading it hid the hint."""
    from vision.dice_render import render_dice_scene

    rng = np.random.default_rng(5)
    for i in range(4):
        cv2.imwrite(str(tmp_path / f"{i}.png"), render_dice_scene(rng, 640, 480, count=1, size_range=(50, 60))[0])
    cv2.imwrite(str(tmp_path / "dot.png"), np.zeros((1, 1, 3), np.uint8))
    assert main(["vision", "watch", str(tmp_path), *WATCH]) == 0
    out = capsys.readouterr().out
    assert "frame 5: dot.png: no usable frame (1x1x3, uint8)" in out
    assert "never held still" in out and "for a folder of separate photos add --every-frame" in out


def test_watch_plays_a_file_url_as_the_video_it_names(tmp_path: Path, capsys) -> None:
    """file:///clip.mp4 was taken for a stream: replayed for ever as one "that stopped sending frames"."""
    clip = write_video(tmp_path / "clip.avi", [np.full((48, 64, 3), 40 * i, np.uint8) for i in range(5)])
    assert main(["vision", "watch", clip.as_uri(), "--frames", "20", *WATCH]) == 0
    out = capsys.readouterr().out
    assert "5 frames read" in out and "stream" not in out


@pytest.mark.parametrize("argv", [
    ["teach-card", "board.png", "--slot", "3", "--card", CARD, "--out", ""],
    ["teach-die", "board.png", "--value", "3", "--colour", "white", "--out", " "],
    ["watch", "board.png", "--save", ""],
    ["watch", "board.png", "--taught", ""],
])
def test_an_empty_folder_name_is_refused_not_taken_for_the_working_folder(
        argv: list[str], tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.chdir(tmp_path)
    cv2.imwrite("board.png", board_frame({3: CARD}))
    with pytest.raises(SystemExit) as usage:
        main(["vision", *argv, *AS_SENT])
    assert usage.value.code == 2 and "the folder name is empty" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["board.png"]


def test_teach_die_takes_a_value_with_spaces_round_it(tmp_path: Path, capsys) -> None:
    from vision.temple_die_render import render_temple_die

    face = tmp_path / "face.png"
    cv2.imwrite(str(face), render_temple_die(np.random.default_rng(2), "3", "white")[0])
    assert main(["vision", "teach-die", str(face), "--value", " 3 ", "--colour", "white", "--out",
                 str(tmp_path / "cafe"), *AS_SENT]) == 0
    assert "taught 3 on white" in capsys.readouterr().out


def test_teach_card_waits_out_a_camera_that_starts_dark(tmp_path: Path, served: str, capsys) -> None:
    """A USB camera's first frames are black while its exposure settles: "board markers not seen"."""
    dark = np.full((480, 640, 3), 3, np.uint8)
    write_video(tmp_path / "www" / "cam.mjpg", [dark] * 4 + [board_frame({3: CARD})] * 6)
    taught = tmp_path / "taught"
    assert main(["vision", "teach-card", f"{served}/cam.mjpg", "--slot", "3", "--card", CARD, "--out", str(taught),
                 *AS_SENT]) == 0
    assert (taught / f"{CARD}__0.png").is_file()
    capsys.readouterr()
    photo = tmp_path / "dark.png"
    cv2.imwrite(str(photo), dark)
    assert main(["vision", "teach-card", str(photo), "--slot", "3", "--card", CARD, "--out", str(taught),
                 *AS_SENT]) == 1
    err = capsys.readouterr().err
    assert err.startswith("vision: board markers not seen") and err.endswith(
        "; the picture was dark (its brightest parts reach 3 of 255; 40 or more wanted): light the table, or give "
        "the camera a moment to settle\n")


def test_a_cafe_deck_that_cannot_be_used_is_said_before_the_house_deck_is_taught(
        tmp_path: Path, monkeypatch, capsys) -> None:
    """A café's cards.json cut short made the house deck answer "unknown card" with no word of the café's file."""
    cafe = tmp_path / "cafe"
    (cafe / "temple").mkdir(parents=True)
    (cafe / "temple" / "cards.json").write_text('{"game": "temple", "kind": "cards", broken')
    monkeypatch.setenv("COMPANION_CAFE_DIR", str(cafe))
    board = tmp_path / "board.png"
    cv2.imwrite(str(board), board_frame({3: CARD}))
    assert main(["vision", "teach-card", str(board), "--slot", "3", "--card", CARD, "--out",
                 str(tmp_path / "taught"), *AS_SENT]) == 0
    assert "the café's temple data cannot be used" in capsys.readouterr().err
    assert main(["vision", "watch", str(board), "--reader", "cards", "--taught", str(tmp_path / "taught"),
                 *WATCH]) == 0
    assert "the house deck and board are used instead" in capsys.readouterr().err


def test_a_settings_file_that_cannot_be_read_is_said_not_passed_over(tmp_path: Path, monkeypatch, capsys) -> None:
    """The camera screen's turn and mirror fell back to none, in silence, when ui.json lacked a brace."""
    settings = tmp_path / "ui.json"
    settings.write_text("{bad json")
    monkeypatch.setenv("COMPANION_UI_SETTINGS", str(settings))
    board = tmp_path / "board.png"
    cv2.imwrite(str(board), board_frame({3: CARD}))
    assert main(["vision", "watch", str(board), "--reader", "cards", "--mains", "0", "--tray", "whole"]) == 0
    err = capsys.readouterr().err
    assert f"Settings file {settings} cannot be read" in err and "defaults are used" in err
    assert settings.read_text() == "{bad json"  # left for the app to set aside


def test_a_board_half_out_of_view_is_refused_with_what_to_mend(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """"board markers not seen: north-west" named the marker and left the café to guess what to do."""
    frame = board_frame({3: "P05"})
    frame[:120, :160] = 120  # the board's north-west corner off the picture's edge, or under a cloth
    photo = tmp_path / "half.png"
    assert cv2.imwrite(str(photo), frame)
    out = tmp_path / "taught"
    assert main(["vision", "teach-card", str(photo), "--slot", "3", "--card", "P05", "--out", str(out)]) == 1
    assert capsys.readouterr().err == ("vision: board markers not seen: north-west (the whole board and the four "
                                       "markers round it must be in view)\n")
    assert not out.exists() or not any(out.iterdir())
