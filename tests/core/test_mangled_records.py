"""A damaged game record is refused with a typed error, never replayed into a crash.

Records are files that travel (`companion export`, then `replay` elsewhere to
settle what happened). Records of random games are damaged at any depth and
replayed; what replays must be a real session.
"""

from __future__ import annotations

import random

import pytest

from companion.errors import CompanionError
from companion.registry import game_classes
from companion.session import replay_record
from tests.core.damage import damage, random_position


@pytest.mark.parametrize("game_id", sorted(game_classes()))
def test_damaged_records_are_refused_with_a_reason(game_id: str) -> None:
    rng = random.Random(2)
    for _game in range(6):
        record = random_position(game_id, rng, 40).handle({"cmd": "export"})["record"]
        assert replay_record(record).document() == record["final"]
        for _try in range(30):
            damaged = damage(record, rng)
            try:
                session = replay_record(damaged)
            except CompanionError as refusal:
                assert refusal.message
                continue
            assert session.game.id == game_id and session.pending().text
