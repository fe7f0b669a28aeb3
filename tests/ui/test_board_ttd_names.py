"""Through the Desert's map shows the places a text names: a player told "(1,0) ... at (2,0)" finds both.

The referee's texts, its "why not here?" answers, its refusals and the voice
name hexes by the board file's coordinates, "(q,r)", and the map labelled
none: nothing on the screen led to (2,0). Coordinates along the map's edges
have no room (at 800x480 the map is 390 px wide on the 398 px board, and a
16 px "12" is 18 px wide), so the places come with their names: each hex the
newest refusal or ruling, or the prompt, names is ringed and carries its name,
16 px at least, beside it. Each text is read back from the canvas with the
font size it was rendered at.
"""

from __future__ import annotations

import math
from typing import Any

import pytest
from kivy.app import App
from kivy.graphics import Line

from companion.games.ttd.board import hex_label
from companion.session import Session
from tests.ui.conftest import tap
from tests.ui.drawing import Words, words_drawn
from tests.ui.test_app import button
from tests.ui.test_board_ttd_readable import ended
from tests.ui.test_boards_robust import READABLE, discs_below, off_board, run_together, table_board, unreadable
from tests.ui.test_display_scale import scaled
from tests.ui.test_pointing import open_on, tap_hex
from tests.ui.test_portrait import window_size  # noqa: F401  (a fixture)
from ui.boards import BoardView, ttd
from ui.shots import mid_game

pytestmark = pytest.mark.usefixtures("undrawn")  # boards' own pictures and sizes are read, not the window's

SIZES = [(800, 480), (1024, 600), (480, 800), (720, 1280)]
SCALED = [(size, 100) for size in SIZES] + [((800, 480), 120), ((480, 800), 120)]  # the owner's display scale too
# Places a text may name, drawn together: the top edge with its neighbour (a refusal's "(1,0) ... at (2,0)"),
# the bottom row's first hex, the far right (the strip unused by three players) and a hex among camels.
NAMED = [(1, 0), (2, 0), (-6, 12), (17, 1), (4, 6)]


def tags(board: Any, session: Session, named: tuple[Any, ...]) -> tuple[list[Words], list[str]]:
    """The board's texts with ``named`` shown, and what is wrong: a name missing, under 16 px, cut, over another
    name, its tag over another text's letters, off the board or in the score strip, or not beside its hex (and the
    board's own texts' faults)."""
    drawn = words_drawn(board, session, named=named)
    frame = ttd._frame(board, BoardView(session.game, session.document(), []))
    names = {hex_label(q, r) for q, r in named}
    found = unreadable([d for d in drawn if d.text not in names]) + off_board(board, drawn)
    found += unreadable([d for d in drawn if d.text in names])  # the tags apart, each whole and 16 px or more
    # Two tags, or two of the board's own texts, run together (``run_together``); a tag's name and a text outside
    # it are not held to its spacing: the tag's dark box and light blue rim lie between them, and no tag may lie
    # over another text's letters (below). At 800x480 the top edge's (1,0), its neighbour (2,0) named too, has
    # room only under its hex, where the water hole (0,2)'s figure, in its own blue disc, starts 0.5 px under
    # the tag's letters: the box holds the name, the disc the figure.
    found += run_together([d for d in drawn if d.text not in names])
    found += run_together([d for d in drawn if d.text in names])
    for tag in (d for d in drawn if d.text in names):
        x, y, w, h = tag.x - 3, tag.y, tag.w + 6, tag.h  # the tag's dark box, 3 px each side of its text
        for d in drawn:
            ix, iy, iw, ih = d.ink
            if d is not tag and min(x + w, ix + iw) - max(x, ix) > 0.5 and min(y + h, iy + ih) - max(y, iy) > 0.5:
                found.append(f"{tag.text!r}'s tag hides {d.text!r}")
    for q, r in named:
        label = [d for d in drawn if d.text == f"({q},{r})"]
        if len(label) != 1:
            found.append(f"({q},{r}) is drawn {len(label)} times")
            continue
        (d,) = label
        cx, cy = frame.centre(q, r)
        near = (min(max(cx, d.x), d.x + d.w), min(max(cy, d.y), d.y + d.h))  # the name's point nearest the hex
        if math.dist(near, (cx, cy)) > frame.size * 1.6 and not led(board, frame, (q, r), d):
            found.append(f"({q},{r})'s name is {math.dist(near, (cx, cy)):.0f} px from its hex's middle, unled")
        if d.y < frame.strip_top - 0.5:
            found.append(f"({q},{r})'s name lies in the score strip")
    return drawn, found


def led(board: Any, frame: Any, place: tuple[int, int], name: Words) -> bool:
    """Whether a leader line runs from ``place``'s ring (its corners ``frame.size`` from its middle) to the
    tag holding ``name`` (3 px each side of the name): a tag a hex or two away, the map round its hex crowded."""
    cx, cy = frame.centre(*place)
    x, y, w, h = name.x - 3, name.y, name.w + 6, name.h
    for line in (i for i in board.canvas.children if isinstance(i, Line) and len(i.points) == 4):
        x0, y0, x1, y1 = (v - o for v, o in zip(line.points, (board.x, board.y) * 2, strict=True))
        on_rim = min(abs(x1 - x), abs(x1 - x - w), abs(y1 - y), abs(y1 - y - h)) < 0.5
        if abs(math.dist((x0, y0), (cx, cy)) - frame.size) < 0.5 and on_rim:
            return x - 0.5 <= x1 <= x + w + 0.5 and y - 0.5 <= y1 <= y + h + 0.5
    return False


def hidden(board: Any, session: Session, named: tuple[Any, ...], drawn: list[Words]) -> list[str]:
    """The camels and water holes (their discs, the figures in them) the tags naming ``named`` lie over, each
    with how far into it: a disc of the map (``discs_below``, half a hex across or more: no palm's crown, no
    camel's inner dot) more than half a pixel under a tag's dark box. ``drawn``: the board's texts as ``tags``
    read them with ``named`` shown (the board drawn once for both; the canvas is the same drawing)."""
    frame = ttd._frame(board, BoardView(session.game, session.document(), []))
    discs = [(cx - board.x, cy - board.y, r) for cx, cy, r in discs_below(board, board.y + board.height)]
    names = {hex_label(q, r) for q, r in named}
    found = []
    for tag in (d for d in drawn if d.text in names):
        x, y, w, h = tag.x - 3, tag.y, tag.w + 6, tag.h
        for cx, cy, r in (disc for disc in discs if disc[2] >= frame.size * 0.5 and disc[1] > frame.strip_top):
            depth = r - math.dist((min(max(cx, x), x + w), min(max(cy, y), y + h)), (cx, cy))
            if depth > 0.5:
                found.append(f"{tag.text}'s tag lies {depth:.1f} px over the disc at {cx:.0f},{cy:.0f} (r {r:.1f})")
    return found


@pytest.mark.parametrize(("size", "scale"), SCALED)
def test_each_named_place_shows_its_name_beside_it_at_16_px_or_more(
    size: tuple[int, int], scale: int, start: Any, window_size: Any  # noqa: F811
) -> None:
    """Three places at once, at the map's edges and in its crowd, on the table's own board at each display size."""
    middle, board = table_board(start, window_size, size, "ttd")
    scaled(App.get_running_app(), scale)
    found = []
    full = ended()  # five players' full map: leaders and camels all round each named hex
    for session, named in ((middle, tuple(NAMED[:3])), (middle, tuple(NAMED[2:])), (full, tuple(NAMED[1:4]))):
        drawn, faults = tags(board, session, named)
        found += [f"{len(session.document()['players'])} players, {named}: {fault}" for fault in faults]
        assert all(d.size >= READABLE for d in drawn if d.text in {f"({q},{r})" for q, r in named})
    assert not found, f"at {size}, a {board.width:.0f}x{board.height:.0f} board:\n" + "\n".join(found)


@pytest.mark.parametrize(("size", "scale"), SCALED)
def test_a_tag_hides_no_camel_water_hole_or_figure_where_the_map_has_room(
    size: tuple[int, int], scale: int, start: Any, window_size: Any  # noqa: F811
) -> None:
    """Halfway, each tag against a side of its hex that hides nothing, or further out on a leader line.

    At 800x480 the top edge's (1,0), with (2,0) named too, went under its hex, 4.2 px into the water hole (0,1)'s
    disc, beside a free side, and (2,0)'s lay over two camels: a tag went above, below, right or left of its hex,
    the side with the fewest discs' middles near it. On the five players' full map every side of the bottom
    corner's (-6,12) has a camel, and its tag hides the least it can (not checked here).
    """
    middle, board = table_board(start, window_size, size, "ttd")
    scaled(App.get_running_app(), scale)
    found = []
    for named in (tuple(NAMED[:3]), tuple(NAMED[2:]), ((0, 9), (5, 5), (1, 11)), ((9, 9), (0, 3), (-2, 6))):
        drawn, faults = tags(board, middle, named)
        found += [f"{named}: {fault}" for fault in hidden(board, middle, named, drawn) + faults]
    assert not found, f"at {size} ({scale}%), a {board.width:.0f}x{board.height:.0f} board:\n" + "\n".join(found)


def test_a_tap_where_nothing_may_go_names_the_places_on_the_map(start: Any) -> None:
    """At 800x480 a finger on (1,0) is told "(1,0) does not touch Red's pink caravan ... A yellow camel on
    (1,0) would touch Orange's yellow piece at (2,0)": both hexes are named on the map, (1,0) first.

    The names stay while the answer stands and go with the next step, whose camel is ringed instead.
    """
    session = mid_game("ttd")
    app = open_on(start, session)
    table = app.root.get_screen("table")
    board = table.ids.board
    assert board.view.named == ()  # "Red: place camel 1 of 2 this turn." names no place
    tap_hex(app, 1, 0)
    said = app.announcements[0]
    assert said["kind"] == "ruling" and "(2,0)" in said["text"]
    view = board.view
    assert view.named == ((1, 0), (2, 0)) and view.asked == (1, 0)
    drawn = words_drawn(board, session, named=view.named, marked=view.marked, asked=view.asked)  # as the table
    names = {d.text: d for d in drawn if d.text in ("(1,0)", "(2,0)")}
    assert set(names) == {"(1,0)", "(2,0)"} and all(d.size >= READABLE for d in names.values())
    assert not tags(board, session, view.named)[1]

    wanted = session.legal()[0]
    tap_hex(app, *wanted["hex"])  # a lit hex among 24: its placements as buttons
    tap(button(table.ids.choices, wanted["text"]))
    assert board.view.named == () and board.view.last == tuple(wanted["hex"])


def test_the_water_hole_to_enter_is_named_on_the_map(start: Any) -> None:
    """"Water hole 1 of 22 at (2,0): enter the value ...": the prompt names the site, and so does the map."""
    session = Session.new("ttd", ["red", "black", "orange"])
    app = open_on(start, session)
    assert app.prompt.startswith("Water hole 1 of 22 at (2,0)")
    assert app.root.get_screen("table").ids.board.view.named == ((2, 0),)
    assert ttd.places_named("(0,3) touches Black at (-1,12); (0,3) again") == [(0, 3), (-1, 12)]


# Hexes of the five players' full map (``ended``) every side of which, and each spot a hex or two out, hides a
# camel or a water hole: named alone, their tags lay over one (72, 56 and 21 of the 234 hexes at the three sizes).
CROWDED = {
    ((800, 480), 100): [(0, 0), (1, 0), (2, 6), (3, 5), (7, 1), (8, 3), (0, 11), (6, 9)],
    ((480, 800), 120): [(0, 9), (3, 6), (7, 5), (8, 4), (9, 2), (10, 4), (-3, 12), (0, 12)],
    ((1024, 600), 120): [(-6, 12), (1, 0), (11, 1), (10, 11), (2, 8), (-1, 11)],
}


@pytest.mark.parametrize(("size", "scale"), CROWDED, ids=[f"{w}x{h}-{p}" for (w, h), p in CROWDED])
def test_on_the_full_map_a_tag_goes_to_ground_a_few_hexes_off_rather_than_over_a_camel(
    size: tuple[int, int], scale: int, start: Any, window_size: Any  # noqa: F811
) -> None:
    """Where every side of a hex and each place a hex or two out is taken, the tag goes on the nearest ground that
    hides nothing (sand between caravans, a mountain), up to four hexes off, on a leader line through no water
    hole's figure: it lay up to 11 px over a camel or a water hole."""
    _, board = table_board(start, window_size, size, "ttd")
    scaled(App.get_running_app(), scale)
    full = ended()
    found = []
    for place in CROWDED[(size, scale)]:
        drawn, faults = tags(board, full, (place,))
        found += [f"{place}: {fault}" for fault in hidden(board, full, (place,), drawn) + faults]
    assert not found, f"at {size} ({scale}%), a {board.width:.0f}x{board.height:.0f} board:\n" + "\n".join(found)
