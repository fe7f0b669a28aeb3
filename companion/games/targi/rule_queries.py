"""Questions the rules answer about a position without changing it: where a Targi may stand (TG-P1 to
TG-P5), which exchanges and Fata Morgana moves are open, what a tribe card allows, whether this round is the last.

Asked by the prompts, the offered actions and the actions themselves, so that each says the same.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.games.targi import effects as fx
from companion.games.targi.action_fields import Action
from companion.games.targi.board import EDGE_CARDS, OPPOSITE, same_line
from companion.games.targi.cards import CORNERS, GOODS, Bundle, bundle, bundle_text
from companion.games.targi.phrasing import cap, refuse
from companion.games.targi.state import Slot, State, Task
from companion.phrases import series

if TYPE_CHECKING:
    from companion.games.targi.engine import Engine


def display_full(s: State, p: str) -> bool:
    """Whether ``p``'s display has no free place: no tribe card can be played (TG-Q21), and the game ends with
    this round (TG-END2)."""
    return all(len(row) >= 4 for row in s.supply(p).rows)


def tribe_choices(eng: Engine, s: State, p: str, task: Task) -> list[Action]:
    sup = s.supply(p)
    out: list[Action] = []
    for cid in dict.fromkeys(task.cards):
        card = eng.cat.tribe[cid]
        for cost in card.costs:
            if not sup.can_pay(cost):
                continue
            for row in range(3):
                if len(sup.rows[row]) < 4:
                    out.append({"type": "play", "card": cid, "pay": dict(cost), "row": row + 1,
                                "text": f"Play {card.label} in row {row + 1}, paying {bundle_text(cost)}"})
        if task.source != "noble" and len(sup.hand) < fx.hand_size(eng.cat, sup):
            out.append({"type": "hold", "card": cid, "text": f"Keep {card.label} in hand"})
        out.append({"type": "discard", "card": cid, "text": f"Discard {card.label}"})
    return out


def placement_problem(eng: Engine, s: State, p: str, n: int) -> tuple[str, str] | None:
    label = f"Card {n} ({eng.cat.border[n].label})"
    # TG-P1: each player has three Targi; a loaded position could name a placing player with all
    # three already out, and a fourth Targi must not appear.
    if placed(s, p) >= fx.TARGI:
        return f"{cap(p)} has already placed all {fx.TARGI} Targi this round.", "TG-P1"
    if n in CORNERS:
        return f"{label} is a raid corner: no Targi may stand there.", "TG-P4"
    if n == s.robber and not fx.may_place_on_robber(eng.cat, s.supply(p)):
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


def placed(s: State, p: str) -> int:
    return sum(1 for _, owner in s.targi if owner == p)


def can_place(eng: Engine, s: State, p: str) -> bool:
    if placed(s, p) >= fx.TARGI:
        return False
    return any(placement_problem(eng, s, p, n) is None for n in EDGE_CARDS)


def fata_moves(s: State, p: str) -> list[tuple[int, int]]:
    occupied = {i for i, _ in s.markers}
    targets = [i for i, slot in enumerate(s.centre) if i not in occupied and not slot.empty
               and (not slot.face_down or s.rules.allow_face_down)]  # fmt: skip
    return [(a, b) for a, owner in s.markers if owner == p for b in targets]


def trades(s: State, p: str, kind: str) -> list[tuple[Bundle, Bundle]]:
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


def trader_rates(s: State, p: str) -> str:
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


def lying_there(eng: Engine, slot: Slot) -> str:
    """', which holds Dune Dancer (T36, targia, 2 VP, costs 3 pepper or 1 date and 1 gold)': a face-up centre card in
    full, for an answer about its place. The touchscreen's card shows its VP and costs in letters, not its name.
    """
    if slot.card is None:
        return ""
    card = slot.card
    return f", which holds {eng.cat.tribe_text(card) if card in eng.cat.tribe else eng.cat.goods_text(card)}"


def need_action_phase(s: State, p: str, what: str) -> None:
    if s.stage != "actions":
        raise refuse(f"{what} only in the action phase.", "TG-A1")


def task_of(s: State, kind: str, message: str, rule: str) -> Task:
    if s.stage != "actions" or not s.tasks or s.tasks[0].kind != kind:
        raise refuse(message, rule)
    return s.tasks[0]


def last_round(eng: Engine, s: State) -> bool:
    """Whether this round is the game's last by the robber: its next move is onto the final raid (TG-Q4).

    The twelfth tribe card's round is last too, but ``ender`` says so (TG-END2)."""
    return s.ender is None and s.robber + 1 == eng.cat.last_raid
