"""Immutable Blackpool positions.

A position is self-contained (players and resolved options travel with it) so
that its JSON document alone restores the game at a café table after a power
cut or a misread.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any, NamedTuple

PHASES = ("roll", "move", "six", "draw", "target", "over")
TRAVELLERS_PER_COLOUR = 3
START_COINS = 3


def traveller_id(colour: str, number: int) -> str:
    return f"{colour}-{number}"


def traveller_name(tid: str) -> str:
    """``yellow-2`` -> ``Yellow 2``, the way players say it."""
    colour, _, number = tid.partition("-")
    return f"{colour.capitalize()} {number}"


class lazy:  # noqa: N801 - used as a decorator, like functools.cached_property
    """A cached attribute without ``functools.cached_property``'s lock (Python 3.11), which costs per state."""

    def __init__(self, fn: Callable[[Any], Any]) -> None:
        self.fn = fn
        self.name = fn.__name__

    def __get__(self, obj: Any, owner: type | None = None) -> Any:
        if obj is None:
            return self
        value = self.fn(obj)
        obj.__dict__[self.name] = value
        return value


class Traveller(NamedTuple):
    """One traveller: where it is, what it rides on (if anything) and whether it is frozen.

    ``at`` is a square id, ``centre`` or ``camp``. ``on`` names the traveller
    directly under it when it rides; riders always share their carrier's square.
    A named tuple rather than a dataclass: positions are rebuilt on every action.
    """

    id: str
    colour: str
    number: int
    at: str
    on: str | None = None
    frozen: bool = False


@dataclass(frozen=True)
class State:
    """The whole game; derived lookups are cached per instance (not fields, so equality ignores them)."""

    players: tuple[str, ...]
    options: tuple[tuple[str, Any], ...]
    turn: str
    phase: str
    travellers: tuple[Traveller, ...]
    coins: tuple[int, ...]
    decks: tuple[tuple[str, int], ...]
    roll: int | None = None
    six_chain: int = 0
    deck: str | None = None
    card: str | None = None
    finished: tuple[str, ...] = ()

    @lazy
    def opts(self) -> dict[str, Any]:
        return dict(self.options)

    @lazy
    def by_id(self) -> dict[str, Traveller]:
        return {t.id: t for t in self.travellers}

    @lazy
    def riders(self) -> dict[str, str]:
        """Carrier id -> id of the traveller directly on it."""
        return {t.on: t.id for t in self.travellers if t.on is not None}

    @lazy
    def at_square(self) -> dict[str, tuple[str, ...]]:
        out: dict[str, list[str]] = {}
        for t in self.travellers:
            out.setdefault(t.at, []).append(t.id)
        return {k: tuple(v) for k, v in out.items()}

    @lazy
    def remaining(self) -> dict[str, int]:
        return dict(self.decks)

    def coins_of(self, colour: str) -> int:
        return self.coins[self.players.index(colour)]

    def own(self, colour: str) -> tuple[Traveller, ...]:
        """A colour's three travellers; travellers are kept in player order, three each."""
        i = self.players.index(colour) * TRAVELLERS_PER_COLOUR
        return self.travellers[i : i + TRAVELLERS_PER_COLOUR]

    def deck_size(self, catalogue: Any, deck: str) -> int:
        return sum(n for cid, n in self.decks if catalogue[cid].deck == deck)

    def evolve(self, **changes: Any) -> State:
        """A copy with some fields changed; faster than ``dataclasses.replace`` and drops cached lookups."""
        unknown = changes.keys() - _STATE_FIELDS_SET
        if unknown:
            raise TypeError(f"State has no fields {sorted(unknown)}")
        new = object.__new__(State)
        mine = self.__dict__
        new.__dict__.update({f: changes[f] if f in changes else mine[f] for f in _STATE_FIELDS})
        if "options" not in changes and "opts" in mine:
            new.__dict__["opts"] = mine["opts"]  # shared read-only lookup: options never change in a game
        if "travellers" not in changes:
            for key in ("by_id", "riders", "at_square"):
                if key in mine:
                    new.__dict__[key] = mine[key]
        return new


_STATE_FIELDS = tuple(f.name for f in fields(State))
_STATE_FIELDS_SET = frozenset(_STATE_FIELDS)
