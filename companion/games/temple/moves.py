"""Where a pawn may end its roll, each end with one route that shows how.

A roll is short (at most 7 steps) and the ring is three cells wide, so a
depth-first search over self-avoiding walks is small; results are cached on the
layout (the twelve cards in the slots), which is what changes the graph.
"""

from __future__ import annotations

from companion.games.temple.board import Board, Layout

Route = tuple[int, ...]


def reachable(
    board: Board,
    layout: Layout,
    colour: str,
    start: int,
    steps: int,
    must_use_full: bool,
    roll1_mode: str,
    walls: bool = True,
) -> dict[int, Route]:
    """Every end node of a legal move with one route to it (nodes after ``start``), cached per layout."""
    key = (colour, start, steps, must_use_full, roll1_mode, walls)
    found = layout._moves.get(key)
    if found is None:
        if steps == 1 and roll1_mode == "nextColumnAny3" and walls:
            found = _next_column(board, layout, colour, start)
        else:
            graph = board.neighbours[colour] if walls else board.neighbours_unwalled[colour]
            found = _walk_ends(board, layout, graph, start, steps, must_use_full)
        layout._moves[key] = found
    return found


def _walk_ends(
    board: Board, layout: Layout, graph: tuple[tuple[int, ...], ...], start: int, steps: int, must_use_full: bool
) -> dict[int, Route]:
    """Ends of self-avoiding walks: the full count where possible, else the longest (a dead end).

    Reaching the Treasure Chamber completes a move whatever is left of the count.
    """
    walk = layout.walkable
    chamber = board.chamber
    visited = [False] * board.node_count
    visited[start] = True
    path: list[int] = []
    by_depth: list[dict[int, Route]] = [{} for _ in range(steps + 1)]
    to_chamber: list[Route] = []

    def go(node: int, depth: int) -> None:
        depth += 1
        ends = by_depth[depth]
        for nxt in graph[node]:
            if visited[nxt] or not walk[nxt]:
                continue
            path.append(nxt)
            if nxt == chamber:
                if not to_chamber:
                    to_chamber.append(tuple(path))
            else:
                if nxt not in ends:
                    ends[nxt] = tuple(path)
                if depth < steps:
                    visited[nxt] = True
                    go(nxt, depth)
                    visited[nxt] = False
            path.pop()

    if steps > 0:
        go(start, 0)
    result: dict[int, Route] = {}
    if must_use_full:
        for depth in range(steps, 0, -1):
            if by_depth[depth]:
                result.update(by_depth[depth])
                break
    else:
        for depth in range(steps, 0, -1):
            for end, route in by_depth[depth].items():
                result.setdefault(end, route)
    if to_chamber:
        result[chamber] = to_chamber[0]
    return result


def _next_column(board: Board, layout: Layout, colour: str, start: int) -> dict[int, Route]:
    """A roll of 1 read as "any of the three cells of the next column" (RU-Q17 alternative)."""
    geo = board.colours[colour]
    walk = layout.walkable
    if start == geo.entrance:
        return {n: (n,) for n in geo.entry if walk[n]}
    if start in geo.steps:
        k = geo.steps.index(start)
        nxt = geo.steps[k + 1] if k + 1 < len(geo.steps) else board.chamber
        return {nxt: (nxt,)}
    progress = board.progress[colour]
    result: dict[int, Route] = {}
    if start == geo.foot:
        result[geo.steps[0]] = (geo.steps[0],)
    if not board.is_cell(start):
        return result
    x, y = board.xy(start)
    want = progress[start] + 1
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            if dx == dy == 0:
                continue
            nx, ny = x + dx, y + dy
            if not (0 <= nx < board.size and 0 <= ny < board.size):
                continue
            target = board.node(nx, ny)
            if target not in board.ring or progress[target] != want or not walk[target]:
                continue
            if dx and dy:
                side_a, side_b = board.node(nx, y), board.node(x, ny)
                open_a = not board.blocked_by_wall(colour, start, side_a) and not board.blocked_by_wall(
                    colour, side_a, target
                )
                open_b = not board.blocked_by_wall(colour, start, side_b) and not board.blocked_by_wall(
                    colour, side_b, target
                )
                if not (open_a or open_b):
                    continue
            elif board.blocked_by_wall(colour, start, target):
                continue
            result[target] = (target,)
    return result


def route_problem(
    board: Board, layout: Layout, colour: str, start: int, route: Route, steps: int, must_use_full: bool, best: int
) -> str | None:
    """Why a route the table gave is not a legal move, or None; ``best`` is the length legal ends require."""
    graph = board.neighbours[colour]
    seen = {start}
    here = start
    for i, node in enumerate(route):
        if node in seen:
            return "it enters the same space twice"
        if node not in graph[here]:
            if node in board._grid_neighbours[here] if board.is_cell(here) else False:
                return "a wall of its own colour stands in the way"
            return "its steps are not orthogonal steps between neighbouring spaces"
        if not layout.walkable[node]:
            return "it crosses a hole"
        if node == board.chamber and i != len(route) - 1:
            return "it goes on after the Treasure Chamber"
        seen.add(node)
        here = node
    if route and route[-1] == board.chamber:
        return None if len(route) <= steps else "it is longer than the roll"
    if len(route) > steps:
        return "it is longer than the roll"
    if must_use_full and len(route) != best:
        return f"it uses {len(route)} {'step' if len(route) == 1 else 'steps'} where {best} are possible"
    if not route:
        return "it is empty"
    return None
