"""Typed observations from the table: what sensors, buttons and the screen report.

Adapters turn the physical world into these and nothing else; the controller
turns them into session actions. Keeping them plain data means a camera, a
serial dice tower and a finger on the screen all enter a roll the same way.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from typing import Any

BUTTON_INTENTS = frozenset({"confirm", "undo", "next", "menu", "settings", "roll"})
# A camera or sensor reading less sure than this waits for a player's tap instead of being applied.
CONFIRM_BELOW = 0.8


@dataclass(frozen=True)
class DieRead:
    """A die that has settled: its value, extra face data (e.g. a colour) and how sure the reader is.

    `dice` is how many dice the reader saw settle together. Every game here rolls
    one die at a time, so a camera that sees several reports one reading with the
    count, and the controller asks for the extra dice to be taken away instead of
    guessing which one was rolled.
    """

    value: int | str
    source: str
    confidence: float = 1.0
    face: Mapping[str, Any] | None = None
    die: str | None = None
    dice: int = 1


@dataclass(frozen=True)
class RollStarted:
    """The dice are moving again, so the next settled reading is a new roll, not a repeat."""

    source: str


@dataclass(frozen=True)
class CardsSeen:
    """Cards seen in slots (slot number -> card id, None for an empty slot).

    ``twins`` names, for a card read, the other ids that look exactly like it
    (a deck may print one path twice): a camera cannot tell them apart, so the
    one the game can take is the one meant.
    """

    slots: Mapping[int, str | None]
    source: str
    confidence: float = 1.0
    twins: Mapping[str, tuple[str, ...]] = field(default_factory=dict)


@dataclass(frozen=True)
class ButtonPressed:
    intent: str
    source: str = "buttons"


@dataclass(frozen=True)
class Touch:
    """An intent from the touch screen: act, check, undo, redo, confirm, reject, or explain a board place."""

    intent: str
    action: Mapping[str, Any] | None = None
    place: Hashable | None = None  # for "explain": the place or piece a finger pointed at (`places.place_of`)


@dataclass(frozen=True)
class LinkChanged:
    """A sensor or camera connected, dropped or reported a fault."""

    source: str
    up: bool
    detail: str = ""


Observation = DieRead | RollStarted | CardsSeen | ButtonPressed | Touch | LinkChanged


@dataclass(frozen=True)
class Update:
    """What happened, for every output: screen, voice, lights.

    ``kind`` is one of: step (an action was applied), undo, redo, ruling,
    confirm (a low-confidence reading waits for a tap), unapplied (a reading
    arrived that the game is not waiting for), refused, link, menu, select
    (the highlighted choice moved), new_game.
    """

    kind: str
    text: str
    events: tuple[Any, ...] = ()
    pending: Any = None
    action: Mapping[str, Any] | None = None
    rules: tuple[str, ...] = ()
    detail: Mapping[str, Any] = field(default_factory=dict)
