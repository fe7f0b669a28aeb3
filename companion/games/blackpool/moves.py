"""How travellers move: the distance a roll gives, where it ends, whether it may land, and who rides along.

Riding is kept as a chain: each traveller names the one directly under it
(``on``). A traveller that moves under its own power takes the chain above it
along, except riders that may not follow it (onto the edge, into a camp, off
their own path, or frozen); cards move a traveller without its riders.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from companion.games.blackpool.board import CAMP, CENTRE, Board
from companion.games.blackpool.state import State, Traveller, traveller_name

# Clarification 6: a traveller carrying a rider is heavy.
CARRIER_FORWARD = {6: 3, 5: 3, 4: 2, 3: 2, 2: 1, 1: 0}
CARRIER_BACK = {3: 6, 2: 4, 1: 2}


@dataclass(frozen=True)
class Plan:
    """A move one traveller could make now, with the reason when it may not."""

    traveller: str
    kind: str  # forward | back | six | out
    steps: int
    dest: str
    carried: tuple[str, ...] = ()
    problem: str | None = None
    rule: str | None = None

    @property
    def legal(self) -> bool:
        return self.problem is None


class Work:
    """A mutable scratch copy of the travellers while one action resolves."""

    def __init__(self, state: State) -> None:
        self.t: dict[str, Traveller] = dict(state.by_id)
        self.order = [t.id for t in state.travellers]
        self._riders: dict[str, str] = dict(state.riders)

    def rider_of(self, tid: str) -> str | None:
        return self._riders.get(tid)

    def above(self, tid: str) -> list[str]:
        chain: list[str] = []
        current = self.rider_of(tid)
        while current is not None:
            chain.append(current)
            current = self.rider_of(current)
        return chain

    def occupants(self, square: str) -> list[str]:
        return [t.id for t in self.t.values() if t.at == square]

    def carrying(self, tid: str) -> bool:
        return self.rider_of(tid) is not None

    def set(self, tid: str, **changes: Any) -> None:
        old = self.t[tid]
        new = old._replace(**changes)
        self.t[tid] = new
        if new.on != old.on:
            if old.on is not None and self._riders.get(old.on) == tid:
                del self._riders[old.on]
            if new.on is not None:
                self._riders[new.on] = tid

    def travellers(self) -> tuple[Traveller, ...]:
        return tuple(self.t[i] for i in self.order)


def can_follow(board: Board, rider: Traveller, dest: str) -> bool:
    """Whether a rider goes along with its carrier to ``dest`` (clarifications 4, 5; BP-Q14..Q16, Q26)."""
    if rider.frozen or dest == CAMP:
        return False
    if dest == CENTRE:
        return True
    return board.zone(dest) != "edge" and board.on_path(rider.colour, dest)


def followers(board: Board, work: Work, tid: str, dest: str) -> list[str]:
    out: list[str] = []
    for rid in work.above(tid):
        if not can_follow(board, work.t[rid], dest):
            break
        out.append(rid)
    return out


def landing_problem(
    board: Board, work: Work, tid: str, dest: str, carried: Sequence[str], opts: dict[str, Any]
) -> tuple[str, str] | None:
    """Why ``tid`` (arriving with the riders ``carried``) may not land on ``dest``, or None."""
    if dest in (CENTRE, CAMP):
        return None  # clarification 4: no limit on how many stand in the centre or a camp
    occupants = [o for o in work.occupants(dest) if o != tid]
    if not occupants:
        return None
    where = board.label(dest)
    name = traveller_name(tid)
    present = {work.t[o].colour for o in occupants}
    if work.t[tid].colour in present:
        return f"{name} cannot land on {where}: a traveller of its own colour is there.", "BP-7"
    if len(occupants) >= 2:
        return f"{name} cannot land on {where}: the square already holds two travellers.", "BP-7"
    if board.zone(dest) == "edge" and opts["edge.landing"] == "forbidden":
        return f"{name} cannot land on {where}: landing on another traveller on the edge is not allowed.", "BP-Q13"
    if opts["capacity.countsArrivingStack"] and len(occupants) + 1 + len(carried) > 2:
        return (
            f"{name} cannot land on {where}: with its rider it would make three travellers on one square.",
            "BP-Q12",
        )
    for rid in carried:
        if work.t[rid].colour in present:
            rider = traveller_name(rid)
            return f"{name} cannot land on {where}: its rider {rider} would join its own colour there.", "BP-7"
    return None


def plan(board: Board, work: Work, tid: str, kind: str, steps: int, opts: dict[str, Any]) -> Plan:
    """Plan a move of ``steps`` squares (negative: back) that takes the riders along."""
    t = work.t[tid]
    dest = board.step(t.colour, t.at, steps) if t.at != CENTRE else board.step(t.colour, CENTRE, steps)
    carried = tuple(followers(board, work, tid, dest))
    problem = landing_problem(board, work, tid, dest, carried, opts)
    if problem:
        return Plan(tid, kind, abs(steps), dest, carried, problem[0], problem[1])
    return Plan(tid, kind, abs(steps), dest, carried)


def execute(
    board: Board, work: Work, tid: str, dest: str, carry: bool, opts: dict[str, Any], rules: list[str] | None = None
) -> list[str]:
    """Move ``tid`` to ``dest``; return sentences about riders, landing and who stayed behind.

    Assumes the landing was checked. With ``carry`` False (cards) the riders stay. ``rules``, when given,
    collects the clause of each sentence: "Red 1 stays on b6: a rider is never carried onto the edge" was
    announced citing only BP-5, and the table asking why Red 1 was left behind found no clause.
    """
    cited: list[str] = [] if rules is None else rules
    notes: list[str] = []
    mover = work.t[tid]
    above = work.above(tid)
    carried = followers(board, work, tid, dest) if carry else []
    behind = above[len(carried) :]
    if behind:
        work.set(behind[0], on=mover.on)
        why, rule = ("cards move only the traveller they name", ("BP-C9",)) if not carry \
            else _stay_reason(board, work.t[behind[0]], dest)
        notes.append(f"{traveller_name(behind[0])} stays on {board.label(mover.at)}: {why}.")
        cited.extend(rule)
    if mover.on is not None:
        notes.append(f"{traveller_name(tid)} leaves {traveller_name(mover.on)}.")
        cited.extend(("BP-C5", "BP-Q17"))  # a rider steps off under its own power
    new_on: str | None = None
    if dest not in (CENTRE, CAMP):
        occupants = [o for o in work.occupants(dest) if o != tid]
        rides = bool(occupants) and (board.zone(dest) != "edge" or opts["edge.landing"] == "ride")
        if rides:
            under = {work.t[o].on for o in occupants}
            top = next(o for o in occupants if o not in under)
            new_on = top
            notes.append(f"{traveller_name(tid)} rides on {traveller_name(top)}.")
            cited.append("BP-7")
        elif occupants:
            notes.append(f"{traveller_name(tid)} shares {board.label(dest)} with {traveller_name(occupants[0])}.")
            cited.append("BP-Q13")
    work.set(tid, at=dest, on=new_on)
    for rid in carried:
        if dest == CENTRE:
            work.set(rid, at=CENTRE, on=None)
            notes.append(f"{traveller_name(rid)} is carried back to the centre too, and riding ends there.")
            cited.append("BP-Q15")
        else:
            work.set(rid, at=dest)
            notes.append(f"{traveller_name(rid)} rides along.")
            cited.extend(("BP-7", "BP-C5"))
    return notes


def _stay_reason(board: Board, rider: Traveller, dest: str) -> tuple[str, tuple[str, ...]]:
    """Why a rider is not carried along, and the clauses that say so."""
    if rider.frozen:
        return "it is frozen", ("BP-C10", "BP-Q26")
    if dest == CAMP:
        return "nobody rides into a camp", ("BP-C4", "BP-Q16")
    if dest != CENTRE and board.zone(dest) == "edge":
        return "a rider is never carried onto the edge", ("BP-C5", "BP-Q16")
    return "that square is not on its own path", ("BP-Q14",)
