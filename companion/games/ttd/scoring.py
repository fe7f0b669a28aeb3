"""Scoring: water holes, oases, enclosed areas and the longest caravan of each colour.

Scoring is why a table wants a referee here, so the breakdown names every
item (each token, each oasis reached, each area with its hexes and the caravan
around it, each colour's longest caravan) for the players to check on the
board.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.games.ttd.board import Board, bits
from companion.games.ttd.options import Rules
from companion.games.ttd.state import EMPTY, GUIDE, SLOTS, TtdState

OASIS_POINTS = 5
LONGEST_POINTS = 10


@dataclass(frozen=True)
class Area:
    player: int
    # The enclosing caravan's colour; -1 when the player's pieces of several colours enclose it; GUIDE when
    # (area_by player, as-written) the guide alone closes it with the edge or mountains and no caravan takes part.
    colour: int
    hexes: frozenset[int]
    points: int


def open_components(board: Board, occupied: int, within: int | None = None) -> list[list[int]]:
    """Connected groups of in-play, non-mountain, unoccupied hexes (palms included)."""
    free = board.in_play & ~board.mountain & ~occupied
    todo = free if within is None else free & within
    comps: list[list[int]] = []
    nbrs = board.neighbours
    while todo:
        low = todo & -todo
        start = low.bit_length() - 1
        todo ^= low
        comp = [start]
        stack = [start]
        while stack:
            h = stack.pop()
            for n in nbrs[h]:
                bit = 1 << n
                if free & bit and todo & bit:
                    todo ^= bit
                    comp.append(n)
                    stack.append(n)
        comps.append(comp)
    return comps


def component_from(board: Board, occupied: int, start: int) -> list[int]:
    """The open component containing ``start`` (an open hex)."""
    free = board.in_play & ~board.mountain & ~occupied
    seen = 1 << start
    comp = [start]
    stack = [start]
    nbrs = board.neighbours
    while stack:
        h = stack.pop()
        for n in nbrs[h]:
            bit = 1 << n
            if free & bit and not seen & bit:
                seen |= bit
                comp.append(n)
                stack.append(n)
    return comp


def area_points(board: Board, rules: Rules, values: tuple[int, ...], comp: list[int]) -> int:
    """Hexes that score inside an area: palms never, water holes unless the option says they do not."""
    palms = board.palm_mask
    return sum(1 for h in comp if not (palms >> h) & 1 and (rules.area_waterholes or not values[h]))


def enclosure(
    board: Board, rules: Rules, cells: tuple[int, ...], values: tuple[int, ...], comp: list[int], open_total: int
) -> Area | None:
    """Who encloses this group of open hexes, if anyone (TD-Q16)."""
    if not rules.area_oasis and any((board.palm_mask >> h) & 1 for h in comp):
        return None
    if rules.area_max == "half" and 2 * len(comp) > open_total:
        return None
    border: set[int] = set()
    for h in comp:
        if rules.area_walls != "edges_and_mountains":
            if board.edge[h]:
                return None
            if rules.area_walls == "none" and board.near_mountain[h]:
                return None
        for n in board.neighbours[h]:
            code = cells[n]
            if code != EMPTY:
                border.add(code)
    if not border:
        return None
    owners = {code // SLOTS for code in border}
    if len(owners) != 1:
        return None
    player = owners.pop()
    colours = {code % SLOTS for code in border} - {GUIDE}
    if rules.area_by == "caravan":
        if len(colours) != 1:
            return None
        colour = next(iter(colours))
    elif not colours:
        colour = GUIDE  # only the guide borders it: "several caravans" would name pieces that are not there
    else:
        colour = next(iter(colours)) if len(colours) == 1 else -1
    points = area_points(board, rules, values, comp)
    return Area(player, colour, frozenset(comp), points) if points else None


def open_total(board: Board) -> int:
    return (board.in_play & ~board.mountain).bit_count()


def end_areas(board: Board, state: TtdState) -> list[Area]:
    """Every area that scores if the game ended now."""
    if state.rules.area_timing == "immediate":
        return [
            Area(p, c, hexes, area_points(board, state.rules, state.values, sorted(hexes)))
            for p, c, hexes in state.claimed
        ]
    total = open_total(board)
    found = []
    for comp in open_components(board, state.occupied):
        area = enclosure(board, state.rules, state.cells, state.values, comp, total)
        if area is not None:
            found.append(area)
    return found


def new_areas(board: Board, state: TtdState, h: int) -> list[Area]:
    """Areas closed by the piece just placed on ``h`` that no earlier claim covers (area_timing immediate)."""
    claimed = 0
    for _, _, hexes in state.claimed:
        for x in hexes:
            claimed |= 1 << x
    total = open_total(board)
    done = 0
    found = []
    free = board.in_play & ~board.mountain & ~state.occupied
    for n in board.neighbours[h]:
        bit = 1 << n
        if not free & bit or done & bit or claimed & bit:
            continue
        comp = component_from(board, state.occupied, n)
        for x in comp:
            done |= 1 << x
        if any(claimed >> x & 1 for x in comp):
            continue
        area = enclosure(board, state.rules, state.cells, state.values, comp, total)
        if area is not None:
            found.append(area)
    return found


def caravan_length(state: TtdState, player: int, colour: int) -> int:
    mask = state.masks[player * SLOTS + colour]
    length = mask.bit_count()
    if not state.rules.longest_counts_leader and not state.rules.guide:
        length -= sum(1 for h in bits(mask) if h in state.leaders)
    return length


def longest_award(rules: Rules, holders: int) -> int:
    if holders == 1:
        return LONGEST_POINTS
    return {"5each": 5, "10each": 10, "none": 0, "split": LONGEST_POINTS // holders}[rules.longest_tie]


def water_points(rules: Rules, tokens: tuple[int, ...]) -> int:
    return len(tokens) if rules.waterhole_value == "flat" else sum(tokens)


def breakdown(board: Board, state: TtdState, colour_ids: tuple[str, ...]) -> dict[str, Any]:
    """Per player and per category, every scoring item, plus each colour's longest caravan."""
    rules = state.rules
    names = state.players

    def caravan_name(colour: int) -> str:
        if colour == GUIDE:
            return "guide"
        return colour_ids[colour] if colour >= 0 else "several caravans"

    scores: dict[str, dict[str, Any]] = {}
    for p, name in enumerate(names):
        tokens = state.water[p]
        reached = sorted((palm, c) for q, c, palm in state.oases if q == p)
        scores[name] = {
            "water": {"points": water_points(rules, tokens), "tokens": list(tokens)},
            "oases": {
                "points": OASIS_POINTS * len(reached),
                "reached": [{"oasis": board.hex_json(palm), "caravan": colour_ids[c]} for palm, c in reached],
            },
            "areas": {"points": 0, "list": []},
            "longest": {"points": 0, "list": []},
        }
    for area in end_areas(board, state):
        entry = scores[names[area.player]]["areas"]
        entry["points"] += area.points
        entry["list"].append(
            {
                "hexes": [board.hex_json(h) for h in sorted(area.hexes)],
                "caravan": caravan_name(area.colour),
                "points": area.points,
            }
        )
    longest: dict[str, Any] = {}
    for c, cid in enumerate(colour_ids):
        lengths = [caravan_length(state, p, c) for p in range(len(names))]
        best = max(lengths)
        holders = [names[p] for p, n in enumerate(lengths) if n == best] if best > 0 else []
        each = longest_award(rules, len(holders)) if holders else 0
        longest[cid] = {"length": best, "holders": holders, "points_each": each}
        for holder in holders:
            scores[holder]["longest"]["points"] += each
            scores[holder]["longest"]["list"].append(
                {"colour": cid, "length": best, "points": each, "shared_with": [h for h in holders if h != holder]}
            )
    for entry in scores.values():
        entry["total"] = sum(entry[k]["points"] for k in ("water", "oases", "areas", "longest"))
    top = max(e["total"] for e in scores.values())
    winners = [n for n in names if scores[n]["total"] == top]
    return {
        "scores": scores,
        "longest": longest,
        "winners": winners,
        "winner": winners[0] if len(winners) == 1 else None,
        "totals": {n: scores[n]["total"] for n in names},
    }
