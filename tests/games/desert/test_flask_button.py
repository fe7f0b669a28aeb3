"""The Desert Flask's button as a first-time table reads it before the tap.

It said "Redeem Desert Flask (+2 Lives, now 5)": "now 5" read as the Lives after the tap, as often as the
Lives before it. The button now says the change as the announcement that follows it does."""

from __future__ import annotations

import pytest

from companion.games.desert.board import FLASK
from tests.games.desert.helpers import A, act, game_b, position, roll

GAME = game_b()


@pytest.mark.parametrize(("lives", "text", "said"), [
    (3, "Redeem Desert Flask: from 3 to 5 Lives", "Desert Flask: Black goes from 3 to 5 Lives."),
    (9, "Redeem Desert Flask: from 9 to 10 Lives (10 at most)",
     "Desert Flask: Black goes from 9 to 10 Lives (capped at 10; 1 ignored)."),
    (10, "Redeem Desert Flask: Lives stay at 10, the most", "Desert Flask: Black stays at 10 Lives (capped at 10; "
     "2 ignored)."),
])
def test_the_flask_button_says_the_lives_before_and_after(lives: int, text: str, said: str) -> None:
    state = position(GAME, {A: {"space": 0, "lives": lives, "items": [FLASK]}})
    state, _ = act(GAME, state, roll(1))
    flask = [a for a in GAME.legal_actions(state) if a["type"] == "use"]
    assert [a["text"] for a in flask] == [text]
    _, events = act(GAME, state, flask[0])
    assert said in [e.text for e in events]
