"""The immutable position of a desert race.

Everything a ruling needs is here, options included, so a position document
alone is enough to resume a game. Card piles are counts per card id: the
table keeps the real piles, and returned cards go under the pile, so order
is never ours to know.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from companion.games.desert.options import Options

# Step kinds: what the game waits for.
ROLLOFF = "rolloff"  # a roll-off (mode: order | thief | vortex) among ``contenders``
ROLL = "roll"  # the turn's roll (mode: move | attempt)
OFFER = "offer"  # landed on a challenge: attempt now or stop
SNEAKERS_STEP = "sneakers"  # a roll is known: double it with Sandstorm Sneakers? (mode: move | chain | test | dune)
SHIELD = "shield"  # an attempt failed: save it with a Sunshield Amulet?
CLOAK_STEP = "cloak"  # landed on Scared!: redeem a Mirage Cloak?
DRAW = "draw"  # a card from the deck named by ``mode``
DUNE = "dune"  # the Dune Shift roll
STEAL = "steal"  # which card the thief took from the victim
SAVE = "save"  # the Golden Compass save roll
VORTEX_STEP = "vortex"  # the chooser picks where the drawer goes
END = "end"  # end of turn: Flask, trades, or end
OVER = "over"

STEP_KINDS = (ROLLOFF, ROLL, OFFER, SNEAKERS_STEP, SHIELD, CLOAK_STEP, DRAW, DUNE, STEAL, SAVE, VORTEX_STEP, END, OVER)
STEP_MODES = {
    ROLLOFF: ("order", "thief", "vortex"),
    ROLL: ("move", "attempt"),
    SNEAKERS_STEP: ("move", "chain", "test", "dune"),
    DRAW: ("collection", "mystery"),
}
# A Sunshield question on a roll the Sneakers were already asked about is "doubled"; otherwise no mode.
OPTIONAL_MODES = {SHIELD: ("", "doubled")}
# The fields of ``Step`` each kind reads; any other is left at its default by play (the loader holds it there).
STEP_FIELDS = {
    ROLLOFF: ("mode", "contenders", "rolls", "victim"),
    ROLL: ("mode", "shield"),
    OFFER: (),
    SNEAKERS_STEP: ("mode", "value"),
    SHIELD: ("mode", "value"),
    CLOAK_STEP: (),
    DRAW: ("mode",),
    DUNE: (),
    STEAL: ("victim", "actor"),
    SAVE: ("victim", "actor"),
    VORTEX_STEP: ("victim", "actor"),
    END: ("trading",),
    OVER: (),
}


@dataclass(frozen=True)
class Piece:
    """One player's piece and belongings; ``failures`` counts failed attempts on this visit to a challenge."""

    space: int = 0
    lives: int = 5
    items: tuple[str, ...] = ()
    lap: bool = False
    skip: int = 0
    out: bool = False
    failures: int = 0

    def holds(self, card: str) -> bool:
        return card in self.items

    def without(self, card: str) -> tuple[str, ...]:
        items = list(self.items)
        items.remove(card)
        return tuple(items)

    def adding(self, *cards: str) -> tuple[str, ...]:
        return tuple(sorted((*self.items, *cards)))


@dataclass(frozen=True)
class Step:
    """The pending step; fields other than ``kind`` matter only for some kinds."""

    kind: str
    mode: str = ""
    value: int = 0  # a roll waiting for a decision (Sneakers, Sunshield)
    shield: bool = False  # a Sunshield Amulet was redeemed before this attempt roll
    contenders: tuple[str, ...] = ()  # roll-off: who rolls, in seat order
    rolls: tuple[int, ...] = ()  # roll-off: the rolls so far, in the same order
    victim: str = ""  # Sand Thief: the drawer; Vortex: the piece to relocate
    actor: str = ""  # Sand Thief: the thief; Vortex: the chooser
    trading: bool = False  # end step: trades allowed


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]
    options: Options
    pieces: tuple[Piece, ...]
    step: Step
    current: int = -1  # whose turn (index into players); -1 before the order roll-off ends
    first: int = -1
    round: int = 0
    collection: tuple[int, ...] = ()  # draw pile counts, in COLLECTION_CARDS order
    collection_discard: tuple[int, ...] = ()
    mystery: tuple[int, ...] = ()
    mystery_discard: tuple[int, ...] = ()
    tried: int = 0  # challenge attempts made this turn
    partners: tuple[str, ...] = ()  # players traded with in this trading window
    winner: str | None = None

    def index(self, player: str) -> int:
        return self.players.index(player)

    def piece(self, player: str) -> Piece:
        return self.pieces[self.players.index(player)]

    @property
    def mover(self) -> str:
        return self.players[self.current]

    def with_piece(self, player: str, **changes: object) -> State:
        i = self.players.index(player)
        pieces = list(self.pieces)
        pieces[i] = replace(pieces[i], **changes)
        return replace(self, pieces=tuple(pieces))
