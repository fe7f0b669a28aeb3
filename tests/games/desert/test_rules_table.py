"""The desert race as a table argues it: prompts and refusals at the edges the other audits did not play."""

from __future__ import annotations

from companion.games.desert.board import CLOAK, COMPASS
from tests.games.desert.helpers import A, act, game_b, position, roll

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
