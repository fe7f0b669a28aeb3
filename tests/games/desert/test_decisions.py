"""Desert decisions of DECISIONS.md 1.2 that no worked case plays through, each on the test board B.

The ones a table argues about: what landing, passing and being sent back do, and when the game is won.
"""

from __future__ import annotations

from companion.data import load_data
from companion.game import GameData
from companion.games.desert import DesertRace
from companion.registry import create
from tests.games.desert.helpers import A, B, C, act, board_b, draw, game_b, position, roll, rules_of, run, use

GAME = game_b()
HOUSE = create("desert")
COMPASS = "golden_compass"
SNEAKERS = "sandstorm_sneakers"
DUNE = {"kind": "dune"}
ATTEMPT = {"kind": "roll", "mode": "attempt"}


def test_dr_q2_a_dune_shift_onto_the_passage_enters_it() -> None:
    state = position(GAME, {A: {"space": 8, "lap": True, "items": [COMPASS]}}, step=DUNE)
    state, events = act(GAME, state, roll(4))
    assert GAME.pending(state).result == {"winner": A}
    assert "DR-Q29" in rules_of(events)


def test_dr_q2_passing_over_the_passage_does_nothing() -> None:
    state = position(GAME, {A: {"space": 11, "lap": True, "items": [COMPASS]}})
    state, _ = act(GAME, state, roll(2))
    assert state.piece(A).space == 13 and GAME.pending(state).kind != "over"


def test_dr_q6_after_three_failures_the_roll_is_a_move_not_another_attempt() -> None:
    state = position(GAME, {A: {"space": 7, "failures": 3}})
    assert GAME.flow.free_exit(state, A)
    before = GAME.to_document(state)
    ruling = GAME.check(state, {"type": "attempt"})
    assert not ruling.legal and ruling.rules == ("DR-Q6",)
    assert GAME.to_document(state) == before


def test_dr_q7_q9_sneakers_do_not_turn_a_three_into_a_guardian_pass() -> None:
    state = position(GAME, {A: {"space": 10, "items": [SNEAKERS]}, B: {"space": 13}}, step=ATTEMPT)
    state, _ = act(GAME, state, roll(3))
    piece = state.piece(A)
    assert (piece.space, piece.failures, piece.items) == (10, 1, (SNEAKERS,))
    assert GAME.pending(state).player == B


def test_dr_q9_a_passed_roll_doubled_by_sneakers_is_judged_on_its_face() -> None:
    """An odd face fails "even" even though doubling it would make it even."""
    state = position(GAME, {A: {"space": 9, "items": [SNEAKERS]}, B: {"space": 13}}, step=ATTEMPT)
    state, _ = act(GAME, state, roll(3))
    assert state.piece(A).space == 9 and state.piece(A).failures == 1
    assert SNEAKERS in state.piece(A).items


def test_dr_q12_the_dune_shift_destination_is_resolved() -> None:
    state = position(GAME, {A: {"space": 1, "lives": 5}}, step=DUNE)
    state, events = act(GAME, state, roll(4))  # even: forward onto Scared!
    assert (state.piece(A).space, state.piece(A).lives) == (0, 3)
    assert "DR-12" in rules_of(events)


def test_a_mystery_card_drawn_cites_its_own_clause_with_the_draw() -> None:
    """A Dune Shift drawn cited DR-9 and DR-22 alone, and its own clause (DR-25) only once the shift roll came: the
    table, told to roll for it, found no clause saying what the card does. Each Mystery card's draw cites its own."""
    own = {"dune_shift": "DR-25", "desert_whisper": "DR-24", "sand_thief": "DR-23", "desert_vortex": "DR-26",
           "camels_blessing": "DR-27"}
    for card, clause in own.items():
        state = position(GAME, {A: {"space": 4}, B: {"space": 13}}, step={"kind": "draw", "mode": "mystery"})
        state, events = act(GAME, state, draw("mystery", card))
        assert " draws " in events[0].text and events[0].rules == ("DR-9", "DR-22", clause), (card, events[0])


def test_dr_q38_a_backward_dune_shift_onto_a_challenge_offers_an_attempt() -> None:
    state = position(GAME, {A: {"space": 8}}, step=DUNE)
    state, _ = act(GAME, state, roll(1))  # odd: one back onto Four Up
    assert state.piece(A).space == 7 and state.step.kind == "offer"
    state, _ = run(GAME, state, {"type": "attempt"}, roll(5))
    assert state.piece(A).space == 12


def test_dr_q19_scared_teleport_gives_no_lap() -> None:
    state = position(GAME, {A: {"space": 3, "lives": 5}})
    state, _ = act(GAME, state, roll(2))
    assert (state.piece(A).space, state.piece(A).lap) == (0, False)


def test_dr_q21_one_life_on_scared_goes_to_zero_not_below() -> None:
    state = position(GAME, {A: {"space": 3, "lives": 1}})
    state, _ = act(GAME, state, roll(2))
    assert (state.piece(A).lives, state.piece(A).out) == (0, True)


def test_dr_q20_a_knockout_keeps_the_skipped_turns_owed() -> None:
    state = position(GAME, {A: {"space": 3, "lives": 2, "skip": 1}, B: {"space": 13}})
    state, _ = act(GAME, state, roll(2))
    assert state.piece(A).out and state.piece(A).skip == 1
    state, events = act(GAME, state, roll(1))  # B ends the round; A comes back, and its turn is skipped
    assert (state.piece(A).lives, state.piece(A).out, state.piece(A).skip) == (3, False, 0)
    assert GAME.pending(state).player == B and {"DR-6", "DR-24"} <= rules_of(events)


def test_dr_q22_lives_given_above_ten_are_lost() -> None:
    state = position(GAME, {A: {"space": 6, "lives": 5}, B: {"lives": 9}}, step={"kind": "end", "trading": True})
    state, events = act(GAME, state, {"type": "trade", "with": B, "give": {"lives": 3}})
    assert (state.piece(A).lives, state.piece(B).lives) == (2, 10)
    assert "DR-Q22" in rules_of(events)
    assert any("the 2 above 10 are lost" in e.text for e in events)


def test_dr_q22_one_life_above_ten_is_counted_as_one() -> None:
    state = position(GAME, {A: {"space": 6, "lives": 5}, B: {"lives": 10}}, step={"kind": "end", "trading": True})
    _, events = act(GAME, state, {"type": "trade", "with": B, "give": {"lives": 1}})
    assert any(e.text.endswith("would hold 11 Lives; the one above 10 is lost.") for e in events)


def test_dr_q22_a_life_trade_to_a_player_at_ten_says_the_life_is_lost() -> None:
    """'Trade with Pink: receive 1 Life' was offered to Black at 10 Lives and read like any other; only once agreed
    did the warning say the Life was lost. The choice says it now, each way; other trades read as before."""
    state = position(GAME, {A: {"space": 6, "lives": 10}, B: {"lives": 10}, C: {"lives": 4}},
                     step={"kind": "end", "trading": True}, players=(A, B, C))
    texts = {a["text"] for a in GAME.legal_actions(state) if a["type"] == "trade"}
    assert "Trade with Pink: receive 1 Life (lost: you already hold 10)" in texts
    assert "Trade with Pink: give 1 Life (lost: Pink already holds 10)" in texts
    assert {"Trade with Teal: give 1 Life", "Trade with Teal: receive 1 Life (lost: you already hold 10)"} <= texts
    _, events = act(GAME, state, {"type": "trade", "with": B, "get": {"lives": 1}})  # as said, so done
    assert any(e.text == "Black would hold 11 Lives; the one above 10 is lost." for e in events)


def test_dr_q25_pieces_share_a_space() -> None:
    state = position(GAME, {A: {"space": 0}, B: {"space": 1}})
    state, _ = act(GAME, state, roll(1))
    assert state.piece(A).space == state.piece(B).space == 1


def test_dr_q29_a_chain_onto_the_passage_wins_at_once() -> None:
    state = position(GAME, {A: {"space": 7, "lap": True, "items": [COMPASS]}}, step=ATTEMPT)
    state, events = act(GAME, state, roll(5))
    assert GAME.pending(state).result == {"winner": A} and "DR-Q29" in rules_of(events)


def test_dr_q30_passing_over_scared_and_a_challenge_does_nothing() -> None:
    state = position(GAME, {A: {"space": 4, "lives": 5}})
    state, _ = act(GAME, state, roll(4))  # over Scared!, Green and Four Up to Safe 8
    assert (state.piece(A).space, state.piece(A).lives, state.piece(A).failures) == (8, 5, 0)
    assert GAME.pending(state).player == B


def test_dr_q32_landing_on_desert_dawn_later_is_safe() -> None:
    state = position(GAME, {A: {"space": 15, "lives": 4}})
    state, _ = act(GAME, state, roll(1))
    assert (state.piece(A).space, state.piece(A).lives, state.piece(A).lap) == (0, 4, True)
    assert GAME.pending(state).player == B


def test_dr_q37_a_missed_turn_on_a_challenge_keeps_the_count() -> None:
    state = position(GAME, {A: {"space": 7, "failures": 2, "skip": 1}, B: {"space": 13}}, turn=B)
    state, _ = act(GAME, state, roll(1))  # B; A's turn is skipped, B again
    assert GAME.pending(state).player == B
    assert state.piece(A).failures == 2 and state.piece(A).skip == 0
    state, _ = act(GAME, state, roll(1))
    assert GAME.pending(state).player == A and state.piece(A).failures == 2


def test_dr_q23_the_sneakers_refused_on_another_players_turn() -> None:
    state = position(GAME, {A: {"space": 0}, B: {"space": 1, "items": [SNEAKERS]}})
    state, _ = act(GAME, state, roll(1))
    ruling = GAME.check(state, {**use(SNEAKERS), "player": B})
    assert not ruling.legal


def test_dr_q26_q34_a_whisper_drawn_in_a_chain_ends_the_chain_and_skips_the_next_turn() -> None:
    house = create("desert")
    state = position(house, {A: {"space": "rocky_ridge"}, B: {"space": "dawn"}}, step=ATTEMPT)
    state, _ = act(house, state, roll(5))  # 4 or more: on five to Whispering Winds (a Mystery space)
    assert house.board.spaces[state.piece(A).space].id == "whispering_winds"
    assert house.pending(state).kind == "draw"
    state, events = act(house, state, draw("mystery", "desert_whisper"))
    assert state.piece(A).skip == 1 and "DR-Q26" in rules_of(events)
    assert state.step.kind != "offer" and state.step.mode != "attempt"  # no further attempt: the chain is over
    if house.pending(state).kind == "end":
        state, _ = act(house, state, {"type": "end"})
    order = []
    for value in (3, 6, 1):  # B to Oasis Alcove, B to Golden Dune (both safe), then A
        order.append(house.pending(state).player)
        state, _ = act(house, state, roll(value))
    assert order == [B, B, A]


def test_dr_q13_the_drawer_with_the_most_lives_chooses_and_gains_no_lap_at_dawn() -> None:
    state = position(GAME, {A: {"space": 4, "lives": 8}, B: {"lives": 5}}, step={"kind": "draw", "mode": "mystery"})
    state, _ = act(GAME, state, draw("mystery", "desert_vortex"))
    assert GAME.pending(state).player == A
    state, _ = act(GAME, state, {"type": "relocate", "space": "dawn"})
    assert (state.piece(A).space, state.piece(A).lap) == (0, False)


def test_dr_q14_a_drawer_who_wins_the_thief_roll_off_loses_nothing() -> None:
    state = position(GAME, {A: {"space": 4, "lives": 7, "items": [SNEAKERS]}, B: {"lives": 7}},
                     step={"kind": "draw", "mode": "mystery"})
    state, _ = act(GAME, state, draw("mystery", "sand_thief"))
    assert state.step.kind == "rolloff" and set(state.step.contenders) == {A, B}
    rolls = {A: 6, B: 2}
    while state.step.kind == "rolloff":
        state, _ = act(GAME, state, roll(rolls[GAME.pending(state).player]))
    assert state.piece(A).items == (SNEAKERS,) and state.piece(B).items == ()


def test_dr_q9_sneakers_asked_for_at_a_dune_shift_are_refused_for_the_shift_itself() -> None:
    """The refusal used to say "once your roll is known": the player rolled the Shift and was never asked."""
    state = position(GAME, {A: {"space": 1, "items": [SNEAKERS]}}, step=DUNE)
    ruling = GAME.check(state, use(SNEAKERS))
    assert not ruling.legal and ruling.rules == ("DR-Q9",)
    assert "Dune Shift" in ruling.text and "roll is known" not in ruling.text
    state, _ = act(GAME, state, roll(2))
    assert (state.piece(A).space, state.piece(A).items) == (3, (SNEAKERS,))
    shifted = position(GAME, {A: {"space": 1, "items": [SNEAKERS]}}, step=DUNE,
                       options={"sneakers_affect_dune_shift": True})
    shifted, _ = act(GAME, shifted, roll(2))
    assert shifted.step.kind == "sneakers"


def _house_session(pieces: dict[str, dict[str, object]], step: dict[str, object], turn: str = A):
    """A position on the house board, loaded through the session as a table would load it."""
    from companion.session import Session

    document = Session.new("desert", [A, B]).document()
    document.update(round=1, first=A, turn=turn, step=step)
    for player, fields in pieces.items():
        document["pieces"][player].update(fields)
    return Session.load("desert", document)


def test_dr_q36_one_or_seven_players_are_refused_with_the_clause_and_the_game_goes_on() -> None:
    from companion.protocol import Referee

    referee = Referee()
    assert referee.handle({"cmd": "new", "game": "desert", "players": [A, B]})["ok"]
    before = referee.handle({"cmd": "state"})["state"]
    for players in ([A], ["black", "purple", "pink", "brown", "grey", "teal", "black"]):
        answer = referee.handle({"cmd": "new", "game": "desert", "players": players})
        error = answer["error"]
        assert error["code"] == "bad_request" and error["rule"] == "DR-Q36"
        assert f"2 to 6 players, not {len(players)}" in error["message"]
        assert referee.handle({"cmd": "state"})["state"] == before  # the game on the table is untouched


def test_dr_q5_the_count_starts_again_after_a_piece_left_its_challenge_by_scared() -> None:
    """Three failures on Rocky Ridge, a free exit onto Scorpion Nest (Scared!), and back on Rocky Ridge later:
    the first attempt of the new visit is attempt 1 of 3, and failing it is no free exit."""
    session = _house_session({A: {"space": "rocky_ridge", "failures": 3}}, {"kind": "roll", "mode": "move"})
    events = session.act(roll(2)).events  # the free exit, two spaces onto Scared!
    assert {"DR-Q5", "DR-12"} <= rules_of(events)
    piece = session.document()["pieces"][A]
    assert (piece["space"], piece["failures"], piece["lives"]) == ("dawn", 0, 3)
    session.act(roll(1))  # Pink
    session.act(roll(5))  # Black, from Desert Dawn back onto Rocky Ridge
    session.act({"type": "attempt"})
    assert "attempt 1 of 3" in session.pending().text
    events = session.act(roll(1)).events
    assert session.document()["pieces"][A]["failures"] == 1
    assert any("failed attempt 1 of 3" in e.text for e in events)


def test_dr_q5_the_count_starts_again_after_a_vortex_sends_the_piece_back_to_its_challenge() -> None:
    """No move leaves a challenge by Vortex directly, so the piece passes Twin Dunes on its last attempt,
    draws the Vortex on Mirage Pool and is sent back: a new visit, counted from nothing."""
    session = _house_session({A: {"space": "twin_dunes", "failures": 2, "lives": 7}}, ATTEMPT)
    assert "attempt 3 of 3" in session.pending().text
    session.act(roll(6))  # even: passed, six on to Mirage Pool, a Mystery space
    session.act(draw("mystery", "desert_vortex"))
    assert session.pending().player == A  # the most Lives: Black chooses for itself (DR-Q13)
    session.act({"type": "relocate", "space": "twin_dunes"})
    assert session.document()["pieces"][A]["failures"] == 0
    session.act({"type": "attempt"})
    assert "attempt 1 of 3" in session.pending().text
    session.act(roll(1))
    piece = session.document()["pieces"][A]
    assert (piece["space"], piece["failures"]) == ("twin_dunes", 1)
    assert session.pending().player == B


def test_dr_q21_scared_at_one_life_says_one_life_was_lost() -> None:
    """At 1 Life only 1 is lost; the table read "loses 2 Lives (0 left)" with DR-Q21 cited."""
    state = position(GAME, {A: {"space": 3, "lives": 1}})
    _, events = act(GAME, state, roll(2))
    scared = next(e for e in events if e.text.startswith("Scared!"))
    assert scared.text == "Scared! Black loses 1 Life (0 left; Lives stop at 0) and runs back to Desert Dawn (0)."
    assert "DR-Q21" in scared.rules


def test_scared_with_lives_to_spare_loses_two_and_cites_no_floor() -> None:
    state = position(GAME, {A: {"space": 3, "lives": 5}})
    _, events = act(GAME, state, roll(2))
    scared = next(e for e in events if e.text.startswith("Scared!"))
    assert scared.text == "Scared! Black loses 2 Lives (3 left) and runs back to Desert Dawn (0)."
    assert "DR-Q21" not in scared.rules and "DR-12" in scared.rules


def test_dr_q28_the_die_is_a_d6_and_other_faces_are_refused_with_the_position_kept() -> None:
    from companion.errors import InvalidAction

    state = position(GAME, {A: {"space": 1}})
    before = GAME.to_document(state)
    for face in (0, 7, 12):
        try:
            act(GAME, state, roll(face))
        except InvalidAction as refused:
            assert refused.rule == "DR-Q28" and f"not {face}" in refused.message
        else:
            raise AssertionError(f"a roll of {face} was taken")
    assert GAME.to_document(state) == before
    assert sorted(a["value"] for a in GAME.legal_actions(state) if a["type"] == "roll") == [1, 2, 3, 4, 5, 6]


def test_dr_q11_a_backward_dune_shift_from_desert_dawn_wraps_to_the_last_space_and_keeps_the_lap() -> None:
    state = position(GAME, {A: {"space": 0, "lap": True}, B: {"space": 13}}, step=DUNE)
    state, _ = act(GAME, state, roll(1))  # odd: one back from index 0
    assert state.piece(A).space == 15 and state.piece(A).lap


def _cafe_challenges() -> DesertRace:
    """Board B with a café's own demands (DR-Q3): Four Up (7) needs 2 or less with two tries, Even (9) a 1 or a
    6 with one try."""
    house = load_data(DesertRace)
    board = board_b()
    board["spaces"][7]["challenge"] = {"pred": "lte", "k": 2, "attemptLimit": 2}
    board["spaces"][9]["challenge"] = {"pred": "in", "values": [1, 6], "attemptLimit": 1}
    return DesertRace(GameData({**house.files, "board": board}))


def test_dr_q3_a_cafes_demands_and_attempt_limits_are_played_as_its_board_gives_them() -> None:
    """'k or less', 'one of these faces' and a limit other than three are each the board's, and the rulings
    on them cite DR-Q3 beside the three-try clause they depart from; a one-try challenge said "up to 1 attempts"."""
    cafe = _cafe_challenges()
    state = position(cafe, {A: {"space": 6}, B: {"space": 13}})
    state, events = act(cafe, state, roll(1))
    landed = next(e for e in events if "is a challenge" in e.text)
    assert landed.text == "Four Up (7) is a challenge: roll 2 or less to go on (up to 2 attempts)."
    assert landed.rules == ("DR-13", "DR-Q3", "DR-Q4")
    state, events = run(cafe, state, {"type": "attempt"}, roll(3))  # 3 is not 2 or less
    failed = next(e for e in events if e.kind == "penalty")
    assert "failed attempt 1 of 2" in failed.text and "DR-Q3" in failed.rules
    state, _ = act(cafe, state, roll(1))  # Pink
    assert "attempt 2 of 2" in cafe.pending(state).text
    state, events = act(cafe, state, roll(4))
    failed = next(e for e in events if e.kind == "penalty")
    assert "failed attempt 2 of 2" in failed.text and "moves on" in failed.text and "DR-Q3" in failed.rules
    assert cafe.flow.free_exit(state, A)  # after two failures, not three
    state, _ = act(cafe, state, roll(1))  # Pink
    state, events = act(cafe, state, roll(2))  # the free exit: two on, to Even (9)
    assert state.piece(A).space == 9 and "DR-Q3" in next(e for e in events if "moves on from" in e.text).rules
    landed = next(e for e in events if "is a challenge" in e.text)
    assert landed.text == "Even (9) is a challenge: roll one of 1, 6 to go on (one attempt only)."
    state, _ = run(cafe, state, {"type": "attempt"}, roll(6))  # a listed face: passed, six on to Safe 15
    assert state.piece(A).space == 15


def test_dr_q3_the_three_tries_of_the_rules_cite_no_board_limit() -> None:
    state = position(GAME, {A: {"space": 6}, B: {"space": 13}})
    state, events = run(GAME, state, roll(1), {"type": "attempt"}, roll(1))
    assert "DR-Q3" not in rules_of(events)


def test_dr_q27_a_life_space_a_blessing_and_a_flask_cut_at_ten_cite_the_cap_decision() -> None:
    """Each gain stops at 10, and the line saying so cites DR-Q27; a gain that fits under 10 does not."""
    orange = position(GAME, {A: {"space": 1, "lives": 10}})
    _, events = act(GAME, orange, roll(1))
    gained = next(e for e in events if e.kind == "reward")
    assert gained.text == "Orange (2): Black stays at 10 Lives (capped at 10; 1 ignored)."
    assert gained.rules == ("DR-10", "DR-5", "DR-Q27")
    blessed = position(GAME, {A: {"space": 4, "lives": 10}}, step={"kind": "draw", "mode": "mystery"})
    state, events = act(GAME, blessed, draw("mystery", "camels_blessing"))
    assert state.piece(A).lives == 10 and "DR-Q27" in next(e for e in events if e.kind == "reward").rules
    flask = position(GAME, {A: {"space": 1, "lives": 9, "items": ["desert_flask"]}})
    state, events = act(GAME, flask, use("desert_flask"))
    assert state.piece(A).lives == 10 and next(e for e in events if e.kind == "reward").rules == (
        "DR-18", "DR-5", "DR-Q27")
    under = position(GAME, {A: {"space": 1, "lives": 5, "items": ["desert_flask"]}})
    state, events = act(GAME, under, use("desert_flask"))
    assert state.piece(A).lives == 7 and "DR-Q27" not in rules_of(events)


def test_dr_q34_a_chain_onto_a_collection_space_draws_there_and_stops() -> None:
    """Twin Dunes (even) passed with a 2 lands on Nomad Camp, a red space: the card is drawn, no attempt follows
    and the turn ends; the move there cites DR-Q34 beside the draw's DR-8."""
    state = position(HOUSE, {A: {"space": "twin_dunes"}, B: {"space": "dawn"}}, step=ATTEMPT)
    state, events = act(HOUSE, state, roll(2))
    assert HOUSE.board.spaces[state.piece(A).space].id == "nomad_camp"
    assert next(e for e in events if e.kind == "move").rules == ("DR-13", "DR-8", "DR-Q34")
    assert HOUSE.pending(state).kind == "draw"
    state, _ = act(HOUSE, state, draw("collection", "mirage_cloak"))
    assert state.piece(A).items == ("mirage_cloak",)
    pending = HOUSE.pending(state)
    assert (pending.player, pending.kind, state.step.mode) == (B, "roll", "move")  # no attempt: Pink's turn


def test_dr_q34_an_ordinary_move_onto_a_card_space_cites_only_the_draw() -> None:
    state = position(GAME, {A: {"space": 0}})
    _, events = act(GAME, state, roll(3))
    assert next(e for e in events if e.kind == "move").rules == ("DR-4", "DR-8")


def test_dr_q15_the_thief_takes_blind_and_the_table_says_which_card() -> None:
    """Two kinds in hand: the thief is asked which card was taken, among those held only, and the line cites
    DR-Q15; a card not held is refused with the position kept. Two alike: nothing to ask, one is taken."""
    state = position(GAME, {A: {"space": 4, "lives": 3, "items": ["desert_flask", SNEAKERS]}, B: {"lives": 7}},
                     step={"kind": "draw", "mode": "mystery"})
    state, events = act(GAME, state, draw("mystery", "sand_thief"))
    assert "DR-Q15" in next(e for e in events if "without looking" in e.text).rules
    pending = GAME.pending(state)
    assert (pending.kind, pending.player) == ("choose", B)
    assert sorted(a["card"] for a in GAME.legal_actions(state)) == ["desert_flask", SNEAKERS]
    before = GAME.to_document(state)
    refused = GAME.check(state, {"type": "steal", "card": COMPASS})
    assert not refused.legal and refused.rules == ("DR-23",) and GAME.to_document(state) == before
    state, _ = act(GAME, state, {"type": "steal", "card": SNEAKERS})
    assert (state.piece(A).items, state.piece(B).items) == (("desert_flask",), (SNEAKERS,))
    alike = position(GAME, {A: {"space": 4, "lives": 3, "items": ["desert_flask"] * 2}, B: {"lives": 7}},
                     step={"kind": "draw", "mode": "mystery"})
    alike, _ = act(GAME, alike, draw("mystery", "sand_thief"))
    assert (alike.piece(A).items, alike.piece(B).items) == (("desert_flask",), ("desert_flask",))


NO_COLLECTION = dict.fromkeys(("golden_compass", "desert_flask", "sunshield_amulet", "sandstorm_sneakers",
                               "mirage_cloak"), 0)
NO_MYSTERY = dict.fromkeys(("sand_thief", "desert_whisper", "dune_shift", "desert_vortex", "camels_blessing"), 0)


def _pile(state, deck: str) -> dict:
    return GAME.to_document(state)[deck]


def test_dr_q16_a_spent_card_goes_under_the_collection_pile_or_to_its_discard() -> None:
    state = position(GAME, {A: {"space": 1, "items": ["desert_flask"]}})
    before = _pile(state, "collection")["pile"]["desert_flask"]
    state, _ = act(GAME, state, use("desert_flask"))
    assert _pile(state, "collection")["pile"]["desert_flask"] == before + 1
    discard = position(GAME, {A: {"space": 1, "items": ["desert_flask"]}},
                       options={"collection_return_to": "discard"})
    discard, _ = act(GAME, discard, use("desert_flask"))
    assert _pile(discard, "collection")["discard"]["desert_flask"] == 1
    assert _pile(discard, "collection")["pile"]["desert_flask"] == before


def test_dr_q16_an_empty_pile_is_made_again_from_its_discard() -> None:
    """Collection (with the discard option) and Mystery alike: the discard becomes the pile, said with DR-Q16."""
    full = {"golden_compass": 3, "desert_flask": 5, "sunshield_amulet": 4, "sandstorm_sneakers": 4,
            "mirage_cloak": 4}
    state = position(GAME, {A: {"space": 2}}, options={"collection_return_to": "discard"},
                     collection={"pile": NO_COLLECTION, "discard": full})
    state, events = act(GAME, state, roll(1))
    said = next(e for e in events if "shuffle its discards" in e.text)
    assert said.rules == ("DR-8", "DR-Q16") and GAME.pending(state).kind == "draw"
    assert _pile(state, "collection") == {"pile": full, "discard": NO_COLLECTION}
    mystery = {"sand_thief": 4, "desert_whisper": 3, "dune_shift": 4, "desert_vortex": 3, "camels_blessing": 4}
    state = position(GAME, {A: {"space": 3}}, mystery={"pile": NO_MYSTERY, "discard": mystery})
    state, events = act(GAME, state, roll(1))
    assert ("DR-9", "DR-Q16") in [e.rules for e in events] and GAME.pending(state).kind == "draw"
    state, _ = act(GAME, state, draw("mystery", "camels_blessing"))
    assert _pile(state, "mystery")["discard"] == {**NO_MYSTERY, "camels_blessing": 1}  # a drawn card: discarded


def test_dr_q16_with_every_collection_card_held_a_red_space_draws_nothing() -> None:
    state = position(GAME, {A: {"space": 2, "items": [COMPASS] * 3 + ["desert_flask"] * 5 + ["sunshield_amulet"] * 4},
                            B: {"items": [SNEAKERS] * 4 + ["mirage_cloak"] * 4}},
                     collection={"pile": NO_COLLECTION, "discard": NO_COLLECTION})
    state, events = act(GAME, state, roll(1))
    said = next(e for e in events if "nothing to draw" in e.text)
    assert said.text == "The Collection pile is empty: nothing to draw." and said.rules == ("DR-8", "DR-Q16")
    assert GAME.pending(state).kind != "draw"


def test_dr_q29_the_move_that_completes_the_lap_can_win_at_once() -> None:
    """A café loop whose Secret Passage is the second space after Desert Dawn: from the last space a 3 passes
    Dawn (the lap) and ends on the Passage with the Compass in hand, and that same move wins."""
    board = board_b()
    spaces = board["spaces"]
    spaces[2].update(type="secret_passage", name="Secret Passage")
    spaces[12].update(type="life", name="Orange")
    cafe = DesertRace(GameData({**load_data(DesertRace).files, "board": board}))
    state = position(cafe, {A: {"space": 15, "items": [COMPASS]}})
    state, events = act(cafe, state, roll(3))
    assert (state.piece(A).space, state.piece(A).lap) == (2, True)
    assert cafe.pending(state).result == {"winner": A}
    assert [e.kind for e in events][-1] == "win" and "DR-Q29" in events[-1].rules


def test_dr_q18_q31_stopping_on_scared_with_a_cloak_asks_and_the_roll_says_why() -> None:
    """The full rules say the Cloak is redeemed, not that it works by being held (DR-Q31): the app asks
    (DR-Q18), and the roll that put the piece there says so with the clauses; the quick start's 'have'
    would have cancelled the penalty unasked."""
    state = position(GAME, {A: {"space": 3, "lives": 5, "items": ["mirage_cloak"]}})
    state, events = act(GAME, state, roll(2))
    said = next(e for e in events if e.kind == "warning")
    assert said.text == "Black is Scared! on Scared! (5): the Mirage Cloak may be redeemed to ignore the penalty."
    assert said.rules == ("DR-12", "DR-21", "DR-Q18")
    assert (state.piece(A).lives, state.piece(A).space, state.piece(A).items) == (5, 5, ("mirage_cloak",))
    assert sorted(a["type"] for a in GAME.legal_actions(state)) == ["decline", "use"]
    vortex = position(GAME, {A: {"space": 4, "lives": 3, "items": ["mirage_cloak"]}, B: {"lives": 8}},
                      step={"kind": "vortex", "victim": A, "actor": B})
    vortex, events = act(GAME, vortex, {"type": "relocate", "space": "scared"})
    assert "DR-Q18" in rules_of(events) and GAME.pending(vortex).player == A  # the owner answers, not the chooser


def test_dr_q4_with_chain_optional_off_the_attempt_on_landing_is_rolled_at_once() -> None:
    state = position(GAME, {A: {"space": 6}}, options={"chain_optional": False})
    state, events = act(GAME, state, roll(1))
    assert state.step.kind == "roll" and state.step.mode == "attempt" and "DR-Q4" in rules_of(events)
    assert not GAME.check(state, {"type": "stop"}).legal
    state, _ = act(GAME, state, roll(5))
    assert state.piece(A).space == 12


def test_dr_q14_a_drawer_left_out_of_most_lives_is_robbed_by_the_richest_other_and_told_why() -> None:
    """thief_include_drawer = false: Black with 9 Lives draws the Thief and Pink with 4 takes the card."""
    state = position(GAME, {A: {"space": 4, "lives": 9, "items": ["desert_flask"]}, B: {"lives": 4}},
                     step={"kind": "draw", "mode": "mystery"}, options={"thief_include_drawer": False})
    state, events = act(GAME, state, draw("mystery", "sand_thief"))
    assert (state.piece(A).items, state.piece(B).items) == ((), ("desert_flask",))
    said = next(e for e in events if "not counted" in e.text)
    assert said.text == "Sand Thief: Black is not counted for most Lives at this table; of the others Pink has the " \
                        "most Lives." and said.rules == ("DR-23", "DR-Q14")
    counted = position(GAME, {A: {"space": 4, "lives": 9, "items": ["desert_flask"]}, B: {"lives": 4}},
                       step={"kind": "draw", "mode": "mystery"})
    counted, events = act(GAME, counted, draw("mystery", "sand_thief"))
    assert counted.piece(A).items == ("desert_flask",) and not any("not counted" in e.text for e in events)


def test_dr_q14_with_the_save_when_selected_a_compass_picked_among_other_cards_gets_its_roll() -> None:
    state = position(GAME, {A: {"space": 4, "lives": 3, "items": ["desert_flask", COMPASS]}, B: {"lives": 7}},
                     step={"kind": "draw", "mode": "mystery"}, options={"thief_compass_save": "when_selected"})
    state, _ = run(GAME, state, draw("mystery", "sand_thief"), {"type": "steal", "card": COMPASS})
    pending = GAME.pending(state)
    assert (pending.kind, pending.player) == ("roll", A)
    kept, _ = act(GAME, state, roll(5))
    assert (kept.piece(A).items, kept.piece(B).items) == (("desert_flask", COMPASS), ())
    lost, _ = act(GAME, state, roll(2))
    assert (lost.piece(A).items, lost.piece(B).items) == (("desert_flask",), (COMPASS,))


def test_dr_q22_with_one_partner_a_trading_window_stays_with_the_first() -> None:
    state = position(GAME, {A: {"space": 6}}, step={"kind": "end", "trading": True}, players=(A, B, C),
                     options={"trade_partners": "one"})
    state, _ = act(GAME, state, {"type": "trade", "with": B, "give": {"lives": 1}})
    refused = GAME.check(state, {"type": "trade", "with": C, "give": {"lives": 1}})
    assert not refused.legal and refused.rules == ("DR-Q22",) and "with Pink only" in refused.text
    state, _ = act(GAME, state, {"type": "trade", "with": B, "get": {"lives": 1}})
    assert (state.piece(A).lives, state.piece(B).lives) == (5, 5)
