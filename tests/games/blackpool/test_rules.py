"""Blackpool rules beyond the worked cases: riding, capacity, the edge, sixes, cards and options."""

from __future__ import annotations

import io

import pytest

from companion.errors import IllegalAction, InvalidAction
from companion.protocol import Referee
from companion.session import Session
from companion.terminal import Terminal
from tests.games.blackpool.helpers import GAME, R, Y, act, at, legal_moves, move, play, position, roll, rules_of

COIN_CURSE = {"type": "coin", "deck": "curse"}
COIN_CHARM = {"type": "coin", "deck": "charm"}


def draw(deck: str, card: str) -> dict:
    return {"type": "draw", "deck": deck, "card": card}


# -- capacity and riding ---------------------------------------------------------


def test_arriving_stack_counts_by_default_bp_q12() -> None:
    spec = {
        "yellow-1": Y(25),
        "red-1": {"at": Y(25), "on": "yellow-1"},
        "green-1": Y(27),
        "yellow-2": Y(50),
    }
    state = position(spec, players=("yellow", "red", "green"))
    state, _ = act(state, roll(4))
    ruling = GAME.check(state, move("yellow-1"))
    assert not ruling.legal and ruling.rules == ("BP-Q12",)
    relaxed = position(spec, players=("yellow", "red", "green"), options={"capacity.countsArrivingStack": False})
    relaxed, _ = play(relaxed, roll(4), move("yellow-1"))
    assert relaxed.by_id["yellow-1"].on == "green-1"
    assert relaxed.by_id["red-1"].on == "yellow-1" and at(relaxed, "red-1") == Y(27)


def test_cannot_land_on_own_colour_bp_7() -> None:
    state = position({"yellow-1": Y(25), "yellow-2": Y(28), "yellow-3": Y(50)})
    state, _ = act(state, roll(3))
    ruling = GAME.check(state, move("yellow-1"))
    assert not ruling.legal and ruling.rules == ("BP-7",) and "own colour" in ruling.text


def test_forward_blocked_means_back_moves_are_allowed_bp_q8() -> None:
    """Y1's only forward move is blocked, so the pulled-back Y2 may move (only legal forward moves count)."""
    state = position(
        {"yellow-1": Y(25), "yellow-2": Y(5), "red-1": Y(28), "green-1": {"at": Y(28), "on": "red-1"}},
        players=("yellow", "red", "green"),
    )
    state, _ = act(state, roll(3))
    assert legal_moves(state) == [move("yellow-2")]


def test_a_pull_back_beside_a_blocked_move_ahead_cites_bp_q8() -> None:
    """The pull back allowed because the only move ahead cannot land says so and cites BP-Q8, in the move,
    its ruling and 'why' (they cited only the pull, BP-5, and the table asked why Yellow 1's 3 ahead did not
    oblige it); a pull back with no traveller beating its pull needs no such word."""
    state = position(
        {"yellow-1": Y(25), "yellow-2": Y(5), "red-1": Y(28), "green-1": {"at": Y(28), "on": "red-1"}},
        players=("yellow", "red", "green"),
    )
    state, _ = act(state, roll(3))
    ruling = GAME.check(state, move("yellow-2"))
    assert ruling.legal and "BP-Q8" in ruling.rules
    _, events = act(state, move("yellow-2"))
    assert "Yellow 1 cannot land ahead, so a pull back is allowed." in events[0].text
    assert "BP-Q8" in events[0].rules
    plain = play(position({"yellow-1": Y(5)}), roll(3), move("yellow-1"))[1]
    assert "ahead" not in plain[-1].text and "BP-Q8" not in plain[-1].rules


def test_carrier_pulled_back_past_start_takes_rider_to_centre_bp_q15() -> None:
    state = position({"yellow-1": Y(2), "red-1": {"at": Y(2), "on": "yellow-1"}})
    state, _ = act(state, roll(1))
    assert GAME.legal_actions(state)[0]["text"].startswith("Yellow 1: back 2")
    state, events = act(state, move("yellow-1"))
    assert at(state, "yellow-1") == "centre" and at(state, "red-1") == "centre"
    assert state.by_id["red-1"].on is None
    assert "BP-Q15" in rules_of(events)


def test_carrier_back_table_bp_c6() -> None:
    state = position({"yellow-1": Y(10), "red-1": {"at": Y(10), "on": "yellow-1"}})
    state, _ = play(state, roll(2), move("yellow-1"))  # ring 3 pulls 3: a carrier goes back 4 for a 2
    assert at(state, "yellow-1") == Y(6) and at(state, "red-1") == Y(6)


def test_carrier_forward_zero_is_no_move_bp_c6() -> None:
    state = position({"yellow-1": Y(56), "red-1": {"at": Y(56), "on": "yellow-1"}})
    state, events = act(state, roll(1))
    assert GAME.pending(state).player == "red"
    assert "BP-C2" in rules_of(events)


def test_rider_not_carried_onto_the_edge_bp_q16() -> None:
    state = position({"yellow-1": Y(47), "red-1": {"at": Y(47), "on": "yellow-1"}})
    state, events = play(state, roll(5), move("yellow-1"))
    assert at(state, "yellow-1") == Y(50)
    assert at(state, "red-1") == Y(47) and state.by_id["red-1"].on is None
    assert "never carried onto the edge" in events[-1].text
    # "Why only 3 for a 5, and why is Red 1 left behind?": the heavy table and the edge rule, both cited
    # (the announcement cited BP-5 alone once the rider had stayed behind).
    assert {"BP-C6", "BP-C5", "BP-Q16"} <= set(events[-1].rules)


def test_rider_moves_off_by_normal_distance_bp_q17() -> None:
    state = position({"red-1": Y(25), "yellow-1": {"at": Y(25), "on": "red-1"}})
    state, events = play(state, roll(4), move("yellow-1"))
    assert at(state, "yellow-1") == Y(29) and state.by_id["yellow-1"].on is None
    assert at(state, "red-1") == Y(25)
    assert "Yellow 1 leaves Red 1." in events[-1].text and {"BP-C5", "BP-Q17"} <= set(events[-1].rules)
    assert "BP-C6" not in events[-1].rules  # the rider is not heavy: the normal distance


def test_rider_may_take_the_six_move_bp_q39() -> None:
    """The six's move and the ruling on it cite BP-Q39, the clause that lets a rider take it (they cited only a
    rider's ordinary move, BP-C5 and BP-Q17, so 'why' never named the clause the table asks about)."""
    start = play(position({"red-1": Y(25), "yellow-1": {"at": Y(25), "on": "red-1"}}), roll(6))[0]
    assert "BP-Q39" in GAME.check(start, move("yellow-1")).rules
    state, events = play(start, move("yellow-1"))
    assert at(state, "yellow-1") == Y(31) and state.by_id["yellow-1"].on is None
    assert GAME.pending(state).kind == "roll" and GAME.pending(state).player == "yellow"
    assert "BP-Q39" in events[0].rules
    plain = play(position({"yellow-1": Y(25)}), roll(6), move("yellow-1"))[1]
    assert "BP-Q39" not in plain[0].rules  # a traveller riding nobody takes the six under BP-C7 alone


# -- the edge --------------------------------------------------------------------


def edge_position(mode: str):
    # e1 is on both paths: Y(56) for yellow, R(49) for red.
    assert Y(56) == R(49)
    return position({"yellow-1": Y(53), "red-1": Y(56)}, options={"edge.landing": mode})


def test_edge_ride_default_bp_q13() -> None:
    state, _ = play(edge_position("ride"), roll(3), move("yellow-1"))
    assert state.by_id["yellow-1"].on == "red-1"
    state, _events = play(state, roll(2), move("red-1"))
    assert at(state, "red-1") == R(50)  # still carrying when it sets off: the heavy table gives 1 for a 2
    assert at(state, "yellow-1") == Y(56) and state.by_id["yellow-1"].on is None


def test_edge_coexist_bp_q13() -> None:
    state, events = play(edge_position("coexist"), roll(3), move("yellow-1"))
    assert at(state, "yellow-1") == Y(56) and state.by_id["yellow-1"].on is None
    assert "shares" in events[-1].text and "BP-Q13" in events[-1].rules
    state, _ = play(state, roll(2), move("red-1"))
    assert at(state, "yellow-1") == Y(56)


def test_edge_forbidden_bp_q13() -> None:
    state = position({"yellow-1": Y(53), "yellow-2": Y(25), "red-1": Y(56)}, options={"edge.landing": "forbidden"})
    state, _ = act(state, roll(3))
    ruling = GAME.check(state, move("yellow-1"))
    assert not ruling.legal and ruling.rules == ("BP-Q13",)


# -- sixes -----------------------------------------------------------------------


def test_six_offers_bring_out_move_and_coins_bp_c7() -> None:
    state = position({"yellow-1": Y(25)})
    state, _ = act(state, roll(6))
    kinds = [(a["type"], a.get("traveller") or a.get("deck")) for a in legal_moves(state)]
    assert kinds == [
        ("bring_out", "yellow-2"),
        ("bring_out", "yellow-3"),
        ("move", "yellow-1"),
        ("coin", "charm"),
        ("coin", "curse"),
    ]
    ruling = GAME.check(state, {"type": "reroll"})
    assert not ruling.legal and ruling.rules == ("BP-C7",)
    out, events = act(state, {"type": "bring_out", "traveller": "yellow-2"})
    assert at(out, "yellow-2") == Y(6) and GAME.pending(out).player == "red"
    assert "BP-Q20" in rules_of(events)
    moved, _ = act(state, move("yellow-1"))
    assert at(moved, "yellow-1") == Y(31) and GAME.pending(moved).player == "yellow"


def test_bring_out_blocked_bp_q20() -> None:
    state = position({"yellow-1": Y(6)})
    state, _ = act(state, roll(6))
    assert not [a for a in legal_moves(state) if a["type"] == "bring_out"]
    ruling = GAME.check(state, {"type": "bring_out", "traveller": "yellow-2"})
    assert not ruling.legal and ruling.rules == ("BP-Q20",)  # not the landing rule BP-7 behind it


def test_only_a_six_brings_out_bp_d4() -> None:
    state = position({"yellow-1": Y(50)})
    state, _ = act(state, roll(5))
    ruling = GAME.check(state, {"type": "bring_out", "traveller": "yellow-2"})
    assert not ruling.legal and ruling.rules == ("BP-D4",)
    ruling = GAME.check(state, move("yellow-2"))
    assert not ruling.legal and ruling.rules == ("BP-Q7",)


def test_a_traveller_already_out_is_not_brought_out_bp_d4() -> None:
    """Bringing out a traveller on the board cited BP-Q20, which says where one lands, not which may come out:
    only those waiting in the centre do (BP-D4)."""
    state = position({"yellow-1": Y(25)})
    state, _ = act(state, roll(6))
    ruling = GAME.check(state, {"type": "bring_out", "traveller": "yellow-1"})
    assert not ruling.legal and ruling.rules == ("BP-D4",) and ruling.text == "Yellow 1 is not in the centre."


def blocked_six(**options):
    return position(
        {
            "yellow-1": "camp",
            "yellow-2": "camp",
            "yellow-3": Y(31),
            "red-1": Y(37),
            "green-1": {"at": Y(37), "on": "red-1"},
        },
        players=("yellow", "red", "green"),
        options=options,
    )


def test_six_without_move_may_still_buy_a_card_bp_q18() -> None:
    state, events = act(blocked_six(), roll(6))
    assert GAME.pending(state).kind == "choose"
    assert [a["type"] for a in legal_moves(state)] == ["reroll", "coin", "coin"]
    again, _ = act(state, {"type": "reroll"})
    assert GAME.pending(again).kind == "roll" and GAME.pending(again).player == "yellow"
    strict, events = act(blocked_six(**{"six.noMoveCoinAllowed": False}), roll(6))
    assert GAME.pending(strict).kind == "roll" and GAME.pending(strict).player == "yellow"
    assert "BP-C7" in rules_of(events)


def test_six_chain_limit_bp_q19() -> None:
    state = position({"yellow-1": Y(25)}, options={"six.maxChain": 2})
    state, _ = play(state, roll(6), move("yellow-1"))
    assert GAME.pending(state).player == "yellow"
    state, _ = act(state, roll(6))
    assert "then the turn ends" in GAME.legal_actions(state)[2]["text"]
    state, events = act(state, move("yellow-1"))
    assert at(state, "yellow-1") == Y(37)
    assert GAME.pending(state).player == "red" and "BP-Q19" in rules_of(events)
    unlimited = position({"yellow-1": Y(25)})
    unlimited, _ = play(unlimited, roll(6), move("yellow-1"), roll(6), move("yellow-1"), roll(6))
    assert GAME.pending(unlimited).kind == "choose" and unlimited.six_chain == 3


def test_six_chain_limit_wording_counts_the_sixes_in_the_turn_bp_q19() -> None:
    """The option and its clause say what the limit counts: every six of the turn, the last one included."""
    spec = next(s for s in GAME.option_specs if s.key == "six.maxChain")
    for text in (spec.text, GAME.rulebook.clause("BP-Q19").text):
        assert "roll on from" not in text and "sixes in one turn" in text
        assert "with 2, only the first six rolls again" in text
    once = position({"yellow-1": Y(25)}, options={"six.maxChain": 1})
    once, _ = play(once, roll(6), move("yellow-1"))
    assert GAME.pending(once).player == "red"


def test_six_chain_limit_with_nothing_to_move_ends_turn_bp_q19() -> None:
    state = blocked_six(**{"six.maxChain": 1, "six.noMoveCoinAllowed": False})
    state, events = act(state, roll(6))
    assert GAME.pending(state).player == "red" and "BP-Q19" in rules_of(events)


def test_carrier_six_uses_table_bp_q10() -> None:
    spec = {"yellow-1": Y(25), "red-1": {"at": Y(25), "on": "yellow-1"}}
    state, events = play(position(spec), roll(6), move("yellow-1"))
    assert at(state, "yellow-1") == Y(28) and {"BP-C6", "BP-Q10"} <= rules_of(events)
    full, events = play(position(spec, options={"six.carrierUsesTable": False}), roll(6), move("yellow-1"))
    assert at(full, "yellow-1") == Y(31) and at(full, "red-1") == Y(31)
    assert "BP-Q10" in rules_of(events) and "BP-C6" not in rules_of(events)  # a full six, still BP-Q10's option


def test_glossary_draft_bp_q6() -> None:
    options = {"variant.glossaryDraft": True}
    state = position({"yellow-1": Y(3)}, options=options)
    forward, _ = play(state, roll(4), move("yellow-1"))  # ring 4 pulls 3 in the draft
    assert at(forward, "yellow-1") == Y(7)
    five, _ = act(state, roll(5))
    offered = legal_moves(five)
    assert {"type": "bring_out", "traveller": "yellow-2"} in offered and move("yellow-1") in offered
    out, _ = act(five, {"type": "bring_out", "traveller": "yellow-2"})
    assert at(out, "yellow-2") == Y(5)
    six, _ = act(state, roll(6))
    assert not [a for a in legal_moves(six) if a["type"] == "bring_out"]
    ruling = GAME.check(six, {"type": "bring_out", "traveller": "yellow-2"})
    assert not ruling.legal and ruling.rules == ("BP-Q6",)


def test_the_glossary_draft_cites_its_own_exit_roll_bp_q6() -> None:
    """In the draft a 5 brings a traveller out; refusals about leaving the centre must say so and cite BP-Q6.

    BP-D4 says a six brings one out, so citing it beside "only a roll of 5" contradicted itself, and a six
    once answered a centre traveller with "bring it out instead", the very thing the draft refuses on a six.
    """
    state = position({"yellow-1": Y(3)}, options={"variant.glossaryDraft": True})
    four, _ = act(state, roll(4))
    ruling = GAME.check(four, {"type": "bring_out", "traveller": "yellow-2"})
    assert not ruling.legal and ruling.rules == ("BP-Q6",) and "5" in ruling.text
    six, _ = act(state, roll(6))
    ruling = GAME.check(six, move("yellow-2"))
    assert not ruling.legal and ruling.rules == ("BP-Q6",), ruling
    assert "bring it out instead" not in ruling.text and "5" in ruling.text
    standard, _ = act(position({"yellow-1": Y(3)}), roll(6))
    ruling = GAME.check(standard, move("yellow-2"))
    assert not ruling.legal and ruling.rules == ("BP-C7",) and "bring it out instead" in ruling.text


# -- cards -----------------------------------------------------------------------


def test_draw_lists_every_card_left_in_the_deck_bp_c8() -> None:
    state, _ = play(position({"yellow-1": Y(25)}), roll(6), COIN_CURSE)
    assert GAME.pending(state).kind == "draw" and GAME.pending(state).deck == "curse"
    assert [a["card"] for a in GAME.legal_actions(state)] == ["freeze", "reset", "diagonal_step_down"]
    wrong = GAME.check(state, draw("curse", "awaken"))
    assert not wrong.legal and wrong.rules == ("BP-C8",)
    other = GAME.check(state, draw("charm", "awaken"))
    assert not other.legal and other.rules == ("BP-C8",)


def test_gust_of_force_order_matters_bp_q24() -> None:
    spec = {"yellow-1": Y(20), "yellow-2": Y(26), "red-1": {"at": Y(26), "on": "yellow-2"}, "yellow-3": Y(50)}
    state, _ = play(position(spec), roll(6), COIN_CHARM, draw("charm", "gust_of_force"))
    orders = [a["travellers"] for a in legal_moves(state)]
    assert sorted(orders) == [["yellow-1", "yellow-2"], ["yellow-2", "yellow-1"]]
    both, events = act(state, {"type": "order", "travellers": ["yellow-2", "yellow-1"]})
    assert at(both, "yellow-2") == Y(32) and at(both, "red-1") == Y(32)
    assert at(both, "yellow-1") == Y(26)
    assert at(both, "yellow-3") == Y(50)
    assert "BP-Q24" in rules_of(events)
    blocked, events = act(state, {"type": "order", "travellers": ["yellow-1", "yellow-2"]})
    assert at(blocked, "yellow-1") == Y(20) and at(blocked, "yellow-2") == Y(32)
    assert "stays where it is" in events[-1].text
    ruling = GAME.check(state, {"type": "order", "travellers": ["yellow-1"]})
    assert not ruling.legal and ruling.rules == ("BP-Q24",)


def test_gust_with_one_mover_resolves_at_once() -> None:
    state, _events = play(position({"yellow-1": Y(20)}), roll(6), COIN_CHARM, draw("charm", "gust_of_force"))
    assert at(state, "yellow-1") == Y(26) and GAME.pending(state).player == "red"


def test_diagonal_step_up_choices_bp_q25() -> None:
    spec = {"yellow-1": Y(1), "red-1": {"at": Y(1), "on": "yellow-1"}}
    state, _ = play(position(spec), roll(6), COIN_CHARM, draw("charm", "diagonal_step_up"))
    squares = sorted(a["square"] for a in legal_moves(state) if a["traveller"] == "yellow-1")
    assert squares == sorted(GAME.board.diagonal_out[Y(1)]) and len(squares) == 2
    state, _ = act(state, {"type": "target", "traveller": "yellow-1", "square": squares[0]})
    assert at(state, "yellow-1") == squares[0]
    assert at(state, "red-1") == Y(1) and state.by_id["red-1"].on is None


def test_diagonal_step_up_from_ring_2_stays_on_own_path() -> None:
    state, _ = play(position({"yellow-1": Y(48)}), roll(6), COIN_CHARM, draw("charm", "diagonal_step_up"))
    offered = [a["square"] for a in legal_moves(state) if a.get("traveller") == "yellow-1"]
    assert offered == [Y(50)]
    ruling = GAME.check(state, {"type": "target", "traveller": "yellow-1", "square": "a6"})
    assert not ruling.legal and ruling.rules == ("BP-Q25",)
    # The one reason that holds, not "it must be a free diagonal square one ring out on its path".
    assert ruling.text == "Yellow 1 cannot step to a6 (edge): it is not on Yellow's path."
    far = GAME.check(state, {"type": "target", "traveller": "yellow-1", "square": "c6"})
    assert far.text == ("Yellow 1 cannot step to c6 (ring 3): from b5 (ring 2) a step out reaches only "
                        "a4 (edge) or a6 (edge).")
    assert far.rules == ("BP-Q25",)
    wrong_side = GAME.check(state, {"type": "target", "traveller": "red-1", "square": "a6"})
    assert not wrong_side.legal and wrong_side.rules == ("BP-Q23",)


def test_freeze_targets_only_opponents_on_the_board_bp_q26() -> None:
    state, _ = play(position({"yellow-1": Y(25), "red-1": Y(30)}), roll(6), COIN_CURSE, draw("curse", "freeze"))
    assert legal_moves(state) == [{"type": "target", "traveller": "red-1"}]
    ruling = GAME.check(state, {"type": "target", "traveller": "yellow-1"})
    assert not ruling.legal and ruling.rules == ("BP-Q26",)
    assert ruling.text == "Freeze acts on an opponent's traveller, not Yellow 1."
    # Each reason said on its own: "...on the board that is not frozen; not Red 2" named none of them.
    waiting = GAME.check(state, {"type": "target", "traveller": "red-2"})
    assert waiting.text == "Red 2 waits in the centre: Freeze acts only on a traveller out on the board."
    assert waiting.rules == ("BP-Q26",)


def test_frozen_rider_is_not_carried_bp_q26() -> None:
    spec = {"yellow-1": Y(25), "red-1": {"at": Y(25), "on": "yellow-1", "frozen": True}}
    state, events = play(position(spec, coins={"yellow": 3, "red": 2}, decks={"curse": {"freeze": 0}}), roll(4))
    state, events = act(state, move("yellow-1"))
    assert at(state, "yellow-1") == Y(27) and at(state, "red-1") == Y(25)
    assert "frozen" in events[-1].text


def test_frozen_traveller_can_be_landed_on_bp_q26() -> None:
    spec = {"yellow-1": Y(25), "red-1": {"at": Y(28), "frozen": True}}
    state, _ = play(position(spec, coins={"yellow": 3, "red": 2}, decks={"curse": {"freeze": 0}}), roll(3))
    state, _ = act(state, move("yellow-1"))
    assert state.by_id["yellow-1"].on == "red-1"


def test_awaken_any_frozen_option_bp_q27() -> None:
    spec = {"yellow-1": Y(25), "red-1": {"at": Y(28), "frozen": True}}
    common = {"coins": {"yellow": 3, "red": 2}, "decks": {"curse": {"freeze": 0}}}
    own_only, events = play(position(spec, **common), roll(6), COIN_CHARM, draw("charm", "awaken"))
    assert own_only.by_id["red-1"].frozen and "nothing to act on" in events[-1].text
    anyone = position(spec, options={"awaken.anyFrozen": True}, **common)
    anyone, _ = play(anyone, roll(6), COIN_CHARM, draw("charm", "awaken"))
    assert legal_moves(anyone) == [{"type": "target", "traveller": "red-1"}]
    anyone, _ = act(anyone, {"type": "target", "traveller": "red-1"})
    assert not anyone.by_id["red-1"].frozen


def reset_position(**options):
    return position(
        {
            "yellow-1": Y(25),
            "red-1": Y(26),
            "yellow-2": {"at": Y(26), "on": "red-1"},
            "red-2": "camp",
            "red-3": {"at": Y(40), "frozen": True},
        },
        options=options,
        coins={"yellow": 3, "red": 2},
        decks={"curse": {"freeze": 0}},
    )


def test_reset_sends_travellers_to_the_centre_bp_q28() -> None:
    state, _ = play(reset_position(), roll(6), COIN_CURSE, draw("curse", "reset"))
    assert legal_moves(state) == [{"type": "target", "opponent": "red"}]
    state, events = act(state, {"type": "target", "opponent": "red"})
    assert at(state, "red-1") == "centre"
    assert at(state, "yellow-2") == Y(26) and state.by_id["yellow-2"].on is None
    assert at(state, "red-2") == "camp"
    assert at(state, "red-3") == Y(40) and state.by_id["red-3"].frozen
    assert events[-1].kind == "penalty" and {"BP-Q28", "BP-D4"} <= rules_of(events)


def test_reset_moves_frozen_with_option_bp_q26() -> None:
    state, _ = play(
        reset_position(**{"freeze.resetMoves": True}),
        roll(6),
        COIN_CURSE,
        draw("curse", "reset"),
        {"type": "target", "opponent": "red"},
    )
    assert at(state, "red-3") == "centre" and not state.by_id["red-3"].frozen


def test_reset_cannot_target_yourself_bp_q28() -> None:
    """Reset's own clause has the player pick an opponent (BP-Q28). The refusal cited BP-Q29, the choice among
    several opponents, which this two-player table does not have."""
    state, _ = play(reset_position(), roll(6), COIN_CURSE, draw("curse", "reset"))
    ruling = GAME.check(state, {"type": "target", "opponent": "yellow"})
    assert not ruling.legal and ruling.rules == ("BP-Q28",)
    assert ruling.text == "Reset is played on an opponent, not on Yellow."


def test_curse_target_choice_with_three_players_bp_q29() -> None:
    state = position({"yellow-1": Y(25), "red-1": R(5), "green-1": "camp", "green-2": R(30)},
                     players=("yellow", "red", "green"))
    state, _ = play(state, roll(6), COIN_CURSE, draw("curse", "reset"))
    assert legal_moves(state) == [{"type": "target", "opponent": "red"}, {"type": "target", "opponent": "green"}]
    _, events = act(state, {"type": "target", "opponent": "green"})
    assert events[-1].rules == ("BP-C9", "BP-Q28", "BP-D4", "BP-Q29")  # the choice among two is BP-Q29's
    two = position({"red-1": Y(30)}, phase="target", card="freeze")  # one opponent: no choice to explain
    assert act(two, {"type": "target", "traveller": "red-1"})[1][-1].rules == ("BP-C10", "BP-Q26")


def test_reset_with_nothing_to_send_back_is_spent_at_once_bp_c8() -> None:
    """Nobody's travellers can go back (centre, camp, frozen): no pointless choice of opponent."""
    spec = {"yellow-1": Y(25), "red-1": "camp", "red-2": {"at": Y(40), "frozen": True},
            "green-1": "camp", "green-2": "camp"}
    state = position(spec, players=("yellow", "red", "green"), coins={"yellow": 3, "red": 2, "green": 3},
                     decks={"curse": {"freeze": 0}})
    before = state.travellers
    state, events = play(state, roll(6), COIN_CURSE)
    state, events = act(state, draw("curse", "reset"))
    assert state.phase == "roll" and GAME.pending(state).player == "red"
    assert state.travellers == before and state.remaining["reset"] == 0 and state.coins_of("yellow") == 2
    assert "nothing to act on" in events[-1].text and events[-1].rules == ("BP-C8",)


def test_reset_of_a_frozen_traveller_counts_with_the_option_bp_q26() -> None:
    spec = {"yellow-1": Y(25), "red-1": "camp", "red-2": {"at": Y(40), "frozen": True}}
    state = position(spec, options={"freeze.resetMoves": True}, coins={"yellow": 3, "red": 2},
                     decks={"curse": {"freeze": 0}})
    state, _ = play(state, roll(6), COIN_CURSE, draw("curse", "reset"))
    assert legal_moves(state) == [{"type": "target", "opponent": "red"}]


def test_reset_still_offers_an_opponent_with_nothing_beside_one_with_something_bp_q23() -> None:
    state = position({"yellow-1": Y(25), "red-1": R(5)}, players=("yellow", "red", "green"))
    state, _ = play(state, roll(6), COIN_CURSE, draw("curse", "reset"))
    assert legal_moves(state) == [{"type": "target", "opponent": "red"}, {"type": "target", "opponent": "green"}]


# -- the end ----------------------------------------------------------------------


def test_continue_for_placings_bp_q30() -> None:
    state = position(
        {
            "yellow-1": "camp",
            "yellow-2": "camp",
            "yellow-3": Y(59),
            "red-1": "camp",
            "red-2": "camp",
            "red-3": R(59),
        },
        players=("yellow", "red", "green"),
        options={"continueForPlacings": True},
    )
    state, events = play(state, roll(2), move("yellow-3"))
    assert state.finished == ("yellow",) and GAME.pending(state).player == "red"
    assert events[-1].kind == "win"
    state, events = play(state, roll(1), move("red-3"))
    pending = GAME.pending(state)
    assert pending.kind == "over"
    assert pending.result == {"winner": "yellow", "placings": ["yellow", "red", "green"]}


def test_turn_skips_finished_players_bp_q30() -> None:
    state = position(
        {"yellow-1": "camp", "yellow-2": "camp", "yellow-3": "camp"},
        players=("yellow", "red", "green"),
        options={"continueForPlacings": True},
        finished=["yellow"],
        turn="green",
    )
    state, _ = act(state, roll(2))
    assert GAME.pending(state).player == "red"


def test_an_unknown_action_type_cites_the_turn_not_the_player_count() -> None:
    """`do {"type": "zzz"}` was refused citing BP-Q31, the player count and turn order decision, which says
    nothing about it. The game leaves the clause to the session, which cites what a turn is (BP-3)."""
    state = position({"yellow-1": Y(25)})
    with pytest.raises(InvalidAction) as refusal:
        act(state, {"type": "zzz"})
    assert refusal.value.rule is None and "the actions are roll, move, bring out" in refusal.value.message
    session = Session.load("blackpool", GAME.to_document(state))
    with pytest.raises(InvalidAction) as refusal:
        session.act({"type": "zzz"})
    assert refusal.value.rule == "BP-3" and "the actions are roll, move, bring out" in refusal.value.message


@pytest.mark.parametrize("when", ["before the roll", "after the roll"])
def test_a_pass_cites_moving_is_compulsory_bp_q33(when: str) -> None:
    """`{"type": "pass"}` cited BP-3 (the oracle's roll), which says nothing of passing; BP-Q33 does: a move
    that exists must be made. The session, the referee and the terminal all cite it; nothing changes."""
    state = position({"yellow-1": Y(25)})
    if when == "after the roll":
        state, _ = act(state, roll(2))
    session = Session.load("blackpool", GAME.to_document(state))
    before = session.document()
    for ask in (session.check, session.act):
        with pytest.raises(InvalidAction) as refusal:
            ask({"type": "pass"})
        assert refusal.value.rule == "BP-Q33" and "nobody may pass" in refusal.value.message, refusal.value
    referee = Referee()
    assert referee.handle({"cmd": "load", "game": "blackpool", "state": before})["ok"]
    answer = referee.handle({"cmd": "act", "action": {"type": "pass"}})
    assert answer["error"]["code"] == "invalid_action" and answer["error"]["rule"] == "BP-Q33", answer
    out = io.StringIO()
    Terminal(session, lambda: None, out).run(iter(['do {"type": "pass"}', "q"]))
    assert "[BP-Q33]" in out.getvalue(), out.getvalue()
    assert session.document() == before and session.log == []


def test_only_the_player_to_act_may_act_bp_q31() -> None:
    state = position({"yellow-1": Y(25)})
    before = GAME.to_document(state)
    with pytest.raises(IllegalAction) as refusal:
        act(state, {"type": "roll", "value": 3, "player": "red"})
    assert refusal.value.rule == "BP-Q31"
    assert GAME.to_document(state) == before
    ok, _ = act(state, {"type": "roll", "value": 3, "player": "yellow"})
    assert ok.roll == 3


def test_rider_never_lands_beside_its_own_colour_bp_7() -> None:
    """Without the arriving-stack count a carrier may make three, but not bring a rider onto its own colour."""
    spec = {"yellow-1": Y(25), "red-1": {"at": Y(25), "on": "yellow-1"}, "red-2": Y(27), "yellow-2": Y(50)}
    state = position(spec, options={"capacity.countsArrivingStack": False})
    state, _ = act(state, roll(4))
    ruling = GAME.check(state, move("yellow-1"))
    assert not ruling.legal and ruling.rules == ("BP-7",) and "its rider Red 1" in ruling.text


# -- clauses cited by refusals ------------------------------------------------------


def test_six_move_refusals_cite_why_the_traveller_cannot_move_bp_c10_bp_q7() -> None:
    """On a six, a frozen traveller is refused by the Freeze clause and one at home by BP-Q7, as on other rolls."""
    state = position({"yellow-1": {"at": Y(12), "frozen": True}, "yellow-2": "camp", "yellow-3": Y(25)})
    state, _ = act(state, roll(6))
    assert state.phase == "six"
    frozen = GAME.check(state, move("yellow-1"))
    assert not frozen.legal and frozen.rules == ("BP-C10",)
    home = GAME.check(state, move("yellow-2"))
    assert not home.legal and home.rules == ("BP-Q7",)


def test_coin_or_reroll_without_a_six_cites_the_six_rules_bp_q21_bp_c7() -> None:
    """A coin is paid only with a six (BP-Q21), and only the six gives another roll (BP-C7)."""
    state = position({"yellow-1": Y(30)})
    state, _ = act(state, roll(3))
    assert state.phase == "move"
    coin = GAME.check(state, COIN_CHARM)
    assert not coin.legal and coin.rules == ("BP-Q21",) and "six" in coin.text
    again = GAME.check(state, {"type": "reroll"})
    assert not again.legal and again.rules == ("BP-C7",) and "six" in again.text
    assert GAME.legal_actions(state) == GAME.legal_actions(position({"yellow-1": Y(30)}, phase="move", roll=3))
