"""The dispute screen as a referee uses it at a noisy table: what the empty field says, what Enter does.

The field's placeholder was '{"type": "move", ...}', JSON a café's referee
had never seen, and Enter on a keyboard plugged in put a new line in the
action (the field wraps a long one) instead of asking the question.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from kivy.core.window import Window

from tests.ui import test_portrait
from tests.ui.conftest import advance, tap
from tests.ui.test_app import button
from ui.shots import mid_game

window_size = test_portrait.window_size

ROLL_7 = {"type": "roll", "value": 7}  # the oracle "showed 7": refused with BP-Q5, the oracle's faces


def dispute_of(app: Any) -> Any:
    """The table's Dispute tapped: the dispute screen."""
    tap(button(app.root.get_screen("table"), "Dispute"))
    return app.root.get_screen("dispute")


@pytest.mark.parametrize("size", [(800, 480), (480, 800)])
def test_the_empty_field_says_in_words_what_to_do(size: tuple[int, int], start: Any, window_size: Any) -> None:
    """Emptied, the field says to tap Build or type the action, in words, and names the button as it reads."""
    app = start(mid_game("blackpool"))
    window_size(size)
    dispute = dispute_of(app)
    field = dispute.ids.typed
    field.text = ""
    advance(2)
    hint = field.hint_text
    assert not set(hint) & set('{}"[]'), hint
    assert "Build" in hint and "Build" in dispute.ids.build.text and "type" in hint


@pytest.mark.parametrize("key", [13, 271])  # Return, the keypad's Enter
def test_enter_in_the_field_asks_the_question(key: int, start: Any) -> None:
    """A referee with a keyboard types the action and presses Enter: the question is asked, as Check asks it
    (NOT ALLOWED, the clause), the field keeps its one line and its focus, and the game takes no step."""
    session = mid_game("blackpool")
    before = list(session.log)
    app = start(session)
    dispute = dispute_of(app)
    field = dispute.ids.typed
    tap(field)  # focused by a real touch, as a finger or a mouse focuses it
    assert field.focus
    field.text = json.dumps(ROLL_7)
    field.cursor = (len(field.text), 0)
    Window.dispatch("on_key_down", key, 40, None, [])
    advance(2)
    assert "\n" not in field.text and field.text == json.dumps(ROLL_7)
    assert app.ruling.get("legal") is False and app.ruling.get("rules") == ["BP-Q5"], app.ruling
    assert dispute.ids.ruling.text.startswith("NOT ALLOWED") and "BP-Q5" in dispute.ids.ruling.text
    assert field.focus and session.log == before
