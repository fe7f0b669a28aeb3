"""What months of unattended running do to the journal: a disk filling up mid-step, a clock gone back.

Real SQLite files under tmp_path. A full disk between two writes is made with
a trigger that refuses the later write with SQLite's own error path, the way
a card that filled up after the step's commit did (reproduced on a tiny tmpfs:
the step landed, the status update found no room).
"""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest

import companion.journal as journal_module
from companion.errors import JournalUnavailable
from companion.journal import Journal
from companion.session import Session, open_table

NEAR_THE_END = {"game": "race", "players": ["red", "blue"], "positions": [10, 0]}


def refuse_status(path: Path, status: str) -> None:
    """From now on, any write that sets a game's status to ``status`` fails as a full disk would fail it."""
    raw = sqlite3.connect(path)
    raw.execute(
        f"CREATE TRIGGER no_room BEFORE UPDATE OF status ON games WHEN NEW.status = '{status}' "
        "BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END"
    )
    raw.commit()
    raw.close()


def test_the_step_that_ends_a_game_is_refused_whole_when_its_status_cannot_be_written(tmp_path: Path) -> None:
    """The last step was committed, then its status refused: the table heard "refused" yet the game had ended."""
    path = tmp_path / "journal.sqlite3"
    journal = Journal(path)
    session = Session.load("race", NEAR_THE_END, journal)
    session.act({"type": "roll", "value": 5})
    refuse_status(path, "over")

    with pytest.raises(JournalUnavailable, match="disk is full"):
        session.act({"type": "advance"})
    assert len(session.log) == 1 and not session.pending().is_over  # refused means nothing happened
    assert Session.resume(Journal(path)).log == session.log  # in the journal either


def test_an_undo_that_reopens_a_game_is_refused_whole_when_its_status_cannot_be_written(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    journal = Journal(path)
    session = Session.load("race", NEAR_THE_END, journal)
    session.act({"type": "roll", "value": 5})
    session.act({"type": "advance"})
    refuse_status(path, "active")

    with pytest.raises(JournalUnavailable, match="disk is full"):
        session.undo()
    assert len(session.log) == 2 and session.pending().is_over
    assert Session.resume(Journal(path)) is None  # still over in the journal: not a half-undone game


def test_a_loaded_position_already_over_is_journalled_over_in_one_write(tmp_path: Path) -> None:
    """Its status was a second commit: refused, the load failed after the game before had been abandoned."""
    path = tmp_path / "journal.sqlite3"
    journal = Journal(path)
    Session.load("race", NEAR_THE_END, journal)
    refuse_status(path, "over")

    finished = {"game": "race", "players": ["red", "blue"], "positions": [15, 3], "winner": "red"}
    session = Session.load("race", finished, journal)
    assert session.pending().is_over
    assert journal.latest_game().status == "over" and Session.resume(journal) is None


def test_a_second_damaged_journal_at_the_same_clock_second_keeps_the_first(tmp_path: Path, monkeypatch) -> None:
    """A Pi without a clock boots at the same time every time: the second set-aside replaced the first copy."""

    class BootClock(datetime):
        @classmethod
        def now(cls, tz: object = None) -> datetime:  # type: ignore[override]
            return datetime(1970, 1, 1, 0, 0, 12, tzinfo=UTC)

    monkeypatch.setattr(journal_module, "datetime", BootClock)
    path = tmp_path / "journal.sqlite3"
    notes = []
    for boot in (1, 2):
        path.write_bytes((f"damaged on boot {boot}. ".encode() + b"\x00") * 200)
        journal, _session, note = open_table(path)
        journal.close()
        notes.append(note)

    kept = sorted(p for p in tmp_path.iterdir() if ".damaged-" in p.name)
    assert [p.read_bytes()[:17] for p in kept] == [b"damaged on boot 1", b"damaged on boot 2"]
    assert all(p.name in note for p, note in zip(kept, notes, strict=True))
