"""A finger on the board: the marked place it meant, or the question which, never a guess.

Through the Desert's hexes are 22 px across at 800x480 and a fingertip 48 px,
so a tap aimed at a lit hex often lands on the hex beside it.
"""

from __future__ import annotations

import math
from typing import Any

import pytest

from companion.places import place_of
from tests.ui.conftest import tap, tap_at
from tests.ui.test_pointing import camel_turn, leader_placement, open_on
from tests.ui.test_portrait import window_size  # noqa: F401  (a fixture)
from ui.boards import ttd
from ui.reach import Nearby, reached

pytestmark = pytest.mark.usefixtures("undrawn")  # texts, sizes and states are read, never the window's pixels


def squares(x: float, y: float) -> tuple[int, int]:
    """A board of 20 px squares, as a drawing's hit test."""
    return math.floor(x / 20), math.floor(y / 20)


def test_a_tap_beside_a_lone_marked_place_takes_it() -> None:
    assert reached(squares, 25, 10, {(0, 0)}) == (0, 0)  # 15 px off its centre, on the unmarked square beside
    assert reached(squares, 10, 10, {(0, 0)}) == (0, 0)
    assert reached(squares, 50, 10, {(0, 0)}) == (2, 0)  # 30 px from it: the square under the finger, to ask about
    assert reached(squares, 25, 10, set()) == (1, 0)  # nothing offered: the square under the finger


def test_a_finger_firmly_inside_an_unlit_place_asks_about_it() -> None:
    assert reached(squares, 30, 10, {(0, 0)}) == (1, 0)  # its middle, 10 px from every edge: "why not here?"
    assert reached(squares, 25, 10, {(0, 0)}) == (0, 0)  # 5 px in from the lit square's edge: that square


def test_a_tap_on_the_edge_between_two_marked_places_asks_which() -> None:
    both = {(0, 0), (1, 0)}
    assert reached(squares, 20, 10, both) == Nearby(frozenset(both))
    assert reached(squares, 21, 10, both) == Nearby(frozenset(both))  # 1 px in is no choice
    assert reached(squares, 27, 10, both) == (1, 0)  # 7 px in is
    assert reached(squares, 20, 20, {(0, 0), (1, 0), (1, 1), (5, 5)}) == Nearby(frozenset({(0, 0), (1, 0), (1, 1)}))


def test_the_reach_follows_the_tables_unit() -> None:
    assert reached(squares, 35, 10, {(0, 0)}) == (0, 0)  # 15 px from the square: in reach at 800x480
    assert reached(squares, 35, 10, {(0, 0)}, unit=0.5) == (1, 0)  # half the scale, half the reach


def hex_centre(app: Any, q: int, r: int) -> tuple[float, float]:
    board = app.root.get_screen("table").ids.board
    players = len(app.board.document["players"])
    frame = ttd.map_frame(app.board.game.data["board"]["cells"], board.width, board.height, players)
    x, y = frame.centre(q, r)
    return board.x + x, board.y + y


@pytest.mark.parametrize("size", [(800, 480), (480, 800)])
def test_a_tap_15_px_off_a_small_lit_hex_takes_it(window_size: Any, start: Any, size: tuple[int, int]) -> None:  # noqa: F811
    window_size(size)
    session = camel_turn()
    before = list(session.log)
    app = open_on(start, session)
    table = app.root.get_screen("table")
    board = table.ids.board
    assert board.unit == table.u
    offered = board.view.marked
    centres = {place: hex_centre(app, *place) for place in offered}
    size_px = math.dist(hex_centre(app, 0, 0), hex_centre(app, 1, 0))
    assert size_px < 30  # the hexes are smaller than a fingertip
    # A lit hex and a direction where 15 px off its centre is an unlit hex, no other lit one as near.
    spots = [
        (place, (cx + 15 * math.cos(a), cy + 15 * math.sin(a)))
        for place, (cx, cy) in centres.items()
        for a in (math.pi * k / 6 for k in range(12))
    ]
    place, spot = next(
        (place, spot)
        for place, spot in spots
        if ttd.place_at(board, board.view, *spot) not in offered | {None}
        and all(math.dist(spot, c) > 30 for other, c in centres.items() if other != place)
    )
    said = len(app.announcements)
    tap_at(board, *spot)
    assert table.focus == place and board.view.focus == place
    assert [b.action for b in table.buttons()] == [a for a in session.legal() if place_of(a) == place]
    assert len(app.announcements) == said and board.view.asked is None  # no "why not here?" about the hex beside
    assert session.log == before


def test_a_tap_between_two_lit_hexes_takes_neither_and_asks_which(start: Any) -> None:
    session = leader_placement()
    legal = session.legal()
    app = open_on(start, session)
    table = app.root.get_screen("table")
    board = table.ids.board
    offered = board.view.marked
    before = list(session.log)
    a = next(p for p in sorted(offered) if (p[0] + 1, p[1]) in offered)
    b = (a[0] + 1, a[1])
    (ax, ay), (bx, by) = hex_centre(app, *a), hex_centre(app, *b)
    tap_at(board, (ax + bx) / 2, (ay + by) / 2)
    assert table.focus == Nearby(frozenset({a, b})) and board.view.focus == table.focus
    listed = [btn.action for btn in table.buttons()]
    assert listed == [x for x in legal if place_of(x) in (a, b)]
    assert {place_of(x) for x in listed} == {a, b}  # neither picked: both hexes' placements, each naming its hex
    assert table.ids.hint.text == "Which one? 2 hexes under the finger." and table.can_go_back
    assert session.log == before

    wanted = next(x for x in listed if place_of(x) == b)
    tap(next(btn for btn in table.buttons() if btn.action == wanted))
    assert session.log[-1] == {k: v for k, v in wanted.items() if k != "text"}
    assert table.focus is None
