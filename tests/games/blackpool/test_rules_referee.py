"""Blackpool refereed clause by clause against the rule text and DECISIONS.md section 3.

Each test is a place where the engine said or did something the rules do not: the ending named, a
clause cited, or a message that sent the table looking for something that was not there.
"""

from __future__ import annotations

import pytest

from companion.errors import InvalidPosition
from tests.games.blackpool.helpers import GAME, Y, act, play, position, roll, rules_of


def test_a_win_is_announced_as_a_win_though_the_rival_left_is_frozen_for_good_bp_1_bp_q30() -> None:
    """Yellow brings the third traveller home while Red 2 is frozen with no Awaken left: the game ends on
    Yellow's win (BP-1), not because nobody still racing can finish (the closing text said so, with
    'the places already taken stand', and the result carried that reason)."""
    state = position(
        {"yellow-1": "camp", "yellow-2": "camp", "yellow-3": Y(57),
         "red-1": "camp", "red-2": {"at": "c5", "frozen": True}, "red-3": "camp"},
        coins={"yellow": 2, "red": 2},
        decks={"charm": {"awaken": 0}, "curse": {"freeze": 0}},
    )
    state, events = play(state, roll(4), {"type": "move", "traveller": "yellow-3"})
    pending = GAME.pending(state)
    assert pending.is_over and pending.result == {"winner": "yellow"}
    assert pending.text == "Yellow has all three travellers in camp and wins."
    assert "BP-1" in rules_of(events)


def test_a_six_with_no_move_at_the_six_limit_offers_no_roll_again_bp_q19() -> None:
    """With six.maxChain 2, the second six of a turn with nothing to move leaves a coin or the end of the
    turn; it was announced as 'roll again or spend a coin' beside the choice 'no more re-rolls: end the turn'."""
    state = position(
        {"yellow-1": "camp", "yellow-2": "camp", "yellow-3": {"at": Y(50), "frozen": True}},
        options={"six.maxChain": 2},
        sixChain=1,
    )
    state, events = act(state, roll(6))
    said = events[-1]
    assert "roll again" not in said.text and "no re-roll left" in said.text
    assert said.rules == ("BP-Q18", "BP-Q19")
    offered = [a["text"] for a in GAME.legal_actions(state) if a["type"] == "reroll"]
    assert offered == ["Nothing to move and no more re-rolls: end the turn"]
    first = position({"yellow-1": "camp", "yellow-2": "camp", "yellow-3": {"at": Y(50), "frozen": True}},
                     options={"six.maxChain": 2})
    assert act(first, roll(6))[1][-1].text == "Yellow has no move for the six: roll again or spend a coin."


def test_a_position_rolling_on_with_the_six_limit_reached_is_refused_bp_q19() -> None:
    """The limit's six is the turn's last roll (BP-Q19): a position waiting for a roll, or a move, with
    sixChain at six.maxChain was loaded, and a six rolled there counted a chain past the limit."""
    for phase, roll_value in (("roll", None), ("move", 4)):
        with pytest.raises(InvalidPosition) as bad:
            position({"yellow-1": Y(10)}, options={"six.maxChain": 2}, sixChain=2, phase=phase, roll=roll_value)
        assert bad.value.problems == [
            f'sixChain 2 reaches the limit six.maxChain 2, so the turn has no roll after it: phase "{phase}" '
            "needs sixChain below 2 (BP-Q19)"
        ]
    state = position({"yellow-1": Y(10)}, options={"six.maxChain": 2}, sixChain=1, phase="roll")
    state, _ = act(state, roll(6))
    assert state.six_chain == 2 and state.phase == "six"


def test_the_glossary_drafts_bring_out_cites_its_own_clause_bp_q6() -> None:
    """In the draft a 5 brings a traveller out onto path square 5; the announcement cited BP-8, BP-Q20 and
    BP-D4, which say a six brings one out onto the sixth square."""
    state = position({"yellow-1": Y(10)}, options={"variant.glossaryDraft": True})
    state, events = play(state, roll(5), {"type": "bring_out", "traveller": "yellow-2"})
    assert events[-1].text == f"Yellow 2 comes out of the centre to {GAME.board.label(Y(5))}."
    assert events[-1].rules == ("BP-Q6",)
    ruling = GAME.check(act(position({"yellow-1": Y(10)}, options={"variant.glossaryDraft": True}), roll(5))[0],
                        {"type": "bring_out", "traveller": "yellow-3"})
    assert ruling.legal and ruling.rules == ("BP-Q6",)
    _, events = play(position({"yellow-1": Y(10)}), roll(6), {"type": "bring_out", "traveller": "yellow-2"})
    assert events[-1].rules == ("BP-8", "BP-Q20", "BP-D4")


def test_a_six_names_only_the_choices_it_gives_bp_c7() -> None:
    """The six's prompt listed 'move six, bring one out, or spend a coin' whatever the six allowed: at the
    opening (all in the centre, nothing to move six), with no coins, in the draft (no bring-out on a six)."""
    def prompt(state: object) -> str:
        return GAME.pending(act(state, roll(6))[0]).text

    assert prompt(position()) == "Yellow rolled a six: bring one out or spend a coin."
    assert prompt(position({"yellow-1": Y(10)})) == "Yellow rolled a six: move six, bring one out, or spend a coin."
    spent = position({"yellow-1": Y(10)}, coins={"yellow": 0, "red": 3},
                     decks={"charm": {"gust_of_force": 0, "awaken": 0, "diagonal_step_up": 0}})
    assert prompt(spent) == "Yellow rolled a six: move six or bring one out."
    draft = position({"yellow-1": Y(10)}, options={"variant.glossaryDraft": True})
    assert prompt(draft) == "Yellow rolled a six: move six or spend a coin."
    stuck = position({"yellow-1": "camp", "yellow-2": "camp", "yellow-3": {"at": Y(50), "frozen": True}})
    assert prompt(stuck) == "Yellow rolled a six: spend a coin or roll again."
    limit = position({"yellow-1": "camp", "yellow-2": "camp", "yellow-3": {"at": Y(50), "frozen": True}},
                     options={"six.maxChain": 1})
    assert prompt(limit) == "Yellow rolled a six: spend a coin or end the turn."


def test_a_diagonal_step_from_a_square_no_step_leaves_says_so_bp_q25() -> None:
    """Diagonal Step Up on a traveller in a ring-2 corner (its one diagonal out is a camp) was refused with
    'from b2 (ring 2) a step out reaches only no square'."""
    state = position({"yellow-1": "b2", "yellow-2": Y(20)}, decks={"charm": {"gust_of_force": 0, "awaken": 0}},
                     coins={"yellow": 1, "red": 3})
    state, _ = play(state, roll(6), {"type": "coin", "deck": "charm"},
                    {"type": "draw", "deck": "charm", "card": "diagonal_step_up"})
    ruling = GAME.check(state, {"type": "target", "traveller": "yellow-1", "square": "a3"})
    assert not ruling.legal and ruling.rules == ("BP-Q25",)
    assert ruling.text == "Yellow 1 cannot step to a3 (edge): no square lies diagonally one ring out from b2 (ring 2)."


def test_diagonal_step_down_reaches_every_square_touching_corner_to_corner_one_ring_in_bp_q25() -> None:
    """Clarification 9 and BP-Q25: a step in goes to a square diagonally one ring in, the player choosing when
    there are two. On the house board a traveller on e3, the middle of ring 3's side, touches d4 and f4 of ring
    4 corner to corner, yet no step in left it (Diagonal Step Down could never be played on it), and one on d8
    could step only to e7, not c7."""
    state = position({"yellow-1": Y(10), "red-1": "e3", "red-2": "d8"}, coins={"yellow": 3, "red": 2},
                     decks={"curse": {"freeze": 0}})
    state, _ = play(state, roll(6), {"type": "coin", "deck": "curse"},
                    {"type": "draw", "deck": "curse", "card": "diagonal_step_down"})
    offered = {(a["traveller"], a["square"]) for a in GAME.legal_actions(state)}
    assert {("red-1", "d4"), ("red-1", "f4"), ("red-2", "c7"), ("red-2", "e7")} <= offered
    state, events = act(state, {"type": "target", "traveller": "red-1", "square": "f4"})
    assert state.by_id["red-1"].at == "f4" and events[-1].rules == ("BP-C9", "BP-Q25")


def test_the_text_boards_legend_says_the_centre_shows_who_waits_there_bp_4() -> None:
    """The centre square reads '(C:6)' at the opening (six travellers waiting), beside ring squares showing
    their pulls 4, 3 and 2; the legend said only that water squares show their pull, so the centre read as
    pulling 6 (BP-4: it pulls 5)."""
    lines = GAME.describe(position())
    grid = "\n".join(lines[:9])
    assert "(C:6)" in grid
    legend = next(line for line in lines if "show their pull" in line)
    assert "(C:n) n waiting in the centre" in legend


def test_awaken_aimed_at_a_rivals_traveller_says_whose_it_is_bp_q27() -> None:
    """Awaken thaws one of the player's own travellers; aimed at a rival's traveller that is not frozen it was
    refused as 'it is not frozen', as if a rival's frozen one could be awakened."""
    spec = {"yellow-1": {"at": Y(10), "frozen": True}, "yellow-2": Y(20), "red-1": Y(30)}
    state = position(spec, coins={"yellow": 3, "red": 2}, decks={"curse": {"freeze": 0}})
    state, _ = play(state, roll(6), {"type": "coin", "deck": "charm"},
                    {"type": "draw", "deck": "charm", "card": "awaken"})
    ruling = GAME.check(state, {"type": "target", "traveller": "red-1"})
    assert not ruling.legal and ruling.text == "Awaken cannot act on Red 1: it is not Yellow's."
    assert ruling.rules == ("BP-Q27",)
    own = GAME.check(state, {"type": "target", "traveller": "yellow-2"})
    assert own.text == "Awaken cannot act on Yellow 2: it is not frozen."
    anyone = position(spec, coins={"yellow": 3, "red": 2}, decks={"curse": {"freeze": 0}},
                      options={"awaken.anyFrozen": True})
    anyone, _ = play(anyone, roll(6), {"type": "coin", "deck": "charm"},
                     {"type": "draw", "deck": "charm", "card": "awaken"})
    assert GAME.check(anyone, {"type": "target", "traveller": "red-1"}).text.endswith("it is not frozen.")


def test_a_roll_again_refused_on_a_six_names_the_choices_this_six_gives_bp_c7() -> None:
    """A re-roll asked for while the six gives a move was answered 'choose a move, a bring-out or a coin',
    to a player with no coin left."""
    state = position({"yellow-1": Y(10)}, coins={"yellow": 0, "red": 3},
                     decks={"charm": {"gust_of_force": 0, "awaken": 0, "diagonal_step_up": 0}})
    state, _ = act(state, roll(6))
    ruling = GAME.check(state, {"type": "reroll"})
    assert not ruling.legal and ruling.rules == ("BP-C7",)
    assert ruling.text.endswith("this six allows: move six or bring one out.")


def test_gust_of_force_asks_for_the_order_it_blows_in_bp_q24() -> None:
    """Gust of Force moves each of the player's travellers in the water (clarification 9); the player picks
    only the order (BP-Q24). The prompt asked 'choose what Gust of Force acts on', as if it moved one."""
    state = position({"yellow-1": Y(10), "yellow-2": Y(20)})
    state, _ = play(state, roll(6), {"type": "coin", "deck": "charm"},
                    {"type": "draw", "deck": "charm", "card": "gust_of_force"})
    assert GAME.pending(state).text == "Yellow: choose the order Gust of Force blows your travellers in."
    assert {a["type"] for a in GAME.legal_actions(state)} == {"order"}


def test_a_position_waiting_for_a_move_with_a_six_in_hand_is_refused_bp_8() -> None:
    """A six is decided among its three options (rule 8); a position in phase "move" with roll 6 was loaded
    and offered only 'forward 6' moves, without the roll again, the bring-out or the coin."""
    with pytest.raises(InvalidPosition, match=r'a roll of 6 is decided in phase "six"'):
        position({"yellow-1": Y(10)}, phase="move", roll=6)
    five = position({"yellow-1": Y(10)}, phase="move", roll=5)
    assert GAME.pending(five).text == "Yellow rolled 5: choose the traveller to move."


def test_a_coin_says_whether_it_counts_cards_or_coins_bp_q21() -> None:
    """The offer 'Spend a coin on the charm deck (1 left)' counted the cards in the deck, and the
    announcement 'Yellow spends a coin on the charm deck (2 left)' the coins: one phrase, two counts."""
    state = position({"yellow-1": Y(10)}, coins={"yellow": 3, "red": 1},
                     decks={"charm": {"gust_of_force": 0, "awaken": 0}})
    state, _ = act(state, roll(6))
    offers = [a["text"] for a in GAME.legal_actions(state) if a["type"] == "coin"]
    assert offers == ["Spend a coin on the charm deck (for you; 1 card left)",
                      "Spend a coin on the curse deck (against a rival; 3 cards left)"]
    _, events = act(state, {"type": "coin", "deck": "charm"})
    assert events[-1].text == "Yellow spends a coin on the charm deck (2 coins left)."


def test_why_at_an_empty_square_on_a_draft_six_does_not_promise_a_bring_out_bp_q6() -> None:
    """In the glossary draft a six brings nobody out (only a 5 does); 'why e6' at the square a 5 would bring
    a traveller out to was told that on the six a traveller 'comes out of the centre onto it'."""
    from companion.places import explain_place, place_from_text
    from companion.session import Session

    travellers = {f"{c}-{n}": {"at": "centre"} for c in ("yellow", "red") for n in (1, 2, 3)}
    travellers["yellow-1"] = {"at": Y(10)}
    document = {"game": "blackpool", "players": ["yellow", "red"], "turn": "yellow", "phase": "roll",
                "options": {"variant.glossaryDraft": True}, "travellers": travellers}
    session = Session.load("blackpool", document)
    session.act({"type": "roll", "value": 6})
    ruling = explain_place(session, place_from_text(Y(5)))
    assert not ruling.legal and "comes out of the centre onto it" not in ruling.text
    assert "in the glossary draft only a 5 brings one out of the centre" in ruling.text
    assert ruling.rules[:2] == ("BP-C7", "BP-Q6")


def test_the_end_of_game_clause_names_the_exit_shut_for_good_bp_q30() -> None:
    """A game also ends when a traveller waits in the centre behind an exit held for good by frozen
    travellers; that ending cites BP-Q30 first, whose summary spoke only of frozen travellers nobody thaws."""
    summary = GAME.rulebook.clause("BP-Q30").text
    assert "waiting in the centre" in summary and "held for good" in summary
