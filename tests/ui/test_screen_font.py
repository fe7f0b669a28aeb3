"""The validator's table of characters the screen can draw is the font the screen really draws with."""

from __future__ import annotations

import struct
from pathlib import Path

import kivy
import pytest

from companion.screen_font import ROBOTO_RANGES

FONTS = Path(kivy.__file__).parent / "data" / "fonts"


def character_map(font: Path) -> set[int]:
    """The code points a TrueType font maps to a glyph, read from its ``cmap`` formats 4 and 12."""
    data = font.read_bytes()
    tables = {}
    for i in range(struct.unpack(">H", data[4:6])[0]):
        tag, _, offset, _ = struct.unpack(">4sIII", data[12 + 16 * i : 28 + 16 * i])
        tables[tag] = offset
    base = tables[b"cmap"]
    found: set[int] = set()
    for i in range(struct.unpack(">H", data[base + 2 : base + 4])[0]):
        _, _, offset = struct.unpack(">HHI", data[base + 4 + 8 * i : base + 12 + 8 * i])
        t = base + offset
        kind = struct.unpack(">H", data[t : t + 2])[0]
        if kind == 4:
            double = struct.unpack(">H", data[t + 6 : t + 8])[0]
            n = double // 2
            ends = struct.unpack(f">{n}H", data[t + 14 : t + 14 + double])
            starts = struct.unpack(f">{n}H", data[t + 16 + double : t + 16 + 2 * double])
            deltas = struct.unpack(f">{n}h", data[t + 16 + 2 * double : t + 16 + 3 * double])
            at = t + 16 + 3 * double
            offsets = struct.unpack(f">{n}H", data[at : at + double])
            for k in range(n):
                for code in range(starts[k], min(ends[k], 0xFFFE) + 1):
                    if offsets[k] == 0:
                        glyph = (code + deltas[k]) & 0xFFFF
                    else:
                        where = at + 2 * k + offsets[k] + 2 * (code - starts[k])
                        glyph = struct.unpack(">H", data[where : where + 2])[0]
                        glyph = (glyph + deltas[k]) & 0xFFFF if glyph else 0
                    if glyph:
                        found.add(code)
        elif kind == 12:
            for k in range(struct.unpack(">I", data[t + 12 : t + 16])[0]):
                first, last, _ = struct.unpack(">III", data[t + 16 + 12 * k : t + 28 + 12 * k])
                found.update(range(first, last + 1))
    return found


@pytest.mark.parametrize("face", ["Roboto-Regular.ttf", "Roboto-Bold.ttf"])
def test_the_table_of_drawable_characters_is_the_screen_fonts_own(face: str) -> None:
    listed = {code for first, last in ROBOTO_RANGES for code in range(first, last + 1)}
    assert character_map(FONTS / face) == listed
