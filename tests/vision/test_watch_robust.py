"""`vision watch` under awkward sources, folders and pictures: no crash, no memory kept, and advice that is right."""

from __future__ import annotations

import errno
import functools
import os
import subprocess
import sys
import weakref
from pathlib import Path

import cv2
import numpy as np
import pytest

import vision.frames
import vision.watch
from vision.cli import main
from vision.dice_render import render_dice_scene, render_far_tray_scene
from vision.sources import RetryingSource, SourceError

REPO = Path(__file__).resolve().parents[2]
WATCH = ["--turn", "0", "--no-mirror", "--mains", "0", "--tray", "whole"]  # whatever a settings file says


class Frames:
    """A live camera handing out the given frames, then ending."""

    name = "fake camera"
    live = True

    def __init__(self, frames: list[np.ndarray]) -> None:
        self.frames = list(frames)
        self.finished = False

    def read(self) -> np.ndarray | None:
        if not self.frames:
            self.finished = True
            return None
        return self.frames.pop(0)

    def close(self) -> None:
        pass


def camera_gives(monkeypatch: pytest.MonkeyPatch, frames: list[np.ndarray]) -> None:
    monkeypatch.setattr(vision.watch, "is_device", lambda spec: True)
    monkeypatch.setattr(vision.watch, "open_source", lambda spec: Frames(frames))


def photos(folder: Path, *images: np.ndarray) -> Path:
    folder.mkdir(exist_ok=True)
    for index, image in enumerate(images):
        cv2.imwrite(str(folder / f"{index:03d}.png"), image)
    return folder


# ---------------------------------------------------------------- --save


def test_save_into_a_folder_whose_name_is_not_utf8_writes_the_frames(tmp_path: Path) -> None:
    """cv2.imwrite given such a path (a stick named on an old machine) killed watch with a segmentation fault."""
    folder = photos(tmp_path / "in", render_dice_scene(np.random.default_rng(1), 640, 480, count=1)[0])
    save = os.fsencode(tmp_path) + b"/caf\xe9"
    done = subprocess.run([sys.executable, "-m", "vision.cli", "vision", "watch", os.fsencode(folder),
                           "--every-frame", "--save", save, *WATCH],
                          cwd=REPO, capture_output=True, timeout=120)
    assert done.returncode == 0, (done.returncode, done.stderr[-2000:])
    assert b"1 frame with a reading saved in" in done.stdout
    assert os.listdir(save) == [b"frame-000001.jpg"]


def test_save_says_a_picture_too_large_for_a_jpeg_is_no_full_card(tmp_path: Path, capsys) -> None:
    """A strip 70000 px long cannot be a JPEG; "full, removed or read-only?" sent the café to check its card."""
    folder = photos(tmp_path / "in", np.full((16, 70000, 3), 128, np.uint8))
    assert main(["vision", "watch", str(folder), "--every-frame", "--save", str(tmp_path / "out"), *WATCH]) == 0
    out = capsys.readouterr().out
    assert "frame 1: the picture (70000x16) is too large for a JPEG (65500 px a side at most): frames are no " \
        "longer saved" in out, out
    assert "read-only?" not in out and list((tmp_path / "out").iterdir()) == []


def test_save_on_a_full_card_says_so_and_leaves_no_frame_cut_short(tmp_path: Path, capsys, monkeypatch) -> None:
    folder = photos(tmp_path / "in", *[render_dice_scene(np.random.default_rng(1), 640, 480, count=1)[0]] * 2)
    real = Path.write_bytes

    def full(self: Path, data) -> int:
        real(self, bytes(data)[:100])  # a few bytes made it before the card filled
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(self))

    monkeypatch.setattr(Path, "write_bytes", full)
    assert main(["vision", "watch", str(folder), "--every-frame", "--save", str(tmp_path / "out"), *WATCH]) == 0
    out = capsys.readouterr().out
    assert f"frame 1: could not write into {tmp_path / 'out'}: No space left on device: frames are no longer " \
        "saved" in out, out
    assert out.count("no longer saved") == 1 and list((tmp_path / "out").iterdir()) == []


# ---------------------------------------------------------------- what is told at the end


def test_a_still_tray_without_dice_is_not_called_restless(tmp_path: Path, capsys) -> None:
    """An empty tray held perfectly still was told "the view never held still": the café steadied a steady
    camera, when what it lacked was dice in view."""
    empty = render_dice_scene(np.random.default_rng(9), 640, 480, values=[])[0]
    folder = photos(tmp_path / "in", *[empty] * 12)
    for reader in ("dice", "temple-die"):
        assert main(["vision", "watch", str(folder), "--reader", reader, *WATCH]) == 0
        out = capsys.readouterr().out
        assert "never held still" not in out, out
        assert "no reading: the picture held still, but no dice were seen in it: put the dice where the camera " \
            "sees them" in out, out
    assert main(["vision", "watch", str(folder), *WATCH[:-1], "0.2,0.2,0.8,0.8"]) == 0
    assert "put the dice inside the marked tray (--tray)" in capsys.readouterr().out


def test_photos_that_never_hold_still_are_still_told_so(tmp_path: Path, capsys) -> None:
    rng = np.random.default_rng(5)
    folder = photos(tmp_path / "in", *[render_dice_scene(rng, 640, 480, count=1)[0] for _ in range(4)])
    assert main(["vision", "watch", str(folder), *WATCH]) == 0
    out = capsys.readouterr().out
    assert "never held still" in out and "no dice were seen" not in out


# ---------------------------------------------------------------- the picture judged where the dice are read


def test_a_dark_tray_in_a_bright_room_is_told(tmp_path: Path, capsys) -> None:
    """Judged on the whole picture, a bright wall round a dark tray hid it; the table's feed judges the tray."""
    frame = np.full((480, 640, 3), 200, np.uint8)
    frame[120:360, 160:480] = 20
    folder = photos(tmp_path / "in", frame, frame)
    assert main(["vision", "watch", str(folder), "--every-frame", *WATCH[:-1], "0.25,0.25,0.75,0.75"]) == 0
    assert "frame 1: the picture is dark (its brightest parts reach 20 of 255" in capsys.readouterr().out


def test_a_lit_tray_in_a_dim_room_is_not_called_dark(tmp_path: Path, capsys) -> None:
    """A lamp over a small marked tray in a dim café: "the picture is dark ... dice are missed" while they were read."""
    frame = np.full((480, 640, 3), 10, np.uint8)
    frame[202:278, 269:371] = 180  # the marked tray, a fortieth of the picture
    folder = photos(tmp_path / "in", frame, frame)
    assert main(["vision", "watch", str(folder), "--every-frame", *WATCH[:-1], "0.42,0.42,0.58,0.58"]) == 0
    assert "dark" not in capsys.readouterr().out
    assert main(["vision", "watch", str(folder), "--every-frame", *WATCH]) == 0  # unmarked: the picture is dim
    assert "the picture is dark" in capsys.readouterr().out


def test_a_far_tray_out_of_focus_is_told_once_it_is_marked(tmp_path: Path, capsys) -> None:
    """Judged against the whole picture, a marked far tray's dice were "small" and never judged for focus: a
    blurred lens misread seven dice of eight and watch said nothing, while the camera screen asked for focus."""
    far, _, (x0, y0, x1, y1) = render_far_tray_scene(np.random.default_rng(4))
    folder = photos(tmp_path / "in", *[cv2.GaussianBlur(far, (0, 0), 1.5)] * 8)
    tray = f"{(x0 - 10) / 6.4:.0f}%,{max(0, y0 - 10) / 4.8:.0f}%,{(x1 + 10) / 6.4:.0f}%,{(y1 + 10) / 4.8:.0f}%"
    assert main(["vision", "watch", str(folder), *WATCH[:-1], tray]) == 0
    out = capsys.readouterr().out
    assert "settled" in out and "the dice look out of focus" in out, out


def test_a_sharpness_just_short_is_never_shown_as_enough() -> None:
    """Rounded, 0.148 read "sharpness 0.15; a focused picture gives 0.15 or more"."""
    assert "(sharpness 0.14; a focused picture gives 0.15 or more)" in vision.watch._blurred_text(0.148)
    assert vision.watch._short_of(0.199) == "0.19" and vision.watch._short_of(0.07) == "0.07"


def test_a_deep_camera_frame_is_converted_once(monkeypatch, capsys) -> None:
    """A 16-bit frame was scaled to 8 bits three times over (the readers, the faults, the check for use): at
    12 megapixels half a second a frame where one conversion takes a sixth."""
    rng = np.random.default_rng(0)
    deep = (rng.random((480, 640, 3)) * 4000).astype(np.uint16)
    camera_gives(monkeypatch, [deep] * 4)
    calls: list[tuple[int, ...]] = []
    real = vision.frames.to_uint8

    def counted(frame: np.ndarray) -> np.ndarray:
        calls.append(frame.shape)
        return real(frame)

    monkeypatch.setattr(vision.frames, "to_uint8", counted)
    for reader, extra in (("dice", []), ("dice", ["--every-frame"]), ("cards", []), ("temple-die", [])):
        calls.clear()
        camera_gives(monkeypatch, [deep] * 4)
        tray = "whole" if reader == "cards" else "0.2,0.2,0.8,0.8"  # the cards are read over the whole picture
        assert main(["vision", "watch", "0", "--reader", reader, *extra, *WATCH[:-1], tray]) == 0
        assert calls == [(480, 640, 3)] * 4, (reader, extra, calls)  # the whole frame, once: its white level
    capsys.readouterr()


# ---------------------------------------------------------------- a day of a stream that keeps dropping


def test_sources_reopened_all_day_are_not_all_kept(monkeypatch, capsys) -> None:
    """Each reopening of a stream that dropped was kept to the end of watch (2 kB apiece, every 2 s all day)."""
    alive: list[weakref.ref] = []
    most = 0

    class Drops:
        name, live, finished = "stream", True, False

        def read(self) -> np.ndarray | None:
            raise SourceError("stream stopped sending frames (camera off, or network down)")

        def close(self) -> None:
            pass

    def reopen(spec: str) -> Drops:
        nonlocal most
        source = Drops()
        alive.append(weakref.ref(source))
        most = max(most, sum(ref() is not None for ref in alive))
        return source

    monkeypatch.setattr(vision.watch, "open_source", reopen)
    monkeypatch.setattr(vision.watch, "RetryingSource", functools.partial(RetryingSource, retry_seconds=0.0))
    assert main(["vision", "watch", "http://camera.invalid/video", "--timeout", "0.5", *WATCH]) == 1
    out = capsys.readouterr().out
    # Only a few reopenings are needed to tell "kept" from "let go"; a loaded machine manages about 20 in 0.5 s.
    assert len(alive) >= 5 and most <= 2, (len(alive), most)
    assert out.count("source problem: stream stopped sending frames") == 1  # said once, not every reopening
