"""Using a card: a Targi's border card (TG-A2, TG-B1 to TG-B7), a tribe marker's centre card (TG-A3), and
the cards the table turns up for them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.errors import InvalidAction
from companion.game import Event
from companion.games.targi import effects as fx
from companion.games.targi.action_fields import Action, Events, as_slot
from companion.games.targi.cards import CORNERS, bundle, bundle_text, goods_count
from companion.games.targi.decks import (
    candidates,
    deck_out,
    discard,
    first_face_down,
    late_reveal,
    remove_drawn,
    reshuffle,
    take_face_down,
)
from companion.games.targi.phrasing import cap, refuse
from companion.games.targi.rule_queries import display_full, fata_moves, lying_there, need_action_phase, trades
from companion.games.targi.state import Slot, State, Task, evolve, ms_has, slot_name

if TYPE_CHECKING:
    from companion.games.targi.engine import Engine


def do_draw(eng: Engine, s: State, a: Action, p: str, ev: Events) -> State:
    deck, card = a["deck"], a["card"]
    want, cards = candidates(eng, s)
    if deck != want:
        raise refuse(f"The card to enter now comes from the {want} deck, not the {deck} deck.", "TG-DRAW")
    if not ms_has(cards, card):
        raise refuse(f"{eng.cat.card_label(card)} cannot come now: every copy is already accounted for.",
                     "TG-DRAW")  # fmt: skip
    if s.stage == "reveal" or late_reveal(eng, s):
        i = first_face_down(s)
        late = s.stage != "reveal"
        s = remove_drawn(s, deck, s.centre[i].gen, card, face_down=True)
        s = s.with_slot(i, Slot(deck, card, 0))
        rule = "TG-1" if s.round == 0 else "TG-Q25" if late else "TG-E1"
        tail = "; the last round is over, so it changes nothing" if late else ""
        ev.append(Event("info", f"Centre {slot_name(i)} shows {eng.cat.card_label(card)}{tail}.",
                        (rule, "TG-DRAW")))  # fmt: skip
        return s
    task = s.tasks[0]
    s = evolve(s, tasks=s.tasks[1:])
    if task.why == "use":
        i = task.slot or 0
        s = remove_drawn(s, deck, s.centre[i].gen, card, face_down=True)
        ev.append(Event("info", f"The face-down card at centre {slot_name(i)} is {eng.cat.card_label(card)}.",
                        ("TG-Q11", "TG-DRAW")))  # fmt: skip
        return use_central_card(eng, s, p, i, deck, card, ev)
    s = remove_drawn(s, deck, s.deck(deck).current.gen, card, face_down=False)
    if task.why == "caravan":
        s = gain_goods_card(eng, s, p, card, "the Caravan", ("TG-B2", "TG-G1"), ev)
        return discard(s, "goods", card)
    ev.append(Event("info", f"Tribal Expansion turns up {eng.cat.tribe_text(card)}.", ("TG-B3", "TG-DRAW")))
    return evolve(s, tasks=(Task("tribe", cards=(card,), source="expansion"), *s.tasks))


def do_use(eng: Engine, s: State, a: Action, p: str, ev: Events) -> State:
    if "card" in a:
        n = a["card"]
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 16:
            raise InvalidAction('"card" must be a border card number from 1 to 16')
        need_action_phase(s, p, "Cards are used")
        if s.tasks:
            raise refuse("Finish the action in progress before starting another.", "TG-A4")
        if (n, p) not in s.targi and n in CORNERS:  # "no Targi on card 4 now" read as though one might be
            label = f"Card {n} ({eng.cat.border[n].label})"
            raise refuse(f"{label} is a raid corner: no Targi may stand there, so it is never used.", "TG-P4")
        if (n, p) not in s.targi:
            # The card's printed name: the touchscreen's card shows only what it does, at times shortened.
            raise refuse(f"{cap(p)} has no Targi on card {n} ({eng.cat.border[n].label}) now.", "TG-A2")
        return use_border(eng, s, p, n, ev)
    if "slot" not in a:
        raise InvalidAction('"use" needs a border "card" number or a central "slot" [row, column]')
    i = as_slot(a["slot"])
    need_action_phase(s, p, "Cards are used")
    if s.tasks:
        raise refuse("Finish the action in progress before starting another.", "TG-A4")
    slot = s.centre[i]
    if (i, p) not in s.markers:
        raise refuse(f"{cap(p)} has no tribe marker on centre {slot_name(i)}{lying_there(eng, slot)}.", "TG-A3")
    if slot.empty:
        raise refuse(f"Centre {slot_name(i)} holds no card to use.", "TG-Q28")
    if slot.face_down and not s.rules.allow_face_down:
        raise refuse(f"The card at centre {slot_name(i)} is face down and cannot be used.", "TG-Q11")
    s = evolve(s, markers=tuple(m for m in s.markers if m != (i, p)))
    if slot.face_down:
        return evolve(s, tasks=(Task("draw", deck=slot.deck, why="use", slot=i),))
    return use_central_card(eng, s, p, i, slot.deck or "goods", slot.card or "", ev)


def bonus(eng: Engine, s: State, p: str, action: str, ev: Events) -> State:
    for gain in fx.action_bonus(eng.cat, s.supply(p), action):
        s = s.with_supply(p, s.supply(p).add(gain))
        ev.append(Event("reward", f"{cap(p)} gains {bundle_text(gain)} from a tribe card.", ("TG-FX",), (p,)))
    return s


def use_border(eng: Engine, s: State, p: str, n: int, ev: Events) -> State:
    card = eng.cat.border[n]
    s = evolve(s, targi=tuple(t for t in s.targi if t != (n, p)))
    ev.append(Event("move", f"{cap(p)} uses {card.label} (card {n}) and takes the Targi back.", ("TG-A2",), (p,)))
    s = bonus(eng, s, p, card.code, ev)
    code = card.code
    if code == "NOBLE":
        hand = s.supply(p).hand
        if not hand:
            ev.append(Event("info", f"{cap(p)} holds no tribe card, so the Noble does nothing.",
                            ("TG-B1", "TG-Q14", "TG-Q33")))  # fmt: skip
            return s
        return evolve(s, tasks=(Task("tribe", cards=hand, source="noble"),))
    if code in ("CARAVAN", "TRIBAL_EXPANSION"):
        deck = "goods" if code == "CARAVAN" else "tribe"
        rule = "TG-B2" if code == "CARAVAN" else "TG-B3"
        s = reshuffle(s, deck, ev)
        if s.deck(deck).current.in_pile <= 0:
            ev.append(Event("warning", f"{deck_out(s, deck)}: nothing to turn up.", (rule, "TG-Q28")))
            return s
        if deck == "tribe" and display_full(s, p):
            text = (f"{cap(p)}'s display is full, so the tribe card turned up can only be kept or discarded; "
                    "Tribal Expansion still turns it up.")  # fmt: skip
            ev.append(Event("info", text, ("TG-B3", "TG-Q21"), (p,)))
        return evolve(s, tasks=(Task("draw", deck=deck, why="caravan" if deck == "goods" else "expansion"),))
    if code == "FATA_MORGANA":
        if not fata_moves(s, p):
            if any(owner == p for _, owner in s.markers):  # a marker, but every other card is taken or down
                ev.append(Event("info", f"{cap(p)}'s tribe marker has no free face-up centre card to move to, so "
                                "Fata Morgana does nothing.", ("TG-B4", "TG-Q11")))  # fmt: skip
            else:
                ev.append(Event("info", f"{cap(p)} has no tribe marker that Fata Morgana could move.", ("TG-B4",)))
            return s
        return evolve(s, tasks=(Task("fata"),))
    if code in ("SILVERSMITH", "TRADER"):
        kind = code.lower()
        if not trades(s, p, kind):
            rule = "TG-B5" if kind == "silversmith" else "TG-B6"
            ev.append(Event("info", f"{cap(p)} has nothing to exchange at the {card.label}.", (rule,)))
            return s
        return evolve(s, tasks=(Task(kind),))
    if code == "GAIN":
        gain = bundle(card.params["gain"])
        s = s.with_supply(p, s.supply(p).add(gain))
        ev.append(Event("reward", f"{cap(p)} takes {bundle_text(gain)}.", ("TG-B7",), (p,)))
        return s
    if code == "GAIN_CHOICE":
        return evolve(s, tasks=(Task("goods", why="border", n=int(card.params["goods"]), source=card.label),))
    raise AssertionError(f"border code {code}")


def use_central_card(eng: Engine, s: State, p: str, i: int, deck: str, card: str, ev: Events) -> State:
    if deck == "goods":
        s = gain_goods_card(eng, s, p, card, f"centre {slot_name(i)}", ("TG-A3", "TG-G1"), ev)
        s = discard(s, "goods", card)
        s = bonus(eng, s, p, "GOODS_CARD", ev)
        s = take_face_down(eng, s, "tribe", i, ev)
        ev.append(Event("info", f"A tribe card goes face down on centre {slot_name(i)}.", ("TG-A3", "TG-Q29")))
        return s
    ev.append(Event("move", f"{cap(p)} takes {eng.cat.tribe_text(card)} from centre {slot_name(i)}.", ("TG-A3",),
                    (p,)))  # fmt: skip
    s = evolve(s, tasks=(Task("tribe", cards=(card,), source="centre"), *s.tasks))
    s = bonus(eng, s, p, "TRIBE_CARD", ev)
    s = take_face_down(eng, s, "goods", i, ev)
    ev.append(Event("info", f"A goods card goes face down on centre {slot_name(i)}.", ("TG-A3", "TG-Q29")))
    return s


def gain_goods_card(eng: Engine, s: State, p: str, card: str, where: str, rules: tuple[str, ...], ev: Events) -> State:
    gc = eng.cat.goods[card]
    if gc.gain:
        s = s.with_supply(p, s.supply(p).add(gc.gain))
        ev.append(Event("reward", f"{cap(p)} takes {bundle_text(gc.gain)} ({gc.label}, {where}).", rules, (p,)))
    if gc.choice:
        if not gc.gain:  # named here, as a card that gives goods is: drawn at the Caravan it was only "Done."
            goods = goods_count(gc.choice)
            text = f"{cap(p)} takes {gc.label} ({where}): {goods} of their choice."
            ev.append(Event("reward", text, rules, (p,)))
        s = evolve(s, tasks=(Task("goods", why="goods", n=gc.choice, source=gc.label), *s.tasks))
    return s
