"""The temple's geometry: the cell graph, the lap order and what each card puts in each slot.

Everything here is computed once per data set (``Board``) or once per set of
twelve cards in the slots (``Layout``), so route searches at the table only
look things up. Nodes are small integers: board cells are ``y * size + x``;
then come each colour's final steps, the Treasure Chamber and each colour's
Entrance Circles, so a visited set fits in a short list of flags.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from companion.games.temple import INFO

COLOURS: tuple[str, ...] = INFO.colours
CELL_KINDS: tuple[str, ...] = ("path", "hole", "stair", *(f"idol:{c}" for c in COLOURS))
OUT_VECTORS: Mapping[str, tuple[int, int]] = {"north": (0, -1), "east": (1, 0), "south": (0, 1), "west": (-1, 0)}
STEPS_PROGRESS_BASE = 1000  # steps lie beyond every ring cell in a colour's lap
CHAMBER_PROGRESS = 2000
ENTRANCE_PROGRESS = -1
MAX_STEPS = 6  # final steps per colour the node numbering leaves room for


def slot_transform(origin: tuple[int, int], out: str) -> tuple[tuple[int, int], tuple[int, int], tuple[int, int]]:
    """Origin, row step and column step of a slot: the card read with its curved edge up.

    Row 0 is the curved edge, so rows go inwards (against ``out``); columns go
    to the reader's left-to-right when standing in the centre facing out, which
    is clockwise round the temple.
    """
    ox, oy = OUT_VECTORS[out]
    return origin, (-ox, -oy), (-oy, ox)


def slot_cells(origin: tuple[int, int], out: str) -> tuple[tuple[int, int], ...]:
    """Board cells of a slot in card order: (row 0, col 0), (row 0, col 1)... (row 2, col 2)."""
    (x0, y0), (rx, ry), (cx, cy) = slot_transform(origin, out)
    return tuple((x0 + r * rx + c * cx, y0 + r * ry + c * cy) for r in range(3) for c in range(3))


@dataclass(frozen=True)
class ColourGeometry:
    colour: str
    index: int
    lap_start: int
    entry: tuple[int, ...]
    foot: int
    steps: tuple[int, ...]  # step nodes, bottom to top
    entrance: int  # the Entrance Circles node
    walls: frozenset[tuple[int, int]]
    circle: tuple[int, int]
    step_cells: tuple[tuple[int, int], ...]


class Board:
    """The fixed part of the temple (corners, slots, walls, steps, lap order) from ``board.json``."""

    def __init__(self, board: Mapping[str, Any], cards: Mapping[str, Any]) -> None:
        self.size: int = board["size"]
        size = self.size
        self.cell_count = size * size
        self.loop: tuple[tuple[int, ...], ...] = tuple(
            tuple(self.node(x, y) for x, y in section) for section in board["loop"]
        )
        self.lap_length = len(self.loop)
        self.station = [-1] * self.cell_count
        for index, section in enumerate(self.loop):
            for node in section:
                self.station[node] = index
        self.ring = frozenset(n for n in range(self.cell_count) if self.station[n] >= 0)
        # Slots: for each slot, the 9 board nodes in card order.
        self.slot_numbers: tuple[int, ...] = tuple(s["slot"] for s in board["slots"])
        self.slot_nodes: tuple[tuple[int, ...], ...] = tuple(
            tuple(self.node(x, y) for x, y in slot_cells(tuple(s["origin"]), s["out"])) for s in board["slots"]
        )
        self.slot_of: dict[int, int] = {n: i for i, nodes in enumerate(self.slot_nodes) for n in nodes}
        # Printed cells: the corner blocks, in board orientation.
        self.printed: dict[int, str] = {}
        for corner in board["corners"]:
            x0, y0 = corner["origin"]
            for r, row in enumerate(corner["cells"]):
                for c, kind in enumerate(row):
                    self.printed[self.node(x0 + c, y0 + r)] = kind
        self.chamber = self.cell_count + len(COLOURS) * MAX_STEPS
        self.chamber_cell: tuple[int, int] = tuple(board["chamber"])
        colours: dict[str, ColourGeometry] = {}
        step_base = self.cell_count
        for index, colour in enumerate(COLOURS):
            spec = board["colours"].get(colour)
            if spec is None:
                continue
            steps_spec = spec["steps"]
            count = len(steps_spec["cells"])
            steps = tuple(step_base + index * MAX_STEPS + k for k in range(count))
            walls = set()
            for a, b in spec["wall"]:
                na, nb = self.node(*a), self.node(*b)
                walls.add((na, nb))
                walls.add((nb, na))
            colours[colour] = ColourGeometry(
                colour=colour,
                index=index,
                lap_start=spec["lapStart"],
                entry=tuple(self.node(x, y) for x, y in spec["entrance"]["entry"]),
                foot=self.node(*steps_spec["foot"]),
                steps=steps,
                entrance=self.chamber + 1 + index,
                walls=frozenset(walls),
                circle=tuple(spec["entrance"]["circle"]),
                step_cells=tuple(tuple(c) for c in steps_spec["cells"]),
            )
        self.colours = colours
        self.step_nodes = frozenset(n for geo in colours.values() for n in geo.steps)
        self.node_count = self.chamber + 1 + len(COLOURS)
        self.cards: dict[str, tuple[str, ...]] = {
            c["id"]: tuple(kind for row in c["cells"] for kind in row) for c in cards["cards"]
        }
        self.card_order: tuple[str, ...] = tuple(c["id"] for c in cards["cards"])
        self.ak_card: str = cards["ahKinchil"]["id"]
        self.ak_idol: dict[str, int] = {
            kind.split(":", 1)[1]: node for node, kind in self.printed.items() if kind.startswith("idol:")
        }
        self._grid_neighbours = self._build_grid_neighbours()
        self.neighbours: dict[str, tuple[tuple[int, ...], ...]] = {c: self._colour_graph(c) for c in colours}
        # The same graphs without the pawn's own wall: only to explain a refusal.
        self.neighbours_unwalled: dict[str, tuple[tuple[int, ...], ...]] = {
            c: self._colour_graph(c, walls=False) for c in colours
        }
        self.progress: dict[str, tuple[int, ...]] = {c: self._progress(c) for c in colours}
        self._layouts: dict[tuple[str | None, ...], Layout] = {}
        base = [False] * self.node_count
        for node in self.step_nodes:
            base[node] = True
        base[self.chamber] = True
        self.base_walkable: tuple[bool, ...] = tuple(base)
        self._step_of: dict[int, tuple[str, int]] = {
            step: (colour, k + 1) for colour, geo in colours.items() for k, step in enumerate(geo.steps)
        }

    # -- nodes ---------------------------------------------------------------
    def node(self, x: int, y: int) -> int:
        return y * self.size + x

    def xy(self, node: int) -> tuple[int, int]:
        return node % self.size, node // self.size

    def depth(self, location: Any) -> int:
        """How far a board cell ([x, y]) lies in from the outer edge (0-2); 0 for any other location.

        The cells of one lap station have different depths, and a quarter turn of the board keeps
        them, so it orders a station's lanes the same way for every colour.
        """
        if isinstance(location, list | tuple) and len(location) == 2:
            x, y = location
            return min(x, y, self.size - 1 - x, self.size - 1 - y)
        return 0

    def is_cell(self, node: int) -> bool:
        return 0 <= node < self.cell_count

    def drawn_inside(self, x: int, y: int) -> tuple[str, int] | None:
        """What is drawn on a cell inside the ring: (colour, step number from 1) of a final step, ("chamber", 0)
        for the 3 x 3 cells the Treasure Chamber covers, or None.

        Players point at the steps and the chamber by the cells they are drawn on; moves and
        documents name them "stepN" and "chamber" (``document.parse_location``).
        """
        for colour, geo in self.colours.items():
            if (x, y) in geo.step_cells:
                return colour, geo.step_cells.index((x, y)) + 1
        cx, cy = self.chamber_cell
        return ("chamber", 0) if max(abs(x - cx), abs(y - cy)) <= 1 else None

    def step_colour(self, node: int) -> tuple[str, int] | None:
        """(colour, step number from 1) of a final-step node, or None."""
        return self._step_of.get(node)

    # -- graphs ----------------------------------------------------------------
    def _build_grid_neighbours(self) -> list[tuple[int, ...]]:
        out: list[tuple[int, ...]] = [() for _ in range(self.cell_count)]
        for node in self.ring:
            x, y = self.xy(node)
            found = []
            for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0)):
                nx, ny = x + dx, y + dy
                if 0 <= nx < self.size and 0 <= ny < self.size and self.node(nx, ny) in self.ring:
                    found.append(self.node(nx, ny))
            out[node] = tuple(found)
        return out

    def _colour_graph(self, colour: str, walls: bool = True) -> tuple[tuple[int, ...], ...]:
        """Neighbours for a pawn of this colour, ignoring holes (the layout filters those).

        Its own wall cuts the ring; its own steps hang off the foot and lead to the
        chamber; its Entrance Circles lead onto the entry cells and nothing leads back.
        """
        geo = self.colours[colour]
        graph: list[tuple[int, ...]] = [() for _ in range(self.node_count)]
        for node in self.ring:
            graph[node] = tuple(n for n in self._grid_neighbours[node] if not walls or (node, n) not in geo.walls)
        graph[geo.foot] = (*graph[geo.foot], geo.steps[0])
        for k, step in enumerate(geo.steps):
            below = geo.foot if k == 0 else geo.steps[k - 1]
            above = geo.steps[k + 1] if k + 1 < len(geo.steps) else self.chamber
            graph[step] = (below, above)
        graph[geo.entrance] = geo.entry
        return tuple(graph)

    def _progress(self, colour: str) -> tuple[int, ...]:
        """How far along its lap a pawn of this colour stands on each node; "behind" compares these."""
        geo = self.colours[colour]
        values = [ENTRANCE_PROGRESS] * self.node_count
        for node in self.ring:
            values[node] = (self.station[node] - geo.lap_start) % self.lap_length
        for k, step in enumerate(geo.steps):
            values[step] = STEPS_PROGRESS_BASE + k + 1
        values[self.chamber] = CHAMBER_PROGRESS
        return tuple(values)

    def behind_from(self, colour: str, node: int) -> int:
        """The lap position a send-back looks behind from: a final step counts as its foot plus its number (RU-Q15).

        ``progress`` puts every step beyond the whole ring, which orders the steps and the chamber; but a café
        board may have its foot before the end of the lap, and a pawn sent back off its steps then went to a
        marker of its colour past the foot, one it never walked by.
        """
        step = self._step_of.get(node)
        if step is not None and step[0] == colour:
            return self.progress[colour][self.colours[colour].foot] + step[1]
        return self.progress[colour][node]

    def blocked_by_wall(self, colour: str, a: int, b: int) -> bool:
        return (a, b) in self.colours[colour].walls

    # -- layouts ---------------------------------------------------------------
    def layout(self, slots: tuple[str | None, ...]) -> Layout:
        """The layout of these cards, cached; the least recently used goes first when the cache is full.

        A change choice that moves pawns is played out on its own layout to be
        labelled (a dozen or two per red roll): clearing the whole cache when it
        filled threw away the position's own layout and its move lists with them.
        """
        return self._cached(slots, lambda: Layout(self, slots))

    def layout_with(self, base: Layout, index: int, card: str) -> Layout:
        """``base`` with ``card`` in slot ``index`` (0-based), cached like any layout.

        Built from ``base`` by redoing the slot's nine cells, not the whole board: a
        change choice is played out on such a layout to be labelled.
        """
        slots = (*base.slots[:index], card, *base.slots[index + 1 :])
        return self._cached(slots, lambda: base.swapped(index, card, slots))

    def _cached(self, slots: tuple[str | None, ...], build: Callable[[], Layout]) -> Layout:
        layouts = self._layouts
        found = layouts.pop(slots, None)
        if found is None:
            if len(layouts) >= 512:
                del layouts[next(iter(layouts))]
            found = build()
        layouts[slots] = found
        return found


class Layout:
    """What the twelve cards in the slots make of the board: walkable cells, stairways, idols."""

    def __init__(self, board: Board, slots: tuple[str | None, ...]) -> None:
        self.board = board
        self.slots = slots
        kinds: dict[int, str] = dict(board.printed)
        for nodes, card in zip(board.slot_nodes, slots, strict=True):
            cells = board.cards[card] if card is not None else ("hole",) * 9
            kinds.update(zip(nodes, cells, strict=True))
        self.kinds = kinds
        walk = list(board.base_walkable)
        stairs: list[int] = []
        idols: dict[str, list[int]] = {c: [] for c in COLOURS}
        self._fill(kinds.items(), walk, stairs, idols)
        self._keep(walk, stairs, idols)

    def swapped(self, index: int, card: str, slots: tuple[str | None, ...]) -> Layout:
        """This layout with ``card`` in slot ``index``: the other cells' walkability, stairways and idols kept."""
        board = self.board
        nodes = board.slot_nodes[index]
        cells = board.cards[card]
        new = Layout.__new__(Layout)
        new.board, new.slots = board, slots
        new.kinds = {**self.kinds, **dict(zip(nodes, cells, strict=True))}
        gone = set(nodes)
        walk = list(self.walkable)
        stairs = [n for n in self.stairs if n not in gone]
        idols = {c: [n for n in v if n not in gone] for c, v in self.idols.items()}
        for node in nodes:
            walk[node] = False
        new._fill(zip(nodes, cells, strict=True), walk, stairs, idols)
        new._keep(walk, stairs, idols)
        return new

    @staticmethod
    def _fill(
        cells: Iterable[tuple[int, str]], walk: list[bool], stairs: list[int], idols: dict[str, list[int]]
    ) -> None:
        """Mark what these (node, kind) cells add: walkable ground, stairways and idol markers."""
        for node, kind in cells:
            if kind == "path":
                walk[node] = True
            elif kind == "stair":
                walk[node] = True
                stairs.append(node)
            elif kind != "hole":
                walk[node] = True
                idols.setdefault(kind[5:], []).append(node)

    def _keep(self, walk: list[bool], stairs: list[int], idols: dict[str, list[int]]) -> None:
        self.walkable: tuple[bool, ...] = tuple(walk)
        self.stairs: tuple[int, ...] = tuple(sorted(stairs))
        self.idols: dict[str, tuple[int, ...]] = {c: tuple(sorted(v)) for c, v in idols.items()}
        self._moves: dict[tuple[Any, ...], Any] = {}

    @cached_property
    def idols_by_progress(self) -> dict[str, tuple[tuple[int, int], ...]]:
        """Per colour: (progress, node) of its idol markers, nearest the end of the lap first."""
        out = {}
        for colour, nodes in self.idols.items():
            progress = self.board.progress.get(colour)
            if progress is None:
                continue
            out[colour] = tuple(sorted(((progress[n], n) for n in nodes), reverse=True))
        return out

    def kind(self, node: int) -> str:
        return self.kinds.get(node, "path")
