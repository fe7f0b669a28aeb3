"""Final scoring: VP tokens, the VP on display cards, card end-game points and row bonuses."""

from __future__ import annotations

from typing import Any

from companion.games.targi.cards import Catalog
from companion.games.targi.effects import is_wild, row_extras
from companion.games.targi.state import State, Supply

ROW_SAME = 4
ROW_DIFFERENT = 2


def row_bonus(cat: Catalog, supply: Supply, row: tuple[str, ...]) -> int:
    """A complete row of four scores 4 if one symbol, 2 if four different; a wild card fits either."""
    if len(row) != 4:
        return 0
    same_extra, different_extra = row_extras(cat, supply)
    fixed = [cat.tribe[c].symbol for c in row if not is_wild(cat, c)]
    best = 0
    if len(set(fixed)) <= 1:
        best = max(best, ROW_SAME + same_extra)
    if len(set(fixed)) == len(fixed):
        best = max(best, ROW_DIFFERENT + different_extra)
    return best


def endgame_points(cat: Catalog, supply: Supply) -> int:
    total = 0
    cards = supply.cards
    for cid in cards:
        for e in cat.tribe[cid].effects:
            if e.code != "endgame":
                continue
            per = e.params["per"]
            if per == "symbol":
                count = sum(1 for c in cards if cat.tribe[c].symbol == e.params.get("symbol"))
            elif per == "gold":
                count = supply.gold
            elif per == "goods":
                count = supply.goods
            elif per == "row":
                count = sum(1 for row in supply.rows if len(row) == 4)
            else:
                count = len(cards)
            points = (count // int(e.params.get("every", 1))) * int(e.params["vp"])
            if "max" in e.params:
                points = min(points, int(e.params["max"]))
            total += points
    return total


def breakdown(cat: Catalog, supply: Supply) -> dict[str, int]:
    parts = {
        "tokens": supply.vp,
        "cards": sum(cat.tribe[c].vp for c in supply.cards),
        "card_bonuses": endgame_points(cat, supply),
        "rows": sum(row_bonus(cat, supply, row) for row in supply.rows),
    }
    parts["total"] = sum(parts.values())
    return parts


def score_words(cat: Catalog, supply: Supply) -> str:
    """The breakdown as the text board shows it: the table read a Python dictionary there."""
    parts = breakdown(cat, supply)
    return (f"{parts['total']} ({parts['tokens']} from VP tokens, {parts['cards']} from tribe cards, "
            f"{parts['card_bonuses']} from card bonuses, {parts['rows']} from rows)")  # fmt: skip


def result(cat: Catalog, state: State) -> dict[str, Any]:
    """The winner by total, then most gold, then most goods; otherwise a draw."""
    scores = {p: breakdown(cat, state.supply(p)) for p in state.players}
    keys = {p: (scores[p]["total"], state.supply(p).gold, state.supply(p).goods) for p in state.players}
    a, b = state.players
    out: dict[str, Any] = {"scores": {p: scores[p]["total"] for p in state.players}, "breakdown": scores}
    if keys[a] == keys[b]:
        out.update(winner=None, draw=True, decided_by="draw")
        return out
    winner = a if keys[a] > keys[b] else b
    decided = "points" if keys[a][0] != keys[b][0] else ("gold" if keys[a][1] != keys[b][1] else "goods")
    out.update(winner=winner, draw=False, decided_by=decided)
    return out
