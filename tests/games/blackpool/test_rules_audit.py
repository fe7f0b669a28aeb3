"""Audit of Blackpool against the rule text and DECISIONS.md section 3: interactions of two rules.

The audit found no behaviour to change; these tests pin the interactions it checked that the other
test files did not reach (riders and cards, freeze and the centre, the end of the game on a six).
"""

from __future__ import annotations

import pytest

from companion.errors import IllegalAction, InvalidPosition
from tests.games.blackpool.helpers import GAME, Y, act, at, play, position, roll, rules_of

COIN_CHARM = {"type": "coin", "deck": "charm"}
COIN_CURSE = {"type": "coin", "deck": "curse"}


def test_gust_leaves_a_carried_rider_in_the_water_bp_q24_bp_c5() -> None:
    """Gust blows the carrier onto the edge; its rider is never carried there and stays behind."""
    state = position({"yellow-1": Y(45), "red-1": {"at": Y(45), "on": "yellow-1"}})
    state, events = play(state, roll(6), COIN_CHARM, {"type": "draw", "deck": "charm", "card": "gust_of_force"})
    assert at(state, "yellow-1") == Y(51)
    assert at(state, "red-1") == Y(45) and state.by_id["red-1"].on is None
    assert "BP-Q24" in rules_of(events)
    # The announcement says the rider stays, and cites why: it cited BP-C9 and BP-Q24 alone.
    blown = next(event for event in events if "Red 1 stays on" in event.text)
    assert "a rider is never carried onto the edge" in blown.text
    assert blown.rules == ("BP-C9", "BP-Q24", "BP-C5", "BP-Q16")


def test_carrier_pulled_into_the_centre_leaves_a_frozen_rider_bp_q15_bp_q26() -> None:
    """A carrier pulled back past the start goes to the centre; a frozen rider does not move with it."""
    spec = {"yellow-1": Y(1), "red-1": {"at": Y(1), "on": "yellow-1", "frozen": True}}
    state = position(spec, coins={"yellow": 3, "red": 2}, decks={"curse": {"freeze": 0}})
    state, _ = play(state, roll(1), {"type": "move", "traveller": "yellow-1"})
    assert at(state, "yellow-1") == "centre"
    assert at(state, "red-1") == Y(1) and state.by_id["red-1"].on is None and state.by_id["red-1"].frozen


def test_a_winning_six_move_ends_the_game_without_a_roll_again_bp_q30() -> None:
    state = position({"yellow-1": "camp", "yellow-2": "camp", "yellow-3": Y(57)})
    offered = GAME.legal_actions(play(state, roll(6))[0])
    winning = next(a for a in offered if a.get("traveller") == "yellow-3")
    assert "then the turn ends" in winning["text"] and "roll again" not in winning["text"]  # it rolls no more
    state, events = play(state, roll(6), {"type": "move", "traveller": "yellow-3"})
    pending = GAME.pending(state)
    assert pending.kind == "over" and pending.result == {"winner": "yellow"}
    assert "BP-1" in rules_of(events)
    placings = position(
        {"yellow-1": "camp", "yellow-2": "camp", "yellow-3": Y(57)},
        players=("yellow", "red", "green"),
        options={"continueForPlacings": True},
    )
    placings, _ = play(placings, roll(6), {"type": "move", "traveller": "yellow-3"})
    assert placings.finished == ("yellow",) and GAME.pending(placings).player == "red"


def test_reset_takes_an_opponent_off_your_traveller_bp_q28() -> None:
    state = position({"yellow-1": Y(30), "red-1": {"at": Y(30), "on": "yellow-1"}})
    state, _ = play(
        state,
        roll(6),
        COIN_CURSE,
        {"type": "draw", "deck": "curse", "card": "reset"},
        {"type": "target", "opponent": "red"},
    )
    assert at(state, "red-1") == "centre" and state.by_id["red-1"].on is None
    assert at(state, "yellow-1") == Y(30) and state.riders == {}


def test_bring_out_onto_a_lone_opponent_rides_it_bp_q20_bp_7() -> None:
    state = position({"red-1": Y(6)})
    state, events = play(state, roll(6), {"type": "bring_out", "traveller": "yellow-1"})
    assert at(state, "yellow-1") == Y(6) and state.by_id["yellow-1"].on == "red-1"
    assert {"BP-Q20", "BP-7"} <= rules_of(events)
    again, _ = act(state, roll(5))  # red now carries Yellow 1: heavy, forward 3 for a 5
    offered = GAME.legal_actions(again)
    assert any(a.get("traveller") == "red-1" and "forward 3" in a["text"] for a in offered)


def test_a_six_move_for_a_traveller_shut_in_the_centre_names_the_blocked_exit_bp_q20() -> None:
    """'Yellow 1 is in the centre: bring it out instead.' was the answer while its exit square held Yellow 2,
    so no bring-out was offered; the answer now names the exit and the landing rule that shuts it, citing
    BP-Q20 (a blocked sixth square takes the bring-out away) rather than the landing rule BP-7 behind it."""
    state, _ = play(position({"yellow-2": Y(6)}), roll(6))
    assert all(a["type"] != "bring_out" for a in GAME.legal_actions(state))
    with pytest.raises(IllegalAction) as refused:
        act(state, {"type": "move", "traveller": "yellow-1"})
    assert refused.value.rule == "BP-Q20"
    assert "the 6 cannot bring it out" in refused.value.message and "its own colour" in refused.value.message
    full = position({"red-1": Y(6), "green-1": {"at": Y(6), "on": "red-1"}}, players=("yellow", "red", "green"))
    full, _ = play(full, roll(6))
    with pytest.raises(IllegalAction) as two:
        act(full, {"type": "move", "traveller": "yellow-1"})
    assert two.value.rule == "BP-Q20" and "already holds two" in two.value.message


@pytest.mark.parametrize("blocker", [{"yellow-2": Y(6)}, {"red-1": Y(6), "green-1": {"at": Y(6), "on": "red-1"}}])
def test_a_bring_out_onto_a_blocked_sixth_square_cites_bp_q20(blocker: dict) -> None:
    """A six that cannot bring Yellow 1 out (Yellow 2 on its sixth square, or two travellers there) was refused
    citing BP-7, the general landing rule; BP-Q20 is the clause on the bring-out and its blocked square."""
    state, _ = play(position(blocker, players=("yellow", "red", "green")), roll(6))
    bring_out = {"type": "bring_out", "traveller": "yellow-1"}
    with pytest.raises(IllegalAction) as refused:
        act(state, bring_out)
    assert refused.value.rule == "BP-Q20" and "cannot land on" in refused.value.message
    assert GAME.check(state, bring_out).rules == ("BP-Q20",)
    open_exit, _ = play(position({"yellow-2": Y(9)}), roll(6))  # a free exit: the six's own option is the answer
    with pytest.raises(IllegalAction) as free:
        act(open_exit, {"type": "move", "traveller": "yellow-1"})
    assert free.value.rule == "BP-C7" and "bring it out instead" in free.value.message


def test_the_glossary_drafts_5_for_a_traveller_shut_in_the_centre_names_the_blocked_exit_bp_7() -> None:
    """In the draft a 5 brings travellers out (BP-Q6); with the exit square holding Yellow 2 the answer was
    'the 5 brings it out, as a bring-out, not a move', and no bring-out was offered. BP-Q20 speaks of the
    six and the sixth square, so here the landing rule itself is cited."""
    draft = {"variant.glossaryDraft": True}
    state, _ = play(position({"yellow-2": Y(5)}, options=draft), roll(5))
    assert all(a["type"] != "bring_out" for a in GAME.legal_actions(state))
    with pytest.raises(IllegalAction) as refused:
        act(state, {"type": "move", "traveller": "yellow-1"})
    assert refused.value.rule == "BP-7" and "the 5 cannot bring it out" in refused.value.message


def test_a_six_that_runs_past_the_camp_cites_the_camp_clause_bp_c3() -> None:
    """Four squares from camp, a six ends in camp: the move cited only BP-C7 (the six's options), so 'why camp,
    with two squares to spare?' found no clause; an ordinary move there cites BP-C3."""
    state = position({"yellow-1": Y(56)})
    state, events = play(state, roll(6), {"type": "move", "traveller": "yellow-1"})
    assert at(state, "yellow-1") == "camp"
    moved = next(e for e in events if e.kind == "move")
    assert {"BP-C7", "BP-C3"} <= set(moved.rules)
    _, events = play(position({"yellow-1": Y(57)}), roll(5), {"type": "move", "traveller": "yellow-1"})
    assert "BP-C3" in next(e for e in events if e.kind == "move").rules  # as before


def test_a_position_with_a_frozen_traveller_in_the_centre_is_refused_bp_q26() -> None:
    """Nothing puts a frozen traveller in the centre (Freeze acts on the board; a frozen rider is left behind by its
    carrier; a step in refuses it); loaded anyway, a six told it 'bring it out instead' citing BP-C10."""
    doc = GAME.to_document(position({"yellow-2": Y(9)}))
    doc["travellers"]["red-1"] = {"at": "centre", "frozen": True}
    with pytest.raises(InvalidPosition) as refused:
        GAME.from_document(doc)
    assert "red-1 waits in the centre and cannot be frozen" in refused.value.problems


def test_each_reset_choice_says_which_travellers_it_sends_back_bp_q28() -> None:
    """'Reset Green' named no traveller: the table learnt only once it was played that Green 2 and Green 3 went
    back, or that Red had nothing to send back. Each choice says it now, as playing it does."""
    players = ("yellow", "red", "green")
    state = position({"yellow-1": Y(30), "green-2": "f8", "green-3": "h7"}, players=players)
    state, _ = play(state, roll(6), COIN_CURSE, {"type": "draw", "deck": "curse", "card": "reset"})
    texts = {a["opponent"]: a["text"] for a in GAME.legal_actions(state) if a["type"] == "target"}
    assert texts == {"red": "Reset Red: nothing goes back",
                     "green": "Reset Green: Green 2 and Green 3 back to their starting circles"}, texts
    done, events = act(state, {"type": "target", "opponent": "green"})  # as said, so done
    assert at(done, "green-2") == at(done, "green-3") == "centre" and "Green 2 goes back" in events[0].text
