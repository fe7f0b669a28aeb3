"""A second, deliberately plain scorer used to check the real one at game end.

It reads only the position document (after a JSON round trip) and the board
file, works on coordinates and dictionaries instead of bit masks, finds areas
with union-find instead of a flood fill, and measures caravans by their
largest connected group rather than by counting pieces. If both scorers agree
on every player's categories, a table can trust the breakdown it is shown.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from companion.games.ttd.board import DIRECTIONS, hex_label

if TYPE_CHECKING:
    from companion.games.ttd.rules import ThroughTheDesert
    from companion.games.ttd.state import TtdState


def _neighbours(xy: tuple[int, int]) -> list[tuple[int, int]]:
    return [(xy[0] + dq, xy[1] + dr) for dq, dr in DIRECTIONS]


Kinds = dict[tuple[int, int], str]
Pieces = dict[tuple[int, int], tuple[str, str, bool]]
Tokens = dict[tuple[int, int], int]


def _read(game: ThroughTheDesert, doc: dict[str, Any]) -> tuple[Kinds, Pieces, Tokens]:
    """What lies on each hex (unused, mountain, palm, sand), the pieces and the tokens still on the board."""
    n = len(doc["players"])
    regions = {reg["id"] for reg in game.data["board"]["regions"] if n in reg["players"]}
    kind: dict[tuple[int, int], str] = {}
    for cell in game.data["board"]["cells"]:
        xy = (cell["q"], cell["r"])
        if cell["region"] not in regions:
            kind[xy] = "unused"
        elif cell["type"] == "mountain":
            kind[xy] = "mountain"
        elif n in cell.get("oasis", []):
            kind[xy] = "palm"
        else:
            kind[xy] = "sand"
    pieces = {tuple(p["hex"]): (p["player"], p["colour"], p["leader"]) for p in doc["pieces"]}
    tokens = {tuple(w["hex"]): w["value"] for w in doc["waterholes"] if w["value"]}
    return kind, pieces, tokens


def recount(game: ThroughTheDesert, doc: dict[str, Any]) -> dict[str, dict[str, int]]:
    """Points per player and category from a position document."""
    players = doc["players"]
    opts = doc["options"]
    kind, pieces, tokens = _read(game, doc)
    out = {p: {"water": 0, "oases": 0, "areas": 0, "longest": 0} for p in players}

    # Water holes: every piece standing on a site took its token.
    for xy, value in tokens.items():
        if xy in pieces:
            out[pieces[xy][0]]["water"] += 1 if opts["waterhole_value"] == "flat" else value

    # Oases: five points per (player, colour) touching each palm.
    for xy, k in kind.items():
        if k != "palm":
            continue
        touching = {pieces[nb][:2] for nb in _neighbours(xy) if nb in pieces and pieces[nb][1] != "guide"}
        for player, _colour in touching:
            out[player]["oases"] += 5

    # Areas.
    if opts["area_timing"] == "immediate":
        for area in doc["claimed_areas"]:
            hexes = [tuple(h) for h in area["hexes"]]
            out[area["player"]]["areas"] += sum(
                1 for h in hexes if kind[h] != "palm" and (opts["area_waterholes"] or h not in tokens)
            )
    else:
        for owner, _hexes, points in _areas(kind, pieces, tokens, opts):
            out[owner]["areas"] += points

    # Longest caravan: the largest connected group of a player's pieces of one colour (leader
    # left out afterwards when it does not count, so a leader still joins its caravan up).
    for colour in game.colour_ids:
        best: dict[str, int] = {}
        for player in players:
            own = {xy for xy, (pl, col, _) in pieces.items() if pl == player and col == colour}
            leaders = {xy for xy in own if pieces[xy][2]}
            best[player] = _largest_group(own, set() if opts["longest_counts_leader"] else leaders)
        top = max(best.values())
        if top == 0:
            continue
        holders = [p for p in players if best[p] == top]
        if len(holders) == 1:
            award = 10
        else:
            award = {"5each": 5, "10each": 10, "none": 0, "split": 10 // len(holders)}[opts["longest_tie"]]
        for holder in holders:
            out[holder]["longest"] += award
    return out


def _largest_group(own: set[tuple[int, int]], uncounted: set[tuple[int, int]]) -> int:
    best = 0
    seen: set[tuple[int, int]] = set()
    for start in own:
        if start in seen:
            continue
        seen.add(start)
        queue = [start]
        size = 0
        while queue:
            xy = queue.pop()
            size += xy not in uncounted
            for nb in _neighbours(xy):
                if nb in own and nb not in seen:
                    seen.add(nb)
                    queue.append(nb)
        best = max(best, size)
    return best


def unclaimed_areas(game: ThroughTheDesert, doc: dict[str, Any]) -> list[str]:
    """Areas enclosed now that lie in no claim, under ``area_timing: immediate``.

    An area scores at once when the piece that completes its wall goes down (TD-Q16), and walls never come
    down, so every area the end count would find must sit inside some claim by then. One that does not means
    a placement (a leader's, say) never looked for the areas it closed: the claims alone cannot show that.
    """
    if doc["options"]["area_timing"] != "immediate":
        return []
    kind, pieces, tokens = _read(game, doc)
    claims = [{tuple(h) for h in area["hexes"]} for area in doc["claimed_areas"]]
    problems = []
    for owner, hexes, _points in _areas(kind, pieces, tokens, doc["options"]):
        if not any(hexes <= claim for claim in claims):
            where = ", ".join(hex_label(q, r) for q, r in sorted(hexes))
            problems.append(f"recount: {owner}'s area at {where} is enclosed but was never claimed")
    return problems


def _areas(
    kind: Kinds, pieces: Pieces, tokens: Tokens, opts: dict[str, Any]
) -> list[tuple[str, set[tuple[int, int]], int]]:
    """Every enclosed group as (owner, hexes, points), found by union-find over the empty hexes."""
    empty = [xy for xy, k in kind.items() if k in ("sand", "palm") and xy not in pieces]
    parent = {xy: xy for xy in empty}

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for xy in empty:
        for nb in _neighbours(xy):
            if nb in parent:
                a, b = find(xy), find(nb)
                if a != b:
                    parent[a] = b
    groups: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for xy in empty:
        groups.setdefault(find(xy), []).append(xy)
    playable = sum(1 for k in kind.values() if k in ("sand", "palm"))
    found = []
    for hexes in groups.values():
        if not opts["area_oasis"] and any(kind[h] == "palm" for h in hexes):
            continue
        if opts["area_max"] == "half" and 2 * len(hexes) > playable:
            continue
        owners: set[str] = set()
        colours: set[str] = set()
        open_side = False
        for h in hexes:
            for nb in _neighbours(h):
                k = kind.get(nb, "off")
                if nb in pieces:
                    owners.add(pieces[nb][0])
                    if pieces[nb][1] != "guide":
                        colours.add(pieces[nb][1])
                elif k in ("off", "unused"):
                    open_side = open_side or opts["area_walls"] != "edges_and_mountains"
                elif k == "mountain":
                    open_side = open_side or opts["area_walls"] == "none"
        if open_side or len(owners) != 1:
            continue
        if opts["area_by"] == "caravan" and len(colours) != 1:
            continue
        points = sum(1 for h in hexes if kind[h] != "palm" and (opts["area_waterholes"] or h not in tokens))
        if points:
            found.append((owners.pop(), set(hexes), points))
    return found


def recount_problems(game: ThroughTheDesert, state: TtdState) -> list[str]:
    """Differences between the engine's final breakdown and the plain recount, and areas left unclaimed."""
    doc = json.loads(json.dumps(game.to_document(state)))
    again = recount(game, doc)
    result = game.result(state)["scores"]
    problems = unclaimed_areas(game, doc)
    for player, cats in again.items():
        for cat, points in cats.items():
            if result[player][cat]["points"] != points:
                problems.append(f"recount: {player} {cat} {points}, engine says {result[player][cat]['points']}")
    return problems
