"""Positions offering the kinds of action seeded random games never reach, for tests that send each kind.

Blackpool's reroll (a six with no move) and order (Gust of Force moving two travellers), the temple's
skip_change (with changes optional) and order (two pawns sent back, their owner choosing), and Through the
Desert's pass (no camel can be placed, on a small board) are built from the games' own test positions.
"""

from __future__ import annotations

from typing import Any

from companion.game import Action, Game
from companion.session import Session


def _session(game: Game, state: Any, players: list[str]) -> Session:
    return Session(game, {"players": players}, state)


def blackpool_reroll() -> Session:
    from tests.games.blackpool.helpers import GAME, act, roll
    from tests.games.blackpool.test_rules import blocked_six

    state, _ = act(blocked_six(), roll(6))
    return _session(GAME, state, ["yellow", "red", "green"])


def blackpool_order() -> Session:
    from tests.games.blackpool.helpers import GAME, Y, play, position, roll
    from tests.games.blackpool.test_rules import COIN_CHARM, draw

    spec = {"yellow-1": Y(20), "yellow-2": Y(26), "red-1": {"at": Y(26), "on": "yellow-2"}, "yellow-3": Y(50)}
    state, _ = play(position(spec), roll(6), COIN_CHARM, draw("charm", "gust_of_force"))
    return _session(GAME, state, ["yellow", "red"])


def temple_skip_change() -> Session:
    from tests.games.temple.fixtures import act, game, red, state

    s, _ = act(state(options={"change_optional": True}), red(3))
    return _session(game(), s, ["red", "blue"])


def temple_order() -> Session:
    from tests.games.temple.fixtures import act, game, red
    from tests.games.temple.test_rules import pair_state

    s, _ = act(pair_state(pair_order="ownerChooses"), red(3))
    s, _ = act(s, {"type": "change", "slot": 3, "card": "HOLES"})
    return _session(game(), s, ["red", "blue"])


def ttd_pass() -> Session:
    from tests.games.ttd.helpers import patch_game, position
    from tests.games.ttd.test_rules import line_board

    game = patch_game(line_board(3))
    state = position(game, ["red", "black"], [(0, 0, "red", "pink", True), (2, 0, "black", "pink", True)])
    return _session(game, state, ["red", "black"])


UNOFFERED = {("blackpool", "reroll"): blackpool_reroll, ("blackpool", "order"): blackpool_order,
             ("temple", "skip_change"): temple_skip_change, ("temple", "order"): temple_order,
             ("ttd", "pass"): ttd_pass}


def offered_there(game_id: str, kind: str) -> tuple[Session, Action]:
    """The session at the position offering ``kind``, and the first action of it offered there."""
    session = UNOFFERED[game_id, kind]()
    offered = next(a for a in session.legal() if a["type"] == kind)
    return session, {k: v for k, v in offered.items() if k != "text"}
