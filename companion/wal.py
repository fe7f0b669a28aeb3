"""A journal's write-ahead log read from its bytes, before SQLite opens it and can pass over what it lost.

SQLite treats a WAL whose header fails its checks as empty, and deletes the
WAL beside a main file of 0 bytes: both in silence, and both at open, so a
card that garbled the log's first bytes (or lost the main file's pages) had
the table resume an older position, or none, with the evidence gone by the
time anyone looked. The checks follow SQLite's file-format document
(https://www.sqlite.org/fileformat2.html#walformat): a 32-byte header
(magic, format version, page size, checkpoint number, two salts, checksum),
then frames of a 24-byte header and one page each; a frame whose "size after
commit" is not 0 ends a transaction.
"""

from __future__ import annotations

import struct
from pathlib import Path

WAL_MAGIC = (0x377F0682, 0x377F0683)  # the low bit says the checksums are big-endian
WAL_VERSION = 3007000
WAL_HEADER_BYTES = 32
FRAME_HEADER_BYTES = 24
PAGE_SIZES = frozenset(1 << shift for shift in range(9, 17))  # 512 ... 65536
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


def _transactions(wal: bytes, page_size: int) -> list[dict[int, bytes]]:
    """The committed transactions of the log's current run, each as the pages it wrote, in order.

    The header may be what is damaged, so the run is told by the salts of
    frame 1 (every frame of a run carries them) rather than the header's; a
    frame that is cut short or carries other salts ends it, and frames after
    the last commit (a transaction cut off by a power cut) are left out.
    """
    frame = FRAME_HEADER_BYTES + page_size
    salts = wal[WAL_HEADER_BYTES + 8 : WAL_HEADER_BYTES + 16]
    done: list[dict[int, bytes]] = []
    pending: dict[int, bytes] = {}
    for at in range(WAL_HEADER_BYTES, len(wal) - frame + 1, frame):
        page, size_after = struct.unpack(">2I", wal[at : at + 8])
        if wal[at + 8 : at + 16] != salts or page == 0:
            break
        pending[page] = wal[at + FRAME_HEADER_BYTES : at + frame]
        if size_after:
            done.append(pending)
            pending = {}
    return done


def writes_missing(main: Path, wal: bytes, page_size: int) -> int:
    """How many of the log's committed transactions the main file lacks: the ones a passed-over log loses.

    A checkpoint copies the log's transactions, oldest first, into the main
    file; the count is of those after the last one whose pages (with all
    before it) the main file already holds.
    """
    transactions = _transactions(wal, page_size)
    differing: set[int] = set()
    copied = 0
    try:
        with main.open("rb") as file:
            for number, pages in enumerate(transactions, start=1):
                for page, image in pages.items():
                    file.seek((page - 1) * page_size)
                    if file.read(page_size) == image:
                        differing.discard(page)
                    else:
                        differing.add(page)
                if not differing:
                    copied = number
    except OSError:
        return len(transactions)
    return len(transactions) - copied


def beside_damage(main: Path) -> str | None:
    """Why the journal at ``main`` cannot be read whole for what lies beside it, or None when SQLite may open it.

    A WAL with a damaged header is reported only when the main file lacks
    some of the transactions in it: a header torn by a power cut while the
    log was being begun again holds only what was already copied.
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
            if fault is None:  # a header alone is all SQLite writes before the first frame: nothing in it yet
                return None
            file.seek(0)
            wal = file.read()
    except OSError:  # no WAL (the journal was closed cleanly) or no main file: SQLite's own errors say the rest
        return None
    page_size = _main_page_size(main)
    lost = writes_missing(main, wal, page_size) if page_size else None
    if lost == 0:
        return None
    what = ("some of its last writes" if lost is None else
            f"the last {lost} {'write' if lost == 1 else 'writes'} in it (a step or a new game each)")  # fmt: skip
    return (
        f"its write-ahead log ({wal_path.name}) is damaged ({fault}): {what}, which SQLite would have "
        "passed over without a word, are lost"
    )
