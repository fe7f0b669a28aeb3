"""What days of unattended running do to the journal file, and what the table makes of it.

Real SQLite files under tmp_path throughout. A card gone read-only is made
real with file modes; as root (which file modes do not stop) the check runs in
a subprocess without the capabilities that let root write anyway.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest

from companion.errors import JournalDamaged
from companion.journal import JOURNAL_VERSION, Journal, open_journal
from companion.registry import title_of
from companion.session import Session, open_table
from tests.core.damage import old_game_of_many_steps, spoil_oldest_steps
from tests.core.test_finished import won_game

ROOT = Path(__file__).resolve().parents[2]

# Opens the table on the journal named by argv[1] as the kiosk does, then takes one step.
OPEN_AND_STEP = """
import json, sys
from contextlib import closing
from pathlib import Path
from companion.controller import Controller
from companion.observations import Touch
from companion.session import open_table
journal, session, note = open_table(Path(sys.argv[1]))
steps = len(session.log) if session else None
step = Controller(session).handle(Touch("act", session.legal()[0])).kind if session else None
print(json.dumps({"steps": steps, "note": note, "step": step}))
"""


def unprivileged(argv: list[str]) -> list[str]:
    """``argv`` as a process file modes apply to: as root, without CAP_DAC_OVERRIDE and friends."""
    if os.geteuid() != 0:
        return argv
    if shutil.which("setpriv") is None:
        pytest.skip("running as root without setpriv: file modes cannot be made to apply")
    return ["setpriv", "--bounding-set=-all", "--inh-caps=-all", *argv]


def open_unprivileged(path: Path) -> dict:
    done = subprocess.run(
        unprivileged([sys.executable, "-c", OPEN_AND_STEP, str(path)]),
        capture_output=True, text=True, timeout=120, cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def blackpool_journal(path: Path, steps: int = 5) -> Session:
    journal = Journal(path)
    session = Session.new("blackpool", ["red", "blue"], journal=journal)
    for _ in range(steps):
        session.act(session.legal()[0])
    journal.close()
    return session


def test_a_bad_byte_inside_a_step_is_named_instead_of_crashing_every_start(tmp_path: Path) -> None:
    """The quick check reads structure, not text: a flipped byte in a row raised OperationalError at start."""
    path = tmp_path / "journal.sqlite3"
    Session.new("race", ["red", "blue"], journal=Journal(path)).act({"type": "roll", "value": 3})
    raw = sqlite3.connect(path)
    raw.execute("UPDATE steps SET action = CAST(x'7b2274797065223a22ff22' AS TEXT)")  # {"type":"\xff"
    raw.commit()
    raw.close()

    with pytest.raises(JournalDamaged, match="Could not decode to UTF-8"):
        Journal(path).active_game()
    journal, session, note = open_table(path)
    assert session is None and note.startswith("The game in progress could not be resumed")
    assert "Could not decode to UTF-8" in note
    assert Session.new("race", ["red", "blue"], journal=journal).pending().kind == "roll"


def test_a_read_only_journal_file_resumes_its_game_in_memory_and_says_so(tmp_path: Path) -> None:
    """It opened and resumed without a word, then refused every step: a table that could not play at all."""
    path = tmp_path / "journal.sqlite3"
    blackpool_journal(path)
    path.chmod(0o444)
    found = open_unprivileged(path)
    assert found["steps"] == 5 and found["step"] == "step"
    assert "only until the app closes" in found["note"] and "(Blackpool, 5 steps) was read from it" in found["note"]


def test_a_read_only_shm_left_by_another_user_resumes_in_memory(tmp_path: Path) -> None:
    """`companion export` run as root beside the service leaves a -shm the kiosk's user cannot write."""
    path = tmp_path / "journal.sqlite3"
    blackpool_journal(path)
    keep_open = sqlite3.connect(path)
    keep_open.execute("SELECT COUNT(*) FROM steps").fetchall()  # makes the -shm and -wal
    for suffix in ("-shm", "-wal"):
        Path(f"{path}{suffix}").chmod(0o444)
    try:
        found = open_unprivileged(path)
    finally:
        keep_open.close()
    assert found["steps"] == 5 and found["step"] == "step" and "only until the app closes" in found["note"]


def test_a_read_only_folder_resumes_the_game_in_memory_instead_of_dropping_it(tmp_path: Path) -> None:
    """A card remounted read-only: the game was on it, yet the table came up at home without it."""
    folder = tmp_path / "data"
    folder.mkdir()
    blackpool_journal(folder / "journal.sqlite3")
    folder.chmod(0o555)
    try:
        found = open_unprivileged(folder / "journal.sqlite3")
    finally:
        folder.chmod(0o755)
    assert found["steps"] == 5 and found["step"] == "step"
    assert "cannot be opened" in found["note"] and "was read from it and goes on" in found["note"]


def test_a_damaged_journal_in_a_read_only_folder_starts_instead_of_crashing(tmp_path: Path) -> None:
    """Setting the file aside raised PermissionError: the kiosk crashed at start and systemd restarted it for ever."""
    folder = tmp_path / "data"
    folder.mkdir()
    path = folder / "journal.sqlite3"
    blackpool_journal(path)
    with path.open("r+b") as file:
        file.seek(4096)
        file.write(b"\xff" * 64)
    crashed = sqlite3.connect(path)  # a power cut: the -wal and -shm stay, so a read-only folder still opens
    crashed.execute("CREATE TABLE IF NOT EXISTS unfinished (x)")
    before = sorted(p.name for p in folder.iterdir())
    folder.chmod(0o555)
    try:
        found = open_unprivileged(path)
        after = sorted(p.name for p in folder.iterdir())
    finally:
        folder.chmod(0o755)
        crashed.close()
    assert "cannot be read as a journal" in found["note"] and "could not be set aside" in found["note"]
    assert "only until the app closes" in found["note"]
    assert after == before  # nothing moved, nothing lost


def test_a_failed_set_aside_moves_nothing_and_leaves_no_stray_wal(tmp_path: Path, monkeypatch) -> None:
    """A WAL left at the journal's name after the file moved would be replayed into the new, empty journal."""
    path = tmp_path / "journal.sqlite3"
    blackpool_journal(path)
    with path.open("r+b") as file:
        file.seek(4096)
        file.write(b"\xff" * 64)
    crashed = sqlite3.connect(path)
    crashed.execute("CREATE TABLE IF NOT EXISTS unfinished (x)")
    real_rename = Path.rename

    def rename(self: Path, target: Path) -> Path:
        if self == path:  # the database itself will not move; its -wal and -shm would have
            raise PermissionError(13, "Permission denied")
        return real_rename(self, target)

    monkeypatch.setattr(Path, "rename", rename)
    try:
        _journal, _session, note = open_table(path)
    finally:
        crashed.close()
    assert "could not be set aside (Permission denied)" in note
    assert not [p.name for p in tmp_path.iterdir() if ".damaged-" in p.name]


def test_a_damaged_page_of_an_old_game_keeps_the_game_in_progress(tmp_path: Path) -> None:
    """Damage anywhere set the whole journal aside and the table lost the game it was playing."""
    path = tmp_path / "journal.sqlite3"
    journal = Journal(path)
    old_game_of_many_steps(path, journal, "race")
    session = Session.new("race", ["red", "blue"], journal=journal)
    for action in ({"type": "roll", "value": 3}, {"type": "advance"}, {"type": "roll", "value": 5}):
        session.act(action)
    journal.close()
    spoil_oldest_steps(path)  # the oldest rows of the old game: far from the game on the table

    journal, resumed, note = open_table(path)
    assert "cannot be read as a journal" in note and "It is kept as journal.sqlite3.damaged-" in note
    assert "(Test race, 3 steps) was read from it and goes on" in note
    assert resumed is not None and resumed.log == session.log
    resumed.act({"type": "advance"})
    journal.close()
    assert Session.resume(Journal(path)).log == resumed.log  # in the new journal, on disk


def test_a_journal_held_by_another_table_is_not_shared(tmp_path: Path) -> None:
    """The kiosk and a terminal referee on one journal appended to one game in turn, and the next start
    could not replay it. The second table now says who holds it and keeps its own game in memory."""
    path = tmp_path / "journal.sqlite3"
    kiosk = subprocess.Popen(
        [sys.executable, "-m", "companion", "referee", "--journal", str(path)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT,
    )
    try:
        assert kiosk.stdin is not None and kiosk.stdout is not None
        kiosk.stdin.write('{"cmd": "new", "game": "blackpool", "players": ["red", "blue"]}\n')
        kiosk.stdin.flush()
        assert '"ok": true' in kiosk.stdout.readline().replace('"ok":true', '"ok": true')
        journal, note = open_journal(path)
        assert not journal.kept_on_disk
        assert f"is in use by another companion (process {kiosk.pid})" in note and "stop it first" in note
        journal.close()
    finally:
        kiosk.communicate(timeout=30)  # stdin closed: the referee ends and its lock goes with it
    journal, note = open_journal(path)
    assert journal.kept_on_disk and note == "" and journal.active_game() is not None
    journal.close()


def file_bytes(path: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(path.parent.iterdir()) if p.name.startswith(path.name)}


def test_a_journal_with_a_column_more_and_a_version_no_release_wrote_is_set_aside_and_its_game_goes_on(
    tmp_path: Path,
) -> None:
    """No release has written a journal version above 1: one of 9 is taken as damage (never written to: before,
    an older checkout wrote into it and then refused every game with "NOT NULL constraint failed"); the file is
    kept as it was and its game, which still reads, goes on."""
    path = tmp_path / "journal.sqlite3"
    blackpool_journal(path)
    raw = sqlite3.connect(path, isolation_level=None)
    raw.execute("PRAGMA journal_mode=DELETE")
    raw.execute("ALTER TABLE steps ADD COLUMN said_by TEXT NOT NULL DEFAULT ''")
    raw.execute("PRAGMA user_version = 9")
    raw.close()
    before = path.read_bytes()

    journal, session, note = open_table(path)
    assert journal.kept_on_disk and session is not None and len(session.log) == 5
    assert "its journal version is 9, which no Table Companion release has written (only 0 or 1)" in note, note
    assert "The game in progress (Blackpool, 5 steps) was read from it and goes on." in note
    session.act(session.legal()[0])
    journal.close()
    (kept,) = tmp_path.glob("journal.sqlite3.damaged-*")
    assert kept.read_bytes() == before


def test_a_database_that_is_not_a_journal_is_left_as_it_is(tmp_path: Path) -> None:
    """`--journal` naming another program's database: it gained a steps table and a column, and every new game
    was refused with "cannot be written: no such column: status" after "the game in progress could not be resumed"."""
    path = tmp_path / "scores.sqlite3"
    raw = sqlite3.connect(path, isolation_level=None)
    raw.execute("CREATE TABLE games (id INTEGER PRIMARY KEY, name TEXT, score INT)")
    raw.execute("INSERT INTO games VALUES (1, 'chess', 5)")
    raw.close()
    before = file_bytes(path)

    journal, session, note = open_table(path)
    assert not journal.kept_on_disk and session is None
    assert "is not a Table Companion journal" in note and "could not be resumed" not in note
    assert Session.new("blackpool", ["red", "blue"], journal=journal).pending().kind == "roll"
    journal.close()
    assert file_bytes(path) == before


def test_journals_are_marked_with_their_version_and_older_ones_open(tmp_path: Path) -> None:
    """A journal from before the version mark (user_version 0) is this version's: it opens, resumes and is marked."""
    path = tmp_path / "journal.sqlite3"
    session = blackpool_journal(path)
    raw = sqlite3.connect(path, isolation_level=None)
    raw.execute("PRAGMA user_version = 0")
    raw.close()
    journal, resumed, note = open_table(path)
    assert note == "" and resumed is not None and resumed.log == session.log
    journal.close()
    (version,) = sqlite3.connect(path).execute("PRAGMA user_version").fetchone()
    assert version == JOURNAL_VERSION


def test_export_of_a_journal_its_user_may_not_read_says_whose_it_is(tmp_path: Path) -> None:
    """SQLite's "unable to open database file" was all a café owner running export as pi was told."""
    path = tmp_path / "journal.sqlite3"
    blackpool_journal(path)
    path.chmod(0o200)
    done = subprocess.run(
        unprivileged([sys.executable, "-m", "companion", "export", "-", "--journal", str(path)]),
        capture_output=True, text=True, timeout=120, cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == (f"companion: the journal {path} cannot be read (Permission denied): export it as the user "
                           "that owns it (the service's: sudo -u companion, docs/operations.md)\n")


def test_export_reads_a_journal_on_a_card_gone_read_only(tmp_path: Path) -> None:
    """The recovery the operations guide gives for a card gone read-only failed: "the journal ... cannot be
    opened: attempt to write a readonly database", as opening for export switched on WAL and wrote the schema."""
    folder = tmp_path / "data"
    folder.mkdir()
    path = folder / "journal.sqlite3"
    session = blackpool_journal(path)
    before = file_bytes(path)
    folder.chmod(0o555)
    try:
        done = subprocess.run(
            unprivileged([sys.executable, "-m", "companion", "export", "-", "--journal", str(path)]),
            capture_output=True, text=True, timeout=120, cwd=ROOT,
        )
    finally:
        folder.chmod(0o755)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["actions"] == session.log
    assert file_bytes(path) == before


def test_export_into_a_folder_it_may_not_write_says_so_and_leaves_no_file(tmp_path: Path) -> None:
    """It said only "companion: Permission denied (PATH)", with no word of what to do."""
    path = tmp_path / "journal.sqlite3"
    blackpool_journal(path)
    shut = tmp_path / "shut"
    shut.mkdir()
    shut.chmod(0o555)
    try:
        done = subprocess.run(
            unprivileged([sys.executable, "-m", "companion", "export", str(shut / "game.json"), "--journal",
                          str(path)]),
            capture_output=True, text=True, timeout=120, cwd=ROOT,
        )  # fmt: skip
    finally:
        shut.chmod(0o755)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == (f"companion: cannot write the record to {shut / 'game.json'}: Permission denied; give a "
                           "file in a folder you may write to, with room for it\n")
    assert list(shut.iterdir()) == []


EXPORT_ONTO_A_FULL_CARD = """
import json, subprocess, sys
from pathlib import Path
from tests.small_card import fill_card
card, journal = Path(sys.argv[1]), sys.argv[2]
fill_card(card)
done = subprocess.run([sys.executable, "-m", "companion", "export", str(card / "game.json"), "--journal", journal],
                      capture_output=True, text=True, timeout=120)
print(json.dumps({"code": done.returncode, "out": done.stdout, "err": done.stderr,
                  "left": sorted(p.name for p in card.iterdir())}))
"""


def test_export_onto_a_full_card_says_so_and_leaves_no_record_cut_short(tmp_path: Path) -> None:
    """It said "companion: No space left on device (PATH)" and left an empty game.json behind, a record that
    replay then refused as damaged."""
    from tests.small_card import on_a_card

    path = tmp_path / "journal.sqlite3"
    blackpool_journal(path)
    found = on_a_card(EXPORT_ONTO_A_FULL_CARD, tmp_path, "1m", str(path))
    record = tmp_path / "card" / "game.json"
    assert found["code"] == 1 and found["out"] == ""
    assert found["err"] == (f"companion: cannot write the record to {record}: No space left on device; give a file "
                            "in a folder you may write to, with room for it\n")
    assert found["left"] == ["syslog"]


def test_a_journal_reached_through_a_link_is_held_by_one_table_too(tmp_path: Path) -> None:
    """The lock file was named after the path as given: a terminal referee started on a link to the kiosk's
    journal got a lock of its own and appended to the kiosk's game."""
    path = tmp_path / "data" / "journal.sqlite3"
    link = tmp_path / "journal.sqlite3"
    path.parent.mkdir()
    kiosk, note = open_journal(path)
    assert kiosk.kept_on_disk and note == ""
    link.symlink_to(path)
    second, note = open_journal(link)
    assert not second.kept_on_disk and "is in use by another companion" in note
    second.close()
    kiosk.close()


def test_a_page_of_spoilt_cells_is_named_by_its_first_fault_not_all_hundred(tmp_path: Path) -> None:
    """SQLite's check lists up to 100 faults, one a cell: the home screen's note and the log carried all of them,
    3,600 characters, before the words saying the file was kept and a new journal begun."""
    path = tmp_path / "journal.sqlite3"
    blackpool_journal(path, steps=150)
    with closing(sqlite3.connect(path)) as raw:
        (page,) = raw.execute("SELECT pageno FROM dbstat WHERE name = 'steps' AND pagetype = 'leaf'").fetchone()
        (size,) = raw.execute("PRAGMA page_size").fetchone()
    with path.open("r+b") as file:
        file.seek(size * (page - 1) + 40)  # past the page header: every cell's offset points off the page
        file.write(b"\xff" * (size - 40))

    _journal, session, note = open_table(path)
    assert session is None and "cannot be read as a journal: On tree page" in note
    assert re.search(r"Offset 65535 out of range [\d.]+ \(and \d\d more faults\)\. It is kept as journal", note), note
    assert note.count("On tree page") == 1 and len(note) < 400, note


def cut_power_mid_game(path: Path, at: Path, index_before_last: bool = False) -> Session:
    """A journal as a power cut leaves it at ``at``: 4 steps made before a restart (in the main file),
    6 more since (only in its -wal, which the restart's clean close had folded in and begun again).

    With ``index_before_last`` its -shm is as it was before the last step: SQLite counts a write in it only
    once the write is synced, so a power cut during the last write leaves it so.
    """
    blackpool_journal(path, steps=4)
    journal = Journal(path)
    session = Session.resume(journal)
    for _ in range(5):
        session.act(session.legal()[0])
    index = Path(f"{path}-shm").read_bytes()
    session.act(session.legal()[0])
    at.mkdir()
    for suffix in ("", "-wal", "-shm"):  # the files as they are on the card while the table runs
        shutil.copy(f"{path}{suffix}", at / f"{path.name}{suffix}")
    if index_before_last:
        (at / f"{path.name}-shm").write_bytes(index)
    journal.close()
    return session


@pytest.mark.parametrize("offset", range(32))
def test_a_wal_header_damaged_in_any_byte_is_set_aside_saying_what_was_lost(tmp_path: Path, offset: int) -> None:
    """SQLite passes over a WAL whose header fails its checks (magic, version, page size, checksum) and
    the table resumed 4 steps in, not 10, without a word; the log was gone at the first clean close."""
    played = cut_power_mid_game(tmp_path / "live.sqlite3", tmp_path / "card")
    path = tmp_path / "card" / "live.sqlite3"
    wal = Path(f"{path}-wal")
    damaged = bytearray(wal.read_bytes())
    damaged[offset] ^= 0x10
    wal.write_bytes(damaged)

    journal, session, note = open_table(path)
    assert "cannot be read as a journal: its write-ahead log (live.sqlite3-wal) is damaged (" in note, note
    assert "the last 6 writes in it (a step or a new game each), which SQLite would have passed over" in note
    assert "It is kept as live.sqlite3.damaged-" in note
    assert "The game in progress (Blackpool, 4 steps) was read from it and goes on." in note
    assert session is not None and session.log == played.log[:4]
    kept = [p for p in path.parent.iterdir() if p.name.startswith("live.sqlite3.damaged-")]
    assert [p.read_bytes() for p in kept if p.name.endswith("-wal")] == [bytes(damaged)]  # for recovery by hand
    session.act(session.legal()[0])
    journal.close()
    assert len(Session.resume(Journal(path)).log) == 5  # the new journal goes on from there


@pytest.mark.parametrize("offset", [0, 32 + 24 + 4096 + 100])  # the log's header; a byte in its second frame
def test_export_reads_a_journal_set_aside_for_its_wal_as_the_start_read_it_and_leaves_it_as_it_was(
    tmp_path: Path, offset: int, capsys: pytest.CaptureFixture[str]
) -> None:
    """Export on the kept file named the damaged log and stopped there; now it reads a copy as the start did (the
    steps before the damage), says which writes are missing, and the kept file and log stay byte for byte."""
    from companion.cli import main

    cut_power_mid_game(tmp_path / "live.sqlite3", tmp_path / "card")
    path = tmp_path / "card" / "live.sqlite3"
    wal = Path(f"{path}-wal")
    damaged = bytearray(wal.read_bytes())
    damaged[offset] ^= 0x10
    wal.write_bytes(damaged)
    _journal, carried, note = open_table(path)
    _journal.close()
    assert "is damaged" in note and carried is not None
    (kept,) = [p for p in path.parent.glob("live.sqlite3.damaged-*") if not p.name.endswith(("-wal", "-shm"))]
    main_bytes = kept.read_bytes()

    assert main(["export", "-", "--journal", str(kept)]) == 0
    said = capsys.readouterr()
    assert len(json.loads(said.out)["actions"]) == len(carried.log)
    assert said.err.startswith(f"companion: {kept.name}: its write-ahead log ({kept.name}-wal) is damaged ("), said.err
    assert said.err.endswith("; read from a copy without those writes (the file is left as it is)\n")
    assert kept.read_bytes() == main_bytes and Path(f"{kept}-wal").read_bytes() == bytes(damaged)


def test_a_wal_header_damaged_after_its_frames_were_copied_loses_nothing_and_says_nothing(tmp_path: Path) -> None:
    """A log whose every write is already in the main file loses nothing when passed over (a header torn
    as the log was begun again): no note, no file set aside."""
    path = tmp_path / "live.sqlite3"
    blackpool_journal(path, steps=4)
    journal = Journal(path)
    session = Session.resume(journal)
    for _ in range(6):
        session.act(session.legal()[0])
    journal._db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
    card = tmp_path / "card"
    card.mkdir()
    for suffix in ("", "-wal"):
        shutil.copy(f"{path}{suffix}", card / f"{path.name}{suffix}")
    journal.close()
    with open(card / "live.sqlite3-wal", "r+b") as file:
        file.write(b"\x00" * 8)

    _journal, resumed, note = open_table(card / "live.sqlite3")
    assert note == "" and resumed is not None and resumed.log == session.log
    assert not [p for p in card.iterdir() if ".damaged-" in p.name]


def test_a_main_file_cut_to_nothing_beside_its_wal_is_set_aside_not_begun_empty(tmp_path: Path) -> None:
    """SQLite deletes the WAL beside a main file of 0 bytes and began an empty journal without a word,
    even when only reading it (export): the table's games were gone and nothing said so."""
    cut_power_mid_game(tmp_path / "live.sqlite3", tmp_path / "card")
    path = tmp_path / "card" / "live.sqlite3"
    path.write_bytes(b"")
    wal = Path(f"{path}-wal").read_bytes()

    with pytest.raises(JournalDamaged, match="it is empty"):
        Journal.for_reading(path)
    assert Path(f"{path}-wal").read_bytes() == wal  # export read nothing and deleted nothing

    journal, session, note = open_table(path)
    assert session is None
    assert f"cannot be read as a journal: it is empty (0 bytes) beside a write-ahead log of {len(wal)} bytes" in note
    assert "It is kept as live.sqlite3.damaged-" in note and "a new journal is begun" in note
    kept = [p for p in path.parent.iterdir() if p.name.startswith("live.sqlite3.damaged-")]
    assert [p.read_bytes() for p in kept if p.name.endswith("-wal")] == [wal]
    fresh = Session.new("blackpool", ["red", "blue"], journal=journal)  # the table still starts and plays
    fresh.act(fresh.legal()[0])
    journal.close()
    assert len(Session.resume(Journal(path)).log) == 1


@pytest.mark.parametrize("length", [100, 4096])
def test_a_main_file_cut_short_says_its_game_could_not_be_read(tmp_path: Path, length: int) -> None:
    """A main file cut inside its first pages cannot be read ("database disk image is malformed") and no game can
    be carried from it: the note said only that it was kept and a new journal begun, the game gone unsaid."""
    cut_power_mid_game(tmp_path / "live.sqlite3", tmp_path / "card")
    path = tmp_path / "card" / "live.sqlite3"
    path.write_bytes(path.read_bytes()[:length])

    journal, session, note = open_table(path)
    assert session is None and "cannot be read as a journal: database disk image is malformed" in note, note
    assert note.endswith("and a new journal is begun. No game in progress, nor one just finished, could be read "
                         "from it: the table starts at home."), note
    journal.close()


FRAME = 24 + 4096  # a frame of the WAL: its header, then one page


@pytest.mark.parametrize("offset", [*range(32, 32 + 24), 32 + 24 + 7, 32 + FRAME - 1, 32 + 4 * FRAME + 1000])
def test_a_damaged_frame_with_writes_after_it_is_set_aside_saying_what_was_lost(tmp_path: Path, offset: int) -> None:
    """SQLite stops reading the WAL at the first frame that fails its checksum: a byte gone wrong in an early
    frame dropped every step after it in silence. Steps made after it prove it was written whole once."""
    cut_power_mid_game(tmp_path / "live.sqlite3", tmp_path / "card")
    path = tmp_path / "card" / "live.sqlite3"
    wal = Path(f"{path}-wal")
    damaged = bytearray(wal.read_bytes())
    assert len(damaged) == 32 + 12 * FRAME  # two frames a step
    damaged[offset] ^= 0x10
    wal.write_bytes(damaged)

    journal, session, note = open_table(path)
    assert session is not None and len(session.log) < 10
    lost = 10 - len(session.log)
    assert "cannot be read as a journal: its write-ahead log (live.sqlite3-wal) is damaged (frame " in note, note
    named = lost + 1 if offset in range(36, 40) else lost  # a damaged commit mark makes frame 1 look a write
    assert f"the last {named} writes in it (a step or a new game each), which SQLite would have passed over" in note
    assert f"The game in progress (Blackpool, {len(session.log)} steps) was read from it and goes on." in note
    kept = [p for p in path.parent.iterdir() if p.name.startswith("live.sqlite3.damaged-")]
    assert [p.read_bytes() for p in kept if p.name.endswith("-wal")] == [bytes(damaged)]
    journal.close()


LAST_WRITE_DAMAGE = {  # the last step's two frames (11 and 12) as a power cut, or a bad byte, leaves them
    "cut 24 bytes into frame 11": lambda wal: wal[: 32 + 10 * FRAME + 24],
    "cut 2000 bytes into frame 11": lambda wal: wal[: 32 + 10 * FRAME + 2000],
    "cut 1000 bytes into frame 12, its commit frame": lambda wal: wal[: 32 + 11 * FRAME + 1000],
    "cut 1 byte short": lambda wal: wal[:-1],
    "a byte of frame 11's page flipped": lambda wal: flip(wal, 32 + 10 * FRAME + 3000),
    "a byte of frame 12's header flipped": lambda wal: flip(wal, 32 + 11 * FRAME + 5),
    "its last byte flipped": lambda wal: flip(wal, len(wal) - 1),
}


def flip(data: bytes, offset: int) -> bytes:
    damaged = bytearray(data)
    damaged[offset] ^= 0x10
    return bytes(damaged)


@pytest.mark.parametrize("damage", LAST_WRITE_DAMAGE)
def test_a_last_step_cut_off_by_a_power_cut_is_named_and_the_board_checked(tmp_path: Path, damage: str) -> None:
    """SQLite passes over a last write not whole, and the table resumed a step short without a word: the step
    was not announced, but its pieces were already moved on the board. Now the note names the step, the table
    plays on in the same journal, and the step entered again is kept."""
    played = cut_power_mid_game(tmp_path / "live.sqlite3", tmp_path / "card", index_before_last=True)
    path = tmp_path / "card" / "live.sqlite3"
    wal = Path(f"{path}-wal")
    wal.write_bytes(LAST_WRITE_DAMAGE[damage](wal.read_bytes()))

    journal, session, note = open_table(path)
    assert session is not None and session.log == played.log[:9] and journal.kept_on_disk
    assert note.startswith("Blackpool resumes after step 9; step 10 is not in the journal. Check the board, and "
                           "enter step 10 again if it was played. The journal's last write was cut off, most likely "
                           "by a power cut while it was being written, and the journal goes on without it ("), note
    assert not [p for p in path.parent.iterdir() if ".damaged-" in p.name]
    session.act(played.log[9])
    journal.close()
    _journal, again, note = open_table(path)
    assert again is not None and again.log == played.log and note == ""
    _journal.close()


def test_a_last_write_cut_off_is_told_once_not_again_after_the_next_power_cut(tmp_path: Path) -> None:
    """A write of three frames cut off (its last two fail their checksums), then the step entered again in
    two: the third frame, of the log's run and past what SQLite reads, was told as cut off again at the next
    power cut. The log is emptied once the note is given."""
    played = cut_power_mid_game(tmp_path / "live.sqlite3", tmp_path / "card", index_before_last=True)
    path = tmp_path / "card" / "live.sqlite3"
    wal = Path(f"{path}-wal")
    frames = wal.read_bytes()
    last = 32 + 11 * FRAME
    uncommitted = frames[:last] + b"\x00" * 8 + frames[last + 8 :]  # frame 12 no longer ends the write
    wal.write_bytes(uncommitted + flip(frames[last:], 3000))  # a third frame, cut off as it was written

    journal, session, note = open_table(path)
    assert session is not None and session.log == played.log[:9]
    assert "its write-ahead log ends" in note or "frame 11 of its write-ahead log" in note, note
    assert note.startswith("Blackpool resumes after step 9; step 10 is not in the journal. "), note
    session.act(played.log[9])
    again = tmp_path / "again"
    again.mkdir()
    for suffix in ("", "-wal", "-shm"):  # the power goes with the journal open
        shutil.copy(f"{path}{suffix}", again / f"{path.name}{suffix}")
    journal.close()

    _journal, resumed, note = open_table(again / path.name)
    assert note == "" and resumed is not None and resumed.log == played.log
    _journal.close()


def test_a_new_game_cut_off_after_a_finished_one_names_the_finished_game(tmp_path: Path) -> None:
    """The power went while a new game was being begun after one had finished: the finished game is what the
    table shows, and the note says so rather than naming a step to enter again."""
    path = won_game(tmp_path / "live.sqlite3")
    journal = Journal(path)
    index = Path(f"{path}-shm").read_bytes()
    Session.new("race", ["red", "blue"], journal=journal)
    card = tmp_path / "card"
    card.mkdir()
    for suffix in ("", "-wal"):
        shutil.copy(f"{path}{suffix}", card / f"{path.name}{suffix}")
    (card / f"{path.name}-shm").write_bytes(index)
    journal.close()
    wal = card / f"{path.name}-wal"
    assert len(wal.read_bytes()) == 32 + FRAME  # one frame: the games table's page
    wal.write_bytes(wal.read_bytes()[: 32 + 500])

    _journal, session, note = open_table(card / path.name)
    assert session is None and _journal.latest_game().status == "over"
    assert note == (f"{title_of('race')} is shown as it finished, after step 2; anything entered after that is not "
                    "in the journal. The journal's last write was cut off, most likely by a power cut while it was "
                    "being written, and the journal goes on without it (its write-ahead log ends 500 bytes into "
                    "frame 1)."), note  # fmt: skip
    _journal.close()


@pytest.mark.parametrize("damage", LAST_WRITE_DAMAGE)
def test_a_last_step_its_index_counts_written_whole_is_damage_not_a_power_cut(tmp_path: Path, damage: str) -> None:
    """The -shm counts the frames SQLite had synced: the last step was written whole and announced, so losing
    it is damage, set aside with its log (as a damaged frame with later writes is), and the board checked."""
    played = cut_power_mid_game(tmp_path / "live.sqlite3", tmp_path / "card")
    path = tmp_path / "card" / "live.sqlite3"
    wal = Path(f"{path}-wal")
    damaged = LAST_WRITE_DAMAGE[damage](wal.read_bytes())
    wal.write_bytes(damaged)

    journal, session, note = open_table(path)
    assert session is not None and session.log == played.log[:9] and journal.kept_on_disk
    assert "its write-ahead log (live.sqlite3-wal) is damaged (" in note, note
    assert "though its index (live.sqlite3-shm) counts 12 frames written whole)" in note
    assert note.startswith("Blackpool resumes after step 9; step 10 and any after it were lost with the journal's "
                           "damaged log. Check the board, and enter them again if they were played. "), note
    assert note.endswith("The game in progress (Blackpool, 9 steps) was read from it and goes on."), note
    kept = [p for p in path.parent.iterdir() if p.name.startswith("live.sqlite3.damaged-")]
    assert [p.read_bytes() for p in kept if p.name.endswith("-wal")] == [damaged]
    journal.close()


def test_an_index_left_from_an_older_run_of_the_log_is_not_taken_for_lost_writes(tmp_path: Path) -> None:
    """A -shm counting 12 frames of the log's run before a checkpoint began it again (other salts) beside the new
    run's 2 frames: nothing is lost, nothing is said, nothing is set aside."""
    path = tmp_path / "live.sqlite3"
    journal = Journal(path)
    session = Session.new("blackpool", ["red", "blue"], journal=journal)
    for _ in range(6):
        session.act(session.legal()[0])
    older = Path(f"{path}-shm").read_bytes()
    journal._db.execute("PRAGMA wal_checkpoint(RESTART)").fetchall()
    session.act(session.legal()[0])  # the log begun again: new salts, frames 1 and 2 written over
    card = tmp_path / "card"
    card.mkdir()
    for suffix in ("", "-wal"):
        shutil.copy(f"{path}{suffix}", card / f"{path.name}{suffix}")
    (card / f"{path.name}-shm").write_bytes(older)
    journal.close()

    _journal, resumed, note = open_table(card / path.name)
    assert note == "" and resumed is not None and resumed.log == session.log
    assert not [p for p in card.iterdir() if ".damaged-" in p.name]
    _journal.close()


@pytest.mark.parametrize("length", [0, 16, 32, 32 + FRAME, 32 + 7 * FRAME + 100])
def test_a_log_cut_shorter_than_its_index_counts_is_set_aside_saying_from_which_step(
    tmp_path: Path, length: int
) -> None:
    """A -wal cut short (a card losing a file's end) took the 6 steps since the restart, or some of them,
    and the table resumed 4 steps in without a word; its index (-shm) still counts the 12 frames written."""
    played = cut_power_mid_game(tmp_path / "live.sqlite3", tmp_path / "card")
    path = tmp_path / "card" / "live.sqlite3"
    wal = Path(f"{path}-wal")
    wal.write_bytes(wal.read_bytes()[:length])

    journal, session, note = open_table(path)
    kept_steps = 4 + max(0, length - 32) // FRAME // 2
    assert session is not None and session.log == played.log[:kept_steps]
    whole = max(0, length - 32) // FRAME
    assert (f"(it holds {whole} whole frame{'' if whole == 1 else 's'}, though its index (live.sqlite3-shm) counts "
            "12 frames written whole): some of its last writes, which SQLite would have passed over") in note, note
    assert note.startswith(f"Blackpool resumes after step {kept_steps}; step {kept_steps + 1} and any after it were "
                           "lost with the journal's damaged log."), note
    journal.close()
