"""The immutable position, plus the derived bit masks that keep placement checks fast.

Camels never move once placed, and a caravan only ever grows next to itself, so
a caravan is simply "every piece of one player in one colour". The masks
(hexes of each caravan, hexes touching it) are derived from ``cells`` and are
rebuilt identically by the document loader, so equality survives a round trip.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from companion.games.ttd.board import Board
from companion.games.ttd.options import Rules

COLOURS = 5
GUIDE = 5  # colour slot of the colourless guide (as-written profile)
SLOTS = 6  # colour slots per player in the mask tables
EMPTY = -1

PHASES = ("waterholes", "leaders", "camels", "over")


def slot(player: int, colour: int) -> int:
    return player * SLOTS + colour


@dataclass(frozen=True)
class TtdState:
    players: tuple[str, ...]
    rules: Rules
    phase: str
    # Per hex (board index): the water-hole value entered for the site, 0 for none or not yet entered.
    values: tuple[int, ...]
    # Per hex: EMPTY, or player * SLOTS + colour (colour GUIDE for a guide).
    cells: tuple[int, ...]
    leaders: frozenset[int]  # hexes holding a leader or a guide
    leaders_left: tuple[tuple[int, ...], ...]  # per player: colours of leaders not yet placed
    first_leaders: tuple[int, ...]  # per player: colour of the first leader placed, -1 before
    current: int
    placed: int  # camels placed so far in the current turn
    round: int  # camel-placement round, from 0
    passes: int  # consecutive turns passed without a camel
    water: tuple[tuple[int, ...], ...]  # per player: printed values of the tokens taken, sorted
    oases: frozenset[tuple[int, int, int]]  # (player, colour, palm hex) already rewarded
    claimed: tuple[tuple[int, int, frozenset[int]], ...]  # immediate areas: (player, colour or -1, hexes)
    end: str  # why the game ends; set on the last turn under end_timing end_of_turn
    # Derived (rebuilt from cells): masks per player*SLOTS+colour, occupancy, camels left per colour.
    masks: tuple[int, ...]
    reach: tuple[int, ...]
    occupied: int
    supply: tuple[int, ...]

    @property
    def player(self) -> str:
        return self.players[self.current]


def derive(board: Board, cells: tuple[int, ...], leaders: frozenset[int], start_supply: int, players: int):
    """Masks, occupancy and supply from the pieces on the board."""
    masks = [0] * (players * SLOTS)
    reach = [0] * (players * SLOTS)
    supply = [start_supply] * COLOURS
    occupied = 0
    for h, code in enumerate(cells):
        if code == EMPTY:
            continue
        bit = 1 << h
        occupied |= bit
        masks[code] |= bit
        reach[code] |= board.nbr_mask[h]
        colour = code % SLOTS
        if colour != GUIDE and h not in leaders:
            supply[colour] -= 1
    return tuple(masks), tuple(reach), occupied, tuple(supply)


def with_piece(state: TtdState, board: Board, h: int, player: int, colour: int, leader: bool) -> TtdState:
    """The state with one more piece, masks updated incrementally."""
    code = slot(player, colour)
    cells = list(state.cells)
    cells[h] = code
    masks = list(state.masks)
    reach = list(state.reach)
    masks[code] |= 1 << h
    reach[code] |= board.nbr_mask[h]
    supply = state.supply
    if not leader and colour != GUIDE:
        supply = tuple(s - 1 if i == colour else s for i, s in enumerate(supply))
    return replace(
        state,
        cells=tuple(cells),
        masks=tuple(masks),
        reach=tuple(reach),
        occupied=state.occupied | (1 << h),
        supply=supply,
        leaders=state.leaders | {h} if leader else state.leaders,
    )
