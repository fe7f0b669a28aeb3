"""Random taps on whatever each screen shows never raise and never corrupt the game.

A café kiosk is tapped by people who have not read anything. This walks the
real app in a real (offscreen) window: it taps a random enabled button or
toggle on the current screen or a random point of the board, now and then
types a random line into a text field and presses Enter, and sometimes jumps
to another screen, as the menu would. A callback that raises would escape the event loop here, as it would
close the app on the table.

Every screen is tapped on: each game's walk is put on each screen in turn for a few steps (`STEPS_ON_EACH`).
Sixty steps left to chance jumps missed screens in four of the five games (Targi's walk never reached home
or settings, the desert race's never settings), in more steps than these 40.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.textinput import TextInput

from companion.registry import create, game_classes
from companion.session import Session
from companion.simulate import random_players
from tests.ui.conftest import advance, tap, tap_at

TYPED = ["", "4", "X", "roll 3", "99", "-1", '"roll"', '{"type": "roll", "value": 4}', "{roll", "x" * 200, "é€"]
SCREENS = ["table", "dispute", "rulebook", "settings", "home"]
STEPS_ON_EACH = 8

# Undrawn: the app's callbacks run at a touch's dispatch and the clock's tick; the window's drawing runs none of
# them (no canvas Callback), and no pixel is read here.
pytestmark = pytest.mark.usefixtures("undrawn")


def tappable(app: Any) -> list[Any]:
    found: list[Any] = []

    def walk(widget: Any) -> None:
        for child in widget.children:
            walk(child)
        if isinstance(widget, ButtonBehavior | TextInput) and not widget.disabled and widget.get_root_window():
            found.append(widget)

    walk(app.root.current_screen)
    return found


@pytest.mark.parametrize("game_id", sorted(game_classes()))
def test_random_taps_never_raise_and_keep_the_game_whole(game_id: str, start: Any) -> None:
    rng = random.Random(f"taps-{game_id}")
    app = start(Session.new(game_id, random_players(create(game_id), rng)), kiosk=game_id == "temple")
    app.stop = lambda *_args: None  # Exit ends a real run; here the taps go on
    tapped_on: set[str] = set()
    for step in range(STEPS_ON_EACH * len(SCREENS)):
        if step % STEPS_ON_EACH == 0:
            app.show(SCREENS[step // STEPS_ON_EACH])
            advance(2)
        widgets = tappable(app)
        if not widgets or rng.random() < 0.05:
            app.show(rng.choice(SCREENS))
            advance(2)
            continue
        widget = rng.choice(widgets)
        tapped_on.add(app.root.current)
        if app.root.current == "table" and rng.random() < 0.25:  # anywhere on the board: its places list choices
            board = app.root.get_screen("table").ids.board
            tap_at(board, board.x + rng.uniform(0, board.width), board.y + rng.uniform(0, board.height))
        elif isinstance(widget, TextInput):
            widget.text = rng.choice(TYPED)
            widget.dispatch("on_text_validate")
            advance(2)
        else:
            tap(widget)
        session = app.controller.session
        if session is not None:
            assert session.game.from_document(session.document()) == session.state
    assert set(SCREENS) <= tapped_on, tapped_on
