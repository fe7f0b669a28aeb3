"""Tray areas from numpy's numbers, a settings file's null, a NaN tap; a tray cut too small to read."""

from __future__ import annotations

import json

import numpy as np
import pytest

from vision.frames import as_bgr
from vision.tray_area import TrayArea, TrayAreaRefused, TrayReader


@pytest.mark.parametrize("number", [np.float32(0.1), np.float64(0.1), np.int64(0), 0, 0.1])
def test_any_real_number_is_a_share(number: object) -> None:
    area = TrayArea(number, 0.0, 0.9, 0.8)
    assert area.left == pytest.approx(float(number)) and json.loads(json.dumps(area.as_list())) == area.as_list()
    assert TrayArea.from_corners((number, 0.0), (np.float32(0.9), np.float32(0.8))).left == pytest.approx(number)


@pytest.mark.parametrize("values", [None, "0.1,0.2,0.8,0.9", {"left": 0.1}, 4])
def test_a_settings_value_that_is_no_list_is_refused(values: object) -> None:
    with pytest.raises(TrayAreaRefused, match="list of four numbers"):
        TrayArea.from_list(values)  # type: ignore[arg-type]


@pytest.mark.parametrize("corner", [(float("nan"), 0.5), (0.5, float("inf")), None, (0.5,), ("a", 0.5), (True, 0.5)])
def test_a_corner_that_is_no_point_is_refused(corner: object) -> None:
    with pytest.raises(TrayAreaRefused, match="two corners"):
        TrayArea.from_corners(corner, (0.9, 0.9))  # type: ignore[arg-type]


@pytest.mark.parametrize("view", [np.zeros((1, 1, 3), np.uint8), np.ones((5, 5), bool), np.zeros((3, 200, 3))])
def test_a_cut_too_small_to_read_reaches_the_reader_unpadded(d6_reader, view: np.ndarray) -> None:
    seen: list[object] = []

    class Spy:
        def read(self, frame: object) -> list:
            seen.append(frame)
            return d6_reader.read(frame)

    assert TrayReader(Spy()).read(view) == []
    # refused as no usable frame, not read as an empty tray
    assert len(seen) == 1 and seen[0] is view and as_bgr(view) is None
