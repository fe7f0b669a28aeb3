"""Targi's transitions: the round flow, the actions and every refusal with its clause.

``settle`` runs the steps nobody decides (robber, markers, phase changes,
forced raid payments) until the table owes an input again, so ``pending``
is always a draw, a choice or the end.
"""

from __future__ import annotations

from typing import Any

from companion.errors import IllegalAction, InvalidAction, quoted
from companion.game import Event, Pending
from companion.games.targi import effects as fx
from companion.games.targi.board import EDGE_CARDS, OPPOSITE, intersections, same_line
from companion.games.targi.cards import CORNERS, GOODS, LAYOUT, Bundle, Catalog, bundle, bundle_text, goods_count
from companion.games.targi.scoring import result
from companion.games.targi.state import (
    Deck,
    Pile,
    Slot,
    State,
    Task,
    evolve,
    ms_add,
    ms_has,
    ms_remove,
    ms_size,
    slot_index,
    slot_name,
)
from companion.phrases import series

Events = list[Event]
Action = dict[str, Any]

# The clauses of a choice of goods, by where it comes from (Task.why): TG-G1 is the goods cards' clause, so
# a border card such as the house Crossroads Well cites TG-B7 and a tribe card's one-time gain TG-T5.
CHOICE_RULES: dict[str, tuple[str, ...]] = {
    "": ("TG-G1",), "goods": ("TG-G1",), "border": ("TG-B7",), "tribe": ("TG-T5", "TG-FX"),
}  # fmt: skip


def goods_combos(n: int, have: tuple[int, int, int] | None = None) -> list[Bundle]:
    """Every distinct way to make n goods (within ``have`` when given)."""
    out = []
    for d in range(n + 1):
        for s in range(n + 1 - d):
            p = n - d - s
            if have is None or (d <= have[0] and s <= have[1] and p <= have[2]):
                out.append(bundle({"dates": d, "salt": s, "pepper": p}))
    return out


def as_bundle(value: Any, allowed: tuple[str, ...], field: str) -> Bundle:
    """Parse a resource object from an action; a malformed one is an invalid action."""
    if not isinstance(value, dict):
        raise InvalidAction(f'"{field}" must be an object of resource counts, e.g. {{"salt": 2}}')
    for key, n in value.items():
        if key not in allowed:
            raise InvalidAction(f'"{field}" names {quoted(key)}; allowed: {", ".join(allowed)}')
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise InvalidAction(f'"{field}".{key} must be a whole number of at least 0')
    return bundle(value)


def as_slot(value: Any) -> int:
    ok = isinstance(value, list | tuple) and len(value) == 2 and all(isinstance(v, int) and 1 <= v <= 3 for v in value)
    if not ok:
        raise InvalidAction('a central slot is [row, column] with both from 1 to 3, e.g. "slot": [2, 3]')
    return slot_index(value[0], value[1])


def slot_list(index: int) -> list[int]:
    return [index // 3 + 1, index % 3 + 1]


def cap(player: str) -> str:
    """A player id as the table hears it: "white" is said and shown as "White", as every game writes players.

    Every text that mentions a player goes through here, wherever the player stands in the sentence;
    capitalising only a sentence's first letter left "white's Targi" lower case mid-sentence.
    """
    return player[:1].upper() + player[1:]


def refuse(message: str, rule: str) -> IllegalAction:
    """A refusal with its clause; players in it are already written with ``cap``, and it opens with a capital."""
    return IllegalAction(message[:1].upper() + message[1:], rule)


class Engine:
    def __init__(self, cat: Catalog) -> None:
        self.cat = cat

    # ------------------------------------------------------------------ setup
    def new_state(self, players: tuple[str, str], profile: str, rules: Any) -> State:
        from companion.games.targi.state import Supply

        goods = Deck((Pile(0, self.cat.full_deck["goods"], down=LAYOUT.count("goods")),))
        tribe = Deck((Pile(0, self.cat.full_deck["tribe"], down=LAYOUT.count("tribe")),))
        centre = tuple(Slot(deck, None, 0) for deck in LAYOUT)
        return State(
            players=players, profile=profile, rules=rules, round=0, robber=1, start=players[0], stage="reveal",
            actor=None, queue=(), supplies=(Supply(), Supply()), targi=(), markers=(), centre=centre,
            goods=goods, tribe=tribe,
        )  # fmt: skip

    def turn_reason(self, s: State) -> str:
        """Why the player named is the one to decide, for "why is it not my turn?": the start player places
        first and alternates, and carries out every action before the other player acts (TG-P1, TG-A1)."""
        start = cap(s.start)
        if s.stage == "place":
            return f" Targi go down one at a time in turn, {start} (the start player this round) first."
        if s.stage == "actions" and s.actor == s.start:
            return f" {start} is the start player this round and carries out every action first."
        if s.stage == "actions":
            return f" {start}, the start player this round, has finished; now {cap(s.actor)} acts."
        return ""

    # ------------------------------------------------------------------ pending
    def pending(self, s: State) -> Pending:
        if s.stage == "over":
            res = result(self.cat, s)
            return Pending("over", None, f"The game is over. {final_sentence(res, s.players)}", result=res)
        if s.stage == "reveal":
            i = self.first_face_down(s)
            what = "Set up the centre: turn" if s.round == 0 else "End of round: turn"
            return Pending("draw", None, f"{what} up the {s.centre[i].deck} card at centre {slot_name(i)} "
                           "and enter it.", deck=s.centre[i].deck)  # fmt: skip
        if s.stage == "raid":
            card = self.cat.border[s.robber]
            return Pending("choose", s.queue[0], f"{cap(s.queue[0])}: choose how to pay the raid ({card.label}).")
        if s.stage == "place":
            return Pending("choose", s.actor, f"{cap(s.actor)}: place a Targi on a border card.")
        if s.stage == "limits":
            p = s.queue[0]
            extra = s.supply(p).goods - fx.goods_limit(self.cat, s.supply(p))
            return Pending("choose", p, f"{cap(p)}: return {goods_count(extra)} to the supply (end-of-round limit).")
        task = s.tasks[0] if s.tasks else None
        if task is None:
            return Pending("choose", s.actor, f"{cap(s.actor)}: carry out an action, or finish your actions.")
        if task.kind == "draw":
            where = "top of the" if task.why != "use" else f"face-down card at centre {slot_name(task.slot or 0)} from"
            # A full display can take no card, so the table asked why it should turn one up: the action does (TG-B3).
            why = " (Tribal Expansion turns one up even with a full display)" if (
                task.why == "expansion" and self.display_full(s, s.actor or "")) else ""  # fmt: skip
            return Pending("draw", s.actor, f"Turn up the {where} {task.deck} deck and enter it{why}.", deck=task.deck)
        if task.kind == "tribe":
            return Pending("choose", s.actor, self.tribe_prompt(s, s.actor or "", task))
        texts = {
            "goods": f"{cap(s.actor)}: choose {goods_count(task.n)}.",
            "fata": f"{cap(s.actor)}: move a tribe marker (Fata Morgana), or finish.",
            "silversmith": f"{cap(s.actor)}: make one exchange at the Silversmith, or finish.",
            "trader": f"{cap(s.actor)}: exchange at the Trader, or finish.",
        }
        return Pending("choose", s.actor, texts[task.kind])

    def display_full(self, s: State, p: str) -> bool:
        """Whether ``p``'s display has no free place: no tribe card can be played (TG-Q21), and the game ends with
        this round (TG-END2)."""
        return all(len(row) >= 4 for row in s.supply(p).rows)

    def tribe_prompt(self, s: State, p: str, task: Task) -> str:
        """What may be done with the tribe card at hand, and why a way is shut: "play, hold or discard" was asked
        at the Noble (where a held card is not held again, TG-B1), with a full hand (TG-T2) and of a card the
        player cannot pay for (TG-Q20), so the table tried what it was told and was refused."""
        cards = " or ".join(self.cat.tribe[c].label for c in dict.fromkeys(task.cards))
        what = f"the card in hand, {cards}" if task.source == "noble" else cards
        kinds = {a["type"] for a in self.tribe_choices(s, p, task)}
        verbs = [v for v in ("play", "hold", "discard") if v in kinds]
        said = verbs[0] if len(verbs) == 1 else f"{', '.join(verbs[:-1])} or {verbs[-1]}"
        why = []
        if "play" not in kinds:
            why.append("the display is full" if self.display_full(s, p) else f"{cap(p)} cannot pay for it")
        if "hold" not in kinds and task.source != "noble":
            why.append("the hand is full")
        tail = f" ({' and '.join(why)})" if why else ""
        return f"{cap(p)}: {said} {what}{tail}."

    def first_face_down(self, s: State) -> int:
        for i, slot in enumerate(s.centre):
            if slot.face_down:
                return i
        raise AssertionError("no face-down card")

    # ------------------------------------------------------------------ decks
    def reshuffle(self, s: State, name: str, ev: Events) -> State:
        """Make the discard pile the new draw pile when the pile is physically empty."""
        deck = s.deck(name)
        if deck.current.in_pile > 0 or not deck.discard:
            return s
        if name == "tribe" and not s.rules.tribe_reshuffle:
            return s
        keep = tuple(p for p in deck.piles if ms_size(p.cards) > 0)
        gen = max(p.gen for p in deck.piles) + 1
        s = s.with_deck(name, Deck((*keep, Pile(gen, deck.discard, 0)), ()))
        ev.append(Event("info", f"The {name} deck is empty: its discard pile becomes the new draw pile.",
                        ("TG-D1", "TG-Q28")))  # fmt: skip
        return s

    def deck_out(self, s: State, name: str) -> str:
        """Why a deck gives no card: both it and its discard ran out, or (tribe.reshuffle off, TG-Q28) its discard
        is not reused; "its discard is empty" was said of a tribe discard pile holding cards."""
        if s.deck(name).discard:
            return f"The {name} deck is empty and its discard pile is not reused (option tribe.reshuffle is off)"
        return f"The {name} deck and its discard are empty"

    def take_face_down(self, s: State, name: str, index: int, ev: Events) -> State:
        """Lay a card of deck ``name`` face down on a central slot (or leave it empty)."""
        s = self.reshuffle(s, name, ev)
        deck = s.deck(name)
        if deck.current.in_pile <= 0:
            ev.append(Event("warning", f"{self.deck_out(s, name)}: no card to lay on centre {slot_name(index)}, so "
                            "it stays empty.", ("TG-D1", "TG-Q28")))  # fmt: skip
            return s.with_slot(index, Slot())
        cur = deck.current
        s = s.with_deck(name, evolve(deck, piles=(*deck.piles[:-1], evolve(cur, down=cur.down + 1))))
        return s.with_slot(index, Slot(name, None, cur.gen))

    def late_reveal(self, s: State) -> bool:
        """Whether a face-down centre card may still be entered after the last round, though none is asked for.

        Nothing uses it then (TG-Q25), but the table may turn the cards up as TG-E1 has it, and a game journalled
        before the companion stopped asking entered them before the final raid: its steps must still replay to
        the same end, for the results, an export and a resumed game.
        """
        return (s.ender is None and s.robber == self.cat.last_raid and s.stage in ("raid", "over")
                and any(slot.face_down for slot in s.centre))  # fmt: skip

    def candidates(self, s: State) -> tuple[str, tuple[tuple[str, int], ...]]:
        """The deck the table draws from now, and the cards that could come."""
        if s.stage == "reveal" or self.late_reveal(s):
            slot = s.centre[self.first_face_down(s)]
            pile = s.deck(slot.deck or "goods").pile(slot.gen)
            return slot.deck or "goods", pile.cards if pile else ()
        task = s.tasks[0]
        deck = s.deck(task.deck or "goods")
        if task.why == "use":
            pile = deck.pile(s.centre[task.slot or 0].gen)
            return task.deck or "goods", pile.cards if pile else ()
        return task.deck or "goods", deck.current.cards

    def remove_drawn(self, s: State, name: str, gen: int, card: str, face_down: bool) -> State:
        deck = s.deck(name)
        piles = []
        for p in deck.piles:
            if p.gen == gen:
                p = Pile(p.gen, ms_remove(p.cards, card), p.down - (1 if face_down else 0))
                if ms_size(p.cards) == 0 and gen != deck.current.gen:
                    continue  # an older generation whose last face-down card is now known
            piles.append(p)
        return s.with_deck(name, Deck(tuple(piles), deck.discard))

    def discard(self, s: State, name: str, card: str) -> State:
        deck = s.deck(name)
        return s.with_deck(name, evolve(deck, discard=ms_add(deck.discard, card)))

    # ------------------------------------------------------------------ legal actions
    def legal(self, s: State) -> list[Action]:
        """Every action the position allows, an action phase's last ones saying that the round ends with them."""
        out = self.offered(s)
        if s.stage != "actions":
            return out
        return [self.with_round_end(s, a) for a in out]

    def with_round_end(self, s: State, a: Action) -> Action:
        words = self.round_end_words(s, a) or self.twelfth_card_words(s, a)
        if not words:
            return a
        # "this round" goes where the round's end is said right after it
        text = "Finish my actions" if a["type"] == "done" else a["text"]
        return {**a, "text": text + words}

    def round_end_words(self, s: State, a: Action) -> str:
        """What follows an action that ends the round, said on its choice: 'Finish my actions this round' (or a last
        use, take, play or discard) read like any other, and only the announcements after it told the table that
        the round was over, that gold above the limit went back (TG-E2, TG-Q18) and that the robber raided next
        (TG-R1, TG-R2), or that the game ended (TG-END1, TG-END2). Worked out by playing the action on a copy."""
        p = s.actor or ""
        other = s.other(p)
        if a["type"] == "draw":  # the card the table turns up is entered, not chosen: nothing to weigh
            return ""
        if other not in s.done and any(o == other for _, o in (*s.targi, *s.markers)):
            return ""  # the other player still acts this round
        try:
            if a["type"] == "done":  # the handler itself ends the phase, and the round with it
                before, after = s, self.apply(s, a)[0]
            else:
                before = getattr(self, HANDLERS[a["type"]])(s, a, p, [])
                after = self.settle(before, [])
        except (IllegalAction, InvalidAction):  # pragma: no cover - every action offered is legal
            return ""
        if after.stage == "actions":
            return ""
        last = before.ender is None and self.last_round(before)
        returns = []
        if s.rules.limits_at_end or not (before.ender is not None or last):
            for q in (before.start, before.other(before.start)):
                sup = before.supply(q)
                gold = sup.gold - fx.gold_limit(self.cat, sup)
                goods = sup.goods - fx.goods_limit(self.cat, sup)
                what = [f"{gold} gold"] * (gold > 0) + [goods_count(goods)] * (goods > 0)
                if what:  # the verb once: "White returns 2 gold, Black 1 gold"
                    returns.append(f", {cap(q)}{'' if returns else ' returns'} {' and '.join(what)}")
        if before.ender is not None:
            return f"; the round and the game end{''.join(returns)}"
        then = ""
        if last:
            then = f", then the final raid ({self.cat.border[self.cat.last_raid].label}) and the game ends"
        elif before.robber + 1 in CORNERS:
            then = f", then the raid ({self.cat.border[before.robber + 1].label})"
        return f"; the round ends{''.join(returns)}{then}"

    def twelfth_card_words(self, s: State, a: Action) -> str:
        """A play that lays the player's twelfth tribe card while actions remain in the round: it read like any other
        play, and only the warning after it said the game now ends with this round (TG-END2, TG-Q24). A play that
        ends the round as well says 'the round and the game end' instead (``round_end_words``)."""
        if a["type"] != "play" or s.ender is not None:
            return ""
        return "; the game ends with this round" if len(s.supply(s.actor or "").cards) == 11 else ""

    def offered(self, s: State) -> list[Action]:
        if s.stage == "over":
            return []
        pend = self.pending(s)
        if pend.kind == "draw":
            deck, cards = self.candidates(s)
            describe = self.cat.goods_text if deck == "goods" else self.cat.tribe_text
            return [{"type": "draw", "deck": deck, "card": c, "text": f"Drawn: {describe(c)}"} for c, _ in cards]
        p = pend.player or ""
        if s.stage == "raid":
            return [{"type": "pay", "pay": dict(b), "text": f"Pay {bundle_text(b)}"} for b in self.raid_options(s, p)]
        if s.stage == "place":
            return [{"type": "place", "card": n, "text": f"Place a Targi on {n} ({self.cat.border[n].label})"}
                    for n in EDGE_CARDS if self.placement_problem(s, p, n) is None]  # fmt: skip
        if s.stage == "limits":
            extra = s.supply(p).goods - fx.goods_limit(self.cat, s.supply(p))
            return [{"type": "return", "goods": dict(b), "text": f"Return {bundle_text(b)}"}
                    for b in goods_combos(extra, s.supply(p).goods_tuple())]  # fmt: skip
        if not s.tasks:
            out: list[Action] = []
            for n, owner in s.targi:
                if owner == p:
                    out.append({"type": "use", "card": n, "text": f"Use {self.cat.border[n].label} (card {n})"})
            for i, owner in s.markers:
                slot = s.centre[i]
                if owner != p or slot.empty or (slot.face_down and not s.rules.allow_face_down):
                    continue
                what = "the face-down card" if slot.face_down else self.cat.card_label(slot.card or "")
                out.append({"type": "use", "slot": slot_list(i), "text": f"Use {what} at centre {slot_name(i)}"})
            out.append({"type": "done", "text": "Finish my actions this round"})
            return out
        task = s.tasks[0]
        if task.kind == "goods":
            return [{"type": "take", "goods": dict(b), "text": f"Take {bundle_text(b)}"} for b in goods_combos(task.n)]
        if task.kind == "tribe":
            return self.tribe_choices(s, p, task)
        if task.kind == "fata":
            moves: list[Action] = [
                {"type": "move_marker", "from": slot_list(a), "to": slot_list(b),
                 "text": f"Move the marker from centre {slot_name(a)} to centre {slot_name(b)}"}
                for a, b in self.fata_moves(s, p)
            ]  # fmt: skip
            return [*moves, {"type": "finish", "text": "Leave the markers where they are"}]
        trades = self.trades(s, p, task.kind)
        out = [{"type": "trade", "give": dict(g), "get": dict(t), "text": f"Give {bundle_text(g)} for {bundle_text(t)}"}
               for g, t in trades]  # fmt: skip
        out.append({"type": "finish", "text": "Stop trading" if task.kind == "trader" else "Make no exchange"})
        return out

    def tribe_choices(self, s: State, p: str, task: Task) -> list[Action]:
        sup = s.supply(p)
        out: list[Action] = []
        for cid in dict.fromkeys(task.cards):
            card = self.cat.tribe[cid]
            for cost in card.costs:
                if not sup.can_pay(cost):
                    continue
                for row in range(3):
                    if len(sup.rows[row]) < 4:
                        out.append({"type": "play", "card": cid, "pay": dict(cost), "row": row + 1,
                                    "text": f"Play {card.label} in row {row + 1}, paying {bundle_text(cost)}"})
            if task.source != "noble" and len(sup.hand) < fx.hand_size(self.cat, sup):
                out.append({"type": "hold", "card": cid, "text": f"Keep {card.label} in hand"})
            out.append({"type": "discard", "card": cid, "text": f"Discard {card.label}"})
        return out

    # ------------------------------------------------------------------ rule queries
    def placement_problem(self, s: State, p: str, n: int) -> tuple[str, str] | None:
        label = f"Card {n} ({self.cat.border[n].label})"
        # TG-P1: each player has three Targi; a loaded position could name a placing player with all
        # three already out, and a fourth Targi must not appear.
        if self.placed(s, p) >= fx.TARGI:
            return f"{cap(p)} has already placed all {fx.TARGI} Targi this round.", "TG-P1"
        if n in CORNERS:
            return f"{label} is a raid corner: no Targi may stand there.", "TG-P4"
        if n == s.robber and not fx.may_place_on_robber(self.cat, s.supply(p)):
            return f"{label} holds the robber this round.", "TG-P2"
        for m, owner in s.targi:
            if m == n:
                return f"{label} already holds {cap(owner)}'s Targi.", "TG-P3"
        opponent = s.other(p)
        for m, owner in s.targi:
            if owner != opponent:
                continue
            if OPPOSITE.get(m) == n:
                return f"{label} faces {cap(opponent)}'s Targi on card {m} across the board.", "TG-P5"
            if s.rules.forbid == "line" and same_line(m, n):
                return f"{label} shares a row or column with {cap(opponent)}'s Targi on card {m} (as written).", "TG-Q5"
        return None

    def placed(self, s: State, p: str) -> int:
        return sum(1 for _, owner in s.targi if owner == p)

    def can_place(self, s: State, p: str) -> bool:
        if self.placed(s, p) >= fx.TARGI:
            return False
        return any(self.placement_problem(s, p, n) is None for n in EDGE_CARDS)

    def raid_amounts(self, s: State, p: str) -> tuple[str, int, int]:
        params = self.cat.border[s.robber].params
        kind = "gold" if "gold" in params else "goods"
        cut = fx.raid_reduction(self.cat, s.supply(p))
        return kind, max(0, int(params[kind]) - cut), max(0, int(params["vp"]) - cut)

    def raid_options(self, s: State, p: str) -> list[Bundle]:
        sup = s.supply(p)
        kind, n, vp = self.raid_amounts(s, p)
        options: list[Bundle] = []
        if kind == "goods" and sup.goods >= n:
            options.extend(goods_combos(n, sup.goods_tuple()))
        if kind == "gold" and sup.gold >= n:
            options.append(bundle({"gold": n}))
        if sup.vp >= vp:
            options.append(bundle({"vp": vp}))
        return list(dict.fromkeys(options))

    def fata_moves(self, s: State, p: str) -> list[tuple[int, int]]:
        occupied = {i for i, _ in s.markers}
        targets = [i for i, slot in enumerate(s.centre) if i not in occupied and not slot.empty
                   and (not slot.face_down or s.rules.allow_face_down)]  # fmt: skip
        return [(a, b) for a, owner in s.markers if owner == p for b in targets]

    def trader_rates(self, s: State, p: str) -> str:
        """The Trader's exchanges open to ``p`` by its two rates (TG-B6), the goods ``p`` holds enough of named:
        "3 salt for 1 gold, or 2 dates or 2 salt for 1 other good". Listed one by one ("2 dates for 1
        salt or 2 dates for 1 pepper or 2 salt for 1 date or 2 salt for 1 pepper and 2 more") the refusal's
        second half was 27 words aloud and still left exchanges out."""
        sup = s.supply(p)
        three = [bundle_text(bundle({g: 3})) for g in GOODS if sup.amount(g) >= 3]
        two = [g for g in GOODS if sup.amount(g) >= 2]
        rates = [f"{series(three, 'or')} for 1 gold"] if three else []
        if len(two) == 1:  # one good: the other two by name
            rates.append(f"{bundle_text(bundle({two[0]: 2}))} for "
                         f"{series([bundle_text(bundle({h: 1})) for h in GOODS if h != two[0]], 'or')}")
        elif two:
            rates.append(f"{series([bundle_text(bundle({g: 2})) for g in two], 'or')} for 1 other good")
        return ", or ".join(rates)

    def trades(self, s: State, p: str, kind: str) -> list[tuple[Bundle, Bundle]]:
        sup = s.supply(p)
        out: list[tuple[Bundle, Bundle]] = []
        if kind == "trader":
            for g in GOODS:
                if sup.amount(g) >= 3:
                    out.append((bundle({g: 3}), bundle({"gold": 1})))
                if sup.amount(g) >= 2:
                    out.extend((bundle({g: 2}), bundle({h: 1})) for h in GOODS if h != g)
            return out
        for g in GOODS:
            if sup.amount(g) >= 2:
                out.append((bundle({g: 2}), bundle({"vp": 1})))
            if sup.amount(g) >= 4:
                out.append((bundle({g: 4}), bundle({"vp": 3})))
        if sup.gold >= 1:
            out.append((bundle({"gold": 1}), bundle({"vp": 2})))
        if sup.gold >= 2:
            out.append((bundle({"gold": 2}), bundle({"vp": 4})))
        return out

    # ------------------------------------------------------------------ apply
    def apply(self, s: State, a: Action, old: bool = False) -> tuple[State, Events]:
        """``old``: a step read from a game journalled before TG-Q25's skipped reveal (``Targi.old_step``), where a
        face-down centre card entered after the last round is taken as the table's; at the table it is refused."""
        kind = a["type"]
        handler = HANDLERS.get(kind)
        if handler is None:
            raise InvalidAction(f"unknown action type {quoted(kind)}; types: {', '.join(HANDLERS)}")
        late = old and kind == "draw" and self.late_reveal(s)
        if s.stage == "over" and not late:
            raise refuse(*self.over_refusal(s))
        pend = self.pending(s)
        who = a.get("player")
        if who is not None and who not in s.players:  # also on a card the table turns up: nobody plays 'red'
            raise InvalidAction(f"unknown player {quoted(who)}; players: {', '.join(s.players)}", "TG-TURN")
        if who is not None and pend.kind == "choose" and who != pend.player and not late:  # a card is the table's
            raise refuse(f"It is {cap(pend.player)}'s turn to decide, not {cap(who)}'s.{self.turn_reason(s)}",
                         "TG-TURN")
        if kind == "draw":
            deck, card = a.get("deck"), a.get("card")
            if deck not in ("goods", "tribe"):
                raise InvalidAction('"deck" must be "goods" or "tribe"')
            if not isinstance(card, str) or card not in self.cat.deck_cards[deck]:
                raise InvalidAction(f"{quoted(card)} is not a card of the {deck} deck")
            if pend.kind != "draw" and not late:
                raise refuse("No card is waiting to be turned up now.", "TG-DRAW")
        elif pend.kind == "draw":
            raise refuse(f"First turn up the {pend.deck} card and enter it.", "TG-DRAW")
        ev: Events = []
        s = getattr(self, handler)(s, a, pend.player or "", ev)
        s = self.settle(s, ev)
        return s, ev

    def over_refusal(self, s: State) -> tuple[str, str]:
        """Why nothing may be done after the end, with the clause of the way this game ended.

        TG-S1 (the final count) was cited, which says how the score is made, not that play has stopped:
        a full display ends the game under TG-END2, the robber's lap under TG-END1.
        """
        if s.ender is not None:
            return (f"The game is over: {cap(s.ender)} laid their twelfth tribe card; no more actions.", "TG-END2")
        if s.robber == self.cat.last_raid:
            return "The game is over: the robber has completed its lap; no more actions.", "TG-END1"
        return "The game is over; no more actions.", "TG-END1"  # a position loaded as over, the robber elsewhere

    # -- the table's inputs
    def do_draw(self, s: State, a: Action, p: str, ev: Events) -> State:
        deck, card = a["deck"], a["card"]
        want, cards = self.candidates(s)
        if deck != want:
            raise refuse(f"The card to enter now comes from the {want} deck, not the {deck} deck.", "TG-DRAW")
        if not ms_has(cards, card):
            raise refuse(f"{self.cat.card_label(card)} cannot come now: every copy is already accounted for.",
                         "TG-DRAW")  # fmt: skip
        if s.stage == "reveal" or self.late_reveal(s):
            i = self.first_face_down(s)
            late = s.stage != "reveal"
            s = self.remove_drawn(s, deck, s.centre[i].gen, card, face_down=True)
            s = s.with_slot(i, Slot(deck, card, 0))
            rule = "TG-1" if s.round == 0 else "TG-Q25" if late else "TG-E1"
            tail = "; the last round is over, so it changes nothing" if late else ""
            ev.append(Event("info", f"Centre {slot_name(i)} shows {self.cat.card_label(card)}{tail}.",
                            (rule, "TG-DRAW")))  # fmt: skip
            return s
        task = s.tasks[0]
        s = evolve(s, tasks=s.tasks[1:])
        if task.why == "use":
            i = task.slot or 0
            s = self.remove_drawn(s, deck, s.centre[i].gen, card, face_down=True)
            ev.append(Event("info", f"The face-down card at centre {slot_name(i)} is {self.cat.card_label(card)}.",
                            ("TG-Q11", "TG-DRAW")))  # fmt: skip
            return self.use_central_card(s, p, i, deck, card, ev)
        s = self.remove_drawn(s, deck, s.deck(deck).current.gen, card, face_down=False)
        if task.why == "caravan":
            s = self.gain_goods_card(s, p, card, "the Caravan", ("TG-B2", "TG-G1"), ev)
            return self.discard(s, "goods", card)
        ev.append(Event("info", f"Tribal Expansion turns up {self.cat.tribe_text(card)}.", ("TG-B3", "TG-DRAW")))
        return evolve(s, tasks=(Task("tribe", cards=(card,), source="expansion"), *s.tasks))

    # -- raids
    def do_pay(self, s: State, a: Action, p: str, ev: Events) -> State:
        if s.stage != "raid":
            raise refuse("There is no raid to pay now.", "TG-R2")
        pay = as_bundle(a.get("pay"), ("dates", "salt", "pepper", "gold", "vp"), "pay")
        options = self.raid_options(s, p)
        if pay not in options:
            kind, n, vp = self.raid_amounts(s, p)
            what = goods_count(n) if kind == "goods" else f"{n} {kind}"  # "1 good of any kind", not "1 goods"
            raise refuse(f"This raid takes {what} or {vp} VP, paid in full from what {cap(p)} has; "
                         f"{bundle_text(pay)} is not one of those.", "TG-R2")  # fmt: skip
        return self.pay_raid(s, p, pay, ev)

    def pay_raid(self, s: State, p: str, pay: Bundle, ev: Events) -> State:
        s = s.with_supply(p, s.supply(p).add(pay, -1))
        ev.append(Event("penalty", f"{cap(p)} pays the raid: {bundle_text(pay)}.", ("TG-R2", "TG-Q3"), (p,)))
        return evolve(s, queue=s.queue[1:])

    # -- placement
    def do_place(self, s: State, a: Action, p: str, ev: Events) -> State:
        n = a.get("card")
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 16:
            raise InvalidAction('"card" must be a border card number from 1 to 16')
        if s.stage != "place":
            raise refuse("Targi are placed only in the placement phase of a round.", "TG-P1")
        problem = self.placement_problem(s, p, n)
        if problem:
            raise refuse(*problem)
        before = s
        s = evolve(s, targi=tuple(sorted((*s.targi, (n, p)))), actor=s.other(p))
        ev.append(Event("move", f"{cap(p)} places a Targi on card {n} ({self.cat.border[n].label}).", ("TG-P1",), (p,)))
        # TG-Q9: a player left with no allowed card keeps the rest of their Targi off the board; placements
        # only close cards, so this happens once a round per player and is said then, not passed over in silence.
        for q in (s.other(p), p):
            left = fx.TARGI - self.placed(s, q)
            if left and self.can_place(before, q) and not self.can_place(s, q):
                rest = f"{left} Targi stay" if left > 1 else "their last Targi stays"
                ev.append(Event("info", f"{cap(q)} has no card left where a Targi may stand: {rest} off the board "
                                "this round.", ("TG-P1", "TG-Q9"), (q,)))  # fmt: skip
        return s

    # -- limits
    def limit_rules(self, s: State) -> tuple[str, ...]:
        """The clauses behind a carry-over limit: TG-E2, and TG-Q18 too when this round is the game's last.

        The last round is the one a twelfth tribe card ended, or the one before the robber's final raid;
        limits there apply only because TG-Q18 says they still do before scoring.
        """
        final = s.ender is not None or self.last_round(s)
        return ("TG-E2", "TG-Q18") if final else ("TG-E2",)

    def do_return(self, s: State, a: Action, p: str, ev: Events) -> State:
        goods = as_bundle(a.get("goods"), GOODS, "goods")
        if s.stage != "limits":
            raise refuse("Goods are returned only at the end of a round.", "TG-E2")
        sup = s.supply(p)
        extra = sup.goods - fx.goods_limit(self.cat, sup)
        if sum(n for _, n in goods) != extra or not sup.can_pay(goods):
            raise refuse(f"{cap(p)} must return exactly {goods_count(extra)} from those they hold.", "TG-E2")
        s = s.with_supply(p, sup.add(goods, -1))
        ev.append(Event("penalty", f"{cap(p)} returns {bundle_text(goods)} to keep within the limit.",
                        self.limit_rules(s), (p,)))  # fmt: skip
        return evolve(s, queue=s.queue[1:])

    # -- actions
    def lying_there(self, slot: Slot) -> str:
        """', which holds Dune Dancer (T36, targia, 2 VP, costs 3 pepper or 1 date, 1 gold)': a face-up centre card in
        full, for an answer about its place. The touchscreen's card shows its VP and costs in letters, not its name.
        """
        if slot.card is None:
            return ""
        card = slot.card
        return f", which holds {self.cat.tribe_text(card) if card in self.cat.tribe else self.cat.goods_text(card)}"

    def need_action_phase(self, s: State, p: str, what: str) -> None:
        if s.stage != "actions":
            raise refuse(f"{what} only in the action phase.", "TG-A1")

    def do_use(self, s: State, a: Action, p: str, ev: Events) -> State:
        if "card" in a:
            n = a["card"]
            if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 16:
                raise InvalidAction('"card" must be a border card number from 1 to 16')
            self.need_action_phase(s, p, "Cards are used")
            if s.tasks:
                raise refuse("Finish the action in progress before starting another.", "TG-A4")
            if (n, p) not in s.targi and n in CORNERS:  # "no Targi on card 4 now" read as though one might be
                label = f"Card {n} ({self.cat.border[n].label})"
                raise refuse(f"{label} is a raid corner: no Targi may stand there, so it is never used.", "TG-P4")
            if (n, p) not in s.targi:
                # The card's printed name: the touchscreen's card shows only what it does, at times shortened.
                raise refuse(f"{cap(p)} has no Targi on card {n} ({self.cat.border[n].label}) now.", "TG-A2")
            return self.use_border(s, p, n, ev)
        if "slot" not in a:
            raise InvalidAction('"use" needs a border "card" number or a central "slot" [row, column]')
        i = as_slot(a["slot"])
        self.need_action_phase(s, p, "Cards are used")
        if s.tasks:
            raise refuse("Finish the action in progress before starting another.", "TG-A4")
        slot = s.centre[i]
        if (i, p) not in s.markers:
            raise refuse(f"{cap(p)} has no tribe marker on centre {slot_name(i)}{self.lying_there(slot)}.", "TG-A3")
        if slot.empty:
            raise refuse(f"Centre {slot_name(i)} holds no card to use.", "TG-Q28")
        if slot.face_down and not s.rules.allow_face_down:
            raise refuse(f"The card at centre {slot_name(i)} is face down and cannot be used.", "TG-Q11")
        s = evolve(s, markers=tuple(m for m in s.markers if m != (i, p)))
        if slot.face_down:
            return evolve(s, tasks=(Task("draw", deck=slot.deck, why="use", slot=i),))
        return self.use_central_card(s, p, i, slot.deck or "goods", slot.card or "", ev)

    def bonus(self, s: State, p: str, action: str, ev: Events) -> State:
        for gain in fx.action_bonus(self.cat, s.supply(p), action):
            s = s.with_supply(p, s.supply(p).add(gain))
            ev.append(Event("reward", f"{cap(p)} gains {bundle_text(gain)} from a tribe card.", ("TG-FX",), (p,)))
        return s

    def use_border(self, s: State, p: str, n: int, ev: Events) -> State:
        card = self.cat.border[n]
        s = evolve(s, targi=tuple(t for t in s.targi if t != (n, p)))
        ev.append(Event("move", f"{cap(p)} uses {card.label} (card {n}) and takes the Targi back.", ("TG-A2",), (p,)))
        s = self.bonus(s, p, card.code, ev)
        code = card.code
        if code == "NOBLE":
            hand = s.supply(p).hand
            if not hand:
                ev.append(Event("info", f"{cap(p)} holds no tribe card, so the Noble does nothing.",
                                ("TG-B1", "TG-Q14")))  # fmt: skip
                return s
            return evolve(s, tasks=(Task("tribe", cards=hand, source="noble"),))
        if code in ("CARAVAN", "TRIBAL_EXPANSION"):
            deck = "goods" if code == "CARAVAN" else "tribe"
            rule = "TG-B2" if code == "CARAVAN" else "TG-B3"
            s = self.reshuffle(s, deck, ev)
            if s.deck(deck).current.in_pile <= 0:
                ev.append(Event("warning", f"{self.deck_out(s, deck)}: nothing to turn up.", (rule, "TG-Q28")))
                return s
            if deck == "tribe" and self.display_full(s, p):
                text = (f"{cap(p)}'s display is full, so the tribe card turned up can only be kept or discarded; "
                        "Tribal Expansion still turns it up.")  # fmt: skip
                ev.append(Event("info", text, ("TG-B3", "TG-Q21"), (p,)))
            return evolve(s, tasks=(Task("draw", deck=deck, why="caravan" if deck == "goods" else "expansion"),))
        if code == "FATA_MORGANA":
            if not self.fata_moves(s, p):
                if any(owner == p for _, owner in s.markers):  # a marker, but every other card is taken or down
                    ev.append(Event("info", f"{cap(p)}'s tribe marker has no free face-up centre card to move to, so "
                                    "Fata Morgana does nothing.", ("TG-B4", "TG-Q11")))  # fmt: skip
                else:
                    ev.append(Event("info", f"{cap(p)} has no tribe marker that Fata Morgana could move.", ("TG-B4",)))
                return s
            return evolve(s, tasks=(Task("fata"),))
        if code in ("SILVERSMITH", "TRADER"):
            kind = code.lower()
            if not self.trades(s, p, kind):
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

    def use_central_card(self, s: State, p: str, i: int, deck: str, card: str, ev: Events) -> State:
        if deck == "goods":
            s = self.gain_goods_card(s, p, card, f"centre {slot_name(i)}", ("TG-A3", "TG-G1"), ev)
            s = self.discard(s, "goods", card)
            s = self.bonus(s, p, "GOODS_CARD", ev)
            s = self.take_face_down(s, "tribe", i, ev)
            ev.append(Event("info", f"A tribe card goes face down on centre {slot_name(i)}.", ("TG-A3", "TG-Q29")))
            return s
        ev.append(Event("move", f"{cap(p)} takes {self.cat.tribe_text(card)} from centre {slot_name(i)}.", ("TG-A3",),
                        (p,)))  # fmt: skip
        s = evolve(s, tasks=(Task("tribe", cards=(card,), source="centre"), *s.tasks))
        s = self.bonus(s, p, "TRIBE_CARD", ev)
        s = self.take_face_down(s, "goods", i, ev)
        ev.append(Event("info", f"A goods card goes face down on centre {slot_name(i)}.", ("TG-A3", "TG-Q29")))
        return s

    def gain_goods_card(self, s: State, p: str, card: str, where: str, rules: tuple[str, ...], ev: Events) -> State:
        gc = self.cat.goods[card]
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

    def do_take(self, s: State, a: Action, p: str, ev: Events) -> State:
        goods = as_bundle(a.get("goods"), GOODS, "goods")
        task = self.task_of(s, "goods", "No choice of goods is open now.", "TG-G1")
        rules = CHOICE_RULES[task.why]
        if sum(n for _, n in goods) != task.n:
            raise refuse(f"{cap(p)} chooses exactly {goods_count(task.n)} here.", rules[0])
        s = s.with_supply(p, s.supply(p).add(goods))
        ev.append(Event("reward", f"{cap(p)} chooses {bundle_text(goods)} ({task.source}).", rules, (p,)))
        return evolve(s, tasks=s.tasks[1:])

    def task_of(self, s: State, kind: str, message: str, rule: str) -> Task:
        if s.stage != "actions" or not s.tasks or s.tasks[0].kind != kind:
            raise refuse(message, rule)
        return s.tasks[0]

    def tribe_card_arg(self, s: State, a: Action) -> tuple[Task, str]:
        card = a.get("card")
        if not isinstance(card, str) or card not in self.cat.tribe:
            raise InvalidAction(f"{quoted(card)} is not a tribe card")
        open_task = s.stage == "actions" and s.tasks and s.tasks[0].kind == "tribe"
        if not open_task and s.actor is not None and card in s.supply(s.actor).hand:
            # TG-T2: the card in hand is played or dropped only through the Noble; TG-T1 (deciding on a
            # card just taken) does not say why the held card cannot be played now.
            raise refuse(f"{self.cat.card_label(card)} is in {cap(s.actor)}'s hand: a held card is played or "
                         "discarded only by using the Noble.", "TG-T2")  # fmt: skip
        task = self.task_of(s, "tribe", "No tribe card is waiting for a decision now.", "TG-T1")
        if card not in task.cards:
            where = "in hand" if task.source == "noble" else "being decided on"
            raise refuse(f"{self.cat.card_label(card)} is not the card {where} now.", "TG-T1")
        return task, card

    def do_play(self, s: State, a: Action, p: str, ev: Events) -> State:
        pay = as_bundle(a.get("pay"), ("dates", "salt", "pepper", "gold"), "pay")
        row = a.get("row")
        if isinstance(row, bool) or not isinstance(row, int) or not 1 <= row <= 3:
            raise InvalidAction('"row" must be 1, 2 or 3')
        task, cid = self.tribe_card_arg(s, a)
        card = self.cat.tribe[cid]
        sup = s.supply(p)
        if pay not in card.costs:
            options = " or ".join(bundle_text(c) for c in card.costs)
            raise refuse(f"{card.label} costs {options}; {bundle_text(pay)} is not one of its options.", "TG-T3")
        if not sup.can_pay(pay):
            # "cannot pay" alone left the table counting goods: say what is held, and what may be done instead.
            held = ", ".join(f"{getattr(sup, r)} {'date' if r == 'dates' and getattr(sup, r) == 1 else r}"
                             for r, n in pay if getattr(sup, r) < n)
            if task.source == "noble":
                instead = "the held card may be discarded instead"
            elif len(sup.hand) < fx.hand_size(self.cat, sup):
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
        rules = ("TG-T1", "TG-T3", "TG-T4") + (("TG-B1",) if task.source == "noble" else ())
        ev.append(Event("move", f"{cap(p)} pays {bundle_text(pay)} and plays {card.label} into row {row}.", rules,
                        (p,)))  # fmt: skip
        s = self.card_effects(s, p, cid, ev)
        if len(sup.cards) == 12 and s.ender is None:
            s = evolve(s, ender=p)
            own = "finishes their actions" if s.rules.finish_own else "stops now"
            tail = ", and the other player still takes their turn" if s.start == p else ""
            ev.append(Event("warning", f"{cap(p)} plays their twelfth tribe card: the game ends after this round "
                            f"({cap(p)} {own}{tail}).", ("TG-END2", "TG-Q24"), (p,)))  # fmt: skip
        return s

    def card_effects(self, s: State, p: str, cid: str, ev: Events) -> State:
        card = self.cat.tribe[cid]
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

    def do_hold(self, s: State, a: Action, p: str, ev: Events) -> State:
        task, cid = self.tribe_card_arg(s, a)
        if task.source == "noble":
            raise refuse("At the Noble a held card is played or discarded, not held again.", "TG-B1")
        sup = s.supply(p)
        if len(sup.hand) >= fx.hand_size(self.cat, sup):
            # A tribe card (the house Caravan Bell) may widen the hand: "holds a tribe card" read wrong at two.
            held = " and ".join(self.cat.tribe[c].label for c in sup.hand)
            room = "a tribe card" if len(sup.hand) == 1 else f"{len(sup.hand)} tribe cards, as many as their hand takes"
            raise refuse(f"{cap(p)} already holds {room} ({held}); a further card must be played or discarded.",
                         "TG-T2")  # fmt: skip
        s = evolve(s.with_supply(p, evolve(sup, hand=(*sup.hand, cid))), tasks=s.tasks[1:])
        ev.append(Event("move", f"{cap(p)} keeps {self.cat.tribe[cid].label} in hand.", ("TG-T1", "TG-T2"), (p,)))
        return s

    def do_discard(self, s: State, a: Action, p: str, ev: Events) -> State:
        task, cid = self.tribe_card_arg(s, a)
        if task.source == "noble":
            sup = s.supply(p)
            k = sup.hand.index(cid)
            s = s.with_supply(p, evolve(sup, hand=sup.hand[:k] + sup.hand[k + 1:]))
        s = evolve(self.discard(s, "tribe", cid), tasks=s.tasks[1:])
        ev.append(Event("move", f"{cap(p)} discards {self.cat.tribe[cid].label}.", ("TG-T1",), (p,)))
        return s

    def do_move_marker(self, s: State, a: Action, p: str, ev: Events) -> State:
        src, dst = as_slot(a.get("from")), as_slot(a.get("to"))
        self.task_of(s, "fata", "Markers move only with Fata Morgana.", "TG-B4")
        if (src, p) not in s.markers:
            raise refuse(f"{cap(p)} has no unused tribe marker on centre {slot_name(src)}.", "TG-Q11")
        if (src, dst) not in self.fata_moves(s, p):
            slot = s.centre[dst]
            why = ("holds a marker" if any(i == dst for i, _ in s.markers)
                   else "is empty" if slot.empty else "is face down")  # fmt: skip
            rule = "TG-Q11" if slot.face_down else "TG-B4"
            raise refuse(f"Centre {slot_name(dst)} {why}; Fata Morgana needs a free face-up card.", rule)
        markers = tuple(sorted((dst, p) if m == (src, p) else m for m in s.markers))
        ev.append(Event("move", f"{cap(p)} moves a tribe marker from centre {slot_name(src)} to {slot_name(dst)}.",
                        ("TG-B4", "TG-Q11"), (p,)))  # fmt: skip
        return evolve(s, markers=markers, tasks=s.tasks[1:])

    def do_trade(self, s: State, a: Action, p: str, ev: Events) -> State:
        give = as_bundle(a.get("give"), ("dates", "salt", "pepper", "gold"), "give")
        get = as_bundle(a.get("get"), ("dates", "salt", "pepper", "gold", "vp"), "get")
        # The clause depends on why no exchange is open: outside the action phase (TG-A1), while another
        # action is unfinished (TG-A4), or with nothing open, typically after the Silversmith's one (TG-Q16).
        self.need_action_phase(s, p, "Exchanges happen")
        if s.tasks and s.tasks[0].kind not in ("silversmith", "trader"):
            raise refuse("Finish the action in progress before exchanging goods.", "TG-A4")
        if not s.tasks:
            raise refuse("No exchange is open now: exchanges happen while using the Trader, and the Silversmith "
                         "allows a single exchange per use.", "TG-Q16")
        kind = s.tasks[0].kind
        rule = "TG-B5" if kind == "silversmith" else "TG-B6"
        if (give, get) not in self.trades(s, p, kind):
            # Only goods (not gold) have a two-for-one at the Trader, so only they can ask for "the same kind".
            same = (kind == "trader" and len(give) == 1 and give[0][0] in GOODS and give[0][1] == 2
                    and get == ((give[0][0], 1),))  # fmt: skip
            if same:  # the seed's "1 other good"; TG-Q17 settles that it is always a different kind
                raise refuse(f"At the Trader two {give[0][0]} buy one good of another kind, not {give[0][0]}.",
                             "TG-Q17")  # fmt: skip
            # Name what is on offer: "not an exchange the Trader offers" left the table to work out the rates
            # and what the player's goods allow.
            offers = [f"{bundle_text(g)} for {bundle_text(t)}" for g, t in self.trades(s, p, kind)]
            shown = self.trader_rates(s, p) if kind == "trader" else (
                " or ".join(offers[:4]) + (f" and {len(offers) - 4} more" if len(offers) > 4 else ""))
            now = f"; {cap(p)} may give {shown}" if offers else ""  # an open exchange always has one, so far
            raise refuse(f"Giving {bundle_text(give)} for {bundle_text(get)} is not an exchange the "
                         f"{kind.title()} offers {cap(p)} now{now}.", rule)  # fmt: skip
        s = s.with_supply(p, s.supply(p).add(give, -1).add(get))
        ev.append(Event("reward", f"{cap(p)} gives {bundle_text(give)} for {bundle_text(get)}.", (rule,), (p,)))
        if kind == "silversmith":
            s = evolve(s, tasks=s.tasks[1:])
        return s

    def do_finish(self, s: State, a: Action, p: str, ev: Events) -> State:
        if s.stage != "actions" or not s.tasks or s.tasks[0].kind not in ("fata", "silversmith", "trader"):
            raise refuse("There is no Fata Morgana, Silversmith or Trader action to finish.", "TG-A4")
        names = {"fata": ("Fata Morgana", "TG-B4"), "silversmith": ("the Silversmith", "TG-B5"),
                 "trader": ("the Trader", "TG-B6")}  # fmt: skip
        name, rule = names[s.tasks[0].kind]
        ev.append(Event("info", f"{cap(p)} is finished with {name}.", (rule,), (p,)))
        return evolve(s, tasks=s.tasks[1:])

    def do_done(self, s: State, a: Action, p: str, ev: Events) -> State:
        self.need_action_phase(s, p, "Actions are finished")
        if s.tasks:
            raise refuse("Finish the action in progress before ending the turn.", "TG-A4")
        return self.end_phase(s, p, ev)

    # ------------------------------------------------------------------ automatic steps
    def settle(self, s: State, ev: Events) -> State:
        for _ in range(100):
            stage = s.stage
            if stage == "over":
                return s
            if stage == "reveal":
                if any(slot.face_down for slot in s.centre):
                    return s
                s = self.begin_round(s, ev)
            elif stage == "raid":
                if not s.queue:
                    s = self.after_raid(s, ev)
                    continue
                nxt = self.auto_raid(s, s.queue[0], ev)
                if nxt is None:
                    return s
                s = nxt
            elif stage == "place":
                order = (s.actor or s.start, s.other(s.actor or s.start))
                who = next((p for p in order if self.can_place(s, p)), None)
                if who is not None:
                    return evolve(s, actor=who)
                s = self.place_markers(s, ev)
            elif stage == "actions":
                if s.tasks:
                    return s
                a = s.actor or s.start
                has_pieces = any(o == a for _, o in s.targi) or any(o == a for _, o in s.markers)
                if has_pieces and not (s.ender == a and not s.rules.finish_own):
                    return s
                s = self.end_phase(s, a, ev)
            elif stage == "limits":
                if s.queue:
                    return s
                if s.ender is not None:
                    return self.game_over(s, ev)
                if self.last_round(s):
                    s = self.skip_last_reveal(s, ev)
                    continue
                s = evolve(s, stage="reveal", actor=None)
        raise AssertionError("settle did not come to rest")

    def last_round(self, s: State) -> bool:
        """Whether this round is the game's last by the robber: its next move is onto the final raid (TG-Q4).

        The twelfth tribe card's round is last too, but ``ender`` says so (TG-END2)."""
        return s.ender is None and s.robber + 1 == self.cat.last_raid

    def skip_last_reveal(self, s: State, ev: Events) -> State:
        """After the last round, on to the final raid without turning up the face-down centre cards.

        TG-E1 turns them up for the next round's tribe markers, but none follows: the robber's next move is the
        final raid and the game ends with it (TG-END1, TG-Q25), and the score counts no centre card (TG-S1).
        The table was asked to turn up and enter each card used in round 12 before the raid could be paid.
        """
        down = sum(1 for slot in s.centre if slot.face_down)
        if down:
            cards = "the face-down centre card stays" if down == 1 else f"the {down} face-down centre cards stay"
            them = "it" if down == 1 else "them"
            ev.append(Event("info", f"Round {s.round} was the last: {cards} face down and need not be entered, as no "
                            f"round follows to use {them}.", ("TG-Q25", "TG-E1")))  # fmt: skip
        return self.begin_round(evolve(s, actor=None), ev)

    def begin_round(self, s: State, ev: Events) -> State:
        if s.round == 0:
            ev.append(Event("info", f"Round 1 begins: the robber stands on card 1; {cap(s.start)} starts.",
                            ("TG-1", "TG-R1")))  # fmt: skip
            return evolve(s, round=1, stage="place", actor=s.start)
        start = s.other(s.start)
        robber = s.robber + 1
        s = evolve(s, start=start, robber=robber)
        ev.append(Event("info", f"The amulet passes to {cap(start)}.", ("TG-E1",)))
        ev.append(Event("move", f"The robber moves to card {robber} ({self.cat.border[robber].label}).", ("TG-R1",)))
        if robber in CORNERS:
            return self.start_raid(s, ev)
        return self.start_round(s, ev)

    def start_round(self, s: State, ev: Events) -> State:
        s = evolve(s, round=s.round + 1, stage="place", actor=s.start, done=())
        ev.append(Event("info", f"Round {s.round} begins; {cap(s.start)} places first.", ("TG-P1",)))
        return s

    def start_raid(self, s: State, ev: Events) -> State:
        card = self.cat.border[s.robber]
        kind = "gold" if "gold" in card.params else "goods"
        n, vp = int(card.params[kind]), int(card.params["vp"])
        loss = goods_count(n) if kind == "goods" else f"{n} gold"
        ev.append(Event("warning", f"{card.label}: each player loses {loss} or {vp} VP.", ("TG-R2",)))
        # TG-Q3 / TG-Q34: the raid strikes both players at once, so who cannot pay is judged on what each held
        # when the robber came. Settling the start player's forfeit first handed its VP to the other player,
        # who could then pay with it and leave the start player with nothing.
        order = (s.start, s.other(s.start))
        unable = [p for p in order if self.cannot_pay(s, p)]
        before = s
        for p in unable:
            s = self.forfeit(s, p, ev, before)
        return evolve(s, stage="raid", queue=tuple(p for p in order if p not in unable), actor=None)

    def cannot_pay(self, s: State, p: str) -> bool:
        """Whether ``p`` can pay neither raid option in full (and no tribe card spares them the raid)."""
        if fx.raid_immune(self.cat, s.supply(p)):
            return False
        _kind, n, vp = self.raid_amounts(s, p)
        return n > 0 and vp > 0 and not self.raid_options(s, p)

    def auto_raid(self, s: State, p: str, ev: Events) -> State | None:
        """Settle a raid payment that leaves no choice; None when the player must choose."""
        sup = s.supply(p)
        if fx.raid_immune(self.cat, sup):
            ev.append(Event("reward", f"A tribe card shields {cap(p)} from the raid.", ("TG-R2", "TG-FX"), (p,)))
            return evolve(s, queue=s.queue[1:])
        _kind, n, vp = self.raid_amounts(s, p)
        if n == 0 or vp == 0:
            ev.append(Event("reward", f"{cap(p)}'s tribe cards cut the raid to nothing.", ("TG-R2", "TG-FX"), (p,)))
            return evolve(s, queue=s.queue[1:])
        options = self.raid_options(s, p)
        if len(options) == 1:
            return self.pay_raid(s, p, options[0], ev)
        if options:
            return None
        return evolve(self.forfeit(s, p, ev), queue=s.queue[1:])

    def forfeit(self, s: State, p: str, ev: Events, before: State | None = None) -> State:
        """``p`` cannot pay the raid in full: the opponent gains its VP (less any VP paid under partialPayment).

        ``before`` is the position when the robber came: what ``p`` can hand over under partialPayment is what
        they held then, not VP the other player's own forfeit has just brought them.
        """
        held = (before or s).supply(p)
        vp = self.raid_amounts(s, p)[2]
        opponent = s.other(p)
        paid = min(held.vp, vp) if s.rules.partial_payment else 0
        if paid:
            s = s.with_supply(p, evolve(s.supply(p), vp=s.supply(p).vp - paid))
            ev.append(Event("penalty", f"{cap(p)} pays the {paid} VP they have.", ("TG-R3", "TG-Q3"), (p,)))
        s = s.with_supply(opponent, evolve(s.supply(opponent), vp=s.supply(opponent).vp + vp - paid))
        ev.append(Event("reward", f"{cap(p)} cannot pay the raid in full: {cap(opponent)} gains {vp - paid} VP.",
                        ("TG-R3", "TG-Q3"), (p, opponent)))  # fmt: skip
        return s

    def after_raid(self, s: State, ev: Events) -> State:
        if s.robber == self.cat.last_raid:
            ev.append(Event("warning", "The robber has completed its lap: the game ends after this raid.",
                            ("TG-END1", "TG-Q25")))  # fmt: skip
            return self.game_over(s, ev)
        s = evolve(s, robber=s.robber + 1)
        ev.append(Event("move", f"The next round begins at once: the robber moves on to card {s.robber} "
                        f"({self.cat.border[s.robber].label}).", ("TG-R4",)))  # fmt: skip
        return self.start_round(s, ev)

    def place_markers(self, s: State, ev: Events) -> State:
        markers = []
        for p in (s.start, s.other(s.start)):
            slots = intersections([n for n, o in s.targi if o == p])[: fx.MARKERS]
            markers.extend((i, p) for i in slots)
            if slots:
                where = " and ".join(f"centre {slot_name(i)}" for i in slots)
                what = "tribe markers" if len(slots) > 1 else "a tribe marker"
                ev.append(Event("move", f"{cap(p)} puts {what} on {where}.", ("TG-M1",), (p,)))
            else:
                ev.append(Event("info", f"{cap(p)}'s Targi make no crossing: no tribe marker this round.",
                                ("TG-M1", "TG-Q7"), (p,)))  # fmt: skip
            unused = fx.MARKERS - len(slots)
            for gain in fx.unused_marker_bonus(self.cat, s.supply(p)) if unused else []:
                total = tuple((r, k * unused) for r, k in gain)
                s = s.with_supply(p, s.supply(p).add(total))
                ev.append(Event("reward", f"{cap(p)} gains {bundle_text(total)} for unused tribe markers.", ("TG-FX",),
                                (p,)))  # fmt: skip
        ev.append(Event("info", f"{cap(s.start)} carries out all their actions first.", ("TG-A1",)))
        return evolve(s, markers=tuple(sorted(markers)), stage="actions", actor=s.start, done=(), tasks=())

    def end_phase(self, s: State, p: str, ev: Events) -> State:
        left = [n for n, o in s.targi if o == p] + [i for i, o in s.markers if o == p]
        s = evolve(s, targi=tuple(t for t in s.targi if t[1] != p), markers=tuple(m for m in s.markers if m[1] != p),
                    done=(*s.done, p))  # fmt: skip
        tail = f" ({len(left)} unused piece{'s' if len(left) != 1 else ''} taken back)" if left else ""
        ev.append(Event("info", f"{cap(p)} has finished their actions{tail}.", ("TG-A1",), (p,)))
        other = s.other(p)
        if other not in s.done:
            return evolve(s, actor=other)
        return self.end_round(s, ev)

    def end_round(self, s: State, ev: Events) -> State:
        s = evolve(s, targi=(), markers=(), actor=None, done=(), tasks=())
        if s.ender is not None and not s.rules.limits_at_end:
            return self.game_over(s, ev)
        if not s.rules.limits_at_end and self.last_round(s):
            # TG-Q18 / TG-Q25: this was the last round (the robber's next move is the final raid, then the
            # game ends), so with limits.applyAtGameEnd off no limits apply here, as for the twelfth card.
            return evolve(s, stage="limits", queue=())
        queue = []
        for p in (s.start, s.other(s.start)):
            sup = s.supply(p)
            limit = fx.gold_limit(self.cat, sup)
            if sup.gold > limit:
                s = s.with_supply(p, evolve(sup, gold=limit))
                ev.append(Event("penalty", f"{cap(p)} returns {sup.gold - limit} gold (at most {limit} carried over).",
                                self.limit_rules(s), (p,)))  # fmt: skip
            if sup.goods > fx.goods_limit(self.cat, sup):
                queue.append(p)
        return evolve(s, stage="limits", queue=tuple(queue))

    def game_over(self, s: State, ev: Events) -> State:
        s = evolve(s, stage="over", actor=None, queue=(), tasks=(), targi=(), markers=())
        res = result(self.cat, s)
        # The count (TG-S1 with its row bonuses, TG-S2); the tie-breaks (TG-S3, gold and goods after the limits,
        # TG-Q26) only when points were equal. A win on points cited the ties clause, a win on gold not TG-Q26.
        rules = ("TG-S1", "TG-S2") if res["decided_by"] == "points" else ("TG-S1", "TG-S2", "TG-S3", "TG-Q26")
        winners = () if res["winner"] is None else (res["winner"],)
        ev.append(Event("win", final_sentence(res, s.players), rules, winners))
        return s


def final_sentence(res: dict, players: tuple[str, ...] | list[str]) -> str:
    """The result as the table hears it at the end and reads it on the over screen: scores and the winner."""
    scores = ", ".join(f"{p.capitalize()} {res['scores'][p]}" for p in players)
    if res["winner"] is None:
        return f"Final score {scores}: a draw (equal points, gold and goods)."
    how = {"points": "", "gold": " on gold", "goods": " on goods"}[res["decided_by"]]
    return f"Final score {scores}: {res['winner'].capitalize()} wins{how}."


HANDLERS = {
    "draw": "do_draw",
    "pay": "do_pay",
    "place": "do_place",
    "use": "do_use",
    "done": "do_done",
    "take": "do_take",
    "play": "do_play",
    "hold": "do_hold",
    "discard": "do_discard",
    "move_marker": "do_move_marker",
    "trade": "do_trade",
    "finish": "do_finish",
    "return": "do_return",
}

__all__ = ["Engine", "goods_combos"]
