"""The hex map as fast lookup tables, built once per player count.

Placement legality is asked hundreds of times per turn (every legal camel,
every ruling), so the map is turned into integer indices, neighbour tuples and
bit masks (one bit per hex) up front. Which hexes are in play and which oasis
sites carry a palm depend on the number of players, hence one table set per
count.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

# Axial neighbour offsets (q, r), clockwise from east.
DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


# A hex as every text names it, "(5,1)", "(-1,12)": the board file's axial [q, r].
HEX_NAME = re.compile(r"\((-?\d+),(-?\d+)\)")


def hex_label(q: int, r: int) -> str:
    """The name a text gives hex (q, r): the map on the screen shows the same words beside a place a text names."""
    return f"({q},{r})"


def hexes_named(text: str) -> list[tuple[int, int]]:
    """The hexes ``text`` names, in the order it names them, each once: where the table's map labels them."""
    found: list[tuple[int, int]] = []
    for match in HEX_NAME.finditer(text):
        key = (int(match[1]), int(match[2]))
        if key not in found:
            found.append(key)
    return found


# _BYTE_BITS[k][b]: the bit indices set in byte value b when it is the k-th byte of a mask.
_BYTE_BITS: list[tuple[tuple[int, ...], ...]] = []


def bits(mask: int) -> list[int]:
    """The indices of the set bits, lowest first.

    Walks the mask a byte at a time through a lookup table: a legal-move list
    visits hundreds of hexes per call, and bit-by-bit big-integer arithmetic
    was the slowest part of it.
    """
    if not mask:
        return []
    data = mask.to_bytes((mask.bit_length() + 7) // 8, "little")
    while len(_BYTE_BITS) < len(data):
        k = len(_BYTE_BITS)
        _BYTE_BITS.append(tuple(tuple(8 * k + i for i in range(8) if b >> i & 1) for b in range(256)))
    out: list[int] = []
    for k, byte in enumerate(data):
        if byte:
            out += _BYTE_BITS[k][byte]
    return out


@dataclass(frozen=True)
class Board:
    """One map prepared for one player count; indices follow the data file's order sorted by (r, q)."""

    players: int
    coords: tuple[tuple[int, int], ...]
    index: Mapping[tuple[int, int], int]
    labels: tuple[str, ...]
    neighbours: tuple[tuple[int, ...], ...]
    nbr_mask: tuple[int, ...]
    mountain: int  # mask of mountain hexes
    in_play: int  # mask of hexes in a region used at this player count (mountains included)
    palms: tuple[int, ...]  # indices of oasis sites carrying a palm
    palm_mask: int
    palm_adjacent: int  # hexes touching a palm
    sites: tuple[int, ...]  # water-hole sites in play, in board order
    site_mask: int
    site_adjacent: int
    open_mask: int  # in play, not mountain, no palm: where a piece may stand
    edge: tuple[bool, ...]  # the hex touches the board edge or the unused region
    near_mountain: tuple[bool, ...]
    size: int

    def label(self, index: int) -> str:
        return self.labels[index]

    def hex_json(self, index: int) -> list[int]:
        q, r = self.coords[index]
        return [q, r]


def build_board(data: Mapping[str, Any], players: int) -> Board:
    """Turn the board file into tables for ``players`` players; the data is assumed validated."""
    regions_in_play = {reg["id"] for reg in data["regions"] if players in reg["players"]}
    cells = sorted(data["cells"], key=lambda c: (c["r"], c["q"]))
    coords = tuple((c["q"], c["r"]) for c in cells)
    index = {xy: i for i, xy in enumerate(coords)}
    neighbours = tuple(
        tuple(index[(q + dq, r + dr)] for dq, dr in DIRECTIONS if (q + dq, r + dr) in index) for q, r in coords
    )
    nbr_mask = tuple(sum(1 << n for n in ns) for ns in neighbours)
    mountain = in_play = palm_mask = site_mask = 0
    palms: list[int] = []
    sites: list[int] = []
    for i, cell in enumerate(cells):
        bit = 1 << i
        if cell["type"] == "mountain":
            mountain |= bit
        if cell["region"] not in regions_in_play:
            continue
        in_play |= bit
        if players in cell.get("oasis", ()):
            palm_mask |= bit
            palms.append(i)
        elif cell.get("waterhole"):
            site_mask |= bit
            sites.append(i)
    palm_adjacent = site_adjacent = 0
    for i in palms:
        palm_adjacent |= nbr_mask[i]
    for i in sites:
        site_adjacent |= nbr_mask[i]
    open_mask = in_play & ~mountain & ~palm_mask
    edge = tuple(
        len(neighbours[i]) < 6 or any(not (in_play >> n) & 1 for n in neighbours[i]) for i in range(len(coords))
    )
    near_mountain = tuple(bool(nbr_mask[i] & mountain) for i in range(len(coords)))
    return Board(
        players=players,
        coords=coords,
        index=index,
        labels=tuple(hex_label(q, r) for q, r in coords),
        neighbours=neighbours,
        nbr_mask=nbr_mask,
        mountain=mountain,
        in_play=in_play,
        palms=tuple(palms),
        palm_mask=palm_mask,
        palm_adjacent=palm_adjacent,
        sites=tuple(sites),
        site_mask=site_mask,
        site_adjacent=site_adjacent,
        open_mask=open_mask,
        edge=edge,
        near_mountain=near_mountain,
        size=len(coords),
    )
