"""The Rules screen names the game whose rules it lists.

It showed a search field and clauses and no game: Targi's and the temple's
both have a "Ties", and a referee opening Rules from the dispute of one table
could not tell from the screen which rulebook lay before them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.registry import create
from tests.ui import test_portrait
from tests.ui.conftest import advance
from tests.ui.test_home_settings_portrait import faults
from tests.ui.test_layout import text_height, window_box
from tests.ui.test_other_screens_portrait import READABLE, shown

pytestmark = pytest.mark.usefixtures("undrawn")  # texts, sizes and states are read, never the window's pixels

window_size = test_portrait.window_size


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
@pytest.mark.parametrize("game", ["desert", "temple", "targi"])  # the two longest titles, the longest rulebook
def test_the_rules_screen_names_its_game_whole_and_readable(
    game: str, size: tuple[int, int], window_size: Any, start: Any, tmp_path: Path
) -> None:
    window_size(size)
    screen = shown(start, game, "rulebook")
    heading = screen.ids.heading
    title = create(game).title
    assert heading.text == f"Rules of {title}"
    assert heading.font_size >= READABLE, f"{heading.font_size:.1f} px"
    assert heading.height >= text_height(heading) - 1, "the game's name is cut"
    left, bottom, right, top = window_box(heading)
    assert left >= 0 and right <= size[0] and top <= size[1] and bottom >= window_box(screen.ids.query)[3]
    found = faults(screen, scrolling=(screen.ids.scroll,))
    assert not found, "\n".join(found)
    screen.ids.query.text = "tied"
    advance(3)
    assert heading.text == f"Rules of {title}" and "clause" in screen.ids.count.text
    screen.export_to_png(str(tmp_path / f"{game}-rulebook-{size[0]}x{size[1]}.png"))
