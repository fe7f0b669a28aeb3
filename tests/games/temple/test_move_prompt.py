"""The temple's move prompt as a first game reads it over the move buttons.

"Red: move a pawn 6." stood over eight buttons each ending "in 5": no way from Red's Entrance Circles went six
spaces, so every pawn stopped where its way ended (a dead end, RU-13), and the table took the app for wrong.
With ``must_use_full`` off, the prompt said "6" over moves of 1 to 6."""

from __future__ import annotations

import random

from companion.session import Session

# The opening dealt by this seed: Red rolls a white 6 with both pawns on the Entrance Circles, and the holes of
# the cards in slots 1 and 2 leave no way of six spaces.
SEED, STEPS = 11, 16


def red_rolled_six(**options: object) -> Session:
    session = Session.new("temple", ["red", "blue"], options=options or None)
    rng = random.Random(SEED)
    for _ in range(STEPS):
        session.act(session.game.sim_choose(session.state, session.legal(), rng))
    assert session.state.roll[0] == 6 and session.state.phase == "move"
    return session


def test_a_six_with_every_way_shorter_says_how_far_a_pawn_goes_and_why() -> None:
    session = red_rolled_six()
    moves = [a["text"] for a in session.legal()]
    assert moves and all(text.endswith(" in 5") for text in moves)
    assert session.pending().text == ("Red: move a pawn 6: every way ends sooner, so a pawn goes 5 and stops there "
                                      "(a dead end).")


def test_a_roll_that_may_stop_early_says_up_to() -> None:
    session = Session.new("temple", ["red", "blue"], options={"must_use_full": False})
    rng = random.Random(SEED)
    while session.state.phase != "move":
        session.act(session.game.sim_choose(session.state, session.legal(), rng))
    roll = session.state.roll[0]
    assert session.pending().text.endswith(f": move a pawn up to {roll}."), session.pending().text


def test_a_roll_some_way_uses_whole_keeps_the_short_prompt() -> None:
    session = Session.new("temple", ["red", "blue"])
    rng = random.Random(3)
    seen = 0
    for _ in range(300):
        if session.pending().is_over:
            break
        if session.state.phase == "move":
            roll = session.state.roll[0]
            lengths = [len(a["route"]) for a in session.legal() if a["to"] != "chamber"]
            if lengths and max(lengths) >= roll:
                assert session.pending().text.endswith(f": move a pawn {roll}.")
                seen += 1
        session.act(session.game.sim_choose(session.state, session.legal(), rng))
    assert seen > 10
