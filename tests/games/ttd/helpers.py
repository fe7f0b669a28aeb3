"""A small synthetic map (7 x 7 axial patch) and position builders for Through the Desert tests.

Tests never depend on the house map beyond smoke checks: the worked cases of
DECISIONS.md run on this patch, so a change of house data cannot break them.
"""

from __future__ import annotations

import copy
from typing import Any

from companion.data import load_data
from companion.game import GameData, normalize_action
from companion.games.ttd.rules import ThroughTheDesert

# Test patch: q and r from 0 to 6, all sand except a mountain at (6,0); a palm at (5,5);
# water-hole sites at (3,5) and (1,1); the column q == 6 (rows 3-6) is the "small" region used with 4-5.
PALM = (5, 5)
SITES = ((1, 1), (3, 5))
MOUNTAIN = (6, 0)


def patch_board(**changes: Any) -> dict[str, Any]:
    cells = []
    for r in range(7):
        for q in range(7):
            cell: dict[str, Any] = {"q": q, "r": r, "type": "sand", "region": "main"}
            if (q, r) == MOUNTAIN:
                cell["type"] = "mountain"
            if (q, r) == PALM:
                cell["oasis"] = [2, 3, 4, 5]
            if (q, r) in SITES:
                cell["waterhole"] = True
            if q == 6 and r >= 3:
                cell["region"] = "small"
            cells.append(cell)
    board = {
        "game": "ttd",
        "kind": "board",
        "schema": 1,
        "regions": [{"id": "main", "players": [2, 3, 4, 5]}, {"id": "small", "players": [4, 5]}],
        "cells": cells,
    }
    board.update(changes)
    return board


_HOUSE = load_data(ThroughTheDesert)
_GAMES: dict[str, ThroughTheDesert] = {}


def patch_game(board: dict[str, Any] | None = None, supply: int | None = None) -> ThroughTheDesert:
    """The rules bound to house camels, tokens and rulebook, on the test patch (or a given board).

    ``supply`` shrinks the camels per colour so a test can reach the end quickly.
    """
    key = f"{supply}:" + ("patch" if board is None else repr(board))
    if key not in _GAMES:
        files = copy.deepcopy(_HOUSE.files)
        files["board"] = board or patch_board()
        if supply is not None:
            files["camels"]["supply_by_players"] = {str(n): supply for n in range(2, 6)}
        _GAMES[key] = ThroughTheDesert(GameData(files))
    return _GAMES[key]


def house_game() -> ThroughTheDesert:
    return ThroughTheDesert(_HOUSE)


def options(game: ThroughTheDesert, profile: str = "standard", **extra: Any) -> dict[str, Any]:
    return game.resolve_options(extra, profile)


def doc(
    game: ThroughTheDesert,
    players: list[str],
    pieces: list[tuple[int, int, str, str, bool]],
    *,
    phase: str = "camels",
    profile: str = "standard",
    values: dict[tuple[int, int], int] | None = None,
    turn: str | None = None,
    placed: int = 0,
    opts: dict[str, Any] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """A position document: pieces are (q, r, player, colour or "guide", leader)."""
    values = values or {}
    board = game.board(len(players))
    document = {
        "game": "ttd",
        "players": players,
        "options": options(game, profile, **(opts or {})),
        "phase": phase,
        "turn": turn or players[0],
        "placed_this_turn": placed,
        "waterholes": [
            {"hex": list(board.coords[h]), "value": values.get(board.coords[h], 1 if phase != "waterholes" else None)}
            for h in board.sites
        ],
        "pieces": [{"hex": [q, r], "player": p, "colour": c, "leader": lead} for q, r, p, c, lead in pieces],
        "leaders_in_hand": {p: [] for p in players},
    }
    document.update(extra)
    return document


def position(game: ThroughTheDesert, players: list[str], pieces, **kw: Any):
    return game.from_document(doc(game, players, pieces, **kw))


def act(game: ThroughTheDesert, state, action: dict[str, Any]):
    return game.apply(state, normalize_action(action))


def camel(colour: str, q: int, r: int, player: str | None = None) -> dict[str, Any]:
    action: dict[str, Any] = {"type": "camel", "colour": colour, "hex": [q, r]}
    if player:
        action["player"] = player
    return action


def fill_waterholes(game: ThroughTheDesert, state, value: int = 1):
    """Enter every water-hole site with the same value (setup helper)."""
    while state.phase == "waterholes":
        state, _ = act(game, state, {"type": "draw", "deck": "waterholes", "card": str(value)})
    return state
