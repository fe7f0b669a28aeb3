"""A camera that will not open says why: no node at /dev/videoN, or a node this user may not open (the video group).

OpenCV answers only that it could not open the camera, so a service user left
out of the video group was told "cannot open camera 0 (unplugged, busy, or not
a camera)" and the café owner looked for a cable. The nodes here are real files
in a temporary folder standing in for /dev (`devices=`), never a real camera.
"""

from __future__ import annotations

import os
import queue
import time
from pathlib import Path

import cv2
import pytest

import vision.sources
from companion.controller import Controller
from companion.observations import LinkChanged
from vision.camera_node import camera_node
from vision.feed import CameraFeed
from vision.sources import CaptureSource, RetryingSource, SourceError, SourceUnusable


def refuse_opening(monkeypatch: pytest.MonkeyPatch, node: Path) -> None:
    """Opening ``node`` fails as for a user without the right to, as its mode 000 makes it for any user but root
    (tests may run as root, who opens any file whatever its mode)."""
    if os.geteuid() != 0:
        return
    real = os.open

    def refused(path: object, flags: int, *args: object, **kwargs: object) -> int:
        if os.fspath(path) == os.fspath(node):  # type: ignore[arg-type]
            raise PermissionError(13, "Permission denied", os.fspath(node))
        return real(path, flags, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "open", refused)


def no_opencv(monkeypatch: pytest.MonkeyPatch) -> None:
    """OpenCV given an index opens the real /dev/videoN: a node found wanting must be told before it is asked."""

    def asked(target: object) -> None:
        raise AssertionError(f"OpenCV was asked to open {target}")

    monkeypatch.setattr(vision.sources, "_capture", asked)


def locked_node(folder: Path, name: str, monkeypatch: pytest.MonkeyPatch) -> Path:
    node = folder / name
    node.write_bytes(b"")
    node.chmod(0o000)
    refuse_opening(monkeypatch, node)
    return node


def in_video_group() -> bool:
    import grp

    try:
        gid = grp.getgrnam("video").gr_gid
    except KeyError:
        return False
    return gid == os.getegid() or gid in os.getgroups()


def test_a_camera_index_with_no_node_says_no_camera_is_there(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    no_opencv(monkeypatch)
    with pytest.raises(SourceError, match=r"^no camera at .*/video7 \(unplugged, or another number: see ls /dev/vid"
                       ) as raised:
        CaptureSource(7, devices=str(tmp_path))
    assert not isinstance(raised.value, SourceUnusable)  # nothing is there: told "not found" at the table
    assert str(tmp_path / "video7") in str(raised.value)


@pytest.mark.skipif(in_video_group(), reason="this user is in the video group: the words say to look at the node")
@pytest.mark.parametrize("by_index", [True, False], ids=["index", "path"])
def test_a_camera_this_user_may_not_open_names_the_group_and_the_fix(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, by_index: bool
) -> None:
    """It read "cannot open camera 0 (unplugged, busy, or not a camera)": the camera was there all along."""
    node = locked_node(tmp_path, "video3", monkeypatch)
    no_opencv(monkeypatch)
    import pwd

    user = pwd.getpwuid(os.geteuid()).pw_name
    with pytest.raises(SourceUnusable) as raised:
        CaptureSource(3 if by_index else str(node), devices=str(tmp_path))
    assert str(raised.value) == (
        f"cannot open {node}: permission denied: the user {user} is not in the video group; add it with sudo usermod "
        f"-aG video {user}, then log in again or restart the service (a unit of your own needs "
        "SupplementaryGroups=video, as the one in systemd/ has)")
    assert "unplugged" not in str(raised.value)
    assert "SupplementaryGroups=video" in (Path(__file__).parents[2] / "systemd" / "table-companion.service"
                                           ).read_text(), "the unit the words name gives its user the video group"


def test_a_user_in_the_node_group_still_refused_is_sent_to_the_node_mode(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Telling a user already in the group to join it would send the owner round in a circle."""
    import grp

    node = tmp_path / "video4"
    node.write_bytes(b"")
    os.chown(node, -1, os.getegid())
    node.chmod(0o060)  # the group may, the owner (this user, or root) may not: as a node left with a wrong mode
    refuse_opening(monkeypatch, node)
    no_opencv(monkeypatch)
    group = grp.getgrgid(os.getegid()).gr_name
    with pytest.raises(SourceUnusable, match=rf"^cannot open {node}: permission denied to the user .*, though it is "
                       rf"in the {group} group: see the node's owner and mode with ls -l {node} \(a camera's is "
                       r"crw-rw---- root video\)$"):
        CaptureSource(4, devices=str(tmp_path))


def test_a_node_that_opens_but_is_no_camera_keeps_opencv_s_words(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    """A real cv2.VideoCapture on a node the user may open that fails: no reason is made up, and it is a camera
    (named by its path), not "cannot read video file"."""
    node = tmp_path / "video5"
    node.write_bytes(b"")
    node.chmod(0o600)
    before = cv2.utils.logging.getLogLevel()
    said = rf"^cannot open camera {node} \(unplugged, busy, or not a camera\)$"
    with pytest.raises(SourceError, match=said) as raised:
        CaptureSource(str(node), devices=str(tmp_path))
    assert not isinstance(raised.value, SourceUnusable)
    assert "WARN" not in capfd.readouterr().err  # OpenCV's own lines stay out of a kiosk's log
    assert cv2.utils.logging.getLogLevel() == before


def test_a_url_or_a_video_file_has_no_node(tmp_path: Path) -> None:
    assert camera_node("rtsp://cam/dev/video0", str(tmp_path)) is None
    assert camera_node(str(tmp_path / "video0"), str(tmp_path)) == tmp_path / "video0"
    assert camera_node("clip.avi", str(tmp_path)) is None
    assert camera_node(2, str(tmp_path)) == tmp_path / "video2"
    # OpenCV's index 200 is its V4L2 backend's camera 0: the node is video0, not a video200 never there.
    assert camera_node(200, str(tmp_path)) == camera_node(1800, str(tmp_path)) == tmp_path / "video0"


@pytest.mark.skipif(in_video_group(), reason="this user is in the video group: the words say to look at the node")
def test_the_table_is_told_the_reason_alone_and_it_is_tried_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Neither "Camera not found" (it is there) nor "looked in again" (a folder's words): the reason, and that the
    camera is tried again, since a group given or a mode mended needs no restart of the feed."""
    node = locked_node(tmp_path, "video0", monkeypatch)
    no_opencv(monkeypatch)
    retrying = RetryingSource(lambda: CaptureSource(0, devices=str(tmp_path)), "0", retry_seconds=0.0)
    assert retrying.read() is None and retrying.unusable and not retrying.lasting
    assert retrying.retried == "tried again"
    seen: queue.Queue = queue.Queue()
    feed = CameraFeed(lambda: CaptureSource(0, devices=str(tmp_path)), seen.put, mode="d6", fps=None,
                      retry_seconds=0.05).start()
    try:
        deadline = time.monotonic() + 10
        while not [o for o in seen.queue if isinstance(o, LinkChanged)] and time.monotonic() < deadline:
            time.sleep(0.02)
        while feed.source.failures < 2 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert feed.source.failures >= 2 and feed.running
    finally:
        feed.close()
    link = next(o for o in seen.queue if isinstance(o, LinkChanged))
    assert not link.up and link.unusable and not link.found
    assert link.detail.startswith(f"cannot open {node}: permission denied: the user ")
    assert link.detail.endswith("as the one in systemd/ has); tried again every 0.05 s")
    told = Controller().handle(link).text
    assert told == f"camera: {link.detail}" and "not found" not in told and "lost" not in told


@pytest.mark.skipif(in_video_group(), reason="this user is in the video group: the words say to look at the node")
def test_a_camera_not_found_then_plugged_in_where_it_may_not_be_opened_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Told once per outage, the table went on reading "camera not found: no camera at /dev/video0" once the
    camera was plugged in, while the fix was a group (the dice sensor's port is told again likewise)."""
    no_opencv(monkeypatch)
    seen: queue.Queue = queue.Queue()
    feed = CameraFeed(lambda: CaptureSource(0, devices=str(tmp_path)), seen.put, mode="d6", fps=None,
                      retry_seconds=0.05).start()

    def links() -> list[LinkChanged]:
        return [o for o in seen.queue if isinstance(o, LinkChanged)]

    try:
        deadline = time.monotonic() + 10
        while not links() and time.monotonic() < deadline:
            time.sleep(0.02)
        locked_node(tmp_path, "video0", monkeypatch)  # plugged in: udev makes its node, which this user may not open
        while len(links()) < 2 and time.monotonic() < deadline:
            time.sleep(0.02)
        failures = feed.source.failures
        while feed.source.failures < failures + 3 and time.monotonic() < deadline:  # tried again, not told again
            time.sleep(0.02)
        assert feed.running and feed.source.failures >= failures + 3
    finally:
        feed.close()
    controller = Controller()
    told = [controller.handle(link).text for link in links()]
    assert len(told) == 2, told
    assert told[0].startswith(f"camera not found: no camera at {tmp_path / 'video0'} (unplugged")
    assert told[1].startswith(f"camera: cannot open {tmp_path / 'video0'}: permission denied: the user ")


def test_a_stable_camera_name_left_by_an_unplugged_camera_says_no_camera_is_there(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A /dev/v4l/by-id link (a hand-made one, or udev's for a moment) pointing at a node that is gone: it would
    read "'...' is not a camera index, URL, video file, image or folder", as if the name were mistyped."""
    link = tmp_path / "usb-Logitech_Webcam-video-index0"
    link.symlink_to(tmp_path / "video0")
    monkeypatch.setattr(vision.sources, "DEVICES", str(tmp_path))
    with pytest.raises(SourceError, match=rf"^no camera at {link} \(unplugged"):
        vision.sources.open_source(str(link))
    with pytest.raises(SourceError, match=rf"^no camera at {link} \(unplugged"):
        CaptureSource(str(link), devices=str(tmp_path))
