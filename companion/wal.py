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
from pathlib import Path

WAL_MAGIC = (0x377F0682, 0x377F0683)  # the low bit says the checksums are big-endian
WAL_VERSION = 3007000
WAL_HEADER_BYTES = 32
FRAME_HEADER_BYTES = 24
PAGE_SIZES = frozenset(1 << shift for shift in range(9, 17))  # 512 ... 65536
WAL_INDEX_MX_FRAME_AT = 16  # the -shm's header: how many frames SQLite found whole
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


def beside_damage(main: Path) -> str | None:
    """Why the journal at ``main`` cannot be read whole for what lies beside it, or None when SQLite may open it.

    A WAL with a damaged header is reported only when the main file lacks
    some of the transactions in it: a header torn by a power cut while the
    log was being begun again holds only what was already copied. A frame
    SQLite stops at is damage, not a power cut, only when two commits or
    more follow it: each commit is synced (``synchronous=FULL``) before the
    next write begins, so the frame was written whole once. A damaged frame
    in the last write alone looks like that write cut off, and is left so.
    """
    wal_path = Path(f"{main}-wal")
    try:
        main_size = main.stat().st_size
        with wal_path.open("rb") as file:
            head = file.read(WAL_HEADER_BYTES + 1)
            fault = header_fault(head) if len(head) > WAL_HEADER_BYTES else None
            if main_size == 0 and len(head) > WAL_HEADER_BYTES:
                size = wal_path.stat().st_size
                return (f"it is empty (0 bytes) beside a write-ahead log of {size} bytes ({wal_path.name}): "
                        "the journal's own pages are gone, with every game in it")  # fmt: skip
            file.seek(0)
            wal = file.read()
    except OSError:  # no WAL (the journal was closed cleanly) or no main file: SQLite's own errors say the rest
        return None
    page_size = _main_page_size(main)
    if page_size is None:
        return None if fault is None else _lost_note(wal_path, fault, None)
    if fault is not None:  # the header may be what is damaged: the run is told by frame 1's salts
        transactions = _transactions(wal, page_size, wal[WAL_HEADER_BYTES + 8 : WAL_HEADER_BYTES + 16])
        return _lost_note(wal_path, fault, writes_missing(main, transactions, page_size, read=0))
    transactions = _transactions(wal, page_size, wal[16:24])
    read = frames_sqlite_reads(main)
    if read is None or sum(1 for commit, _pages in transactions if commit > read) < 2:
        return None  # one write at most past what SQLite reads: the one a power cut may have cut off
    fault = f"frame {read + 1} or one soon after fails its checksum, and writes made later follow it"
    return _lost_note(wal_path, fault, writes_missing(main, transactions, page_size, read))


def _lost_note(wal_path: Path, fault: str, lost: int | None) -> str | None:
    """The note's words for a damaged log, or None when it held nothing the main file lacks."""
    if lost == 0:
        return None
    what = ("some of its last writes" if lost is None else
            f"the last {lost} {'write' if lost == 1 else 'writes'} in it (a step or a new game each)")  # fmt: skip
    return (
        f"its write-ahead log ({wal_path.name}) is damaged ({fault}): {what}, which SQLite would have "
        "passed over without a word, are lost"
    )
