"""Position builders for Blackpool scenario tests, on the house 9x9 board."""

from __future__ import annotations

from typing import Any

from companion.game import normalize_action
from companion.games.blackpool.state import State
from companion.registry import create

GAME = create("blackpool")
BOARD = GAME.board


def Y(i: int) -> str:  # noqa: N802 - reads like the board's own notation
    """Yellow path square number ``i`` counted from 1, as the rules count (square 6 is where a six lands)."""
    return BOARD.paths["yellow"][i - 1]


def R(i: int) -> str:  # noqa: N802
    return BOARD.paths["red"][i - 1]


def position(
    travellers: dict[str, Any] | None = None,
    players: tuple[str, ...] = ("yellow", "red"),
    options: dict[str, Any] | None = None,
    game: Any = None,
    **fields: Any,
) -> State:
    """A position document built from a few facts; every traveller not named waits in the centre.

    ``travellers`` maps an id to a location (square id, "centre", "camp") or to a
    dict with "at", "on" and "frozen". ``game`` is the house game unless a test's own data is given.
    """
    travellers = travellers or {}
    doc: dict[str, Any] = {
        "game": "blackpool",
        "players": list(players),
        "options": options or {},
        "turn": players[0],
        "phase": "roll",
        "travellers": {},
    }
    for colour in players:
        for n in (1, 2, 3):
            tid = f"{colour}-{n}"
            spec = travellers.get(tid, "centre")
            doc["travellers"][tid] = spec if isinstance(spec, dict) else {"at": spec}
    doc.update(fields)
    return (game or GAME).from_document(doc)


def act(state: State, action: dict[str, Any]) -> tuple[State, list]:
    return GAME.apply(state, normalize_action(action))


def play(state: State, *actions: dict[str, Any]) -> tuple[State, list]:
    """Apply actions in turn; return the last state and every event on the way."""
    events: list = []
    for action in actions:
        state, new = act(state, action)
        events.extend(new)
    return state, events


def roll(value: int) -> dict[str, Any]:
    return {"type": "roll", "value": value}


def move(tid: str) -> dict[str, Any]:
    return {"type": "move", "traveller": tid}


def legal_moves(state: State) -> list[dict[str, Any]]:
    return [{k: v for k, v in a.items() if k != "text"} for a in GAME.legal_actions(state)]


def at(state: State, tid: str) -> str:
    return state.by_id[tid].at


def rules_of(events: list) -> set[str]:
    return {r for e in events for r in e.rules}


def yellow_rolled_five(green: bool = False) -> Any:
    """A session where Yellow rolled 5: Yellow 1 (carrying Red 1 on d3) and Yellow 3 (g4) may move, Yellow 2
    is frozen on c6, Red 2 waits in the centre and Red 3 is home. With ``green``, Green 1 stands alone on f6
    and two greens wait in the centre. Pointing at pieces is tested on it (a rider, a frozen piece, a mover).
    """
    from companion.session import Session

    travellers = {
        "yellow-1": {"at": "d3"}, "yellow-2": {"at": "c6", "frozen": True}, "yellow-3": {"at": "g4"},
        "red-1": {"at": "d3", "on": "yellow-1"}, "red-2": {"at": "centre"}, "red-3": {"at": "camp"},
    }
    players = ["yellow", "red"]
    if green:
        travellers |= {"green-1": {"at": "f6"}, "green-2": {"at": "centre"}, "green-3": {"at": "centre"}}
        players.append("green")
    document = {"game": "blackpool", "players": players, "turn": "yellow", "phase": "move", "roll": 5}
    return Session.load("blackpool", {**document, "travellers": travellers})
