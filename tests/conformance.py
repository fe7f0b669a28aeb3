"""Contract checks every registered game must pass; used by tests/core/test_conformance.py."""

from __future__ import annotations

import json
import random

from companion.game import Game, Pending, normalize_action
from companion.simulate import play_random_game


def assert_game_conforms(game: Game, seeds: range = range(20)) -> None:
    meta = game.metadata()
    json.dumps(meta)
    for seed in seeds:
        run = play_random_game(game, random.Random(seed), deep_every=1)
        assert run.result is not None


def assert_document_round_trips(game: Game, state: object) -> None:
    document = json.loads(json.dumps(game.to_document(state)))
    assert game.from_document(document) == state


def assert_pending(pending: Pending, kind: str, player: str | None = None) -> None:
    assert pending.kind == kind, pending
    if player is not None:
        assert pending.player == player, pending


def act(game: Game, state: object, action: dict) -> tuple[object, list]:
    return game.apply(state, normalize_action(action))
