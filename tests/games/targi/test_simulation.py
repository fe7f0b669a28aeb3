"""Random complete games: every final score equals an independent recount from the final position."""

from __future__ import annotations

import random

import pytest

from companion.game import normalize_action
from companion.games.targi.recount import recount
from companion.simulate import play_random_game
from tests.games.targi.helpers import game


@pytest.mark.parametrize("profile", ["standard", "as-written"])
def test_random_games_end_and_scores_match_the_recount(profile: str) -> None:
    g = game()
    rng = random.Random(11)
    endings = set()
    for _ in range(12):
        run = play_random_game(g, rng, profile=profile, deep_every=13)
        assert run.result is not None and set(run.result["scores"]) == set(run.players)
    # replay a few by hand to look at the final position itself
    for seed in range(4):
        rng = random.Random(seed)
        s = g.setup(["white", "black"], g.resolve_options({}, profile))
        while g.pending(s).kind != "over":
            s, _ = g.apply(s, normalize_action(g.sim_choose(s, g.legal_actions(s), rng)))
        endings.add("display" if s.ender else "robber")
        assert recount(g.to_document(s), g.data.files) == g.pending(s).result["scores"]
        assert s.round <= 12
    assert "robber" in endings


def test_options_off_the_beaten_track_also_play_out() -> None:
    g = game()
    rng = random.Random(3)
    options = {"raid.partialPayment": True, "fataMorgana.allowFaceDown": True, "limits.applyAtGameEnd": False,
               "end.finishOwnActions": False, "tribe.reshuffle": False}  # fmt: skip
    for _ in range(10):
        s = g.setup(["black", "white"], g.resolve_options(options, None))
        steps = 0
        while g.pending(s).kind != "over":
            a = normalize_action(g.sim_choose(s, g.legal_actions(s), rng))
            s, events = g.apply(s, a)
            assert all(e.rules and all(r in g.rulebook for r in e.rules) for e in events)
            assert not g.invariants(s)
            steps += 1
            assert steps < 3000
