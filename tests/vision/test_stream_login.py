"""A network camera's login is never printed, wherever in its address the café typed it.

Many cameras and recorders take the password as a parameter of the address
(`videostream.cgi?user=admin&pwd=...`, `rtsp://host/user=admin&password=...&channel=1`), and a scheme
mistyped or left out (`rtsp:/admin:pw@...`, `admin:pw@host/...`) still holds one: `watch`, the teach steps
and the table's status line printed all of these as typed.
"""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

import vision.sources
from vision.cli import main
from vision.sources import shown

SECRET = "Cafe2024"


@pytest.mark.parametrize(("spec", "seen"), [
    ("http://10.0.0.5/videostream.cgi?user=admin&pwd=Cafe2024", "http://10.0.0.5/videostream.cgi?user=admin&pwd=***"),
    ("rtsp://10.0.0.5:554/user=admin&password=Cafe2024&channel=1&stream=0.sdp",
     "rtsp://10.0.0.5:554/user=admin&password=***&channel=1&stream=0.sdp"),
    ("http://cam.local/snapshot.cgi?loginuse=admin&loginpas=Cafe2024", "http://cam.local/snapshot.cgi?loginuse=admin&loginpas=***"),
    ("https://cam.local/live?access_token=Cafe2024&fps=10", "https://cam.local/live?access_token=***&fps=10"),
    ("rtsp://admin:Cafe2024@10.0.0.5/live?PassWord=Cafe2024", "rtsp://admin:***@10.0.0.5/live?PassWord=***"),
    ("rtsp:/admin:Cafe2024@10.0.0.5:554/live", "rtsp:/admin:***@10.0.0.5:554/live"),
    ("admin:Cafe2024@10.0.0.5:554/live", "admin:***@10.0.0.5:554/live"),
    # No login: shown as typed, a trailing '?' included; a folder's name with ':' and '@' in it is no login.
    ("http://cam.local/video.mjpg?", "http://cam.local/video.mjpg?"),
    ("http://cam.local/monkey=1&keyframe=2", "http://cam.local/monkey=1&keyframe=2"),
    ("/media/pi/a:b@c/roll.avi", "/media/pi/a:b@c/roll.avi"),
])
def test_a_login_anywhere_in_the_address_is_starred(spec: str, seen: str) -> None:
    assert shown(spec) == seen


def closed_port() -> int:
    """A loopback port nothing listens on: a camera that refuses at once."""
    with socket.create_server(("127.0.0.1", 0)) as listening:
        return listening.getsockname()[1]


def test_watch_never_prints_a_password_given_as_a_parameter(capsys, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(vision.sources, "STREAM_OPEN_MS", 1000)
    url = f"http://127.0.0.1:{closed_port()}/videostream.cgi?user=admin&pwd={SECRET}"
    assert main(["vision", "watch", url, "--timeout", "1", "--turn", "0", "--no-mirror", "--mains", "0"]) == 1
    captured = capsys.readouterr()
    assert "cannot open stream" in captured.out and "pwd=***" in captured.out, captured
    assert SECRET not in captured.out + captured.err


@pytest.mark.parametrize("spec", [f"rtsp:/admin:{SECRET}@127.0.0.1:9/live", f"admin:{SECRET}@127.0.0.1:9/live",
                                  f"file://admin:{SECRET}@nas.local/roll.avi"])
def test_a_source_refused_is_named_without_its_password(spec: str, tmp_path: Path, capsys) -> None:
    assert main(["vision", "teach-die", spec, "--value", "3", "--colour", "white", "--out", str(tmp_path / "t"),
                 "--turn", "0", "--no-mirror"]) in (1, 2)
    captured = capsys.readouterr()
    assert "admin" in captured.err and SECRET not in captured.out + captured.err, captured


class Silent:
    """A stream that opened and sends no frame."""

    name = "silent"
    live = True
    finished = False

    def read(self) -> None:
        return None

    def close(self) -> None:
        pass


def test_a_teach_step_names_a_silent_stream_without_its_password(tmp_path: Path, capsys,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(vision.sources, "open_source", lambda spec: Silent())
    monkeypatch.setattr("vision.cli.time.sleep", lambda seconds: None)
    url = f"rtsp://admin:{SECRET}@127.0.0.1:9/live?pwd={SECRET}"
    assert main(["vision", "teach-die", url, "--value", "3", "--colour", "white", "--out", str(tmp_path / "t"),
                 "--turn", "0", "--no-mirror"]) == 1
    err = capsys.readouterr().err
    assert "no frame from rtsp://admin:***@127.0.0.1:9/live?pwd=***" in err and SECRET not in err, err
