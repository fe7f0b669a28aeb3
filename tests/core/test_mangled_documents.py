"""Every game answers a damaged position document with `invalid_position` and keeps its game.

A position document is what a café hand-edits, a tool writes or a referee
pastes in to settle "where were we". Documents of random positions are damaged
field by field, at any depth (a value of the wrong type, a list where an id
belongs, a missing key), then loaded through the referee. A document the
game accepts must also be playable.
"""

from __future__ import annotations

import json
import random

import pytest

from companion.registry import game_classes
from tests.core.damage import damage, random_position


@pytest.mark.parametrize("game_id", sorted(game_classes()))
def test_damaged_documents_are_refused_by_name_and_change_nothing(game_id: str) -> None:
    rng = random.Random(5)
    for _position in range(12):
        referee = random_position(game_id, rng, 60)
        document = referee.session.document()
        for _try in range(25):
            damaged = damage(document, rng)
            answer = referee.handle_line(json.dumps({"cmd": "load", "game": game_id, "state": damaged}))
            if not answer["ok"]:
                assert answer["error"]["code"] == "invalid_position", (damaged, answer)
                assert referee.session.document() == document
                continue
            for _step in range(5):  # what loads must also play
                legal = referee.handle({"cmd": "legal"})["legal"]
                if not legal:
                    break
                assert referee.handle({"cmd": "act", "action": rng.choice(legal)})["ok"]
            assert referee.handle({"cmd": "load", "game": game_id, "state": document})["ok"]
