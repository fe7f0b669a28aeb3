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


def test_slots_the_temple_die_lies_on_are_told_as_the_die_s() -> None:
    """The die rolled onto the board covers a slot: "a cup, a hand?" sent a player looking for a cup."""
    assert covered_text((5,), (4, 6), die_on=(5,)).startswith(
        "slot 5 read covered: the die lies on it; the table keeps")
    assert covered_text((5, 6), die_on=(5, 6)).startswith("slots 5 and 6 read covered: the die lies over them;")
    assert covered_text((5, 9), die_on=(5,)).startswith(
        "slots 5 and 9 read covered: the die lies on slot 5, and something else over the rest (a cup, a hand?)")
    notice = CoveredNotice(after=2)
    assert [notice.update(board((5,)), frozenset({5, 7})) for _ in range(2)] == [None, covered_text((5,), (),
                                                                                                    (5,))]


def test_the_slots_under_a_die_are_those_it_lies_over_well_into() -> None:
    from vision.covered_notice import slots_under
    from vision.readings import DieReading

    outlines = {1: ((0, 0), (100, 0), (100, 100), (0, 100)), 2: ((100, 0), (200, 0), (200, 100), (100, 100))}
    die = DieReading(5, "red", 0.9, (130.0, 10.0, 190.0, 70.0))  # wholly in slot 2 but for its corner
    assert slots_under([die], outlines) == {2} and slots_under([], outlines) == set()
    across = DieReading(5, "red", 0.9, (80.0, 10.0, 140.0, 70.0))  # its middle in slot 2, a third over slot 1
    assert slots_under([across], outlines) == {1, 2}
    assert slots_under([die], None) == set()
