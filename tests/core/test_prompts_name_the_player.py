"""Every prompt waiting on one player names that player, in all five games, as a first game reads the table.

Targi's "Turn up the top of the goods deck and enter it." (after the Caravan, the Tribal Expansion or a
face-down centre card) was the one prompt with a player to act that named nobody: the table asked whose card
it was. Seeded games played to their end, each prompt read."""

from __future__ import annotations

import random

import pytest

from companion.registry import game_infos
from companion.session import Session

SEEDS = range(3)


@pytest.mark.parametrize("game_id", sorted(game_infos()))
def test_a_prompt_waiting_on_a_player_names_them(game_id: str) -> None:
    info = game_infos()[game_id]
    players = list(info.colours[: min(info.max_players, 3)])
    nameless: dict[str, str] = {}
    asked = 0
    for seed in SEEDS:
        session = Session.new(game_id, players)
        rng = random.Random(seed)
        for _ in range(700):
            pending = session.pending()
            if pending.is_over:
                break
            if pending.player:
                asked += 1
                if pending.player.capitalize() not in pending.text:
                    nameless.setdefault(pending.text[:50], pending.player)
            session.act(session.game.sim_choose(session.state, session.legal(), rng))
    assert asked > 100
    assert not nameless, nameless
