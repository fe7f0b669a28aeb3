"""The Blackpool drawing the right way up: row 1 at the bottom, as the board data and the rules have it."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

import pytest
from kivy.graphics import Ellipse
from kivy.uix.widget import Widget

from companion.session import Session
from tests.ui.drawing import on_window, pixel, render, words_drawn
from ui.boards import blackpool
from ui.boards.paint import rgb


@pytest.fixture
def canvas() -> Iterator[Widget]:
    yield from on_window((450, 450))


def test_each_camp_is_drawn_in_its_own_corner(canvas: Widget) -> None:
    """Blue's camp a1 bottom-left, yellow's i1 bottom-right: upside down, every path ran clockwise on screen."""
    session = Session.new("blackpool", ["yellow", "red"])
    pixels = render(canvas, session)
    strip = canvas.height * blackpool.STRIP
    cell = min(canvas.width, canvas.height - strip) / 9
    x0, y0 = (canvas.width - 9 * cell) / 2, strip + (canvas.height - strip - 9 * cell) / 2
    corners = {"blue": (0, 0), "yellow": (8, 0), "green": (0, 8), "red": (8, 8)}  # (column, row from the bottom)
    for colour, (col, row) in corners.items():
        x, y = x0 + (col + 0.5) * cell, y0 + (row + 0.15) * cell  # low in the square: under its label and pieces
        assert pixel(pixels, canvas, x, y) == tuple(round(c * 255) for c in rgb(colour)), colour


def test_the_strip_shows_each_players_coins_and_travellers_home(canvas: Widget) -> None:
    """Coins are spent on the charm deck; the board never showed how many a player had."""
    session = Session.new("blackpool", ["yellow", "red"])
    document = session.document()
    document["travellers"]["red-1"]["at"] = "camp"
    pixels = render(canvas, session, document)
    h = canvas.height * blackpool.STRIP
    segment = canvas.width / 3  # two players and the decks
    gold = tuple(round(c * 255) for c in blackpool.COIN_RGB)
    for k in range(2):
        assert pixel(pixels, canvas, k * segment + h * 0.95 + h * 0.2, h * 0.5) == gold  # the coin, beside its count
    red = tuple(round(c * 255) for c in rgb("red"))
    assert pixel(pixels, canvas, segment + h * 1.48, h * 0.5) == red  # red's first pip: one traveller home
    assert pixel(pixels, canvas, h * 1.48, h * 0.5) != tuple(round(c * 255) for c in rgb("yellow"))  # none home


def square_boxes(canvas: Widget, session: Session) -> tuple[float, dict[str, tuple[float, float, float, float]]]:
    """The side of a square and each square's box (x, y, w, h) as the drawing lays them out."""
    board = session.game.data["board"]
    strip = canvas.height * blackpool.STRIP
    cell = min(canvas.width, canvas.height - strip) / 9
    x0, y0 = (canvas.width - 9 * cell) / 2, strip + (canvas.height - strip - 9 * cell) / 2
    return cell, {s["id"]: (x0 + s["x"] * cell, y0 + s["y"] * cell, cell, cell) for s in board["squares"]}


def test_square_names_the_texts_use_are_drawn_large_enough_to_read(canvas: Widget) -> None:
    """ "Green 1: forward 3 to e3 (ring 3)": every square shows its name, a third of the square high."""
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
    centre = next(s["id"] for s in session.game.data["board"]["squares"] if s["zone"] == "centre")
    assert len(named) > 10 and named <= set(boxes) - {centre}  # "out of the centre", never by its square's name
    drawn = words_drawn(canvas, session)
    for square, box in boxes.items():
        if square == centre:
            continue
        labels = [d for d in drawn if d.text == square and d.inside(box)]
        assert labels, square
        assert labels[0].h >= cell * 0.3, labels[0]  # it was a fifth of the square: 8 px at 800x480


def test_a_lone_traveller_keeps_off_its_squares_name(canvas: Widget) -> None:
    session = Session.new("blackpool", ["yellow", "red"])
    document = session.document()
    document["travellers"]["red-1"] = {**document["travellers"]["red-1"], "at": "c3"}
    drawn = words_drawn(canvas, session, document)
    _, boxes = square_boxes(canvas, session)
    label = next(d for d in drawn if d.text == "c3" and d.inside(boxes["c3"]))
    pieces = [e for e in canvas.canvas.children if isinstance(e, Ellipse) and _centre_in(e, boxes["c3"])]
    assert pieces
    for piece in pieces:
        (ex, ey), (ew, _) = piece.pos, piece.size
        cx, cy, r = ex + ew / 2, ey + ew / 2, ew / 2
        nearest_x = min(max(cx, label.x), label.x + label.w)
        nearest_y = min(max(cy, label.y), label.y + label.h)
        assert (nearest_x - cx) ** 2 + (nearest_y - cy) ** 2 >= r**2 * 0.95, (label, piece.pos, piece.size)


def _centre_in(ellipse: Ellipse, box: tuple[float, float, float, float]) -> bool:
    (ex, ey), (ew, eh) = ellipse.pos, ellipse.size
    return box[0] <= ex + ew / 2 <= box[0] + box[2] and box[1] <= ey + eh / 2 <= box[1] + box[3]
