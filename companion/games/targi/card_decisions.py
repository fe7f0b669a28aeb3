"""Deciding on a tribe card (play, keep or discard: TG-T1 to TG-T5) and choosing goods."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.errors import InvalidAction, quoted
from companion.game import Event
from companion.games.targi import effects as fx
from companion.games.targi.action_fields import Action, Events, as_bundle
from companion.games.targi.cards import GOODS, bundle, bundle_text, goods_count
from companion.games.targi.decks import discard
from companion.games.targi.phrasing import cap, refuse
from companion.games.targi.rule_queries import task_of
from companion.games.targi.state import State, Supply, Task, evolve
from companion.phrases import series

if TYPE_CHECKING:
    from companion.games.targi.engine import Engine


# The clauses of a choice of goods, by where it comes from (Task.why): TG-G1 is the goods cards' clause, so
# a border card such as the house Crossroads Well cites TG-B7 and a tribe card's one-time gain TG-T5.
DISPLAY_ROWS = (1, 2, 3)  # the rows of a player's display a tribe card is played into (TG-T4)

CHOICE_RULES: dict[str, tuple[str, ...]] = {
    "": ("TG-G1",), "goods": ("TG-G1",), "border": ("TG-B7",), "tribe": ("TG-T5", "TG-FX"),
}  # fmt: skip


def do_take(eng: Engine, s: State, a: Action, p: str, ev: Events) -> State:
    goods = as_bundle(a, "goods", GOODS)
    task = task_of(s, "goods", "No choice of goods is open now.", "TG-G1")
    rules = CHOICE_RULES[task.why]
    if sum(n for _, n in goods) != task.n:
        raise refuse(f"{cap(p)} chooses exactly {goods_count(task.n)} here.", rules[0])
    s = s.with_supply(p, s.supply(p).add(goods))
    ev.append(Event("reward", f"{cap(p)} chooses {bundle_text(goods)} ({task.source}).", rules, (p,)))
    return evolve(s, tasks=s.tasks[1:])


def tribe_card_arg(eng: Engine, s: State, a: Action) -> tuple[Task, str]:
    card = a.get("card")
    if not isinstance(card, str) or card not in eng.cat.tribe:
        raise InvalidAction(f"{quoted(card)} is not a tribe card")
    open_task = s.stage == "actions" and s.tasks and s.tasks[0].kind == "tribe"
    if not open_task and s.actor is not None and card in s.supply(s.actor).hand:
        # TG-T2: the card in hand is played or dropped only through the Noble; TG-T1 (deciding on a
        # card just taken) does not say why the held card cannot be played now.
        raise refuse(f"{eng.cat.card_label(card)} is in {cap(s.actor)}'s hand: a held card is played or "
                     "discarded only by using the Noble.", "TG-T2")  # fmt: skip
    task = task_of(s, "tribe", "No tribe card is waiting for a decision now.", "TG-T1")
    if card not in task.cards and task.source != "noble" and s.actor is not None and card in s.supply(s.actor).hand:
        # TG-Q13: the held card cannot make room for the new one. "Clay Channel (T07) is not the card being
        # decided on now" (TG-T1) left a player who meant to swap the two without the rule that forbids it.
        new = series([eng.cat.card_label(c) for c in task.cards])
        raise refuse(f"{eng.cat.card_label(card)} stays in {cap(s.actor)}'s hand: the held card cannot be swapped "
                     f"for {new}, which is played or discarded.", "TG-Q13")  # fmt: skip
    if card not in task.cards:
        where = "in hand" if task.source == "noble" else "being decided on"
        raise refuse(f"{eng.cat.card_label(card)} is not the card {where} now.", "TG-T1")
    return task, card


def full_hand_rules(eng: Engine, sup: Supply, task: Task) -> tuple[str, ...]:
    """The clauses that shut the hand to the card decided on, when it is full: the hand's limit (TG-T2), and for a
    card taken from the centre the decision that it is played or discarded (TG-Q32); none at the Noble, whose
    card is the held one, or while the hand has room.

    A central card held with a full hand was refused citing TG-T2 alone, and its play or discard cited neither:
    the table asking why it could not keep the card never reached TG-Q32, the decision made for that case.
    """
    if task.source == "noble" or len(sup.hand) < fx.hand_size(eng.cat, sup):
        return ()
    return ("TG-T2", "TG-Q32") if task.source == "centre" else ("TG-T2",)


def do_play(eng: Engine, s: State, a: Action, p: str, ev: Events) -> State:
    pay = as_bundle(a, "pay", ("dates", "salt", "pepper", "gold"))
    row = a.get("row")
    if isinstance(row, bool) or row not in DISPLAY_ROWS:
        raise InvalidAction('"row" must be 1, 2 or 3', "TG-T4")  # the display's three rows
    task, cid = tribe_card_arg(eng, s, a)
    card = eng.cat.tribe[cid]
    sup = s.supply(p)
    full = full_hand_rules(eng, sup, task)
    if pay not in card.costs:
        options = " or ".join(bundle_text(c) for c in card.costs)
        raise refuse(f"{card.label} costs {options}; {bundle_text(pay)} is not one of its options.", "TG-T3")
    if not sup.can_pay(pay):
        # "cannot pay" alone left the table counting goods: say what is held, and what may be done instead.
        held = series([f"{getattr(sup, r)} {'date' if r == 'dates' and getattr(sup, r) == 1 else r}"
                       for r, n in pay if getattr(sup, r) < n])
        if task.source == "noble":
            instead = "the held card may be discarded instead"
        elif len(sup.hand) < fx.hand_size(eng.cat, sup):
            instead = "a card that cannot be paid for is kept in hand or discarded"
        else:
            instead = "a card that cannot be paid for is discarded when the hand is full"
        raise refuse(f"{cap(p)} has {held}, not enough to pay {bundle_text(pay)} for {card.label}; {instead}.",
                     "TG-Q20")
    if len(sup.rows[row - 1]) >= 4:
        raise refuse(f"Row {row} of {cap(p)}'s display already holds four cards.", "TG-T4")
    rows = tuple((*r, cid) if k == row - 1 else r for k, r in enumerate(sup.rows))
    hand = sup.hand
    if task.source == "noble":
        k = hand.index(cid)
        hand = hand[:k] + hand[k + 1:]
    sup = evolve(sup.add(pay, -1), rows=rows, hand=hand)
    s = evolve(s.with_supply(p, sup), tasks=s.tasks[1:])
    rules = ("TG-T1", "TG-T3", "TG-T4") + (("TG-B1",) if task.source == "noble" else ()) + full
    # ", then": "pays 1 date and 1 salt and plays ..." ran the goods list into the next "and" (heard as one list)
    ev.append(Event("move", f"{cap(p)} pays {bundle_text(pay)}, then plays {card.label} into row {row}.", rules,
                    (p,)))  # fmt: skip
    s = card_effects(eng, s, p, cid, ev)
    if len(sup.cards) == 12 and s.ender is None:
        s = evolve(s, ender=p)
        own = "finishes their actions" if s.rules.finish_own else "stops now"
        tail = ", and the other player still takes their turn" if s.start == p else ""
        ev.append(Event("warning", f"{cap(p)} plays their twelfth tribe card: the game ends after this round "
                        f"({cap(p)} {own}{tail}).", ("TG-END2", "TG-Q24"), (p,)))  # fmt: skip
    return s


def card_effects(eng: Engine, s: State, p: str, cid: str, ev: Events) -> State:
    card = eng.cat.tribe[cid]
    choices = []
    for e in card.effects:
        if e.code == "gain":
            gain = bundle(e.params["gain"])
            s = s.with_supply(p, s.supply(p).add(gain))
            ev.append(Event("reward", f"{card.label} gives {cap(p)} {bundle_text(gain)} at once.",
                            ("TG-T5", "TG-FX"), (p,)))  # fmt: skip
        elif e.code == "gain_choice":
            choices.append(Task("goods", why="tribe", n=int(e.params["goods"]), source=card.label))
    if choices:
        s = evolve(s, tasks=(*choices, *s.tasks))
    return s


def do_hold(eng: Engine, s: State, a: Action, p: str, ev: Events) -> State:
    task, cid = tribe_card_arg(eng, s, a)
    if task.source == "noble":
        raise refuse("At the Noble a held card is played or discarded, not held again.", "TG-B1")
    sup = s.supply(p)
    if full := full_hand_rules(eng, sup, task):
        # A tribe card (the house Caravan Bell) may widen the hand: "holds a tribe card" read wrong at two.
        held = " and ".join(eng.cat.tribe[c].label for c in sup.hand)
        room = "a tribe card" if len(sup.hand) == 1 else f"{len(sup.hand)} tribe cards, as many as their hand takes"
        # One clause per refusal: a central card's is the decision made for it (TG-Q32), which sends to TG-T2.
        raise refuse(f"{cap(p)} already holds {room} ({held}); a further card must be played or discarded.",
                     full[-1])  # fmt: skip
    s = evolve(s.with_supply(p, evolve(sup, hand=(*sup.hand, cid))), tasks=s.tasks[1:])
    ev.append(Event("move", f"{cap(p)} keeps {eng.cat.tribe[cid].label} in hand.", ("TG-T1", "TG-T2"), (p,)))
    return s


def do_discard(eng: Engine, s: State, a: Action, p: str, ev: Events) -> State:
    task, cid = tribe_card_arg(eng, s, a)
    if task.source == "noble":
        sup = s.supply(p)
        k = sup.hand.index(cid)
        s = s.with_supply(p, evolve(sup, hand=sup.hand[:k] + sup.hand[k + 1:]))
    full = full_hand_rules(eng, s.supply(p), task)
    s = evolve(discard(s, "tribe", cid), tasks=s.tasks[1:])
    ev.append(Event("move", f"{cap(p)} discards {eng.cat.tribe[cid].label}.", ("TG-T1", *full), (p,)))
    return s
