"""What the voice says after an undo and a redo: each thing once, the screen's and the protocol's words kept.

An undo that gives the turn back ends "Back to Yellow's turn." (companion/takeback.py), and the voice said it
and then the prompt, "Yellow: roll the oracle.": the name twice in a row, one thing said twice. Each of the five
games is played here through a real app offscreen, a step that passes the turn taken, undone and redone.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from companion.game import normalize_action
from companion.protocol import Referee
from companion.registry import create, game_classes
from companion.session import Session
from companion.simulate import random_players
from tests.ui.conftest import advance
from ui.voice import spoken_form, spoken_step

pytestmark = pytest.mark.usefixtures("undrawn")  # texts, sizes and states are read, never the window's pixels


def test_the_turn_given_back_is_said_by_the_prompt_that_names_the_player() -> None:
    undo = "Taken back: Black places a Targi on card 7 (Spice Stall). Back to Black's turn."
    assert spoken_step(undo, "Black: place a Targi on a border card.") == (
        "Taken back: Black places a Targi on card 7 (Spice Stall). Black: place a Targi on a border card.")
    correction = ("Correction: the roll entered last (Teal rolls 3) is withdrawn; enter what the table really "
                  "shows. Back to Teal's turn.")
    assert spoken_step(correction, "Order roll-off: Teal rolls the die (highest goes first).") == (
        "Correction: the roll entered last (Teal rolls 3) is withdrawn; enter what the table really shows. "
        "Order roll-off: Teal rolls the die (highest goes first).")
    points = "Taken back: Red places a white camel on (5,0). Red gives back 5 points (oases). Back to Red's turn."
    assert spoken_step(points, "Red: place camel 2 of 2 this turn.") == (
        "Taken back: Red places a white camel on (5,0). Red gives back 5 points (oases). "
        "Red: place camel 2 of 2 this turn.")


def test_the_turn_given_back_stays_when_the_prompt_does_not_name_the_player() -> None:
    """Only the prompt's own naming of the player replaces it: a prompt for nobody in particular, another
    player's name, or a colour that is a piece's ("left: white") leaves it said."""
    undo = "Taken back: Red places the white leader on (4,8). Back to White's turn."
    assert spoken_step(undo, "Red: place a leader (in hand: white).") == f"{undo} Red: place a leader (in hand: white)."
    assert spoken_step(undo, "Draw a card for slot 5 (curved edge out).").startswith(undo)
    # Said by the step itself, not by an undo's closing words, a sentence stays.
    alone = "Back to White's turn."
    assert spoken_step(alone, "White: roll the die.") == f"{alone} White: roll the die."


def _players(game_id: str, seed: int) -> list[str]:
    return random_players(create(game_id), random.Random(seed))


def _turn_passer(game_id: str, seed: int) -> tuple[Session, dict[str, Any]]:
    """A seeded game stopped before a step that passes the turn, and that step."""
    rng = random.Random(seed)
    session = Session.new(game_id, _players(game_id, seed))
    for _ in range(3000):
        pending = session.pending()
        assert not pending.is_over, f"{game_id} {seed}: no step passed the turn"
        action = session.game.sim_choose(session.state, session.legal(), rng)
        after, _ = session.game.apply(session.state, normalize_action(action))
        now = session.game.pending(after)
        if pending.player and now.player and now.player != pending.player and not now.is_over:
            return session, {k: v for k, v in action.items() if k != "text"}
        session.act({k: v for k, v in action.items() if k != "text"})
    raise AssertionError(f"{game_id} {seed}: no step passed the turn")


def test_after_an_undo_each_game_names_whose_turn_it_is_again_once(start: Any) -> None:
    """In all five games: the table's list keeps "Back to X's turn.", the voice leaves it to the prompt, which
    names X, and a redo is said as the step was."""
    app = None
    for game_id in game_classes():
        session, action = _turn_passer(game_id, 1)
        who = session.pending().player.capitalize()
        if app is None:
            app = start(session)
            app.show("table")
        else:
            app.new_game("blackpool", ["yellow", "red"])  # any game: the seeded one is put on the table next
            app.controller.set_session(session)
        advance(2)
        app.act(action)
        app.voice.wait()
        step_said = app.spoken.lines[-1]
        app.undo()
        app.voice.wait()
        shown = app.announcements[0]["text"]
        assert shown.endswith(f" Back to {who}'s turn."), (game_id, shown)  # the screen keeps it
        heard = app.spoken.lines[-1]
        assert heard == app.last_spoken
        assert f"{who}'s turn" not in heard, (game_id, heard)
        prompt = spoken_form(app.prompt)
        assert re.search(rf"\b{who}\b", prompt) and heard.endswith(prompt.split()[-1]), (game_id, heard, prompt)
        for sentence in re.split(r"(?<=[.!?])\s+", heard):
            assert len(re.findall(r"[\w']+", sentence)) <= 25, sentence
        app.redo()
        app.voice.wait()
        assert app.spoken.lines[-1] == "Put back: " + step_said, game_id  # a redo is said as its step was


@pytest.mark.parametrize("game_id", ["blackpool", "targi"])
def test_the_protocol_keeps_the_turn_given_back(game_id: str) -> None:
    session, action = _turn_passer(game_id, 1)
    who = session.pending().player
    referee = Referee()
    referee.handle({"cmd": "new", "game": game_id, "players": _players(game_id, 1)})
    for step in session.log:
        assert referee.handle({"cmd": "act", "action": step})["ok"]
    assert referee.handle({"cmd": "act", "action": action})["ok"]
    answer = referee.handle({"cmd": "undo"})
    assert answer["ok"] and answer["note"].endswith(f"Back to {who.capitalize()}'s turn.")


def test_a_game_over_prompt_all_said_by_the_last_step_is_not_said_again() -> None:
    won = "Pink enters Secret Passage (37) with the Golden Compass after a full lap and wins!"
    assert spoken_step(won, "Pink wins.", over=True) == won
    limit = "Teal ends the turn. The round limit (30) is reached: the game ends with no winner."
    assert spoken_step(limit, "The game ended at the round limit, no winner.", over=True) == limit
    # A word the step did not say keeps the sentence; and before the end, "Black: roll the die." is an order.
    assert spoken_step(won, "Teal wins.", over=True) == f"{won} Teal wins."
    assert spoken_step("Black rolls the die.", "Black: roll the die.") == "Black rolls the die. Black: roll the die."


def _before_the_end(seed: int, options: dict[str, Any] | None = None) -> tuple[Session, dict[str, Any]]:
    """A seeded desert race stopped before its last step, and that step."""
    rng = random.Random(seed)
    session = Session.new("desert", random_players(create("desert"), rng), options=options)
    while True:
        action = {k: v for k, v in session.game.sim_choose(session.state, session.legal(), rng).items() if k != "text"}
        after, _ = session.game.apply(session.state, normalize_action(action))
        if session.game.pending(after).is_over:
            return session, action
        session.act(action)


@pytest.mark.parametrize(("seed", "options", "end"), [(2, None, "wins"), (2, {"max_rounds": 20}, "no winner")])
def test_the_desert_race_says_its_end_once_after_the_last_step_and_its_redo(
        start: Any, seed: int, options: dict[str, Any] | None, end: str) -> None:
    """It said "... after a full lap and wins! Teal wins." and "... the game ends with no winner. The game ended
    at the round limit, no winner.": the game-over prompt said again what the last step had just said."""
    session, action = _before_the_end(seed, options)
    app = start(session)
    app.show("table")
    advance(2)
    app.act(action)
    prompt = app.prompt
    assert app.game_over and end in prompt  # the screen keeps the prompt
    for presses in ((), ("undo", "redo")):
        heard = _heard(app, *presses)
        assert heard.count(end) == 1, heard
        assert heard == app.last_spoken and app.prompt == prompt


def _heard(app: Any, *presses: str) -> str:
    for press in presses:
        getattr(app, press)()
    app.voice.wait()
    return str(app.spoken.lines[-1])
