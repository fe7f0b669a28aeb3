"""What the table hears of slots that stay covered, and of the slots beside them that wait with them."""

from __future__ import annotations

from vision.covered_notice import CLEAR_TEXT, CoveredNotice, covered_text
from vision.readings import BoardReading, SlotReading


def board(covered: tuple[int, ...], beside: tuple[int, ...] = ()) -> BoardReading:
    return BoardReading(tuple(SlotReading(n, None, 0.0 if n in covered + beside else 0.9, covered=n in covered,
                                          beside_covered=n in beside) for n in range(1, 13)))


def test_the_slots_waiting_beside_covered_ones_are_named() -> None:
    assert covered_text((3, 5), (2, 4, 6)).endswith(
        "until they read clear, and reads no card laid in slots 2, 4 and 6 beside them meanwhile")
    assert covered_text((3,), (2,)).endswith("and reads no card laid in slot 2 beside it meanwhile")
    assert covered_text((12,)).endswith("the table keeps the cards it saw there until they read clear")


def test_only_slots_covered_read_after_read_are_told_once_and_their_clearing_too() -> None:
    notice = CoveredNotice(after=3)
    told = [notice.update(reading) for reading in
            [board((3,), (2, 4))] * 2 + [board(())] + [board((3,), (2, 4))] * 4 + [None, board(())]]
    assert told[:6] == [None, None, None, None, None, covered_text((3,), (2, 4))]
    assert told[6:] == [None, None, CLEAR_TEXT]
