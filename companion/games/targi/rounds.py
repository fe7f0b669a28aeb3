"""The round's flow: the steps nobody decides (``settle``), from placement to markers, actions, limits and
the next round or the end of the game, and the final sentence.

``settle`` runs until the table owes an input again, so ``pending`` is always a draw, a choice or the end.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.game import Event
from companion.games.targi import effects as fx
from companion.games.targi.action_fields import Action, Events
from companion.games.targi.board import OPPOSITE, intersections
from companion.games.targi.cards import CORNERS, bundle_text
from companion.games.targi.limits import limit_rules
from companion.games.targi.phrasing import cap, refuse
from companion.games.targi.raids import auto_raid, start_raid
from companion.games.targi.rule_queries import can_place, last_round, need_action_phase
from companion.games.targi.scoring import result
from companion.games.targi.state import State, evolve, slot_name

if TYPE_CHECKING:
    from companion.games.targi.engine import Engine


def do_done(eng: Engine, s: State, a: Action, p: str, ev: Events) -> State:
    need_action_phase(s, p, "Actions are finished")
    if s.tasks:
        raise refuse("Finish the action in progress before ending the turn.", "TG-A4")
    return end_phase(eng, s, p, ev)


def settle(eng: Engine, s: State, ev: Events) -> State:
    for _ in range(100):
        stage = s.stage
        if stage == "over":
            return s
        if stage == "reveal":
            if any(slot.face_down for slot in s.centre):
                return s
            s = begin_round(eng, s, ev)
        elif stage == "raid":
            if not s.queue:
                s = after_raid(eng, s, ev)
                continue
            nxt = auto_raid(eng, s, s.queue[0], ev)
            if nxt is None:
                return s
            s = nxt
        elif stage == "place":
            order = (s.actor or s.start, s.other(s.actor or s.start))
            who = next((p for p in order if can_place(eng, s, p)), None)
            if who is not None:
                return evolve(s, actor=who)
            s = place_markers(eng, s, ev)
        elif stage == "actions":
            if s.tasks:
                return s
            a = s.actor or s.start
            has_pieces = any(o == a for _, o in s.targi) or any(o == a for _, o in s.markers)
            if has_pieces and not (s.ender == a and not s.rules.finish_own):
                return s
            s = end_phase(eng, s, a, ev)
        elif stage == "limits":
            if s.queue:
                return s
            if s.ender is not None:
                return game_over(eng, s, ev)
            if last_round(eng, s):
                s = skip_last_reveal(eng, s, ev)
                continue
            s = evolve(s, stage="reveal", actor=None)
    raise AssertionError("settle did not come to rest")


def skip_last_reveal(eng: Engine, s: State, ev: Events) -> State:
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
    return begin_round(eng, evolve(s, actor=None), ev)


def begin_round(eng: Engine, s: State, ev: Events) -> State:
    if s.round == 0:
        ev.append(Event("info", f"Round 1 begins: the robber stands on card 1; {cap(s.start)} starts.",
                        ("TG-1", "TG-R1")))  # fmt: skip
        return evolve(s, round=1, stage="place", actor=s.start)
    start = s.other(s.start)
    robber = s.robber + 1
    s = evolve(s, start=start, robber=robber)
    ev.append(Event("info", f"The amulet passes to {cap(start)}.", ("TG-E1",)))
    # TG-Q4 is the robber's schedule (each border card in turn, twelve rounds at most): cited with each step, so
    # a table asking how many rounds are left, or why the robber skipped a corner, is shown it.
    ev.append(Event("move", f"The robber moves to card {robber} ({eng.cat.border[robber].label}).",
                    ("TG-R1", "TG-Q4")))  # fmt: skip
    if robber in CORNERS:
        return start_raid(eng, s, ev)
    return start_round(s, ev)


def start_round(s: State, ev: Events) -> State:
    s = evolve(s, round=s.round + 1, stage="place", actor=s.start, done=())
    ev.append(Event("info", f"Round {s.round} begins; {cap(s.start)} places first.", ("TG-P1",)))
    return s


def after_raid(eng: Engine, s: State, ev: Events) -> State:
    if s.robber == eng.cat.last_raid:
        ev.append(Event("warning", "The robber has completed its lap: the game ends after this raid.",
                        ("TG-END1", "TG-Q25")))  # fmt: skip
        return game_over(eng, s, ev)
    s = evolve(s, robber=s.robber + 1)
    ev.append(Event("move", f"The next round begins at once: the robber moves on to card {s.robber} "
                    f"({eng.cat.border[s.robber].label}).", ("TG-R4", "TG-Q4")))  # fmt: skip
    return start_round(s, ev)


def place_markers(eng: Engine, s: State, ev: Events) -> State:
    """Each player's tribe markers, then what unused ones earn: the markers are told one after another, as the
    table lays them ("White puts a tribe marker on centre 2-3. Black puts a tribe marker on centre 1-1."), and
    the voice says them as one ("..., and Black on centre 1 1"); told between them, a player's gain split the
    two (9 of 27,740 distinct announcements over 150 seeded games said "puts a tribe marker on centre" or "Targi
    make no crossing: no tribe marker" twice)."""
    markers, gains = [], []
    for p in (s.start, s.other(s.start)):
        own = [n for n, o in s.targi if o == p]
        slots = intersections(own)[: fx.MARKERS]
        markers.extend((i, p) for i in slots)
        if slots:
            where = " and ".join(f"centre {slot_name(i)}" for i in slots)
            what = "tribe markers" if len(slots) > 1 else "a tribe marker"
            # Own Targi facing each other watch one line, so one crossing fewer (TG-Q6): cited, as the table
            # counting three Targi and finding one marker asks why.
            facing = ("TG-Q6",) if any(OPPOSITE.get(n) in own for n in own) else ()
            ev.append(Event("move", f"{cap(p)} puts {what} on {where}.", ("TG-M1", *facing), (p,)))
        else:
            ev.append(Event("info", f"{cap(p)}'s Targi make no crossing: no tribe marker this round.",
                            ("TG-M1", "TG-Q7"), (p,)))  # fmt: skip
        unused = fx.MARKERS - len(slots)
        for gain in fx.unused_marker_bonus(eng.cat, s.supply(p)) if unused else []:
            total = tuple((r, k * unused) for r, k in gain)
            s = s.with_supply(p, s.supply(p).add(total))
            gains.append(Event("reward", f"{cap(p)} gains {bundle_text(total)} for unused tribe markers.", ("TG-FX",),
                               (p,)))  # fmt: skip
    ev.extend(gains)
    ev.append(Event("info", f"{cap(s.start)} carries out all their actions first.", ("TG-A1",)))
    return evolve(s, markers=tuple(sorted(markers)), stage="actions", actor=s.start, done=(), tasks=())


def end_phase(eng: Engine, s: State, p: str, ev: Events) -> State:
    left = [n for n, o in s.targi if o == p] + [i for i, o in s.markers if o == p]
    s = evolve(s, targi=tuple(t for t in s.targi if t[1] != p), markers=tuple(m for m in s.markers if m[1] != p),
                done=(*s.done, p))  # fmt: skip
    tail = f" ({len(left)} unused piece{'s' if len(left) != 1 else ''} taken back)" if left else ""
    ev.append(Event("info", f"{cap(p)} has finished their actions{tail}.", ("TG-A1",), (p,)))
    other = s.other(p)
    if other not in s.done:
        return evolve(s, actor=other)
    return end_round(eng, s, ev)


def end_round(eng: Engine, s: State, ev: Events) -> State:
    s = evolve(s, targi=(), markers=(), actor=None, done=(), tasks=())
    if s.ender is not None and not s.rules.limits_at_end:
        return game_over(eng, s, ev)
    if not s.rules.limits_at_end and last_round(eng, s):
        # TG-Q18 / TG-Q25: this was the last round (the robber's next move is the final raid, then the
        # game ends), so with limits.applyAtGameEnd off no limits apply here, as for the twelfth card.
        return evolve(s, stage="limits", queue=())
    queue = []
    for p in (s.start, s.other(s.start)):
        sup = s.supply(p)
        limit = fx.gold_limit(eng.cat, sup)
        if sup.gold > limit:
            s = s.with_supply(p, evolve(sup, gold=limit))
            ev.append(Event("penalty", f"{cap(p)} returns {sup.gold - limit} gold (at most {limit} carried over).",
                            limit_rules(eng, s), (p,)))  # fmt: skip
        if sup.goods > fx.goods_limit(eng.cat, sup):
            queue.append(p)
    return evolve(s, stage="limits", queue=tuple(queue))


def game_over(eng: Engine, s: State, ev: Events) -> State:
    s = evolve(s, stage="over", actor=None, queue=(), tasks=(), targi=(), markers=())
    res = result(eng.cat, s)
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
