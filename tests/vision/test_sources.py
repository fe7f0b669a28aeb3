"""Sources: folders, video files, missing cameras and the retry wrapper, on real files."""

from __future__ import annotations

import functools
import http.server
import os
import subprocess
import sys
import threading
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.picamera_fake import install_picamera2
from vision.sources import (
    CaptureSource,
    FolderSource,
    PiCameraSource,
    RetryingSource,
    SourceError,
    SourceUnusable,
    open_source,
)


def write_frames(folder: Path, count: int) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(count):
        img = np.full((48, 64, 3), 20 * i, np.uint8)
        cv2.imwrite(str(folder / f"f{i:02d}.png"), img)


def write_video(path: Path, count: int) -> None:
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 30, (64, 48))
    for i in range(count):
        writer.write(np.full((48, 64, 3), 40 * i, np.uint8))
    writer.release()


def test_folder_source_reads_in_order_and_skips_unreadable(tmp_path: Path) -> None:
    write_frames(tmp_path, 3)
    (tmp_path / "f01b.jpg").write_bytes(b"not a jpeg")
    source = FolderSource(tmp_path)
    means = []
    while (frame := source.read()) is not None:
        means.append(int(frame.mean()))
    assert means == [0, 20, 40]
    assert source.finished
    assert [p.name for p in source.skipped] == ["f01b.jpg"]


def test_photos_saved_as_webp_or_tiff_are_read_too(tmp_path: Path) -> None:
    """Phone and scanner exports that OpenCV reads were passed over as "no images"."""
    for i, name in enumerate(("a.webp", "b.tif", "c.TIFF")):
        cv2.imwrite(str(tmp_path / name.lower()), np.full((48, 64, 3), 20 * (i + 1), np.uint8))
    (tmp_path / "c.tiff").rename(tmp_path / "c.TIFF")
    source = FolderSource(tmp_path)
    means = []
    while (frame := source.read()) is not None:
        means.append(round(float(frame.mean())))
    assert means == [20, 40, 60] and not source.skipped


def test_a_camera_served_over_http_as_video_mjpg_is_a_stream(tmp_path: Path) -> None:
    """IP cameras serve "http://HOST/video.mjpg"; its suffix made it a video file that "does not exist"."""
    write_video(tmp_path / "video.avi", 6)
    (tmp_path / "video.avi").rename(tmp_path / "video.mjpg")  # the stream is probed, not judged by its name

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(tmp_path)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_port}/video.mjpg"
    try:
        source = open_source(url)
        assert isinstance(source, CaptureSource) and source.live and not source.is_file
        frames = [source.read() for _ in range(6)]
        assert [round(int(f[24, 32, 0]) / 40) for f in frames] == list(range(6))
        with pytest.raises(SourceError, match=r"^stream http://127\.0\.0\.1:\d+/video\.mjpg stopped sending"):
            source.read()  # a camera's stream that ends has stopped, not "played to its end"
        source.close()
    finally:
        server.shutdown()
        server.server_close()


def test_folders_and_photos_are_not_live(tmp_path: Path) -> None:
    write_frames(tmp_path / "shots", 2)
    assert not open_source(str(tmp_path / "shots")).live
    assert not open_source(str(tmp_path / "shots" / "f00.png")).live
    wrapped = RetryingSource(lambda: FolderSource(tmp_path / "shots"), "shots")
    assert not wrapped.live  # nothing open yet
    wrapped.read()
    assert not wrapped.live


def test_empty_folder_and_missing_things_say_why(tmp_path: Path) -> None:
    with pytest.raises(SourceUnusable, match=r"is empty: the camera plays the pictures put in it \(\.bmp, \.jpeg, "
                       r"\.jpg, \.png, \.tif, \.tiff, \.webp files, in name order\)"):
        FolderSource(tmp_path)
    with pytest.raises(SourceError, match="does not exist"):
        open_source(str(tmp_path / "missing.avi"))
    with pytest.raises(SourceError, match="not a camera index"):
        open_source("no-such-thing")


def test_video_file_reads_to_the_end(tmp_path: Path) -> None:
    path = tmp_path / "clip.avi"
    write_video(path, 5)
    source = open_source(str(path))
    assert isinstance(source, CaptureSource) and not source.live  # a file is paced by the feed
    frames = []
    while (frame := source.read()) is not None:
        frames.append(frame)
    assert len(frames) == 5
    assert source.read() is None
    source.close()


def test_unplugged_camera_is_reported_and_retried() -> None:
    now = [0.0]
    attempts = []

    class Flaky:
        name = "cam"

        def __init__(self) -> None:
            self.left = 2

        def read(self):
            if self.left == 0:
                raise SourceError("camera cam stopped giving frames (unplugged?)")
            self.left -= 1
            return np.zeros((4, 4, 3), np.uint8)

        def close(self) -> None:
            pass

    def opener():
        attempts.append(now[0])
        if len(attempts) == 2:
            raise SourceError("cannot open camera cam")
        return Flaky()

    source = RetryingSource(opener, "cam", retry_seconds=1.0, clock=lambda: now[0])
    assert source.read() is not None
    assert source.read() is not None
    assert source.read() is None and "unplugged" in source.problem
    assert source.read() is None and len(attempts) == 1  # waits before retrying
    now[0] = 1.5
    assert source.read() is None and "cannot open" in source.problem
    now[0] = 3.0
    assert source.read() is not None and source.problem is None
    assert len(attempts) == 3


def test_missing_camera_index_never_raises_through_the_wrapper() -> None:
    source = RetryingSource(lambda: open_source("97"), "97")
    assert source.read() is None
    assert "97" in source.problem


def test_missing_camera_leaves_only_our_sentence_in_the_log(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    """OpenCV writes its backend warnings straight to fd 2; a kiosk retrying all day would fill its log."""
    before = cv2.utils.logging.getLogLevel()
    with pytest.raises(SourceError, match=f"no camera at {tmp_path}/video97"):
        CaptureSource(97, devices=str(tmp_path))
    assert "WARN" not in capfd.readouterr().err
    assert cv2.utils.logging.getLogLevel() == before


def test_a_damaged_video_or_a_dead_stream_is_not_called_a_camera(tmp_path: Path) -> None:
    """"cannot open camera clip.mp4 (unplugged, ...)" sent a café owner to the camera's cable."""
    (tmp_path / "notes.mp4").write_text("a text file renamed")
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 30, (64, 48))
    for i in range(5):
        writer.write(np.full((48, 64, 3), 40 * i, np.uint8))
    writer.release()
    (tmp_path / "cut.avi").write_bytes(path.read_bytes()[:800])
    (tmp_path / "recording").write_bytes(b"no suffix, no video")
    for name in ("notes.mp4", "cut.avi", "recording"):
        with pytest.raises(SourceError, match=f"cannot read video file .*{name} \\(damaged, not a video"):
            open_source(str(tmp_path / name))
    with pytest.raises(SourceError, match=r"cannot open stream http://127\.0\.0\.1:1/cam"):
        open_source("http://127.0.0.1:1/cam")


@pytest.mark.parametrize("spec", ["", "  "])
def test_no_source_at_all_is_named_as_such(spec: str) -> None:
    """An empty word was taken for the working folder: "no images (.jpg, .png, .bmp) in ." """
    with pytest.raises(SourceError, match=r"no camera source given: 0 .* or a folder"):
        open_source(spec)


def test_a_stream_that_does_not_answer_leaves_only_our_sentence_on_stderr() -> None:
    """FFmpeg wrote "[tcp @ 0x...] Connection refused" beside our sentence on every retry, all day."""
    script = (
        "from vision.sources import open_source, SourceError\n"
        "for _ in range(2):\n"
        "    try:\n"
        "        open_source('http://127.0.0.1:1/cam')\n"
        "    except SourceError as error:\n"
        "        print(error)\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "OPENCV_FFMPEG_LOGLEVEL"}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=60,
                          cwd=Path(__file__).resolve().parents[2])
    assert done.stdout.count("cannot open stream http://127.0.0.1:1/cam") == 2
    assert done.stderr == ""


def test_a_stream_that_drops_is_not_called_an_unplugged_camera() -> None:
    """Told "(unplugged?)", a café owner went to a cable that a network camera does not have."""

    class Dropped:
        def read(self):
            return False, None

        def release(self) -> None:
            pass

    source = object.__new__(CaptureSource)  # no stream answers here: the capture is stood in for
    source.name, source.is_file, source.finished, source.capture = "rtsp://10.0.0.9/cam", False, False, Dropped()
    with pytest.raises(SourceError, match=r"^stream rtsp://10\.0\.0\.9/cam stopped sending frames \(camera off, or"):
        source.read()


def test_a_pi_camera_that_can_focus_keeps_the_tray_in_focus_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    """Camera Module 3 has no focus ring; "Dice out of focus" could not be mended at the table."""
    camera = install_picamera2(monkeypatch, controls={"AfMode": (0, 2, 0), "LensPosition": (0.0, 15.0, 1.0)})
    PiCameraSource().close()
    assert camera.opened[0].set == [{"AfMode": 2}]
    camera = install_picamera2(monkeypatch, controls={})  # a fixed-focus module is left as it is
    PiCameraSource().close()
    assert camera.opened[0].set == []


def test_a_picamera2_built_for_another_numpy_is_named_with_its_mend(monkeypatch: pytest.MonkeyPatch) -> None:
    """On Raspberry Pi OS the OS's picamera2 loads a JPEG module built for its numpy 1.24, which stops the
    import beside the app's numpy 2; the camera screen then says what to run, not only the error."""
    import types

    install_picamera2(monkeypatch)

    def refuse(name: str) -> object:
        raise ValueError("numpy.dtype size changed, may indicate binary incompatibility. Expected 96 from C header, "
                         "got 88 from PyObject")

    module = types.ModuleType("picamera2")
    module.__spec__ = sys.modules["picamera2"].__spec__
    module.__getattr__ = refuse  # type: ignore[method-assign]  # as `from picamera2 import Picamera2` then fails
    monkeypatch.setitem(sys.modules, "picamera2", module)
    source = RetryingSource(PiCameraSource, "picamera")
    assert source.read() is None
    assert source.problem.startswith("cannot start the Pi camera: numpy.dtype size changed")
    assert "run sudo ./systemd/setup-pi.sh again" in source.problem
