"""Damage to JSON documents and data files, for tests that feed the core what a careless edit makes."""

from __future__ import annotations

import copy
import json
import random
import sqlite3
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

from companion.journal import Journal
from companion.protocol import Referee
from companion.registry import create
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
    """A copy with one to three values replaced by odd ones or deleted, at any depth."""
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


def random_position(game_id: str, rng: random.Random, max_steps: int) -> Referee:
    """A referee whose game has gone up to ``max_steps`` random legal steps: the source of real documents."""
    referee = Referee()
    assert referee.handle({"cmd": "new", "game": game_id, "players": random_players(create(game_id), rng)})["ok"]
    for _step in range(rng.randint(0, max_steps)):
        legal = referee.handle({"cmd": "legal"})["legal"]
        if not legal:
            break
        assert referee.handle({"cmd": "act", "action": rng.choice(legal)})["ok"]
    return referee


def old_game_of_many_steps(path: Path, journal: Journal, game_id: str) -> None:
    """An abandoned game of 400 rolls in the journal: enough pages that its oldest lie far from the game played."""
    old = journal.begin_game(game_id, {"kind": "new", "players": ["red", "blue"]}, {}, {})
    with closing(sqlite3.connect(path, isolation_level=None)) as raw:
        raw.executemany(
            "INSERT INTO steps VALUES (?, ?, 'act', ?, 'then')",
            [(old, seq, json.dumps({"type": "roll", "value": 1 + seq % 6})) for seq in range(1, 400)],
        )


def spoil_oldest_steps(path: Path) -> None:
    """Overwrite the start of the steps table's first leaf page in a closed journal: damage the quick check
    finds, far from the rows of a game begun after many steps of an older one."""
    with closing(sqlite3.connect(path, isolation_level=None)) as raw:
        (first_leaf,) = raw.execute(
            "SELECT pageno FROM dbstat WHERE name = 'steps' AND pagetype = 'leaf' ORDER BY path LIMIT 1"
        ).fetchone()
    with path.open("r+b") as file:
        file.seek((first_leaf - 1) * 4096)
        file.write(b"\xff" * 64)
