"""The Desert Vortex's choices that hurt say so, and still read whole on their buttons at 800x480 and 480x800."""

from __future__ import annotations

from typing import Any

import pytest

from companion.games.desert.board import CLOAK, COMPASS
from companion.registry import create
from companion.session import Session
from tests.games.desert.helpers import B, act, draw, position
from tests.ui.conftest import advance, tap, tap_at
from tests.ui.test_layout import lines_of, shown_whole, text_height
from tests.ui.test_pointing import spot_of
from tests.ui.test_portrait import window_size  # noqa: F401  (a fixture)

# What being sent onto Sandstorm Wall costs Purple, by Lives and cards held: each said in the button's last lines.
COSTS = [
    (5, [CLOAK, COMPASS], "Purple loses the Cloak, or 2 Lives and goes back"),
    (5, [COMPASS], "Purple loses 2 Lives, back to Desert Dawn (0)"),
    (2, [COMPASS], "Purple loses the last 2 Lives: out, cards and all"),
    (1, [], "Purple loses the last Life: out this round"),
    (2, [CLOAK], "Purple loses the Cloak, or is out this round"),
]


def vortex_on(lives: int, items: list[str]) -> Session:
    """Purple (the longest colour name) draws the Desert Vortex; Pink, with most Lives, chooses where it goes."""
    house = create("desert")
    state = position(house, {"purple": {"space": 4, "lives": lives, "items": items}, B: {"lives": 8}},
                     step={"kind": "draw", "mode": "mystery"}, turn="purple", players=("purple", B))
    state, _ = act(house, state, draw("mystery", "desert_vortex"))
    return Session(house, house.to_document(state), state)


@pytest.mark.parametrize(("lives", "items", "cost"), COSTS)
def test_a_vortex_choice_onto_a_scared_space_says_what_it_costs_and_fits(
    lives: int, items: list[str], cost: str, start: Any, window_size: Any  # noqa: F811
) -> None:
    """'Send Purple to Sandstorm Wall (16, scared)' did not say Purple then loses 2 Lives and runs back to Desert
    Dawn, or is out for the round, unless the Mirage Cloak is spent (DR-12, DR-26, DR-6, DR-Q18). With the cost
    said, the button a tap on the space opens reads whole in three lines at most and shows without scrolling,
    and so do the three scared ones in the full list, at 800x480 and upright."""
    longest = f"Send Purple to Sandstorm Wall (16, scared): {cost}"
    session = vortex_on(lives, items)
    assert longest in [a["text"] for a in session.legal()]
    app = start(session)
    table = app.root.get_screen("table")
    board = table.ids.board
    for size in ((800, 480), (480, 800)):
        window_size(size)
        tap_at(board, *spot_of(board, "sandstorm_wall"))
        advance(3)
        (button,) = table.buttons()
        assert button.text == longest, size
        assert lines_of(button) <= 3, (size, lines_of(button))
        assert text_height(button) <= button.height, size
        assert shown_whole(button, table.ids.choice_scroll), size
        tap(table.ids.go_back)
        tap(table.ids.list_all)
        advance(3)
        costly = [b for b in table.buttons() if "loses" in b.text]
        assert len(costly) == 3, size
        for long in costly:
            assert lines_of(long) <= 3, (size, long.text, lines_of(long))
            assert text_height(long) <= long.height, (size, long.text)
        tap(table.ids.go_back)

