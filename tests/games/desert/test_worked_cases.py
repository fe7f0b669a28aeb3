"""Every desert worked case of DECISIONS.md 1.3 (DR-ATnn), on the test board B."""

from __future__ import annotations

import pytest

from companion.games.desert.board import COLLECTION_CARDS, COMPASS, FLASK
from tests.games.desert.helpers import A, B, act, draw, game_b, position, roll, rules_of, run, use

GAME = game_b()


def pile(state, card: str) -> int:
    return state.collection[COLLECTION_CARDS.index(card)]


@pytest.mark.parametrize(("lives", "expected"), [(9, 10), (10, 10)])
def test_dr_at01_life_gain_is_capped(lives: int, expected: int) -> None:
    state = position(GAME, {A: {"space": 1, "lives": lives}})
    state, events = act(GAME, state, roll(1))
    assert state.piece(A).space == 2
    assert state.piece(A).lives == expected
    assert GAME.pending(state).player == B
    assert {"DR-10", "DR-5"} <= rules_of(events)


def test_dr_at02_scared_costs_two_lives_and_returns_to_dawn() -> None:
    state = position(GAME, {A: {"space": 3, "lives": 5, "lap": True}})
    state, events = act(GAME, state, roll(2))
    piece = state.piece(A)
    assert (piece.lives, piece.space, piece.lap) == (3, 0, True)
    assert GAME.pending(state).player == B
    assert "DR-12" in rules_of(events)


def test_dr_at03_mirage_cloak_cancels_the_whole_penalty() -> None:
    state = position(GAME, {A: {"space": 3, "lives": 5, "items": ["mirage_cloak"]}})
    state, _ = act(GAME, state, roll(2))
    assert GAME.pending(state).kind == "choose"
    before = pile(state, "mirage_cloak")
    state, events = act(GAME, state, use("mirage_cloak"))
    piece = state.piece(A)
    assert (piece.lives, piece.space, piece.items) == (5, 5, ())
    assert pile(state, "mirage_cloak") == before + 1
    assert "DR-21" in rules_of(events)


def test_dr_at03_declining_the_cloak_takes_the_penalty() -> None:
    state = position(GAME, {A: {"space": 3, "lives": 5, "items": ["mirage_cloak"]}})
    state, _ = run(GAME, state, roll(2), {"type": "decline"})
    assert (state.piece(A).lives, state.piece(A).space, state.piece(A).items) == (3, 0, ("mirage_cloak",))


def test_dr_at04_knockout_and_return_next_round() -> None:
    state = position(GAME, {A: {"space": 3, "lives": 2, "items": [FLASK, COMPASS]}})
    flasks, compasses = pile(state, FLASK), pile(state, COMPASS)
    state, events = act(GAME, state, roll(2))
    piece = state.piece(A)
    assert (piece.lives, piece.space, piece.items, piece.out) == (0, 0, (), True)
    assert (pile(state, FLASK), pile(state, COMPASS)) == (flasks + 1, compasses + 1)
    assert "DR-6" in rules_of(events)
    assert GAME.pending(state).player == B
    state, events = act(GAME, state, roll(1))  # B ends on Oasis Alcove; the next round starts
    piece = state.piece(A)
    assert (piece.lives, piece.space, piece.items, piece.out) == (3, 0, (), False)
    assert state.round == 2
    pending = GAME.pending(state)
    assert (pending.kind, pending.player, state.step.mode) == ("roll", A, "move")


@pytest.mark.parametrize(("lives", "expected"), [(6, 8), (9, 10)])
def test_dr_at05_collection_draw_and_redeem_flask(lives: int, expected: int) -> None:
    state = position(GAME, {A: {"space": 2, "lives": lives}})
    state, _ = act(GAME, state, roll(1))
    assert GAME.pending(state).kind == "draw" and GAME.pending(state).deck == "collection"
    state, _ = act(GAME, state, draw("collection", FLASK))
    before = pile(state, FLASK)
    state, events = act(GAME, state, use(FLASK))
    assert state.piece(A).lives == expected
    assert FLASK not in state.piece(A).items
    assert pile(state, FLASK) == before + 1
    assert "DR-18" in rules_of(events)


def test_dr_at06_challenge_fail_then_success_moves_on() -> None:
    state = position(GAME, {A: {"space": 6}, B: {"space": 1}})
    state, _ = act(GAME, state, roll(1))
    assert state.piece(A).space == 7
    state, events = run(GAME, state, {"type": "attempt"}, roll(2))
    assert state.piece(A).space == 7 and state.piece(A).failures == 1
    assert GAME.pending(state).player == B
    assert "DR-14" in rules_of(events)
    state, _ = act(GAME, state, roll(2))  # B: 1 -> 3 Red
    state, _ = act(GAME, state, draw("collection", COMPASS))
    assert GAME.pending(state).player == A and state.step.mode == "attempt"
    state, events = act(GAME, state, roll(4))
    assert state.piece(A).space == 11 and state.piece(A).failures == 0
    assert GAME.pending(state).player == B
    assert "DR-13" in rules_of(events)


def test_dr_at08_three_failures_then_free_exit() -> None:
    state = position(GAME, {A: {"space": 7}, B: {"space": 13}}, step={"kind": "roll", "mode": "attempt"})
    for failed in (1, 2, 3):
        state, _ = act(GAME, state, roll(failed))
        assert state.piece(A).failures == failed and state.piece(A).space == 7
        state, _ = act(GAME, state, roll(1))  # B: 13 -> 14 -> 15 -> 0 (safe-ish spaces)
        if GAME.pending(state).player != A:
            state, _ = act(GAME, state, {"type": "end"})
    assert GAME.flow.free_exit(state, A)
    assert state.step.mode == "move"
    state, _ = act(GAME, state, roll(2))
    assert state.piece(A).space == 9 and state.piece(A).failures == 0
    assert state.step.kind == "offer"  # a new challenge landing: attempt at once


def test_dr_at10_desert_whisper_skips_the_next_turn() -> None:
    state = position(GAME, {A: {"space": 3}, B: {"space": 13}})
    state, _ = act(GAME, state, roll(1))
    state, events = act(GAME, state, draw("mystery", "desert_whisper"))
    assert state.piece(A).skip == 1 and "DR-24" in rules_of(events)
    order = []
    for _ in range(3):
        order.append(GAME.pending(state).player)
        state, _ = act(GAME, state, roll(1))
    assert order == [B, B, A]


def test_dr_at11_dune_shift_forward_back_and_wrapping() -> None:
    dune = {"kind": "draw", "mode": "mystery"}
    state = position(GAME, {A: {"space": 4}}, step=dune)
    state, _ = run(GAME, state, draw("mystery", "dune_shift"), roll(4))
    assert state.piece(A).space == 8
    state = position(GAME, {A: {"space": 4}}, step=dune)
    state, _ = run(GAME, state, draw("mystery", "dune_shift"), roll(3))
    assert state.piece(A).space == 1
    state = position(GAME, {A: {"space": 1}}, step={"kind": "dune"})
    state, events = act(GAME, state, roll(3))
    assert state.piece(A).space == 14 and not state.piece(A).lap
    assert "DR-25" in rules_of(events)


@pytest.mark.parametrize(("save", "keeps"), [(5, True), (2, False)])
def test_dr_at12_sand_thief_compass_only_save_roll(save: int, keeps: bool) -> None:
    state = position(GAME, {A: {"space": 4, "lives": 4, "items": [COMPASS]}, B: {"lives": 7}},
                     step={"kind": "draw", "mode": "mystery"})
    state, _ = act(GAME, state, draw("mystery", "sand_thief"))
    pending = GAME.pending(state)
    assert (pending.kind, pending.player) == ("roll", A)
    state, events = act(GAME, state, roll(save))
    assert (COMPASS in state.piece(A).items) is keeps
    assert (COMPASS in state.piece(B).items) is not keeps
    assert "DR-23" in rules_of(events)


def test_dr_at14_sandstorm_sneakers_after_the_roll() -> None:
    state = position(GAME, {A: {"space": 0, "items": ["sandstorm_sneakers"]}})
    state, _ = act(GAME, state, roll(3))
    assert GAME.pending(state).kind == "choose"
    state, events = act(GAME, state, use("sandstorm_sneakers"))
    assert state.piece(A).space == 6 and state.piece(A).items == ()
    assert state.step.kind == "end" and state.step.trading
    assert "DR-20" in rules_of(events)


def test_dr_at15_trading_keeps_everyone_at_one_life_or_more() -> None:
    state = position(GAME, {A: {"space": 6, "lives": 1}, B: {"lives": 4}}, step={"kind": "end", "trading": True})
    ruling = GAME.check(state, {"type": "trade", "with": B, "give": {"lives": 1}})
    assert not ruling.legal and ruling.rules == ("DR-11",)
    after, _ = act(GAME, state, {"type": "trade", "with": B, "get": {"lives": 3}})
    assert (after.piece(A).lives, after.piece(B).lives) == (4, 1)
    ruling = GAME.check(state, {"type": "trade", "with": B, "get": {"lives": 4}})
    assert not ruling.legal and "below 1" in ruling.text


def test_the_end_is_nobodys_step_as_in_every_other_game() -> None:
    """The desert's ``over`` named the winner as its ``player``, where the other four games give null: a front end
    reading ``pending.player`` as whose step it is showed the race's winner as the one to act."""
    state, _ = act(GAME, position(GAME, {A: {"space": 11, "items": [COMPASS], "lap": True}}), roll(1))
    pending = GAME.pending(state)
    assert (pending.kind, pending.player, pending.result) == ("over", None, {"winner": A})


def test_dr_at16_win_needs_lap_and_compass() -> None:
    state = position(GAME, {A: {"space": 11, "items": [COMPASS], "lap": True}})
    state, events = act(GAME, state, roll(1))
    pending = GAME.pending(state)
    assert pending.kind == "over" and pending.result == {"winner": A}
    assert any(e.kind == "win" for e in events) and "DR-28" in rules_of(events)
    for piece in ({"space": 11, "items": [COMPASS], "lap": False}, {"space": 11, "lap": True}):
        state = position(GAME, {A: piece})
        state, events = act(GAME, state, roll(1))
        assert state.piece(A).space == 12 and GAME.pending(state).kind != "over"
        assert GAME.pending(state).player == B
