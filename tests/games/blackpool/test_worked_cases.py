"""The Blackpool worked cases BP-AT01..BP-AT20 of DECISIONS.md section 3.3, one test each.

Squares are written as path numbers (``Y(6)`` is yellow's sixth path square) on the
house board: yellow's path runs Y(1)-Y(8) in ring 4, Y(9)-Y(24) in ring 3,
Y(25)-Y(48) in ring 2 and Y(49)-Y(59) on the edge, then the camp.
"""

from __future__ import annotations

import pytest

from companion.errors import IllegalAction
from tests.games.blackpool.helpers import GAME, Y, act, at, legal_moves, move, play, position, roll, rules_of


def test_bp_at01_the_seed_example() -> None:
    """Roll 3: Y1 (ring 2) goes forward, Y2 (ring 4) would be pulled back, Y3 (ring 3) ties; Y1 must move."""
    state = position({"yellow-1": Y(25), "yellow-2": Y(5), "yellow-3": Y(9)})
    state, _ = act(state, roll(3))
    assert legal_moves(state) == [move("yellow-1")]
    refused = GAME.check(state, move("yellow-2"))
    assert not refused.legal and refused.rules == ("BP-C2",)
    assert "can go forward" in refused.text
    tie = GAME.check(state, move("yellow-3"))
    assert not tie.legal and tie.rules == ("BP-5",)
    with pytest.raises(IllegalAction):
        act(state, move("yellow-2"))
    state, events = act(state, move("yellow-1"))
    assert at(state, "yellow-1") == Y(28)
    assert "BP-5" in rules_of(events)


def test_bp_at02_pull_back_only_when_nothing_goes_forward() -> None:
    state = position({"yellow-1": Y(25), "yellow-2": Y(5), "yellow-3": Y(9)})
    state, _ = act(state, roll(1))
    assert legal_moves(state) == [move("yellow-1"), move("yellow-2"), move("yellow-3")]
    texts = [a["text"] for a in GAME.legal_actions(state)]
    assert all("back 1" in t for t in texts)
    after, _ = act(state, move("yellow-2"))
    assert at(after, "yellow-2") == Y(4)


def test_bp_at03_pass_when_nothing_can_move() -> None:
    state = position({"yellow-1": Y(9), "yellow-2": Y(12), "yellow-3": Y(20)})
    state, events = act(state, roll(3))
    pending = GAME.pending(state)
    assert pending.kind == "roll" and pending.player == "red"
    assert "BP-C2" in rules_of(events)


def test_bp_at04_carrier_forward_table() -> None:
    state = position({"yellow-1": Y(25), "red-1": {"at": Y(25), "on": "yellow-1"}})
    state, _ = act(state, roll(4))
    assert GAME.legal_actions(state)[0]["text"].startswith("Yellow 1: forward 2")
    state, events = act(state, move("yellow-1"))
    assert at(state, "yellow-1") == Y(27)
    assert at(state, "red-1") == Y(27) and state.by_id["red-1"].on == "yellow-1"
    assert {"BP-C6", "BP-5"} <= rules_of(events)


def test_bp_at07_square_already_holding_two() -> None:
    """The case names "R1 carrying R2"; one colour never rides itself, so a third colour stands in."""
    state = position(
        {"yellow-1": Y(25), "yellow-2": Y(50), "red-1": Y(28), "green-1": {"at": Y(28), "on": "red-1"}},
        players=("yellow", "red", "green"),
    )
    state, _ = act(state, roll(3))
    assert legal_moves(state) == [move("yellow-2")]
    ruling = GAME.check(state, move("yellow-1"))
    assert not ruling.legal and ruling.rules == ("BP-7",)
    assert "already holds two" in ruling.text


def test_bp_at08_riding() -> None:
    """Y1 lands on R1 and rides; R1 (now a carrier) moves by the heavy table and carries Y1; Y1 later moves off by 5.

    The case says R1 "moves 4": with a rider on it a roll of 4 moves a carrier 2 (clarification 6).
    """
    state = position({"yellow-1": Y(25), "red-1": Y(28)})
    state, events = play(state, roll(3), move("yellow-1"))
    assert at(state, "yellow-1") == Y(28) and state.by_id["yellow-1"].on == "red-1"
    assert "BP-7" in rules_of(events)
    state, events = play(state, roll(4), move("red-1"))
    assert at(state, "red-1") == Y(30)
    assert at(state, "yellow-1") == Y(30) and state.by_id["yellow-1"].on == "red-1"
    assert "Yellow 1 rides along." in events[-1].text
    state, _ = act(state, roll(5))
    assert legal_moves(state) == [move("yellow-1")]
    state, events = act(state, move("yellow-1"))
    assert at(state, "yellow-1") == Y(35) and state.by_id["yellow-1"].on is None
    assert at(state, "red-1") == Y(30)


def test_bp_at10_camp_overshoot() -> None:
    state = position({"yellow-1": Y(58)})
    state, events = play(state, roll(5), move("yellow-1"))
    assert at(state, "yellow-1") == "camp"
    assert "BP-C3" in rules_of(events)


def test_bp_at11_back_past_the_start() -> None:
    state = position({"yellow-2": Y(2)})
    state, _ = act(state, roll(3))
    assert legal_moves(state) == [move("yellow-2")]
    state, events = act(state, move("yellow-2"))
    assert at(state, "yellow-2") == "centre"
    assert "BP-C3" in rules_of(events)


def test_bp_at13_six_with_nothing_to_move() -> None:
    state = position(
        {
            "yellow-1": "camp",
            "yellow-2": "camp",
            "yellow-3": Y(31),
            "red-1": Y(37),
            "green-1": {"at": Y(37), "on": "red-1"},
        },
        players=("yellow", "red", "green"),
        coins={"yellow": 0, "red": 3, "green": 3},
        decks={"charm": {"gust_of_force": 0, "awaken": 0}, "curse": {"freeze": 0}},
    )
    state, events = act(state, roll(6))
    pending = GAME.pending(state)
    assert pending.kind == "roll" and pending.player == "yellow"
    assert "BP-C7" in rules_of(events)
    state, _ = act(state, roll(4))
    assert GAME.pending(state).kind == "choose"
    state, _ = act(state, move("yellow-3"))
    assert at(state, "yellow-3") == Y(35)


def test_bp_at14_freeze_and_awaken() -> None:
    state = position({"yellow-1": Y(25), "yellow-2": Y(50)}, turn="red")
    state, events = play(
        state,
        roll(6),
        {"type": "coin", "deck": "curse"},
        {"type": "draw", "deck": "curse", "card": "freeze"},
        {"type": "target", "traveller": "yellow-1"},
    )
    assert state.by_id["yellow-1"].frozen
    assert "BP-C10" in rules_of(events)
    state, _ = act(state, roll(4))
    assert legal_moves(state) == [move("yellow-2")]
    ruling = GAME.check(state, move("yellow-1"))
    assert not ruling.legal and ruling.rules == ("BP-C10",)
    state, _ = play(state, move("yellow-2"), roll(1))  # red: nothing can move, the turn passes
    state, events = play(
        state,
        roll(6),
        {"type": "coin", "deck": "charm"},
        {"type": "draw", "deck": "charm", "card": "awaken"},
        {"type": "target", "traveller": "yellow-1"},
    )
    assert not state.by_id["yellow-1"].frozen
    state, _ = play(state, roll(1), roll(4))
    assert move("yellow-1") in legal_moves(state)


def test_bp_at15_card_with_nothing_to_act_on() -> None:
    state = position({"yellow-1": Y(25)})
    state, _ = play(state, roll(6), {"type": "coin", "deck": "charm"})
    assert state.coins_of("yellow") == 2
    state, events = act(state, {"type": "draw", "deck": "charm", "card": "awaken"})
    assert "nothing to act on" in events[-1].text and "BP-C8" in events[-1].rules
    assert state.coins_of("yellow") == 2
    assert state.remaining["awaken"] == 0
    assert GAME.pending(state).player == "red"


def test_bp_at16_each_card_is_used_once() -> None:
    state = position(
        {"yellow-1": Y(25)},
        coins={"yellow": 3, "red": 1},
        decks={"charm": {"gust_of_force": 0, "diagonal_step_up": 0, "awaken": 1}},
    )
    state, _ = play(state, roll(6), {"type": "coin", "deck": "charm"})
    assert [a["card"] for a in GAME.legal_actions(state)] == ["awaken"]
    state, _ = act(state, {"type": "draw", "deck": "charm", "card": "awaken"})
    assert state.deck_size(GAME.catalogue, "charm") == 0
    state, _ = play(state, roll(1), roll(6))  # red passes; yellow rolls a six
    coins = [a for a in legal_moves(state) if a["type"] == "coin"]
    assert coins == [{"type": "coin", "deck": "curse"}]
    ruling = GAME.check(state, {"type": "coin", "deck": "charm"})
    assert not ruling.legal and ruling.rules == ("BP-Q21",)


def test_bp_at18_diagonal_step_down_from_ring_4() -> None:
    state = position({"red-1": Y(6), "yellow-1": {"at": Y(6), "on": "red-1"}, "yellow-2": Y(25)})
    state, _ = play(
        state,
        roll(6),
        {"type": "coin", "deck": "curse"},
        {"type": "draw", "deck": "curse", "card": "diagonal_step_down"},
    )
    target = {"type": "target", "traveller": "red-1", "square": "centre"}
    assert target in legal_moves(state)
    state, events = act(state, target)
    assert at(state, "red-1") == "centre"
    assert at(state, "yellow-1") == Y(6) and state.by_id["yellow-1"].on is None
    assert {"BP-C9", "BP-Q25"} <= rules_of(events)


def test_bp_at20_win() -> None:
    state = position({"yellow-1": "camp", "yellow-2": "camp", "yellow-3": Y(59)})
    state, events = play(state, roll(4), move("yellow-3"))
    pending = GAME.pending(state)
    assert pending.kind == "over" and pending.result == {"winner": "yellow"}
    assert events[-1].kind == "win" and "BP-1" in events[-1].rules
    assert GAME.legal_actions(state) == []
    with pytest.raises(IllegalAction) as refusal:
        act(state, roll(3))
    assert refusal.value.rule == "BP-Q30"
