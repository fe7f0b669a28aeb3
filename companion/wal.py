"""A journal's write-ahead log read from its bytes, before SQLite opens it and can pass over what it lost.

SQLite treats a WAL whose header fails its checks as empty, stops reading it
at the first frame that fails its checksum, and deletes the WAL beside a main
file of 0 bytes: all in silence, and all at open, so a
card that garbled the log's first bytes (or lost the main file's pages) had
the table resume an older position, or none, with the evidence gone by the
time anyone looked. The checks follow SQLite's file-format document
(https://www.sqlite.org/fileformat2.html#walformat): a 32-byte header
(magic, format version, page size, checkpoint number, two salts, checksum),
then frames of a 24-byte header and one page each; a frame whose "size after
commit" is not 0 ends a transaction.
"""

from __future__ import annotations

import sqlite3
import struct
import sys
from dataclasses import dataclass
from pathlib import Path

WAL_MAGIC = (0x377F0682, 0x377F0683)  # the low bit says the checksums are big-endian
WAL_VERSION = 3007000
WAL_HEADER_BYTES = 32
FRAME_HEADER_BYTES = 24
PAGE_SIZES = frozenset(1 << shift for shift in range(9, 17))  # 512 ... 65536
WAL_INDEX_MX_FRAME_AT = 16  # the -shm's header: how many frames SQLite found whole
WAL_INDEX_HEADER_BYTES = 48  # kept twice, one copy after the other, then the checkpoint's record
WAL_INDEX_BACKFILL_AT = 96  # how many of the log's frames a checkpoint has copied into the main file
DB_PAGE_SIZE_AT = 16  # where the main file's header keeps its page size (1 meaning 65536)


def checksum(data: bytes, big_endian: bool, seed: tuple[int, int] = (0, 0)) -> tuple[int, int]:
    """SQLite's WAL checksum of ``data`` (a multiple of 8 bytes), continued from ``seed``."""
    s0, s1 = seed
    words = struct.unpack(f"{'>' if big_endian else '<'}{len(data) // 4}I", data)
    for x0, x1 in zip(words[0::2], words[1::2], strict=True):
        s0 = (s0 + x0 + s1) & 0xFFFFFFFF
        s1 = (s1 + x1 + s0) & 0xFFFFFFFF
    return s0, s1


def header_fault(head: bytes) -> str | None:
    """What is wrong with a WAL's 32-byte header, in the words of its checks, or None when SQLite would use it."""
    magic, version, page_size, _seq, _salt1, _salt2, sum0, sum1 = struct.unpack(">8I", head[:WAL_HEADER_BYTES])
    if magic not in WAL_MAGIC:
        return f"its magic number is {magic:#010x}, not 0x377f0682 or 0x377f0683"
    if version != WAL_VERSION:
        return f"its format version is {version}, not {WAL_VERSION}"
    if page_size not in PAGE_SIZES:
        return f"its page size is {page_size}, not a power of two from 512 to 65536"
    if checksum(head[:24], bool(magic & 1)) != (sum0, sum1):
        return "its header checksum does not match"
    return None


def _main_page_size(main: Path) -> int | None:
    try:
        with main.open("rb") as file:
            file.seek(DB_PAGE_SIZE_AT)
            raw = file.read(2)
    except OSError:
        return None
    if len(raw) < 2:
        return None
    size = 65536 if raw == b"\x00\x01" else int.from_bytes(raw, "big")
    return size if size in PAGE_SIZES else None


def _transactions(wal: bytes, page_size: int, salts: bytes) -> list[tuple[int, dict[int, bytes]]]:
    """The committed transactions of the log's run marked by ``salts``: each as its commit frame's number and
    the pages it wrote, in order.

    Every frame of a run carries its salts, so frames with others (of an
    older run, or damaged) are passed by and the run read on to the end of
    the file; frames after the last commit (a transaction cut off by a power
    cut) are left out.
    """
    frame = FRAME_HEADER_BYTES + page_size
    done: list[tuple[int, dict[int, bytes]]] = []
    pending: dict[int, bytes] = {}
    for number, at in enumerate(range(WAL_HEADER_BYTES, len(wal) - frame + 1, frame), start=1):
        page, size_after = struct.unpack(">2I", wal[at : at + 8])
        if wal[at + 8 : at + 16] != salts or page == 0:
            continue
        pending[page] = wal[at + FRAME_HEADER_BYTES : at + frame]
        if size_after:
            done.append((number, pending))
            pending = {}
    return done


def writes_missing(main: Path, transactions: list[tuple[int, dict[int, bytes]]], page_size: int, read: int) -> int:
    """How many of the log's committed transactions neither SQLite reads (those up to frame ``read``) nor the
    main file holds: the ones lost when SQLite opens the journal.

    A checkpoint copies the log's transactions, oldest first, into the main
    file; those up to the last one whose pages (with all before it) the main
    file already holds are not lost, whatever became of the log.
    """
    kept = sum(1 for commit, _pages in transactions if commit <= read)
    differing: set[int] = set()
    copied = 0
    try:
        with main.open("rb") as file:
            for number, (_commit, pages) in enumerate(transactions, start=1):
                for page, image in pages.items():
                    file.seek((page - 1) * page_size)
                    if file.read(page_size) == image:
                        differing.discard(page)
                    else:
                        differing.add(page)
                if not differing:
                    copied = number
    except OSError:
        return len(transactions) - kept
    return len(transactions) - max(kept, copied)


def frames_sqlite_reads(main: Path) -> int | None:
    """How many of the log's frames SQLite takes as written (``mxFrame`` in the WAL-index header of the
    ``-shm``, after a read-only look has rebuilt it from the log), or None when it cannot be told.

    SQLite stops at the first frame that fails its checksum: every frame
    after it is passed over, committed or not.
    """
    try:
        db = sqlite3.connect(f"{main.absolute().as_uri()}?mode=ro", uri=True)
        try:
            db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
            with Path(f"{main}-shm").open("rb") as file:
                index = file.read(WAL_INDEX_MX_FRAME_AT + 4)
        finally:
            db.close()
    except (sqlite3.Error, OSError):
        return None
    if len(index) < WAL_INDEX_MX_FRAME_AT + 4:
        return None
    return int(struct.unpack_from("=I", index, WAL_INDEX_MX_FRAME_AT)[0])  # in the machine's byte order


def index_counts(shm: bytes, wal_head: bytes) -> tuple[int, int] | None:
    """How many of the log's frames the table's SQLite had written whole and how many it had copied into the main
    file, as the ``-shm`` (its WAL-index) held them when the table stopped; None when that cannot be trusted.

    SQLite writes this header only after the frames it counts are synced
    (``synchronous=FULL``), so frames it counts were whole once: their loss is
    damage, not a power cut. It is trusted only as SQLite would trust it: both
    copies alike, its checksum right (in the machine's byte order), and its
    salts those of the log's header, when the log still has one. Read before
    any connection: the first one rebuilds it from the log.
    """
    if len(shm) < WAL_INDEX_BACKFILL_AT + 4:
        return None
    head = shm[:WAL_INDEX_HEADER_BYTES]
    if head != shm[WAL_INDEX_HEADER_BYTES : 2 * WAL_INDEX_HEADER_BYTES]:
        return None
    version, _unused, _change, initialised, _big, _page, frames = struct.unpack_from("=3I2BHI", head)
    if version != WAL_VERSION or not initialised:
        return None
    if checksum(head[:40], sys.byteorder == "big") != struct.unpack_from("=2I", head, 40):
        return None
    if len(wal_head) >= WAL_HEADER_BYTES and head[32:40] != wal_head[16:24]:
        return None  # the index of an older run of the log
    (copied,) = struct.unpack_from("=I", shm, WAL_INDEX_BACKFILL_AT)
    return int(frames), int(copied)


def _read_index(main: Path, wal_head: bytes) -> tuple[int, int] | None:
    try:
        with Path(f"{main}-shm").open("rb") as file:
            return index_counts(file.read(WAL_INDEX_BACKFILL_AT + 4), wal_head)
    except OSError:
        return None


def _write_begun(wal: bytes, page_size: int, read: int) -> str | None:
    """Where the log shows a write begun after the ``read`` frames SQLite takes, or None when it shows none.

    A frame of the log's run (its salts) past them is one (cut off before its
    commit frame, or failing its checksum); so is a piece of a frame at the
    end of the file, when its salts are the run's or it follows the last
    frame read directly (too short to hold salts). Frames of older runs, left
    past the end of a log begun again, are none.
    """
    if len(wal) < WAL_HEADER_BYTES:
        return None
    frame = FRAME_HEADER_BYTES + page_size
    salts = wal[16:24]
    whole, tail = divmod(len(wal) - WAL_HEADER_BYTES, frame)
    for number in range(read + 1, whole + 1):
        at = WAL_HEADER_BYTES + (number - 1) * frame
        if wal[at + 8 : at + 16] == salts:
            return f"frame {number} of its write-ahead log fails its checksum or has no commit after it"
    at = WAL_HEADER_BYTES + whole * frame
    if tail and (wal[at + 8 : at + 16] == salts or (tail < 16 and whole == read)):
        return f"its write-ahead log ends {tail} bytes into frame {whole + 1}"
    return None


@dataclass(frozen=True)
class LogVerdict:
    """What the files beside a journal say before SQLite opens it: ``damage`` (the journal is set aside, and
    ``steps_lost`` when writes the table had made are lost with it), or ``cut_off`` (the last write was cut off
    before it was whole, a power cut's mark: the journal is used, and the table told)."""

    damage: str | None = None
    steps_lost: bool = False
    cut_off: str | None = None


def beside_damage(main: Path) -> str | None:
    """Why the journal at ``main`` cannot be read whole for what lies beside it (`examine`), or None."""
    return examine(main).damage


def examine(main: Path) -> LogVerdict:
    """What the WAL and WAL-index beside the journal at ``main`` say of it, before SQLite opens it.

    A WAL with a damaged header is reported only when the main file lacks
    some of the transactions in it: a header torn by a power cut while the
    log was being begun again holds only what was already copied. A frame
    SQLite stops at is damage, not a power cut, when two commits or more
    follow it (each commit is synced before the next write begins, so the
    frame was written whole once), or when the ``-shm`` counts it written
    (`index_counts`): so is a log cut shorter than the frames it counts. A
    write begun past the frames SQLite reads with no such proof is the one a
    power cut cut off (`_write_begun`): SQLite passed over it in silence, and
    the table resumed a step short of what its players had entered.
    """
    wal_path = Path(f"{main}-wal")
    try:
        main_size = main.stat().st_size
        wal = wal_path.read_bytes()
    except OSError:  # no WAL (the journal was closed cleanly) or no main file: SQLite's own errors say the rest
        return LogVerdict()
    index = _read_index(main, wal[:WAL_HEADER_BYTES])  # first: any connection rebuilds it
    fault = header_fault(wal[:WAL_HEADER_BYTES]) if len(wal) > WAL_HEADER_BYTES else None
    if main_size == 0 and len(wal) > WAL_HEADER_BYTES:
        return LogVerdict(f"it is empty (0 bytes) beside a write-ahead log of {len(wal)} bytes ({wal_path.name}): "
                          "the journal's own pages are gone, with every game in it", steps_lost=True)  # fmt: skip
    page_size = _main_page_size(main)
    if page_size is None:
        return _damage(None if fault is None else _lost_note(wal_path, fault, None))
    if fault is not None:  # the header may be what is damaged: the run is told by frame 1's salts
        transactions = _transactions(wal, page_size, wal[WAL_HEADER_BYTES + 8 : WAL_HEADER_BYTES + 16])
        return _damage(_lost_note(wal_path, fault, writes_missing(main, transactions, page_size, read=0)))
    transactions = _transactions(wal, page_size, wal[16:24])
    read = frames_sqlite_reads(main)
    if read is None:
        return LogVerdict()
    if sum(1 for commit, _pages in transactions if commit > read) >= 2:
        fault = f"frame {read + 1} or one soon after fails its checksum, and writes made later follow it"
        return _damage(_lost_note(wal_path, fault, writes_missing(main, transactions, page_size, read)))
    whole = max(0, len(wal) - WAL_HEADER_BYTES) // (FRAME_HEADER_BYTES + page_size)
    if index is not None and index[0] > max(read, index[1]):
        counted = index[0]
        shown = (f"it holds {whole} whole {'frame' if whole == 1 else 'frames'}" if whole < counted else
                 f"frame {read + 1} fails its checksum")  # fmt: skip
        fault = f"{shown}, though its index ({main.name}-shm) counts {counted} frames written whole"
        lost = writes_missing(main, transactions, page_size, read) if whole >= counted else None
        return _damage(_lost_note(wal_path, fault, lost or None))
    return LogVerdict(cut_off=_write_begun(wal, page_size, read))


def _damage(note: str | None) -> LogVerdict:
    return LogVerdict(note, steps_lost=note is not None)


def _lost_note(wal_path: Path, fault: str, lost: int | None) -> str | None:
    """The note's words for a damaged log, or None when it held nothing the main file lacks."""
    if lost == 0:
        return None
    what = ("some of its last writes" if lost is None else "its last write (a step or a new game)" if lost == 1 else
            f"the last {lost} writes in it (a step or a new game each)")  # fmt: skip
    return (
        f"its write-ahead log ({wal_path.name}) is damaged ({fault}): {what}, which SQLite would have "
        "passed over without a word, are lost"
    )
