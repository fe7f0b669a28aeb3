"""Blackpool decisions of DECISIONS.md 3.2 that no worked case plays through, on the house 9x9 board."""

from __future__ import annotations

from tests.games.blackpool.helpers import GAME, Y, act, at, legal_moves, move, play, position, roll, rules_of


def test_bp_q11_squares_passed_over_may_be_occupied() -> None:
    state = position({"yellow-1": Y(25), "yellow-2": Y(26), "red-1": Y(27), "red-2": Y(28)})
    state, events = play(state, roll(5), move("yellow-1"))  # over its own traveller and two reds
    assert at(state, "yellow-1") == Y(30)
    assert events[-1].rules == ("BP-5", "BP-Q11")  # the move said only BP-5, not why it could pass them
    clear, plain = play(position({"yellow-1": Y(25)}), roll(5), move("yellow-1"))
    assert at(clear, "yellow-1") == Y(30) and plain[-1].rules == ("BP-5",)  # nobody in the way


def test_bp_q11_a_traveller_brought_out_passes_over_path_squares_one_to_five() -> None:
    """A six brings a traveller out onto path square 6, square 1 counted first (BP-Q20): a traveller on square 3
    is passed over, and the bring-out cited no BP-Q11 for it, as a move passing it does."""
    state, events = play(position({"yellow-1": Y(3), "red-1": Y(10)}), roll(6),
                         {"type": "bring_out", "traveller": "yellow-2"})
    assert at(state, "yellow-2") == Y(6) and events[-1].rules == ("BP-8", "BP-Q20", "BP-D4", "BP-Q11")
    _, events = play(position({"yellow-1": Y(7), "red-1": Y(10)}), roll(6),
                     {"type": "bring_out", "traveller": "yellow-2"})
    assert events[-1].rules == ("BP-8", "BP-Q20", "BP-D4")  # square 7 lies past where it lands: nobody passed
    draft, events = play(position({"yellow-1": Y(4), "red-1": Y(10)}, options={"variant.glossaryDraft": True}),
                         roll(5), {"type": "bring_out", "traveller": "yellow-2"})
    assert at(draft, "yellow-2") == Y(5) and events[-1].rules == ("BP-Q6", "BP-Q11")  # the draft's 5 passes 1 to 4


def test_bp_q34_landing_exactly_on_path_square_one_is_a_normal_move() -> None:
    state = position({"yellow-2": Y(3)})
    after, events = play(state, roll(2), move("yellow-2"))  # pulled back 2 in ring 4
    assert at(after, "yellow-2") == Y(1) and events[-1].rules == ("BP-5", "BP-Q34")
    past, events = play(state, roll(3), move("yellow-2"))  # one further is past the start: the centre
    assert at(past, "yellow-2") == "centre" and events[-1].rules == ("BP-5", "BP-C3", "BP-Q34")


def test_bp_q35_a_camp_takes_a_traveller_whose_colour_is_already_there() -> None:
    state = position({"yellow-1": "camp", "yellow-2": Y(58)})
    state, events = play(state, roll(5), move("yellow-2"))
    assert at(state, "yellow-1") == at(state, "yellow-2") == "camp"
    assert not GAME.pending(state).is_over and state.turn == "red"
    assert "BP-Q35" in events[-1].rules
    first, events = play(position({"yellow-2": Y(58)}), roll(5), move("yellow-2"))  # nobody home yet
    assert at(first, "yellow-2") == "camp" and "BP-Q35" not in events[-1].rules


def test_bp_q36_on_the_edge_a_one_still_goes_forward() -> None:
    state = position({"yellow-1": Y(50)})
    state, _ = act(state, roll(1))
    assert legal_moves(state) == [move("yellow-1")]  # the only way to go; nothing else may be chosen
    assert GAME.check(state, move("yellow-1")).rules == ("BP-5", "BP-Q36")
    state, events = act(state, move("yellow-1"))
    assert at(state, "yellow-1") == Y(51) and "BP-Q36" in events[-1].rules


def test_bp_q26_a_diagonal_step_at_a_frozen_traveller_says_it_is_frozen() -> None:
    """The refusal used to call e3, a free square diagonally in on Yellow's path, not a free diagonal square."""
    state = position({"red-1": Y(6), "yellow-1": {"at": Y(29), "frozen": True}, "yellow-2": Y(30)}, turn="red")
    state, _ = play(state, roll(6), {"type": "coin", "deck": "curse"},
                    {"type": "draw", "deck": "curse", "card": "diagonal_step_down"})
    assert "e3" in GAME.board.diagonal_in[Y(29)] and {"type": "target", "traveller": "yellow-1", "square": "e3"} \
        not in legal_moves(state)
    before = GAME.to_document(state)
    ruling = GAME.check(state, {"type": "target", "traveller": "yellow-1", "square": "e3"})
    assert not ruling.legal and ruling.rules == ("BP-Q26",) and "frozen" in ruling.text
    assert GAME.to_document(state) == before


def test_bp_q25_a_diagonal_step_at_a_traveller_in_camp_says_where_it_is() -> None:
    state = position({"red-1": Y(6), "yellow-1": "camp", "yellow-2": Y(30)}, turn="red")
    state, _ = play(state, roll(6), {"type": "coin", "deck": "curse"},
                    {"type": "draw", "deck": "curse", "card": "diagonal_step_down"})
    ruling = GAME.check(state, {"type": "target", "traveller": "yellow-1", "square": "e3"})
    assert not ruling.legal and ruling.rules == ("BP-Q25",) and "in camp" in ruling.text


def test_project_decision_4_everyone_starts_in_the_centre_and_only_a_six_brings_one_out() -> None:
    state = GAME.setup(["yellow", "red"], GAME.resolve_options({}))
    assert {t.at for t in state.travellers} == {"centre"} and state.coins == (3, 3)
    passed, events = act(state, roll(5))
    assert passed.turn == "red" and passed.phase == "roll" and "BP-C2" in rules_of(events)
    six, _ = act(state, roll(6))
    outs = [a["traveller"] for a in legal_moves(six) if a["type"] == "bring_out"]
    assert outs == ["yellow-1", "yellow-2", "yellow-3"]


def test_bp_q9_a_roll_equal_to_the_pull_is_no_move() -> None:
    state, _ = act(position({"yellow-1": Y(12), "yellow-2": Y(2)}), roll(3))  # ring 3 pulls 3; ring 4 pulls 4
    assert legal_moves(state) == [move("yellow-2")]  # pulled back: the equal one is no candidate at all
    ruling = GAME.check(state, move("yellow-1"))
    assert not ruling.legal and ruling.rules == ("BP-5",) and "stays" in ruling.text
    # Alone on the path, the equal one stays and the turn passes: the pass cites BP-Q9 beside BP-C2.
    state, events = act(position({"yellow-1": Y(12)}), roll(3))
    assert at(state, "yellow-1") == Y(12) and state.turn == "red" and events[-1].rules == ("BP-C2", "BP-Q9")
    frozen = position({"yellow-1": {"at": Y(12), "frozen": True}})  # held by the frost, not an equal roll
    assert act(frozen, roll(3))[1][-1].rules == ("BP-C2",)


def test_bp_q38_a_frozen_traveller_is_no_forward_candidate_so_the_back_move_is_made() -> None:
    state, _ = act(position({"yellow-1": {"at": Y(26), "frozen": True}, "yellow-2": Y(3)}), roll(3))
    assert legal_moves(state) == [move("yellow-2")]  # Yellow 1 would beat ring 2's pull, but it is frozen
    ruling = GAME.check(state, move("yellow-1"))
    assert not ruling.legal and ruling.rules == ("BP-C10",)
    state, events = act(state, move("yellow-2"))
    assert at(state, "yellow-2") == "centre"  # back 3 from path square 3 goes past the start
    assert events[-1].text.endswith("Yellow 1 is frozen and cannot go ahead.")  # said, not left to guess
    assert events[-1].rules == ("BP-5", "BP-C3", "BP-Q34", "BP-Q38")


def test_bp_q24_gust_of_force_blows_an_own_rider_off_its_carrier_which_stays() -> None:
    spec = {"yellow-1": {"at": Y(12), "on": "red-2"}, "red-2": Y(12), "yellow-2": Y(50)}
    state, _ = play(position(spec), roll(6), {"type": "coin", "deck": "charm"},
                    {"type": "draw", "deck": "charm", "card": "gust_of_force"})
    assert at(state, "yellow-1") == Y(18) and state.by_id["yellow-1"].on is None
    assert at(state, "red-2") == Y(12) and at(state, "yellow-2") == Y(50)  # the carrier stays; the edge is not water
