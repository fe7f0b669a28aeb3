"""Typed observations from the table: what sensors, buttons and the screen report.

Adapters turn the physical world into these and nothing else; the controller
turns them into session actions. Keeping them plain data means a camera, a
serial dice tower and a finger on the screen all enter a roll the same way.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Hashable, Mapping, Set
from dataclasses import dataclass, field
from typing import Any

from companion.errors import quoted

BUTTON_INTENTS = frozenset({"confirm", "undo", "next", "menu", "settings", "roll"})
# A camera or sensor reading less sure than this waits for a player's tap instead of being applied, and so does
# one whose confidence is no number from 0 to 1 (NaN, a percent): it says nothing about how sure the reader is.
CONFIRM_BELOW = 0.8


@dataclass(frozen=True)
class DieRead:
    """A die that has settled: its value, extra face data (e.g. a colour) and how sure the reader is.

    `dice` is how many dice the reader saw settle together. Every game here rolls
    one die at a time, so a camera that sees several reports one reading with the
    count, and the controller asks for the extra dice to be taken away instead of
    guessing which one was rolled.

    `thrown_at` is when the throw began (the first motion since the reader's
    last reading), on the controller's clock (`time.monotonic`); a reader that
    cannot tell leaves it None. With it the controller tells a late reading of
    a throw the players already entered by hand from the next player's throw.
    """

    value: int | str
    source: str
    confidence: float = 1.0
    face: Mapping[str, Any] | None = None
    die: str | None = None
    dice: int = 1
    thrown_at: float | None = None


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

    ``first_seen`` names the slots read here for the first time by readers that
    had just begun (a camera started or restarted, the app started again over
    its journal, a game reopened, another game begun; a tag sensor's slots
    told as its port opens to a link that had not told them): their card lay
    there already, and was not seen laid. A card the game took back with undo,
    still lying where it was laid, is named then rather than taken again, and
    so is a card lying in a new game's slot before its first draw, which is no
    draw (`Controller._cards_seen`).
    """

    slots: Mapping[int, str | None]
    source: str
    confidence: float = 1.0
    twins: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    first_seen: frozenset[int] = frozenset()


@dataclass(frozen=True)
class ButtonPressed:
    intent: str
    source: str = "buttons"


HELD_PREFIX = "held "  # ButtonPressed("held confirm"): the button has stayed down past the box's stuck_seconds
DOWN_PREFIX = "down "  # ButtonPressed("down confirm"): the button was already down when the box started


@dataclass(frozen=True)
class Touch:
    """An intent from the touch screen: act, check, undo, redo, confirm, reject, or explain a board place."""

    intent: str
    action: Mapping[str, Any] | None = None
    place: Hashable | None = None  # for "explain": the place or piece a finger pointed at (`places.place_of`)


@dataclass(frozen=True)
class LinkChanged:
    """A sensor or camera connected, dropped or reported a fault.

    ``found`` is False while the link has not come up once since its adapter
    started (a port that never opened, a camera that never gave a picture): a
    sensor never plugged in was told as "dice sensor lost", as if it had been
    there and gone, and the café owner looked for a cable that came loose.
    ``unusable`` is True for one that is there but cannot be used as it is (a
    port this user may not open or another program holds, a folder with no
    readable picture): neither lost nor not found, it is told by its reason
    alone ("dice sensor: cannot open ...: permission denied (...)"). Told as
    not found, the owner looked for a cable when the fix was a group or a
    program to close. A connection that keeps dropping (a loose connector)
    is told the same way, as unstable rather than lost at each drop.
    ``ended`` is True for a video or folder that gave its pictures and came
    to its end: nothing was lost ("camera lost: clip.avi has played to its
    end" sent the owner to a cable), so it too is told by its reason alone
    ("camera: video clip.avi has ended after 90 frames; ...").
    ``note`` is True for a word from a link whose connection was last told
    as down and has not been told back (a sensor whose reopenings are not
    said while its connection is unstable): it changes nothing of the link's
    state and is told by its detail alone. Told as up, the sensor's first
    word after a drop read "dice sensor connected: the sensor read 5 ..."
    while the connection was still unstable, and cleared it from the
    settings screen's problems.
    ``standing`` is True for a problem the owner has to mend although the
    link works and goes on working (firmware that never announces a throw,
    a sensor found only by its udev name after a re-plug): it is listed on
    the settings screen, and logged as a warning even with a link coming up,
    until the link next comes up. Told as a passing word, "the dice sensor
    does not notice throws" reached the table and the log but not the
    settings screen, and a sensor back under another port name said its
    advice as information, which the service's log drops.
    """

    source: str
    up: bool
    detail: str = ""
    found: bool = True
    unusable: bool = False
    ended: bool = False
    note: bool = False
    standing: bool = False
    table: str | None = None
    """The players' words for this report, when ``detail`` is the owner's: what happened to a roll and what
    to do now, without a port, a protocol line or a fix. None: `table_text` words it from the link's state;
    "": nothing for the table's status line (the owner's log and settings screen still have it)."""


def link_text(link: LinkChanged, was_up: bool | None) -> str:
    """What the table is told of ``link``, after the last report of its source said ``was_up`` (None: none yet).

    One wording for every place that says it (the controller's status line and
    log, `hw teach`): teaching said "[sensor connected: ...]" where play said
    "[dice sensor connected: ...]".
    """
    detail = f": {link.detail}" if link.detail else ""
    if link.note and detail:
        return f"{link.source}{detail}"
    # A report from a link that stays up (a skipped frame, a sensor fault) is not a new connection.
    down = "" if (link.unusable or link.ended) and detail else " lost" if link.found else " not found"
    state = ("" if was_up and detail else " connected") if link.up else down
    return f"{link.source}{state}{detail}"


# What a player does while a reader is down: the table's "not reading" line says the same (ui/app.py INPUT_DOWN).
WHILE_DOWN = "tap what it would have read (owner: Settings)"


def table_text(link: LinkChanged, was_up: bool | None) -> str:
    """What the players at the table read of ``link`` (`link_text` is the owner's): "" for nothing.

    The one place, beside `link_text`, that decides the two wordings: an
    adapter gives its players' words as ``link.table`` where its detail is
    written for the owner; a link down or back is worded here from its state.
    The table read the owner's line: "Dice sensor: the sensor read 5 with no
    $ROLL since its port opened again ..." or "Camera not found: cannot open
    /dev/video0 ...", with a protocol line, a device path and a fix for the
    owner, and no word of what to do with the roll in hand.
    """
    name = link.source[:1].upper() + link.source[1:]
    if link.table is not None:
        return link.table
    if link.note:
        return link_text(link, was_up)
    if not link.up:
        state = ("has stopped" if link.ended else "cannot be used" if link.unusable else "lost" if link.found
                 else "not found")
        return f"{name} {state}: {WHILE_DOWN}."
    if not was_up:
        return f"{name} connected."
    return link_text(link, was_up)


Observation = DieRead | RollStarted | CardsSeen | ButtonPressed | Touch | LinkChanged


def _number(value: object) -> bool:
    # numbers.Real, not float: a reader's numpy float32 is a number too; a bool is not one.
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def _whole(value: object) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def malformed(observation: object) -> str | None:
    """Why an observation cannot be used, in words for the table; None when its fields are what they promise.

    The dataclasses check nothing, and a reader behind an adapter can put
    anything in them (a slot "1", a confidence None). Refused here by name,
    before anything is changed, such a reading cannot fail half way through
    the controller and stop the referee. A value the rules judge (a die's 7, a
    roll of 3.0) is not checked here: the game's refusal cites its clause.
    """
    if not isinstance(observation, Observation):
        plain = observation is None or isinstance(observation, str | int | float | list | dict)
        return f"not an observation: {quoted(observation) if plain else type(observation).__name__}"
    source = getattr(observation, "source", "")
    if not isinstance(source, str):
        return f"an input must be named, not {quoted(source)}"
    what = f"a {'die' if isinstance(observation, DieRead) else 'card'} reading from {source}"
    if isinstance(observation, DieRead | CardsSeen) and not _number(observation.confidence):
        return f"{what} has confidence {quoted(observation.confidence)}; it must be a number from 0 to 1"
    if isinstance(observation, DieRead):
        face = observation.face
        if face is not None and not (isinstance(face, Mapping) and all(isinstance(k, str) for k in face)):
            return f'{what} has face {quoted(face)}; it must name its data, such as {{"colour": "red"}}'
        if observation.die is not None and not isinstance(observation.die, str):
            return f'{what} names its die {quoted(observation.die)}; it must be a name such as "d6"'
        if not _whole(observation.dice) or observation.dice < 1:
            return f"{what} counts {quoted(observation.dice)} dice; it must be a whole number, 1 or more"
        thrown = observation.thrown_at
        if thrown is not None and not (_number(thrown) and math.isfinite(thrown)):
            return f"{what} says its throw began at {quoted(thrown)}; it must be a time in seconds, or be left unset"
    if isinstance(observation, CardsSeen):
        if not isinstance(observation.slots, Mapping):
            return f"{what} has slots {quoted(observation.slots)}; it must map slot numbers to cards"
        for slot, card in observation.slots.items():
            if not _whole(slot):
                return f"{what} names slot {quoted(slot)}; a slot is a whole number (1, 2, ...)"
            if card is not None and not isinstance(card, str):
                return f"{what} has {quoted(card)} in slot {slot}; a card is named by its id, such as \"P01\""
        twins = observation.twins
        if not isinstance(twins, Mapping) or not all(
            isinstance(alike, tuple | list) and all(isinstance(c, str) for c in alike) for alike in twins.values()
        ):
            return f"{what} has twins {quoted(twins)}; it must map a card id to the ids that look like it"
        first = observation.first_seen
        if not isinstance(first, Set) or not all(_whole(slot) for slot in first):
            return f"{what} names {quoted(first)} as slots seen first; it must be a set of slot numbers"
    if isinstance(observation, ButtonPressed | Touch) and not isinstance(observation.intent, str):
        return f"an intent must be a word such as \"confirm\", not {quoted(observation.intent)}"
    return None


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
