"""Schemas of the temple's data files and the checks across them.

A café fills these from its own copy: ``board.json`` (slots, printed corners,
entrances, walls, final steps, the clockwise lap), ``cards.json`` (the 49 path
cards and the Ah Kinchil card) and ``die.json`` (the 20 faces). The checks
name every fault, so a café can correct a transcription in one pass.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from typing import Any

from companion.games.temple.board import CELL_KINDS, COLOURS, MAX_STEPS, OUT_VECTORS, slot_cells
from companion.schema import Enum, Int, ListOf, MapOf, Obj, OneOf, Str, header

GAME_ID = "temple"
SLOT_COUNT = 12
MIN_PATH_CARDS = 25  # twelve in the slots, four hands of three, and something left to draw

XY = ListOf(Int(), 2, 2)
ROW = ListOf(Enum(*CELL_KINDS), 3, 3)
GRID = ListOf(ROW, 3, 3)

COLOUR_SPEC = Obj(
    {
        "lapStart": Int(0),
        "entrance": Obj({"circle": XY, "entry": ListOf(XY, 1)}),
        "wall": ListOf(ListOf(XY, 2, 2)),
        "steps": Obj({"foot": XY, "cells": ListOf(XY, 1, MAX_STEPS)}),
    }
)

BOARD = Obj(
    {
        **header(GAME_ID, "board"),
        "size": Int(7, 40),
        "slots": ListOf(
            Obj({"slot": Int(1, SLOT_COUNT), "origin": XY, "out": Enum(*OUT_VECTORS)}),
            SLOT_COUNT,
            SLOT_COUNT,
            unique_by="slot",
        ),
        "corners": ListOf(Obj({"corner": Str(), "origin": XY, "cells": GRID}), 1, unique_by="corner"),
        "chamber": XY,
        "colours": MapOf(COLOUR_SPEC, Enum(*COLOURS)),
        "loop": ListOf(ListOf(XY, 1), 4),
    },
    {"source": Str(), "note": Str()},
)

CARDS = Obj(
    {
        **header(GAME_ID, "cards"),
        "ahKinchil": Obj({"id": Str()}, {"note": Str()}),
        "cards": ListOf(Obj({"id": Str(), "cells": GRID}, {"note": Str()}), MIN_PATH_CARDS, unique_by="id"),
    },
    {"source": Str(), "note": Str()},
)

DIE = Obj(
    {
        **header(GAME_ID, "die"),
        "name": Str(),
        "faces": ListOf(
            Obj(
                {
                    "value": OneOf(Int(0, 7), Enum("X"), expected='a number from 0 to 7 or "X"'),
                    "colour": Enum("red", "white"),
                }
            ),
            20,
            20,
        ),
    },
    {"source": Str(), "note": Str()},
)

SCHEMAS = {"board": BOARD, "cards": CARDS, "die": DIE}


def _xy(value: Any) -> tuple[int, int]:
    return (value[0], value[1])


def board_problems(board: Mapping[str, Any]) -> list[str]:
    """Geometry faults: overlapping slots, cells off the board, a lap that misses cells, broken colours."""
    problems: list[str] = []
    size = board["size"]

    def inside(cell: tuple[int, int]) -> bool:
        return 0 <= cell[0] < size and 0 <= cell[1] < size

    owner: dict[tuple[int, int], str] = {}
    for slot in board["slots"]:
        for cell in slot_cells(_xy(slot["origin"]), slot["out"]):
            name = f"slot {slot['slot']}"
            if not inside(cell):
                problems.append(f"board.json: {name} reaches {list(cell)}, off the {size}x{size} board")
            elif cell in owner:
                problems.append(f"board.json: {name} overlaps {owner[cell]} at {list(cell)}")
            owner[cell] = name
    ak_idols: dict[str, list[str]] = {}
    for corner in board["corners"]:
        x0, y0 = corner["origin"]
        for r, row in enumerate(corner["cells"]):
            for c, kind in enumerate(row):
                cell = (x0 + c, y0 + r)
                name = f"corner {corner['corner']}"
                if not inside(cell):
                    problems.append(f"board.json: {name} reaches {list(cell)}, off the board")
                elif cell in owner:
                    problems.append(f"board.json: {name} overlaps {owner[cell]} at {list(cell)}")
                owner[cell] = name
                if kind.startswith("idol:"):
                    ak_idols.setdefault(kind[5:], []).append(f"{name} {list(cell)}")
    for colour in COLOURS:
        found = ak_idols.get(colour, [])
        if len(found) != 1:
            problems.append(f"board.json: corners need exactly one {colour} Ah Kinchil idol marker, found {len(found)}")
    seen: dict[tuple[int, int], int] = {}
    for index, section in enumerate(board["loop"]):
        for raw in section:
            cell = _xy(raw)
            if cell in seen:
                problems.append(f"board.json: loop[{index}] repeats {list(cell)} (already in loop[{seen[cell]}])")
            elif cell not in owner:
                problems.append(f"board.json: loop[{index}] names {list(cell)}, which no slot or corner covers")
            seen[cell] = index
    for cell, name in sorted(owner.items()):
        if cell not in seen:
            problems.append(f"board.json: {list(cell)} of {name} is missing from the loop")
    chamber = _xy(board["chamber"])
    if chamber in owner:
        problems.append(f"board.json: the chamber {list(chamber)} lies on the ring")
    for colour in COLOURS:
        spec = board["colours"].get(colour)
        if spec is None:
            problems.append(f"board.json: colours has no entry for {colour}")
            continue
        where = f"board.json: colours.{colour}"
        if spec["lapStart"] >= len(board["loop"]):
            problems.append(f"{where}.lapStart {spec['lapStart']} is past the last loop station")
        for raw in spec["entrance"]["entry"]:
            if _xy(raw) not in owner:
                problems.append(f"{where}.entrance.entry {raw} is not a ring cell")
        if _xy(spec["steps"]["foot"]) not in owner:
            problems.append(f"{where}.steps.foot {spec['steps']['foot']} is not a ring cell")
        for a, b in spec["wall"]:
            if _xy(a) not in owner or _xy(b) not in owner:
                problems.append(f"{where}.wall {[a, b]} names a cell off the ring")
            elif abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1:
                problems.append(f"{where}.wall {[a, b]} joins cells that are not side by side")
        if not problems:
            problems.extend(_lap_problems(board, colour, owner))
    return problems


def _lap_problems(board: Mapping[str, Any], colour: str, ring: Mapping[tuple[int, int], str]) -> list[str]:
    """With every cell walkable, a pawn must reach its foot from its entrance, and only the long way round."""
    spec = board["colours"][colour]
    walls = {(_xy(a), _xy(b)) for a, b in spec["wall"]} | {(_xy(b), _xy(a)) for a, b in spec["wall"]}
    start = [_xy(c) for c in spec["entrance"]["entry"]]
    # Breadth first, so each cell's value is its fewest steps from the entrance (the entry cell is step 1).
    seen = dict.fromkeys(start, 1)
    queue = deque(start)
    while queue:
        x, y = queue.popleft()
        for nxt in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if nxt in ring and nxt not in seen and ((x, y), nxt) not in walls:
                seen[nxt] = seen[(x, y)] + 1
                queue.append(nxt)
    foot = _xy(spec["steps"]["foot"])
    problems = []
    if foot not in seen:
        problems.append(f"board.json: colours.{colour}: the foot of the steps cannot be reached from the entrance")
    elif seen[foot] < len(board["loop"]) // 2:
        # Only the colour's wall keeps a pawn from stepping back round the corner to its own foot
        # (the house lap is 56 stations; without the wall the foot is 4 steps away).
        problems.append(
            f"board.json: colours.{colour}: the foot of the steps is only {seen[foot]} steps from the entrance, "
            f"so a pawn need not go round the temple; is a wall between them missing?"
        )
    if len(seen) != len(ring):
        problems.append(f"board.json: colours.{colour}: {len(ring) - len(seen)} ring cells cannot be reached")
    return problems


def cards_problems(cards: Mapping[str, Any]) -> list[str]:
    ids = {c["id"] for c in cards["cards"]}
    if cards["ahKinchil"]["id"] in ids:
        return [f"cards.json: the Ah Kinchil card id {cards['ahKinchil']['id']!r} is also a path card id"]
    return []


def die_problems(die: Mapping[str, Any]) -> list[str]:
    # A 0 moves no pawn (RU-10), so a die of only X and 0 faces plays for ever, as one of only X would.
    if not any(f["value"] != "X" and f["value"] > 0 for f in die["faces"]):
        return ["die.json: no face shows a number from 1 to 7, so no pawn could ever move"]
    return []


def cross_check(files: Mapping[str, Any]) -> list[str]:
    problems: list[str] = []
    if "board" in files:
        problems.extend(board_problems(files["board"]))
    if "cards" in files:
        problems.extend(cards_problems(files["cards"]))
    if "die" in files:
        problems.extend(die_problems(files["die"]))
    return problems
