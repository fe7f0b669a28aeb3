"""Placing a Targi on a border card (TG-P1 to TG-P5, TG-Q9)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.errors import InvalidAction
from companion.game import Event
from companion.games.targi import effects as fx
from companion.games.targi.action_fields import Action, Events
from companion.games.targi.board import OPPOSITE
from companion.games.targi.phrasing import cap, refuse
from companion.games.targi.rule_queries import can_place, placed, placement_problem
from companion.games.targi.state import State, evolve

if TYPE_CHECKING:
    from companion.games.targi.engine import Engine


def do_place(eng: Engine, s: State, a: Action, p: str, ev: Events) -> State:
    n = a.get("card")
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 16:
        raise InvalidAction('"card" must be a border card number from 1 to 16')
    if s.stage != "place":
        raise refuse("Targi are placed only in the placement phase of a round.", "TG-P1")
    problem = placement_problem(eng, s, p, n)
    if problem:
        raise refuse(*problem)
    before = s
    s = evolve(s, targi=tuple(sorted((*s.targi, (n, p)))), actor=s.other(p))
    # Opposite one's own Targi is allowed (TG-Q6): said with the placement, so a table that thought the facing
    # card closed to both players sees the decision, and that the two watch one line.
    facing = ("TG-Q6",) if (OPPOSITE.get(n), p) in before.targi else ()
    ev.append(Event("move", f"{cap(p)} places a Targi on card {n} ({eng.cat.border[n].label}).", ("TG-P1", *facing),
                    (p,)))  # fmt: skip
    # TG-Q9: a player left with no allowed card keeps the rest of their Targi off the board; placements
    # only close cards, so this happens once a round per player and is said then, not passed over in silence.
    for q in (s.other(p), p):
        left = fx.TARGI - placed(s, q)
        if left and can_place(eng, before, q) and not can_place(eng, s, q):
            rest = f"{left} Targi stay" if left > 1 else "their last Targi stays"
            ev.append(Event("info", f"{cap(q)} has no card left where a Targi may stand: {rest} off the board "
                            "this round.", ("TG-P1", "TG-Q9"), (q,)))  # fmt: skip
    return s
