"""An empty frame is not turned into nothing."""

from __future__ import annotations

import numpy as np
import pytest

from vision.frames import unusable_text
from vision.orientation import Orientation


@pytest.mark.parametrize(("turn", "mirror"), [(90, False), (180, False), (270, True), (0, True)])
@pytest.mark.parametrize("shape", [(0, 0, 3), (0, 640, 3), (480, 0)])
def test_an_empty_frame_passes_as_it_came(turn: int, mirror: bool, shape: tuple) -> None:
    empty = np.zeros(shape, np.uint8)
    assert Orientation(turn, mirror).apply(empty) is empty
    assert "uint8" in unusable_text(Orientation(turn, mirror).apply(empty))
