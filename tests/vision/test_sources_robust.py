"""Sources given odd words, stalled streams and file:// URLs: refused in a sentence, or read as what they name."""

from __future__ import annotations

import os
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import cv2
import numpy as np
import pytest

import vision.sources
from vision.sources import (
    CaptureSource,
    FolderSource,
    PiCameraSource,
    RetryingSource,
    SourceError,
    SourceRefused,
    is_device,
    open_source,
    shown,
)


def jpeg(level: int) -> bytes:
    return cv2.imencode(".jpg", np.full((48, 64, 3), level, np.uint8))[1].tobytes()


@pytest.fixture
def server() -> Iterator[Callable[[Callable[[socket.socket], None]], str]]:
    """A TCP server on 127.0.0.1 that answers each connection with `answer`; gives its URL."""
    listening = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []

    def start(answer: Callable[[socket.socket], None]) -> str:
        def serve() -> None:
            while True:
                try:
                    connection, _ = listening.accept()
                except OSError:
                    return
                held.append(connection)
                threading.Thread(target=answer, args=(connection,), daemon=True).start()

        threading.Thread(target=serve, daemon=True).start()
        return f"http://127.0.0.1:{listening.getsockname()[1]}/video.mjpg"

    yield start
    listening.close()
    for connection in held:
        connection.close()


def never_answers(connection: socket.socket) -> None:
    """A camera that takes the connection and then says nothing, as a hung one does."""


def three_frames_then_silence(connection: socket.socket) -> None:
    """An MJPEG camera that stops sending mid-stream, its connection left open (a network that drops)."""
    connection.recv(4096)
    connection.sendall(b"HTTP/1.0 200 OK\r\nContent-Type: multipart/x-mixed-replace; boundary=frame\r\n\r\n")
    for level in (60, 120, 180):
        body = jpeg(level)
        connection.sendall(b"--frame\r\nContent-Type: image/jpeg\r\nContent-Length: %d\r\n\r\n" % len(body)
                           + body + b"\r\n")


@pytest.mark.parametrize("word", ["²", "٣", "99999999999999999999", "10000"])
def test_a_number_that_is_no_camera_index_is_refused_in_a_sentence(word: str) -> None:
    """'²'.isdigit() is true and int('²') raised; a number past a C int raised OpenCV's "Overload resolution"."""
    with pytest.raises(SourceError, match=f"^'{word}' is not a camera index"):
        open_source(word)
    with pytest.raises(SourceRefused, match="is not a camera index"):
        open_source(99999999999999999999)
    assert is_device(word) == word.isascii()  # a plain big number is still a camera's word, refused when opened


def test_what_no_wait_can_mend_is_told_apart_from_an_unplugged_camera(monkeypatch: pytest.MonkeyPatch) -> None:
    """`watch picamera` without picamera2 retried every 2 s for ever; an unplugged camera is still retried."""
    monkeypatch.setattr(vision.sources.importlib.util, "find_spec", lambda name: None)
    missing = RetryingSource(PiCameraSource, "picamera")
    assert missing.read() is None and missing.lasting
    assert missing.problem == "picamera2 is not installed (it comes with Raspberry Pi OS: python3-picamera2)"
    too_big = RetryingSource(lambda: open_source("99999999999999999999"), "99999999999999999999")
    assert too_big.read() is None and too_big.lasting
    unplugged = RetryingSource(lambda: open_source("97"), "97", retry_seconds=0.0)
    assert unplugged.read() is None and "no camera at /dev/video97" in unplugged.problem and not unplugged.lasting


def test_a_stream_that_never_answers_is_given_up_on_within_seconds(server, monkeypatch: pytest.MonkeyPatch) -> None:
    """OpenCV's FFmpeg waited 30 s on a camera that took the connection and said nothing, deaf to Ctrl-C."""
    monkeypatch.setattr(vision.sources, "STREAM_OPEN_MS", 1000)
    url = server(never_answers)
    started = time.monotonic()
    with pytest.raises(SourceError, match=r"^cannot open stream http://127\.0\.0\.1:\d+/video\.mjpg"):
        CaptureSource(url)
    assert time.monotonic() - started < 5


def test_a_stream_that_stalls_is_noticed_within_seconds(server, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(vision.sources, "STREAM_READ_MS", 1000)
    source = open_source(server(three_frames_then_silence))
    try:
        assert [round(float(source.read().mean()) / 60) for _ in range(3)] == [1, 2, 3]
        started = time.monotonic()
        with pytest.raises(SourceError, match=r"stopped sending frames \(camera off, or network down\)"):
            source.read()
        assert time.monotonic() - started < 5
    finally:
        source.close()


def test_a_file_url_is_the_file_it_names(tmp_path: Path) -> None:
    """file:///clip.mp4 was played as a live stream, its end taken for a dropped camera and replayed for ever."""
    clip = tmp_path / "my clip.avi"
    writer = cv2.VideoWriter(str(clip), cv2.VideoWriter_fourcc(*"MJPG"), 30, (64, 48))
    for i in range(4):
        writer.write(np.full((48, 64, 3), 40 * i, np.uint8))
    writer.release()
    url = "file://" + str(tmp_path / "my%20clip.avi")
    assert not is_device(url)
    video = open_source(url)
    assert isinstance(video, CaptureSource) and video.is_file and not video.live
    frames = 0
    while video.read() is not None:
        frames += 1
    assert frames == 4 and video.finished
    video.close()
    shots = tmp_path / "shots"
    shots.mkdir()
    cv2.imwrite(str(shots / "a.png"), np.zeros((16, 16, 3), np.uint8))
    assert isinstance(open_source(f"FILE://localhost{shots}"), FolderSource)
    with pytest.raises(SourceRefused, match=r"^file://nas/clip\.mp4 names a file on nas, not on this machine"):
        open_source("file://nas/clip.mp4")


def test_a_folder_source_names_the_file_of_each_frame(tmp_path: Path) -> None:
    for name in ("a.png", "c.png"):
        cv2.imwrite(str(tmp_path / name), np.zeros((16, 16, 3), np.uint8))
    (tmp_path / "b.png").write_bytes(b"not a picture")
    source = FolderSource(tmp_path)
    names = []
    while source.read() is not None:
        names.append(source.current.name)
    assert names == ["a.png", "c.png"]


def test_a_pipe_is_refused_as_a_source_and_passed_over_in_a_folder(tmp_path: Path) -> None:
    """`watch x.jpg` on a pipe waited for a writer for ever; so did a folder holding one."""
    os.mkfifo(tmp_path / "x.jpg")
    with pytest.raises(SourceRefused, match="is a pipe or socket"):
        open_source(str(tmp_path / "x.jpg"))
    cv2.imwrite(str(tmp_path / "a.png"), np.full((48, 64, 3), 90, np.uint8))
    folder = FolderSource(tmp_path)
    assert [p.name for p in folder.files] == ["a.png"]
    assert folder.read() is not None


@pytest.mark.parametrize(("spec", "seen"), [
    ("rtsp://admin:Cafe2024!@10.0.0.5:554/live?x=1", "rtsp://admin:***@10.0.0.5:554/live?x=1"),
    ("http://token@cam.local/video.mjpg", "http://***@cam.local/video.mjpg"),
    ("http://cam.local/video.mjpg", "http://cam.local/video.mjpg"),
    ("0", "0"),
])
def test_a_streams_password_is_never_shown(spec: str, seen: str) -> None:
    assert shown(spec) == seen


def test_a_stream_that_cannot_be_opened_is_named_without_its_password(server, monkeypatch: pytest.MonkeyPatch) -> None:
    """The table's status line read "camera lost: cannot open stream rtsp://admin:Cafe2024!@..." to the players.
    (The camera never answers: given up on after 1 s, not the 5 s a camera on a slow network is given.)"""
    monkeypatch.setattr(vision.sources, "STREAM_OPEN_MS", 1000)
    url = server(never_answers).replace("http://", "http://admin:Cafe2024!@")
    source = RetryingSource(lambda: CaptureSource(url), url, retry_seconds=60)
    assert source.read() is None
    assert "Cafe2024" not in source.problem and "admin:***@" in source.problem
    assert "Cafe2024" not in source.name


def test_files_whose_names_are_not_utf8_are_read_or_refused_never_fatal(tmp_path: Path) -> None:
    """OpenCV given a name that is not UTF-8 text (a photo from an old camera's card) killed the whole process
    with a segmentation fault: `vision watch` on such a folder, a video or a taught card photo exited 139."""
    folder = Path(os.fsdecode(os.fsencode(tmp_path) + b"/caf\xe9"))
    folder.mkdir()
    picture = np.full((48, 64, 3), 90, np.uint8)
    (folder / os.fsdecode(b"d\xe9.jpg")).write_bytes(cv2.imencode(".jpg", picture)[1].tobytes())
    frame = open_source(str(folder)).read()
    assert frame is not None and frame.shape == (48, 64, 3)
    assert open_source(str(folder / os.fsdecode(b"d\xe9.jpg"))).read() is not None
    video = folder / "roll.avi"
    video.write_bytes(b"not a video")
    with pytest.raises(SourceRefused, match="not UTF-8 text"):
        open_source(str(video))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux device numbers")
@pytest.mark.parametrize("device", ["/dev/null", "/dev/zero"])
def test_a_device_that_is_no_camera_is_refused_for_good(device: str, capsys: pytest.CaptureFixture[str]) -> None:
    """`watch /dev/null` was tried as an unplugged camera every 2 s for ever ("cannot open camera /dev/null")."""
    with pytest.raises(SourceRefused, match=f"{device} is a device but not a camera"):
        open_source(device)
    source = RetryingSource(lambda: open_source(device), device)
    assert source.read() is None and source.lasting  # the app's feed says waiting will not mend it
    from vision.cli import main

    assert main(["vision", "watch", device, "--turn", "0", "--no-mirror", "--mains", "0", "--tray", "whole"]) == 1
    assert f"vision: {device} is a device but not a camera" in capsys.readouterr().err
