"""The rulebook's own questions (BP-Qnn) that no test built: each position set up, the ruling checked, the clause cited.

The engine ruled these as the decisions say, but its rulings cited only the general rule (BP-5, BP-C2,
BP-C3), so a table asking "why" about an equal roll, a pass over other travellers, the first square of
the path, a crowded camp, an edge traveller on a 1, a frozen traveller left behind or a curse's victim
among two opponents was never shown the decision that settles it.
"""

from __future__ import annotations

import copy

import pytest

from companion.data import load_data
from companion.errors import InvalidPosition
from companion.game import GameData, normalize_action
from companion.games.blackpool.rules import Blackpool
from tests.games.blackpool.helpers import GAME, Y, act, at, legal_moves, move, play, position, roll, rules_of
from tests.games.blackpool.test_data import house, problems_with


def test_an_equal_roll_is_no_move_and_the_pass_cites_bp_q9() -> None:
    """Yellow 1 on ring 3 (pull 3) rolls 3 and is Yellow's only traveller out: it stays, and the turn passes."""
    state, events = act(position({"yellow-1": Y(10)}), roll(3))
    assert at(state, "yellow-1") == Y(10) and state.turn == "red" and state.phase == "roll"
    assert events[-1].rules == ("BP-C2", "BP-Q9")
    # A traveller pulled back, not held by an equal roll, passes under BP-C2 alone.
    frozen = position({"yellow-1": {"at": Y(10), "frozen": True}})
    assert act(frozen, roll(3))[1][-1].rules == ("BP-C2",)
    # With another traveller able to move, the equal one is refused by the pull rule and the other moves.
    state, _ = act(position({"yellow-1": Y(10), "yellow-2": Y(26)}), roll(3))
    stays = GAME.check(state, move("yellow-1"))
    assert not stays.legal and "the roll equals the pull" in stays.text
    assert legal_moves(state) == [move("yellow-2")]


def test_a_carrier_taking_the_six_cites_bp_q10_by_the_table_or_in_full() -> None:
    carrier = {"yellow-1": Y(10), "red-1": {"at": Y(10), "on": "yellow-1"}}
    state, events = play(position(carrier), roll(6), move("yellow-1"))
    assert at(state, "yellow-1") == Y(13) and {"BP-C6", "BP-Q10"} <= rules_of(events)
    full = position(carrier, options={"six.carrierUsesTable": False})
    state, events = play(full, roll(6), move("yellow-1"))
    assert at(state, "yellow-1") == Y(16) and at(state, "red-1") == Y(16)
    assert "BP-Q10" in rules_of(events) and "BP-C6" not in rules_of(events)  # a full six, not the heavy table


def test_passing_over_travellers_is_free_and_cites_bp_q11() -> None:
    """Yellow 1 goes 5 along ring 2 over Yellow 2 and over a square already holding two: only e2 is checked."""
    travellers = {"yellow-1": Y(25), "yellow-2": Y(27), "red-1": Y(28), "green-2": {"at": Y(28), "on": "red-1"}}
    state, events = play(position(travellers, players=("yellow", "red", "green")), roll(5), move("yellow-1"))
    assert at(state, "yellow-1") == Y(30)
    assert events[-1].rules == ("BP-5", "BP-Q11")
    clear, plain = play(position({"yellow-1": Y(25)}), roll(5), move("yellow-1"))
    assert at(clear, "yellow-1") == Y(30) and plain[-1].rules == ("BP-5",)  # nobody in the way


def test_the_first_square_of_the_path_is_an_ordinary_landing_bp_q34() -> None:
    """Yellow 1 on its path square 2 (ring 4, pull 4): a 1 pulls it onto square 1, a 2 past it into the centre."""
    start = position({"yellow-1": Y(2)})
    state, events = play(start, roll(1), move("yellow-1"))
    assert at(state, "yellow-1") == Y(1) and events[-1].rules == ("BP-5", "BP-Q34")
    state, events = play(start, roll(2), move("yellow-1"))
    assert at(state, "yellow-1") == "centre" and events[-1].rules == ("BP-5", "BP-C3", "BP-Q34")


def test_a_camp_takes_a_traveller_beside_its_own_bp_q35() -> None:
    """Yellow 1 is home and Yellow 3 arrives: allowed, and the arrival cites BP-Q35; alone in camp it does not."""
    crowded = position({"yellow-1": "camp", "yellow-2": Y(30), "yellow-3": Y(58)})
    state, events = play(crowded, roll(4), move("yellow-3"))
    assert at(state, "yellow-3") == "camp" and "BP-Q35" in events[-1].rules
    first = position({"yellow-2": Y(30), "yellow-3": Y(58)})
    state, events = play(first, roll(4), move("yellow-3"))
    assert at(state, "yellow-3") == "camp" and "BP-Q35" not in events[-1].rules


def test_an_edge_traveller_goes_ahead_on_any_roll_bp_q36() -> None:
    """The edge pulls nothing: a 1 moves Yellow 1 one square ahead, and the ruling says which clause."""
    state, _ = act(position({"yellow-1": Y(50)}), roll(1))
    ruling = GAME.check(state, move("yellow-1"))
    assert ruling.legal and ruling.rules == ("BP-5", "BP-Q36")
    state, events = act(state, move("yellow-1"))
    assert at(state, "yellow-1") == Y(51) and "BP-Q36" in events[-1].rules


def test_a_frozen_traveller_is_no_candidate_to_go_ahead_bp_q38() -> None:
    """A 3 would send frozen Yellow 1 (ring 2) ahead, yet Yellow 2 (ring 4) may be pulled back: it is said why."""
    state, _ = act(position({"yellow-1": {"at": Y(26), "frozen": True}, "yellow-2": Y(5)}), roll(3))
    assert legal_moves(state) == [move("yellow-2")]
    state, events = act(state, move("yellow-2"))
    assert at(state, "yellow-2") == Y(2) and at(state, "yellow-1") == Y(26)
    assert events[-1].text.endswith("Yellow 1 is frozen and cannot go ahead.")
    assert events[-1].rules == ("BP-5", "BP-Q38")


def test_a_curse_between_two_opponents_cites_bp_q29() -> None:
    """With Red and Green to choose from, Yellow's Freeze is offered on either and its ruling cites BP-Q29."""
    travellers = {"red-1": Y(30), "green-1": Y(31)}
    three = position(travellers, players=("yellow", "red", "green"), phase="target", card="freeze")
    assert [a["traveller"] for a in GAME.legal_actions(three)] == ["red-1", "green-1"]
    state, events = act(three, {"type": "target", "traveller": "green-1"})
    assert state.by_id["green-1"].frozen and events[-1].rules == ("BP-C10", "BP-Q26", "BP-Q29")
    reset = position(travellers, players=("yellow", "red", "green"), phase="target", card="reset")
    assert [a["opponent"] for a in GAME.legal_actions(reset)] == ["red", "green"]
    assert "BP-Q29" in rules_of(act(reset, {"type": "target", "opponent": "red"})[1])
    two = position({"red-1": Y(30)}, phase="target", card="freeze")  # one opponent: no choice to explain
    assert act(two, {"type": "target", "traveller": "red-1"})[1][-1].rules == ("BP-C10", "BP-Q26")


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
    with pytest.raises(InvalidPosition, match="traveller 'yellow-4' is not in this game"):
        GAME.from_document(document)
