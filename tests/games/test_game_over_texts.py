"""Every game's last screen names who won: "The game is over." alone left a table to work it out."""

from __future__ import annotations

import random

import pytest

from companion.registry import game_classes
from companion.session import Session


@pytest.mark.parametrize("game_id", ["blackpool", "desert", "targi", "temple", "ttd"])
def test_the_over_prompt_names_the_winner_and_starts_with_a_capital(game_id: str) -> None:
    cls = game_classes()[game_id]
    session = Session.new(game_id, list(cls.colours[:2]))
    rng = random.Random(2)
    for _ in range(20000):
        if session.pending().is_over:
            break
        session.act(session.game.sim_choose(session.state, session.legal(), rng))
    pending = session.pending()
    assert pending.is_over
    result = pending.result or {}
    winners = result.get("winners") or ([result["winner"]] if result.get("winner") else [])
    assert winners or "draw" in pending.text
    assert all(w.capitalize() in pending.text for w in winners), pending.text
    assert pending.text[0].isupper()
