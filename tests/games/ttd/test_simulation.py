"""Random complete games in both profiles: contract checks plus the final recount (in ``invariants``)."""

from __future__ import annotations

import random

import pytest

from companion.registry import create
from companion.simulate import play_random_game


@pytest.mark.parametrize("profile", ["standard", "as-written"])
def test_random_games_end_cleanly(profile: str) -> None:
    game = create("ttd")
    rng = random.Random(profile)
    for count in (2, 3, 4, 5):
        players = rng.sample(list(game.colours), count)
        run = play_random_game(game, rng, players=players, profile=profile, deep_every=3)
        assert run.result is not None
        assert set(run.result["totals"]) == set(players)
        assert run.result["end"]
