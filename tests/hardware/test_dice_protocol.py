"""The line parser: messages in, and nothing on the wire can make it raise or lose a later line."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from hardware.dice_protocol import (
    BadLine,
    DieSettled,
    Ident,
    LineParser,
    RollStart,
    SensorFault,
    SlotReport,
    checksum,
    decode,
    encode,
)


def test_every_message_round_trips() -> None:
    parser = LineParser()
    wire = b"".join(
        [
            encode("ID", "TC-DICE", "1.2", "77"),
            encode("ROLL"),
            encode("DIE", "d6", 4, 97),
            encode("DIE", "temple", "X", 100, "white"),
            encode("ERR", "cocked", "die leaning on the wall"),
            encode("SLOT", 3, "04A1B2"),
            encode("SLOT", 12, "-"),
        ]
    )
    assert parser.feed(wire) == [
        Ident("TC-DICE", "1.2", "77"),
        RollStart(),
        DieSettled("d6", 4, 0.97),
        DieSettled("temple", "X", 1.0, "white"),
        SensorFault("cocked", "die leaning on the wall"),
        SlotReport(3, "04A1B2"),
        SlotReport(12, None),
    ]


def test_checksum_is_nmea_xor() -> None:
    assert checksum("ROLL") == f"{ord('R') ^ ord('O') ^ ord('L') ^ ord('L'):02X}"
    assert encode("ROLL") == f"$ROLL*{checksum('ROLL')}\n".encode()


def test_garbage_bad_checksums_and_bad_fields_are_bad_lines() -> None:
    assert isinstance(decode(b"hello"), BadLine)
    assert decode(b"$DIE,d6,4,100*00").reason == "checksum mismatch"
    assert isinstance(decode(b"$DIE,d6,4,100"), BadLine)
    assert isinstance(decode(encode("DIE", "d6", 4, 250)[:-1]), BadLine)
    assert isinstance(decode(encode("SLOT", "three", "AA")[:-1]), BadLine)
    assert isinstance(decode(encode("WHAT")[:-1]), BadLine)
    assert isinstance(decode(b"$\xff\xfe*00"), BadLine)


def test_half_lines_wait_for_the_rest_and_a_glued_half_line_is_dropped() -> None:
    parser = LineParser()
    line = encode("DIE", "d6", 5, 100)
    assert parser.feed(line[:6]) == []
    assert parser.feed(line[6:]) == [DieSettled("d6", 5, 1.0)]
    # a half line from before an unplug, then a whole line: the whole one still counts
    assert parser.feed(b"$DIE,d6" + encode("ROLL")) == [RollStart()]


def test_a_flood_without_newlines_is_dropped_not_hoarded() -> None:
    parser = LineParser()
    messages = parser.feed(b"x" * 1000)
    assert [m.reason for m in messages if isinstance(m, BadLine)] == ["line too long"]
    assert parser.feed(encode("ROLL")) == [RollStart()]


@given(st.binary(max_size=300), st.integers(1, 6))
def test_any_noise_before_a_line_never_raises_nor_hides_it(noise: bytes, value: int) -> None:
    parser = LineParser()
    parser.feed(noise)
    messages = parser.feed(b"\n" + encode("DIE", "d6", value, 100))
    assert messages[-1] == DieSettled("d6", value, 1.0)


def test_a_line_split_after_noise_without_newline_still_counts() -> None:
    """A sensor booting at the wrong baud rate chatters with no newline; its first real line comes in two reads."""
    parser = LineParser()
    line = encode("DIE", "d6", 4, 100)
    first = parser.feed(b"\x8f\xfe" * 78 + line[:10])  # past MAX_LINE only with the line's start
    assert [m.reason for m in first if isinstance(m, BadLine)] == ["line too long"]
    assert parser.feed(line[10:]) == [DieSettled("d6", 4, 1.0)]


@given(st.binary(min_size=100, max_size=400).map(lambda b: b.replace(b"\n", b"")), st.integers(1, 6), st.data())
def test_noise_glued_to_a_line_split_anywhere_never_hides_it(noise: bytes, value: int, data: st.DataObject) -> None:
    line = encode("DIE", "d6", value, 100)
    cut = data.draw(st.integers(1, len(line) - 1))
    parser = LineParser()
    parser.feed(noise + line[:cut])
    assert parser.feed(line[cut:])[-1] == DieSettled("d6", value, 1.0)


def test_die_type_and_colour_are_read_in_any_case_like_the_message_name() -> None:
    assert decode(encode("die", "D20", 3, 100, "RED")[:-1]) == DieSettled("d20", 3, 1.0, "red")


@given(st.integers(1, 400), st.sampled_from([("ERR", "jam", "x" * 300), ("DIE", "d6", "4" * 200, 100),
                                              ("DIE", "d6", 4, 100, "r" * 200)]))
def test_a_line_past_the_limit_is_dropped_however_it_arrives(chunk: int, fields: tuple) -> None:
    """Only a run without a newline was held to MAX_LINE: the same long line arriving in one read (a slow
    reader, a socket:// sensor) was taken, its 200-digit die value or 300-letter fault read out at the table."""
    line = encode(*fields)
    parser = LineParser()
    messages = [m for start in range(0, len(line), chunk) for m in parser.feed(line[start : start + chunk])]
    assert all(isinstance(m, BadLine) for m in messages), messages
    assert "line too long" in {m.reason for m in messages}
    assert parser.feed(encode("ROLL")) == [RollStart()]


def test_fields_padded_with_blanks_are_read_as_their_value() -> None:
    """Firmware printing with a field width (``sprintf("%2d")``) sent ``$DIE,d6, 4,100``: its " 4" was no face of
    any die, and every throw was refused as "The die reads  4, not applied"; a tag " 04A1" was an unknown tag."""
    assert decode(encode("DIE", " d6", " 4", " 95", "red ")[:-1]) == DieSettled("d6", 4, 0.95, "red")
    assert decode(encode("SLOT", " 3", " 04A1 ")[:-1]) == SlotReport(3, "04A1")
    assert decode(encode("SLOT", "3", " - ")[:-1]) == SlotReport(3, None)
    assert decode(encode(" ERR", "cocked", " die leaning")[:-1]) == SensorFault("cocked", "die leaning")


def test_a_line_missing_a_field_says_which_not_how_python_failed() -> None:
    """"a line could not be read (bad DIE fields: list index out of range)" was said at the table."""
    assert decode(encode("DIE", "d6")[:-1]).reason == "bad DIE fields: a die type and a value are needed"
    assert decode(encode("SLOT")[:-1]).reason == "bad SLOT fields: a slot number is needed"


def test_a_whole_line_glued_to_the_next_by_a_lost_newline_is_still_read() -> None:
    """A newline lost on the wire glued $ROLL to its $DIE, and only the $DIE was read: the throw looked like the
    same throw read again. A half line glued to a whole one is still dropped without a word."""
    parser = LineParser()
    assert parser.feed(encode("ROLL")[:-1] + encode("DIE", "d6", 4, 100)) == [RollStart(), DieSettled("d6", 4, 1.0)]
    assert parser.feed(b"$DIE,d6" + encode("ROLL")[:-1] + encode("SLOT", 2, "-")) == [RollStart(), SlotReport(2, None)]
