"""A damaged game record is refused with a typed error, never replayed into a crash.

Records are files that travel (`companion export`, then `replay` elsewhere to
settle what happened). Records of random games are damaged at any depth and
replayed; what replays must be a real session.
"""

from __future__ import annotations

import random

import pytest

from companion.errors import CompanionError
from companion.protocol import Referee
from companion.registry import create, game_classes
from companion.session import replay_record
from companion.simulate import random_players
from tests.core.damage import damage


@pytest.mark.parametrize("game_id", sorted(game_classes()))
def test_damaged_records_are_refused_with_a_reason(game_id: str) -> None:
    rng = random.Random(2)
    game = create(game_id)
    for _game in range(6):
        referee = Referee()
        assert referee.handle({"cmd": "new", "game": game_id, "players": random_players(game, rng)})["ok"]
        for _step in range(rng.randint(0, 40)):
            legal = referee.handle({"cmd": "legal"})["legal"]
            if not legal:
                break
            assert referee.handle({"cmd": "act", "action": rng.choice(legal)})["ok"]
        record = referee.handle({"cmd": "export"})["record"]
        assert replay_record(record).document() == record["final"]
        for _try in range(30):
            damaged = damage(record, rng)
            try:
                session = replay_record(damaged)
            except CompanionError as refusal:
                assert refusal.message
                continue
            assert session.game.id == game_id and session.pending().text
