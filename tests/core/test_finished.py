"""The journal's finished last game after a restart: named with its result, gone back into the same café day."""

from __future__ import annotations

import gc
import io
import json
import sqlite3
from datetime import datetime, timedelta
from pathlib import Path

import pytest

import companion.journal as journal_module
from companion.cli import main
from companion.finished import finished_game
from companion.journal import Journal
from companion.protocol import Referee
from companion.session import Session, open_table
from tests.core.damage import old_game_of_many_steps, spoil_oldest_steps
from tests.core.test_session import OLD_LAYOUT

WON = ({"type": "roll", "value": 5}, {"type": "advance"})  # red, at 10 of 12, wins


def won_game(path: Path, finished: datetime | None = None) -> Path:
    """A journal whose latest game red won, its steps written at ``finished`` (local time) when given."""
    journal = Journal(path)
    session = Session.load("race", {"game": "race", "players": ["red", "blue"], "positions": [10, 0]}, journal)
    for action in WON:
        session.act(action)
    journal.close()
    if finished is not None:
        raw = sqlite3.connect(path)
        raw.execute("UPDATE steps SET at = ?", (finished.isoformat(),))
        raw.commit()
        raw.close()
    return path


def local(day: int, hour: int, minute: int = 0) -> datetime:
    return datetime(2026, 3, day, hour, minute).astimezone()


@pytest.mark.parametrize(
    ("now", "reopenable", "when"),
    [
        (local(10, 23, 30), True, "at 22:00"),
        (local(11, 1, 30), True, "at 22:00"),  # after midnight: still the evening's café day
        (local(11, 10), False, "on Tue 10 Mar at 22:00"),  # the next morning: a result only
        (local(10, 8), True, "at 22:00"),  # the clock behind the journal (a Pi before the network set it)
    ],
)
def test_the_last_game_may_be_gone_back_into_only_the_same_cafe_day(
    tmp_path: Path, now: datetime, reopenable: bool, when: str
) -> None:
    journal = Journal(won_game(tmp_path / "j.sqlite3", local(10, 22)))
    last = finished_game(journal, now=now)
    assert last is not None and last.reopenable is reopenable and last.when == when
    assert last.words() == f"Last game: Test race, finished {when} (2 steps). red wins."
    if not reopenable:
        assert last.why_not == "it finished before this café day began (at 05:00), so it is shown as a result only"
        with pytest.raises(Exception, match="cannot be gone back into: it finished before this café day"):
            last.reopen(journal)
        assert journal.latest_game().status == "over"


def test_the_cafe_day_is_judged_again_when_the_game_is_gone_back_into(tmp_path: Path) -> None:
    """Named at 23:30 (a start, or a clock the owner set forward since), the game was still gone back into
    the next morning by the first table: the café day was judged only when the game was first named."""
    journal = Journal(won_game(tmp_path / "j.sqlite3", local(10, 22)))
    last = finished_game(journal, now=local(10, 23, 30))
    assert last is not None and last.reopenable
    with pytest.raises(Exception, match="cannot be gone back into: it finished before this café day began"):
        last.reopen(journal, now=local(11, 10))
    assert journal.latest_game().status == "over"
    later = last.as_of(local(11, 10))
    assert not later.reopenable and later.when == "on Tue 10 Mar at 22:00" and last.as_of(local(11, 1)) is last
    last.reopen(journal, now=local(11, 1, 30)).undo()  # after midnight, still its evening: back in play
    assert journal.active_game() is not None


@pytest.mark.parametrize(
    ("finished", "reopenable", "when"),
    [
        (local(10, 23), True, "at 23:00"),  # a power cut set the clock back to its last hourly save
        (local(11, 9), True, "at 09:00"),  # a clock a timezone off (11 hours), corrected the same evening
        (datetime(2027, 3, 10, 22).astimezone(), False, "on Wed 10 Mar 2027 at 22:00"),  # a year typed ahead
        (local(12, 22), False, "on Thu 12 Mar at 22:00"),  # two days ahead
    ],
)
def test_a_finishing_time_far_ahead_of_the_clock_is_a_result_only(
    tmp_path: Path, finished: datetime, reopenable: bool, when: str
) -> None:
    """A clock typed a year ahead and then corrected left that game "in the future": counted as today, it
    stayed open to Undo on every start, for a year or until the next game began."""
    journal = Journal(won_game(tmp_path / "j.sqlite3", finished))
    now = local(10, 22, 30)
    last = finished_game(journal, now=now)
    assert last is not None and last.reopenable is reopenable and last.when == when, (last.why_not, last.when)
    if not reopenable:
        assert last.why_not.startswith("its finishing time is ") and "ahead of the clock" in last.why_not
        with pytest.raises(Exception, match="cannot be gone back into: its finishing time is"):
            last.reopen(journal, now=now)
        assert journal.latest_game().status == "over"


def test_a_finishing_time_that_cannot_be_read_is_shown_as_a_result_only(tmp_path: Path) -> None:
    path = won_game(tmp_path / "j.sqlite3")
    raw = sqlite3.connect(path)
    raw.execute("UPDATE steps SET at = 'then'")  # a row edited by hand
    raw.commit()
    raw.close()
    last = finished_game(Journal(path))
    assert last is not None and not last.reopenable and last.result == "red wins."
    assert "does not say when it finished" in last.why_not


def test_nothing_is_offered_once_a_newer_game_began_or_while_one_is_in_play(tmp_path: Path) -> None:
    path = won_game(tmp_path / "j.sqlite3")
    journal = Journal(path)
    assert finished_game(journal) is not None
    Session.new("race", ["red", "blue"], journal=journal)  # the next table's game, not a step in yet
    assert finished_game(journal) is None


def test_a_journal_from_before_digests_and_versions_still_names_its_finished_game(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    raw = sqlite3.connect(path)
    raw.executescript(OLD_LAYOUT)
    start = {"kind": "load", "state": {"game": "race", "players": ["red", "blue"], "positions": [10, 0]}}
    now = datetime.now().astimezone().isoformat()
    raw.execute("INSERT INTO games VALUES (1, 'race', ?, '{}', ?, 'over')", (json.dumps(start), now))
    rows = [(n, json.dumps(action), now) for n, action in enumerate(WON, 1)]
    raw.executemany("INSERT INTO steps VALUES (1, ?, 'act', ?, ?)", rows)
    raw.commit()
    raw.close()
    journal = Journal(path)
    last = finished_game(journal)
    assert last is not None and last.result == "red wins." and last.reopenable
    last.reopen(journal).undo()
    assert journal.active_game() is not None  # the undo put it back in play, in the old file


def test_play_names_the_last_game_and_goes_back_into_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = won_game(tmp_path / "j.sqlite3")
    monkeypatch.setattr("sys.stdin", io.StringIO("last\nu\nq\n"))
    assert main(["play", "--journal", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Last game: Test race, finished at ")
    assert "  last: back into the last game (Test race), to take back its last steps" in out
    assert "The game is over. 'u' takes back the last step" in out and "Taken back: red advances to 15." in out
    assert Session.resume(Journal(path)) is not None  # the undo put it back in play


def test_play_lets_its_journal_go_when_it_ends(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`play` left its journal for the garbage collector, which closed it (and checkpointed its log) while the next
    opening of the file was checking that log: "frame 1 fails its checksum" now and then in a loaded test run."""
    path = won_game(tmp_path / "j.sqlite3")
    monkeypatch.setattr("sys.stdin", io.StringIO("last\nu\nq\n"))
    gc.disable()  # as when the collector has not come round yet
    try:
        assert main(["play", "--journal", str(path)]) == 0
        assert not path.with_name(path.name + "-wal").exists()  # the last connection closed, its log folded in
    finally:
        gc.enable()
    capsys.readouterr()


def test_play_says_bye_over_a_finished_game_without_promising_a_resume(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = won_game(tmp_path / "j.sqlite3")
    monkeypatch.setattr("sys.stdin", io.StringIO("last\nq\n"))
    assert main(["play", "--journal", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Bye. The finished game is kept;" in out and "shows its result and can go back into it today" in out
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n"))  # a new game instead: no players given, so it ends
    assert main(["play", "--journal", str(path)]) == 1  # and says no game was started
    assert Journal(path).latest_game().status == "over"  # nothing was started, nothing changed


def test_play_of_a_game_finished_yesterday_shows_it_and_offers_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = won_game(tmp_path / "j.sqlite3", datetime.now().astimezone() - timedelta(days=2))
    monkeypatch.setattr("sys.stdin", io.StringIO("last\n"))
    assert main(["play", "--journal", str(path)]) == 1  # no game was started
    out = capsys.readouterr().out
    assert "It cannot be gone back into: it finished before this café day" in out
    assert "last: back into" not in out and "No game 'last': type its number" in out


def test_the_referee_protocol_names_and_reopens_the_last_game(tmp_path: Path) -> None:
    journal = Journal(won_game(tmp_path / "j.sqlite3"))
    referee = Referee(journal)
    assert referee.session is None  # not resumed into play
    last = referee.handle({"cmd": "last"})["last"]
    assert last["game"] == "race" and last["result"] == "red wins." and last["reopen"] is True
    assert last["steps"] == 2 and datetime.fromisoformat(last["finished"]).tzinfo is not None
    answer = referee.handle({"cmd": "reopen"})
    assert answer["ok"] and answer["pending"]["kind"] == "over"
    assert referee.handle({"cmd": "undo"})["ok"] and referee.handle({"cmd": "undo"})["ok"]
    assert referee.handle({"cmd": "pending"})["pending"]["kind"] == "roll"
    refused = referee.handle({"cmd": "reopen"})  # the game is in play again: there is no finished last game
    assert refused == {"ok": False, "error": {"code": "no_game", "message": (
        "no finished last game to go back into: the journal's latest game is not over")}}
    assert referee.handle({"cmd": "last"})["last"] is None
    assert Referee().handle({"cmd": "last"}) == {"ok": True, "pending": None, "last": None}


def test_the_referee_says_a_finished_last_game_may_be_gone_back_into_when_no_game_is_in_progress(
    tmp_path: Path,
) -> None:
    """Only stderr said so at start, which a front end across the pipe does not show: its ``undo`` or ``legal`` was
    told "no game in progress: start one with new", and the misread winning roll stayed, unless the page was read."""
    referee = Referee(Journal(won_game(tmp_path / "j.sqlite3")))
    error = referee.handle({"cmd": "undo"})["error"]
    assert error == {"code": "no_game", "message": 'no game in progress: start one with {"cmd": "new", ...}; or go '
                     'back into the last game, Test race, which is over, with {"cmd": "reopen"}'}
    assert referee.handle({"cmd": "reopen"})["ok"] and referee.handle({"cmd": "undo"})["ok"]
    alone = Referee().handle({"cmd": "legal"})["error"]["message"]
    assert alone == 'no game in progress: start one with {"cmd": "new", ...}'


def journal_with_an_old_game_then_won(path: Path, finished: datetime) -> None:
    """An abandoned game of many steps, then the last game, which red won at ``finished``."""
    journal = Journal(path)
    old_game_of_many_steps(path, journal, "race")
    session = Session.load("race", {"game": "race", "players": ["red", "blue"], "positions": [10, 0]}, journal)
    for action in WON:
        session.act(action)
    journal.close()
    raw = sqlite3.connect(path)
    raw.execute("UPDATE steps SET at = ? WHERE game_id = (SELECT MAX(id) FROM games)", (finished.isoformat(),))
    raw.commit()
    raw.close()


@pytest.mark.parametrize("how", ["grown", "damaged"])
def test_the_finished_last_game_is_carried_into_a_new_journal_with_its_finishing_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    """Archiving a grown journal, or setting a damaged one aside, carried only a game in progress: the game
    that had just finished vanished from the home screen at that start, and could no longer be gone back into."""
    path = tmp_path / "journal.sqlite3"
    journal_with_an_old_game_then_won(path, local(10, 22))
    if how == "grown":
        monkeypatch.setattr(journal_module, "ARCHIVE_AT_BYTES", 4096)
    else:
        spoil_oldest_steps(path)
    journal, session, note = open_table(path)
    moved = "its games are kept in" if how == "grown" else "It is kept as journal.sqlite3.damaged-"
    assert moved in note and "The last game (Test race, finished after 2 steps) was read from it too." in note, note
    assert session is None  # a finished game is not resumed into play
    last = finished_game(journal, now=local(10, 23, 30))
    assert last is not None and last.words() == "Last game: Test race, finished at 22:00 (2 steps). red wins."
    assert last.reopenable  # still this café day: its finishing time came across, not the time it was carried
    last.reopen(journal, now=local(10, 23, 30)).undo()
    journal.close()
    assert Session.resume(Journal(path)) is not None  # back in play, in the new journal on disk
