"""Where the button box's **next** has got to among the legal actions, and what **confirm** then does.

Four buttons cannot point at a hex. A short list is walked one action at a
time, as it always was. Through the Desert's placements (up to about 780
actions) or the temple's card changes (about 440) took hundreds of presses
that way, so a long list with board places is walked place by place:
**confirm** on a place opens it, **next** then walks what may happen there
and goes on to the following place after its last action. Pure and without
IO, so the controller, the terminal and tests share it.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass

from companion.game import Action
from companion.places import LONG_LIST, PLACE_FIELDS, place_of

# How the game calls a place (`Game.place_words`), or None where its field and value say it.
Words = Callable[[Hashable], str | None]


@dataclass(frozen=True)
class Pick:
    """What the walk points at now: an action (confirm takes it) or a place (confirm opens it).

    ``take`` is set on confirm's answer when the action is to be taken now rather than shown.
    """

    text: str
    action: Action | None = None
    place: Hashable | None = None
    take: bool = False


def place_label(offered: Sequence[Action], place: Hashable, words: Words | None = None) -> str:
    """A place in the game's words ('Desert Dawn'), else in those of its field: '(5,5)' for a hex, 'slot 3'."""
    named = words(place) if words is not None else None
    if named:
        return named
    field = next((f for f in PLACE_FIELDS for a in offered if place_of(a) == place and f in a), "place")
    if field == "hex" and isinstance(place, tuple):
        return "(" + ",".join(map(str, place)) + ")"
    return f"{field} {place}"


def _at(legal: Sequence[Action], place: Hashable) -> list[Action]:
    return [a for a in legal if place_of(a) == place]


class ChoiceWalk:
    """The button box's position in the legal actions; `reset` whenever the list changes (a step, an undo)."""

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.entry = -1  # index into the top-level entries: places first, then actions without a place
        self.opened: Hashable | None = None  # the place whose actions are walked now
        self.inside = -1  # index among the opened place's actions

    @staticmethod
    def by_place(legal: Sequence[Action]) -> bool:
        return len(legal) > LONG_LIST and any(place_of(a) is not None for a in legal)

    @staticmethod
    def _entries(legal: Sequence[Action]) -> list[Hashable | Action]:
        places = list(dict.fromkeys(p for p in map(place_of, legal) if p is not None))
        return [*places, *(a for a in legal if place_of(a) is None)]

    def next(self, legal: Sequence[Action], words: Words | None = None) -> Pick | None:
        """Move on one: the next action of an opened place, else the next place or placeless action.

        ``words`` names a place as the game does (`Game.place_words`)."""
        if not legal:
            return None
        if self.opened is not None:
            here = _at(legal, self.opened)
            if self.inside + 1 < len(here):
                self.inside += 1
                return Pick(str(here[self.inside]["text"]), here[self.inside], self.opened)
            self.opened, self.inside = None, -1  # past the last one: on to the following place
        entries = self._entries(legal)
        self.entry = (self.entry + 1) % len(entries)
        return self._pick(legal, entries[self.entry], words)

    def confirm(self, legal: Sequence[Action], words: Words | None = None) -> Pick | None:
        """What confirm does now: the picked action (to be taken), or the first action of the picked place."""
        if not legal:
            return None
        if self.opened is not None:
            here = _at(legal, self.opened)
            if 0 <= self.inside < len(here):
                return Pick(str(here[self.inside]["text"]), here[self.inside], self.opened, take=True)
            return self.next(legal, words)
        entries = self._entries(legal)
        if self.entry < 0:  # nothing picked yet: show the first place rather than take an action unseen
            return self.next(legal, words)
        entry = entries[self.entry % len(entries)]
        if isinstance(entry, dict):
            return Pick(str(entry["text"]), entry, take=True)
        self.opened, self.inside = entry, -1
        return self.next(legal, words)

    def _pick(self, legal: Sequence[Action], entry: Hashable | Action, words: Words | None) -> Pick:
        if isinstance(entry, dict):
            return Pick(str(entry["text"]), entry)
        count = len(_at(legal, entry))
        noun = "choice" if count == 1 else "choices"
        label = place_label(legal, entry, words)  # a sentence of its own, shown and said: "Slot 3: ...", not "slot 3"
        return Pick(f"{label[:1].upper()}{label[1:]}: {count} {noun}; confirm to open", place=entry)
