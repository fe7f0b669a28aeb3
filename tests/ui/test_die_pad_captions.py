"""The temple die's pad at the table: a caption over each row of faces, read from a chair at 800x480 and upright.

The pad showed two rows of 1-7 (the X in front of the first) with nothing to say which row was which face: a
player new to the game had the buttons' paint to go by, and a white 3 beside a red 3 reads as one number twice.
"""

from __future__ import annotations

from typing import Any

import pytest
from kivy.uix.button import Button
from kivy.uix.label import Label

from tests.ui.conftest import advance
from tests.ui.drawing import words_of
from tests.ui.test_boards_robust import run_together, unreadable
from tests.ui.test_display_scale import scaled
from tests.ui.test_layout import shown_whole, window_box
from tests.ui.test_portrait import faults, window_size  # noqa: F401 (a fixture)
from ui.screens.table import FACE_COLOURS
from ui.shots import mid_game

pytestmark = pytest.mark.usefixtures("undrawn")  # sizes and places are measured, never the window's pixels


@pytest.mark.parametrize("size", [(800, 480), (480, 800)])
def test_each_row_of_the_die_pad_has_a_caption_that_reads_and_fits(
    size: tuple[int, int], start: Any, window_size: Any  # noqa: F811
) -> None:
    """Upright, the table is started at 800x480 and turned: the captions and buttons made in Python are resized
    with the rest (``TableScreen.made_here``)."""
    app = start(mid_game("temple"))
    app.show("table")
    window_size(size)
    advance(4)
    table = app.root.get_screen("table")
    pad = table.ids.die_pad
    parts = list(reversed(pad.children))  # top to bottom
    captions = [w for w in parts if isinstance(w, Label)]
    assert [c.text for c in captions] == ["Die shows white", "Die shows red"], "a row of the pad has no caption"
    rows = [w for w in parts if not isinstance(w, Label)]
    for caption, row in zip(captions, rows, strict=True):
        assert parts.index(row) == parts.index(caption) + 1, f"{caption.text!r} is not over its row"
        faces = [b for b in row.children if isinstance(b, Button)]
        colour = caption.text.rsplit(" ", 1)[1]
        assert faces and all(b.action["face"]["colour"] == colour for b in faces)
        assert all(tuple(b.tint) == FACE_COLOURS[colour][0] for b in faces), "the caption and the paint disagree"
        assert window_box(caption)[1] >= window_box(row)[3] - 0.5, f"{caption.text!r} is not over its row"
        assert shown_whole(caption, table.ids.choice_scroll), f"{caption.text!r} needs a scroll"
    assert {(b.u, b.upright) for b in table.buttons()} == {(table.u, table.portrait)}, "a button keeps the old unit"
    drawn = words_of([*captions, *table.buttons()])
    found = unreadable(drawn) + run_together(drawn) + faults(table) + [cut(c) for c in captions if cut(c)]
    assert not found, f"at {size[0]}x{size[1]}:\n" + "\n".join(found)


def cut(caption: Label) -> str:
    """What of a caption its box leaves off: a caption's texture is its box (``text_size``), so a text too wide
    ends in "..." and one too tall loses the tops of its letters, and neither shows in the texture's size."""
    width, height = caption._label.get_extents(caption.text)
    lines = len(caption._label._cached_lines)
    if width <= caption.width and height <= caption.height and lines == 1:
        return ""
    return f"{caption.text!r} needs {width}x{height} px on one line, has {caption.width:.0f}x{caption.height:.0f}"


@pytest.mark.parametrize("size", [(480, 800), (720, 1280), (800, 480), (1024, 600)], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("percent", [100, 120])
def test_the_first_card_play_under_the_die_pad_shows_whole_with_announcements_in(
    size: tuple[int, int], percent: int, start: Any, window_size: Any  # noqa: F811
) -> None:
    """The captions cost the pad 40 px upright: at 480x800 'Play the Ah Kinchil card' showed 8 of its 48 px and
    at 800x480 42 of 60, at 120% none of it, a scroll away under the commonest choice. The captions' boxes, the
    announcements (a line and a half at least) and, over 100%, the pad's and the upright frame's own size give it
    room; the faces stay a finger's size and the captions read."""
    window_size(size)
    app = start(mid_game("temple"))
    app.show("table")
    scaled(app, percent)
    table = app.root.get_screen("table")
    table.ids.announcements.text = "\n".join(["Red rolls white 3. Green 1 moves to 4, its marker. [RU-7]"] * 3)
    advance(6)
    first = next(reversed(table.ids.choices.children))
    assert first.text.startswith("Play the Ah Kinchil card")
    scroll = table.ids.choice_scroll
    assert shown_whole(first, scroll), (
        f"{first.text!r} {window_box(first)} needs a scroll in {window_box(scroll)} at {size} {percent}%"
    )
    pad = table.ids.die_pad
    faces = [b for b in table.buttons() if type(b).__name__ == "PadChoice"]
    assert len(faces) == 15 and all(shown_whole(b, scroll) for b in faces)
    assert min(b.width for b in faces) >= 40, "a die face is narrower than 40 px"
    if table.portrait:
        assert min(b.height for b in faces) >= 48, "a die face is lower than a finger"
    captions = [w for w in pad.children if isinstance(w, Label)]
    assert all(c.font_size >= 16 and not cut(c) for c in captions)
    assert table.ids.announcements_scroll.height >= 30 * table.u - 0.5, "the announcements are gone"
    assert not faults(table)
