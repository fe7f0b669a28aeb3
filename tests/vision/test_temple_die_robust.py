"""The temple die reader on strips, grey pictures and teach steps told something the die has not."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.observations import CONFIRM_BELOW
from vision.settle import dice_settler
from vision.temple_die import TempleDieReader, top_face
from vision.temple_die_render import render_temple_die


@pytest.fixture(scope="module")
def taught() -> TempleDieReader:
    return TempleDieReader.from_renders(per_face=1)


@pytest.mark.parametrize("shape", [(8, 100000, 3), (100000, 8, 3), (9, 3000, 3)])
def test_a_strip_too_thin_for_a_die_reads_none(taught, shape: tuple) -> None:
    assert taught.read(np.full(shape, 128, np.uint8)) == []


def test_a_grey_picture_s_colour_is_asked_not_taken(taught) -> None:
    die, _ = render_temple_die(np.random.default_rng(6), "4", "red")
    (coloured,) = taught.read(die)
    assert (coloured.value, coloured.face) == (4, "red") and coloured.confidence >= CONFIRM_BELOW
    grey = cv2.cvtColor(die, cv2.COLOR_BGR2GRAY)
    yuyv = np.dstack([grey, np.full_like(grey, 128)])
    for frame in (grey, grey[:, :, None], yuyv, cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR)):
        (reading,) = taught.read(frame)
        assert reading.value == 4 and reading.confidence < CONFIRM_BELOW
    settler = dice_settler(taught)
    (settled,) = [s for s in (settler.feed(grey) for _ in range(5)) if s]
    assert settled.needs_confirm


@pytest.mark.parametrize(("value", "colour"), [
    (["r"], "red"), ("3", ["r"]), (None, "red"), ("3", None), ("8", "red"), ("3", "blue"), (True, "red"),
])
def test_a_face_the_die_has_not_is_refused_and_nothing_is_kept(value: object, colour: object) -> None:
    reader = TempleDieReader.from_renders(per_face=1)
    image, _ = render_temple_die(np.random.default_rng(2), "3", "red")
    face = top_face(image)
    kept = ({v: len(g) for v, g in reader.examples.items()}, {c: len(b) for c, b in reader.colours.items()},
            len(reader._bank))
    with pytest.raises(ValueError, match="the temple die shows"):
        reader.teach(image, value, colour)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="the temple die shows"):
        reader.learn(face, value, colour)  # type: ignore[arg-type]
    assert kept == ({v: len(g) for v, g in reader.examples.items()}, {c: len(b) for c, b in reader.colours.items()},
                    len(reader._bank))
    assert reader.teach(image, 3, "red")  # a number for a value, as `learn` always took it
