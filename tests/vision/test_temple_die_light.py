"""The light's colour and the temple die's: a warm lamp over the table made the white face look red.

The temple camera sees the board as well as the die, and the paper round the board's markers shows the light's
colour: the face's colour is taken as white light would show it.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.vision.test_temple_die import board_and_tray
from vision.markers import coarse_markers, paper_white
from vision.teaching import teach_die_face
from vision.temple_die import TempleDieReader, die_faces, top_face, white_balanced
from vision.temple_die_render import render_temple_die

TUNGSTEN = (0.55, 0.85, 1.3)  # BGR gains: a bulb's warm light, the camera's white balance fixed for daylight


def lit(frame: np.ndarray, gains: tuple[float, float, float]) -> np.ndarray:
    return np.clip(frame.astype(np.float32) * np.array(gains, np.float32), 0, 255).astype(np.uint8)


def test_under_a_warm_lamp_every_face_reads_its_own_colour_and_value() -> None:
    """Untaught, the reader holds colours as the renders show them in white light. Of these 45 faces under the
    lamp, 35 read their colour right before (white faces read red) and 42 their value; 45 and 45 now."""
    reader = TempleDieReader.from_renders()
    wrong = []
    for index, (value, colour) in enumerate(sorted(die_faces()) * 3):
        (reading,) = reader.read(lit(board_and_tray(value, colour, seed=100 + index)[0], TUNGSTEN))
        if (str(reading.value), reading.face) != (value, colour):
            wrong.append((value, colour, reading.value, reading.face))
    assert wrong == []


def test_the_paper_round_the_markers_shows_the_lights_colour() -> None:
    frame, _ = board_and_tray("3", "white")
    gains = (0.5, 0.7, 0.9)  # no channel clipped
    white = paper_white(lit(frame, gains), coarse_markers(lit(frame, gains)))
    assert white is not None
    assert white / white[2] == pytest.approx(np.array(gains) / gains[2], rel=0.05)


def test_without_two_markers_in_view_the_face_is_taken_as_seen() -> None:
    image, _ = render_temple_die(np.random.default_rng(4), "5", "white", edge=90)
    assert coarse_markers(image) == {} and paper_white(image, {}) is None
    face = top_face(image)
    assert face is not None
    assert white_balanced(image, None) is image


def test_a_die_taught_by_day_reads_its_colours_under_the_evening_lamp(tmp_path: Path) -> None:
    """Taught with the board in view, the colours kept are white light's, so they hold when the light changes: 11
    of the 15 faces read their colour right under the lamp before, 15 now."""
    for value, colour in (("4", "red"), ("6", "white")):
        teach_die_face(board_and_tray(value, colour, seed=7)[0], value, colour, tmp_path)
    taught = TempleDieReader.load(tmp_path)
    assert set(taught.colours) == {"red", "white"}
    for index, (value, colour) in enumerate(sorted(die_faces())):
        (reading,) = taught.read(lit(board_and_tray(value, colour, seed=50 + index)[0], TUNGSTEN))
        assert reading.face == colour, (value, colour)
