"""Settling: wait for stillness, read several frames, vote, and attach a confidence.

A roll is reported once per still period. The result goes to the table only when
its confidence reaches `confirm_below`; otherwise it is marked for a one-tap
confirm (the UI offers it, the player taps or corrects it).
"""

from __future__ import annotations

import numbers
from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import numpy as np

from companion.observations import CONFIRM_BELOW
from vision.frames import as_bgr
from vision.motion import MotionGate

T = TypeVar("T")


def unit_confidence(value: object) -> float:
    """A reader's confidence as the share from 0 to 1 it promises; anything else counts as 0, so the table asks.

    A third-party reader can give None, text ("0.9"), a bool, NaN or a percent
    (95). None and text made the vote raise on every still frame, so the roll
    was never read and the table heard only a numpy error; True and 95 voted
    as sure and the die was applied without the tap. numpy's numbers are
    numbers; a bool is a yes or no, not a share.
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        return 0.0
    number = float(value)
    return number if 0.0 <= number <= 1.0 else 0.0  # NaN fails both comparisons


@dataclass(frozen=True)
class Settled(Generic[T]):
    """A voted reading. `needs_confirm` means: show it for a tap, do not apply it."""

    reading: T
    confidence: float
    votes: int
    frames: int
    needs_confirm: bool


class Settler(Generic[T]):
    """Feeds frames through a motion gate and a reader; emits one voted reading per still period.

    `key` turns a reading into something comparable (for dice: the sorted values),
    `confidence_of` gives a reading's own confidence. Needing `votes` agreeing frames
    out of the last `window` still ones trades latency against misreads.

    A still scene with nothing to read (an empty tray between rolls, which on a
    café table is most of the day) is read on every frame only until `window`
    frames have come back empty; after that, one still frame in `idle_every`,
    so a camera at 30 frames a second costs the Pi two reads a second instead
    of thirty, and a die that appears without motion is still found within
    half a second. Motion starts the full rate again.
    """

    def __init__(
        self,
        read: Callable[[np.ndarray], T],
        key: Callable[[T], Hashable],
        confidence_of: Callable[[T], float],
        gate: MotionGate | None = None,
        votes: int = 3,
        window: int = 5,
        confirm_below: float = CONFIRM_BELOW,
        accept_empty: bool = False,
        idle_every: int = 15,
    ) -> None:
        self.read = read
        self.key = key
        self.confidence_of = confidence_of
        self.gate = gate or MotionGate()
        self.votes = votes
        self.window = window
        self.confirm_below = confirm_below
        self.accept_empty = accept_empty
        self.idle_every = max(1, idle_every)
        self.history: list[tuple[Hashable, T]] = []
        self.reported = False
        self.empty_reads = 0  # consecutive reads with nothing in this still period
        self.idle_frames = 0  # still frames passed over since the reads came back empty
        self.reads = 0  # every read, for measuring what a still tray costs

    def feed(self, frame: np.ndarray | None) -> Settled[T] | None:
        """One frame in; a Settled reading out when the vote is decided, else None."""
        bgr = as_bgr(frame)  # converted once here: the gate and the reader take it as it is
        if bgr is None:
            # A glitch (a 1 px frame, a frame of another layout) is no motion: taken as motion, it restarted
            # the still period and the dice lying there all along were reported a second time.
            return None
        frame = bgr
        if not self.gate.is_still(frame):
            self.history.clear()
            self.reported = False
            self.empty_reads = self.idle_frames = 0
            return None
        if self.reported:
            return None
        if self.empty_reads >= self.window:
            self.idle_frames += 1
            if self.idle_frames % self.idle_every:
                return None
        reading = self.read(frame)
        self.reads += 1
        k = self.key(reading)
        if not self.accept_empty and not k:
            self.history.clear()
            self.empty_reads += 1
            return None
        self.empty_reads = self.idle_frames = 0
        self.history.append((k, reading))
        recent = self.history[-self.window:]
        best, count = Counter(key for key, _ in recent).most_common(1)[0]
        if count >= self.votes or len(recent) >= self.window:
            agreeing = [r for key, r in recent if key == best]
            # A reader's confidence that is no number from 0 to 1 (NaN compares as neither high nor low) is none:
            # asked.
            own = float(np.mean([unit_confidence(self.confidence_of(r)) for r in agreeing]))
            confidence = own * count / len(recent)
            self.reported = True
            # Without agreement within the window the plurality is reported, to be confirmed by a tap.
            asked = count < self.votes or confidence < self.confirm_below
            return Settled(agreeing[-1], confidence, count, len(recent), asked)
        return None


def dice_key(readings: Sequence) -> tuple:
    """Dice are compared as the sorted multiset of their values (with face data), ignoring positions."""
    return tuple(sorted((str(r.value), r.face or "") for r in readings))


def dice_confidence(readings: Sequence) -> float:
    """The least sure die's confidence: one misread die makes the roll wrong. Each die's is taken through
    `unit_confidence`, since comparing a None with a number raised before any vote was counted."""
    return min((unit_confidence(r.confidence) for r in readings), default=0.0)


def dice_settler(reader: Any, **kwargs: Any) -> Settler:
    """A settler for any dice reader with `read(frame) -> list[DieReading]`."""
    return Settler(reader.read, dice_key, dice_confidence, **kwargs)
