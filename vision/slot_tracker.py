"""Which card the table takes for each slot: a slot's card changes only after several steady, sure readings.

A hand laying a card, a pawn moved over one, a frame caught mid-shuffle: single readings come and go, and the
game must not see each of them as a change.
"""

from __future__ import annotations

import numpy as np

from vision.readings import BoardReading, SlotReading


class SlotTracker:
    """Accepts a slot's new card only after `steady` consecutive confident frames agree on it."""

    def __init__(self, steady: int = 3, min_confidence: float = 0.25) -> None:
        self.steady = steady
        self.min_confidence = min_confidence
        self.accepted: dict[int, SlotReading] = {}
        self.candidate: dict[int, tuple[str | None, int]] = {}

    def update(self, reading: BoardReading | None) -> list[SlotReading]:
        """Feed one frame's reading; returns the slots whose accepted card changed."""
        if reading is None:
            return []
        changed = []
        for slot in reading.slots:
            current = self.accepted.get(slot.slot)
            if not self.counts(slot.confidence):
                continue
            if current is not None and current.card == slot.card:
                self.candidate.pop(slot.slot, None)
                continue
            card, count = self.candidate.get(slot.slot, (slot.card, 0))
            count = count + 1 if card == slot.card else 1
            self.candidate[slot.slot] = (slot.card, count)
            if count >= self.steady:
                self.accepted[slot.slot] = slot
                self.candidate.pop(slot.slot, None)
                changed.append(slot)
        return changed

    def board(self) -> BoardReading:
        return BoardReading(tuple(self.accepted[k] for k in sorted(self.accepted)))

    def counts(self, confidence: object) -> bool:
        """Whether a slot's reading is sure enough to count towards its card.

        A confidence that is no number from 0 to 1 (NaN, None, 95 from a reader
        giving percent) comes from a broken reader, not a sure one: NaN compares
        as neither low nor high, so its card was accepted and the table applied
        it without the confirm tap.
        """
        if isinstance(confidence, bool) or not isinstance(confidence, (int, float, np.integer, np.floating)):
            return False
        return self.min_confidence <= float(confidence) <= 1.0
