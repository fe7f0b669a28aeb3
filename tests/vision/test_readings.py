"""The words a reading is said in, shared by `vision watch` and the camera screen."""

from __future__ import annotations

from vision.readings import DieReading, dice_text


def test_dice_are_said_with_how_sure_the_reader_is() -> None:
    readings = [DieReading(4, None, 0.97, (0, 0, 9, 9)), DieReading("X", "red", 0.5, (9, 0, 19, 9))]
    assert dice_text(readings) == "2 dice show 4 (97% sure), X on red (50% sure)"
    assert dice_text([]) == "no die in view"


def test_a_confidence_that_is_no_number_is_said_not_raised() -> None:
    """A reader handing NaN made the watch line and the camera screen raise on `round`."""
    assert dice_text([DieReading(3, None, float("nan"), (0, 0, 9, 9))]) == "die shows 3 (not sure)"
