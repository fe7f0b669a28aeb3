"""Telling a person when the same board slots stay covered, and when they clear.

A covered slot keeps the card it had (`SlotReading.covered`), so a cup left on
a card, or a café's deck not taught yet (every slot matching no card), kept the
camera from seeing cards laid there, and nobody learnt why; nor why a card
laid beside it was not taken (the slots beside a covered one wait with it,
`SlotReading.beside_covered`). A hand laying a card covers a slot for a
moment: only slots covered for ``after`` reads in a row are told.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import cv2
import numpy as np

CLEAR_TEXT = "no slot looks covered now: the path cards are read"


def _named(slots: tuple[int, ...]) -> str:
    return f"slot {slots[0]}" if len(slots) == 1 else f"slots {', '.join(map(str, slots[:-1]))} and {slots[-1]}"


def covered_text(slots: tuple[int, ...], beside: tuple[int, ...] = (), die_on: tuple[int, ...] = ()) -> str:
    """What a person hears of slots that stay covered, and of the slots beside them, which wait with them: a card
    laid there meanwhile is not taken, and the café should know why. ``die_on``: the covered slots the temple die
    was read lying on (`die_on_board`); a player hearing "a cup, a hand?" of them looked for a cup."""
    if die_on and set(slots) <= set(die_on):
        why = "the die lies on it" if len(slots) == 1 else "the die lies over them"
    elif die_on:
        why = (f"the die lies on {_named(die_on)}, and something else over the rest (a cup, a hand?), or the café's "
               "cards are not taught yet")
    else:
        why = "something lies over the card (a cup, a hand?), or the café's cards are not taught yet"
    told = f"{_named(slots)} read covered: {why}; the table keeps the cards it saw there until they read clear"
    if not beside:
        return told
    return f"{told}, and reads no card laid in {_named(beside)} beside {'it' if len(slots) == 1 else 'them'} meanwhile"


def slots_under(dice: Iterable[Any], outlines: dict[int, Any] | None) -> frozenset[int]:
    """The slots whose outline (frame pixels, as the card reader found them) holds the middle of a die's box, or a
    point halfway from it to the box's edge: a die at a slot's edge covers the slot beside it too."""
    points = []
    for die in dice:
        x0, y0, x1, y1 = die.box
        x, y, half_x, half_y = (x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) / 4, (y1 - y0) / 4
        points += [(x, y), (x - half_x, y), (x + half_x, y), (x, y - half_y), (x, y + half_y)]
    return frozenset(slot for slot, outline in (outlines or {}).items()
                     if any(cv2.pointPolygonTest(np.asarray(outline, np.float32), p, False) >= 0 for p in points))


class CoveredNotice:
    """Feed it each board reading; it answers what to tell, once per change, or None."""

    def __init__(self, after: int) -> None:
        self.after = after
        self._last: tuple[int, ...] = ()
        self._count = 0
        self._told: tuple[int, ...] = ()

    def update(self, reading: Any, die_on: frozenset[int] = frozenset()) -> str | None:
        """A reading of None (the board not seen) changes nothing. ``die_on``: the slots the temple die lies on."""
        if reading is None:
            return None
        now = tuple(s.slot for s in getattr(reading, "slots", ()) if getattr(s, "covered", False) is True)
        self._count = self._count + 1 if now == self._last else 1
        self._last = now
        if now and self._count == self.after and now != self._told:
            self._told = now
            beside = tuple(s.slot for s in getattr(reading, "slots", ()) if getattr(s, "beside_covered", False) is True)
            return covered_text(now, beside, tuple(slot for slot in now if slot in die_on))
        if not now and self._told:
            self._told = ()
            return CLEAR_TEXT
        return None
