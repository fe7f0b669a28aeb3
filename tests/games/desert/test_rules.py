"""Rules beyond the worked cases: set-up, chains, cards, trades, refusals and options."""

from __future__ import annotations

import pytest

from companion.errors import IllegalAction, InvalidAction
from companion.game import GameData
from companion.games.desert.board import COMPASS, FLASK, SNEAKERS, SUNSHIELD
from companion.games.desert.rules import DesertRace
from companion.registry import create
from tests.games.desert.helpers import A, B, C, act, board_b, draw, game_b, position, roll, rules_of, run, use

GAME = game_b()
HOUSE = create("desert")


def test_setup_five_lives_on_dawn_and_order_rolloff_with_tie() -> None:
    state = GAME.setup([A, B, C], GAME.resolve_options({}))
    assert all(p.lives == 5 and p.space == 0 and not p.items for p in state.pieces)
    assert [GAME.pending(state).player] == [A]
    state, events = run(GAME, state, roll(5), roll(5), roll(2))
    assert state.step.contenders == (A, B) and state.step.rolls == ()
    assert "DR-Q24" in rules_of(events)
    # named as a sentence lists them: "Black, Pink tie with 5" was two names with a pause between, aloud
    assert "Black and Pink tie with 5 and roll again." in [e.text for e in events]
    three = GAME.setup([A, B, C], GAME.resolve_options({}))
    _, events = run(GAME, three, roll(4), roll(4), roll(4))
    assert "Black, Pink and Teal tie with 4 and roll again." in [e.text for e in events]
    state, _ = run(GAME, state, roll(3), roll(6))
    pending = GAME.pending(state)
    assert (pending.kind, pending.player, state.round) == ("roll", B, 1)
    state, _ = act(GAME, state, roll(1))  # B to Oasis Alcove; then C, then A in seat order
    assert GAME.pending(state).player == C


def test_a_chain_of_challenges_on_the_house_board() -> None:
    state = position(HOUSE, {A: {"space": "twin_dunes"}}, step={"kind": "roll", "mode": "attempt"})
    state, _ = act(HOUSE, state, roll(4))  # even: on to Sheer Cliff (5+)
    assert HOUSE.board.spaces[state.piece(A).space].id == "sheer_cliff" and state.step.kind == "offer"
    state, _ = run(HOUSE, state, {"type": "attempt"}, roll(5))  # on to Sphinx's Riddle (odd)
    assert HOUSE.board.spaces[state.piece(A).space].id == "sphinx_riddle"
    state, _ = run(HOUSE, state, {"type": "attempt"}, roll(3))  # on to Crumbling Stairs (3+)
    assert HOUSE.board.spaces[state.piece(A).space].id == "crumbling_stairs"
    state, _ = run(HOUSE, state, {"type": "attempt"}, roll(6))  # on to Cool Cave: +1 Life, chain ends
    assert HOUSE.board.spaces[state.piece(A).space].id == "cool_cave" and state.piece(A).lives == 6
    assert HOUSE.pending(state).player == B  # a house board position (GAME's board has fewer spaces)


def test_declining_the_chain_attempt_counts_nothing() -> None:
    state = position(GAME, {A: {"space": 6}})
    state, events = run(GAME, state, roll(1), {"type": "stop"})
    assert state.piece(A).space == 7 and state.piece(A).failures == 0 and "DR-Q4" in rules_of(events)
    assert GAME.pending(state).player == B


def test_guardian_needs_a_six_and_has_no_limit() -> None:
    state = position(GAME, {A: {"space": 10, "failures": 5}, B: {"space": 13}},
                     step={"kind": "roll", "mode": "attempt"})
    state, events = act(GAME, state, roll(5))
    assert state.piece(A).failures == 6 and "DR-15" in rules_of(events)
    state, _ = act(GAME, state, roll(1))
    assert state.step.mode == "attempt"
    state, _ = act(GAME, state, roll(6))
    assert state.piece(A).space == 0 and state.piece(A).lap  # 10 + 6 wraps onto Desert Dawn


def test_sunshield_before_the_roll_and_after_a_failure() -> None:
    state = position(GAME, {A: {"space": 10, "items": [SUNSHIELD]}}, step={"kind": "roll", "mode": "attempt"})
    assert {"type": "use", "card": SUNSHIELD} in [{k: v for k, v in a.items() if k != "text"}
                                                   for a in GAME.legal_actions(state)]
    state, _ = run(GAME, state, use(SUNSHIELD), roll(2))
    assert state.piece(A).space == 12 and state.piece(A).items == ()
    state = position(GAME, {A: {"space": 7, "items": [SUNSHIELD]}}, step={"kind": "roll", "mode": "attempt"})
    state, _ = act(GAME, state, roll(2))
    assert state.step.kind == "shield"
    state, events = act(GAME, state, use(SUNSHIELD))
    assert state.piece(A).space == 9 and "DR-19" in rules_of(events)


def test_sunshield_timing_option_before_only() -> None:
    state = position(GAME, {A: {"space": 7, "items": [SUNSHIELD]}}, step={"kind": "roll", "mode": "attempt"},
                     options={"sunshield_timing": "before"})
    state, _ = act(GAME, state, roll(2))
    assert state.step.kind != "shield" and state.piece(A).failures == 1


def test_sand_thief_tie_rolloff_and_the_card_entered_by_the_table() -> None:
    players = (A, B, C)
    state = position(GAME, {A: {"space": 4, "lives": 3, "items": [FLASK, COMPASS]}, B: {"lives": 7},
                            C: {"lives": 7}}, step={"kind": "draw", "mode": "mystery"}, players=players)
    state, _ = act(GAME, state, draw("mystery", "sand_thief"))
    assert state.step.kind == "rolloff" and state.step.contenders == (B, C)
    state, _ = run(GAME, state, roll(4), roll(4), roll(2), roll(6))
    pending = GAME.pending(state)
    assert (pending.kind, pending.player) == ("choose", C)
    cards = sorted(a["card"] for a in GAME.legal_actions(state))
    assert cards == sorted([COMPASS, FLASK])
    state, events = act(GAME, state, {"type": "steal", "card": COMPASS})
    assert state.piece(C).items == (COMPASS,) and state.piece(A).items == (FLASK,)
    assert "DR-23" in rules_of(events)


def test_sand_thief_takes_nothing_from_the_richest_or_the_empty_handed() -> None:
    state = position(GAME, {A: {"space": 4, "lives": 8, "items": [FLASK]}, B: {"lives": 7}},
                     step={"kind": "draw", "mode": "mystery"})
    state, events = act(GAME, state, draw("mystery", "sand_thief"))
    assert state.piece(A).items == (FLASK,) and "DR-Q14" in rules_of(events)
    state = position(GAME, {A: {"space": 4}}, step={"kind": "draw", "mode": "mystery"})
    state, events = act(GAME, state, draw("mystery", "sand_thief"))
    assert "DR-Q14" in rules_of(events)


def test_vortex_chooser_relocates_and_the_space_is_resolved() -> None:
    state = position(GAME, {A: {"space": 4, "lives": 3}, B: {"lives": 8}}, step={"kind": "draw", "mode": "mystery"})
    state, _ = act(GAME, state, draw("mystery", "desert_vortex"))
    pending = GAME.pending(state)
    assert (pending.kind, pending.player) == ("choose", B)
    assert "passage" not in [a["space"] for a in GAME.legal_actions(state)]
    refused = GAME.check(state, {"type": "relocate", "space": "passage"})
    assert not refused.legal and refused.rules == ("DR-Q13",)
    state, events = act(GAME, state, {"type": "relocate", "space": "scared"})
    assert state.piece(A).space == 0 and state.piece(A).lives == 1 and "DR-26" in rules_of(events)


def test_camels_blessing_and_whisper_stack() -> None:
    state = position(GAME, {A: {"space": 4, "lives": 10, "skip": 1}}, step={"kind": "draw", "mode": "mystery"})
    state, _ = act(GAME, state, draw("mystery", "camels_blessing"))
    assert state.piece(A).lives == 10
    state = position(GAME, {A: {"space": 4, "skip": 1}}, step={"kind": "draw", "mode": "mystery"})
    state, _ = act(GAME, state, draw("mystery", "desert_whisper"))
    assert state.piece(A).skip == 2


def test_lap_counts_forward_crossings_only() -> None:
    state = position(GAME, {A: {"space": 14}})
    state, events = act(GAME, state, roll(3))
    assert state.piece(A).space == 1 and state.piece(A).lap and "DR-Q10" in rules_of(events)
    state = position(GAME, {A: {"space": 15}}, options={"lap_count_landing_on_start": False})
    state, _ = act(GAME, state, roll(1))
    assert not state.piece(A).lap


def test_trade_of_items_and_refusals() -> None:
    state = position(GAME, {A: {"space": 6, "items": [FLASK]}, B: {"items": [COMPASS]}},
                     step={"kind": "end", "trading": True})
    state, _ = act(GAME, state, {"type": "trade", "with": B, "give": {"items": [FLASK]},
                                      "get": {"items": [COMPASS], "lives": 1}})
    assert state.piece(A).items == (COMPASS,) and state.piece(B).items == (FLASK,)
    assert (state.piece(A).lives, state.piece(B).lives) == (6, 4)
    ruling = GAME.check(state, {"type": "trade", "with": B, "give": {"items": [SNEAKERS]}})
    assert not ruling.legal and ruling.rules == ("DR-11",)
    assert not GAME.check(state, {"type": "trade", "with": A, "get": {"lives": 1}}).legal
    off_green = position(GAME, {A: {"space": 1, "items": [FLASK]}}, step={"kind": "end"})
    ruling = GAME.check(off_green, {"type": "trade", "with": B, "give": {"items": [FLASK]}})
    assert not ruling.legal and ruling.rules == ("DR-Q22",)


def test_refusals_cite_a_clause_and_leave_the_state_alone() -> None:
    state = position(GAME, {A: {"space": 2}})
    before = GAME.to_document(state)
    for action, clause in (
        ({"type": "draw", "deck": "collection", "card": FLASK}, "DR-8"),
        ({"type": "roll", "value": 3, "player": B}, "DR-3"),
        (use(FLASK), "DR-18"),
        (use(COMPASS), "DR-Q17"),
        ({"type": "end"}, "DR-3"),
    ):
        ruling = GAME.check(state, action)
        assert not ruling.legal and ruling.rules == (clause,), (action, ruling)
        assert GAME.rulebook.clause(clause)
    assert GAME.to_document(state) == before
    with pytest.raises(InvalidAction):
        act(GAME, state, {"type": "roll", "value": 7})
    with pytest.raises(InvalidAction):
        act(GAME, state, {"type": "fly"})


def test_empty_collection_pile_refuses_that_card() -> None:
    state = position(GAME, {A: {"space": 3, "items": [COMPASS, COMPASS, COMPASS]}},
                     step={"kind": "draw", "mode": "collection"})
    assert COMPASS not in [a["card"] for a in GAME.legal_actions(state)]
    ruling = GAME.check(state, draw("collection", COMPASS))
    assert not ruling.legal and ruling.rules == ("DR-Q16",)


def test_option_next_turn_and_three_attempts_per_turn() -> None:
    state = position(GAME, {A: {"space": 6}}, options={"attempt_on_landing": "next_turn"})
    state, _ = act(GAME, state, roll(1))
    assert GAME.pending(state).player == B
    state = position(GAME, {A: {"space": 7}}, step={"kind": "roll", "mode": "attempt"},
                     options={"attempts_per_turn": 3})
    state, _ = run(GAME, state, roll(1), roll(2))
    assert GAME.pending(state).player == A and state.piece(A).failures == 2
    state, _ = act(GAME, state, roll(3))
    assert GAME.pending(state).player == B and GAME.flow.free_exit(state, A)


def test_round_limit_ends_without_winner() -> None:
    state = position(GAME, {A: {"space": 13}, B: {"space": 13}}, turn=B, options={"max_rounds": 20}, round=20)
    state, events = act(GAME, state, roll(1))
    assert GAME.pending(state).result == {"winner": None, "reason": "round limit reached"}
    assert "DR-Q35" in rules_of(events)


def test_a_flask_may_be_redeemed_at_any_choice_of_the_movers_own_turn() -> None:
    """DR-16 and DR-Q23: a held card may be spent later in your own turn, not only before the roll.

    On a challenge offer the player may drink and then stop (the turn ends at once, with no end step);
    on a Scared! space holding a Cloak the player may drink before deciding about the Cloak.
    """
    state = position(GAME, {A: {"space": 6, "lives": 3, "items": [FLASK]}})
    state, _ = act(GAME, state, roll(1))
    assert state.step.kind == "offer"
    assert use(FLASK) in [{k: v for k, v in a.items() if k != "text"} for a in GAME.legal_actions(state)]
    state, events = act(GAME, state, use(FLASK))
    assert state.piece(A).lives == 5 and FLASK not in state.piece(A).items and "DR-18" in rules_of(events)
    assert state.step.kind == "offer"  # the offer still waits for its answer
    state, _ = act(GAME, state, {"type": "stop"})
    assert GAME.pending(state).player == B

    scared = position(GAME, {A: {"space": 3, "lives": 2, "items": [FLASK, "mirage_cloak"]}})
    scared, _ = act(GAME, scared, roll(2))
    assert scared.step.kind == "cloak"
    scared, _ = act(GAME, scared, use(FLASK))
    assert scared.piece(A).lives == 4 and scared.step.kind == "cloak"
    scared, _ = act(GAME, scared, {"type": "decline"})
    assert scared.piece(A).lives == 2 and not scared.piece(A).out and scared.piece(A).space == 0

    # Still only on the mover's own turn: not while another player answers a roll-off or a steal.
    rolloff = position(GAME, {A: {"space": 4, "items": [FLASK]}, B: {"lives": 5}},
                       step={"kind": "rolloff", "mode": "thief", "contenders": [A, B], "victim": A})
    ruling = GAME.check(rolloff, use(FLASK))
    assert not ruling.legal and ruling.rules == ("DR-Q23",)


def test_the_end_step_after_drinking_the_flask_reads_as_a_sentence() -> None:
    """Redeeming the Flask at the end of the turn leaves only "end the turn" to do (DR-18).

    The prompt used to keep the list of choices it no longer had and read "Black on Oasis Alcove: , or
    end the turn."
    """
    state = position(GAME, {A: {"space": 0, "lives": 3, "items": [FLASK]}})
    state, _ = act(GAME, state, roll(1))
    assert GAME.pending(state).text == "Black on Oasis Alcove (1): redeem a Desert Flask, or end the turn."
    state, _ = act(GAME, state, use(FLASK))
    assert GAME.pending(state).text == "Black on Oasis Alcove (1): end the turn."


def _move_rules(events: list) -> list[tuple[str, ...]]:
    """A move's clauses: one ending on a safe space cites its clause (DR-7) after its own."""
    return [e.rules for e in events if e.kind == "move"]


@pytest.mark.parametrize("answer", [use(SNEAKERS), {"type": "decline"}])
def test_sneakers_after_a_passed_attempt_announce_the_challenge_clause(answer: dict) -> None:
    """The move after a passed attempt comes from the challenge clause, whatever the Sneakers answer."""
    state = position(GAME, {A: {"space": 7, "items": [SNEAKERS]}}, step={"kind": "roll", "mode": "attempt"})
    state, _ = act(GAME, state, roll(4))
    assert state.step.kind == "sneakers"
    state, events = act(GAME, state, answer)
    assert state.piece(A).space == (15 if answer["type"] == "use" else 11)
    assert _move_rules(events) == [("DR-13", "DR-7")]


def test_sneakers_after_a_sunshield_pass_announce_the_challenge_clause() -> None:
    state = position(GAME, {A: {"space": 7, "items": [SNEAKERS, SUNSHIELD]}}, step={"kind": "roll", "mode": "attempt"})
    state, _ = run(GAME, state, use(SUNSHIELD), roll(2))
    state, events = act(GAME, state, use(SNEAKERS))
    assert state.piece(A).space == 11 and _move_rules(events) == [("DR-13", "DR-7")]


def test_sneakers_on_a_normal_roll_announce_the_movement_clause() -> None:
    state = position(GAME, {A: {"space": 0, "items": [SNEAKERS]}})
    state, _ = act(GAME, state, roll(3))
    state, events = act(GAME, state, use(SNEAKERS))
    assert _move_rules(events) == [("DR-4",)]


def test_sneakers_declined_for_a_judged_roll_are_not_asked_again_for_its_move() -> None:
    """With sneakers_affect_challenge_test the card is asked once per roll: declined for the test, the
    passed attempt's move followed at once, not a second Sneakers question."""
    options = {"sneakers_affect_challenge_test": True}
    state = position(GAME, {A: {"space": 7, "items": [SNEAKERS]}}, step={"kind": "roll", "mode": "attempt"},
                     options=options)
    state, _ = act(GAME, state, roll(4))
    assert (state.step.kind, state.step.mode) == ("sneakers", "test")
    state, events = act(GAME, state, {"type": "decline"})
    assert state.step.kind != "sneakers" and state.piece(A).space == 11 and SNEAKERS in state.piece(A).items
    assert _move_rules(events) == [("DR-13", "DR-7")]


def test_vortex_choices_name_each_space_in_words() -> None:
    """With the Secret Passage open to the Vortex, its choice read "Send Black to Secret Passage
    (secret_passage)": the board file's type id, underscore and all, on the button and in the voice."""
    state = position(HOUSE, {A: {"space": 4, "lives": 3}, B: {"lives": 8}}, step={"kind": "draw", "mode": "mystery"},
                     options={"vortex_allow_passage": True})
    state, _ = act(HOUSE, state, draw("mystery", "desert_vortex"))
    texts = [a["text"] for a in HOUSE.legal_actions(state) if a["type"] == "relocate"]
    assert any("Secret Passage" in t for t in texts)
    assert not [t for t in texts if "_" in t]
    assert "Send Black to Secret Passage (37)" in texts  # the name says the kind already
    assert "Send Black to Cobra Pit (27, scared): Black loses 2 Lives, back to Desert Dawn (0)" in texts


def test_a_sunshield_refused_says_why_in_words() -> None:
    """A refused Amulet ended "at the moment the options allow (after)." (or "(either)"): the option's
    value read out, and on the Guardian's Test, where a house option turns the Amulet off, the reason given
    was the timing, not the Guardian."""
    before = {A: {"space": 7, "items": [SUNSHIELD]}}
    attempt = {"kind": "roll", "mode": "attempt"}
    for timing in ("after", "either", "before"):
        state = position(GAME, {A: {"space": 4, "items": [SUNSHIELD]}}, step={"kind": "roll", "mode": "move"},
                         options={"sunshield_timing": timing})
        ruling = GAME.check(state, use(SUNSHIELD))
        assert not ruling.legal and ruling.rules == ("DR-Q8",)
        assert f"({timing})" not in ruling.text and "options allow" not in ruling.text
    state = position(GAME, before, step=attempt, options={"sunshield_timing": "after"})
    assert "after a failed attempt roll" in GAME.check(state, use(SUNSHIELD)).text
    guardian = {A: {"space": 31, "items": [SUNSHIELD]}}
    state = position(HOUSE, guardian, step=attempt, options={"sunshield_on_guardian": False})
    ruling = HOUSE.check(state, use(SUNSHIELD))
    assert not ruling.legal and "Guardian's Test" in ruling.text


def test_card_names_are_said_without_an_article_and_refusals_once() -> None:
    """The table heard "Purple draws a Sandstorm Sneakers", "A Sandstorm Sneakers is redeemed only ...", "does
    not hold 2 Desert Flask to trade" and, from the terminal, "Refused: Refused: Black would be left ..."."""
    state = position(GAME, {A: {"space": 3}}, step={"kind": "draw", "mode": "collection"})
    _, events = act(GAME, state, draw("collection", SNEAKERS))
    assert f"{A.capitalize()} draws Sandstorm Sneakers and keeps the card." in [e.text for e in events]
    state = position(GAME, {A: {"space": 3, "items": [SNEAKERS] * 4}},
                     step={"kind": "draw", "mode": "collection"})
    assert GAME.check(state, draw("collection", SNEAKERS)).text == (
        "No Sandstorm Sneakers card is left in the Collection pile.")
    state = position(GAME, {A: {"space": 6, "items": [FLASK]}, B: {"items": [SNEAKERS], "lives": 1}},
                     step={"kind": "end", "trading": True})
    assert GAME.check(state, {"type": "trade", "with": B, "give": {"items": [FLASK, FLASK]}}).text == (
        f"{A.capitalize()} holds 1 Desert Flask, not the 2 in this trade.")
    assert GAME.check(state, {"type": "trade", "with": B, "get": {"items": [SUNSHIELD]}}).text == (
        f"{B.capitalize()} holds no Sunshield Amulet to trade.")  # not "does not hold 1 Sunshield Amulet card"
    assert GAME.check(state, {"type": "trade", "with": B, "get": {"lives": 1}}).text == (
        f"{B.capitalize()} would be left with 0 Lives; no trade may take a player below 1 Life.")
    rolloff = GAME.setup([A, B, C], GAME.resolve_options({}))
    assert GAME.check(rolloff, use(SNEAKERS)).text == (
        "No card is redeemed during the order roll-off: cards are redeemed on the owner's own turn, and play has "
        "not begun.")


def test_the_text_board_counts_in_words() -> None:
    """The board read "1 Lives", "misses 1 turn(s)" and "1 failed attempt(s) here"."""
    attempt = {"kind": "roll", "mode": "attempt"}
    state = position(GAME, {A: {"space": 10, "lives": 1, "failures": 1}, B: {"space": 2, "lives": 2, "skip": 2}},
                     step=attempt)
    rows = GAME.describe(state)[1:3]
    assert rows[0].endswith(" 1 Life   no items [lap 10/16; 1 failed attempt here]"), rows
    assert rows[1].endswith(" 2 Lives  no items [lap 2/16; misses 2 turns]"), rows
    state = position(GAME, {A: {"space": 10, "failures": 2}, B: {"skip": 1}}, step=attempt)
    rows = GAME.describe(state)[1:3]
    assert rows[0].endswith("; 2 failed attempts here]") and rows[1].endswith("; misses 1 turn]"), rows


def test_the_text_board_keeps_its_columns_under_a_cafes_long_space_name() -> None:
    """A café's 45-letter space name pushed its row's Lives and items out of line with the other rows."""
    board = board_b()
    board["spaces"][2]["name"] = "Karawanserei an der Straße nach Timbuktu (Ost)"
    game = DesertRace(GameData({**game_b().data.files, "board": board}))
    rows = game.describe(position(game, {A: {"space": 2}, B: {"space": 3}}))[1:3]
    assert rows[0].index("Lives") == rows[1].index("Lives"), rows
    assert "Karawanserei an der Straße nach Timbuktu (Ost)" in rows[0]


def test_a_drawer_who_chooses_their_own_vortex_space_is_named_once() -> None:
    """The drawer with most Lives chooses for themself (DR-Q13); the table read "Black sends Black to Scared!"
    and the event listed Black twice."""
    state = position(GAME, {A: {"space": 4, "lives": 9}, B: {"lives": 3}}, step={"kind": "draw", "mode": "mystery"})
    state, events = act(GAME, state, draw("mystery", "desert_vortex"))
    pending = GAME.pending(state)
    assert pending.player == A and pending.text.count("Black") == 1
    assert all(len(set(e.players)) == len(e.players) for e in events)
    assert all(e.text.count("Black") <= 1 for e in events), [e.text for e in events]
    state, events = act(GAME, state, {"type": "relocate", "space": "scared"})
    moved = events[0]
    assert moved.players == (A,) and moved.text == "Black chooses to go to Scared! (5)."
    assert "DR-Q13" in moved.rules and state.piece(A).space == 0


def test_a_vortex_chooser_for_someone_else_still_names_both() -> None:
    state = position(GAME, {A: {"space": 4, "lives": 3}, B: {"lives": 8}}, step={"kind": "draw", "mode": "mystery"})
    state, events = act(GAME, state, draw("mystery", "desert_vortex"))
    state, events = act(GAME, state, {"type": "relocate", "space": "scared"})
    assert events[0].players == (A, B) and events[0].text.startswith("Pink sends Black to Scared!")


def test_an_empty_trade_is_refused_with_the_trading_clause() -> None:
    """"a trade must exchange at least one card or Life" cited no clause, and `check` raised instead of ruling.
    A trade swaps items and/or Lives (DR-11), so one that swaps nothing is refused under it."""
    state = position(GAME, {A: {"space": 6, "items": [FLASK]}}, step={"kind": "end", "trading": True})
    for empty in ({"type": "trade", "with": B}, {"type": "trade", "with": B, "give": {"items": [], "lives": 0}}):
        ruling = GAME.check(state, empty)
        assert not ruling.legal and ruling.rules == ("DR-11",), ruling
        assert ruling.text == "A trade must exchange at least one card or Life."
        with pytest.raises(IllegalAction) as refused:
            GAME.apply(state, empty)
        assert refused.value.rule == "DR-11"
