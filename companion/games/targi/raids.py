"""Raids (TG-R2, TG-R3): what the robber takes, the ways to pay, and what happens to a player who cannot."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.game import Event
from companion.games.targi import effects as fx
from companion.games.targi.action_fields import Action, Events, as_bundle, goods_combos
from companion.games.targi.cards import Bundle, bundle, bundle_text, goods_count
from companion.games.targi.phrasing import cap, refuse
from companion.games.targi.state import State, evolve

if TYPE_CHECKING:
    from companion.games.targi.engine import Engine


def raid_amounts(eng: Engine, s: State, p: str) -> tuple[str, int, int]:
    params = eng.cat.border[s.robber].params
    kind = "gold" if "gold" in params else "goods"
    cut = fx.raid_reduction(eng.cat, s.supply(p))
    return kind, max(0, int(params[kind]) - cut), max(0, int(params["vp"]) - cut)


def raid_options(eng: Engine, s: State, p: str) -> list[Bundle]:
    sup = s.supply(p)
    kind, n, vp = raid_amounts(eng, s, p)
    options: list[Bundle] = []
    if kind == "goods" and sup.goods >= n:
        options.extend(goods_combos(n, sup.goods_tuple()))
    if kind == "gold" and sup.gold >= n:
        options.append(bundle({"gold": n}))
    if sup.vp >= vp:
        options.append(bundle({"vp": vp}))
    return list(dict.fromkeys(options))


def do_pay(eng: Engine, s: State, a: Action, p: str, ev: Events) -> State:
    if s.stage != "raid":
        raise refuse("There is no raid to pay now.", "TG-R2")
    pay = as_bundle(a, "pay", ("dates", "salt", "pepper", "gold", "vp"))
    options = raid_options(eng, s, p)
    if pay not in options:
        kind, n, vp = raid_amounts(eng, s, p)
        what = goods_count(n) if kind == "goods" else f"{n} {kind}"  # "1 good of any kind", not "1 goods"
        raise refuse(f"This raid takes {what} or {vp} VP, paid in full from what {cap(p)} has; "
                     f"{bundle_text(pay)} is not one of those.", "TG-R2")  # fmt: skip
    return pay_raid(s, p, pay, ev)


def pay_raid(s: State, p: str, pay: Bundle, ev: Events) -> State:
    s = s.with_supply(p, s.supply(p).add(pay, -1))
    ev.append(Event("penalty", f"{cap(p)} pays the raid: {bundle_text(pay)}.", ("TG-R2", "TG-Q3"), (p,)))
    return evolve(s, queue=s.queue[1:])


def start_raid(eng: Engine, s: State, ev: Events) -> State:
    card = eng.cat.border[s.robber]
    kind = "gold" if "gold" in card.params else "goods"
    n, vp = int(card.params[kind]), int(card.params["vp"])
    loss = goods_count(n) if kind == "goods" else f"{n} gold"
    ev.append(Event("warning", f"{card.label}: each player loses {loss} or {vp} VP.", ("TG-R2",)))
    # TG-Q3 / TG-Q34: the raid strikes both players at once, so who cannot pay is judged on what each held
    # when the robber came, and VP a forfeit hands over never pay the same raid. Settling the start player's
    # forfeit first handed its VP to the other player, who could then pay with it and leave the start player
    # with nothing; and a player who could pay was offered the VP the other's forfeit had just brought them
    # ("Pay 3 VP" to a player holding 1 gold and no VP at the Last Raid, keeping the gold that breaks a tie).
    # So the players who pay do so first (start player first, TG-R2), and a forfeit comes after them: what a
    # player who cannot pay holds is untouched by the others' payments. With nobody able to pay, each gains
    # the other's VP as they stood when the robber came.
    order = (s.start, s.other(s.start))
    unable = tuple(p for p in order if cannot_pay(eng, s, p))
    if len(unable) < len(order):
        return evolve(s, stage="raid", queue=(*(p for p in order if p not in unable), *unable), actor=None)
    before = s
    for p in unable:
        s = forfeit(eng, s, p, ev, before)
    return evolve(s, stage="raid", queue=(), actor=None)


def cannot_pay(eng: Engine, s: State, p: str) -> bool:
    """Whether ``p`` can pay neither raid option in full (and no tribe card spares them the raid)."""
    if fx.raid_immune(eng.cat, s.supply(p)):
        return False
    _kind, n, vp = raid_amounts(eng, s, p)
    return n > 0 and vp > 0 and not raid_options(eng, s, p)


def auto_raid(eng: Engine, s: State, p: str, ev: Events) -> State | None:
    """Settle a raid payment that leaves no choice; None when the player must choose."""
    sup = s.supply(p)
    if fx.raid_immune(eng.cat, sup):
        ev.append(Event("reward", f"A tribe card shields {cap(p)} from the raid.", ("TG-R2", "TG-FX"), (p,)))
        return evolve(s, queue=s.queue[1:])
    _kind, n, vp = raid_amounts(eng, s, p)
    if n == 0 or vp == 0:
        ev.append(Event("reward", f"{cap(p)}'s tribe cards cut the raid to nothing.", ("TG-R2", "TG-FX"), (p,)))
        return evolve(s, queue=s.queue[1:])
    options = raid_options(eng, s, p)
    if len(options) == 1:
        return pay_raid(s, p, options[0], ev)
    if options:
        return None
    return evolve(forfeit(eng, s, p, ev), queue=s.queue[1:])


def forfeit(eng: Engine, s: State, p: str, ev: Events, before: State | None = None) -> State:
    """``p`` cannot pay the raid in full: the opponent gains its VP (less any VP paid under partialPayment).

    ``before`` is the position when the robber came: what ``p`` can hand over under partialPayment is what
    they held then, not VP the other player's own forfeit has just brought them.
    """
    held = (before or s).supply(p)
    vp = raid_amounts(eng, s, p)[2]
    opponent = s.other(p)
    paid = min(held.vp, vp) if s.rules.partial_payment else 0
    if paid:
        s = s.with_supply(p, evolve(s.supply(p), vp=s.supply(p).vp - paid))
        ev.append(Event("penalty", f"{cap(p)} pays the {paid} VP they have.", ("TG-R3", "TG-Q3"), (p,)))
    s = s.with_supply(opponent, evolve(s.supply(opponent), vp=s.supply(opponent).vp + vp - paid))
    ev.append(Event("reward", f"{cap(p)} cannot pay the raid in full: {cap(opponent)} gains {vp - paid} VP.",
                    ("TG-R3", "TG-Q3"), (p, opponent)))  # fmt: skip
    return s
