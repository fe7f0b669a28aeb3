"""The Blackpool drawing the right way up: row 1 at the bottom, as the board data and the rules have it."""

from __future__ import annotations

import dataclasses
import itertools
import math
import random
import re
from collections.abc import Iterator
from typing import Any
from unittest.mock import patch

import pytest
from kivy.graphics import Ellipse, Mesh
from kivy.uix.widget import Widget

from companion.session import Session
from tests.games.blackpool.helpers import yellow_rolled_five
from tests.ui.conftest import advance, tap, tap_at
from tests.ui.drawing import on_window, pixel, render, words_drawn
from tests.ui.test_boards_robust import board_at
from ui.boards import BoardView, blackpool
from ui.boards.paint import ASKED, HIGHLIGHT, piece_shape, rgb
from ui.boards.shapes import piece_points
from ui.shots import mid_game

pytestmark = pytest.mark.usefixtures("undrawn")  # boards' own pictures and sizes are read, not the window's


@pytest.fixture
def canvas() -> Iterator[Widget]:
    yield from on_window((450, 450))


def test_each_camp_is_drawn_in_its_own_corner(canvas: Widget) -> None:
    """Blue's camp a1 bottom-left, yellow's i1 bottom-right: upside down, every path ran clockwise on screen."""
    session = Session.new("blackpool", ["yellow", "red"])
    pixels = render(canvas, session)
    cell, boxes = square_boxes(canvas, session)
    corners = {"blue": "a1", "yellow": "i1", "green": "a9", "red": "i9"}
    for colour, square in corners.items():
        x, y = boxes[square][0] + 0.5 * cell, boxes[square][1] + 0.08 * cell  # low in the square: under its pieces
        assert pixel(pixels, canvas, x, y) == tuple(round(c * 255) for c in rgb(colour)), colour


def test_the_strip_shows_each_players_coins_and_travellers_home(canvas: Widget) -> None:
    """Coins are spent on the charm deck; the board never showed how many a player had."""
    session = Session.new("blackpool", ["yellow", "red"])
    document = session.document()
    document["travellers"]["red-1"]["at"] = "camp"
    pixels = render(canvas, session, document)
    grid = blackpool.grid_for(canvas, BoardView(session.game, document, []))
    h = grid.row_h
    segment = canvas.width / grid.columns  # two players and the decks, in one row
    top = grid.strip_h - h / 2
    gold = tuple(round(c * 255) for c in blackpool.COIN_RGB)
    for k in range(2):
        assert pixel(pixels, canvas, k * segment + h * 0.8 + h * 0.3, top) == gold  # the coin, beside its count
    red = tuple(round(c * 255) for c in rgb("red"))
    (x, y, _), *_ = blackpool.home_pips(0, top, h)  # the first pip in the first slot
    assert pixel(pixels, canvas, segment + x, y) == red  # red's first pip: one traveller home
    assert pixel(pixels, canvas, x, y) != tuple(round(c * 255) for c in rgb("yellow"))  # none home
    counts = [d for d in words_drawn(canvas, session, document) if d.y + d.h <= grid.strip_h + 0.5]
    assert {d.text for d in counts} == {"3", "Charm deck 3", "Curse deck 3"}  # three coins each at the start
    assert min(d.size for d in counts) >= blackpool.READABLE


def square_boxes(canvas: Widget, session: Session) -> tuple[float, dict[str, tuple[float, float, float, float]]]:
    """The side of a square and each square's box (x, y, w, h) as the drawing lays them out."""
    board = session.game.data["board"]
    grid = blackpool.grid_for(canvas, BoardView(session.game, session.document(), []))
    return grid.cell, {s["id"]: (*grid.origin(s), grid.cell, grid.cell) for s in board["squares"]}


def test_the_squares_the_texts_name_are_found_by_the_letters_and_numbers_along_the_edges(canvas: Widget) -> None:
    """ "Green 1: forward 3 to e3 (ring 3)": column letters under the grid, row numbers left of it, as on a chess
    board, each in line with its squares and the board's text size (each square's own name was 13 px at 800x480)."""
    session = Session.new("blackpool", ["yellow", "red", "green"])
    rng = random.Random(5)
    named: set[str] = set()
    for _ in range(150):
        legal = session.legal()
        if session.pending().is_over or not legal:
            break
        named.update(re.findall(r"\b[a-i][1-9]\b", " ".join(str(a.get("text")) for a in legal)))
        session.act(session.game.sim_choose(session.state, legal, rng))
    cell, boxes = square_boxes(canvas, session)
    assert len(named) > 10 and named <= set(boxes)
    left, bottom = boxes["a1"][0], boxes["a1"][1]  # the grid's lower left corner
    words = words_drawn(canvas, session)
    letters = {d.text: d for d in words if d.text in "abcdefghi" and d.y + d.h <= bottom + 0.5 and d.x >= left}
    numbers = {d.text: d for d in words if d.text in "123456789" and d.x + d.w <= left + 0.5 and d.y >= bottom}
    assert len(letters) == len(numbers) == 9
    for square in named:
        x, y, _, _ = boxes[square]
        letter, number = letters[square[0]], numbers[square[1]]
        assert x <= letter.centre[0] <= x + cell and y <= number.centre[1] <= y + cell, square
        assert min(letter.size, number.size) >= blackpool.READABLE


def _centre_in(ellipse: Ellipse, box: tuple[float, float, float, float]) -> bool:
    (ex, ey), (ew, eh) = ellipse.pos, ellipse.size
    return box[0] <= ex + ew / 2 <= box[0] + box[2] and box[1] <= ey + eh / 2 <= box[1] + box[3]


# Pointing at a traveller: Blackpool's actions name a piece ({"type": "move", "traveller": "red-1"}), so a tap
# names the piece under the finger, and the table's marks are rings round the pieces.

SIZES = [(450, 450), (390, 390), (660, 660), (600, 380)]  # 800x480's board, 1280x800's, and a wide one


def frozen_and_riding() -> Session:
    """Yellow rolled 5 (`yellow_rolled_five`), with Green 1 alone on f6 and two greens in the centre."""
    return yellow_rolled_five(green=True)


def crowded_centre() -> Session:
    """Four players at the start: all twelve travellers in the centre square, each a tenth of a square wide."""
    return Session.new("blackpool", ["yellow", "red", "green", "blue"])


def view_of(session: Session, **marks: Any) -> BoardView:
    return BoardView(session.game, session.document(), session.game.describe(session.state), **marks)


def drawn_view(widget: Widget, view: BoardView) -> bytes:
    widget.canvas.clear()
    blackpool.draw(widget, view)
    return bytes(widget.export_as_image().texture.pixels)


def seen_at(pixels: bytes, widget: Widget, piece: blackpool.Piece, drawn: list[blackpool.Piece]) -> tuple[int, int]:
    """A point (widget-local) where the piece shows in its own colour, under no piece drawn after it.

    Found on the pixels, not from the layout alone: a carrier shows only below
    its rider, and a tap there must still name the carrier.
    """
    later = drawn[drawn.index(piece) + 1 :]
    colour = tuple(round(c * 255) for c in rgb(piece.colour))
    x0, y0 = piece.x - widget.x, piece.y - widget.y
    spots = []
    for dy in range(-int(piece.r), int(piece.r) + 1):
        for dx in range(-int(piece.r), int(piece.r) + 1):
            x, y = int(x0 + dx), int(y0 + dy)
            if (x - x0) ** 2 + (y - y0) ** 2 > (piece.r - 1) ** 2:
                continue
            covered = any((x - (p.x - widget.x)) ** 2 + (y - (p.y - widget.y)) ** 2 <= (p.r + 2) ** 2 for p in later)
            if not covered and pixel(pixels, widget, x, y) == colour:
                spots.append((abs(dx) + abs(dy), x, y))
    assert spots, piece
    _, x, y = min(spots)
    return x, y


@pytest.mark.parametrize("size", SIZES)
def test_a_tap_on_each_drawn_traveller_names_it(size: tuple[int, int]) -> None:
    """Every traveller, tapped where its colour shows (a carrier below its rider, one of twelve in the centre, and
    each of the centre's crowd again in the tray beside the grid)."""
    window = on_window(size)
    widget = next(window)
    try:
        for session in (frozen_and_riding(), crowded_centre(), mid_game("blackpool")):
            view = view_of(session)
            pixels = drawn_view(widget, view)
            drawn = blackpool.pieces(widget, view)
            assert sorted({p.id for p in drawn}) == sorted(session.document()["travellers"])
            crowd = blackpool.stacks(session.document(), view.game.data["board"]["camps"], "e5").get("e5", [])
            assert len(drawn) - len(session.document()["travellers"]) == (sum(map(len, crowd)) if len(crowd) > 3 else 0)
            discs = [(e.pos[0] + e.size[0] / 2, e.pos[1] + e.size[1] / 2, e.size[0] / 2)
                     for e in widget.canvas.children if isinstance(e, Ellipse)]  # fmt: skip
            corners = {(round(m.vertices[k], 2), round(m.vertices[k + 1], 2)) for m in widget.canvas.children
                       if isinstance(m, Mesh) for k in range(0, len(m.vertices), 4)}  # fmt: skip
            for piece in drawn:
                want = (piece.x, piece.y, piece.r)
                shaped = piece_points(piece_shape(piece.colour), piece.x, piece.y, piece.r)
                if shaped:  # a square or diamond piece (colour-blind players): its corners are on the canvas
                    on_canvas = all((round(shaped[k], 2), round(shaped[k + 1], 2)) in corners for k in (0, 2, 4, 6))
                else:
                    on_canvas = any(max(abs(a - b) for a, b in zip(d, want, strict=True)) < 0.01 for d in discs)
                assert on_canvas, piece  # the shape a tap is measured against is the one drawn
                x, y = seen_at(pixels, widget, piece, drawn)
                assert blackpool.place_at(widget, view, widget.x + x, widget.y + y) == piece.id, (piece, x, y)
    finally:
        next(window, None)  # off the window again


def test_a_tap_near_a_piece_means_it_and_one_away_from_every_piece_means_nothing(canvas: Widget) -> None:
    """A fingertip is wider than a piece: just off its rim still names it; a bare square, the strip, nothing."""
    session = frozen_and_riding()
    view = view_of(session)
    drawn = {p.id: p for p in blackpool.pieces(canvas, view)}
    for tid in ("yellow-2", "yellow-3", "green-1", "red-3"):
        piece = drawn[tid]
        for dx, dy in ((piece.r + 4, 0), (0, -(piece.r + 4)), (-(piece.r + 3), piece.r * 0.3)):
            assert blackpool.place_at(canvas, view, piece.x + dx, piece.y + dy) == tid, (tid, dx, dy)
    _, boxes = square_boxes(canvas, session)
    for square in ("a1", "b8", "h2", "e9", "a5"):  # no piece on them or beside them
        x, y, w, h = boxes[square]
        for px, py in ((x + w / 2, y + h / 2), (x + 4, y + h - 4)):
            assert blackpool.place_at(canvas, view, px, py) is None, (square, px, py)
    strip = blackpool.grid_for(canvas, BoardView(session.game, session.document(), [])).strip_h
    assert blackpool.place_at(canvas, view, canvas.width / 2, strip / 2) is None


def close(colour: tuple[int, int, int], want: tuple[float, float, float], within: int = 40) -> bool:
    return all(abs(c - round(v * 255)) < within for c, v in zip(colour, want, strict=True))


def test_marks_ring_the_pieces_under_the_names_and_the_other_pieces(canvas: Widget) -> None:
    """Offered pieces ringed gold, the listed one thicker, the one asked about red, the last one moved white.

    The rings lie under every name and every piece: each square's name and
    each piece's colour are the same pixels with the marks as without them.
    A frozen piece's ice rim is inside its disc, so it is never taken for a
    ring.
    """
    session = frozen_and_riding()
    plain = view_of(session)
    marks = {"marked": frozenset({"yellow-1", "yellow-3", "green-1"}), "focus": "yellow-3"}
    view = view_of(session, **marks, asked="yellow-2", last="red-3")
    before = drawn_view(canvas, plain)
    after = drawn_view(canvas, view)
    drawn = {p.id: p for p in blackpool.pieces(canvas, view)}

    def run(pixels: bytes, tid: str) -> list[tuple[int, int, int]]:
        """The pixels right of a piece, from just outside its black rim to eight pixels further out."""
        piece = drawn[tid]
        start = int(piece.x + piece.r + blackpool.OUTLINE + 1)
        return [pixel(pixels, canvas, k, piece.y) for k in range(start, start + 9)]

    def count(tid: str, colour: tuple[float, float, float]) -> int:
        return sum(close(p, colour) for p in run(after, tid))

    assert count("green-1", HIGHLIGHT) >= 2 and count("yellow-2", ASKED) >= 2 and count("red-3", (1, 1, 1)) >= 2
    assert count("yellow-3", HIGHLIGHT) > count("green-1", HIGHLIGHT)  # the listed piece: a thicker ring
    for tid in ("red-2", "green-2", "green-3"):  # nothing said about these: drawn as without marks
        assert run(after, tid) == run(before, tid), tid
    assert not any(close(p, blackpool.ICE, 30) for p in run(before, "yellow-2"))  # frozen: no ring outside it
    piece = drawn["yellow-2"]
    rim = [pixel(before, canvas, piece.x + piece.r * k / 100, piece.y) for k in range(65, 92)]
    assert any(close(p, blackpool.ICE, 30) for p in rim)  # but an ice rim inside

    for tid, piece in drawn.items():  # every piece shows where it showed, rings or not
        x, y = seen_at(before, canvas, piece, list(drawn.values()))
        assert pixel(after, canvas, x, y) == pixel(before, canvas, x, y), tid
    cell, boxes = square_boxes(canvas, session)
    for word in words_drawn(canvas, session):
        square = next((s for s, box in boxes.items() if word.text == s and word.inside(box)), None)
        if square is None:
            continue
        sx, sy, _, _ = boxes[square]
        left, right = int(max(word.x, sx + 1)), int(min(word.x + word.w, sx + cell - 1))
        bottom, top = int(max(word.y, sy + 1)), int(min(word.y + word.h, sy + cell - 1))
        for yy in range(bottom, top):
            row_before = [pixel(before, canvas, xx, yy) for xx in range(left, right)]
            assert row_before == [pixel(after, canvas, xx, yy) for xx in range(left, right)], square


def piece_spot(widget: Any, tid: str) -> tuple[float, float]:
    """Where a traveller shows on the table's board, in the coordinates a tap takes (the board's parent's)."""
    pixels = bytes(widget.export_as_image().texture.pixels)
    drawn = blackpool.pieces(widget, widget.view)
    x, y = seen_at(pixels, widget, next(p for p in drawn if p.id == tid), drawn)
    return widget.x + x, widget.y + y


def test_a_tap_on_a_frozen_traveller_is_refused_with_its_clause_and_one_that_may_move_lists_its_move(
    start: Any,
) -> None:
    """The referee taps Yellow 2: "Yellow 2 is frozen ... [BP-C10]", ringed red, and the game is as it was.

    A tap on Yellow 3 lists its move alone, a tap on a bare square lists
    both moves again, and taking the move rings Yellow 3 as the last step.
    """
    session = frozen_and_riding()
    before, document = list(session.log), session.document()
    app = start(session)
    table = app.root.get_screen("table")
    widget = table.ids.board
    moves = session.legal()
    assert widget.view.marked == {"yellow-1", "yellow-3"}  # a short list, lit on the board too

    tap_at(widget, *piece_spot(widget, "yellow-2"))
    said = app.announcements[0]
    assert said["kind"] == "ruling" and said["rules"] == ["BP-C10"], said
    assert said["text"] == "Yellow 2 is frozen and stays until it is awakened."
    assert "BP-C10" in table.ids.announcements.text
    assert session.log == before and session.document() == document  # asking changes nothing
    assert widget.view.asked == "yellow-2" and widget.view.focus is None
    advance(2)
    pixels = bytes(widget.export_as_image().texture.pixels)
    piece = next(p for p in blackpool.pieces(widget, widget.view) if p.id == "yellow-2")
    start_x = piece.x - widget.x + piece.r + blackpool.OUTLINE + 1
    edge = [pixel(pixels, widget, start_x + k, piece.y - widget.y) for k in range(9)]
    assert sum(close(p, ASKED) for p in edge) >= 2, edge

    tap_at(widget, *piece_spot(widget, "red-1"))  # the rider on Yellow 1: Red's, not Yellow's to move
    assert app.announcements[0]["rules"] == ["BP-6"] and widget.view.asked == "red-1"

    tap_at(widget, *piece_spot(widget, "yellow-3"))
    assert [b.action for b in table.ids.choices.children] == [a for a in moves if a["traveller"] == "yellow-3"]
    assert widget.view.focus == "yellow-3" and widget.view.asked is None

    _, boxes = square_boxes(widget, session)
    x, y, w, h = boxes["a1"]  # blue's camp: blue is not playing, nothing there
    tap_at(widget, widget.x + x + w / 2, widget.y + y + h / 2)
    assert widget.view.focus is None and len(table.ids.choices.children) == len(moves)

    tap_at(widget, *piece_spot(widget, "yellow-3"))
    tap(table.ids.choices.children[0])
    assert session.log[-1] == {"type": "move", "traveller": "yellow-3"}
    assert widget.view.last == "yellow-3" and widget.view.asked is None


def test_a_cafe_board_whose_squares_are_not_named_by_column_and_row_keeps_each_name_in_its_square(
    canvas: Widget,
) -> None:
    """Letters and numbers along the edges name the house board's squares; a café's own names ("Pier 3") would
    not be found by them, so each is written in its square as before, and no letter or row number is drawn."""
    session = Session.new("blackpool", ["yellow", "red"])
    house = session.game.data["board"]
    assert blackpool.coordinates(house)
    renamed = {**house, "squares": [{**s, "id": f"Pier {k}"} for k, s in enumerate(house["squares"])]}
    assert not blackpool.coordinates(renamed)
    data = session.game.data
    with patch.object(session.game, "data", dataclasses.replace(data, files={**data.files, "board": renamed})):
        drawn = {d.text for d in words_drawn(canvas, session)}
    assert {f"Pier {k}" for k in range(81)} - {"Pier 40"} <= drawn  # the crowded centre's name gives way, as ever
    assert not drawn & set("abcdefghi456789")  # no letters, no row numbers (pieces and coins go to 3)


TABLE_SPACING = 8.0  # px between the board and the prompt beside it at 800x480 (table.kv: 8 units)


@pytest.mark.parametrize("kind", ["focus", "marked", "asked", "last"])
def test_a_ring_in_the_centres_tray_stays_in_the_gap_beside_the_board(kind: str) -> None:
    """The tray of the crowded centre lies in the 32 px the row numbers leave right of the grid, so a ring round
    one of its pieces reaches past the board's edge; no further than the gap before the prompt. The listed
    piece's glow reached 11 px past it, over the first letters of "Yellow rolled a six"."""
    window = on_window((398, 398))
    widget = next(window)
    try:
        session = crowded_centre()
        marks = {"focus": {"focus": "yellow-2"}, "marked": {"marked": frozenset({"yellow-2"})},
                 "asked": {"asked": "yellow-2"}, "last": {"last": "yellow-2"}}[kind]  # fmt: skip
        view = view_of(session, **marks)
        drawn_view(widget, view)
        board = session.game.data["board"]
        grid = blackpool.grid_for(widget, view)
        crowd = blackpool.stacks(view.document, board["camps"], "e5")["e5"]
        shelf = blackpool.tray(widget, grid, board, crowd)
        assert "yellow-2" in {p.id for p in shelf}
        furthest = max(e.pos[0] + e.size[0] for e in widget.canvas.children if isinstance(e, Ellipse))
        assert widget.right < furthest <= widget.right + TABLE_SPACING, (kind, furthest - widget.right)
    finally:
        next(window, None)


# The table's board (w, h) at 800x480, 1024x600, 480x800 and 720x1280, at 100% and at 120% display scale, to
# the pixel below (``pixel`` reads whole pixels: 381.6 px wide is exported 382 wide).
TABLE_BOARDS = {
    f"{w}x{h}{'-120' if percent == 120 else ''}": tuple(math.floor(side + 1e-6) for side in board_at((w, h), percent))
    for w, h in ((800, 480), (1024, 600), (480, 800), (720, 1280)) for percent in (100, 120)
}  # fmt: skip


def shape_reach(piece: blackpool.Piece) -> float:
    """How far a piece's drawn shape, rim included, reaches left, right, up and down (from its corners)."""
    corners = piece_points(piece_shape(piece.colour), 0.0, 0.0, piece.r, blackpool.OUTLINE)
    return max(map(abs, corners)) if corners else piece.r + blackpool.OUTLINE


@pytest.mark.parametrize("size", TABLE_BOARDS.values(), ids=TABLE_BOARDS.keys())
def test_the_centres_tray_keeps_every_piece_inside_its_white_rim_and_apart(size: tuple[float, float]) -> None:
    """Red's diamonds reach further than a disc of the same radius: in the tray's column a disc wide they poked
    2 px through its white rim on both sides and over the diamond above and below them."""
    window = on_window(size)
    widget = next(window)
    try:
        for session in (crowded_centre(), mid_game("blackpool")):
            view = view_of(session)
            pixels = drawn_view(widget, view)
            board = session.game.data["board"]
            crowd = blackpool.stacks(view.document, board["camps"], "e5").get("e5", [])
            shelf = blackpool.tray(widget, blackpool.grid_for(widget, view), board, crowd)
            if not shelf or abs(shelf[0].x - shelf[-1].x) > 0.5:
                continue  # no tray, or rows above a narrow grid: each piece is a disc wide there
            disc = next(p for p in shelf if piece_shape(p.colour) == "disc")
            cx, y = int(disc.x - widget.x), int(disc.y - widget.y)
            white = (255, 255, 255)
            right = next(x for x in range(cx, int(widget.width)) if pixel(pixels, widget, x, y) == white)
            left = next(x for x in range(cx, 0, -1) if pixel(pixels, widget, x, y) == white)
            low = int(min(p.y - shape_reach(p) for p in shelf) - widget.y)
            high = min(int(max(p.y + shape_reach(p) for p in shelf) - widget.y) + 1, int(widget.height))
            poked = [(x, yy) for yy in range(low, high) for x in (left, right) if pixel(pixels, widget, x, yy) != white]
            assert not poked, f"the tray's rim is covered at {poked[:6]}"
            for a, b in itertools.pairwise(sorted(shelf, key=lambda p: -p.y)):  # top down: no piece over the next
                assert (a.y - shape_reach(a)) - (b.y + shape_reach(b)) >= -0.01, (a, b)
            assert all(left < p.x - widget.x - shape_reach(p) < p.x - widget.x + shape_reach(p) < right for p in shelf)
    finally:
        next(window, None)
