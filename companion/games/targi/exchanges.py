"""Fata Morgana's marker moves and the Silversmith's and Trader's exchanges (TG-B4 to TG-B6)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.game import Event
from companion.games.targi.action_fields import Action, Events, as_bundle, as_slot
from companion.games.targi.cards import GOODS, bundle_text
from companion.games.targi.phrasing import cap, refuse
from companion.games.targi.rule_queries import fata_moves, need_action_phase, task_of, trader_rates, trades
from companion.games.targi.state import State, evolve, slot_name

if TYPE_CHECKING:
    from companion.games.targi.engine import Engine


def do_move_marker(eng: Engine, s: State, a: Action, p: str, ev: Events) -> State:
    src, dst = as_slot(a.get("from")), as_slot(a.get("to"))
    task_of(s, "fata", "Markers move only with Fata Morgana.", "TG-B4")
    if (src, p) not in s.markers:
        raise refuse(f"{cap(p)} has no unused tribe marker on centre {slot_name(src)}.", "TG-Q11")
    if (src, dst) not in fata_moves(s, p):
        slot = s.centre[dst]
        why = ("holds a marker" if any(i == dst for i, _ in s.markers)
               else "is empty" if slot.empty else "is face down")  # fmt: skip
        rule = "TG-Q11" if slot.face_down else "TG-B4"
        raise refuse(f"Centre {slot_name(dst)} {why}; Fata Morgana needs a free face-up card.", rule)
    markers = tuple(sorted((dst, p) if m == (src, p) else m for m in s.markers))
    ev.append(Event("move", f"{cap(p)} moves a tribe marker from centre {slot_name(src)} to {slot_name(dst)}.",
                    ("TG-B4", "TG-Q11"), (p,)))  # fmt: skip
    return evolve(s, markers=markers, tasks=s.tasks[1:])


def do_trade(eng: Engine, s: State, a: Action, p: str, ev: Events) -> State:
    give = as_bundle(a, "give", ("dates", "salt", "pepper", "gold"))
    get = as_bundle(a, "get", ("dates", "salt", "pepper", "gold", "vp"))
    # The clause depends on why no exchange is open: outside the action phase (TG-A1), while another
    # action is unfinished (TG-A4), or with nothing open, typically after the Silversmith's one (TG-Q16).
    need_action_phase(s, p, "Exchanges happen")
    if s.tasks and s.tasks[0].kind not in ("silversmith", "trader"):
        raise refuse("Finish the action in progress before exchanging goods.", "TG-A4")
    if not s.tasks:
        raise refuse("No exchange is open now: exchanges happen while using the Trader, and the Silversmith "
                     "allows a single exchange per use.", "TG-Q16")
    kind = s.tasks[0].kind
    rule = "TG-B5" if kind == "silversmith" else "TG-B6"
    if (give, get) not in trades(s, p, kind):
        # Only goods (not gold) have a two-for-one at the Trader, so only they can ask for "the same kind".
        same = (kind == "trader" and len(give) == 1 and give[0][0] in GOODS and give[0][1] == 2
                and get == ((give[0][0], 1),))  # fmt: skip
        if same:  # the seed's "1 other good"; TG-Q17 settles that it is always a different kind
            raise refuse(f"At the Trader two {give[0][0]} buy one good of another kind, not {give[0][0]}.",
                         "TG-Q17")  # fmt: skip
        # Name what is on offer: "not an exchange the Trader offers" left the table to work out the rates
        # and what the player's goods allow.
        offers = [f"{bundle_text(g)} for {bundle_text(t)}" for g, t in trades(s, p, kind)]
        shown = trader_rates(s, p) if kind == "trader" else (
            " or ".join(offers[:4]) + (f" and {len(offers) - 4} more" if len(offers) > 4 else ""))
        now = f"; {cap(p)} may give {shown}" if offers else ""  # an open exchange always has one, so far
        raise refuse(f"Giving {bundle_text(give)} for {bundle_text(get)} is not an exchange the "
                     f"{kind.title()} offers {cap(p)} now{now}.", rule)  # fmt: skip
    s = s.with_supply(p, s.supply(p).add(give, -1).add(get))
    ev.append(Event("reward", f"{cap(p)} gives {bundle_text(give)} for {bundle_text(get)}.", (rule,), (p,)))
    if kind == "silversmith":
        s = evolve(s, tasks=s.tasks[1:])
    return s


def do_finish(eng: Engine, s: State, a: Action, p: str, ev: Events) -> State:
    if s.stage != "actions" or not s.tasks or s.tasks[0].kind not in ("fata", "silversmith", "trader"):
        raise refuse("There is no Fata Morgana, Silversmith or Trader action to finish.", "TG-A4")
    names = {"fata": ("Fata Morgana", "TG-B4"), "silversmith": ("the Silversmith", "TG-B5"),
             "trader": ("the Trader", "TG-B6")}  # fmt: skip
    name, rule = names[s.tasks[0].kind]
    ev.append(Event("info", f"{cap(p)} is finished with {name}.", (rule,), (p,)))
    return evolve(s, tasks=s.tasks[1:])
