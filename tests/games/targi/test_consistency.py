"""Over random positions: ``apply`` accepts exactly what ``legal`` offers, and every refusal cites a clause."""

from __future__ import annotations

import random

from companion.errors import IllegalAction
from companion.game import normalize_action
from companion.games.targi.engine import goods_combos
from tests.games.targi.helpers import game

GOODS = ("dates", "salt", "pepper")


def universe(g, s) -> list[dict]:
    """Plausible well-formed actions of every type, legal or not, for the current position."""
    acts: list[dict] = [{"type": "done"}, {"type": "finish"}]
    acts += [{"type": "place", "card": n} for n in range(1, 17)]
    acts += [{"type": "use", "card": n} for n in range(1, 17)]
    acts += [{"type": "use", "slot": [r, c]} for r in (1, 2, 3) for c in (1, 2, 3)]
    for n in range(1, 4):
        acts += [{"type": "pay", "pay": dict(b)} for b in goods_combos(n)]
        acts += [{"type": "take", "goods": dict(b)} for b in goods_combos(n)]
    acts += [{"type": "pay", "pay": {"vp": n}} for n in (1, 2, 3)] + [{"type": "pay", "pay": {"gold": 1}}]
    for n in range(1, 4):
        acts += [{"type": "return", "goods": dict(b)} for b in goods_combos(n)]
    for give in GOODS:
        acts += [{"type": "trade", "give": {give: 3}, "get": {"gold": 1}}]
        acts += [{"type": "trade", "give": {give: 2}, "get": {get: 1}} for get in (*GOODS, "vp")]
        acts += [{"type": "trade", "give": {give: 4}, "get": {"vp": 3}}]
    acts += [{"type": "trade", "give": {"gold": n}, "get": {"vp": 2 * n}} for n in (1, 2)]
    acts += [{"type": "move_marker", "from": [a // 3 + 1, a % 3 + 1], "to": [b // 3 + 1, b % 3 + 1]}
             for a in range(9) for b in range(9) if a != b]  # fmt: skip
    cards = set(s.supply(s.players[0]).hand) | set(s.supply(s.players[1]).hand)
    for t in s.tasks:
        cards |= set(t.cards)
    cards |= {"T01", "T45"}
    for cid in sorted(cards):
        acts += [{"type": "hold", "card": cid}, {"type": "discard", "card": cid}]
        for cost in g.cat.tribe[cid].costs:
            acts += [{"type": "play", "card": cid, "pay": dict(cost), "row": r} for r in (1, 2, 3)]
    offered = g.legal_actions(s)
    acts += [{"type": "draw", "deck": d["deck"], "card": d["card"]} for d in offered if d["type"] == "draw"]
    for deck, ids in (("goods", g.cat.goods), ("tribe", g.cat.tribe)):
        acts += [{"type": "draw", "deck": deck, "card": cid} for cid in list(ids)[::7]]
    return acts


def key(a: dict) -> str:
    return repr(sorted((k, repr(v)) for k, v in a.items() if k != "text"))


def test_apply_accepts_exactly_the_legal_actions() -> None:
    g = game()
    rng = random.Random(7)
    checked = 0
    for n in range(3):
        s = g.setup(["white", "black"], g.resolve_options({}, ["standard", "as-written"][n % 2]))
        step = 0
        while g.pending(s).kind != "over":
            legal = g.legal_actions(s)
            offered = {key(a) for a in legal}
            assert len(offered) == len(legal), "an action is offered twice"
            if step % 3 == 0:
                for a in universe(g, s):
                    try:
                        g.apply(s, a)
                        accepted = True
                    except IllegalAction as refusal:
                        accepted = False
                        assert refusal.rule in g.rulebook, refusal.rule
                    assert accepted == (key(a) in offered), (a, g.pending(s).to_dict())
                    checked += 1
            s, _ = g.apply(s, normalize_action(g.sim_choose(s, legal, rng)))
            step += 1
    assert checked > 10000
