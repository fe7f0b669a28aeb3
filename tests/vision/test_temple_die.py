"""Temple die: rendered faces, the teach step, and saving what was taught."""

from __future__ import annotations

import numpy as np
import pytest

from vision.temple_die import TEMPLE_VALUES, TempleDieReader, render_temple_die, top_face


@pytest.fixture(scope="module")
def taught() -> TempleDieReader:
    return TempleDieReader.from_renders(seed=1, per_face=2)


def test_reads_value_and_colour_of_rendered_faces(taught) -> None:
    rng = np.random.default_rng(7)
    right = colour_right = 0
    cases = [(v, c) for v in TEMPLE_VALUES for c in ("red", "white")]
    for value, colour in cases:
        img, _ = render_temple_die(rng, value, colour, size=(320, 240), edge=float(rng.uniform(45, 60)))
        (reading,) = taught.read(img)
        right += str(reading.value) == value
        colour_right += reading.face == colour
    assert colour_right == len(cases)
    assert right >= len(cases) - 1


def test_teach_save_load_round_trip(tmp_path) -> None:
    rng = np.random.default_rng(3)
    reader = TempleDieReader()
    assert reader.read(render_temple_die(rng, "X", "white")[0]) == []  # nothing taught yet
    for value in ("X", "4"):
        for colour in ("red", "white"):
            assert reader.teach(render_temple_die(rng, value, colour)[0], value, colour)
    reader.save(tmp_path)
    loaded = TempleDieReader.load(tmp_path)
    (reading,) = loaded.read(render_temple_die(rng, "4", "red")[0])
    assert (reading.value, reading.face) == (4, "red")


def test_no_die_in_frame(taught) -> None:
    assert taught.read(np.full((240, 320, 3), 70, np.uint8)) == []
    assert taught.read(None) == []
    assert not TempleDieReader().teach(np.full((240, 320, 3), 70, np.uint8), "1", "red")


def test_a_colour_not_taught_yet_is_still_seen() -> None:
    rng = np.random.default_rng(6)
    reader = TempleDieReader()
    for value in ("1", "2"):
        assert reader.teach(render_temple_die(rng, value, "red")[0], value, "red")
    white = render_temple_die(rng, "4", "white")[0]
    assert reader.colour_of(top_face(white).bgr) == "white"
    reader.teach(white, "4", "white")
    assert reader.read(render_temple_die(rng, "1", "white")[0])[0].face == "white"
