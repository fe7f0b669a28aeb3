"""`vision watch` on a camera whose picture changes size mid-stream says what the table's feed does with the dice.

The feed keeps a die lying there through a picture scaled, and names it, not takes it, in a picture of another
shape (`CameraFeed._resized`, tests/vision/test_settle_robust.py); `watch` said "the table would take it" of the
die that never moved.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from tests.vision.test_feed import die_at, tumbling
from tests.vision.test_settle_robust import resized
from vision.cli import main

WATCH = ["--turn", "0", "--no-mirror", "--mains", "0", "--tray", "whole"]  # whatever a settings file says


def folder_of(tmp_path: Path, frames: list[np.ndarray]) -> Path:
    folder = tmp_path / "camera"
    folder.mkdir()
    for index, frame in enumerate(frames):
        cv2.imwrite(str(folder / f"{index:03d}.png"), frame)
    return folder


def settled_lines(out: str) -> list[str]:
    return [line.split(": ", 1)[1] for line in out.splitlines() if "settled" in line]


def test_a_die_lying_still_while_the_picture_takes_another_shape_is_no_roll(tmp_path: Path, capsys) -> None:
    still = die_at(1)
    frames = [*tumbling(7), *[still] * 6, *resized([still] * 6, 800, 480)]
    assert main(["vision", "watch", str(folder_of(tmp_path, frames)), *WATCH]) == 0
    said = settled_lines(capsys.readouterr().out)
    assert len(said) == 2 and said[0].endswith("the table would take it"), said
    assert said[1].endswith("it lay in view when the picture changed size (640x480 to 800x480), so the table "
                            "would not take it as a roll (roll to play)"), said


def test_a_roll_after_the_picture_took_another_shape_is_still_a_roll(tmp_path: Path, capsys) -> None:
    frames = [*tumbling(7), *[die_at(1)] * 6, *resized([die_at(1)] * 6 + tumbling(8) + [die_at(2)] * 6, 800, 480)]
    assert main(["vision", "watch", str(folder_of(tmp_path, frames)), *WATCH]) == 0
    said = settled_lines(capsys.readouterr().out)
    assert len(said) == 3 and said[2].endswith("the table would take it"), said
    assert "not take it as a roll" in said[1]


def test_a_die_lying_still_in_a_picture_only_scaled_keeps_its_place(tmp_path: Path, capsys) -> None:
    """A hand passing over it afterwards is no roll either: its boxes were compared unscaled."""
    from tests.vision.test_feed import hand_over

    still = die_at(1)
    frames = [*tumbling(7), *[still] * 6, *resized([still] * 4 + hand_over(still) + [still] * 8, 320, 240)]
    assert main(["vision", "watch", str(folder_of(tmp_path, frames)), *WATCH]) == 0
    said = settled_lines(capsys.readouterr().out)
    assert said[0].endswith("the table would take it") and len(said) == 2, said
    assert said[1].endswith("the same dice where they lay: not a new roll"), said
