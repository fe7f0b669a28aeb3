"""Every registered game keeps the contract under random play."""

from __future__ import annotations

import pytest

from companion.registry import create, game_classes
from tests.conformance import assert_game_conforms

GAMES = sorted(game_classes())


@pytest.mark.parametrize("game_id", GAMES)
def test_random_games_keep_the_contract(game_id: str) -> None:
    assert_game_conforms(create(game_id), seeds=range(8))


@pytest.mark.parametrize("game_id", GAMES)
def test_rulebook_has_clauses(game_id: str) -> None:
    game = create(game_id)
    assert len(game.rulebook.clauses) >= 5


def test_the_contract_checker_accepts_the_test_race() -> None:
    assert_game_conforms(create("race"), seeds=range(5))
