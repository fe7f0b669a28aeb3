"""A journal's 100-byte database header read from its bytes, before SQLite opens it, and mended on a copy.

SQLite answers a flipped byte in the header in ways that hid the damage from
the table: "unsupported file format" (the schema format number) and
"attempt to write a readonly database" (the write version) read as a card or
folder the table cannot use, so it ran from memory, never set the file aside,
and every game played was lost at the next restart; a journal version of
268 million, or of 17 (the last byte of 1 flipped), read as a journal
"written by a newer Table Companion" and was left with its game; and "file
is not a database" lost the game in progress with the file, though every row
of it was whole. The fields follow SQLite's file-format document
(https://www.sqlite.org/fileformat2.html#database_header); the values a
journal always has are those this companion's SQLite writes.
"""

from __future__ import annotations

import struct

HEADER_BYTES = 100
MAGIC = b"SQLite format 3\x00"
PAGE_SIZES = tuple(1 << shift for shift in range(9, 17))  # 512 ... 65536
TYPICAL_PAGE_SIZE = 4096  # SQLite's default, which every journal is written with


def page_size_of(head: bytes) -> int | None:
    """The page size the header gives (its value 1 meaning 65536), or None when it is not one SQLite knows."""
    (raw,) = struct.unpack_from(">H", head, 16)
    size = 65536 if raw == 1 else raw
    return size if size in PAGE_SIZES else None


def header_fault(head: bytes, newest: int) -> str | None:
    """What is wrong with a journal's 100-byte header, in words a café can pass on, or None when nothing is.

    ``newest`` is the newest journal version any release has written (this
    one's: every release so far wrote 0 or 1, see ``git log -S JOURNAL_VERSION``);
    a larger one is a damaged byte, not a newer companion's journal, which no
    release exists to write. Only fields that make SQLite refuse the file, or read it wrongly, and
    whose every right value is known are checked. The freelist and the page
    count are left to SQLite's own errors and quick check, which name them;
    bytes SQLite does not read (the reserved ones, the upper bytes of the
    schema format and of the text encoding) lose nothing, and a readable journal
    is not moved aside for them.
    """
    if len(head) < HEADER_BYTES:
        return None  # a new file, or one cut so short that SQLite's own error says enough
    if not head.startswith(MAGIC):
        return "its first 16 bytes are not the ones every SQLite file begins with (SQLite format 3)"
    if page_size_of(head) is None:
        return f"its page size ({struct.unpack_from('>H', head, 16)[0]}) is not a power of two from 512 to 65536"
    write, read = head[18], head[19]
    if write not in (1, 2) or read not in (1, 2):
        return f"its file format versions ({write}, {read}) are not 1 or 2, the only ones SQLite has written"
    if head[21:24] != b"\x40\x20\x20":
        return f"its payload fractions ({head[21]}, {head[22]}, {head[23]}) are not 64, 32 and 32"
    if head[47] > 4:  # SQLite reads the last byte alone, and refuses the file ("unsupported file format")
        return f"its schema format number ends in {head[47]}, not 1 to 4"
    if head[59] & 3 in (2, 3):  # SQLite reads the last two bits alone: UTF-16 would garble every row and name
        return f"its text encoding ends in {head[59]}, which reads as UTF-16; every journal is UTF-8"
    (version,) = struct.unpack_from(">I", head, 60)
    return version_fault(version, newest)


def version_fault(version: int, newest: int) -> str | None:
    """Why journal version ``version`` is damage when no release has written a version above ``newest``, or None.

    Read from the header before SQLite opens the file, or through SQLite
    when the version's page is in the WAL: a 17 (the last byte of 1 flipped)
    was taken for a newer companion's journal and left, the game with it.
    """
    if version <= newest:
        return None
    known = ", ".join(str(v) for v in range(newest)) + f" or {newest}"
    return f"its journal version is {version}, which no Table Companion release has written (only {known})"


def mended(head: bytes, file_size: int, with_wal: bool, version: int) -> bytes:
    """The header with every field a journal always holds set to that value, for reading a copy of the file.

    The fields `header_fault` checks, the bytes reserved at the end of each
    page, and the page count (from the file's size, with the change counter
    it is valid for) are set; a journal version no release wrote (above
    ``version``) becomes ``version`` (the reader's own), since the copy is read as a journal of
    this version either way. The rest (freelist, schema cookie) cannot be
    known, and are left as found.
    """
    fixed = bytearray(head[:HEADER_BYTES])
    fixed[:16] = MAGIC
    page_size = page_size_of(head)
    if page_size is None or file_size % page_size:
        page_size = TYPICAL_PAGE_SIZE
    struct.pack_into(">H", fixed, 16, 1 if page_size == 65536 else page_size)
    if fixed[18] not in (1, 2) or fixed[19] not in (1, 2):
        fixed[18] = fixed[19] = 2 if with_wal else 1
    fixed[20] = 0  # the companion never reserves bytes at the end of its pages
    fixed[21:24] = b"\x40\x20\x20"
    struct.pack_into(">I", fixed, 28, file_size // page_size)
    fixed[92:96] = fixed[24:28]  # the page count is valid for this change counter
    if fixed[47] > 4:
        struct.pack_into(">I", fixed, 44, 4)
    struct.pack_into(">I", fixed, 56, 1)  # UTF-8, as every journal is written
    if struct.unpack_from(">I", fixed, 60)[0] > version:
        struct.pack_into(">I", fixed, 60, version)
    return bytes(fixed)
