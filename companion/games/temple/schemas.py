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

from companion.errors import quoted
from companion.games.temple.board import CELL_KINDS, COLOURS, MAX_STEPS, OUT_VECTORS, slot_cells
from companion.games.temple.step_checks import steps_problems
from companion.schema import Enum, Int, ListOf, MapOf, Obj, OneOf, Str, header

GAME_ID = "temple"
SLOT_COUNT = 12
MIN_PATH_CARDS = 25  # twelve in the slots, four hands of three, and something left to draw
ENTRY_STATIONS = 3  # a card's width: the entry cells open onto the first card past the colour's wall

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
        # A card's id is its name on its button and aloud ("P 7"): ids that differ only in case read as one.
        "cards": ListOf(
            Obj({"id": Str(), "cells": GRID}, {"note": Str()}), MIN_PATH_CARDS, unique_by="id", distinct="id"
        ),
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

    def claim(cell: tuple[int, int], name: str, board_words: str) -> None:
        """A slot or corner takes ``cell``: one off the board, or on a cell another already took, is a fault."""
        if not inside(cell):
            problems.append(f"board.json: {name} reaches {list(cell)}, off {board_words}")
        elif cell in owner:
            problems.append(f"board.json: {name} overlaps {owner[cell]} at {list(cell)}")
        owner[cell] = name

    for slot in board["slots"]:
        for cell in slot_cells(_xy(slot["origin"]), slot["out"]):
            claim(cell, f"slot {slot['slot']}", f"the {size}x{size} board")
    ak_idols: dict[str, list[str]] = {}
    printed: dict[tuple[int, int], tuple[str, str]] = {}
    for index, corner in enumerate(board["corners"]):
        x0, y0 = corner["origin"]
        for r, row in enumerate(corner["cells"]):
            for c, kind in enumerate(row):
                cell = (x0 + c, y0 + r)
                name = f"corner {corner['corner']}"
                claim(cell, name, "the board")
                printed.setdefault(cell, (kind, f"corners[{index}] ({name}) cells[{r}][{c}]"))
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
    elif not inside(chamber):
        # Only drawn, but a chamber off the board puts the pawns that reach it off the screen.
        problems.append(f"board.json: the chamber {list(chamber)} is off the {size}x{size} board")
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
            elif printed.get(_xy(raw), ("",))[0] == "hole":  # a printed hole never opens: no pawn steps onto it
                problems.append(
                    f"{where}.entrance.entry {raw} is a hole ({printed[_xy(raw)][1]}), so no {colour} pawn could "
                    f"ever step onto it from the Entrance Circles (RU-H3); make that cell path, or leave it out"
                )
        if _xy(spec["steps"]["foot"]) not in owner:
            problems.append(f"{where}.steps.foot {spec['steps']['foot']} is not a ring cell")
        for a, b in spec["wall"]:
            if _xy(a) not in owner or _xy(b) not in owner:
                problems.append(f"{where}.wall {[a, b]} names a cell off the ring")
            elif abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1:
                problems.append(f"{where}.wall {[a, b]} joins cells that are not side by side")
    # Drawing faults: they do not stop the lap checks below, which need only the cells above to be sound.
    drawing = [p for colour in COLOURS if colour in board["colours"] for p in _circle_problems(board, colour)]
    drawing.extend(_shared_places(board))
    drawing.extend(steps_problems(board, owner, printed))
    if not problems:
        problems.extend(_loop_order_problems(board))
    if not problems:
        holes = {cell: where for cell, (kind, where) in printed.items() if kind == "hole"}
        for colour in COLOURS:
            problems.extend(_lap_problems(board, colour, seen, holes))
    return problems + drawing


def _circle_problems(board: Mapping[str, Any], colour: str) -> list[str]:
    """The Entrance Circles are drawn one cell off the board's edge, beside the cells a pawn steps onto.

    The rules never place a pawn by the circle, but the screen does: the
    drawing leaves a margin of one cell round the board for the circles.
    """
    size = board["size"]
    entrance = board["colours"][colour]["entrance"]
    circle = _xy(entrance["circle"])
    beside = []
    for x, y in (_xy(raw) for raw in entrance["entry"]):
        for dx, dy in OUT_VECTORS.values():
            outside = (x + dx, y + dy)
            if outside in ((x, -1), (x, size), (-1, y), (size, y)) and list(outside) not in beside:
                beside.append(list(outside))
    if list(circle) in beside:
        return []
    where = f"board.json: colours.{colour}.entrance"
    if not beside:
        return [f"{where}.entry: none of its cells is on the board's outer edge, where the Entrance Circles are"]
    entry = ", ".join(str(raw) for raw in entrance["entry"])
    return [
        f"{where}.circle {list(circle)} is not beside any of its entry cells ({entry}); "
        "it must be just off the board's edge, next to one of them"
    ]


def _shared_places(board: Mapping[str, Any]) -> list[str]:
    """Each colour has its own foot, entry and circles; sharing them is the mark of a colour block copied unedited."""
    problems: list[str] = []
    taken: dict[tuple[str, tuple[int, int]], str] = {}
    for colour in COLOURS:
        spec = board["colours"].get(colour)
        if spec is None:
            continue
        places = [("steps.foot", spec["steps"]["foot"]), ("entrance.circle", spec["entrance"]["circle"])]
        places.extend(("entrance.entry", raw) for raw in spec["entrance"]["entry"])
        for field, raw in places:
            key = (field, _xy(raw))
            other = taken.setdefault(key, colour)
            if other != colour:
                problems.append(f"board.json: colours.{colour}.{field} {raw} is {other}'s too; each colour has its own")
    return problems


def _loop_order_problems(board: Mapping[str, Any]) -> list[str]:
    """The loop must go round the ring clockwise, one cross-section after the next.

    A pawn's progress, and with it "behind" for every send-back, is its
    station's place in this list: a station listed out of turn puts cells
    ahead of a pawn behind it, and two cross-sections merged into one station
    (or one split into its lanes) make cells a step apart level, or level
    cells steps apart.
    """
    loop = [[_xy(raw) for raw in section] for section in board["loop"]]
    cells = [cell for section in loop for cell in section]
    left, top = min(x for x, _ in cells), min(y for _, y in cells)
    right, bottom = max(x for x, _ in cells), max(y for _, y in cells)

    def lane(cell: tuple[int, int]) -> int:
        """Which of the ring's lanes a cell is in: how far in from the ring's outer edge."""
        x, y = cell
        return min(x - left, y - top, right - x, bottom - y)

    def along(a: tuple[int, int], b: tuple[int, int]) -> bool:
        return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1 and lane(a) == lane(b)

    problems = []
    for index, section in enumerate(loop):
        level = [(a, b) for i, a in enumerate(section) for b in section[i + 1 :] if along(a, b)]
        if level:
            a, b = level[0]
            problems.append(
                f"board.json: loop[{index}] holds {list(a)} and {list(b)}, one after the other along a lane; "
                "a station is one cross-section of the ring"
            )
        previous = (index - 1) % len(loop)
        if not any(along(a, b) for a in section for b in loop[previous]):
            problems.append(
                f"board.json: loop[{index}] {[list(c) for c in section]} does not follow loop[{previous}] "
                "along the ring; the stations must be listed in order round it, one cross-section each"
            )
    if problems:
        return problems
    centres = [(sum(x for x, _ in s) / len(s), sum(y for _, y in s) / len(s)) for s in loop]
    # Twice the area the station centres enclose: positive when they go clockwise, y growing southwards.
    area = sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(centres, centres[1:] + centres[:1], strict=True))
    if area < 0:
        problems.append("board.json: loop goes round anticlockwise; list its stations clockwise (east along the top)")
    return problems


def _steps_from(
    start: list[tuple[int, int]], cells: Any, walls: set[tuple[tuple[int, int], tuple[int, int]]]
) -> dict[tuple[int, int], int]:
    """Each of ``cells`` a pawn can walk to from ``start``, with its fewest steps (an entry cell is step 1)."""
    seen = dict.fromkeys((cell for cell in start if cell in cells), 1)
    queue = deque(seen)
    while queue:
        x, y = queue.popleft()
        for nxt in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if nxt in cells and nxt not in seen and ((x, y), nxt) not in walls:
                seen[nxt] = seen[(x, y)] + 1
                queue.append(nxt)
    return seen


def _lap_problems(
    board: Mapping[str, Any], colour: str, station: Mapping[tuple[int, int], int], holes: Mapping[tuple[int, int], str]
) -> list[str]:
    """A pawn must reach its foot from its entrance, and only the long way round: with every card cell
    walkable (cards change), but never a hole printed on a corner (RU-H3), which stays for the whole game.

    Counted over every cell, a café's corner whose printed holes cut the ring was valid, and no pawn of
    a colour that must cross it could ever finish.
    """
    spec = board["colours"][colour]
    walls = {(_xy(a), _xy(b)) for a, b in spec["wall"]} | {(_xy(b), _xy(a)) for a, b in spec["wall"]}
    start = [_xy(c) for c in spec["entrance"]["entry"]]
    seen = _steps_from(start, station, walls)
    foot = _xy(spec["steps"]["foot"])
    if foot in seen and foot not in holes:  # a foot on a printed hole is refused on its own (steps_problems)
        open_cells = {cell for cell in station if cell not in holes}
        reached = _steps_from(start, open_cells, walls)
        if foot not in reached:

            def beside(cell: tuple[int, int]) -> list[tuple[int, int]]:
                x, y = cell
                return [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)]

            # The corners that cut: a printed hole with ground the pawn reaches on one side, and open ground it
            # cannot reach on another.
            cut = sorted({where.split(" cells[", 1)[0].split(" (", 1)[1].rstrip(")") for cell, where in holes.items()
                          if any(n in reached for n in beside(cell))
                          and any(n in open_cells and n not in reached for n in beside(cell))})  # fmt: skip
            return [
                f"board.json: colours.{colour}: the holes printed on {' and '.join(cut)} leave a {colour} pawn no "
                f"way from its entrance round to the foot of its steps {list(foot)}, whatever cards lie in the "
                f"slots (RU-H3); make a way across in path cells"
            ]
    problems = []
    short_cut = False
    if foot not in seen:
        problems.append(f"board.json: colours.{colour}: the foot of the steps cannot be reached from the entrance")
    elif seen[foot] < len(board["loop"]) // 2:
        # Only the colour's wall keeps a pawn from stepping back round the corner to its own foot
        # (the house lap is 56 stations; without the wall the foot is 4 steps away).
        short_cut = True
        problems.append(
            f"board.json: colours.{colour}: the foot of the steps is only {seen[foot]} steps from the entrance, "
            f"so a pawn need not go round the temple; is a wall between them missing?"
        )
    if len(seen) != len(station):
        problems.append(f"board.json: colours.{colour}: {len(station) - len(seen)} ring cells cannot be reached")
    if not short_cut:  # the wall is in the wrong place or leaks: where the lap begins follows from it
        problems.extend(_lap_start_problems(board, colour, station, walls))
    return problems


def _lap_start_problems(
    board: Mapping[str, Any],
    colour: str,
    station: Mapping[tuple[int, int], int],
    walls: set[tuple[tuple[int, int], tuple[int, int]]],
) -> list[str]:
    """``lapStart`` must be the station just past the colour's wall, and the entry cells must open onto it.

    The rules count a pawn's progress in stations from ``lapStart`` (RU-Q11):
    an idol marker is "behind" a pawn when its count is smaller, the Entrance
    Circles lie behind everything, and the count falls from the end of the lap
    back to 0 only where the wall forbids the step. A ``lapStart`` elsewhere
    puts that fall where a pawn walks, so markers just ahead of it count as
    behind it and the ones just behind as ahead; an entrance away from it
    leaves stations between the Entrance Circles and the start of the count,
    where a pawn sent back lands on a marker behind its own entrance instead
    of going back to the circles. Either way the table is refereed wrongly
    with nothing to show for it, so the data is refused instead.
    """
    length = len(board["loop"])
    spec = board["colours"][colour]
    given = spec["lapStart"]
    where = f"board.json: colours.{colour}"
    # Boundary b lies between loop[b - 1] and loop[b]. A step between stations crosses every boundary
    # on the short way from one to the other; the lap may restart only at a boundary no open step crosses.
    open_at: dict[int, tuple[tuple[int, int], tuple[int, int]]] = {}
    for (x, y), here in station.items():
        for nxt in ((x + 1, y), (x, y + 1)):
            there = station.get(nxt)
            if there is None or there == here or ((x, y), nxt) in walls:
                continue
            low, high = ((x, y), nxt) if (there - here) % length <= length // 2 else (nxt, (x, y))
            boundary = (station[low] + 1) % length
            while boundary != (station[high] + 1) % length:
                open_at.setdefault(boundary, (low, high))
                boundary = (boundary + 1) % length
    fits = [b for b in range(length) if b not in open_at]
    problems = []
    if given in open_at:
        low, high = open_at[given]
        step = f"{list(low)} (loop[{station[low]}]) to {list(high)} (loop[{station[high]}])"
        must = f"it must be {fits[0]}," if len(fits) == 1 else "it must be"
        problems.append(
            f"{where}.lapStart is {given}; {must} the first loop station past the {colour} wall, where a {colour} "
            f"pawn's lap begins (counted from loop[{given}], a step from {step} would jump from the end of the lap "
            f"to its start, and no {colour} wall stands there)"
        )
    if len(fits) != 1:
        return problems
    first = fits[0]
    for raw in spec["entrance"]["entry"]:
        past = (station[_xy(raw)] - first) % length
        if past >= ENTRY_STATIONS:
            problems.append(
                f"{where}.entrance.entry {raw} is {past} loop stations past the {colour} wall; entry cells must open "
                f"onto the first {ENTRY_STATIONS} stations past it, loop[{first}] to "
                f"loop[{(first + ENTRY_STATIONS - 1) % length}]"
            )
    return problems


def cards_problems(cards: Mapping[str, Any]) -> list[str]:
    ids = {" ".join(c["id"].split()).casefold(): c["id"] for c in cards["cards"]}
    ak = cards["ahKinchil"]["id"]
    same = ids.get(" ".join(ak.split()).casefold())
    if same is not None:  # case aside, as the button and the voice show it
        also = "" if same == ak else f" ({quoted(same)} reads the same)"
        return [f"cards.json: the Ah Kinchil card id {quoted(ak)} is also a path card id{also}"]
    return []


def die_problems(die: Mapping[str, Any]) -> list[str]:
    # A 0 moves no pawn (RU-10), so a die of only X and 0 faces plays for ever, as one of only X would.
    if not any(f["value"] != "X" and f["value"] > 0 for f in die["faces"]):
        return ["die.json: no face shows a number from 1 to 7, so no pawn could ever move"]
    # Only a red roll changes a path card (RU-Q7): on an all-white die the opening cards stay for the whole
    # game, and where they block a colour's way round nobody finished (7 of 20 random games ran for ever).
    if not any(f["colour"] == "red" for f in die["faces"]):
        return ["die.json: no face is red, so no path card is ever changed: a way the opening cards block stays so"]
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
