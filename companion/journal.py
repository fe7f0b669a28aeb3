"""The SQLite journal: every game and every step, committed before it is announced.

WAL with ``synchronous=FULL`` makes each commit durable on its own, so a power
cut loses nothing the table has already heard. Steps are append-only: an undo
is itself a row, and replaying the rows in order rebuilds the exact session.
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import shutil
import sqlite3
import tempfile
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from companion.dbheader import HEADER_BYTES, header_fault, mended, version_fault
from companion.errors import JournalDamaged, JournalForeign, JournalInUse, JournalNotWritten, JournalUnavailable
from companion.paths import unused_name
from companion.phrases import how_many
from companion.registry import title_of
from companion.wal import beside_damage, examine

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    start TEXT NOT NULL,
    data TEXT NOT NULL,
    digests TEXT,
    started TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('active', 'over', 'abandoned'))
) STRICT;
CREATE TABLE IF NOT EXISTS steps (
    game_id INTEGER NOT NULL REFERENCES games (id),
    seq INTEGER NOT NULL,
    op TEXT NOT NULL CHECK (op IN ('act', 'undo', 'redo')),
    action TEXT,
    at TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
) STRICT;
"""


JOURNAL_VERSION = 1  # kept in PRAGMA user_version; journals from before it was kept have 0 and are this version
JOURNAL_COLUMNS = {
    "games": frozenset({"id", "game", "start", "data", "started", "status"}),
    "steps": frozenset({"game_id", "seq", "op", "action", "at"}),
}


def _not_ours(db: sqlite3.Connection) -> str | None:
    """Why the database must not be written as this version's journal, or None when it may.

    Opening used to switch any database to WAL and add our tables and
    columns to it: another program's database named by ``--journal`` by
    mistake was changed, and then every new game was refused with SQLite's
    words ("no such column: status"). Raises ``sqlite3.DatabaseError`` for a
    file that is no database.
    """
    query = "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%' ORDER BY name"
    tables = [name for (name,) in db.execute(query)]
    for table, needed in JOURNAL_COLUMNS.items():
        if table in tables:
            missing = needed - {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
            if missing:
                return f"is not a Table Companion journal (its {table} table has no {', '.join(sorted(missing))})"
    if tables and not JOURNAL_COLUMNS.keys() & set(tables):
        shown = ", ".join(tables[:5]) + (", ..." if len(tables) > 5 else "")
        return f"is not a Table Companion journal (its tables are {shown})"
    return None


SQLITE_HEADER = b"SQLite format 3\x00"
SNIFFED_BYTES = 4096  # a database's first page holds NUL bytes in its header and padding; a text file holds none


def _text_not_journal(path: Path) -> str | None:
    """Why the file at ``path`` is text someone wrote rather than a journal, or None when it may be one.

    A file SQLite cannot read was taken for a damaged journal: moved aside as
    ``NAME.damaged-...`` and a new journal written in its place, so
    ``--journal game.json`` (a record from ``companion export``) or a mistyped
    path to notes or a config file had that file replaced. A damaged journal
    keeps SQLite's header, or is zeros where a card lost its pages; text has
    neither, and is refused as no journal, left as it is.
    """
    try:
        with path.open("rb") as file:
            head = file.read(SNIFFED_BYTES)
    except OSError:  # not there yet, or unreadable: SQLite's own error says which
        return None
    if not head or head.startswith(SQLITE_HEADER) or b"\x00" in head:
        return None
    return "is not a journal but a text file (a game record or notes?)"


def _header_damage(path: Path) -> str | None:
    """Why the journal at ``path`` cannot be read for a damaged database header (`header_fault`), or None.

    Checked before SQLite opens the file: its own answers to a flipped byte
    there ("unsupported file format", "attempt to write a readonly
    database", a journal version no release wrote read as a newer companion's)
    read as a file the table cannot use or must not touch, never as damage.
    """
    try:
        with path.open("rb") as file:
            fault = header_fault(file.read(HEADER_BYTES), JOURNAL_VERSION)
    except OSError:  # not there yet, or unreadable: SQLite's own error says which
        return None
    return None if fault is None else f"its database header (the first {HEADER_BYTES} bytes) is damaged: {fault}"


def _version_damage(db: sqlite3.Connection) -> str | None:
    """`version_fault` of the journal version SQLite reads (from the WAL too), or None when a release wrote it."""
    (version,) = db.execute("PRAGMA user_version").fetchone()
    return version_fault(int(version), JOURNAL_VERSION)


def _judged_read_only(path: Path) -> tuple[str | None, str | None]:
    """`_version_damage` and `_not_ours` of the file at ``path`` asked through a read-only connection, or
    (None, None) when it cannot be asked.

    Asked through the table's own connection, a journal found with its WAL
    beside it (a power cut) was changed all the same: closing the last
    connection copies the WAL into the file and deletes it and the ``-shm``.
    A read-only connection leaves all three as they are, for setting aside
    whole or leaving alone.
    """
    for query in _read_only_queries(path):
        with suppress(sqlite3.Error):
            db = _connect_read_only(path, query)
            try:
                return _version_damage(db), _not_ours(db)
            finally:
                db.close()
    return None, None


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


ARCHIVE_AT_BYTES = 64 * 1024 * 1024  # about 1,600 games; a start then reads it whole in well under a second here
# Free space on the journal's card below which every start says so (journald, capped to keep 1 GB free, has
# stopped logging by then): at 40 games a day the journals take about 1.7 MB a day, and a full card refuses
# every step of every game.
LOW_ROOM_BYTES = 512 * 1024 * 1024


FULL_BELOW = 1024 * 1024  # bytes free under which a write that failed is put down to a full card
SEE_RECOVERING = "docs/operations.md, Recovering a table"


def card_fault(path: str | Path, failure: sqlite3.Error) -> tuple[str, str, str] | None:
    """What happened to the card holding the journal at ``path`` when SQLite could not write it, what to do
    during play and what to do at start (the table then goes on in memory); None when the card is neither
    read-only nor full (SQLite's own words then say more).

    SQLite's words alone ("database or disk is full", "disk I/O error",
    "attempt to write a readonly database") did not say which card, what had
    happened to it or what would mend it. A card the kernel has remounted
    read-only after errors gives "disk I/O error" to a write already under
    way and "readonly database" to the next, so the card itself is asked (its
    mount's read-only flag, its free space), not SQLite's code alone.
    """
    said = str(failure) or type(failure).__name__
    if str(path) == ":memory:":
        return None
    folder = Path(path).parent
    try:
        read_only = bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
        free: int | None = shutil.disk_usage(folder).free
    except OSError:  # the folder gone with its card: SQLite's code alone says what it can
        read_only, free = False, None
    full = getattr(failure, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL or (free is not None and free < FULL_BELOW)
    return _card_words(said, read_only, full)


def _card_words(said: str, read_only: bool, full: bool) -> tuple[str, str, str] | None:
    """`card_fault`'s three parts for a card found read-only or full, the OS's or SQLite's words in brackets."""
    if read_only:
        return (f"the card holding the journal has turned read-only ({said}), as a failing SD card does",
                "check the card (dmesg | grep -i 'read-only'), and restart the table to play on from the last step "
                f"saved, kept in memory only ({SEE_RECOVERING})",
                f"check the card (dmesg | grep -i 'read-only'; {SEE_RECOVERING})")  # fmt: skip
    if full:
        room = "make room on it (older journals beside it, or whatever filled it: df -h), then"
        return (f"the card holding the journal is full ({said})", f"{room} try again ({SEE_RECOVERING})",
                f"{room} restart the table between games (the steps played in memory end with it) to keep them "
                f"on the card again ({SEE_RECOVERING})")  # fmt: skip
    return None


def card_state(path: str | Path) -> str:
    """"the card is full" or "the card has turned read-only" for the card that holds (or would hold) the journal at
    ``path``, in words for the players; "" when it is neither, or cannot be looked at.

    Asked before a game begins (`ui.app`), so a table is told the game will not be kept before it plays it.
    """
    if str(path) == ":memory:":
        return ""
    folder = Path(path).parent
    while not folder.exists() and folder != folder.parent:  # a folder the journal was to be made in
        folder = folder.parent
    try:
        read_only = bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
        free = shutil.disk_usage(folder).free
    except OSError:
        return ""
    if read_only:
        return "the card has turned read-only"
    return "the card is full" if free < FULL_BELOW else ""


def card_refused(error: OSError) -> str:
    """What the card did when the OS refused a file beside the journal (its folder made, a journal renamed or
    written at rollover), with what to do at start; the OS's words alone for any other fault.

    "no folder for the journal ...: Read-only file system" did not say the card
    had failed, nor what to do, as `card_fault` says of SQLite's refusals.
    """
    said = error.strerror or str(error)
    fault = _card_words(said, error.errno == errno.EROFS, error.errno in (errno.ENOSPC, errno.EDQUOT))
    return f"{fault[0]}: {fault[2]}" if fault is not None else said


def why_not_written(path: str | Path, failure: sqlite3.Error) -> str:
    """`card_fault`'s words and what to do, for a write refused during play; SQLite's words for any other fault."""
    fault = card_fault(path, failure)
    if fault is not None:
        return f"{fault[0]}; {fault[1]}"
    said = str(failure) or type(failure).__name__
    if getattr(failure, "sqlite_errorcode", None) == sqlite3.SQLITE_READONLY:
        return (f"the journal or its folder may no longer be written by this user ({said}); ls -l the folder, "
                f"then restart the table ({SEE_RECOVERING})")  # fmt: skip
    return (f"the card holding the journal could not write it ({said}); check the card (dmesg), then try again "
            f"({SEE_RECOVERING})")


def _at_start(path: str | Path, failure: sqlite3.Error) -> str:
    """What `card_fault` found at start, when the table goes on in memory, and what to do: the note said only
    "cannot be opened: disk I/O error" of a card with no room left for the journal's ``-shm``."""
    fault = card_fault(path, failure)
    return f"{fault[0]}: {fault[2]}" if fault is not None else str(failure)


def first_fault(verdict: str) -> str:
    """``PRAGMA quick_check``'s answer as a note can carry it: the first fault and how many more.

    SQLite lists up to 100, one for each cell of a spoilt page, and the home screen and the log
    showed them all, 3,600 characters before the line saying the file was kept and a new one begun.
    """
    faults = [line for line in verdict.splitlines() if line.strip() and not line.startswith("***")]
    if len(faults) < 2:
        return faults[0] if faults else verdict
    more = len(faults) - 1
    return f"{faults[0]} (and {more} more {'fault' if more == 1 else 'faults'})"


# Said when a journal set aside held no game that could be read whole: a main file cut short said only
# "database disk image is malformed. It is kept as ... and a new journal is begun", and the game in play was gone
# from the table without a word about it.
NOTHING_CARRIED = " No game in progress, nor one just finished, could be read from it: the table starts at home."


def open_journal(path: Path, archive: bool = True) -> tuple[Journal, str]:
    """The journal at ``path``, and a note for the table when a damaged one had to be set aside.

    A kiosk restarts on its own, so a journal SQLite cannot read must not
    stop it for good: the file (with its WAL) is renamed beside itself, kept
    for recovery by hand, and a new journal begun. Whatever happens to the
    file, the game in progress is read from it if it still can be and goes on
    (in the new journal, or in memory when the file cannot be written), so a
    table never loses its game in silence to a damaged page elsewhere or to a
    card gone read-only.
    """
    _finish_swap(path)
    try:
        journal = Journal(path)
        journal.require_writable()
        journal.claim()
    except JournalInUse as refusal:  # its game is the other table's: never carried, or two tables would part
        return in_memory("another companion is using this table's journal"), (
            f"{refusal.message}; this table keeps its own game only until it closes.")
    except JournalForeign as refusal:  # not this version's to read or write: nothing of it is carried
        return in_memory("the journal file is not one this companion writes"), (
            f"{refusal.message}; this table keeps its game only until the app closes.")
    except JournalUnavailable as refusal:  # a table that cannot journal still referees, and says so
        journal = in_memory(card_state(path) or "the journal file cannot be written")
        carried = _carry(_read_to_carry(path), journal)
        return journal, f"{refusal.message}; this table keeps its game only until the app closes.{carried}"
    except JournalDamaged as damage:
        active = _read_to_carry(path)  # read before the file is moved, while its WAL is still beside it
        kept = _unused_name(path.with_name(f"{path.name}.damaged-{datetime.now(UTC):%Y%m%d-%H%M%S}"))
        try:
            carried = _swap(path, kept, active)
        except OSError as exc:  # a read-only folder: crashing here would restart the kiosk for ever
            journal = in_memory(card_state(path) or "the damaged journal could not be set aside")
            carried = _carry(active, journal)
            return journal, (
                f"{damage.message}. It could not be set aside{_not_set_aside(path, exc)}; "
                f"this table keeps its game only until the app closes.{carried}"
            )
        journal, note = open_journal(path)
        check = _check_board(active, damaged=True) if damage.details.get("steps_lost") else ""
        carried = carried or NOTHING_CARRIED
        begun = f"{damage.message}. It is kept as {kept.name} and a new journal is begun.{carried}"
        return journal, " ".join(filter(None, (check, begun, note)))
    cut_off = _cut_off_note(journal)
    if cut_off:
        journal.fold_log()
    journal, note = _archive_when_large(journal, path) if archive else (journal, "")
    return journal, " ".join(filter(None, (cut_off, note)))


def in_memory(why: str) -> Journal:
    """A journal in memory for a table whose file could not be used, or for a game whose copy it refused
    (`companion.session.resume_what_fits`), with ``why`` in the players' words (`Journal.not_kept`)."""
    journal = Journal()
    journal.not_kept = why
    return journal


def _check_board(entry: JournalGame | None, damaged: bool) -> str:
    """The sentences telling the table which step it resumes after and to check the board, for a journal that lost
    its last write (a power cut's) or writes (``damaged``), put first in the note; "" when no game was read.

    Each step is written before it is announced, but its pieces were moved on
    the board before it was entered: a game resumed a step short, without a
    word, left the board a step ahead of the table, and the next roll was
    refereed from the wrong position. Short and first, since the table's
    status line shows a note's first three lines only.
    """
    if entry is None:
        return ""
    steps = len(entry.steps)
    title = title_of(entry.game)
    lost = "were lost with the journal's damaged log" if damaged else "is not in the journal"
    if entry.standing() != steps:
        return _check_board_after_undos(entry, title, lost, damaged)
    if entry.status == "over":
        return f"{title} is shown as it finished, after step {steps}; anything entered after that {lost}."
    if damaged:
        return (f"{title} resumes after step {steps}; step {steps + 1} and any after it {lost}. Check the board, "
                "and enter them again if they were played.")  # fmt: skip
    return (f"{title} resumes after step {steps}; step {steps + 1} {lost}. Check the board, and enter step "
            f"{steps + 1} again if it was played.")  # fmt: skip


def _check_board_after_undos(entry: JournalGame, title: str, lost: str, damaged: bool) -> str:
    """`_check_board` for a game whose journal holds undos or redos: the steps it stands at, then the writes.

    The writes are counted, as a write was lost and it may have been an undo; but "resumes after step 12" of
    a game the Resume button showed at 8 steps named a step nobody could find on the board, and "enter step 13
    again" asked for a step where an undo may have been lost.
    """
    writes = len(entry.steps)
    at = f"at {how_many(entry.standing())} ({writes} writes, undos included)"
    if entry.status == "over":
        return f"{title} is shown as it finished, {at}; anything entered after that {lost}."
    if damaged:
        return (f"{title} resumes {at}; write {writes + 1} and any after it {lost}. Check the board, and enter "
                "again what the table lacks.")  # fmt: skip
    return f"{title} resumes {at}; write {writes + 1} {lost}. Check the board, and enter again what the table lacks."


def _cut_off_note(journal: Journal) -> str:
    """The note for a journal whose last write was cut off before it was whole (`LogVerdict.cut_off`), or "".

    SQLite passes over such a write without a word, as it should (the journal
    is whole without it, and goes on being used), but the table has to know
    that its last step may be missing from the position it resumes.
    """
    if journal.cut_off is None:
        return ""
    try:
        entry = game_to_carry(journal)
    except JournalDamaged:  # a damaged row is the resume's to report, in its words
        entry = None
    check = _check_board(entry, damaged=False) or "Anything entered last is not in the journal: check the table."
    return (f"{check} The journal's last write was cut off, most likely by a power cut while it was being written, "
            f"and the journal goes on without it ({journal.cut_off}).")  # fmt: skip


def kept_journals(path: Path) -> list[Path]:
    """The journals set aside beside ``path`` (grown ones with their date, damaged ones), oldest name first."""
    try:
        grown = path.parent.glob(f"{path.stem}-*{path.suffix}*")
        damaged = path.parent.glob(f"{path.name}.damaged-*")
        found = {kept for kept in [*grown, *damaged] if not kept.name.endswith(("-wal", "-shm", ".lock"))}
        return sorted(kept for kept in found if kept.is_file())
    except OSError:
        return []


def room_note(path: Path, in_memory: bool = False) -> str:
    """A sentence for the start-up note when the card holding the journal is nearly full, else "".

    Nothing else told a café its card was filling: the journals set aside
    at 64 MB are never deleted by the companion (a wrong clock must not throw
    away a game), and once the card is full every step is refused ("database
    or disk is full") and the table cannot play. Said while there is still
    room, with what the journal folder holds that may be deleted. With the
    game in progress refereed ``in_memory`` (its copy refused) the table does
    play, so that is not said.
    """
    try:
        free = shutil.disk_usage(path.parent).free
    except OSError:  # no folder (the journal runs in memory and says why): nothing to measure
        return ""
    if free >= LOW_ROOM_BYTES:
        return ""
    mb = 1024 * 1024
    kept = kept_journals(path)
    held = sum(file.stat().st_size for file in kept if file.exists())
    what = (f"{len(kept)} older journal{'' if len(kept) == 1 else 's'} ({held // mb} MB) beside it may be deleted, "
            f"oldest first ({kept[0].name})") if kept else "no older journal lies beside it to delete"  # fmt: skip
    room = (f"has only {free // mb} MB free: once it is full" if free >= mb else "is full:")  # fmt: skip
    cannot = "" if in_memory else " and the table cannot play"
    return (f"The card holding the journal {room} no step can be written{cannot}. "
            f"{what[0].upper()}{what[1:]}.")


def _archive_when_large(journal: Journal, path: Path) -> tuple[Journal, str]:
    """The open journal, or a new one when it has outgrown `ARCHIVE_AT_BYTES`, with a note saying where its games went.

    Every start checks the whole file, so a café table that is never minded
    started slower month by month (seconds at a few hundred MB on a Pi's
    card, against the service's start-up limit). Past the size, the file is
    renamed beside itself with the day's date, whole (closing the last
    connection folds its WAL in), and a new journal begun; the game in
    progress is copied into it and goes on (or the last game, finished, see
    `game_to_carry`). Old games stay readable with ``companion export
    --journal`` on the renamed file.
    """
    try:
        size = path.stat().st_size
        if size < ARCHIVE_AT_BYTES:
            return journal, ""
        active = game_to_carry(journal)
    except (OSError, JournalDamaged):  # a damaged row is the resume's to report, in its words
        return journal, ""
    kept = _unused_name(path.with_name(f"{path.stem}-{datetime.now(UTC):%Y%m%d}{path.suffix}"))
    journal.close()
    grown = f"The journal had grown to {size // (1024 * 1024)} MB"
    try:
        carried = _swap(path, kept, active)
    except NewJournalNotWritten as exc:
        journal, note = open_journal(path, archive=False)
        return journal, f"{grown}, but the new journal to follow it {_not_begun(path, exc)} {note}".strip()
    except OSError as exc:
        journal, note = open_journal(path, archive=False)
        why = card_refused(exc)
        return journal, f"{grown} and could not be renamed ({why}); starting slows as it grows. {note}".strip()
    journal, note = open_journal(path, archive=False)
    moved = f"{grown}: its games are kept in {kept.name} (read by companion export --journal) and a new one is begun."
    return journal, f"{moved}{carried} {note}".strip()


class NewJournalNotWritten(JournalUnavailable):
    """`_swap` could not write the journal that was to follow the old one; nothing was moved."""


def _not_set_aside(path: Path, exc: OSError) -> str:
    """Why a damaged journal at ``path`` stayed where it was, to follow "It could not be set aside".

    A full card refuses the new journal that was to hold the game, not the
    move, yet the note read "It could not be set aside (the journal
    .../.journal.sqlite3.new cannot be opened: ...)", a path and a refusal
    nested in brackets; the card is named as `card_fault` names it at start.
    """
    failure = getattr(exc.__cause__, "failure", None) if isinstance(exc, NewJournalNotWritten) else None
    fault = card_fault(path, failure) if isinstance(failure, sqlite3.Error) else None
    if fault is not None:
        return f", as the new journal to hold its game could not be written: {fault[0]}: {fault[2]}"
    if isinstance(exc, NewJournalNotWritten):
        return f", as the new journal to hold its game could not be written ({exc})"
    return f" ({card_refused(exc)})"


def _not_begun(path: Path, exc: NewJournalNotWritten) -> str:
    """Why the journal to follow one grown past `ARCHIVE_AT_BYTES` was not begun, and what to do.

    A full card refuses the new file, not the rename, yet the note said the
    journal "could not be renamed", sending the owner after permissions.
    """
    try:
        free = shutil.disk_usage(path.parent).free
    except OSError:
        free = None
    if free is not None and free < FULL_BELOW:
        return ("could not be written, as the card holding the journal is full: the journal goes on in use, "
                "its games safe, and starting slows as it grows; make room on it (older journals beside it, or "
                f"whatever filled it: df -h), and the next start begins the new one ({SEE_RECOVERING}).")
    return f"could not be written ({exc}): the journal goes on in use, and starting slows as it grows."


def _unused_name(kept: Path) -> Path:
    """``kept`` or a numbered name beside it no journal set aside (nor its ``-wal`` or ``-shm``) has taken
    (`unused_name`): a stale ``-wal`` of an older copy could sit beside the new one and be replayed into it."""
    return unused_name(kept, ("", "-wal", "-shm"))


def _fresh_name(path: Path) -> Path:
    """Where the journal that replaces ``path`` is written whole before it takes the name."""
    return path.with_name(f".{path.name}.new")


def _remove(path: Path) -> None:
    for suffix in ("-wal", "-shm", ""):
        Path(f"{path}{suffix}").unlink(missing_ok=True)


def _swap(path: Path, kept: Path, active: JournalGame | None) -> str:
    """Move the journal at ``path`` to ``kept`` and put in its place a new one holding ``active`` (the game
    `game_to_carry` chose); the note's sentence.

    The game used to be copied into the new journal after the old one had
    moved: a power cut between the two left a new journal without it, and the
    table came up at home with its game only in the file set aside. Now the
    new journal is written whole under a dotted name first and renamed into
    place last; `_finish_swap` completes a swap cut off between the two
    renames at the next start. ``OSError`` (``JournalUnavailable`` too) says
    nothing was moved.
    """
    fresh = _fresh_name(path)
    _remove(fresh)
    carried = ""
    if active is not None:
        try:
            made = Journal(fresh)
            try:
                carried = _carry(active, made)
            finally:
                made.close()  # the last connection folds its WAL in: the file stands alone
            if not carried:
                raise JournalUnavailable(f"the last game could not be written to {fresh}")
        except OSError as exc:  # nothing moved yet: the card refused the new file, not the rename
            _remove(fresh)
            raise NewJournalNotWritten(str(exc)) from exc
        except BaseException:
            _remove(fresh)
            raise
    try:
        _set_aside(path, kept)
    except OSError:  # nothing moved; anything harsher than this (the power gone) is `_finish_swap`'s
        _remove(fresh)
        raise
    if fresh.exists():
        fresh.rename(path)
    return carried


def _finish_swap(path: Path) -> None:
    """Complete, or undo, a `_swap` a power cut or crash stopped.

    With the journal still at ``path`` the swap never began and the new file
    is dropped; with ``path`` gone the old journal had moved and the new one,
    already whole, takes its name.
    """
    fresh = _fresh_name(path)
    with suppress(OSError):
        if not fresh.exists():
            return
        if path.exists() or path.is_symlink():
            _remove(fresh)
        else:
            fresh.rename(path)


def _set_aside(path: Path, kept: Path) -> None:
    """Rename the journal and its WAL to ``kept``, all or (as far as possible) nothing.

    The WAL goes first: a WAL left at ``path`` after the database moved would
    be replayed by SQLite into the new, empty journal and corrupt it.
    """
    moved: list[tuple[Path, Path]] = []
    try:
        for suffix in ("-wal", "-shm", ""):
            part, target = Path(f"{path}{suffix}"), Path(f"{kept}{suffix}")
            if part.exists():
                part.rename(target)
                moved.append((part, target))
    except OSError:
        for part, target in reversed(moved):
            with suppress(OSError):
                target.rename(part)
        raise


def _read_only_queries(path: str | Path) -> tuple[str, ...]:
    """How to open the journal at ``path`` to read it, in the order to try.

    With a WAL beside it (the service running, a power cut) its committed
    steps are read through it; without one, the file is read as immutable,
    which creates no -wal or -shm beside it (nor needs to, in a read-only folder). Nor through a WAL beside
    a main file of 0 bytes: SQLite deletes such a log even on a read-only connection, and a damaged journal
    lost it before it could be set aside.
    """
    main, wal = Path(path), Path(f"{path}-wal")
    with suppress(OSError):
        if wal.exists() and main.stat().st_size > 0:
            return ("mode=ro", "immutable=1")
    return ("immutable=1",)


def _connect_read_only(path: str | Path, query: str) -> sqlite3.Connection:
    return sqlite3.connect(f"{Path(path).absolute().as_uri()}?{query}", uri=True, isolation_level=None,
                           check_same_thread=False)  # fmt: skip


def game_to_carry(journal: Journal) -> JournalGame | None:
    """The game a new journal must start with: the one in progress, else the last game when it is finished.

    Only the game in progress used to move, and the game that had just
    finished vanished at that start from the home screen and from ``play``,
    which offer to go back into it the same café day (`companion.finished`):
    a misread winning roll could then no longer be taken back.
    """
    active = journal.active_game()
    if active is not None:
        return active
    latest = journal.latest_game()
    return latest if latest is not None and latest.status == "over" else None


def _read_to_carry(path: Path) -> JournalGame | None:
    """The game to carry (`game_to_carry`) as a read-only look at ``path`` finds it, or None when none can be
    read whole.

    Read-only, so it works on a card gone read-only and changes nothing in a
    damaged file; its steps must be numbered 1, 2, 3, ... without a gap, or a
    damaged page may have taken some of them and the game is not carried.
    When SQLite cannot read it (a damaged header: "file is not a database"),
    a copy with the header mended (`_read_mended`) is read instead.
    """
    for query in _read_only_queries(path):
        try:
            reader = Journal.read_only(path, query)
        except sqlite3.Error:
            continue
        try:
            return _whole_game(reader)
        except (sqlite3.Error, JournalDamaged):
            continue
        finally:
            reader.close()
    return _read_mended(path)


def _whole_game(reader: Journal) -> JournalGame | None:
    """`game_to_carry` of ``reader``, or None when its steps are not numbered 1, 2, 3, ... without a gap."""
    entry = game_to_carry(reader)
    if entry is None:
        return None
    count, last = reader._db.execute(
        "SELECT COUNT(*), COALESCE(MAX(seq), 0) FROM steps WHERE game_id = ?", (entry.id,)
    ).fetchone()
    return entry if count == last == len(entry.steps) else None


def _read_mended(path: Path) -> JournalGame | None:
    """The game to carry read from a copy of the journal (with its WAL) whose header is `mended`, or None.

    A flipped byte in the first 100 bytes ("file is not a database",
    "unsupported file format") stopped SQLite reading any of it, and the game
    in progress was lost with the file set aside though every row of it was
    whole. The game is trusted as from the file itself (`_whole_game`): every
    row read, its steps without a gap; a header mended wrongly (another page
    size) reads as no database at all.
    """
    try:
        with _mended_copy(path) as copy:
            for query in _read_only_queries(copy):
                with suppress(sqlite3.Error, JournalDamaged):
                    reader = Journal.read_only(copy, query)
                    try:
                        return _whole_game(reader)
                    finally:
                        reader.close()
    except OSError:
        return None
    return None


@contextmanager
def _mended_copy(path: Path, mend: bool = True) -> Iterator[Path]:
    """A copy of the journal at ``path`` (with its WAL) whose header is `mended` (unless ``mend`` is false), in a
    temporary folder removed afterwards, so the file (one set aside, kept for recovery) stays exactly as found.

    ``OSError`` when the file cannot be read or is too short to hold a header to mend.
    """
    wal = Path(f"{path}-wal")
    with path.open("rb") as file:
        head = file.read(HEADER_BYTES)
    size = path.stat().st_size
    if mend and len(head) < HEADER_BYTES:
        raise OSError(f"{path} is too short to hold a database header")
    with tempfile.TemporaryDirectory(prefix="companion-journal-") as folder:
        copy = Path(folder) / path.name
        shutil.copyfile(path, copy)
        if wal.exists():
            shutil.copyfile(wal, f"{copy}-wal")
        if mend:
            with copy.open("r+b") as file:
                file.write(mended(head, size, wal.exists(), JOURNAL_VERSION))
        yield copy


@contextmanager
def reading(path: Path) -> Iterator[tuple[Journal, str]]:
    """The journal at ``path`` opened to read its games (`Journal.for_reading`), and a note, "" when none.

    A journal the start sets aside (``journal.sqlite3.damaged-<date>``) for a
    damaged database header or write-ahead log is read as the start reads it
    to carry its last game: from a copy, its header `mended`, its log read as
    far as SQLite reads it. ``companion export`` on the kept file answered only
    what was damaged, and a café's earlier games in it could not be had at all.
    The note names the damage and says the games came from a copy. Raises as
    `Journal.for_reading` does, naming ``path`` (never the copy) when the copy
    cannot be read either.
    """
    text = _text_not_journal(path)  # before the header is judged: a text file has no SQLite header to mend
    if text is not None:
        raise JournalForeign(f"{path} {text}, so it is left as it is")
    header = _header_damage(path)
    beside = beside_damage(path)
    if header is None and beside is None:
        journal = Journal.for_reading(path)
        try:
            yield journal, ""
        finally:
            journal.close()
        return
    faults = "; ".join(filter(None, (header, beside)))
    refusal = f"{path} cannot be read as a journal: {faults}"
    how = " and ".join(filter(None, ("with the header mended" if header else "",
                                     "without those writes" if beside else "")))  # fmt: skip
    with ExitStack() as stack:
        try:
            copy = stack.enter_context(_mended_copy(path, mend=header is not None))
        except OSError as error:
            raise JournalDamaged(f"{refusal}; no copy to read could be made ({error.strerror or error})") from None
        try:
            journal = Journal.for_reading(copy, damage_known=True)
        except (JournalDamaged, JournalUnavailable) as error:
            why = error.message.replace(f"{copy} cannot be read as a journal: ", "").replace(str(copy), path.name)
            raise JournalDamaged(f"{refusal}; a copy {how} cannot be read either ({why})") from None
        stack.callback(journal.close)
        if journal.path == str(copy):
            journal.path = str(path)  # a row found damaged later is named in the file the café knows
        yield journal, f"{path.name}: {faults}; read from a copy {how} (the file is left as it is)"


def _carry(entry: JournalGame | None, journal: Journal) -> str:
    """Copy the game to carry into ``journal``; the sentence for the table's note, or "" when there is none."""
    if entry is None:
        return ""
    try:
        journal.adopt(entry)
    except JournalUnavailable:
        return ""
    title = title_of(entry.game)  # the notes are read at the table, where games go by their names
    if entry.status == "over":
        return f" The last game ({title}, finished after {how_many(entry.standing())}) was read from it too."
    return f" The game in progress ({title}, {how_many(entry.standing())}) was read from it and goes on."


class _Rows(list[Any]):
    """Fetched rows that answer ``fetchone`` as a cursor would."""

    def fetchone(self) -> Any:
        return self[0] if self else None


@dataclass(frozen=True)
class JournalGame:
    """One journalled game: how it started and the steps since, in order."""

    id: int
    game: str
    start: dict[str, Any]
    data: dict[str, str]
    started: str
    status: str
    steps: list[tuple[str, dict[str, Any] | None]]
    digests: dict[str, str] = field(default_factory=dict)  # the data's content when the game began (none before)
    times: list[str] = field(default_factory=list)  # when each step was written, as journalled

    def actions(self, rows: int | None = None) -> list[dict[str, Any]]:
        """The actions in force after the last step (after the first ``rows`` rows when given), from the rows
        alone, without the rules.

        A game whose steps no longer replay (its café data changed) is still
        exported this way; rows that make no sense are passed over.
        """
        log: list[dict[str, Any]] = []
        undone: list[dict[str, Any]] = []
        for op, action in self.steps[:rows]:
            if op == "act" and isinstance(action, dict):
                log.append(action)
                undone.clear()
            elif op == "undo" and log:
                undone.append(log.pop())
            elif op == "redo" and undone:
                log.append(undone.pop())
        return log

    def standing(self, rows: int | None = None) -> int:
        """How many steps the game stands at (after its first ``rows`` rows when given): the count a person is
        told, as `play` ("2 steps so far"), `export` and `export --list` tell it. Its rows count each undo and
        redo too: a game of 2 steps, one taken back and put back, was "finished (4 steps)" at home."""
        return len(self.actions(rows))


@dataclass(frozen=True)
class GameSummary:
    """One journalled game as a list of games names it (`Journal.summaries`)."""

    id: int
    game: str
    status: str
    started: str
    last_step_at: str
    steps: int
    players: list[str]


class Journal:
    def __init__(self, path: str | Path = ":memory:") -> None:
        """Open (or create) the journal; raises `JournalDamaged` for a file SQLite cannot read whole.

        The quick check reads every page once, which for a table's journal
        takes milliseconds, so damage shows at start-up rather than midway
        through a game.
        """
        self.path = str(path)
        self._lock: int | None = None
        self.cut_off: str | None = None  # the last write, cut off before it was whole (`LogVerdict`)
        # Why a journal in memory stands in for the file (`open_journal`), in the players' words: "the card is full".
        self.not_kept = ""
        if self.path != ":memory:":
            where = Path(self.path)
            if where.is_dir():  # never taken for a damaged file: setting it aside would move a whole folder
                raise JournalUnavailable(f"{where} is a folder, not a journal file")
            try:
                where.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise JournalUnavailable(f"no folder for the journal {where}: {card_refused(exc)}") from None
            text = _text_not_journal(where)
            if text is not None:
                raise JournalForeign(f"{where} {text}, so it is left as it is")
            header = _header_damage(where)
            if header is not None:
                raise JournalDamaged(f"{where} cannot be read as a journal: {header}")
            beside = examine(where)  # before SQLite opens it: it would pass over the log, or delete it
            if beside.damage is not None:
                raise JournalDamaged(f"{where} cannot be read as a journal: {beside.damage}",
                                     steps_lost=beside.steps_lost)  # fmt: skip
            self.cut_off = beside.cut_off
            version, foreign = _judged_read_only(where)
            if version is not None:
                raise JournalDamaged(f"{where} cannot be read as a journal: {version}")
            if foreign is not None:
                raise JournalForeign(f"{where} {foreign}, so it is left as it is")
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as exc:
            raise JournalUnavailable(f"the journal {self.path} cannot be opened: {exc}") from None
        try:
            version, foreign = _version_damage(self._db), _not_ours(self._db)  # before WAL, which writes
            if version is not None:
                self._db.close()
                raise JournalDamaged(f"{self.path} cannot be read as a journal: {version}")
            if foreign is not None:
                self._db.close()
                raise JournalForeign(f"{self.path} {foreign}, so it is left as it is")
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.executescript(SCHEMA)
            self._add_digests_column()
            self._mark_version()
            (verdict,) = self._db.execute("PRAGMA quick_check").fetchone()
        except sqlite3.OperationalError as exc:  # cannot open or write (permissions, read-only, disk full)
            self._db.close()
            unopened = JournalUnavailable(f"the journal {self.path} cannot be opened: {_at_start(self.path, exc)}")
            unopened.failure = exc
            raise unopened from None
        except sqlite3.DatabaseError as exc:  # opened, but its content is not a database
            self._db.close()
            raise JournalDamaged(f"{self.path} cannot be read as a journal: {exc}") from None
        if verdict != "ok":
            self._db.close()
            raise JournalDamaged(f"{self.path} cannot be read as a journal: {first_fault(verdict)}")

    @property
    def kept_on_disk(self) -> bool:
        """Whether the steps outlive the process: an in-memory journal (a card gone read-only) does not."""
        return self.path != ":memory:"

    @classmethod
    def read_only(cls, path: str | Path, query: str = "mode=ro") -> Journal:
        """A journal opened only to read (``mode=ro`` or ``immutable=1``): no schema, no checks, no writes."""
        db = _connect_read_only(path, query)
        try:
            return cls._reading(path, db)
        except sqlite3.Error:
            db.close()
            raise

    @classmethod
    def _reading(cls, path: str | Path, db: sqlite3.Connection) -> Journal:
        """A journal that reads through ``db``, opened read-only; `sqlite3.OperationalError` when it has no games."""
        columns = {row[1] for row in db.execute("PRAGMA table_info(games)")}
        if not columns:
            raise sqlite3.OperationalError("no games table")
        journal = cls.__new__(cls)
        journal.path, journal._lock, journal._db, journal.cut_off = str(path), None, db, None
        journal._digests = "digests" if "digests" in columns else "NULL"
        return journal

    @classmethod
    def for_reading(cls, path: str | Path, damage_known: bool = False) -> Journal:
        """The journal at ``path`` opened to read its games, without writing anything to it or beside it.

        ``companion export`` opened the journal as a table does, which writes
        (WAL, the schema, the version mark): the recovery the operations guide
        gives for a card gone read-only then failed with "attempt to write a
        readonly database". With a ``-wal`` beside it (the service running,
        or a power cut) its committed steps are read through it; without one
        the file is read as immutable. Raises `JournalDamaged` or
        `JournalForeign` as opening for the table would, and
        `JournalUnavailable` when the file cannot be read at all. With
        ``damage_known`` (a copy of a damaged journal, `reading`) its header
        and log are not judged again: SQLite reads what it can of them.
        """
        text = _text_not_journal(Path(path))
        if text is not None:
            raise JournalForeign(f"{path} {text}, so it is left as it is")
        beside = None if damage_known else _header_damage(Path(path)) or beside_damage(Path(path))
        if beside is not None:
            raise JournalDamaged(f"{path} cannot be read as a journal: {beside}")
        failure = "no way to open it read-only"
        for query in _read_only_queries(path):
            db = None
            try:
                db = _connect_read_only(path, query)
                version = None if damage_known else _version_damage(db)
                foreign = _not_ours(db)
                tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
                (verdict,) = db.execute("PRAGMA quick_check").fetchone()
            except sqlite3.DatabaseError as exc:
                if db is not None:
                    db.close()
                if isinstance(exc, sqlite3.OperationalError):  # mode=ro in a read-only folder without its -shm
                    failure = str(exc)
                    continue
                raise JournalDamaged(f"{path} cannot be read as a journal: {exc}") from None
            if version is not None or foreign is not None or verdict != "ok":
                db.close()
                if version is not None:
                    raise JournalDamaged(f"{path} cannot be read as a journal: {version}")
                if foreign is not None:
                    raise JournalForeign(f"{path} {foreign}, so it is left as it is")
                raise JournalDamaged(f"{path} cannot be read as a journal: {first_fault(verdict)}")
            if "games" not in tables:  # an empty file: a journal that holds no game yet
                db.close()
                return cls()
            return cls._reading(path, db)
        raise JournalUnavailable(f"the journal {path} cannot be read: {failure}")

    def fold_log(self) -> None:
        """Copy the WAL's whole writes into the file and empty the WAL, dropping what a cut-off write left in it.

        The frames of a write cut off stay past the end of what SQLite reads
        until new writes cover them; a shorter write left some, and the next
        start after a power cut told of the same write cut off again. Nothing
        is lost by failing (another reader holding the log): the note was given.
        """
        with suppress(sqlite3.Error):
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()

    def require_writable(self) -> None:
        """Raise `JournalUnavailable` (and close) now, not at the first step, when the file cannot be written.

        A journal file or its ``-shm`` left read-only (by a copy, or by a
        command run as another user) opens and reads fine, yet then refuses
        every step of every game: the table could not play at all. A write
        rolled back at once finds that out without changing anything. Only
        the table asks; exporting from a read-only copy needs no writes.
        """
        try:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                (version,) = self._db.execute("PRAGMA user_version").fetchone()
                self._db.execute(f"PRAGMA user_version = {int(version)}")
            finally:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
        except sqlite3.Error as exc:
            self._db.close()
            raise JournalNotWritten(self.path, _at_start(self.path, exc)) from None

    def _add_digests_column(self) -> None:
        """Journals from before data digests were kept gain the column; their games simply have none.

        A journal that cannot be written (a copy on read-only media, opened to
        export a game) is still read, without digests.
        """
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(games)")}
        self._digests = "digests" if "digests" in columns else "NULL"
        if "digests" not in columns:
            try:
                self._db.execute("ALTER TABLE games ADD COLUMN digests TEXT")
                self._digests = "digests"
            except sqlite3.OperationalError:
                pass

    def _mark_version(self) -> None:
        """Mark the journal as this version's, so an older companion leaves it alone (not when read-only)."""
        (version,) = self._db.execute("PRAGMA user_version").fetchone()
        if version < JOURNAL_VERSION:
            with suppress(sqlite3.OperationalError):
                self._db.execute(f"PRAGMA user_version = {JOURNAL_VERSION}")

    def claim(self) -> None:
        """Hold the journal for this process alone, or raise `JournalInUse` naming the process that does.

        Two tables on one journal (the kiosk, and a terminal referee started
        beside it) appended to the same game in turn, and the next start could
        no longer replay it. The lock is an advisory ``flock`` on a file beside
        the journal, so readers (``companion export``) are never stopped, and
        it goes with the process, so a crash never leaves the table locked out.
        """
        if not self.kept_on_disk or self._lock is not None:
            return
        # Beside the file itself: named after a link to it, a second table got a lock of its own.
        lock_path = Path(f"{Path(self.path).resolve()}.lock")
        try:
            handle = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError:
            return  # a folder that takes the journal but not a file beside it: nothing to share it with
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = os.pread(handle, 32, 0).decode(errors="replace").strip() or "unknown"
            os.close(handle)
            self._db.close()
            raise JournalInUse(f"the journal {self.path} is in use by another companion (process {holder}); "
                               "stop it first to play its game here") from None  # fmt: skip
        try:  # only to name this process to another table: the lock holds without it
            os.ftruncate(handle, 0)
            os.pwrite(handle, str(os.getpid()).encode(), 0)
        except OSError:  # a full card found no room for the number, and the start crashed on it, again and again
            pass
        self._lock = handle

    def close(self) -> None:
        if self._lock is not None:
            os.close(self._lock)  # closing the file gives the lock up
            self._lock = None
        self._db.close()

    def begin_game(
        self,
        game: str,
        start: dict[str, Any],
        data: dict[str, str],
        digests: dict[str, str] | None = None,
        status: str = "active",
    ) -> int:
        """Record a new game; the one in progress before it is marked abandoned.

        ``status`` is "over" for a loaded position that is already over, in the
        same transaction: written after it, a full disk could leave the game
        before abandoned and an over position resumed in its place.

        On a card that is full (`card_state`) it is refused before anything is
        written: the new game's first row still fitted in the journal's pages,
        so the game before was set aside for one whose every step the card then
        refused, and the table could play neither.
        """
        if card_state(self.path) == "the card is full":
            fault = _card_words(f"under {FULL_BELOW // (1024 * 1024)} MB free", False, True)
            assert fault is not None
            raise JournalNotWritten(self.path, f"{fault[0]}; {fault[1]}")
        with self._transaction():
            self._db.execute("UPDATE games SET status = 'abandoned' WHERE status = 'active'")
            cursor = self._db.execute(
                "INSERT INTO games (game, start, data, digests, started, status) VALUES (?, ?, ?, ?, ?, ?)",
                (game, json.dumps(start), json.dumps(data), json.dumps(digests or {}), _now(), status),
            )
        return int(cursor.lastrowid or 0)

    def adopt(self, entry: JournalGame) -> int:
        """Copy a game and all its steps from another journal in one transaction, as the latest game.

        A finished game stays finished and the rest is in progress. The steps keep
        the times they were written: a finished game's last one is when it
        finished, which decides whether it may be gone back into (stamped with the
        time it was copied, last night's game read as finished this morning).
        """
        status = "over" if entry.status == "over" else "active"
        with self._transaction():
            self._db.execute("UPDATE games SET status = 'abandoned' WHERE status = 'active'")
            cursor = self._db.execute(
                "INSERT INTO games (game, start, data, digests, started, status) VALUES (?, ?, ?, ?, ?, ?)",
                (entry.game, json.dumps(entry.start), json.dumps(entry.data), json.dumps(entry.digests),
                 entry.started, status),
            )  # fmt: skip
            game_id = int(cursor.lastrowid or 0)
            times = entry.times if len(entry.times) == len(entry.steps) else [_now()] * len(entry.steps)
            self._db.executemany(
                "INSERT INTO steps (game_id, seq, op, action, at) VALUES (?, ?, ?, ?, ?)",
                [
                    (game_id, seq, op, json.dumps(action) if action is not None else None, at)
                    for seq, ((op, action), at) in enumerate(zip(entry.steps, times, strict=True), start=1)
                ],
            )
        return game_id

    def append(self, game_id: int, op: str, action: dict[str, Any] | None = None, status: str | None = None) -> None:
        """Add a step and, when the step ends or reopens the game, its new ``status``: both land or neither.

        Committed one after the other, a disk that filled up between the two
        kept the step yet refused the status: the table heard the step refused
        while the game had moved on (its last step written, the winner never
        announced, the finished game still "active").
        """
        with self._transaction():
            (seq,) = self._db.execute(
                "SELECT COALESCE(MAX(seq), 0) + 1 FROM steps WHERE game_id = ?", (game_id,)
            ).fetchone()
            self._db.execute(
                "INSERT INTO steps (game_id, seq, op, action, at) VALUES (?, ?, ?, ?, ?)",
                (game_id, seq, op, json.dumps(action) if action is not None else None, _now()),
            )
            if status is not None:
                self._db.execute("UPDATE games SET status = ? WHERE id = ?", (status, game_id))

    def active_game(self) -> JournalGame | None:
        row = self._read("SELECT id FROM games WHERE status = 'active' ORDER BY id DESC LIMIT 1").fetchone()
        return self.read_game(row[0]) if row else None

    def latest_game(self) -> JournalGame | None:
        row = self._read("SELECT id FROM games ORDER BY id DESC LIMIT 1").fetchone()
        return self.read_game(row[0]) if row else None

    def summaries(self) -> list[GameSummary]:
        """Every game in the journal, oldest first, without reading its steps: what `export --list` shows, so a
        café can find last month's games by date and players and export them by id, and what `companion results`
        sorts through. The last step is the last one written, not the latest time (a clock set back mid-game).

        Its steps are those the game stands at, as `JournalGame.actions` counts them and `play` and `export` say
        ("in progress (2 steps)", "2 actions"): each undo takes one back and each redo puts it back. Counting the
        rows listed a game played 2 steps, one of them taken back and put back, as 4.
        """
        rows = self._read(
            "SELECT g.id, g.game, g.status, g.started, g.start, (SELECT at FROM steps WHERE game_id = g.id "
            "ORDER BY seq DESC LIMIT 1), (SELECT MAX(0, COALESCE(SUM(CASE op WHEN 'undo' THEN -1 ELSE 1 END), 0)) "
            "FROM steps WHERE game_id = g.id) FROM games g ORDER BY g.id"
        )
        summaries = []
        for game_id, game, status, started, start, last, steps in rows:
            try:
                players = json.loads(start).get("players")
            except (TypeError, ValueError, AttributeError):
                players = None
            named = [str(p) for p in players] if isinstance(players, list) else []
            summaries.append(GameSummary(game_id, game, status, started, last or started, steps, named))
        return summaries

    def last_step_at(self, game_id: int) -> str | None:
        """When the game's last step was written (when it began, for one without steps), as journalled.

        For a finished game this is when it finished: the table offers to go
        back into it only the same café day (`companion.finished`).
        """
        row = self._read(
            "SELECT COALESCE((SELECT at FROM steps WHERE game_id = ? ORDER BY seq DESC LIMIT 1), started) "
            "FROM games WHERE id = ?", game_id, game_id
        ).fetchone()
        return row[0] if row else None

    def _read(self, sql: str, *params: Any) -> _Rows:
        """All rows of a query, or ``JournalDamaged`` when SQLite cannot give them.

        The quick check at start reads the file's structure, not what the rows
        say: a bad byte inside a step's text is found only when the row is read
        (``Could not decode to UTF-8``), and must not crash the start of a kiosk
        that would then restart into the same crash for ever.
        """
        try:
            return _Rows(self._db.execute(sql, params).fetchall())
        except sqlite3.Error as exc:
            raise JournalDamaged(f"{self.path} cannot be read as a journal: {exc}") from None

    def read_game(self, game_id: int) -> JournalGame | None:
        row = self._read(
            f"SELECT id, game, start, data, started, status, {self._digests} FROM games WHERE id = ?", game_id
        ).fetchone()
        if row is None:
            return None
        try:
            rows = self._read("SELECT op, action, at FROM steps WHERE game_id = ? ORDER BY seq", game_id)
            steps = [(op, json.loads(action) if action is not None else None) for op, action, _at in rows]
            digests = json.loads(row[6]) if row[6] else {}
            times = [str(at) for _op, _action, at in rows]
            return JournalGame(row[0], row[1], json.loads(row[2]), json.loads(row[3]), row[4], row[5], steps, digests,
                               times)  # fmt: skip
        except json.JSONDecodeError:
            why = f"game {game_id} has a row that is not JSON"
            raise JournalDamaged(f"{self.path} cannot be read as a journal: {why}") from None

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        """BEGIN IMMEDIATE ... COMMIT, so a write lands whole or not at all.

        A write SQLite refuses (a full disk, a card gone read-only) becomes
        ``JournalUnavailable``: the step is refused by name and the game stays
        as it was, instead of an exception that closes the app.
        """
        try:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield
                self._db.execute("COMMIT")
            except BaseException:
                if self._db.in_transaction:  # SQLite may have rolled back already (a full disk does)
                    self._db.execute("ROLLBACK")
                raise
        except sqlite3.Error as exc:
            raise JournalNotWritten(self.path, why_not_written(self.path, exc)) from None
