"""The test board ``B`` of DECISIONS.md 1.3 and small position builders."""

from __future__ import annotations

import json
from typing import Any

from companion.data import load_data
from companion.game import GameData, normalize_action
from companion.games.desert import DesertRace
from companion.games.desert.options import Options

A, B, C = "black", "pink", "teal"

B_SPACES = [
    ("dawn", "Desert Dawn", "start", None),
    ("oasis_alcove", "Oasis Alcove", "safe", None),
    ("orange", "Orange", "life", None),
    ("red", "Red", "collection", None),
    ("blue", "Blue", "mystery", None),
    ("scared", "Scared!", "scared", None),
    ("green", "Green", "trade", None),
    ("c4", "Four Up", "challenge", {"pred": "gte", "k": 4, "attemptLimit": 3}),
    ("safe8", "Safe 8", "safe", None),
    ("even", "Even", "challenge", {"pred": "even", "attemptLimit": 3}),
    ("guardian", "Guardian's Test", "challenge", {"pred": "eq", "k": 6, "attemptLimit": None}),
    ("safe11", "Safe 11", "safe", None),
    ("passage", "Secret Passage", "secret_passage", None),
    ("safe13", "Safe 13", "safe", None),
    ("safe14", "Safe 14", "safe", None),
    ("safe15", "Safe 15", "safe", None),
]
IDS = [s[0] for s in B_SPACES]


def board_b() -> dict[str, Any]:
    spaces = []
    for i, (sid, name, kind, challenge) in enumerate(B_SPACES):
        entry: dict[str, Any] = {"index": i, "id": sid, "name": name, "type": kind}
        if challenge:
            entry["challenge"] = challenge
        spaces.append(entry)
    return {"game": "desert", "kind": "board", "schema": 1, "label": "test board B", "spaces": spaces}


def game_b() -> DesertRace:
    house = load_data(DesertRace)
    files = dict(house.files)
    files["board"] = board_b()
    return DesertRace(GameData(files))


def position(
    game: DesertRace,
    pieces: dict[str, dict[str, Any]],
    step: dict[str, Any] | None = None,
    turn: str = A,
    options: dict[str, Any] | None = None,
    players: tuple[str, ...] = (A, B),
    **extra: Any,
) -> Any:
    """A mid-game position: pieces given by space index (or id) and anything else by default."""
    doc_pieces = {}
    for p in players:
        raw = dict(pieces.get(p, {}))
        space = raw.get("space", 0)
        raw["space"] = game.board.spaces[space].id if isinstance(space, int) else space
        raw.setdefault("lives", 5)
        doc_pieces[p] = raw
    if step is None:
        step = {"kind": "roll", "mode": "move"}
    doc = {
        "game": "desert",
        "players": list(players),
        "options": {**Options().to_dict(), **(options or {})},
        "round": 1,
        "first": players[0],
        "turn": turn,
        "pieces": doc_pieces,
        "step": step,
        "winner": None,
        **extra,
    }
    return game.from_document(json.loads(json.dumps(doc)))


def act(game: DesertRace, state: Any, action: dict[str, Any]) -> tuple[Any, list]:
    return game.apply(state, normalize_action(action))


def run(game: DesertRace, state: Any, *actions: dict[str, Any]) -> tuple[Any, list]:
    events: list = []
    for action in actions:
        state, more = act(game, state, action)
        events.extend(more)
    return state, events


def roll(value: int) -> dict[str, Any]:
    return {"type": "roll", "value": value}


def draw(deck: str, card: str) -> dict[str, Any]:
    return {"type": "draw", "deck": deck, "card": card}


def use(card: str) -> dict[str, Any]:
    return {"type": "use", "card": card}


def rules_of(events: list) -> set[str]:
    return {r for e in events for r in e.rules}
