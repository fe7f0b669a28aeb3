"""An independent recount of the final score, straight from the position document and raw data.

It shares no code with ``scoring.py`` on purpose: the simulator compares the
two at every game end, so a scoring bug has to be made twice to go unseen.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import product
from typing import Any

ALL_SYMBOLS = ("well", "camel", "oasis", "targia", "tent")


def recount(document: Mapping[str, Any], files: Mapping[str, Any]) -> dict[str, int]:
    tribe = {c["id"]: c for c in files["tribe"]["cards"]}
    totals: dict[str, int] = {}
    for player in document["players"]:
        sup = document["supplies"][player]
        cards = [c for row in sup["rows"] for c in row]
        effects = [e for c in cards for e in tribe[c]["effects"]]
        total = sup["vp"] + sum(tribe[c]["vp"] for c in cards)
        same_extra = sum(e.get("row_same", 0) for e in effects if e.get("hook") == "final")
        diff_extra = sum(e.get("row_different", 0) for e in effects if e.get("hook") == "final")
        for row in sup["rows"]:
            if len(row) < 4:
                continue
            choices = []
            for c in row:
                wild = any(e.get("hook") == "display" and e.get("wild") for e in tribe[c]["effects"])
                choices.append(ALL_SYMBOLS if wild else (tribe[c]["symbol"],))
            best = 0
            for symbols in product(*choices):
                if len(set(symbols)) == 1:
                    best = max(best, 4 + same_extra)
                elif len(set(symbols)) == 4:
                    best = max(best, 2 + diff_extra)
            total += best
        goods = sup["dates"] + sup["salt"] + sup["pepper"]
        full_rows = len([row for row in sup["rows"] if len(row) == 4])
        for e in effects:
            if e["code"] != "endgame":
                continue
            base = {
                "symbol": len([c for c in cards if tribe[c]["symbol"] == e.get("symbol")]),
                "gold": sup["gold"],
                "goods": goods,
                "row": full_rows,
                "cards": len(cards),
            }[e["per"]]
            points = base // e.get("every", 1) * e["vp"]
            total += min(points, e.get("max", points))
        totals[player] = total
    return totals
