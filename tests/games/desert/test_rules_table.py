"""The desert race as a table argues it: prompts and refusals at the edges the other audits did not play."""

from __future__ import annotations

import pytest

from companion.data import load_data
from companion.errors import BadRequest
from companion.game import GameData
from companion.games.desert import DesertRace
from companion.games.desert.board import CLOAK, COMPASS, FLASK, SNEAKERS, SUNSHIELD
from companion.registry import create
from tests.games.desert.helpers import A, B, C, act, board_b, draw, game_b, position, roll, use

GAME = game_b()


def _texts(state: object) -> list[str]:
    return [a["text"] for a in GAME.legal_actions(state)]


def test_declining_the_cloak_at_two_lives_or_fewer_does_not_promise_to_keep_it_dr_6() -> None:
    """At 2 Lives or fewer, Scared! without the Cloak is a knockout, and a knockout discards every Collection card,
    the Cloak included (DR-6): the answer 'Keep the Cloak: lose 2 Lives' promised a card the player then lost."""
    for lives, last in ((2, "the last 2 Lives"), (1, "the last Life")):
        state = position(GAME, {A: {"space": 5, "lives": lives, "items": [CLOAK, COMPASS]}}, step={"kind": "cloak"})
        decline = next(a["text"] for a in GAME.legal_actions(state) if a["type"] == "decline")
        assert not decline.startswith("Keep")
        assert last in decline and "the Cloak too" in decline
        assert "the Cloak too" in GAME.pending(state).text
        state, _ = act(GAME, state, {"type": "decline"})
        assert state.piece(A).out and state.piece(A).items == ()
    roomy = position(GAME, {A: {"space": 5, "lives": 3, "items": [CLOAK]}}, step={"kind": "cloak"})
    assert "Keep the Cloak: lose 2 Lives and go back to Desert Dawn (0)" in _texts(roomy)
    roomy, _ = act(GAME, roomy, {"type": "decline"})
    assert roomy.piece(A).items == (CLOAK,)


def test_a_try_again_after_the_free_exit_is_not_counted_past_the_limit_dr_q6() -> None:
    """With free_exit_optional a player with three failures may try again (DR-Q6): the roll was asked for as
    'attempt 4 of 3', and after the third failure 'Next turn Black rolls as normal and moves on' hid the choice."""
    options = {"free_exit_optional": True}
    state = position(GAME, {A: {"space": 7, "failures": 3}}, options=options)
    state, _ = act(GAME, state, {"type": "attempt"})
    text = GAME.pending(state).text
    assert "4 of 3" not in text and "an extra attempt after 3 failed" in text
    third = position(GAME, {A: {"space": 7, "failures": 2}}, step={"kind": "roll", "mode": "attempt"},
                     options=options)
    _, events = act(GAME, third, roll(1))
    said = next(e for e in events if "failed attempt 3 of 3" in e.text)
    assert "Next turn Black may roll as normal and move on, or try again." in said.text
    assert "DR-Q6" in said.rules
    plain = position(GAME, {A: {"space": 7, "failures": 2}}, step={"kind": "roll", "mode": "attempt"})
    _, events = act(GAME, plain, roll(1))
    assert any(e.text.endswith("Next turn Black rolls as normal and moves on.") for e in events)


def test_an_attempt_or_a_stop_asked_for_at_the_attempt_roll_says_the_roll_is_the_attempt() -> None:
    """At the attempt roll of a later turn, 'attempt' was refused as 'An attempt is not possible now. Black: roll
    for Four Up ...' and 'stop' as 'Stopping at a challenge is not possible now': the one sentence denied what the
    next asked for. The roll is the attempt (DR-13); only the attempt on landing may be declined (DR-Q4)."""
    state = position(GAME, {A: {"space": 7}}, step={"kind": "roll", "mode": "attempt"})
    ruling = GAME.check(state, {"type": "attempt"})
    assert not ruling.legal and ruling.rules == ("DR-13",)
    assert ruling.text == "Black is already attempting Four Up (7): the roll now is the attempt."
    ruling = GAME.check(state, {"type": "stop"})
    assert not ruling.legal and ruling.rules == ("DR-Q4",)
    assert ruling.text == "Only the attempt on landing may be declined; Black now rolls for Four Up (7)."


def test_a_trade_refused_out_of_its_window_names_the_window_this_table_uses_dr_q22() -> None:
    """With trade_any_time a trade asked for before the roll was told trades belong to a green Trading space only,
    which this table does not need; without it, the refusal says when in the turn trading happens."""
    trade = {"type": "trade", "with": B, "give": {"lives": 1}}
    anytime = position(GAME, {A: {"space": 1}}, options={"trade_any_time": True})
    ruling = GAME.check(anytime, trade)
    assert not ruling.legal and ruling.rules == ("DR-Q22",) and "green" not in ruling.text
    assert ruling.text == "At this table trades are agreed at the end of a turn, once its move is dealt with."
    on_green = position(GAME, {A: {"space": 6}})  # still on the green space the last turn stopped on
    ruling = GAME.check(on_green, trade)
    assert ruling.text == "Trades are agreed only at the end of a turn that stops on a green Trading space."


def test_a_trade_of_more_lives_than_held_says_what_is_held_dr_11() -> None:
    """Giving 3 Lives from 1 read 'Black would be left with -2 Lives'."""
    state = position(GAME, {A: {"space": 6, "lives": 1}}, step={"kind": "end", "trading": True})
    ruling = GAME.check(state, {"type": "trade", "with": B, "give": {"lives": 3}})
    assert not ruling.legal and ruling.rules == ("DR-11",) and "-" not in ruling.text
    assert ruling.text.startswith("Black holds 1 Life, fewer than this trade takes")
    ruling = GAME.check(state, {"type": "trade", "with": B, "get": {"lives": 6}})
    assert ruling.text.startswith("Pink holds 5 Lives, fewer than this trade takes")


def test_with_sneakers_judged_the_question_and_the_roll_buttons_say_what_the_challenge_sees_dr_q9() -> None:
    """With sneakers_affect_challenge_test the doubled roll is what the challenge judges: the question read 'redeem
    Sandstorm Sneakers to count for the challenge 6 instead?', and the button for a 3 on 'even' said '3: fail'
    although the Sneakers then asked for turn it into a pass."""
    options = {"sneakers_affect_challenge_test": True}
    state = position(GAME, {A: {"space": 9, "items": [SNEAKERS]}}, step={"kind": "roll", "mode": "attempt"},
                     options=options)
    assert "3: fail; 6 with Sneakers passes" in _texts(state)
    state, _ = act(GAME, state, roll(3))
    assert GAME.pending(state).text == ("Black rolled 3 at Even (9): redeem Sandstorm Sneakers so the challenge "
                                        "judges 6 (and a pass moves 6) instead?")
    plain = position(GAME, {A: {"space": 9, "items": [SNEAKERS]}}, step={"kind": "roll", "mode": "attempt"})
    assert "3: fail" in _texts(plain)  # judged on its face (DR-Q9): the Sneakers change nothing here


def test_sneakers_asked_again_after_a_judged_roll_failed_say_the_question_was_answered_dr_q9() -> None:
    """With sneakers_affect_challenge_test the Sneakers are asked once, before the roll is judged. A second pair
    asked for at the Sunshield question after the failure was told 'Sandstorm Sneakers are redeemed once your roll
    is known, before you move', which is where the player stood."""
    options = {"sneakers_affect_challenge_test": True}
    state = position(GAME, {A: {"space": 9, "items": [SNEAKERS, SNEAKERS, SUNSHIELD]}},
                     step={"kind": "roll", "mode": "attempt"}, options=options)
    state, _ = act(GAME, state, roll(3))
    state, _ = act(GAME, state, {"type": "decline"})  # 3 is judged on its face and fails: the Amulet is offered
    assert state.step.kind == "shield"
    ruling = GAME.check(state, {"type": "use", "card": SNEAKERS})
    assert not ruling.legal and ruling.rules == ("DR-Q9",)
    assert "once your roll is known" not in ruling.text and "was answered when it was rolled" in ruling.text


def test_a_player_list_with_a_colour_twice_or_one_the_race_lacks_cites_the_players_clause_dr_q36() -> None:
    """'each player must be named once' and "unknown colour 'red'" were refused with no clause, though DR-Q36 names
    the race's six pawn colours as it names its two to six players."""
    for players in (["black", "black"], ["black", "red"], ["black", "pink", "pink"]):
        with pytest.raises(BadRequest) as refused:
            GAME.check_players(players)
        assert refused.value.rule == "DR-Q36"


def test_a_failed_try_at_a_cafes_unlimited_challenge_names_it_as_its_board_does_dr_15() -> None:
    """A café's challenge with no attempt limit plays as the Guardian's Test (DR-15), but a failed try at one named
    'Sphinx Gate' was told 'the Guardian's Test needs a 6', naming a space that board does not have."""
    house = load_data(DesertRace)
    files = dict(house.files)
    board = board_b()
    board["spaces"][10]["name"] = "Sphinx Gate"
    files["board"] = board
    cafe = DesertRace(GameData(files))
    state = position(cafe, {A: {"space": 10}}, step={"kind": "roll", "mode": "attempt"})
    _, events = act(cafe, state, roll(3))
    said = next(e for e in events if "needs a 6" in e.text)
    assert said.text == "Black rolls 3: Sphinx Gate (10) needs a 6; Black stays and the turn ends."
    assert "Guardian" not in said.text and said.rules == ("DR-15", "DR-14")


def test_a_card_asked_for_while_the_movers_own_mystery_card_is_settled_says_so_dr_q23() -> None:
    """During the mover's own Sand Thief or Desert Vortex, a Flask was refused as 'redeemed only by the player whose
    turn it is', said to the player whose turn it was: what stops it is the Mystery card being settled."""
    state = position(GAME, {A: {"space": 4, "lives": 6, "items": [FLASK, COMPASS]}, B: {"lives": 6}},
                     step={"kind": "draw", "mode": "mystery"})
    thief, _ = act(GAME, state, draw("mystery", "sand_thief"))  # a tie for most Lives: a roll-off first
    vortex, _ = act(GAME, state, draw("mystery", "desert_vortex"))
    for settling, card in ((thief, "Sand Thief"), (vortex, "Desert Vortex")):
        ruling = GAME.check(settling, use(FLASK))
        assert not ruling.legal and ruling.rules == ("DR-Q23",)
        assert ruling.text == (f"No card is redeemed while Black's {card} is settled: it takes effect at once, and "
                               "the turn goes on after it.")
        assert "whose turn it is" not in ruling.text


def test_a_challenge_reached_otherwise_than_by_the_chain_cites_the_decision_that_brings_the_attempt() -> None:
    """A challenge landed on is tried at once: DR-13 says so for the chain only; for an ordinary move it is DR-Q4 and
    after a Dune Shift or a Vortex placement DR-Q38, which the ruling never cited."""
    def challenge_rules(events: list) -> tuple[str, ...]:
        return next(e.rules for e in events if "is a challenge" in e.text)

    _, events = act(GAME, position(GAME, {A: {"space": 6}}), roll(1))
    assert challenge_rules(events) == ("DR-13", "DR-Q4")
    _, events = act(GAME, position(GAME, {A: {"space": 8}}, step={"kind": "dune"}), roll(1))
    assert challenge_rules(events) == ("DR-13", "DR-Q38")
    vortex = position(GAME, {A: {"space": 4}}, step={"kind": "vortex", "victim": A, "actor": A})
    _, events = act(GAME, vortex, {"type": "relocate", "space": "guardian"})
    assert challenge_rules(events) == ("DR-15", "DR-Q38")
    house = create("desert")
    chain = position(house, {A: {"space": 11}}, step={"kind": "roll", "mode": "attempt"})
    _, events = act(house, chain, roll(4))  # Twin Dunes passed with 4: on to Sheer Cliff, the chain (DR-13)
    assert challenge_rules(events) == ("DR-13",)
    later = position(GAME, {A: {"space": 6}}, options={"attempt_on_landing": "next_turn"})
    _, events = act(GAME, later, roll(1))
    assert challenge_rules(events) == ("DR-13",)  # no attempt at once: DR-Q4's own line says it is put off


def test_players_tied_for_most_lives_are_named_as_a_sentence_lists_them() -> None:
    """A roll-off for the Sand Thief or the Desert Vortex named the tied players "Pink, Teal tie for most Lives":
    aloud, two names with a pause and no "and" between them."""
    players = (A, B, C)
    pieces = {A: {"space": 4, "lives": 3, "items": [FLASK]}, B: {"lives": 6}, C: {"lives": 6}}
    for card, name in (("sand_thief", "Sand Thief"), ("desert_vortex", "Desert Vortex")):
        state = position(GAME, pieces, step={"kind": "draw", "mode": "mystery"}, players=players)
        _, events = act(GAME, state, draw("mystery", card))
        tie = next(e.text for e in events if "tie for most Lives" in e.text)
        assert tie.startswith(f"{name}: Pink and Teal tie for most Lives"), tie


def test_a_life_gained_at_the_cap_is_no_change_of_lives() -> None:
    """At 10 Lives a life space said "Black goes from 10 to 10 Lives (capped at 10; 1 ignored)": a change that
    is none, heard as a misread number (67 distinct announcements over 150 seeded games)."""
    said = {}
    for lives in (9, 10):
        _, events = act(GAME, position(GAME, {A: {"space": 0, "lives": lives}}), roll(2))
        said[lives] = events[-1].text
    assert said == {9: "Orange (2): Black goes from 9 to 10 Lives.",
                    10: "Orange (2): Black stays at 10 Lives (capped at 10; 1 ignored)."}
