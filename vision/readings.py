"""Typed observations the vision adapter hands to the rules core's input controller.

Plain dataclasses with no OpenCV types in them, so the controller (which must
not import cv2 or numpy) can consume them as they are.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

Box = tuple[float, float, float, float]
"""x0, y0, x1, y1 in frame pixels."""


@dataclass(frozen=True)
class DieReading:
    """One die's top face. ``value`` is 1..6 for a d6, or 1..n / "X" for the temple die;
    ``face`` carries extra face data (the temple die's background colour), else None."""

    value: int | str
    face: str | None
    confidence: float
    box: Box


TAKEN_RGB = (80, 220, 90)  # a die drawn in this colour is one the table would take as read ...
ASKED_RGB = (255, 160, 30)  # ... and in this one, one it would ask the players to confirm with a tap
SLOT_RGB = (40, 150, 255)  # the board's slots, outlined where the card reader finds them


def sure_text(confidence: float) -> str:
    """A confidence in words; one that is no number (a third-party reader's NaN) says so instead of raising."""
    return f"{round(100 * confidence)}% sure" if math.isfinite(confidence) else "not sure"


def dice_text(readings, each_sure: bool = True) -> str:
    """Dice in the words of the table: "die shows 5 (97% sure)", "2 dice show 4 (..), 6 (..)", "no die in view".

    `vision watch` prints it and the app's camera screen shows it under the
    picture, so both say a reading the same way.
    """
    texts = [f"{r.value}{' on ' + r.face if r.face else ''}" + (f" ({sure_text(r.confidence)})" if each_sure else "")
             for r in readings]
    if not texts:
        return "no die in view"
    return ("die shows " if len(texts) == 1 else f"{len(texts)} dice show ") + ", ".join(texts)


@dataclass(frozen=True)
class SlotReading:
    """Which card lies in one board slot (None: the slot is empty or unreadable)."""

    slot: int
    card: str | None
    confidence: float
    rotation: int = 0
    """Quarter turns clockwise of the card relative to its reference image."""
    covered: bool = False
    """Something lies over most of the slot (a hand, an arm): ``card`` is what the rest of it looks like, at
    confidence 0, so that the slot keeps the card it had."""
    beside_covered: bool = False
    """A slot beside a covered one: what covers its neighbour may reach over its edge too little to be seen, so it
    is read at confidence 0 too and keeps the card it had."""


@dataclass(frozen=True)
class BoardReading:
    """All slots of a board at once, as the card reader accepts them after settling."""

    slots: tuple[SlotReading, ...] = field(default_factory=tuple)

    def cards(self) -> dict[int, str | None]:
        return {s.slot: s.card for s in self.slots}

    def confidence(self) -> float:
        return min((s.confidence for s in self.slots), default=0.0)


@dataclass(frozen=True)
class SourceProblem:
    """A camera source failed; the app shows ``message`` and keeps running (it retries)."""

    source: str
    message: str
