"""The settings screen says what the camera was taught and when, and Clear sets it aside: real files, a real window.

The teach steps said what they stored only as they stored it; nothing showed it afterwards, and clearing it took a
shell on the table.
"""

from __future__ import annotations

import json
import os
from datetime import datetime
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from tests.ui import test_portrait
from tests.ui.conftest import advance, open_settings, tap
from vision.taught import NOTHING_TAUGHT

window_size = test_portrait.window_size  # the fixture that turns the window, and back to 800x480 after

pytestmark = pytest.mark.usefixtures("undrawn")  # texts and states are read, never the window's pixels

WHEN = datetime(2026, 12, 5, 14, 2).timestamp()


def teach(folder: Path) -> None:
    """A die taught 4 once and X twice, and photos of P07 and P12, as the teach steps name and store them."""
    folder.mkdir(parents=True)
    glyph = np.zeros((4, 4)).tolist()
    (folder / "temple_die.json").write_text(json.dumps(
        {"glyphs": {"X": [glyph, glyph], "4": [glyph]}, "colours": {"red": [[40, 40, 200]]}}))
    for name in ("P07__0.png", "P12__1.png"):
        assert cv2.imwrite(str(folder / name), np.full((60, 40, 3), 200, np.uint8))
    for path in folder.iterdir():
        os.utime(path, (WHEN, WHEN))


def test_what_was_taught_and_when_shows_and_clear_sets_it_aside(start: Any, taught_dir_of_the_test: Path) -> None:
    teach(taught_dir_of_the_test)
    app = start()
    screen = open_settings(app)
    assert screen.ids.taught.text == (
        f"Taught: the die's 4 and X (3 faces); 2 card photos (P07, P12); last on "
        f"{datetime.fromtimestamp(WHEN):%a %d %b %Y at %H:%M}.")
    assert not screen.ids.clear_taught.disabled
    tap(screen.ids.clear_taught)  # the first tap only asks
    assert screen.ids.note.text.startswith("Tap Clear again to stop using everything taught")
    assert (taught_dir_of_the_test / "temple_die.json").exists()
    tap(screen.ids.clear_taught)
    assert not taught_dir_of_the_test.exists()
    (kept,) = taught_dir_of_the_test.parent.glob("taught.cleared-*")
    assert sorted(p.name for p in kept.iterdir()) == ["P07__0.png", "P12__1.png", "temple_die.json"]
    assert screen.ids.note.text.startswith(f"Cleared: what was taught is kept aside as {kept};")
    advance(2)
    assert screen.ids.taught.text == NOTHING_TAUGHT and screen.ids.clear_taught.disabled


def test_a_taught_die_file_that_cannot_be_read_says_so(start: Any, taught_dir_of_the_test: Path) -> None:
    taught_dir_of_the_test.mkdir(parents=True)
    (taught_dir_of_the_test / "temple_die.json").write_text('{"glyphs": [1, 2')  # cut short
    screen = open_settings(start())
    assert screen.ids.taught.text.startswith(
        "Taught: the die's file cannot be read (JSONDecodeError), so the die is read by its drawings; last on ")



def test_upright_the_row_is_there_only_while_something_is_taught(start: Any, window_size: Any,
                                                                 taught_dir_of_the_test: Path) -> None:
    """Upright every other setting fills 800 px: the row comes in with something taught, and leaves once cleared."""
    window_size((480, 800))
    teach(taught_dir_of_the_test)
    screen = open_settings(start())
    assert screen.portrait and screen.ids.taught_row.parent is not None
    tap(screen.ids.clear_taught)
    tap(screen.ids.clear_taught)
    advance(2)
    assert screen._taught_row.parent is None and not taught_dir_of_the_test.exists()
