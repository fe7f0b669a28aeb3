"""The rulebook's own questions (BP-Qnn) that no test built: a rider and a path that misses a square (BP-Q14),
the travellers' numbers (BP-Q32) and a square's pull taken from its zone in the data (BP-Q37).

The other questions' positions are built in test_decisions.py and test_rules.py, named after their clause.
"""

from __future__ import annotations

import copy

import pytest

from companion.data import load_data
from companion.errors import InvalidPosition
from companion.game import GameData, normalize_action
from companion.games.blackpool.rules import Blackpool
from tests.games.blackpool.helpers import GAME, Y, act, move, position, roll
from tests.games.blackpool.test_data import house, problems_with


def test_a_path_missing_a_water_square_is_refused_and_a_rider_is_not_carried_off_bp_q14() -> None:
    """Data that leaves a water square off one colour's path is named with BP-Q2 and BP-Q14; loaded anyway,
    a Red rider is left where it was rather than carried onto a square off Red's path."""
    board = house("board")
    off = Y(13)  # g3, ring 3
    board["paths"]["red"].remove(off)
    assert any(f"paths.red misses water squares other colours use ({off})" in p and "(BP-Q2, BP-Q14)" in p
               for p in problems_with(board=board))
    files = copy.deepcopy(load_data(Blackpool).files)
    files["board"] = board
    game = Blackpool(GameData(files))
    start = position({"yellow-1": Y(10), "red-1": {"at": Y(10), "on": "yellow-1"}}, game=game)
    state, _ = game.apply(start, normalize_action(roll(6)))  # a carrier's six: 3 by the table, onto g3
    state, events = game.apply(state, normalize_action(move("yellow-1")))
    assert state.by_id["yellow-1"].at == off and state.by_id["red-1"].at == Y(10)
    assert "Red 1 stays on d3 (ring 3): that square is not on its own path." in events[0].text
    assert "BP-Q14" in events[0].rules


def test_a_squares_pull_is_the_zone_in_the_board_data_bp_q37() -> None:
    """A board that puts d3 in ring 2 makes a 3 carry Yellow 1 on from there instead of leaving it."""
    house_state, _ = act(position({"yellow-1": Y(10)}), roll(3))
    assert house_state.turn == "red"  # ring 3 pulls 3: the traveller stays
    files = copy.deepcopy(load_data(Blackpool).files)
    next(s for s in files["board"]["squares"] if s["id"] == Y(10))["zone"] = "ring2"
    game = Blackpool(GameData(files))
    start = position({"yellow-1": Y(10)}, game=game)
    state, _ = game.apply(start, normalize_action(roll(3)))
    state, _ = game.apply(state, normalize_action(move("yellow-1")))
    assert state.by_id["yellow-1"].at == Y(13)


def test_travellers_are_numbered_one_to_three_and_keep_their_number_bp_q32() -> None:
    """Each colour's travellers are 1, 2 and 3 from the start; a Reset sends each back by its own number, and a
    position naming a fourth is refused."""
    state = GAME.setup(["yellow", "red"], {})
    assert [t.id for t in state.travellers] == ["yellow-1", "yellow-2", "yellow-3", "red-1", "red-2", "red-3"]
    travellers = {"red-1": Y(30), "red-3": Y(40)}
    state, _ = act(position(travellers, phase="target", card="reset"), {"type": "target", "opponent": "red"})
    assert [(t.id, t.number, t.at) for t in state.own("red")] == [("red-1", 1, "centre"), ("red-2", 2, "centre"),
                                                                 ("red-3", 3, "centre")]
    document = GAME.to_document(position({}))
    document["travellers"]["yellow-4"] = {"at": "centre"}
    with pytest.raises(InvalidPosition, match="traveller 'yellow-4' is not in this game") as refused:
        GAME.from_document(document)
    # The refusal cited no clause, where every other one names it: the fourth breaks BP-Q32.
    assert refused.value.problems == ["traveller 'yellow-4' is not in this game (travellers: yellow-1, yellow-2, "
                                      "yellow-3, red-1, red-2, red-3); each colour plays travellers 1 to 3 (BP-Q32)"]
    del document["travellers"]["yellow-4"], document["travellers"]["red-3"]
    document["travellers"]["blue-1"] = {"at": "centre"}
    with pytest.raises(InvalidPosition) as refused:
        GAME.from_document(document)
    assert refused.value.problems == [
        "traveller 'blue-1' is not in this game (travellers: yellow-1, yellow-2, yellow-3, red-1, red-2, red-3); blue "
        "is not playing, and its travellers stay off the board (BP-C11)",
        "traveller red-3 is missing: each colour plays travellers 1 to 3 (BP-Q32)"]
