"""The temple drawing: opening and mid-game positions draw, and a moved pawn shows where it went."""

from __future__ import annotations

from typing import Any

import pytest
from kivy.core.window import Window

from companion.session import Session
from tests.ui.drawing import pixel, render, words_drawn
from ui.boards import has_drawing
from ui.boards import temple as drawing
from ui.boards.paint import rgb
from ui.shots import mid_game
from ui.widgets import BoardWidget

SIZES = [(390, 390), (660, 660)]  # the board area at 800x480 and at 1280x800


@pytest.fixture(scope="module")
def middle() -> Session:
    return mid_game("temple")


def board(size: tuple[int, int]) -> Any:
    widget = BoardWidget(size=size, pos=(0, 0), size_hint=(None, None))
    Window.add_widget(widget)
    return widget


def on_pawn(frame: Any, cell: tuple[int, int]) -> tuple[float, float]:
    """A point inside a pawn drawn on ``cell`` but clear of its number."""
    x, y = frame.centre(cell)
    return x + frame.cell * 0.2, y - frame.cell * 0.2


def near(colour: tuple[int, int, int], name: str) -> bool:
    return all(abs(c - round(v * 255)) < 40 for c, v in zip(colour, rgb(name), strict=True))


def test_temple_has_a_drawing() -> None:
    assert has_drawing("temple")


@pytest.mark.parametrize("size", SIZES)
def test_opening_and_mid_game_draw(size: tuple[int, int], middle: Session) -> None:
    widget = board(size)
    try:
        opening = Session.new("temple", ["red", "blue", "green"])
        assert render(widget, opening)
        assert len(widget.canvas.children) > 100  # cells, cards, steps, pawns: not the one-label text fallback
        render(widget, middle)
        assert len(widget.canvas.children) > 200  # the cells and texts gathered into meshes (test_board_draws.py)
    finally:
        Window.remove_widget(widget)


def test_moved_pawn_changes_the_pixels_where_it_went(middle: Session) -> None:
    game = middle.game
    doc = game.to_document(middle.state)
    colour, places = next((c, p) for c, p in doc["pawns"].items() if any(isinstance(v, list) for v in p))
    index = next(i for i, v in enumerate(places) if isinstance(v, list))
    start = tuple(places[index])
    occupied = {tuple(v) for p in doc["pawns"].values() for v in p if isinstance(v, list)}
    kinds = drawing.printed_kinds(game.data["board"])
    kinds.update(drawing.slot_kinds(game.data["board"], game.data["cards"], doc["slots"]))
    target = next(cell for cell, kind in kinds.items() if kind == "path" and cell not in occupied)
    moved = {
        **doc,
        "pawns": {**doc["pawns"], colour: [list(target) if i == index else v for i, v in enumerate(places)]},
    }

    widget = board((390, 390))
    try:
        before = render(widget, middle, doc)
        after = render(widget, middle, moved)
        frame = drawing.Frame(widget, game.data["board"]["size"])
        assert near(pixel(before, widget, *on_pawn(frame, start)), colour)
        assert not near(pixel(before, widget, *on_pawn(frame, target)), colour)
        assert near(pixel(after, widget, *on_pawn(frame, target)), colour)
        assert not near(pixel(after, widget, *on_pawn(frame, start)), colour)
        assert pixel(after, widget, 2, 2) == pixel(before, widget, 2, 2)  # the rest of the board stays put
    finally:
        Window.remove_widget(widget)


def test_card_cells_follow_the_slot_rotation(middle: Session) -> None:
    """A hole drawn where the slot puts it, through the game's own slot mapping (right-edge slot: turned 90)."""
    game = middle.game
    doc = dict(game.to_document(middle.state))
    cards = {c["id"]: c["cells"] for c in game.data["cards"]["cards"]}
    card = next(i for i, cells in cards.items() if cells[0][0] == "hole" and cells[0][2] != "hole")
    slots = list(doc["slots"])
    if card in slots:
        slots[slots.index(card)] = slots[3]
    slots[3] = card  # slot 4, right edge, origin [14, 3]: card (row 0, col 0) is [14, 3], (0, 2) is [14, 5]
    doc["slots"] = slots
    doc["pawns"] = {c: ["entrance", "entrance"] for c in doc["pawns"]}
    widget = board((390, 390))
    try:
        pixels = render(widget, middle, doc)
        frame = drawing.Frame(widget, game.data["board"]["size"])
        hole = [round(v * 255) for v in drawing.HOLE]
        assert all(abs(a - b) < 20 for a, b in zip(pixel(pixels, widget, *frame.centre((14, 3))), hole, strict=True))
        assert not all(
            abs(a - b) < 20 for a, b in zip(pixel(pixels, widget, *frame.centre((14, 5))), hole, strict=True)
        )
    finally:
        Window.remove_widget(widget)


@pytest.mark.parametrize("size", SIZES)
def test_every_column_and_row_is_numbered_round_the_board(size: tuple[int, int]) -> None:
    """ "Red 1 to [4,0] (corner)": x counts columns from the west, y rows from the north, both from 0.

    With four colours every side has an Entrance Circle over three numbers;
    the opposite side shows them. Columns 11 and 13 are a dot between numbered
    neighbours: written out, "10" to "14" ran together (``test_board_temple_readable``).
    """
    session = Session.new("temple", ["red", "blue", "green", "yellow"])
    assert session.game.where("red", session.game.board.node(4, 0)).startswith("[4,0]")  # the texts' spelling
    game = session.game
    n = int(game.data["board"]["size"])
    doc = session.document()
    doc["pawns"] = {colour: ["chamber", "chamber"] for colour in doc["pawns"]}  # no pawn numbers by the edges
    widget = board(size)
    try:
        drawn = words_drawn(widget, session, doc)
        frame = drawing.Frame(widget, n)
        left, top = frame.corner(0, 0)
        right, bottom = frame.corner(n, n)
        outside = [d for d in drawn if not (left < d.centre[0] < right and bottom < d.centre[1] < top)]
        for k in range(n):
            x_from, x_to = frame.corner(k, 0)[0], frame.corner(k + 1, 0)[0]
            y_from, y_to = frame.corner(0, k + 1)[1], frame.corner(0, k)[1]
            columns = [d for d in outside if d.text == str(k) and x_from < d.centre[0] < x_to]
            rows = [d for d in outside if d.text == str(k) and y_from < d.centre[1] < y_to]
            assert rows, k
            if k in drawing.numbered_columns(n):
                assert columns, k
            else:  # read between its neighbours, both numbered, with nothing in its place
                assert {k - 1, k + 1} <= drawing.numbered_columns(n) and not columns, k
            assert all(d.h >= frame.cell * 0.5 for d in columns + rows), k
        circles = [spot for _, spots in drawing._circles(frame, game.data["board"], doc) for spot in spots]
        for d in outside:  # no number under an Entrance Circle, where a waiting pawn would hide it
            assert all(abs(d.centre[0] - x) > frame.cell * 0.5 or abs(d.centre[1] - y) > frame.cell * 0.5
                       for x, y in circles), d  # fmt: skip
    finally:
        Window.remove_widget(widget)


def test_slot_numbers_are_drawn_large(middle: Session) -> None:
    """The texts say "slot 4": each number inside the ring, nearly a cell high (it was half that, unreadable)."""
    game = middle.game
    widget = board((390, 390))
    try:
        drawn = words_drawn(widget, middle)
        frame = drawing.Frame(widget, game.data["board"]["size"])
        inner_left, inner_top = frame.corner(3, 3)
        inner_right, inner_bottom = frame.corner(12, 12)
        inside = [d for d in drawn if inner_left < d.centre[0] < inner_right and inner_bottom < d.centre[1] < inner_top]
        for spec in game.data["board"]["slots"]:
            number = [d for d in inside if d.text == str(spec["slot"]) and d.h >= frame.cell * 0.8]
            assert number, spec["slot"]
    finally:
        Window.remove_widget(widget)
