"""Home's words for the order players are tapped in, where the game's own first roll picks who starts.

A new group at the desert race tapped Black, Purple and Pink under "tap their colours in turn order" and read
"Turn order: Black, Purple, Pink"; the game then opened with a roll-off, Pink went first, and the app seemed to
have ignored them. The desert race (DR-3) and the temple (RU-5) seat the players in the order tapped and let a
roll pick who starts: home says "seat order" there, as the desert race's announcement does ("play passes in
seat order"); the other three keep "turn order"."""

from __future__ import annotations

from typing import Any

import pytest
from kivy.core.text import Label as CoreLabel

from companion.registry import game_infos
from tests.ui.conftest import tap
from tests.ui.test_app import button
from tests.ui.test_first_evening import sized  # noqa: F401  (a fixture)

pytestmark = pytest.mark.usefixtures("undrawn")  # texts and sizes are read, never the window's pixels

ORDER = {"desert": "Seat order", "temple": "Seat order", "blackpool": "Turn order", "targi": "Turn order",
         "ttd": "Turn order"}


@pytest.mark.parametrize("game_id", sorted(ORDER))
def test_home_names_the_order_the_colours_are_tapped_in(start: Any, game_id: str) -> None:
    info = game_infos()[game_id]
    app = start()
    home = app.root.get_screen("home")
    tap(button(home.ids.games, info.title))
    low, high = info.min_players, info.max_players
    count = str(low) if low == high else f"{low}-{high}"
    assert home.ids.limits.text == f"{count} players: tap their colours in {ORDER[game_id].lower()}"
    tap(home.ids.start)
    assert f"tap a colour for each player, in {ORDER[game_id].lower()}, then Start new game." in home.ids.note.text
    picked = [colour.capitalize() for colour in info.colours[:2]]
    for colour in picked:
        tap(button(home.ids.colours, colour))
    assert home.ids.turn_order.text == f"{ORDER[game_id]}: {', '.join(picked)}"


@pytest.mark.parametrize("size", [(800, 480), (480, 800)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_six_desert_players_in_seat_order_read_whole(start: Any, sized: Any, size: tuple[int, int]) -> None:  # noqa: F811
    sized(size)
    app = start()
    home = app.root.get_screen("home")
    tap(button(home.ids.games, game_infos()["desert"].title))
    for colour in game_infos()["desert"].colours:
        tap(button(home.ids.colours, colour.capitalize()))
    for label in (home.ids.limits, home.ids.turn_order):
        probe = CoreLabel(text=label.text, font_size=label.font_size)  # the whole line, unshortened
        probe.refresh()
        assert probe.texture.size[0] <= label.width, label.text
    tap(home.ids.start)
    assert app.root.current == "table"
    assert app.controller.session.pending().text == "Order roll-off: Black rolls the die (highest goes first)."
