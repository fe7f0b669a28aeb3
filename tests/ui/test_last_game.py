"""Home after a restart over a finished game: its result, and a way back into it to undo a misread last roll."""

from __future__ import annotations

import random
import sqlite3
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from companion.finished import finished_game
from companion.journal import Journal
from companion.observations import Touch
from companion.session import Session, open_table
from tests.ui.conftest import advance, tap

pytestmark = pytest.mark.usefixtures("undrawn")  # texts, sizes and states are read, never the window's pixels

NIGHT = timedelta(hours=30)  # longer than any café day, summer time changes included


def won_targi(path: Path) -> Session:
    journal = Journal(path)
    session = Session.new("targi", ["white", "black"], journal=journal)
    rng = random.Random(2)
    while not session.pending().is_over:
        session.act(session.game.sim_choose(session.state, session.legal(), rng))
    journal.close()  # the app stops (watchdog, power cut): the next start finds the journal as it was
    return session


def test_a_restart_after_the_last_game_ended_shows_its_result_and_goes_back_into_it(
    launch: Any, tmp_path: Path
) -> None:
    won = won_targi(tmp_path / "journal.sqlite3")
    app = launch(new=False)
    home = app.root.get_screen("home")
    assert app.root.current == "home" and app.controller.session is None  # never back into play on its own
    shown = home.ids.last_game.text
    final = won.pending().text.removeprefix("The game is over. ")  # the score and who won, in the game's words
    assert shown.startswith("Last game: Targi, finished at ") and shown.endswith(final)
    assert home.ids.resume.text == "Back to Targi (finished)" and not home.ids.resume.disabled
    tap(home.ids.resume)
    table = app.root.get_screen("table")
    assert app.root.current == "table" and app.game_over and app.controller.session.log == won.log
    assert app.status == "The last game is back: Undo takes back its last steps."
    tap(table.ids.undo)
    assert not app.game_over and app.controller.session.log == won.log[:-1]
    app.show("home")
    advance(3)
    assert home.ids.resume.text.startswith("Resume Targi (") and home.ids.last_game.text == ""
    app.journal.close()  # and the next restart resumes it as the game in play it is again
    journal, session, _ = open_table(tmp_path / "journal.sqlite3")
    assert session is not None and session.log == won.log[:-1]
    journal.close()


def test_a_game_finished_before_this_cafe_day_is_shown_as_a_result_only(launch: Any, tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    won = won_targi(path)
    raw = sqlite3.connect(path)
    raw.execute("UPDATE steps SET at = ?", ((datetime.now().astimezone() - timedelta(days=2)).isoformat(),))
    raw.commit()
    raw.close()
    app = launch(new=False)
    home = app.root.get_screen("home")
    assert home.ids.last_game.text.startswith("Last game: Targi, finished on ")
    assert home.ids.last_game.text.endswith(won.pending().text.removeprefix("The game is over. "))
    assert home.ids.resume.disabled and home.ids.resume.text == "No game in progress"


def test_a_game_just_won_on_the_table_is_named_at_home_with_the_way_back(start: Any) -> None:
    """Home over a finished game said "No game in progress", with no way back to the table to undo."""
    session = Session.new("targi", ["white", "black"])
    rng = random.Random(2)
    while not session.pending().is_over:
        session.act(session.game.sim_choose(session.state, session.legal(), rng))
    app = start(session)
    app.show("home")
    advance(3)
    home = app.root.get_screen("home")
    final = session.pending().text.removeprefix("The game is over. ")  # the score and who won
    assert home.ids.last_game.text == f"Last game: Targi. {final}"
    tap(home.ids.resume)
    assert app.root.current == "table" and app.controller.session is session


def test_back_into_the_last_game_after_its_cafe_day_ended_is_refused_and_home_dates_it(
    launch: Any, tmp_path: Path
) -> None:
    """Home judged the café day once, at start: a table started at 23:00 (or on a clock set forward since)
    that stood at home overnight let the morning's first tap on Back into last night's game."""
    path = tmp_path / "journal.sqlite3"
    won_targi(path)
    evening = datetime.now().astimezone() - timedelta(days=2)
    raw = sqlite3.connect(path)
    raw.execute("UPDATE steps SET at = ?", (evening.isoformat(),))
    raw.commit()
    raw.close()
    app = launch(new=False)
    app.last_game = finished_game(app.journal, now=evening)  # named that evening, as it finished
    app._refresh_home(None)
    advance(3)
    home = app.root.get_screen("home")
    assert home.ids.resume.text == "Back to Targi (finished)"
    assert home.ids.last_game.text.startswith("Last game: Targi, finished at ")
    tap(home.ids.resume)  # two days later
    assert app.root.current == "home" and app.controller.session is None
    assert app.status.startswith("The last game (Targi) cannot be gone back into: it finished before this café day")
    assert home.ids.resume.disabled and app.last_game_text.startswith("Last game: Targi, finished on ")
    assert Journal(path).latest_game().status == "over"


def test_a_finished_game_left_on_a_running_table_is_set_aside_when_its_cafe_day_ends(
    launch: Any, tmp_path: Path
) -> None:
    """The café day was judged only at start: a kiosk left running overnight kept last night's game on the
    table (Back, the attract screen's "finished"), and the morning's first tap on Undo took its winning roll
    back."""
    won = won_targi(tmp_path / "journal.sqlite3")
    app = launch(new=False)
    home = app.root.get_screen("home")
    tap(home.ids.resume)  # back into it, as a table correcting a misread last roll would
    assert app.root.current == "table" and app.game_over
    now = datetime.now(UTC)
    app._close_cafe_day(now)
    assert app.root.current == "table" and app.controller.session is not None  # the same café day: it stays
    night = NIGHT.total_seconds()
    app.clock = lambda: time.monotonic() + night
    app._close_cafe_day(now + NIGHT)  # the next morning
    advance(3)
    assert app.root.current == "home" and app.controller.session is None and not app.can_undo
    assert home.ids.last_game.text.startswith("Last game: Targi, finished on ")
    assert home.ids.resume.disabled
    assert Journal(tmp_path / "journal.sqlite3").latest_game().status == "over" and len(won.log) > 1


def test_a_game_won_on_a_running_table_is_set_aside_the_next_morning(start: Any, tmp_path: Path) -> None:
    """The same for a game that ended on this table, not gone back into: its finish is when the app saw it."""
    journal = Journal(tmp_path / "journal.sqlite3")  # the app's own journal file
    session = Session.new("targi", ["white", "black"], journal=journal)
    rng = random.Random(2)
    while not session.pending().is_over:
        session.act(session.game.sim_choose(session.state, session.legal(), rng))
    app = start(session)
    assert app.root.current == "table" and app.game_over
    now = datetime.now(UTC)
    app._close_cafe_day(now + NIGHT)  # the owner sets the wall clock forward: it finished a moment ago all the same
    assert app.root.current == "table" and app.controller.session is session
    night = NIGHT.total_seconds()
    app.clock = lambda: time.monotonic() + night
    app._close_cafe_day(now + NIGHT)  # a night later
    advance(3)
    assert app.root.current == "home" and app.controller.session is None
    assert app.last_game_text.startswith("Last game: Targi, finished on ")
    app.controller.handle(Touch("undo"))  # the button box's undo too
    assert Journal(tmp_path / "journal.sqlite3").latest_game().status == "over"


def test_a_last_game_journalled_before_an_update_is_shown_up_to_its_last_step_that_fits(
    launch: Any, tmp_path: Path
) -> None:
    """Its step 6 of 143 no longer fits: home showed "Last game: ..., finished at ..." and nothing of the game;
    now it says how far it is shown and which export keeps it whole. It cannot be gone back into."""
    from tests.core.test_cut_views import TEMPLE
    from tests.games.old_records import journal_of

    game_id = journal_of(tmp_path / "journal.sqlite3", TEMPLE, finished=True)
    app = launch(new=False)
    home = app.root.get_screen("home")
    shown = home.ids.last_game.text
    assert shown.startswith("Last game: Temple path-card race (Ruin), finished at ")
    assert shown.endswith(". Shown up to step 5 of 143, where it was not over yet, so no winner can be told: the"
                          " rest no longer fits this version of the companion; companion export game.json --id"
                          f" {game_id} keeps the original.")
    assert home.ids.resume.disabled and home.ids.resume.text == "No game in progress"


def test_a_last_game_that_ended_where_its_steps_fit_names_its_winner_and_goes_back_into_a_copy(
    launch: Any, tmp_path: Path
) -> None:
    from tests.core.test_cut_views import won_with_a_step_after_its_end

    won = won_with_a_step_after_its_end(tmp_path / "journal.sqlite3")
    app = launch(new=False)
    home = app.root.get_screen("home")
    steps = len(won.log)
    assert home.ids.last_game.text.startswith("Last game: Targi, finished at ")
    assert home.ids.last_game.text.endswith(
        f"Black wins. Shown up to step {steps} of {steps + 1}, where it ended: the rest no longer fits this version"
        " of the companion; companion export game.json --id 1 keeps the original.")
    assert home.ids.resume.text == "Back to Targi (finished)"
    tap(home.ids.resume)
    assert app.root.current == "table" and app.game_over and app.controller.session.log == won.log
    tap(app.root.get_screen("table").ids.undo)
    assert app.controller.session.log == won.log[:-1]
    copy = app.journal.latest_game()
    assert copy.id == 2 and copy.status == "active" and copy.steps[-1] == ("undo", None)
    assert len(app.journal.read_game(1).steps) == steps + 1  # the game as journalled, whole
