"""A test deck on the house board: corridors, open cards and a few special cards.

With corridor cards in slots 1-3 the top edge becomes a single lane along
y = 1 from x = 3 to x = 11 (card row 1), so distances are easy to count.
The red wall stands between x = 2 and x = 3; the NW corner (x, y in 0-2) is
red's own corner with its final steps rising from [2, 2].
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from companion.data import house_dir, set_problems
from companion.game import GameData, normalize_action
from companion.games.temple.rules import TempleGame

H = "hole"
P = "path"


def row_card(card_id: str, middle: list[str]) -> dict[str, Any]:
    return {"id": card_id, "cells": [[H, H, H], middle, [H, H, H]]}


def deck_cards() -> list[dict[str, Any]]:
    cards = [row_card(f"COR{i:02d}", [P, P, P]) for i in range(1, 13)]
    cards += [{"id": f"OPEN{i:02d}", "cells": [[P, P, P], [P, P, P], [P, P, P]]} for i in range(1, 15)]
    cards += [
        row_card("IDR", ["idol:red", P, P]),
        row_card("IDR2", [P, P, "idol:red"]),
        row_card("IDB", ["idol:blue", P, P]),
        row_card("STA", [P, "stair", P]),
        row_card("STB", [P, "stair", P]),
        row_card("STC", [P, "stair", P]),
        row_card("HOLEMID", [P, H, P]),
        row_card("END", [H, H, H]),
        row_card("HOLES", [H, H, H]),
    ]
    return cards


@cache
def game() -> TempleGame:
    files = {
        kind: json.loads((house_dir(TempleGame) / f"{kind}.json").read_text(encoding="utf-8"))
        for kind in ("board", "die", "rulebook")
    }
    files["cards"] = {"game": "temple", "kind": "cards", "schema": 1, "ahKinchil": {"id": "AK"}, "cards": deck_cards()}
    problems = set_problems(TempleGame, files, {})
    assert problems == [], problems
    return TempleGame(GameData(files))


CORRIDOR_TOP = ["COR01", "COR02", "COR03"]
REST = [f"OPEN{i:02d}" for i in range(1, 10)]


def doc(**changes: Any) -> dict[str, Any]:
    """A red-blue position: red to roll, corridors on the top edge, open cards elsewhere."""
    g = game()
    slots = changes.pop("slots", None) or CORRIDOR_TOP + REST
    players = changes.pop("players", ["red", "blue"])
    base: dict[str, Any] = {
        "game": "temple",
        "players": players,
        "options": changes.pop("options", {}),
        "phase": "roll",
        "turn": players[0],
        "slots": slots,
        "pawns": {p: ["entrance", "entrance"] for p in players},
        "hands": {p: 3 for p in players},
        "pile": 0,
        "discard": changes.pop("discard", []),
        "roll": None,
        "first_roll": {"contenders": [], "rolls": []},
        "tasks": [],
        "after": "",
        "winner": None,
    }
    pawns = changes.pop("pawns", {})
    base["pawns"].update(pawns)
    base.update(changes)
    base["pile"] = g.total_cards - 12 - len(base["discard"]) - sum(base["hands"].values())
    return base


def state(**changes: Any) -> Any:
    return game().from_document(doc(**changes))


def act(s: Any, action: dict[str, Any]) -> tuple[Any, list]:
    return game().apply(s, normalize_action(action))


def pawns_of(s: Any) -> dict[str, Any]:
    return game().to_document(s)["pawns"]


def white(value: int) -> dict[str, Any]:
    return {"type": "roll", "value": value, "face": {"colour": "white"}}


def red(value: int) -> dict[str, Any]:
    return {"type": "roll", "value": value, "face": {"colour": "red"}}


def rules_of(events: list) -> set[str]:
    return {r for e in events for r in e.rules}
