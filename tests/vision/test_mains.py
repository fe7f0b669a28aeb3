"""Telling the camera the mains frequency: the Pi camera's flicker period, a USB camera's power line control."""

from __future__ import annotations

import os
import pty
import queue
import threading
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.observations import LinkChanged
from tests.picamera_fake import install_picamera2
from vision.cli import main
from vision.feed import CameraFeed
from vision.mains import (
    V4L2_CID_POWER_LINE_FREQUENCY,
    V4L2_CONTROL,
    VIDIOC_G_CTRL,
    VIDIOC_S_CTRL,
    V4L2Mains,
    flicker_period_us,
)
from vision.sources import CaptureSource, PiCameraSource, RetryingSource, open_source


def test_the_numbers_the_camera_drivers_expect() -> None:
    assert (flicker_period_us(50), flicker_period_us(60)) == (10_000, 8_333)  # a lamp flickers at twice the mains
    assert (VIDIOC_G_CTRL, VIDIOC_S_CTRL) == (0xC008561B, 0xC008561C)  # as linux/videodev2.h defines them
    assert V4L2_CID_POWER_LINE_FREQUENCY == 0x00980918


def test_the_pi_camera_is_told_the_flicker_period_at_each_opening_and_at_a_change(
        monkeypatch: pytest.MonkeyPatch) -> None:
    camera = install_picamera2(monkeypatch)
    source = RetryingSource(PiCameraSource, "picamera", retry_seconds=0.0, mains_hz=50)
    assert source.read() is not None
    assert camera.opened[0].set == [{"AeFlickerMode": 1, "AeFlickerPeriod": 10_000}]
    assert source.mains_note == "Pi camera set for 50 Hz mains light"
    assert source.set_mains(60) == "Pi camera set for 60 Hz mains light"
    assert camera.opened[0].set[-1] == {"AeFlickerMode": 1, "AeFlickerPeriod": 8_333}
    assert source.set_mains(0) == "Pi camera back on its own mains setting"  # libcamera starts with it off
    assert camera.opened[0].set[-1] == {"AeFlickerMode": 0}
    assert source.set_mains(0) == "" and len(camera.opened[0].set) == 3  # nothing more to take back
    source.set_mains(50)
    source._fail("unplugged", 0.0)  # the camera drops out; the one opened next is told too
    assert source.read() is not None and camera.opened[1].set == [{"AeFlickerMode": 1, "AeFlickerPeriod": 10_000}]
    source.close()


def test_a_pi_camera_without_the_flicker_control_says_so_and_still_gives_frames(
        monkeypatch: pytest.MonkeyPatch) -> None:
    camera = install_picamera2(monkeypatch, controls={"ExposureTime": (1, 66666, None)})
    source = RetryingSource(PiCameraSource, "picamera", mains_hz=60)
    assert source.read() is not None and source.problem is None
    assert camera.opened[0].set == []
    assert source.mains_note.startswith("the Pi camera's software has no flicker setting")
    source.close()


def test_a_pi_camera_refusing_the_control_keeps_its_frames(monkeypatch: pytest.MonkeyPatch) -> None:
    camera = install_picamera2(monkeypatch)

    def refuse(self: object, controls: dict) -> None:
        raise RuntimeError("control out of range")

    monkeypatch.setattr(camera, "set_controls", refuse)
    source = RetryingSource(PiCameraSource, "picamera", mains_hz=50)
    assert source.read() is not None and source.problem is None
    assert source.mains_note == "the Pi camera refused the mains frequency: control out of range"
    source.close()


def test_a_device_that_is_no_v4l2_camera_is_named_not_crashed() -> None:
    """The ioctl reaches a real terminal device, which refuses it as no camera does the control."""
    parent, child = pty.openpty()
    try:
        mains = V4L2Mains(os.ttyname(child))
        told = mains.set(50)
        assert mains.set(0) == ""  # nothing was changed, so nothing is given back
    finally:
        os.close(parent)
        os.close(child)
    assert told.endswith("takes no mains setting, so it may band under flickering light"), told
    assert V4L2Mains("/dev/video-not-there").set(60).startswith("camera /dev/video-not-there: cannot set the mains")


class FakeV4L2Camera:
    """The power line control of a USB camera as its driver answers the two ioctls; a terminal stands for the file."""

    def __init__(self, value: int) -> None:
        self.value = value
        self.calls: list[tuple[str, int]] = []

    def ioctl(self, fd: int, request: int, arg: bytearray) -> int:
        control, value = V4L2_CONTROL.unpack(arg)
        assert control == V4L2_CID_POWER_LINE_FREQUENCY and isinstance(arg, bytearray)
        if request == VIDIOC_G_CTRL:
            arg[:] = V4L2_CONTROL.pack(control, self.value)
            self.calls.append(("get", self.value))
        else:
            assert request == VIDIOC_S_CTRL
            self.value = value
            self.calls.append(("set", value))
        return 0


def test_a_usb_camera_gets_its_own_setting_back(monkeypatch: pytest.MonkeyPatch) -> None:
    """A camera keeps a value set this way until it is unplugged: "camera's own" writes back what it had."""
    import fcntl

    camera = FakeV4L2Camera(value=3)  # the camera came set to "auto"
    monkeypatch.setattr(fcntl, "ioctl", camera.ioctl)
    parent, child = pty.openpty()
    try:
        mains = V4L2Mains(os.ttyname(child))
        assert mains.set(50).endswith("set for 50 Hz mains light") and camera.value == 1
        assert mains.set(60).endswith("set for 60 Hz mains light") and camera.value == 2
        assert mains.set(0).endswith("back on its own mains setting") and camera.value == 3
        assert camera.calls == [("get", 3), ("set", 1), ("set", 2), ("set", 3)]  # read once, before the first change
        assert mains.set(0) == "" and len(camera.calls) == 4
        camera.value = 0  # the café's own software switched it off meanwhile: that is "its own" now
        mains.set(60)
        mains.set(0)
        assert camera.value == 0
    finally:
        os.close(parent)
        os.close(child)


def test_files_take_no_mains_setting_and_say_nothing(tmp_path: Path) -> None:
    video = tmp_path / "tray.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 30, (64, 48))
    for _ in range(3):
        writer.write(np.zeros((48, 64, 3), np.uint8))
    writer.release()
    source = RetryingSource(lambda: open_source(str(video)), str(video), mains_hz=50)
    assert source.read() is not None and source.mains_note == ""
    assert CaptureSource(str(video)).set_mains(60) == ""
    source.close()


def test_the_feed_passes_the_frequency_on_and_says_it_with_the_camera_open(monkeypatch: pytest.MonkeyPatch) -> None:
    camera = install_picamera2(monkeypatch)
    heard = queue.Queue()
    feed = CameraFeed("picamera", heard.put, mode="d6", mains_hz=60, name="camera").start()
    try:
        told = "picamera open; Pi camera set for 60 Hz mains light"
        assert heard.get(timeout=10) == LinkChanged("camera", True, told)
        assert feed.mains_note == "Pi camera set for 60 Hz mains light"
        assert feed.set_mains(50) == "Pi camera set for 50 Hz mains light"
        assert camera.opened[0].set[-1]["AeFlickerPeriod"] == 10_000
    finally:
        feed.close()


def test_watch_tells_the_camera_and_says_what_came_of_it(monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    camera = install_picamera2(monkeypatch)
    assert main(["vision", "watch", "picamera", "--frames", "2", "--mains", "50"]) == 0
    assert "Pi camera set for 50 Hz mains light" in capsys.readouterr().out
    assert camera.opened[0].set == [{"AeFlickerMode": 1, "AeFlickerPeriod": 10_000}]
    settings = Path(os.environ["XDG_CONFIG_HOME"]) / "table-companion" / "ui.json"
    settings.parent.mkdir(parents=True)
    settings.write_text('{"mains_hz": 60}', encoding="utf-8")  # as the camera screen saved it
    assert main(["vision", "watch", "picamera", "--frames", "2"]) == 0
    assert "Pi camera set for 60 Hz mains light" in capsys.readouterr().out
    assert main(["vision", "watch", "picamera", "--frames", "2", "--mains", "0"]) == 0
    assert "mains" not in capsys.readouterr().out and camera.opened[-1].set == []
    with pytest.raises(SystemExit):
        main(["vision", "watch", "picamera", "--mains", "55"])
    assert "argument --mains: '55' is not 0, 50 or 60 (Hz, or 0 to leave the camera be)" in capsys.readouterr().err


class HangingCamera:
    """A live source whose control request hangs, as a wedged USB camera's does, until the test lets it go."""

    name = "camera 0"
    live = True
    finished = False

    def __init__(self) -> None:
        self.release = threading.Event()
        self.told: list[int] = []
        self.threads: set[str] = set()

    def read(self) -> np.ndarray:
        time.sleep(0.01)
        return np.zeros((48, 64, 3), np.uint8)

    def set_mains(self, hz: int) -> str:
        self.threads.add(threading.current_thread().name)
        if hz:
            self.release.wait(10)
        self.told.append(hz)
        return f"camera 0 set for {hz} Hz mains light" if hz else ""

    def close(self) -> None:
        pass


def test_a_camera_slow_to_take_the_setting_does_not_hold_up_the_screen() -> None:
    """The feed's own thread tells the camera; the screen waits a moment for the answer, not for the camera."""
    camera = HangingCamera()
    heard = queue.Queue()
    feed = CameraFeed(lambda: camera, heard.put, mode=None, name="camera").start()
    feed.mains_answer_seconds = 0.2
    try:
        assert heard.get(timeout=10).up  # open, and told "0": nothing to say
        told = feed.set_mains(50)
        assert told == "the camera has not answered yet; it is given 50 Hz mains as soon as it does"
        camera.release.set()
        deadline = time.monotonic() + 10
        while feed.mains_note != "camera 0 set for 50 Hz mains light" and time.monotonic() < deadline:
            time.sleep(0.01)
        assert feed.mains_note == "camera 0 set for 50 Hz mains light"  # what the screen shows when next opened
        feed.mains_answer_seconds = 10
        assert feed.set_mains(60) == "camera 0 set for 60 Hz mains light"  # a camera that answers: its answer
        assert camera.told == [0, 50, 60] and camera.threads == {"camera-feed camera"}  # never the screen's thread
    finally:
        feed.close()


def test_the_frame_rate_tells_which_mains_rolls_bands() -> None:
    """A lamp flickers 2 x mains times a second; bands stand still when a whole number of flickers fits a frame."""
    from vision.mains import rolling_bands_mains

    assert [rolling_bands_mains(fps) for fps in (30, 29.97, 15, 60, 7.5)] == [50] * 5  # NTSC-like rates
    assert [rolling_bands_mains(fps) for fps in (25, 50, 12.5)] == [60] * 3  # PAL-like rates
    assert [rolling_bands_mains(fps) for fps in (20, 10, 27.5, 0)] == [None] * 4  # both stand, both roll, no rate


class BandedCamera:
    """A live camera at 30 frames a second under a lamp on 50 Hz mains: it hands each frame over when it is due."""

    name = "camera 0"
    live = True
    finished = False

    def __init__(self) -> None:
        from tests.vision.test_feed import die_at, rolling_bands

        self.frames = rolling_bands(die_at(1), 30, 0.2)
        self.count = 0
        self.due = time.monotonic()

    def read(self) -> np.ndarray:
        self.due += 1 / 30
        time.sleep(max(0.0, self.due - time.monotonic()))
        self.count += 1
        return self.frames[self.count % len(self.frames)]

    def close(self) -> None:
        pass


def test_the_feed_measures_a_live_cameras_rate_and_not_a_folders(tmp_path: Path) -> None:
    feed = CameraFeed(lambda: BandedCamera(), lambda _seen: None, mode="d6", name="camera").start()
    try:
        deadline = time.monotonic() + 20
        while (not feed.banded or feed.camera_rate is None) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert feed.banded and 20 < feed.camera_rate < 40  # about the camera's 30 (a busy machine reads late)
    finally:
        feed.close()
    for index in range(40):
        cv2.imwrite(str(tmp_path / f"{index:02d}.png"), np.full((48, 64, 3), 100 + index, np.uint8))
    feed = CameraFeed(str(tmp_path), lambda _seen: None, mode="d6", name="camera").start()
    try:
        assert feed.ended.wait(20) and feed.camera_rate is None  # a folder's pace is the feed's own
    finally:
        feed.close()
