"""Targi's immutable position: players' supplies, pieces on the ring, the centre and the decks.

Decks are multisets rather than ordered piles because the engine never
shuffles: it only knows which cards could still come, and the table says
which one did. A face-down central card stays unknown until it is turned
up, so each draw pile keeps a generation number: a face-down card can only
turn out to be a card of the pile generation it was taken from.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeVar

from companion.games.targi.cards import GOODS

Multiset = tuple[tuple[str, int], ...]
T = TypeVar("T")


def evolve(obj: T, **changes: Any) -> T:
    """``dataclasses.replace`` without the generic machinery: copying states is the engine's hot path."""
    new = object.__new__(obj.__class__)
    new.__dict__.update(obj.__dict__)
    new.__dict__.update(changes)
    return new
STAGES = ("reveal", "raid", "place", "actions", "limits", "over")
TASK_KINDS = ("draw", "goods", "tribe", "fata", "silversmith", "trader")
DRAW_WHY = ("caravan", "expansion", "use")
# Where a choice of goods comes from, so taking them cites that clause: a border card (TG-B7), a goods
# card (TG-G1) or a tribe card's effect (TG-T5); "" in documents written before it was kept (read as goods).
CHOICE_WHY = ("", "border", "goods", "tribe")


# -- multisets of card ids ---------------------------------------------------------------
def ms_add(ms: Multiset, card: str, n: int = 1) -> Multiset:
    d = dict(ms)
    d[card] = d.get(card, 0) + n
    return tuple(sorted((k, v) for k, v in d.items() if v > 0))


def ms_remove(ms: Multiset, card: str) -> Multiset:
    d = dict(ms)
    d[card] -= 1
    return tuple(sorted((k, v) for k, v in d.items() if v > 0))


def ms_size(ms: Multiset) -> int:
    return sum(n for _, n in ms)


def ms_has(ms: Multiset, card: str) -> bool:
    return any(k == card for k, _ in ms)


# -- the pieces --------------------------------------------------------------------------
@dataclass(frozen=True)
class Supply:
    """One player's goods, gold, VP tokens, hand and three display rows."""

    dates: int = 2
    salt: int = 2
    pepper: int = 2
    gold: int = 1
    vp: int = 4
    hand: tuple[str, ...] = ()
    rows: tuple[tuple[str, ...], ...] = ((), (), ())

    @property
    def goods(self) -> int:
        return self.dates + self.salt + self.pepper

    def amount(self, resource: str) -> int:
        return int(getattr(self, resource))

    def add(self, b: tuple[tuple[str, int], ...], sign: int = 1) -> Supply:
        return evolve(self, **{r: getattr(self, r) + sign * n for r, n in b})

    def can_pay(self, b: tuple[tuple[str, int], ...]) -> bool:
        return all(getattr(self, r) >= n for r, n in b)

    def goods_tuple(self) -> tuple[int, int, int]:
        return (self.dates, self.salt, self.pepper)

    @property
    def cards(self) -> tuple[str, ...]:
        return tuple(c for row in self.rows for c in row)


@dataclass(frozen=True)
class Slot:
    """A central card: face up (``card`` set), face down (``deck`` only), or empty (neither)."""

    deck: str | None = None
    card: str | None = None
    gen: int = 0

    @property
    def face_down(self) -> bool:
        return self.deck is not None and self.card is None

    @property
    def empty(self) -> bool:
        return self.deck is None


@dataclass(frozen=True)
class Pile:
    """The unrevealed cards of one pile generation: still in the pile or lying face down."""

    gen: int
    cards: Multiset
    down: int = 0

    @property
    def in_pile(self) -> int:
        return ms_size(self.cards) - self.down


@dataclass(frozen=True)
class Deck:
    piles: tuple[Pile, ...]
    discard: Multiset = ()

    @property
    def current(self) -> Pile:
        return self.piles[-1]

    def pile(self, gen: int) -> Pile | None:
        for p in self.piles:
            if p.gen == gen:
                return p
        return None


@dataclass(frozen=True)
class Task:
    """An action in progress: what the acting player (or the table, for a draw) must settle next."""

    kind: str
    deck: str | None = None  # draw: which deck
    why: str = ""  # draw: caravan, expansion, or use (a face-down central card); goods: border, goods or tribe
    slot: int | None = None  # draw "use": the central slot
    cards: tuple[str, ...] = ()  # tribe: the card(s) to decide on
    source: str = ""  # tribe: expansion, centre or noble; goods: what gives the choice
    n: int = 0  # goods: how many goods to choose


@dataclass(frozen=True)
class Rules:
    """The resolved options, as the engine reads them."""

    forbid: str = "opposite"
    partial_payment: bool = False
    allow_face_down: bool = False
    limits_at_end: bool = True
    finish_own: bool = True
    tribe_reshuffle: bool = True


@dataclass(frozen=True)
class State:
    players: tuple[str, str]
    profile: str
    rules: Rules
    round: int
    robber: int
    start: str
    stage: str
    actor: str | None
    queue: tuple[str, ...]
    supplies: tuple[Supply, Supply]
    targi: tuple[tuple[int, str], ...]  # (border card, owner), sorted
    markers: tuple[tuple[int, str], ...]  # (central slot 0..8, owner), sorted
    centre: tuple[Slot, ...]
    goods: Deck
    tribe: Deck
    tasks: tuple[Task, ...] = ()
    done: tuple[str, ...] = ()
    ender: str | None = None

    def index(self, player: str) -> int:
        return 0 if self.players[0] == player else 1

    def supply(self, player: str) -> Supply:
        return self.supplies[self.index(player)]

    def other(self, player: str) -> str:
        return self.players[1] if self.players[0] == player else self.players[0]

    def with_supply(self, player: str, supply: Supply) -> State:
        i = self.index(player)
        supplies = (supply, self.supplies[1]) if i == 0 else (self.supplies[0], supply)
        return evolve(self, supplies=supplies)

    def deck(self, name: str) -> Deck:
        return self.goods if name == "goods" else self.tribe

    def with_deck(self, name: str, deck: Deck) -> State:
        return evolve(self, goods=deck) if name == "goods" else evolve(self, tribe=deck)

    def with_slot(self, index: int, slot: Slot) -> State:
        centre = list(self.centre)
        centre[index] = slot
        return evolve(self, centre=tuple(centre))


def slot_name(index: int) -> str:
    return f"{index // 3 + 1}-{index % 3 + 1}"


def slot_index(row: int, col: int) -> int:
    return (row - 1) * 3 + (col - 1)


GOOD_NAMES = GOODS
