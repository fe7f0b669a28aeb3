"""`companion results`: last week's games, who won each, and the id `export --id` takes, from a real journal."""

from __future__ import annotations

import random
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from companion.cli import main
from companion.finished import verdict
from companion.journal import Journal
from companion.results import results
from companion.session import Session

NOW = datetime.now(UTC)  # the command reads the clock, so the week is dated from it


def played(journal: Journal, seed: int, finish: bool = True) -> Session:
    session = Session.new("race", ["red", "blue"], journal=journal)
    rng = random.Random(seed)
    while not session.pending().is_over and (finish or len(session.log) < 3):
        session.act(session.game.sim_choose(session.state, session.legal(), rng))
    return session


def dated(path: Path, game_id: int, moment: datetime) -> None:
    """Every step of the game written at ``moment``, as a table whose clock said so."""
    raw = sqlite3.connect(path)
    raw.execute("UPDATE steps SET at = ? WHERE game_id = ?", (moment.isoformat(timespec="milliseconds"), game_id))
    raw.commit()
    raw.close()


@pytest.fixture
def week(tmp_path: Path) -> tuple[Path, list[Session]]:
    """Game 1 ended ten days ago, 2 five days ago, 3 abandoned yesterday, 4 last night, 5 still in play."""
    path = tmp_path / "journal.sqlite3"
    journal = Journal(path)
    sessions = [played(journal, 1), played(journal, 2), played(journal, 3, finish=False), played(journal, 4),
                played(journal, 5, finish=False)]
    journal.close()
    for game_id, ago in ((1, timedelta(days=10)), (2, timedelta(days=5)), (3, timedelta(days=1)),
                         (4, timedelta(hours=3))):
        dated(path, game_id, NOW - ago)
    return path, sessions


def test_last_weeks_finished_games_are_listed_with_their_winner_and_id(week: tuple[Path, list[Session]]) -> None:
    """The journal kept every game, but nothing listed them: only the latest could be exported, or one by an id
    the owner had no way to learn, and its record holds no winner's sentence."""
    path, sessions = week
    journal = Journal.for_reading(path)
    found = results(journal, 7, now=NOW)
    journal.close()
    assert [r.id for r in found.finished] == [2, 4]  # game 1 is older than the week; 3 and 5 did not finish
    assert found.finished[0].said == verdict(sessions[1].pending().text)
    assert found.finished[0].players == ("red", "blue")
    assert found.abandoned == 1 and found.in_progress == [5]


def test_the_command_prints_them_and_says_how_to_export_one(
    week: tuple[Path, list[Session]], capsys: pytest.CaptureFixture[str]
) -> None:
    path, sessions = week
    with pytest.raises(SystemExit):  # over a year is refused by the usage line
        main(["results", "--journal", str(path), "--days", "3650"])
    assert "from 1 to 366" in capsys.readouterr().err
    assert main(["results", "--journal", str(path), "--days", "30"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("3 games finished in the last 30 café days")
    assert "game 1, Test race: red and blue." in out and verdict(sessions[3].pending().text) in out
    assert "1 more set aside unfinished (a new game started over it)" in out and "In play now: game 5." in out
    assert "companion export game.json --journal " in out and " --id N" in out



def test_games_set_aside_with_none_finished_are_counted_as_games_not_more() -> None:
    """A café's first `companion results` printed "No game finished ..." then "1 more set aside unfinished (a new
    game started over them)": more than none, and one game spoken of as several."""
    from companion.results import Results, report

    since = datetime(2026, 12, 1, 5)
    assert report(Results(since, [], 1, [2]), 7)[1:] == [
        "1 game set aside unfinished (a new game started over it), not listed.", "In play now: game 2."]
    assert report(Results(since, [], 3, [4, 6]), 7)[1:] == [
        "3 games set aside unfinished (a new game started over them), not listed.", "In play now: games 4, 6."]

def test_the_export_it_names_reads_the_journal_it_listed(
    week: tuple[Path, list[Session]], capsys: pytest.CaptureFixture[str]
) -> None:
    """`results --journal journal-20260105.sqlite3` (a journal set aside, docs/operations.md) said to export a game
    with `companion export game.json --id N`: typed as printed, that read the journal in use, another game or
    none. It names the journal listed, as `export --list` does."""
    path, _ = week
    assert main(["results", "--journal", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"companion export game.json --journal {path} --id N" in out, out


def test_without_a_journal_it_says_so_and_makes_none(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "journal.sqlite3"
    assert main(["results", "--journal", str(missing)]) == 1
    assert "No journal at" in capsys.readouterr().err and not missing.exists()
