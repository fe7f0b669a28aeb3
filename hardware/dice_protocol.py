"""The dice sensor's line protocol: encoding and a parser that never trusts the wire.

Pure standard library on purpose: the parser is the part worth testing
exhaustively, and it must run without a serial port, in the simulator and in
tests. See docs/hardware.md for the protocol itself.

A line is ``$BODY*XX`` followed by ``\\n`` (``\\r\\n`` accepted), where BODY is
comma-separated fields and XX the XOR of every byte of BODY in hex. Anything
else on the wire (boot noise, a half line after a reconnect, a line whose
checksum fails) is reported as :class:`BadLine` and otherwise ignored.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import pairwise

MAX_LINE = 160  # bytes; a longer run without a newline is noise, not a message
# Around a line, not part of it: blanks, and NULs, which some firmware writes as a string's terminator and a
# USB adapter reads from a line held low at power-up.
PADDING = b" \t\r\n\x00"
LINE_END = re.compile(rb"[\r\n]")


@dataclass(frozen=True)
class Ident:
    """Sent on power-up and in answer to ``$ID?``: which device is on the port."""

    model: str
    firmware: str
    serial: str


@dataclass(frozen=True)
class RollStart:
    """The dice started moving."""


@dataclass(frozen=True)
class DieSettled:
    """One die has stopped: its type, value, how sure the device is, and its colour if any."""

    die: str
    value: int | str
    confidence: float
    colour: str | None = None


@dataclass(frozen=True)
class SensorFault:
    """The device says it could not do its job (a cocked die, an unreadable face)."""

    code: str
    text: str


@dataclass(frozen=True)
class SlotReport:
    """A tag reader under a board slot: the tag now lying there, or None when empty."""

    slot: int
    tag: str | None


@dataclass(frozen=True)
class BadLine:
    """Something on the wire that is not a valid message; kept for the log and the counters."""

    reason: str
    raw: bytes


Message = Ident | RollStart | DieSettled | SensorFault | SlotReport | BadLine


def checksum(body: str) -> str:
    value = 0
    for byte in body.encode("ascii"):
        value ^= byte
    return f"{value:02X}"


def encode(*fields: object) -> bytes:
    """One framed line, e.g. ``encode("DIE", "d6", 4, 100)`` -> ``b"$DIE,d6,4,100*33\\n"``."""
    body = ",".join(str(f) for f in fields)
    return f"${body}*{checksum(body)}\n".encode("ascii")


def _value(text: str) -> int | str:
    return int(text) if text.lstrip("-").isdigit() else text


def decode(line: bytes) -> Message:
    """One line without its newline into a message; never raises."""
    raw = line
    line = line.strip(PADDING)
    start = line.rfind(b"$")
    if start < 0:
        return BadLine("no start marker", raw)
    line = line[start:]  # noise before the marker (a half line glued to a whole one) is dropped
    if len(line) > MAX_LINE:  # as when it comes in pieces (LineParser.feed): how it was read must not matter
        return BadLine("line too long", raw[:MAX_LINE])
    star = line.rfind(b"*")
    if star < 0 or len(line) - star != 3:
        return BadLine("no checksum", raw)
    try:
        body = line[1:star].decode("ascii")
        given = line[star + 1 :].decode("ascii").upper()
    except UnicodeDecodeError:
        return BadLine("not ASCII", raw)
    if checksum(body) != given:
        return BadLine("checksum mismatch", raw)
    if not body.isprintable():
        # A NUL, ESC or other control byte is no part of any field, however the checksum came out. Let through,
        # it reached the terminal and the screen inside a die value or fault text: "\x1b[2J" in an $ERR cleared
        # the referee's screen, and a die value "\x004" was announced as "The die reads 4, not applied".
        return BadLine("control characters", raw)
    # Blanks around a field are padding: firmware printing with a field width (sprintf "%2d") sent " 4", which
    # no die shows, and every throw was refused.
    kind, *fields = (field.strip(" \t") for field in body.split(","))
    try:
        return _message(kind.upper(), fields, raw)
    except (ValueError, IndexError) as error:  # IndexError: a field the checks above missed; never raise
        return BadLine(f"bad {kind} fields: {error}", raw)


def _whole(text: str, what: str) -> int:
    """A whole-number field, or a ValueError that names the field rather than Python's int()."""
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"{what} {text!r} is no whole number") from None


def _message(kind: str, fields: list[str], raw: bytes) -> Message:
    if kind == "ID":
        model, firmware, serial = [*fields, "", "", ""][:3]
        return Ident(model, firmware, serial)
    if kind == "ROLL":
        return RollStart()
    if kind == "DIE":
        if len(fields) < 2 or not fields[0] or not fields[1]:
            raise ValueError("a die type and a value are needed")
        die, value = fields[0], fields[1]
        confidence = _whole(fields[2], "confidence") / 100 if len(fields) > 2 and fields[2] else 1.0
        if not 0 <= confidence <= 1:
            raise ValueError("confidence is 0-100")
        colour = fields[3].lower() if len(fields) > 3 and fields[3] else None
        # The message name is read in any case, so the die type and colour are too ("D20", "RED").
        return DieSettled(die.lower(), _value(value), confidence, colour)
    if kind == "ERR":
        return SensorFault(fields[0] if fields else "unknown", ",".join(fields[1:]))
    if kind == "SLOT":
        if not fields or not fields[0]:
            raise ValueError("a slot number is needed")
        slot = _whole(fields[0], "slot")
        tag = fields[1] if len(fields) > 1 and fields[1] not in ("", "-") else None
        return SlotReport(slot, tag)
    return BadLine(f"unknown message {kind!r}", raw)


def _glued(line: bytes) -> list[Message]:
    """The whole messages before the last ``$`` of a line: lines whose newline was lost on the wire.

    ``decode`` reads a line from its last marker, which drops a half line glued
    to a whole one, but also a whole ``$ROLL*1D`` glued to its ``$DIE``: the
    throw then looked like the last one read again. What is not a whole
    message there is dropped as before.
    """
    starts = [found.start() for found in re.finditer(rb"\$", line)]
    pieces = (decode(line[start:end]) for start, end in pairwise(starts))
    return [piece for piece in pieces if not isinstance(piece, BadLine)]


class LineParser:
    """Bytes in, messages out; holds at most one partial line between calls."""

    def __init__(self) -> None:
        self._buffer = bytearray()

    def reset(self) -> None:
        """Forget a partial line, e.g. after the device was unplugged mid-line."""
        self._buffer.clear()

    def feed(self, data: bytes) -> list[Message]:
        """The messages completed by ``data``; a line ends at a newline, or at a carriage return.

        Firmware ending its lines with a lone CR (``Serial.print("...\\r")``) had
        every line held as one endless half line: no roll was ever read, and the
        table was told to check the baud rate. A line of padding alone (a NUL
        after each newline) is nothing, not an unreadable line at every roll.
        """
        self._buffer += data
        messages: list[Message] = []
        while True:
            found = LINE_END.search(self._buffer)
            if found is None:
                break
            end = found.start()
            line = bytes(self._buffer[:end])
            del self._buffer[: end + 1]
            if line.strip(PADDING):
                messages += [*_glued(line), decode(line)]
        if len(self._buffer) > MAX_LINE:
            # Noise with no newline (a wrong baud rate, boot chatter) may be followed by the start of a
            # real line whose rest is still on the wire: keep from its '$' on, drop only what is before.
            start = self._buffer.rfind(b"$")
            keep = start if start > 0 and len(self._buffer) - start <= MAX_LINE else len(self._buffer)
            messages.append(BadLine("line too long", bytes(self._buffer[: min(keep, MAX_LINE)])))
            del self._buffer[:keep]
        return messages
