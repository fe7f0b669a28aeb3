"""The Targi drawing: opening and mid-game positions draw, and a moved Targi shows where it went."""

from __future__ import annotations

from typing import Any

import pytest
from kivy.core.window import Window

from companion.games.targi.board import POSITION
from companion.games.targi.state import slot_name
from companion.session import Session
from tests.ui.drawing import render, words_drawn
from ui.boards import has_drawing
from ui.boards import targi as drawing
from ui.shots import mid_game
from ui.widgets import BoardWidget

SIZES = [(390, 390), (660, 660), (600, 380)]  # 800x480, 1280x800, and a wide area for the side-by-side layout


@pytest.fixture(scope="module")
def middle() -> Session:
    return mid_game("targi")


def board(size: tuple[int, int]) -> Any:
    widget = BoardWidget(size=size, pos=(0, 0), size_hint=(None, None))
    Window.add_widget(widget)
    return widget


def region(pixels: bytes, widget: Any, box: tuple[float, float, float, float]) -> bytes:
    """The pixels of a widget-local box (y up); the exported image has the widget's top row first."""
    x, y, w, h = (int(v) for v in box)
    width = int(widget.width)
    rows = []
    for yy in range(y + 1, y + h - 1):
        row = int(widget.height) - 1 - yy
        rows.append(pixels[(row * width + x + 1) * 4 : (row * width + x + w - 1) * 4])
    return b"".join(rows)


def test_targi_has_a_drawing() -> None:
    assert has_drawing("targi")


@pytest.mark.parametrize("size", SIZES)
def test_opening_and_mid_game_draw(size: tuple[int, int], middle: Session) -> None:
    widget = board(size)
    try:
        opening = Session.new("targi", ["white", "black"])
        assert render(widget, opening)
        assert len(widget.canvas.children) > 100  # 25 cards and two panels: not the one-label text fallback
        render(widget, middle)
        assert len(widget.canvas.children) > 200
    finally:
        Window.remove_widget(widget)


def test_moved_targi_changes_the_pixels_where_it_went(middle: Session) -> None:
    doc = middle.game.to_document(middle.state)
    figure = doc["targi"][0]
    taken = {t["card"] for t in doc["targi"]} | {doc["robber"], 4, 8, 12, 16}
    target = next(n for n in range(1, 17) if n not in taken)
    untouched = next(n for n in range(1, 17) if n not in taken and n != target)
    moved = {**doc, "targi": [{**t, "card": target} if t is figure else t for t in doc["targi"]]}

    widget = board((390, 390))
    try:
        before = render(widget, middle, doc)
        after = render(widget, middle, moved)
        layout = drawing.Layout(widget)
        for card, changes in ((figure["card"], True), (target, True), (untouched, False)):
            box = layout.card(*POSITION[card])
            assert (region(before, widget, box) != region(after, widget, box)) is changes, card
        for panel in layout.panels:  # the panels do not depend on where the figures stand
            assert region(before, widget, panel) == region(after, widget, panel)
    finally:
        Window.remove_widget(widget)


def test_tribe_marker_and_face_down_cards_draw(middle: Session) -> None:
    """A marker shows on the central card it stands on; an emptied centre place draws as an outline."""
    doc = middle.game.to_document(middle.state)
    centre = [list(row) for row in doc["centre"]]
    centre[0][0] = {"face_down": "goods", "pile": 0}
    centre[2][2] = None
    base = {**doc, "centre": centre, "markers": []}
    marked = {**base, "markers": [{"slot": [1, 1], "player": "black"}]}
    widget = board((390, 390))
    try:
        before = render(widget, middle, base)
        after = render(widget, middle, marked)
        layout = drawing.Layout(widget)
        assert region(before, widget, layout.card(1, 1)) != region(after, widget, layout.card(1, 1))
        assert region(before, widget, layout.card(2, 2)) == region(after, widget, layout.card(2, 2))
    finally:
        Window.remove_widget(widget)


def test_each_panel_shows_the_score_so_far_not_the_tokens_alone() -> None:
    """The panel's "VP 5" was the tokens, while the score (cards and bonuses too) was 11: the final result disagreed."""
    import random

    from ui.boards import BoardView
    from ui.boards.targi import _totals

    session = Session.new("targi", ["white", "black"])
    rng = random.Random(4)
    for _ in range(120):
        session.act(session.game.sim_choose(session.state, session.legal(), rng))
    view = BoardView(session.game, session.document())
    expected = {p: parts["total"] for p, parts in session.game.score(session.state).items()}
    assert _totals(view) == expected
    assert any(expected[p] != session.document()["supplies"][p]["vp"] for p in expected)


@pytest.mark.parametrize("size", SIZES)
def test_centre_cards_carry_the_names_the_texts_give_them(size: tuple[int, int], middle: Session) -> None:
    """ "Use Date Sacks (G02) at centre 2-1": each centre card is tagged with its row-column, face up or not."""
    opening = Session.new("targi", ["white", "black"])
    assert "centre 1-1" in opening.pending().text  # the set-up names the first card to turn up so
    doc = middle.game.to_document(middle.state)
    centre = [list(row) for row in doc["centre"]]
    centre[0][0] = {"face_down": "goods", "pile": 0}
    centre[2][2] = None  # an emptied place is named too ("it stays empty")
    widget = board(size)
    try:
        drawn = words_drawn(widget, middle, {**doc, "centre": centre})
        layout = drawing.Layout(widget)
        for i in range(9):
            row, col = divmod(i, 3)
            box = layout.card(row + 1, col + 1)
            tags = [d for d in drawn if d.text == slot_name(i) and d.inside(box)]
            assert len(tags) == 1, slot_name(i)
            assert tags[0].h >= 9, tags[0]
            assert tags[0].y + tags[0].h > box[1] + box[3] * 0.6  # at the top, where a player looks first
    finally:
        Window.remove_widget(widget)


def test_each_panel_numbers_its_display_rows(middle: Session) -> None:
    """ "Play Weaver in row 2": the rows of each player's display are numbered 1 to 3 from the top."""
    widget = board((390, 390))
    try:
        drawn = words_drawn(widget, middle)
        layout = drawing.Layout(widget)
        for panel in layout.panels:
            numbers = sorted((d for d in drawn if d.text in ("1", "2", "3") and d.inside(panel)), key=lambda d: -d.y)
            assert [d.text for d in numbers] == ["1", "2", "3"]
            assert all(d.centre[0] < panel[0] + panel[2] * 0.15 for d in numbers)  # down the panel's left side
    finally:
        Window.remove_widget(widget)
