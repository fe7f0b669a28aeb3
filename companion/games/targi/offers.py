"""The actions the position allows, each choice saying when it ends the round or the game.

The round's end is worked out by playing the action on a copy, so a choice cannot say one thing and the
action do another.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.errors import IllegalAction, InvalidAction
from companion.games.targi import effects as fx
from companion.games.targi.action_fields import Action, goods_combos, slot_list
from companion.games.targi.board import EDGE_CARDS
from companion.games.targi.card_words import amounts, border_gives
from companion.games.targi.cards import CORNERS, BorderCard, bundle_text, goods_count
from companion.games.targi.decks import candidates
from companion.games.targi.handlers import HANDLERS
from companion.games.targi.phrasing import cap
from companion.games.targi.prompts import pending
from companion.games.targi.raids import raid_options
from companion.games.targi.rounds import settle
from companion.games.targi.rule_queries import fata_moves, last_round, placement_problem, trades, tribe_choices
from companion.games.targi.state import State, slot_name

if TYPE_CHECKING:
    from companion.games.targi.engine import Engine


def legal(eng: Engine, s: State) -> list[Action]:
    """Every action the position allows, an action phase's last ones saying that the round ends with them."""
    out = offered(eng, s)
    if s.stage != "actions":
        return out
    return [with_round_end(eng, s, a) for a in out]


def with_round_end(eng: Engine, s: State, a: Action) -> Action:
    words = round_end_words(eng, s, a) or twelfth_card_words(s, a)
    if not words:
        return a
    # "this round" goes where the round's end is said right after it
    text = "Finish my actions" if a["type"] == "done" else a["text"]
    return {**a, "text": text + words}


def round_end_words(eng: Engine, s: State, a: Action) -> str:
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
            before, after = s, eng.apply(s, a)[0]
        else:
            before = HANDLERS[a["type"]](eng, s, a, p, [])
            after = settle(eng, before, [])
    except (IllegalAction, InvalidAction):  # pragma: no cover - every action offered is legal
        return ""
    if after.stage == "actions":
        return ""
    last = before.ender is None and last_round(eng, before)
    returns = []
    if s.rules.limits_at_end or not (before.ender is not None or last):
        for q in (before.start, before.other(before.start)):
            sup = before.supply(q)
            gold = sup.gold - fx.gold_limit(eng.cat, sup)
            goods = sup.goods - fx.goods_limit(eng.cat, sup)
            what = [f"{gold} gold"] * (gold > 0) + [goods_count(goods)] * (goods > 0)
            if what:  # the verb once: "White returns 2 gold, Black 1 gold"
                returns.append(f", {cap(q)}{'' if returns else ' returns'} {' and '.join(what)}")
    if before.ender is not None:
        return f"; the round and the game end{''.join(returns)}"
    then = ""
    if last:
        then = f", then the final raid ({eng.cat.border[eng.cat.last_raid].label}) and the game ends"
    elif before.robber + 1 in CORNERS:
        then = f", then the raid ({eng.cat.border[before.robber + 1].label})"
    return f"; the round ends{''.join(returns)}{then}"


def twelfth_card_words(s: State, a: Action) -> str:
    """A play that lays the player's twelfth tribe card while actions remain in the round: it read like any other
    play, and only the warning after it said the game now ends with this round (TG-END2, TG-Q24). A play that
    ends the round as well says 'the round and the game end' instead (``round_end_words``)."""
    if a["type"] != "play" or s.ender is not None:
        return ""
    return "; the game ends with this round" if len(s.supply(s.actor or "").cards) == 11 else ""


def named(card: BorderCard) -> str:
    """A border card as its placing button names it: "Palm Grove: +2 dates", "Trader"."""
    gives = border_gives(card.code, card.params)
    return f"{card.label}: {gives}" if gives else card.label


def offered(eng: Engine, s: State) -> list[Action]:
    if s.stage == "over":
        return []
    pend = pending(eng, s)
    if pend.kind == "draw":
        deck, cards = candidates(eng, s)
        describe = eng.cat.goods_text if deck == "goods" else eng.cat.tribe_text
        return [{"type": "draw", "deck": deck, "card": c, "text": f"Drawn: {describe(c)}"} for c, _ in cards]
    p = pend.player or ""
    if s.stage == "raid":
        return [{"type": "pay", "pay": dict(b), "text": f"Pay {bundle_text(b)}"} for b in raid_options(eng, s, p)]
    if s.stage == "place":
        return [{"type": "place", "card": n, "text": f"Place a Targi on {n} ({named(eng.cat.border[n])})"}
                for n in EDGE_CARDS if placement_problem(eng, s, p, n) is None]  # fmt: skip
    if s.stage == "limits":
        extra = s.supply(p).goods - fx.goods_limit(eng.cat, s.supply(p))
        return [{"type": "return", "goods": dict(b), "text": f"Return {bundle_text(b)}"}
                for b in goods_combos(extra, s.supply(p).goods_tuple())]  # fmt: skip
    if not s.tasks:
        out: list[Action] = []
        for n, owner in s.targi:
            if owner == p:
                card = eng.cat.border[n]
                gives = border_gives(card.code, card.params)
                out.append({"type": "use", "card": n,
                            "text": f"Use {card.label} (card {n}){f': {gives}' if gives else ''}"})
        for i, owner in s.markers:
            slot = s.centre[i]
            if owner != p or slot.empty or (slot.face_down and not s.rules.allow_face_down):
                continue
            what = "the face-down card" if slot.face_down else eng.cat.card_label(slot.card or "")
            goods = None if slot.face_down else eng.cat.goods.get(slot.card or "")
            # A goods card says what it gives, as the board's card does ("+2 dates"); a tribe card's cost and
            # ways come with the decision it opens.
            gives = amounts({**dict(goods.gain), "choice": goods.choice}) if goods else ""
            out.append({"type": "use", "slot": slot_list(i),
                        "text": f"Use {what} at centre {slot_name(i)}{f': {gives}' if gives else ''}"})
        out.append({"type": "done", "text": "Finish my actions this round"})
        return out
    task = s.tasks[0]
    if task.kind == "goods":
        return [{"type": "take", "goods": dict(b), "text": f"Take {bundle_text(b)}"} for b in goods_combos(task.n)]
    if task.kind == "tribe":
        return tribe_choices(eng, s, p, task)
    if task.kind == "fata":
        moves: list[Action] = [
            {"type": "move_marker", "from": slot_list(a), "to": slot_list(b),
             "text": f"Move the marker from centre {slot_name(a)} to centre {slot_name(b)}"}
            for a, b in fata_moves(s, p)
        ]  # fmt: skip
        return [*moves, {"type": "finish", "text": "Leave the markers where they are"}]
    open_trades = trades(s, p, task.kind)
    out = [{"type": "trade", "give": dict(g), "get": dict(t), "text": f"Give {bundle_text(g)} for {bundle_text(t)}"}
           for g, t in open_trades]  # fmt: skip
    out.append({"type": "finish", "text": "Stop trading" if task.kind == "trader" else "Make no exchange"})
    return out
