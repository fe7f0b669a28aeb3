"""The immutable position of a temple game.

Hands are hidden at a real table, so the state keeps only how many cards each
player holds, the size of the draw pile and the discard pile (face up, so
known). Pawns are node numbers of the board (see ``board.py``); the position
document spells them as ``[x, y]``, ``"entrance"``, ``"step2"`` or ``"chamber"``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

PHASES = ("assembly", "first_roll", "roll", "change", "move", "resolve", "over")


@dataclass(frozen=True)
class Task:
    """An effect still to carry out: a stairway to take, or a pair of pawns to send back.

    ``kind`` is "stair" (``pawns`` holds one pawn, ``node`` the stairway it
    stood on when the task arose), "back" (two pawns of one colour sent back
    together, whose owner chooses which takes the nearer marker) or "off" (one
    or two pawns a card change left on a hole, sent back without a question once
    the choice queued before them is made: RU-Q14 takes the colours one by one
    from the active player, and with ``send_back_occupied = bump`` the order
    decides who ends on a marker two pawns head for).
    """

    kind: str
    colour: str
    pawns: tuple[int, ...]
    node: int
    chooser: str


class TempleState(NamedTuple):
    """A named tuple rather than a frozen dataclass: ``_replace`` is several times cheaper,
    and a turn makes many small replacements."""

    players: tuple[str, ...]  # colours in seat order, clockwise
    options: tuple[tuple[str, Any], ...]
    phase: str
    turn: int  # seat of the player whose turn it is
    slots: tuple[str | None, ...]  # card id in slots 1..12 (None while assembling)
    pawns: tuple[tuple[int, int], ...]  # per seat: the nodes of pawn 1 and pawn 2
    hands: tuple[int, ...]  # per seat: how many cards that player holds
    pile: int  # cards in the draw pile
    discard: tuple[str, ...]  # the discard pile, face up, oldest first
    roll: tuple[Any, str] | None = None  # (value, background colour) of this turn's roll
    contenders: tuple[str, ...] = ()  # first-player roll: who still rolls for the start
    first_rolls: tuple[tuple[str, Any], ...] = ()  # first-player roll: this round's results
    tasks: tuple[Task, ...] = ()
    after: str = ""  # once tasks are done: "move" or "end"
    winner: str | None = None

    @property
    def option(self) -> dict[str, Any]:
        return dict(self.options)

    def but(self, **changes: Any) -> TempleState:
        return self._replace(**changes)

    @property
    def current(self) -> str:
        return self.players[self.turn]

    def seat(self, colour: str) -> int:
        return self.players.index(colour)

    def pawn_at(self, colour: str, index: int) -> int:
        return self.pawns[self.seat(colour)][index]

    def with_pawn(self, colour: str, index: int, node: int) -> TempleState:
        seat = self.seat(colour)
        pair = list(self.pawns[seat])
        pair[index] = node
        pawns = list(self.pawns)
        pawns[seat] = (pair[0], pair[1])
        return self._replace(pawns=tuple(pawns))

    def all_pawns(self) -> list[tuple[str, int, int]]:
        """(colour, pawn index, node) of every pawn in play."""
        return [
            (colour, i, node)
            for colour, pair in zip(self.players, self.pawns, strict=True)
            for i, node in enumerate(pair)
        ]


def pawn_name(colour: str, index: int) -> str:
    return f"{colour}{index + 1}"


def pawn_label(colour: str, index: int) -> str:
    return f"{colour.capitalize()} {index + 1}"
