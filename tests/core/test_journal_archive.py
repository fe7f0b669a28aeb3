"""A journal that has outgrown its size is renamed whole and a new one begun, with the game in progress."""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

import companion.journal as journal_module
from companion.journal import Journal
from companion.session import Session, open_table
from tests.core.damage import old_game_of_many_steps, spoil_oldest_steps

ROOT = Path(__file__).resolve().parents[2]


def played(journal: Journal, steps: int) -> Session:
    session = Session.new("blackpool", ["red", "blue"], journal=journal)
    for _ in range(steps):
        session.act(session.legal()[0])
    return session


def journal_of_games(path: Path, finished: int, steps: int = 20) -> Session:
    """``finished`` games set aside by the next one, then one in progress (returned, its journal closed)."""
    journal = Journal(path)
    for _ in range(finished):
        played(journal, steps)
    session = played(journal, 7)
    journal.close()
    return session


@pytest.fixture
def small_limit(monkeypatch: pytest.MonkeyPatch) -> int:
    limit = 64 * 1024
    monkeypatch.setattr(journal_module, "ARCHIVE_AT_BYTES", limit)
    return limit


def test_a_grown_journal_is_kept_whole_and_the_game_goes_on_in_a_new_one(tmp_path: Path, small_limit: int) -> None:
    path = tmp_path / "journal.sqlite3"
    before = journal_of_games(path, finished=40)
    assert path.stat().st_size >= small_limit

    journal, session, note = open_table(path)
    kept = tmp_path / f"journal-{datetime.now(UTC):%Y%m%d}.sqlite3"
    assert f"its games are kept in {kept.name}" in note and "a new one is begun" in note
    assert "The game in progress (Blackpool, 7 steps) was read from it and goes on." in note
    assert session is not None and session.document() == before.document()
    session.act(session.legal()[0])  # and it is journalled in the new file
    journal.close()

    assert path.stat().st_size < small_limit
    assert not Path(f"{kept}-wal").exists()  # folded in before the move: the kept file stands alone
    fresh = Journal.read_only(path)
    assert [fresh.read_game(1).status, fresh.read_game(2)] == ["active", None]
    assert len(fresh.read_game(1).steps) == 8
    old = Journal.read_only(kept)
    assert old.read_game(1).game == "blackpool" and len(old.read_game(1).steps) == 20
    assert old.active_game().steps == fresh.read_game(1).steps[:7]

    again, _session, note = open_table(path)  # the new journal is small: nothing moves at the next start
    again.close()
    assert note == ""


def test_a_grown_journal_without_a_game_in_progress_starts_empty_and_export_names_the_kept_file(
    tmp_path: Path, small_limit: int
) -> None:
    path = tmp_path / "journal.sqlite3"
    journal_of_games(path, finished=40)
    raw = sqlite3.connect(path)
    raw.execute("UPDATE games SET status = 'abandoned'")
    raw.commit()
    raw.close()

    journal, session, note = open_table(path)
    journal.close()
    kept = tmp_path / f"journal-{datetime.now(UTC):%Y%m%d}.sqlite3"
    assert session is None and "game in progress" not in note and kept.name in note

    def export(*args: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "companion", "export", "-", "--journal", *args]
        return subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=ROOT)

    empty = export(str(path))
    assert empty.returncode == 1 and f"older games are in {kept.name}" in empty.stderr
    old = export(str(kept), "--id", "3")
    assert old.returncode == 0 and json.loads(old.stdout)["game"] == "blackpool"


def test_a_journal_that_cannot_be_renamed_stays_and_its_game_goes_on(
    tmp_path: Path, small_limit: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "journal.sqlite3"
    before = journal_of_games(path, finished=40)
    size = path.stat().st_size

    def refuse(self: Path, target: Path) -> Path:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Path, "rename", refuse)
    journal, session, note = open_table(path)
    journal.close()
    assert "could not be renamed (Permission denied); starting slows as it grows" in note
    assert session is not None and session.document() == before.document()
    assert sorted(p.name for p in tmp_path.iterdir() if p.suffix == ".sqlite3") == ["journal.sqlite3"]
    assert path.stat().st_size >= size


class PowerCut(BaseException):
    """The plug pulled: nothing after this point of the start-up runs."""


def start_cut_after_the_move(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A start-up that loses power just after the journal was moved aside."""
    real = journal_module._set_aside

    def set_aside_then_cut(part: Path, kept: Path) -> None:
        real(part, kept)
        raise PowerCut

    with monkeypatch.context() as patched, pytest.raises(PowerCut):
        patched.setattr(journal_module, "_set_aside", set_aside_then_cut)
        open_table(path)


def test_a_power_cut_just_after_the_grown_journal_moved_keeps_the_game_in_progress(
    tmp_path: Path, small_limit: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The game was copied into the new journal only after the old one had moved: a power cut between the two
    left a new journal without it, and the next start came up at home with the game only in the kept file."""
    path = tmp_path / "journal.sqlite3"
    before = journal_of_games(path, finished=40)
    start_cut_after_the_move(path, monkeypatch)

    journal, session, _note = open_table(path)
    assert session is not None and session.log == before.log
    journal.close()
    assert path.stat().st_size < small_limit
    names = sorted(p.name for p in tmp_path.iterdir() if not p.name.endswith(".lock"))
    assert names == [f"journal-{datetime.now(UTC):%Y%m%d}.sqlite3", "journal.sqlite3"]


def test_a_power_cut_just_after_a_damaged_journal_moved_keeps_the_game_in_progress(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "journal.sqlite3"
    journal = Journal(path)
    old_game_of_many_steps(path, journal, "blackpool")
    session = played(journal, 5)
    journal.close()
    spoil_oldest_steps(path)
    start_cut_after_the_move(path, monkeypatch)

    journal, resumed, _note = open_table(path)
    assert resumed is not None and resumed.log == session.log
    journal.close()


def test_a_card_nearly_full_is_said_at_start_with_the_journals_that_may_be_deleted(
    tmp_path: Path, small_limit: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nothing said the card was filling: the kept journals are never deleted by the companion, and a full card
    refuses every step ("database or disk is full"), so the table stopped playing without warning."""
    path = tmp_path / "journal.sqlite3"
    journal_of_games(path, finished=40)
    monkeypatch.setattr(journal_module, "LOW_ROOM_BYTES", 1 << 62)  # whatever this disk has free is too little

    journal, session, note = open_table(path)
    journal.close()
    kept = tmp_path / f"journal-{datetime.now(UTC):%Y%m%d}.sqlite3"
    assert session is not None and f"its games are kept in {kept.name}" in note
    assert "The card holding the journal has only " in note
    assert " MB free: once it is full no step can be written and the table cannot play. " in note
    assert note.endswith(f"1 older journal (0 MB) beside it may be deleted, oldest first ({kept.name}).")

    kept.unlink()
    journal, _session, note = open_table(path)
    journal.close()
    assert note.endswith("and the table cannot play. No older journal lies beside it to delete.")
    monkeypatch.setattr(journal_module, "LOW_ROOM_BYTES", 0)
    journal, _session, note = open_table(path)
    journal.close()
    assert note == ""


def test_a_full_card_is_said_to_be_full(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """It said "has only 0 MB free: once it is full ..." of a card already full."""
    path = tmp_path / "journal.sqlite3"
    journal_of_games(path, finished=1)
    full = shutil.disk_usage(tmp_path)._replace(free=0)
    monkeypatch.setattr(journal_module.shutil, "disk_usage", lambda _folder: full)
    journal, session, note = open_table(path)
    journal.close()
    assert session is not None and note == (
        "The card holding the journal is full: no step can be written and the table cannot play. "
        "No older journal lies beside it to delete.")
