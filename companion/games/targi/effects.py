"""Where tribe cards' permanent effects change the rules: one function per hook point.

Keeping every hook here means the engine asks one question at each point
(placement, intersections, actions, raids, limits, hand, display, final
scoring) and a café's card data can change any of them.
"""

from __future__ import annotations

from companion.games.targi.cards import Bundle, Catalog, Effect, bundle
from companion.games.targi.state import Supply

GOODS_LIMIT = 10
GOLD_LIMIT = 3
HAND_SIZE = 1
MARKERS = 2
TARGI = 3


def permanents(cat: Catalog, supply: Supply, hook: str) -> list[Effect]:
    return [e for cid in supply.cards for e in cat.tribe[cid].permanent(hook)]


def goods_limit(cat: Catalog, supply: Supply) -> int:
    return GOODS_LIMIT + sum(int(e.params.get("goods", 0)) for e in permanents(cat, supply, "limits"))


def gold_limit(cat: Catalog, supply: Supply) -> int:
    return GOLD_LIMIT + sum(int(e.params.get("gold", 0)) for e in permanents(cat, supply, "limits"))


def hand_size(cat: Catalog, supply: Supply) -> int:
    return HAND_SIZE + sum(int(e.params.get("size", 0)) for e in permanents(cat, supply, "hand"))


def may_place_on_robber(cat: Catalog, supply: Supply) -> bool:
    return any(e.params.get("robber") for e in permanents(cat, supply, "placement"))


def raid_immune(cat: Catalog, supply: Supply) -> bool:
    return any(e.params.get("immune") for e in permanents(cat, supply, "raids"))


def raid_reduction(cat: Catalog, supply: Supply) -> int:
    return sum(int(e.params.get("reduce", 0)) for e in permanents(cat, supply, "raids"))


def action_bonus(cat: Catalog, supply: Supply, action: str) -> list[Bundle]:
    return [bundle(e.params["gain"]) for e in permanents(cat, supply, "actions") if e.params["action"] == action]


def unused_marker_bonus(cat: Catalog, supply: Supply) -> list[Bundle]:
    return [bundle(e.params["unused_marker"]) for e in permanents(cat, supply, "intersections")]


def is_wild(cat: Catalog, card_id: str) -> bool:
    return any(e.params.get("wild") for e in cat.tribe[card_id].permanent("display"))


def row_extras(cat: Catalog, supply: Supply) -> tuple[int, int]:
    finals = permanents(cat, supply, "final")
    return (sum(int(e.params.get("row_same", 0)) for e in finals),
            sum(int(e.params.get("row_different", 0)) for e in finals))
