"""Audit of the desert engine against the rules and DECISIONS.md section 1: cases the other tests missed."""

from __future__ import annotations

import pytest

from companion.errors import IllegalAction
from companion.games.desert.board import CLOAK, COMPASS, FLASK, SNEAKERS, SUNSHIELD
from companion.registry import create
from tests.games.desert.helpers import A, B, C, act, draw, game_b, position, roll, run, use

GAME = game_b()


def _tie_rules(events: list) -> set[str]:
    return {r for e in events if "roll again" in e.text for r in e.rules}


def test_a_sand_thief_tie_in_the_roll_off_cites_the_thief_decision() -> None:
    """A repeated tie in the Sand Thief roll-off re-rolls under DR-Q14, not the first-player clause DR-Q24."""
    players = (A, B, C)
    state = position(GAME, {A: {"space": 4, "lives": 3, "items": [FLASK, COMPASS]}, B: {"lives": 7},
                            C: {"lives": 7}}, step={"kind": "draw", "mode": "mystery"}, players=players)
    state, _ = act(GAME, state, draw("mystery", "sand_thief"))
    state, events = run(GAME, state, roll(4), roll(4))
    assert state.step.kind == "rolloff" and state.step.contenders == (B, C) and state.step.rolls == ()
    rules = _tie_rules(events)
    assert "DR-Q14" in rules and "DR-Q24" not in rules


def test_a_desert_vortex_tie_in_the_roll_off_cites_the_vortex_decision() -> None:
    """A repeated tie in the Desert Vortex roll-off re-rolls under DR-Q13, not the first-player clause DR-Q24."""
    state = position(GAME, {A: {"space": 4, "lives": 7}, B: {"lives": 7}}, step={"kind": "draw", "mode": "mystery"})
    state, _ = act(GAME, state, draw("mystery", "desert_vortex"))
    state, events = run(GAME, state, roll(2), roll(2))
    assert state.step.kind == "rolloff" and state.step.contenders == (A, B) and state.step.rolls == ()
    rules = _tie_rules(events)
    assert "DR-Q13" in rules and "DR-Q24" not in rules


def test_an_opening_tie_still_cites_the_first_player_decision() -> None:
    state = GAME.setup([A, B], GAME.resolve_options({}))
    state, events = run(GAME, state, roll(3), roll(3))
    assert "DR-Q24" in _tie_rules(events)


def test_an_action_after_the_round_limit_cites_the_limit_not_the_passage_win_dr_q35() -> None:
    """DR-Q35 ends a game nobody won at the round limit; DR-28 (the Secret Passage win) was cited instead."""
    state = position(GAME, {A: {"space": 13}, B: {"space": 13}}, turn=B, options={"max_rounds": 20}, round=20)
    state, _ = act(GAME, state, roll(1))
    with pytest.raises(IllegalAction) as refused:
        act(GAME, state, roll(3))
    assert refused.value.rule == "DR-Q35"
    assert "round limit (20)" in refused.value.message and "no winner" in refused.value.message


def test_an_action_after_a_win_names_the_winner_and_cites_the_win_dr_28() -> None:
    state = position(GAME, {A: {"space": 11, "lap": True, "items": [COMPASS]}})
    state, _ = act(GAME, state, roll(1))
    with pytest.raises(IllegalAction) as refused:
        act(GAME, state, roll(3))
    assert refused.value.rule == "DR-28" and "Black entered the Secret Passage" in refused.value.message


def test_a_second_sunshield_for_an_attempt_already_set_aside_says_so_dr_19() -> None:
    """It was refused by the timing rule (DR-Q8), though the player stood before the attempt roll, where the timing
    allows an Amulet: the reason is that the Amulet already redeemed passes this attempt whatever the roll."""
    state = position(GAME, {A: {"space": 7, "items": [SUNSHIELD, SUNSHIELD]}},
                     step={"kind": "roll", "mode": "attempt"})
    state, _ = act(GAME, state, use(SUNSHIELD))
    with pytest.raises(IllegalAction) as refused:
        act(GAME, state, use(SUNSHIELD))
    assert refused.value.rule == "DR-19"
    assert "already redeemed a Sunshield Amulet for this attempt" in refused.value.message
    assert state.piece(A).items == (SUNSHIELD,)
    plain = position(GAME, {A: {"space": 3, "items": [SUNSHIELD]}})  # not on a challenge: the timing rule still
    with pytest.raises(IllegalAction) as timing:
        act(GAME, plain, use(SUNSHIELD))
    assert timing.value.rule == "DR-Q8"


def test_a_sunshield_at_the_challenge_offer_says_to_choose_the_attempt_first_dr_q8() -> None:
    """At the offer the player stands before the attempt roll, so 'only before the attempt roll' named a timing
    that held; the reason is that the attempt is not chosen yet (the Amulet comes with its roll)."""
    state, _ = act(GAME, position(GAME, {A: {"space": 6, "items": [SUNSHIELD]}}), roll(1))
    assert state.step.kind == "offer"
    with pytest.raises(IllegalAction) as refused:
        act(GAME, state, use(SUNSHIELD))
    assert refused.value.rule == "DR-Q8" and "has not chosen to attempt Four Up (7) yet" in refused.value.message
    state, _ = act(GAME, state, {"type": "attempt"})
    state, events = act(GAME, state, use(SUNSHIELD))  # and so it is, once the attempt is chosen
    assert "DR-19" in {r for e in events for r in e.rules} and state.step.shield


def test_sneakers_after_a_failed_attempt_say_they_never_double_the_judged_roll_dr_q9() -> None:
    """Refused as 'redeemed once your roll is known, before you move' with the roll known and no move made."""
    state = position(GAME, {A: {"space": 7, "items": [SNEAKERS, SUNSHIELD]}}, step={"kind": "roll", "mode": "attempt"})
    state, _ = act(GAME, state, roll(2))
    assert state.step.kind == "shield"
    with pytest.raises(IllegalAction) as refused:
        act(GAME, state, use(SNEAKERS))
    assert refused.value.rule == "DR-Q9" and "never the roll a challenge judges" in refused.value.message
    state, _ = act(GAME, state, use(SUNSHIELD))
    assert state.step.kind == "sneakers" and state.step.mode == "chain"  # offered for the move, as the text says


def test_a_roll_off_winner_is_said_to_win_the_roll_off_not_to_have_most_lives_dr_23_dr_q13() -> None:
    """Tied players roll off (DR-23, DR-Q13); the winner was announced as having 'the most Lives', untrue of a tie."""
    thief = position(GAME, {A: {"space": 3, "lives": 6, "items": [FLASK]}, B: {"lives": 6}})
    _, events = run(GAME, thief, roll(1), draw("mystery", "sand_thief"), roll(5), roll(2))
    assert "Sand Thief: Black wins the roll-off, so nothing is taken." in [e.text for e in events]
    vortex = position(GAME, {A: {"space": 3, "lives": 6}, B: {"lives": 6}})
    _, events = run(GAME, vortex, roll(1), draw("mystery", "desert_vortex"), roll(2), roll(5))
    assert "Desert Vortex: Pink wins the roll-off and chooses where Black goes." in [e.text for e in events]
    alone = position(GAME, {A: {"space": 3, "lives": 7}, B: {"lives": 6}})  # no tie: the most Lives it is
    _, events = run(GAME, alone, roll(1), draw("mystery", "desert_vortex"))
    assert any("Black has the most Lives and chooses where to go" in e.text for e in events)


def test_with_attempts_put_off_to_the_next_turn_the_chain_still_goes_on_at_once_dr_13() -> None:
    """attempt_on_landing next_turn (DR-Q4) is about a challenge reached by an ordinary move; a passed challenge
    that lands on another is the chain, tried at once (DR-13). The chain stopped there and the turn passed."""
    house = create("desert")
    options = {"attempt_on_landing": "next_turn"}
    state = position(house, {A: {"space": 11}}, step={"kind": "roll", "mode": "attempt"}, options=options)
    state, events = act(house, state, roll(4))  # Twin Dunes (even) passed: on to Sheer Cliff, another challenge
    assert house.board.spaces[state.piece(A).space].name == "Sheer Cliff"
    assert state.step.kind == "offer" and house.pending(state).player == A
    assert not any("next turn" in e.text for e in events)
    plain = position(house, {A: {"space": 10}}, options=options)  # an ordinary move onto it: put off, as chosen
    plain, events = act(house, plain, roll(1))
    assert house.pending(plain).player == B and "DR-Q4" in {r for e in events for r in e.rules}


SPACE_CLAUSE = {"red": "DR-8", "blue": "DR-9", "oasis_alcove": "DR-7", "safe8": "DR-7", "dawn": "DR-Q32"}


@pytest.mark.parametrize("space", sorted(SPACE_CLAUSE))
def test_a_vortex_placement_cites_the_clause_of_a_quiet_space(space: str) -> None:
    """Sent by the Desert Vortex to a Life, Scared!, Trading or challenge space, the next line cited that
    space's clause; sent to a red, blue or safe space (or Desert Dawn) the ruling cited only DR-26 and DR-Q13,
    though the draw asked for comes from DR-8/DR-9 and a safe space's nothing from DR-7."""
    state = position(GAME, {A: {"space": 4}}, step={"kind": "vortex", "victim": A, "actor": B})
    _, events = act(GAME, state, {"type": "relocate", "space": space})
    placed = next(e for e in events if e.kind == "move")
    assert placed.rules[:2] == ("DR-26", "DR-Q13") and SPACE_CLAUSE[space] in placed.rules


@pytest.mark.parametrize(("start", "action", "landed", "clause"), [
    (0, roll(3), "red", "DR-8"),  # a normal move
    (0, roll(4), "blue", "DR-9"),
    (0, roll(1), "oasis_alcove", "DR-7"),
    (2, roll(6), "safe8", "DR-7"),
])
def test_every_move_onto_a_quiet_space_cites_its_clause(start: int, action: dict, landed: str, clause: str) -> None:
    """The same gap for an ordinary move: 'Black moves 3 spaces forward to Red (3).' cited DR-4 alone."""
    state = position(GAME, {A: {"space": start}}, step={"kind": "roll", "mode": "move"})
    state, events = act(GAME, state, action)
    assert state.piece(A).space == GAME.board.by_id[landed]
    assert clause in next(e for e in events if e.kind == "move").rules


@pytest.mark.parametrize(("face", "landed", "clause"), [(3, "red", "DR-8"), (2, "safe8", "DR-7")])
def test_a_dune_shift_onto_a_quiet_space_cites_its_clause_unless_it_is_not_resolved(
        face: int, landed: str, clause: str) -> None:
    state = position(GAME, {A: {"space": 6}}, step={"kind": "dune"})
    state, events = act(GAME, state, roll(face))
    assert state.piece(A).space == GAME.board.by_id[landed]
    assert next(e for e in events if e.kind == "move").rules == ("DR-25", clause)
    unresolved = position(GAME, {A: {"space": 6}}, step={"kind": "dune"}, options={"dune_shift_resolve": False})
    _, events = act(GAME, unresolved, roll(face))
    assert next(e for e in events if e.kind == "move").rules == ("DR-25",)  # its own line cites DR-Q12
    assert "DR-Q12" in {r for e in events for r in e.rules}


def test_a_passed_challenge_moving_on_to_a_quiet_space_cites_its_clause() -> None:
    state = position(GAME, {A: {"space": 7}}, step={"kind": "roll", "mode": "attempt"})
    state, events = act(GAME, state, roll(4))  # Four Up passed: 4 spaces on, to Safe 11
    assert state.piece(A).space == 11
    assert [e.rules for e in events if e.kind == "move"] == [("DR-13", "DR-7")]


HOUSE = create("desert")


def _texts(state: object) -> list[str]:
    return [a["text"] for a in HOUSE.legal_actions(state)]


def test_the_sneakers_and_sunshield_answers_say_where_the_move_ends() -> None:
    """'Keep the Sneakers: move 2' and 'Redeem Sunshield Amulet: pass and move 1' did not say where the move ends,
    and it can end on a Scared! space: each answer names its space as the roll buttons do (DR-20, DR-19)."""
    state = position(HOUSE, {A: {"space": 14, "items": [SNEAKERS]}})
    state, _ = act(HOUSE, state, roll(1))
    assert _texts(state)[:2] == ["Redeem Sandstorm Sneakers: move 2 to Sandstorm Wall (16): Black loses 2 Lives, "
                                 "back to Desert Dawn (0)", "Keep the Sneakers: move 1 to Sheer Cliff (15)"]
    state = position(HOUSE, {A: {"space": 11, "items": [SUNSHIELD]}}, step={"kind": "roll", "mode": "attempt"},
                     options={"sunshield_timing": "after"})
    state, _ = act(HOUSE, state, roll(5))
    assert _texts(state)[:2] == ["Redeem Sunshield Amulet: pass and move 5 to Sandstorm Wall (16): Black loses 2 "
                                 "Lives, back to Desert Dawn (0)", "Keep the Amulet: the attempt fails"]
    dune = position(HOUSE, {A: {"space": 11, "items": [SNEAKERS]}}, step={"kind": "dune"},
                    options={"sneakers_affect_dune_shift": True})
    state, _ = act(HOUSE, dune, roll(3))
    assert _texts(state)[:2] == ["Redeem Sandstorm Sneakers: shift 6 back to Rocky Ridge (5)",
                                 "Keep the Sneakers: shift 3 back to Buried Chest (8)"]
    judged = position(HOUSE, {A: {"space": 11, "items": [SNEAKERS]}}, step={"kind": "roll", "mode": "attempt"},
                      options={"sneakers_affect_challenge_test": True})
    state, _ = act(HOUSE, judged, roll(1))
    assert _texts(state)[:2] == ["Redeem Sandstorm Sneakers: the roll counts as 2, passes, to Nomad Camp (13)",
                                 "Keep the Sneakers: the roll counts as 1, fails"]


def test_a_sneakers_answer_that_wins_says_so() -> None:
    """A doubled move onto the Secret Passage with the lap and the Compass wins, as a roll button says."""
    state = position(HOUSE, {A: {"space": 35, "lap": True, "items": [COMPASS, SNEAKERS]}})
    state, _ = act(HOUSE, state, roll(1))
    assert _texts(state)[0] == "Redeem Sandstorm Sneakers: move 2 to Secret Passage (37), wins"


def _vortex(lives: int, items: list[str], **options: object) -> list[str]:
    """The Vortex choices Pink (most Lives) has for Black, who holds ``lives`` and ``items``."""
    state = position(HOUSE, {A: {"space": 4, "lives": lives, "items": items}, B: {"lives": 8}},
                     step={"kind": "draw", "mode": "mystery"}, options=options)
    state, _ = act(HOUSE, state, draw("mystery", "desert_vortex"))
    return [a["text"] for a in HOUSE.legal_actions(state) if a["type"] == "relocate"]


def test_a_vortex_choice_says_what_a_scared_space_costs_the_piece_sent() -> None:
    """'Send Black to Scorpion Nest (7, scared)' named the kind of space, not that Black then loses 2 Lives and runs
    back to Desert Dawn (DR-12; the space is resolved, DR-26, DR-Q13), or is out with the last of them (DR-6),
    unless the Mirage Cloak is spent (DR-Q18). Spaces that cost nothing keep their short text."""
    texts = _vortex(5, [])
    assert "Send Black to Scorpion Nest (7, scared): Black loses 2 Lives, back to Desert Dawn (0)" in texts
    assert "Send Black to Cool Cave (29, life)" in texts and "Send Black to Rocky Ridge (5, challenge)" in texts
    assert sum(":" in t for t in texts) == 3  # the three Scared! spaces, and nothing else
    cloaked = _vortex(5, [CLOAK])
    assert "Send Black to Cobra Pit (27, scared): Black loses the Cloak, or 2 Lives and goes back" in cloaked
    assert "Send Black to Cobra Pit (27, scared): Black loses the last 2 Lives: out, cards and all" in _vortex(
        2, [COMPASS])
    assert "Send Black to Cobra Pit (27, scared): Black loses the last Life: out this round" in _vortex(1, [])
    assert "Send Black to Cobra Pit (27, scared): Black loses the Cloak, or is out this round" in _vortex(1, [CLOAK])


def test_a_vortex_choice_onto_an_open_secret_passage_says_it_wins() -> None:
    """With the Passage open to the Vortex (DR-Q13's option), a piece with the lap and the Compass sent there wins
    (DR-28): the choice says so, as a roll button does; without the lap it stays a safe space, said as before."""
    won = position(HOUSE, {A: {"space": 4, "lives": 3, "lap": True, "items": [COMPASS]}, B: {"lives": 8}},
                   step={"kind": "draw", "mode": "mystery"}, options={"vortex_allow_passage": True})
    won, _ = act(HOUSE, won, draw("mystery", "desert_vortex"))
    assert "Send Black to Secret Passage (37): Black wins" in [a["text"] for a in HOUSE.legal_actions(won)]
    assert "Send Black to Secret Passage (37)" in _vortex(3, [COMPASS], vortex_allow_passage=True)


@pytest.mark.parametrize(("lives", "items", "redeem"), [
    (5, [SNEAKERS], "Black loses 2 Lives, back to Desert Dawn (0)"),
    (5, [SNEAKERS, CLOAK], "Black loses the Cloak, or 2 Lives and goes back"),
    # the Sneakers redeemed are no longer held when the knockout discards the rest (DR-6)
    (2, [SNEAKERS], "Black loses the last 2 Lives: out this round"),
    (2, [SNEAKERS, COMPASS], "Black loses the last 2 Lives: out, cards and all"),
    (1, [SNEAKERS, CLOAK], "Black loses the Cloak, or is out this round"),
])
def test_a_sneakers_answer_ending_on_a_scared_space_says_its_cost(lives: int, items: list[str], redeem: str) -> None:
    """'Redeem Sandstorm Sneakers: move 2 to Sandstorm Wall (16)' named a Scared! space and not that Black then
    loses 2 Lives and runs back (DR-12), or is out with the last of them (DR-6), unless a Cloak is spent (DR-Q18):
    the answer says it in the Vortex's words; the answer that ends elsewhere stays as it was."""
    state = position(HOUSE, {A: {"space": 14, "lives": lives, "items": items}})
    state, _ = act(HOUSE, state, roll(1))
    assert _texts(state)[:2] == [f"Redeem Sandstorm Sneakers: move 2 to Sandstorm Wall (16): {redeem}",
                                 "Keep the Sneakers: move 1 to Sheer Cliff (15)"]


def test_the_sunshield_and_dune_shift_answers_say_a_scared_spaces_cost_where_it_is_resolved() -> None:
    """The Sunshield Amulet's move onto a Scared! space costs as any move does (DR-12), the redeemed Amulet no
    longer held (DR-6); a Dune Shift's does only where the shifted-to space is resolved (DR-Q12)."""
    shield = position(HOUSE, {A: {"space": 11, "lives": 2, "items": [SUNSHIELD]}},
                      step={"kind": "roll", "mode": "attempt"}, options={"sunshield_timing": "after"})
    state, _ = act(HOUSE, shield, roll(5))
    assert _texts(state)[0] == ("Redeem Sunshield Amulet: pass and move 5 to Sandstorm Wall (16): Black loses the "
                                "last 2 Lives: out this round")
    for resolve, cost in ((True, ": Black loses 2 Lives, back to Desert Dawn (0)"), (False, "")):
        dune = position(HOUSE, {A: {"space": 12, "items": [SNEAKERS]}}, step={"kind": "dune"},
                        options={"sneakers_affect_dune_shift": True, "dune_shift_resolve": resolve})
        state, _ = act(HOUSE, dune, roll(5))
        assert _texts(state)[1] == f"Keep the Sneakers: shift 5 back to Scorpion Nest (7){cost}", resolve


@pytest.mark.parametrize(("lives", "items", "cost"), [
    (5, [], "lose 2 Lives and go back to Desert Dawn (0)"),
    (5, [CLOAK], "redeem the Cloak or lose 2 Lives, back to start"),
    (2, [COMPASS], "lose the last 2 Lives and all cards: out this round"),
    (1, [], "lose the last Life: out this round"),
])
def test_the_roll_prompt_says_which_roll_ends_scared_and_what_it_costs(lives: int, items: list[str], cost: str) -> None:
    """The roll buttons say '3: to Sandstorm Wall (16)', the space and not that a 3 then costs 2 Lives and the run
    back (DR-12), or the last Lives and the round (DR-6), unless a Cloak is spent (DR-Q18): the cost did not fit
    beside it on a button at 800x480 (390 px of words where 208 show). The prompt says it before the roll, in the
    Vortex's words less the mover it opens with ('roll to move', so that it keeps to three lines); with no
    Scared! space within a roll it is as it was."""
    state = position(HOUSE, {A: {"space": 13, "lives": lives, "items": items}})
    assert HOUSE.pending(state).text == f"Black: roll to move from Nomad Camp (13); a 3 lands on Scared!: {cost}."
    clear = position(HOUSE, {A: {"space": 17}})
    assert HOUSE.pending(clear).text == "Black: roll the die to move from Mirage Pool (17)."


def test_lives_handed_over_in_a_trade_must_be_held_even_when_as_many_come_back_dr_11() -> None:
    """Only the totals after a trade were checked, so Black, holding 1 Life, could 'give 2 Lives and receive 2
    Lives': Lives nobody held changed hands. A Life given and one received from 1 Life is still agreed."""
    state = position(GAME, {A: {"space": 6, "lives": 1}, B: {"lives": 3}}, step={"kind": "end", "trading": True})
    with pytest.raises(IllegalAction) as refused:
        act(GAME, state, {"type": "trade", "with": B, "give": {"lives": 2}, "get": {"lives": 2}})
    assert refused.value.rule == "DR-11"
    assert refused.value.message.startswith("Black holds 1 Life, fewer than this trade takes")
    with pytest.raises(IllegalAction) as refused:
        act(GAME, state, {"type": "trade", "with": B, "give": {"lives": 4}, "get": {"lives": 4}})
    assert refused.value.message.startswith("Black holds 1 Life")
    rich = position(GAME, {A: {"space": 6, "lives": 3}, B: {"lives": 1}}, step={"kind": "end", "trading": True})
    with pytest.raises(IllegalAction) as refused:
        act(GAME, rich, {"type": "trade", "with": B, "give": {"lives": 2}, "get": {"lives": 2}})
    assert refused.value.rule == "DR-11"
    assert refused.value.message.startswith("Pink holds 1 Life, fewer than this trade takes")
    after, _ = act(GAME, state, {"type": "trade", "with": B, "give": {"lives": 1}, "get": {"lives": 1}})
    assert after.piece(A).lives == 1 and after.piece(B).lives == 3


def test_the_attempt_at_the_guardians_test_cites_the_guardians_clause() -> None:
    """DR-15 rules the Guardian's Test (a 6, no try limit); its attempt line, "Black attempts Guardian's Test
    (10).", cited DR-13 and DR-Q4, the clause of the other challenges, and so did a `why` at it and the refusal
    of a second attempt while its roll was awaited. An ordinary challenge still cites DR-13."""
    for start, value, rule in ((8, 2, "DR-15"), (6, 1, "DR-13")):  # to the Guardian (10), to Four Up (7)
        state = position(GAME, {A: {"space": start}})
        state, _ = act(GAME, state, roll(value))
        assert state.step.kind == "offer"
        state, events = act(GAME, state, {"type": "attempt"})
        assert [e.rules for e in events if " attempts " in e.text] == [(rule, "DR-Q4")]
        assert GAME.where_rules(state, roll(3)) == (rule,)
        assert GAME.check(state, {"type": "attempt"}).rules == (rule,)


def test_sneakers_before_the_roll_are_refused_with_the_reason_in_words() -> None:
    """The card may be redeemed at any time on the turn, after the roll too (DR-20): the companion asks once the die
    shows (DR-Q9), since redeemed before it the card could only double a roll not yet seen. The refusal read
    "Sandstorm Sneakers are redeemed once your roll is known, before you move.": no reason, a rule the card seems
    to break, and after the move "before you move" to a player who had moved. Taken after the roll, it doubles."""
    before = position(GAME, {A: {"space": 11, "items": [SNEAKERS]}})
    ruling = GAME.check(before, use(SNEAKERS))
    assert not ruling.legal and ruling.rules == ("DR-Q9",)
    assert ruling.text == ("Black has not rolled yet: Sandstorm Sneakers double the roll, so Black is asked once the "
                           "die shows it. The card may be redeemed after the roll, so waiting loses nothing.")
    state, _ = act(GAME, before, roll(1))
    assert state.step.kind == "sneakers"  # asked once the die shows, as the refusal said
    state, _ = act(GAME, state, use(SNEAKERS))
    assert state.piece(A).space == 13 and not state.piece(A).holds(SNEAKERS)  # 1 doubled: Safe 11 to Safe 13
    attempt = position(GAME, {A: {"space": 7, "items": [SNEAKERS]}}, step={"kind": "roll", "mode": "attempt"})
    assert GAME.check(attempt, use(SNEAKERS)).text.startswith("Black has not rolled for Four Up (7) yet. The "
                                                              "challenge judges the face shown;")
    drawing = position(GAME, {A: {"space": 3, "items": [SNEAKERS]}}, step={"kind": "draw", "mode": "collection"})
    assert GAME.check(drawing, use(SNEAKERS)).text == (
        "Black has made this turn's move. Sandstorm Sneakers double a roll before its move, and are offered at "
        "Black's next roll.")
    assert "once your roll is known" not in GAME.check(drawing, use(SNEAKERS)).text


@pytest.mark.parametrize(("items", "said"), [
    ([], "no Collection card to discard"),
    ([COMPASS, SUNSHIELD], "Collection cards discarded (Golden Compass, Sunshield Amulet)"),
])
def test_a_racer_knocked_out_says_what_is_discarded(items: list[str], said: str) -> None:
    """A racer out of Lives with no card was told "Collection cards discarded (no cards)": a discard that did not
    happen, read like a log's field (7 distinct announcements over 30 seeded games). It says there is none."""
    state = position(HOUSE, {A: {"space": 14, "lives": 2, "items": items}})
    _, events = act(HOUSE, state, roll(2))
    assert events[-1].text == (f"Black has no Lives left: out for the rest of this round; {said}. Back next round "
                               "with 3 Lives."), [e.text for e in events]


def test_a_draw_names_its_pile_and_the_last_card_of_a_kind() -> None:
    """'Drew Sand Thief (4 in the pile)' named no pile and left 4 of what unsaid: one of 4 such cards in the Mystery
    pile, or the last one there."""
    state = position(HOUSE, {}, step={"kind": "draw", "mode": "mystery"},
                     mystery={"pile": {"sand_thief": 1, "desert_whisper": 3, "dune_shift": 0, "desert_vortex": 0,
                                       "camels_blessing": 0},
                              "discard": {"sand_thief": 3, "desert_whisper": 0, "dune_shift": 4, "desert_vortex": 3,
                                          "camels_blessing": 4}})
    assert [a["text"] for a in HOUSE.legal_actions(state)] == [
        "Drew Sand Thief (the last one in the Mystery pile)", "Drew Desert Whisper (one of 3 in the Mystery pile)"]


def test_a_knockout_by_the_rounds_last_turn_says_the_return_once() -> None:
    """Knocked out by the round's last turn, a racer heard "... Back next round with 3 Lives." and at once "Round 2:
    Pink is back at Desert Dawn (0) with 3 Lives and no items.": the new round's line says the return; the knockout
    says the promise only when another turn comes between."""
    state = position(HOUSE, {B: {"space": 14, "lives": 2}}, turn=B)
    _, events = act(HOUSE, state, roll(2))
    texts = [e.text for e in events]
    assert texts[-2:] == ["Pink has no Lives left: out for the rest of this round; no Collection card to discard.",
                          "Round 2: Pink is back at Desert Dawn (0) with 3 Lives and no items."], texts
    assert sum("3 Lives" in t for t in texts) == 1


def test_a_win_on_the_passage_just_moved_to_names_it_once() -> None:
    """The win named the Passage the move had just named: "Pink moves 6 spaces forward to Secret Passage (37). Pink
    enters Secret Passage (37) with the Golden Compass after a full lap and wins!" (every desert win by a move in 30
    seeded games). A win with no move naming it first (a Vortex placement, a chain) still names it."""
    state = position(GAME, {A: {"space": 8, "lap": True, "items": [COMPASS]}})
    _, events = act(GAME, state, roll(4))
    assert [e.text for e in events[-2:]] == [
        "Black moves 4 spaces forward to Secret Passage (12).",
        "Black enters it with the Golden Compass after a full lap and wins!"], [e.text for e in events]
