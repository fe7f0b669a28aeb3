"""A byte gone wrong in the journal's 100-byte database header, on real SQLite files.

SQLite answered some flips with "unsupported file format" or "attempt to write
a readonly database" (the table ran from memory and the game played was lost at
the next restart), some with a journal version in the millions or of 17 (refused
as a newer companion's, the game not carried), and some with "file is not a
database" (set aside, the game lost with it though every row was whole).
"""

from __future__ import annotations

import json
import shutil
from datetime import UTC, datetime
from pathlib import Path

import pytest

from companion.cli import main
from companion.errors import JournalDamaged
from companion.journal import Journal
from companion.session import Session, open_table
from tests.core.test_journal_faults import blackpool_journal


def flipped(tmp_path: Path, offset: int, mask: int = 0x10) -> tuple[Path, bytes]:
    """A closed journal holding a Blackpool game of 5 steps, with one bit of its header flipped."""
    source = tmp_path / "source" / "journal.sqlite3"
    if not source.exists():
        source.parent.mkdir()
        blackpool_journal(source, steps=5)
    path = tmp_path / f"card{offset}-{mask}" / "journal.sqlite3"
    path.parent.mkdir()
    damaged = bytearray(source.read_bytes())
    damaged[offset] ^= mask
    path.write_bytes(damaged)
    return path, bytes(damaged)


def kept_copies(path: Path) -> list[Path]:
    return [p for p in path.parent.iterdir() if ".damaged-" in p.name and not p.name.endswith(("-wal", "-shm"))]


@pytest.mark.parametrize("offset", range(100))
def test_a_flip_in_any_header_byte_keeps_the_game_in_progress_on_disk(tmp_path: Path, offset: int) -> None:
    """Whatever the byte, the table resumes its 5 steps in a journal on disk, and a step made then survives
    the next restart; a damaged file is kept beside it byte for byte, and said so."""
    path, damaged = flipped(tmp_path, offset)
    journal, session, note = open_table(path)
    assert journal.kept_on_disk, note
    assert session is not None and len(session.log) == 5, note
    kept = kept_copies(path)
    if kept:
        assert "cannot be read as a journal" in note and f"It is kept as {kept[0].name}" in note
        assert "The game in progress (Blackpool, 5 steps) was read from it and goes on." in note
        assert kept[0].read_bytes() == damaged
    else:
        assert note == "" and path.read_bytes() == damaged  # a byte SQLite does not read: nothing to say
    session.act(session.legal()[0])
    journal.close()
    _journal, again, note = open_table(path)
    assert again is not None and len(again.log) == 6 and note == ""
    _journal.close()


@pytest.mark.parametrize(("offset", "named"), [
    (47, "its schema format number ends in 20, not 1 to 4"),
    (18, "its file format versions (18, 2) are not 1 or 2"),
    (62, "its journal version is 4097, which no Table Companion release has written (only 0 or 1)"),
    (63, "its journal version is 17, which no Table Companion release has written (only 0 or 1)"),
    (0, "its first 16 bytes are not the ones every SQLite file begins with"),
    (17, "its page size (4112) is not a power of two"),
])  # fmt: skip
def test_a_damaged_header_is_named_and_set_aside_not_taken_for_a_folder_or_a_newer_journal(
    tmp_path: Path, offset: int, named: str
) -> None:
    path, _damaged = flipped(tmp_path, offset)
    journal, session, note = open_table(path)
    assert f"cannot be read as a journal: its database header (the first 100 bytes) is damaged: {named}" in note
    assert "only until the app closes" not in note and "newer" not in note
    assert session is not None and len(session.log) == 5 and len(kept_copies(path)) == 1
    journal.close()
    with pytest.raises(JournalDamaged, match="its database header"):  # read as it is, never written to mend it
        Journal.for_reading(kept_copies(path)[0])


def test_text_read_as_utf16_is_damage_not_a_malformed_schema(tmp_path: Path) -> None:
    """All 8 bits of the encoding's last byte flipped made SQLite read every name as UTF-16: "malformed
    database schema", and the game was lost with the file."""
    path, _damaged = flipped(tmp_path, 59, mask=0xFF)
    journal, session, note = open_table(path)
    assert "its text encoding ends in 254, which reads as UTF-16" in note
    assert session is not None and len(session.log) == 5
    journal.close()


@pytest.mark.parametrize("version", [2, 17, 129, 255])
def test_a_journal_version_no_release_wrote_is_damage_and_its_game_goes_on(tmp_path: Path, version: int) -> None:
    """Every release has written journal version 0 or 1 (``git log -S JOURNAL_VERSION``): a 2 to 255 (the last
    byte of 1 flipped) was read as "written by a newer Table Companion", the file left and the table run from
    memory with its game of 5 steps gone from it, and every game played that day lost at the next restart."""
    path = tmp_path / "journal.sqlite3"
    blackpool_journal(path)
    damaged = bytearray(path.read_bytes())
    damaged[63] = version
    path.write_bytes(damaged)
    journal, session, note = open_table(path)
    assert journal.kept_on_disk and "newer" not in note, note
    assert (f"its database header (the first 100 bytes) is damaged: its journal version is {version}, which no "
            "Table Companion release has written (only 0 or 1). It is kept as journal.sqlite3.damaged-") in note
    assert "The game in progress (Blackpool, 5 steps) was read from it and goes on." in note
    assert session is not None and len(session.log) == 5
    assert [kept.read_bytes() for kept in kept_copies(path)] == [bytes(damaged)]
    journal.close()


def test_a_damaged_header_over_pages_that_are_damaged_too_carries_nothing(tmp_path: Path) -> None:
    """A mended header cannot mend pages: with the games table's root spoilt too, the file is set aside for
    its header and no game is carried (nor does the start fail)."""
    path, damaged = flipped(tmp_path, 47)
    spoilt = bytearray(damaged)
    spoilt[4096 : 4096 + 64] = b"\xff" * 64  # page 2, a table's root
    path.write_bytes(spoilt)
    journal, session, note = open_table(path)
    assert session is None and "is damaged: its schema format number" in note and "goes on" not in note
    journal.close()
    shutil.rmtree(path.parent)


def test_a_journal_version_no_release_wrote_found_with_its_wal_is_set_aside_with_its_wal(tmp_path: Path) -> None:
    """Mid-game, with the step in its WAL: the file and its WAL are kept together byte for byte, the game (step
    and all) goes on in a new journal."""
    source = tmp_path / "flipped.sqlite3"
    journal = Journal(source)
    session = Session.new("blackpool", ["red", "blue"], journal=journal)
    journal._db.execute("PRAGMA user_version = 2")  # one bit of the version's last byte gone wrong
    session.act(session.legal()[0])
    card = tmp_path / "card"
    card.mkdir()
    for suffix in ("", "-wal", "-shm"):  # as a power cut leaves them
        shutil.copy(f"{source}{suffix}", card / f"journal.sqlite3{suffix}")
    journal.close()
    path = card / "journal.sqlite3"
    wal = Path(f"{path}-wal").read_bytes()

    opened, resumed, note = open_table(path)
    opened.close()
    assert "its journal version is 2, which no Table Companion release has written (only 0 or 1)" in note, note
    assert resumed is not None and resumed.log == session.log
    (kept,) = kept_copies(path)
    assert Path(f"{kept}-wal").read_bytes() == wal


def three_games_then_damaged(tmp_path: Path, offset: int) -> tuple[Path, Path, bytes]:
    """A journal of three Blackpool games (4, 5 and 6 steps, the last in progress) whose header byte ``offset``
    went wrong, opened once as the start does: its path, the file set aside, and that file's bytes."""
    path = tmp_path / "journal.sqlite3"
    journal = Journal(path)
    for steps in (4, 5, 6):
        session = Session.new("blackpool", ["red", "blue"], journal=journal)
        for _ in range(steps):
            session.act(session.legal()[0])
    journal.close()
    damaged = bytearray(path.read_bytes())
    damaged[offset] ^= 0x10
    path.write_bytes(damaged)
    journal, _session, note = open_table(path)
    journal.close()
    (kept,) = kept_copies(path)
    assert f"It is kept as {kept.name}" in note
    return path, kept, bytes(damaged)


@pytest.mark.parametrize("offset", [0, 17, 18, 47, 62])
def test_export_reads_the_games_of_a_journal_set_aside_for_its_header_and_leaves_it_as_it_was(
    tmp_path: Path, offset: int, capsys: pytest.CaptureFixture[str]
) -> None:
    """A café owner after last month's results got only "its database header ... is damaged": the start read
    the game in progress through a mended copy, export read nothing of the file at all."""
    _path, kept, damaged = three_games_then_damaged(tmp_path, offset)
    record = tmp_path / "first.json"
    assert main(["export", str(record), "--journal", str(kept), "--id", "1"]) == 0
    said = capsys.readouterr()
    assert len(json.loads(record.read_text())["actions"]) == 4 and "wrote" in said.out
    assert f"companion: {kept.name}: its database header (the first 100 bytes) is damaged: " in said.err
    assert "read from a copy with the header mended (the file is left as it is)" in said.err
    assert main(["export", "-", "--journal", str(kept)]) == 0  # the latest: the game that was in progress
    assert len(json.loads(capsys.readouterr().out)["actions"]) == 6
    assert kept.read_bytes() == damaged
    assert sorted(p.name for p in kept.parent.iterdir()) == ["first.json", "journal.sqlite3", kept.name,
                                                              "journal.sqlite3.lock"]  # fmt: skip


def test_export_of_a_game_the_new_journal_lacks_names_the_file_set_aside(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The new journal holds only the game carried over: `--id 2` there said only "holds no game 2"."""
    path, kept, _damaged = three_games_then_damaged(tmp_path, 47)
    assert main(["export", "-", "--journal", str(path), "--id", "2"]) == 1
    said = capsys.readouterr().err
    assert said == (f"The journal holds no game 2 (--list names the games it holds). Its older games are in "
                    f"{kept.name} (--journal that file).\n")


def test_export_of_a_set_aside_journal_whose_pages_are_damaged_too_says_how_to_save_what_it_holds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A mended header cannot mend pages: the refusal names both and the way to save what is left, with no
    traceback and no temporary path."""
    path, damaged = flipped(tmp_path, 47)
    spoilt = bytearray(damaged)
    spoilt[4096 : 4096 + 64] = b"\xff" * 64  # page 2, a table's root
    path.write_bytes(spoilt)
    assert main(["export", "-", "--journal", str(path)]) == 1
    said = capsys.readouterr().err
    assert said.startswith(f"companion: {path} cannot be read as a journal: its database header")
    assert "; a copy with the header mended cannot be read either (" in said and "companion-journal-" not in said
    assert "sqlite3 tool" in said and "Traceback" not in said
    assert path.read_bytes() == bytes(spoilt)


def test_export_lists_the_games_of_a_journal_set_aside_so_last_months_can_be_found_by_id(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """No command named a journal's games: a café after last month's results could only guess ids."""
    path, kept, damaged = three_games_then_damaged(tmp_path, 47)
    assert main(["export", "--list", "--journal", str(kept)]) == 0
    lines = capsys.readouterr().out.splitlines()
    zone = datetime.now(UTC).astimezone().tzname()
    head = ["id", "game", "began", f"({zone})", "last", "step", f"({zone})", "steps", "status", "players"]
    assert lines[0].split() == head  # local time, as results gives it
    rows = [line.split() for line in lines[1:4]]
    assert [(r[0], r[1], r[6], r[7]) for r in rows] == [("1", "blackpool", "4", "set"), ("2", "blackpool", "5", "set"),
                                                         ("3", "blackpool", "6", "in")]  # fmt: skip
    assert all(line.endswith(" red, blue") for line in lines[1:4])
    assert lines[4] == f"'companion export FILE --journal {kept} --id ID' writes one out."
    assert kept.read_bytes() == damaged
    assert main(["export", "--list", "--journal", str(path)]) == 0  # the new journal: its one game, and the kept file
    last = capsys.readouterr().out.splitlines()[-1]
    assert last.endswith(f"Its older games are in {kept.name} (--journal that file).")


@pytest.mark.parametrize(("argv", "said"), [
    ([], "give the record's file (- for stdout), or --list to see the journal's games"),
    (["-", "--list"], "--list lists every game and writes no file: leave out -"),
    (["--list", "--id", "2"], "--list lists every game and writes no file: leave out --id"),
])  # fmt: skip
def test_export_without_a_file_or_with_list_and_a_file_is_a_usage_error(
    tmp_path: Path, argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as usage:
        main(["export", *argv, "--journal", str(tmp_path / "j.sqlite3")])
    assert usage.value.code == 2 and capsys.readouterr().err.endswith(f"companion export: error: {said}\n")
