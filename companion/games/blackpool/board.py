"""The Blackpool board as the engine reads it: squares, zones, paths, camps, diagonals.

Everything here comes from ``board.json`` so a café can replace the house
9x9 grid with a transcription of its own copy; the engine never assumes the
grid shape, only zones, path order and the diagonal lists.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

CENTRE = "centre"
CAMP = "camp"
WATER = frozenset({"ring4", "ring3", "ring2"})
# Zones from the middle outwards; a diagonal step moves exactly one place along this order.
ZONE_ORDER = ("centre", "ring4", "ring3", "ring2", "edge")
ZONES = (*ZONE_ORDER, "camp")
RING_LABEL = {
    "centre": "centre",
    "ring4": "ring 4",
    "ring3": "ring 3",
    "ring2": "ring 2",
    "edge": "edge",
    "camp": "camp",
}


@dataclass(frozen=True)
class Square:
    id: str
    x: int
    y: int
    zone: str


class Board:
    """Indexes over ``board.json`` built once per data set, so rule code stays O(1) per lookup."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        self.width: int = data["width"]
        self.height: int = data["height"]
        self.squares: dict[str, Square] = {s["id"]: Square(s["id"], s["x"], s["y"], s["zone"]) for s in data["squares"]}
        self.by_xy: dict[tuple[int, int], Square] = {(s.x, s.y): s for s in self.squares.values()}
        self.centre_square: str = next(s.id for s in self.squares.values() if s.zone == CENTRE)
        self.blackforce: dict[str, int] = dict(data["blackforce"])
        self.draft_blackforce: dict[str, int] = dict(data["draftBlackforce"])
        self.paths: dict[str, tuple[str, ...]] = {c: tuple(p) for c, p in data["paths"].items()}
        self.index: dict[str, dict[str, int]] = {c: {sq: i for i, sq in enumerate(p)} for c, p in self.paths.items()}
        self.camps: dict[str, str] = dict(data["camps"])
        self.camp_colour: dict[str, str] = {sq: c for c, sq in self.camps.items()}
        self.start_circles: dict[str, tuple[str, ...]] = {c: tuple(v) for c, v in data["startCircles"].items()}
        self.diagonal_out: dict[str, tuple[str, ...]] = {k: tuple(v) for k, v in data["diagonalOut"].items()}
        self.diagonal_in: dict[str, tuple[str, ...]] = {k: tuple(v) for k, v in data["diagonalIn"].items()}
        self.colours: tuple[str, ...] = tuple(self.paths)

    def zone(self, at: str) -> str:
        """Zone of a location: a square id, or the pseudo-locations ``centre`` and ``camp``."""
        if at == CENTRE:
            return CENTRE
        if at == CAMP:
            return CAMP
        return self.squares[at].zone

    def pull(self, at: str, draft: bool) -> int:
        table = self.draft_blackforce if draft else self.blackforce
        return table.get(self.zone(at), 0)

    def exit_roll(self, draft: bool) -> int:
        """The roll that brings a traveller out: one more than the centre's pull (6 on the board, 5 in the draft)."""
        return self.pull(CENTRE, draft) + 1

    def path_length(self, colour: str) -> int:
        return len(self.paths[colour])

    def step(self, colour: str, at: str, delta: int) -> str:
        """Where a move of ``delta`` squares along the colour's path ends.

        Reaching or passing the camp ends in the camp; going back past the
        first square ends in the centre (clarification 3, BP-Q34).
        """
        position = -1 if at == CENTRE else self.index[colour][at]
        target = position + delta
        path = self.paths[colour]
        if target >= len(path):
            return CAMP
        if target < 0:
            return CENTRE
        return path[target]

    def on_path(self, colour: str, square: str) -> bool:
        return square in self.index[colour]

    def label(self, at: str) -> str:
        """A short human name for a location: ``d6 (ring 4)``."""
        if at in (CENTRE, CAMP):
            return "the centre" if at == CENTRE else "camp"
        return f"{at} ({RING_LABEL[self.squares[at].zone]})"
