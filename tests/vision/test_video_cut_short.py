"""A video file cut short (a copy or a recording not finished) is said to be so, with the frames its header counts.

It ended like any video: `vision watch` said "27 frames read", the table "video ... has ended after 27 frames",
and the café took what it had seen for the whole recording.
"""

from __future__ import annotations

from pathlib import Path

import cv2

from tests.vision.test_feed import die_at
from vision.cli import main
from vision.sources import CaptureSource, ended_note

WATCH = ["--turn", "0", "--no-mirror", "--mains", "0", "--tray", "whole"]  # whatever a settings file says


def recording(path: Path, frames: int = 24) -> Path:
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (640, 480))
    for _ in range(frames):
        writer.write(die_at(1))
    writer.release()
    return path


def played(path: Path) -> CaptureSource:
    source = CaptureSource(str(path))
    while source.read() is not None:
        pass
    return source


def test_a_video_cut_short_is_said_so_by_watch_and_the_table(tmp_path: Path, capsys) -> None:
    whole = recording(tmp_path / "roll.avi")
    cut = tmp_path / "copied.avi"
    cut.write_bytes(whole.read_bytes()[: whole.stat().st_size // 2])
    source = played(cut)
    given = source.frames_given
    assert 0 < given < 24
    assert ended_note(source, given) == (
        f"video {cut} has ended after {given} frames; it does not start again (no loop), so its last picture stays "
        f"(it ended after {given} of the 24 frames its header counts: the file is cut short (a copy or a recording "
        "not finished?))")
    assert main(["vision", "watch", str(cut), *WATCH]) == 0
    out = capsys.readouterr().out
    assert f"{given} frames read\nit ended after {given} of the 24 frames its header counts: the file is cut short" \
           in out, out


def test_a_video_played_whole_says_nothing_more(tmp_path: Path, capsys) -> None:
    whole = recording(tmp_path / "roll.avi")
    assert played(whole).frames_given == 24
    assert ended_note(played(whole), 24).endswith("so its last picture stays")
    assert main(["vision", "watch", str(whole), *WATCH]) == 0
    out = capsys.readouterr().out
    assert "24 frames read" in out and "cut short" not in out, out
