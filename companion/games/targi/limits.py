"""The carry-over limits at the end of a round (TG-E2, TG-Q18): returning goods above the limit."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.game import Event
from companion.games.targi import effects as fx
from companion.games.targi.action_fields import Action, Events, as_bundle
from companion.games.targi.cards import GOODS, bundle_text, goods_count
from companion.games.targi.phrasing import cap, refuse
from companion.games.targi.rule_queries import last_round
from companion.games.targi.state import State, evolve

if TYPE_CHECKING:
    from companion.games.targi.engine import Engine


def limit_rules(eng: Engine, s: State) -> tuple[str, ...]:
    """The clauses behind a carry-over limit: TG-E2, and TG-Q18 too when this round is the game's last.

    The last round is the one a twelfth tribe card ended, or the one before the robber's final raid;
    limits there apply only because TG-Q18 says they still do before scoring.
    """
    final = s.ender is not None or last_round(eng, s)
    return ("TG-E2", "TG-Q18") if final else ("TG-E2",)


def do_return(eng: Engine, s: State, a: Action, p: str, ev: Events) -> State:
    goods = as_bundle(a, "goods", GOODS)
    if s.stage != "limits":
        raise refuse("Goods are returned only at the end of a round.", "TG-E2")
    sup = s.supply(p)
    extra = sup.goods - fx.goods_limit(eng.cat, sup)
    if sum(n for _, n in goods) != extra or not sup.can_pay(goods):
        raise refuse(f"{cap(p)} must return exactly {goods_count(extra)} from those they hold.", "TG-E2")
    s = s.with_supply(p, sup.add(goods, -1))
    ev.append(Event("penalty", f"{cap(p)} returns {bundle_text(goods)} to keep within the limit.",
                    limit_rules(eng, s), (p,)))  # fmt: skip
    return evolve(s, queue=s.queue[1:])
