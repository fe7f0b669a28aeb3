"""Where a runner stands: what the text view, the announcements and the roll buttons tell the table about the lap.

The text view said "lap done" for a runner past Desert Dawn on space 23 as on space 2, and the lap announcement
"the lap is complete": at a lap race the table heard the race was over, though it ends only on the Secret Passage
with a Golden Compass (DR-1, DR-28). Games are played through the Session, seeded, on the house board.
"""

from __future__ import annotations

import random

import pytest

from companion.data import load_data
from companion.games.desert import DesertRace
from companion.games.desert.standing import standing
from companion.session import Session
from tests.games.desert.helpers import A, B, act, position

GAME = DesertRace(load_data(DesertRace))
COMPASS = "golden_compass"


def row(state: object, player: str = A) -> str:
    return next(line for line in GAME.describe(state) if line.strip().lower().startswith(player))


def test_a_runner_past_dawn_is_told_what_still_wins() -> None:
    """On space 23 (Crumbling Stairs, a challenge) after the lap: the Compass still missing, or the spaces to the
    Secret Passage (37)."""
    attempt = {"kind": "roll", "mode": "attempt"}
    assert row(position(GAME, {A: {"space": 23, "lap": True}}, step=attempt)).endswith(
        "[lap done; needs a Golden Compass for Secret Passage (37)]")
    assert row(position(GAME, {A: {"space": 23, "lap": True, "items": [COMPASS]}}, step=attempt)).endswith(
        "[lap done, holds the Compass: Secret Passage (37) is 14 spaces ahead]")
    # Past the Passage on the last spaces: the way to it is round the loop again.
    assert row(position(GAME, {A: {"space": 38, "lap": True, "items": [COMPASS]}})).endswith("39 spaces ahead]")
    assert row(position(GAME, {A: {"space": 23, "items": [COMPASS]}}, step=attempt)).endswith("[lap 23/40]")


def test_the_board_row_and_the_text_view_say_one_standing() -> None:
    board = GAME.board
    assert [standing(board, 23, lap, compass).short for lap, compass in
            ((False, False), (True, False), (True, True))] == ["lap 23/40", "needs Compass", "14 to go"]
    assert standing(board, 37, True, True, won=True).short == "won"
    assert standing(board, 37, True, True).short == "40 to go"  # put there by a Vortex: a move must end there


def lap_events(events: list) -> list:
    return [e for e in events if "lap" in e.text]


def test_completing_the_lap_says_what_still_wins_with_its_clauses() -> None:
    state, events = act(GAME, position(GAME, {A: {"space": 35}}), {"type": "roll", "value": 6})
    (done,) = lap_events(events)
    assert done.text == ("Black passes Desert Dawn (0): the lap is complete; to win, a Golden Compass is still "
                         "needed, then a move ending on Secret Passage (37).")
    assert set(done.rules) >= {"DR-1", "DR-Q10", "DR-28"}
    state, events = act(GAME, position(GAME, {A: {"space": 35, "items": [COMPASS]}}), {"type": "roll", "value": 5})
    (done,) = lap_events(events)
    # Stopping on it: the move's line just named Desert Dawn ("... to Desert Dawn (0). Black reaches Desert Dawn
    # (0): ..." said the place twice in a row), so the lap is said as the runner's.
    assert events[events.index(done) - 1].text == "Black moves 5 spaces forward to Desert Dawn (0)."
    assert done.text.startswith("Black's lap is complete; holding the Golden Compass, a move ending on Secret "
                                "Passage (37) now wins"), done.text
    assert state.piece(A).lap
    state = position(GAME, {A: {"space": 35, "items": [COMPASS]}}, options={"passage_entry": "land_or_pass"})
    (done,) = lap_events(act(GAME, state, {"type": "roll", "value": 6})[1])
    assert "a move ending on or passing Secret Passage (37) now wins" in done.text and "DR-Q2" in done.rules


def test_stopping_on_dawn_where_it_must_be_passed_is_told() -> None:
    state = position(GAME, {A: {"space": 35}}, options={"lap_count_landing_on_start": False})
    state, events = act(GAME, state, {"type": "roll", "value": 5})
    assert not state.piece(A).lap
    (note,) = lap_events(events)
    assert "without passing it" in note.text and "not complete" in note.text and note.rules == ("DR-Q10",)
    assert row(state).endswith("[lap 0/40]")


def test_scared_back_to_dawn_keeps_the_lap_and_a_knockout_that_wipes_it_says_so() -> None:
    state, events = act(GAME, position(GAME, {A: {"space": 3, "lap": True}}), {"type": "roll", "value": 4})
    (scared,) = [e for e in events if e.text.startswith("Scared!")]
    assert scared.text.endswith("runs back to Desert Dawn (0); the lap still counts.") and "DR-Q10" in scared.rules
    assert state.piece(A).lap
    state = position(GAME, {A: {"space": 3, "lap": True, "lives": 2}}, options={"lap_reset_on_knockout": True})
    state, events = act(GAME, state, {"type": "roll", "value": 4})
    assert not state.piece(A).lap
    (wiped,) = [e for e in events if "the lap no longer counts" in e.text]
    assert "DR-Q10" in wiped.rules and not any("still counts" in e.text for e in events)
    assert row(state).endswith("[lap 0/40; OUT this round]")


def test_the_roll_that_wins_says_so_on_its_button() -> None:
    state = position(GAME, {A: {"space": 33, "lap": True, "items": [COMPASS]}})
    texts = [a["text"] for a in GAME.legal_actions(state)]
    assert "4: to Secret Passage (37), wins" in texts and sum("wins" in t for t in texts) == 1
    state = position(GAME, {A: {"space": 33, "items": [COMPASS]}})
    assert "4: to Secret Passage (37)" in [a["text"] for a in GAME.legal_actions(state)]
    attempt = {"kind": "roll", "mode": "attempt"}
    state = position(GAME, {A: {"space": 31, "lap": True, "items": [COMPASS]}}, step=attempt)
    assert "6: pass, to Secret Passage (37), wins" in [a["text"] for a in GAME.legal_actions(state)]
    state = position(GAME, {A: {"space": 33, "lap": True, "items": [COMPASS]}},
                     options={"passage_entry": "land_or_pass"})
    assert sum("wins" in a["text"] for a in GAME.legal_actions(state)) == 3  # 4 lands, 5 and 6 pass over it
    # A Dune Shift back onto the Passage enters it too (DR-Q2): from 38 an odd 1 goes back onto it.
    state = position(GAME, {A: {"space": 38, "lap": True, "items": [COMPASS]}}, step={"kind": "dune"})
    assert [a["text"] for a in GAME.legal_actions(state) if "wins" in a["text"]] == [
        "1: back to Secret Passage (37), wins"]


@pytest.mark.parametrize("options", [{}, {"lap_count_landing_on_start": False, "lap_reset_on_knockout": True,
                                          "lap_backward_undo": True, "passage_entry": "land_or_pass"}])
def test_seeded_games_say_one_standing_from_the_start_to_the_win(options: dict) -> None:
    """Whole games through the Session: every runner's row says what ``standing`` says, runners pass the start
    and stand on the last spaces, and the finished game names its winner instead of whose turn it is."""
    seen: set[str] = set()
    for seed in range(1, 6):
        session = Session.new("desert", [A, B, "teal"], options=options)
        rng = random.Random(seed)
        while not session.pending().is_over:
            step = session.act(session.game.sim_choose(session.state, session.legal(), rng))
            state = session.state
            for player, piece in zip(state.players, state.pieces, strict=True):
                said = GAME.standing(state, player)
                assert f"[{said.text}" in row(state, player), (seed, row(state, player))
                if piece.lap:
                    seen.add("lap, last spaces" if piece.space >= 36 else "lap")
            for event in step.events:
                if "the lap is complete" in event.text:
                    seen.add("lap event")
                    assert {"DR-Q10", "DR-28"} <= set(event.rules) and "Secret Passage (37)" in event.text
        winner = session.state.winner
        if winner:
            seen.add("won")
            assert GAME.describe(session.state)[0].endswith(f"{winner.capitalize()} has won")
            assert row(session.state, winner).endswith("[won: entered Secret Passage (37)]")
            assert "DR-28" in GAME.standing(session.state, winner).rules
    assert seen == {"lap", "lap, last spaces", "lap event", "won"}, seen


def test_a_game_ended_at_the_round_limit_says_so_instead_of_whose_turn() -> None:
    state = position(GAME, {A: {"space": 22, "lap": True}}, step={"kind": "over"}, options={"max_rounds": 20},
                     round=20)
    assert GAME.describe(state)[0] == "Round 20; over, no winner (round limit)"
