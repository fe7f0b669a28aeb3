"""Telling a person when the same board slots stay covered, and when they clear.

A covered slot keeps the card it had (`SlotReading.covered`), so a cup left on
a card, or a café's deck not taught yet (every slot matching no card), kept the
camera from seeing cards laid there, and nobody learnt why; nor why a card
laid beside it was not taken (the slots beside a covered one wait with it,
`SlotReading.beside_covered`). A hand laying a card covers a slot for a
moment: only slots covered for ``after`` reads in a row are told.
"""

from __future__ import annotations

from typing import Any

CLEAR_TEXT = "no slot looks covered now: the path cards are read"


def _named(slots: tuple[int, ...]) -> str:
    return f"slot {slots[0]}" if len(slots) == 1 else f"slots {', '.join(map(str, slots[:-1]))} and {slots[-1]}"


def covered_text(slots: tuple[int, ...], beside: tuple[int, ...] = ()) -> str:
    """What a person hears of slots that stay covered, and of the slots beside them, which wait with them: a card
    laid there meanwhile is not taken, and the café should know why."""
    told = (f"{_named(slots)} read covered: something lies over the card (a cup, a hand?), or the café's cards are "
            "not taught yet; the table keeps the cards it saw there until they read clear")
    if not beside:
        return told
    return f"{told}, and reads no card laid in {_named(beside)} beside {'it' if len(slots) == 1 else 'them'} meanwhile"


class CoveredNotice:
    """Feed it each board reading; it answers what to tell, once per change, or None."""

    def __init__(self, after: int) -> None:
        self.after = after
        self._last: tuple[int, ...] = ()
        self._count = 0
        self._told: tuple[int, ...] = ()

    def update(self, reading: Any) -> str | None:
        """A reading of None (the board not seen) changes nothing."""
        if reading is None:
            return None
        now = tuple(s.slot for s in getattr(reading, "slots", ()) if getattr(s, "covered", False) is True)
        self._count = self._count + 1 if now == self._last else 1
        self._last = now
        if now and self._count == self.after and now != self._told:
            self._told = now
            beside = tuple(s.slot for s in getattr(reading, "slots", ()) if getattr(s, "beside_covered", False) is True)
            return covered_text(now, beside)
        if not now and self._told:
            self._told = ()
            return CLEAR_TEXT
        return None
