"""Every game answers a damaged position document with `invalid_position` and keeps its game.

A position document is what a café hand-edits, a tool writes or a referee
pastes in to settle "where were we". Documents of random positions are damaged
field by field, at any depth (a value of the wrong type, a list where an id
belongs, a missing key), then loaded through the referee. A document the
game accepts must also be playable.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from companion.protocol import Referee
from companion.registry import create, game_classes
from companion.simulate import random_players

ODD_VALUES = [None, True, 0, -1, 7, 99, 1.5, "", "x", "red", [], [1, 2], {}, {"a": 1}, [[0, 0]], 10**20]


def places(doc: Any, path: tuple = ()) -> Iterator[tuple]:
    """The path of every value inside the document, containers and leaves alike."""
    if path:
        yield path
    if isinstance(doc, dict):
        for key, value in doc.items():
            yield from places(value, (*path, key))
    elif isinstance(doc, list):
        for i, value in enumerate(doc):
            yield from places(value, (*path, i))


def damage(doc: dict, rng: random.Random) -> dict:
    doc = copy.deepcopy(doc)
    for _ in range(rng.randint(1, 3)):
        path = rng.choice(list(places(doc)))
        parent = doc
        for key in path[:-1]:
            parent = parent[key]
        if rng.random() < 0.3:
            del parent[path[-1]]
        else:
            parent[path[-1]] = copy.deepcopy(rng.choice(ODD_VALUES))
    return doc


@pytest.mark.parametrize("game_id", sorted(game_classes()))
def test_damaged_documents_are_refused_by_name_and_change_nothing(game_id: str) -> None:
    rng = random.Random(5)
    game = create(game_id)
    referee = Referee()
    for _position in range(12):
        assert referee.handle({"cmd": "new", "game": game_id, "players": random_players(game, rng)})["ok"]
        for _step in range(rng.randint(0, 60)):
            legal = referee.handle({"cmd": "legal"})["legal"]
            if not legal:
                break
            assert referee.handle({"cmd": "act", "action": rng.choice(legal)})["ok"]
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
