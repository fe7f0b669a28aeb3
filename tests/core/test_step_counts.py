"""Every count of a game's steps a person reads counts the steps the game stands at, as `play` ("2 steps so far"),
`export` ("2 actions") and `export --list` do: the home screen's finished game, the notes of a journal archived or
set aside, and how far a game journalled before an update is shown or goes on. They counted the journal's rows,
each undo and redo one more, so a game of 2 steps with one taken back and put back was "finished (4 steps)".
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

import companion.journal as journal_module
from companion.cli import main
from companion.finished import finished_game
from companion.journal import Journal
from companion.session import Session, open_table
from tests.core.test_cut_views import TEMPLE
from tests.core.test_journal_faults import blackpool_journal, flip
from tests.games.old_records import temple_step_that_no_longer_fits

WON = ({"type": "roll", "value": 5}, {"type": "advance"})  # red, at 10 of 12, wins


def journal_with_a_step_taken_back_and_put_back(path: Path, record: dict[str, Any], after: int,
                                                finished: bool = False) -> int:  # fmt: skip
    """``record``'s game journalled with an undo and a redo after its step ``after``: its rows are 2 more than its
    steps. Its game id."""
    journal = Journal(path)
    game_id = journal.begin_game(record["game"], record["start"], record["data"])
    last = len(record["actions"])
    for number, action in enumerate(record["actions"], 1):
        journal.append(game_id, "act", action, "over" if finished and number == last else None)
        if number == after:
            journal.append(game_id, "undo", None)
            journal.append(game_id, "redo", None)
    journal.close()
    return game_id


def race_with_a_step_taken_back_and_put_back(path: Path, positions: list[int]) -> None:
    """A race whose first step is taken back and put back, then a second played: 4 rows for 2 steps; from
    ``positions`` [10, 0] red wins with it."""
    journal = Journal(path)
    session = Session.load("race", {"game": "race", "players": ["red", "blue"], "positions": positions}, journal)
    session.act(WON[0])
    session.undo()
    session.redo()
    session.act(WON[1])
    journal.close()


def won_race(path: Path) -> None:
    race_with_a_step_taken_back_and_put_back(path, [10, 0])


def test_the_finished_last_game_is_told_with_the_steps_it_stands_at(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    won_race(path)
    journal = Journal(path)
    try:
        last = finished_game(journal)
        assert last is not None and "(2 steps). red wins." in last.words(), last.words()
        assert last.to_dict()["steps"] == 2
    finally:
        journal.close()
    assert main(["export", "--list", "--journal", str(path)]) == 0  # the list the owner finds it in says 2 too


@pytest.mark.parametrize("finished", [True, False])
def test_a_game_carried_into_a_new_journal_is_named_with_the_steps_it_stands_at(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, finished: bool
) -> None:
    """The start's note for a grown journal archived: "(Test race, 4 steps) was read from it" of a game that
    `play` then resumed "(2 steps so far)"."""
    path = tmp_path / "journal.sqlite3"
    if finished:
        won_race(path)
    else:
        race_with_a_step_taken_back_and_put_back(path, [0, 0])
    monkeypatch.setattr(journal_module, "ARCHIVE_AT_BYTES", 4096)
    journal, session, note = open_table(path)
    journal.close()
    said = "(Test race, finished after 2 steps) was read from it" if finished else "(Test race, 2 steps) was read"
    assert said in note, note
    assert finished or (session is not None and len(session.log) == 2)


def test_a_cut_game_is_shown_up_to_the_step_it_stands_at(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An older companion's temple game whose step 6 no longer fits, with its step 3 taken back and put back:
    "Shown up to step 7 of 145 (step 8, ...)" counted rows; the game stands at 5 of its 143 steps there."""
    path = tmp_path / "journal.sqlite3"
    game_id = journal_with_a_step_taken_back_and_put_back(path, TEMPLE, after=3, finished=True)
    assert main(["results", "--journal", str(path), "--days", "1"]) == 0
    out = capsys.readouterr().out
    assert f"game {game_id}, Temple path-card race (Ruin). Shown up to step 5 of 143, where it was not over" in out
    assert "the rest no longer fits this version of the companion (step 6, {" in out, out
    journal = Journal(path)
    try:
        last = finished_game(journal)
        assert last is not None and "(143 steps). Shown up to step 5 of 143," in last.words(), last.words()
    finally:
        journal.close()


def test_a_game_going_on_from_the_step_before_one_that_no_longer_fits_counts_its_steps(tmp_path: Path) -> None:
    """Resumed from the step before its step 6, the note said "its step 8 of 8 ... with 7 of its steps" of a game
    of 6 steps, the second taken back and put back; the game went on at 5."""
    path = tmp_path / "journal.sqlite3"
    record = temple_step_that_no_longer_fits()
    journal_with_a_step_taken_back_and_put_back(path, record, after=2)
    journal, session, note = open_table(path)
    journal.close()
    assert session is not None and len(session.log) == 5
    assert "its step 6 of 6 ({\"type\": \"move\"" in note, note
    assert "It goes on from the step before, with 5 of its steps: check the board against it." in note


def power_cut_after_an_undo(path: Path, at: Path) -> Session:
    """A Blackpool journal as a power cut leaves it at ``at``, its last write (a step) cut off: 4 steps, then 2,
    one taken back and put back, and one more: 9 writes for 7 steps, and the 8th step lost."""
    blackpool_journal(path, steps=4)
    journal = Journal(path)
    session = Session.resume(journal)
    assert session is not None
    session.act(session.legal()[0])
    session.act(session.legal()[0])
    session.undo()
    session.redo()
    session.act(session.legal()[0])
    index = Path(f"{path}-shm").read_bytes()  # SQLite counts a write in it only once synced
    session.act(session.legal()[0])
    at.mkdir()
    for suffix in ("", "-wal", "-shm"):
        shutil.copy(f"{path}{suffix}", at / f"{path.name}{suffix}")
    (at / f"{path.name}-shm").write_bytes(index)
    wal = at / f"{path.name}-wal"
    wal.write_bytes(flip(wal.read_bytes(), len(wal.read_bytes()) - 1))  # the last write's commit, cut off
    journal.close()
    return session


def test_a_step_cut_off_after_an_undo_is_told_with_the_steps_the_game_stands_at(tmp_path: Path) -> None:
    """The note counted writes alone: "Blackpool resumes after step 9; ... enter step 10 again" of a game the
    table resumed at 7 steps (its Resume button and `play` say 7), so no step 9 could be found on the board. It
    still counts the writes, as a lost write may be an undo, and says what the game stands at."""
    played = power_cut_after_an_undo(tmp_path / "live.sqlite3", tmp_path / "card")
    journal, session, note = open_table(tmp_path / "card" / "live.sqlite3")
    journal.close()
    assert session is not None and session.log == played.log[:7]
    assert note.startswith("Blackpool resumes at 7 steps (9 writes, undos included); write 10 is not in "
                           "the journal. Check the board, and enter again what the table lacks. "), note
