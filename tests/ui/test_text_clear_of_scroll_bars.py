"""Words in a scrolling box end before its scroll bar, as the rulebook's and the settings' lists already did.

At 800x480 the table's announcements wrapped to the box's full width less a 4 px margin, and their 8 px bar
lies over the box's right edge: "skip_change, move, stair," of a refusal had its comma under the bar. The
camera screen's note kept no margin at all.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.ui import test_portrait
from tests.ui.conftest import advance
from tests.ui.test_display_scale import scaled
from tests.ui.test_layout import window_box
from ui.shots import mid_game

pytestmark = pytest.mark.usefixtures("undrawn")  # sizes and places are measured, never the window's pixels

window_size = test_portrait.window_size

WORDS = ("unknown", "action", "type", "'nonsense';", "types:", "draw,", "roll,", "ahkinchil,", "change,",
         "skip_change,", "move,", "stair,", "order", "[RU-6]", "Red", "places", "a", "camel", "on", "(6,7).", "I")


def many_lines(seed: int = 5, words: int = 600) -> str:
    """Seeded words of announcements' kinds, enough lines that some end within a letter of the wrap width."""
    rng = random.Random(seed)
    return " ".join(rng.choice(WORDS) for _ in range(words))


def text_right(label: Any) -> float:
    """Where the label's widest wrapped line ends, in window coordinates (its lines start at its left padding)."""
    label.texture_update()
    widest = max(line.w for line in label._label._cached_lines)
    return window_box(label)[0] + label.padding[0] + widest


def bar_left(scroll: Any) -> float:
    return window_box(scroll)[2] - scroll.bar_width


@pytest.mark.parametrize("size", [(800, 480), (480, 800)])
def test_the_announcements_end_before_their_scroll_bar(size: tuple[int, int], start: Any, window_size: Any) -> None:
    window_size(size)
    app = start(mid_game("ttd"))
    table = app.root.get_screen("table")
    for percent in (100, 120):
        scaled(app, percent)
        table.ids.announcements.text = many_lines()
        advance(4)
        scroll = table.ids.announcements_scroll
        assert table.ids.announcements.height > scroll.height, "the box no longer scrolls: no bar to clear"
        assert text_right(table.ids.announcements) <= bar_left(scroll), (size, percent)


@pytest.mark.parametrize("size", [(800, 480), (480, 800)])
def test_the_camera_note_ends_before_its_scroll_bar(size: tuple[int, int], start: Any, window_size: Any) -> None:
    window_size(size)
    app = start(mid_game("temple"))
    app.show("camera")
    advance(3)
    screen = app.root.get_screen("camera")
    for percent in (100, 120):
        scaled(app, percent)
        screen.note = many_lines(words=300)
        advance(4)
        scroll = screen.ids.note_scroll
        assert screen.ids.note.height > scroll.height, "the note no longer scrolls: no bar to clear"
        assert text_right(screen.ids.note) <= bar_left(scroll), (size, percent)

