"""The colour distance the data validator measures café colours with."""

from __future__ import annotations

import pytest

from companion.colours import APART, PIECE_RGB, ciede2000, delta_e, hex_code, hex_rgb, lab


@pytest.mark.parametrize(
    ("one", "two", "expected"),
    [  # pairs 1, 7, 14, 17, 19 and 25 of Sharma, Wu and Dalal's published CIEDE2000 test data
        ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
        ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
        ((50.0, 2.49, -0.001), (50.0, -2.49, 0.0011), 7.2195),
        ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
        ((50.0, 2.5, 0.0), (50.0, 3.1736, 0.5854), 1.0),
        ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ],
)
def test_ciede2000_matches_the_published_test_data(one: tuple, two: tuple, expected: float) -> None:
    assert ciede2000(one, two) == pytest.approx(expected, abs=1e-4)
    assert ciede2000(two, one) == pytest.approx(expected, abs=1e-4)


def test_srgb_is_converted_to_lab_with_the_d65_white() -> None:
    assert lab((1, 1, 1)) == pytest.approx((100, 0, 0), abs=1e-3)
    assert lab((1, 0, 0)) == pytest.approx((53.2408, 80.0925, 67.2032), abs=1e-3)


def test_the_player_colours_stay_apart_from_each_other() -> None:
    """The bar a café's colour must clear is one the app's own piece colours clear."""
    names = [n for n in PIECE_RGB if n != "gray"]
    closest = min(delta_e(PIECE_RGB[a], PIECE_RGB[b]) for i, a in enumerate(names) for b in names[i + 1 :])
    assert closest >= APART


def test_hex_codes_read_and_write_back() -> None:
    assert hex_code(hex_rgb("#E62626")) == "#e62626"
    assert hex_rgb("#e6262") is None and hex_rgb("e62626#") is None and hex_rgb(None) is None
