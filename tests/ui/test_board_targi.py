"""The Targi drawing: positions draw, a moved Targi shows where it went, and a tap names the card under it."""

from __future__ import annotations

import random
from typing import Any

import pytest
from kivy.core.window import Window

from companion.games.targi.board import POSITION
from companion.games.targi.state import slot_name
from companion.places import place_of
from companion.session import Session
from tests.ui.conftest import tap, tap_at
from tests.ui.drawing import Words, pixel, render, words_drawn
from tests.ui.test_app import button
from ui.boards import BoardView, has_drawing
from ui.boards import targi as drawing
from ui.boards.paint import ASKED, HIGHLIGHT
from ui.shots import mid_game
from ui.widgets import BoardWidget

pytestmark = pytest.mark.usefixtures("undrawn")  # boards' own pictures and sizes are read, not the window's

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
    expected = session.game.score(session.state)["totals"]
    assert _totals(view) == expected
    assert any(expected[p] != session.document()["supplies"][p]["vp"] for p in expected)


@pytest.mark.parametrize("size", SIZES)
def test_centre_cards_carry_the_names_the_texts_give_them(size: tuple[int, int], middle: Session) -> None:
    """ "Use Date Sacks at centre 2-1": each centre card is tagged with its row-column, face up or not."""
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


# Pointing at the board: a tap names a card as the actions do, and the table's marks are drawn on the cards.

CENTRE = [(row, col) for row in (1, 2, 3) for col in (1, 2, 3)]


def placement() -> Session:
    """White's first Targi on card 2 (Palm Grove): black to place, with 2 taken and its column's 10 barred."""
    session = Session.new("targi", ["white", "black"])
    while session.legal()[0]["type"] != "place":
        session.act(session.legal()[0])  # the set-up's draws
    session.act(next(a for a in session.legal() if a["card"] == 2))
    return session


def centre_use() -> Session:
    """A seeded game up to a turn offering a centre card (``"slot": [row, col]``) among its uses."""
    session = Session.new("targi", ["white", "black"])
    rng = random.Random(1)
    while not any(a["type"] == "use" and "slot" in a for a in session.legal()):
        session.act(session.game.sim_choose(session.state, session.legal(), rng))
    return session


def box_of(widget: Any, place: Any) -> tuple[float, float, float, float]:
    """The card a place names on the drawing: a border number through the game's POSITION, a centre (row, col) as is."""
    return drawing.Layout(widget).card(*(POSITION[place] if isinstance(place, int) else place))


def middle_of(widget: Any, place: Any) -> tuple[float, float]:
    x, y, w, h = box_of(widget, place)
    return x + w / 2, y + h / 2


def view_of(session: Session, **marks: Any) -> BoardView:
    return BoardView(session.game, session.document(), session.game.describe(session.state), **marks)


@pytest.mark.parametrize("size", SIZES)
def test_a_tap_on_each_card_names_it_as_the_actions_do(size: tuple[int, int], middle: Session) -> None:
    """Border cards by number, centre cards by (row, col): checked at the labels the drawing prints on them.

    A tap on the printed "11" must give 11 and one on the tag "2-1" (2, 1), or
    "why not here?" would answer about a card other than the one pointed at.
    """
    widget = board(size)
    try:
        drawn = words_drawn(widget, middle)
        view = view_of(middle)
        layout = drawing.Layout(widget)
        for place in [*range(1, 17), *CENTRE]:
            x, y, w, h = box_of(widget, place)
            label = str(place) if isinstance(place, int) else f"{place[0]}-{place[1]}"
            printed = [d for d in drawn if d.text == label and d.inside((x, y, w, h))]
            assert len(printed) == 1, label  # the card carries the label the texts use for it
            for px, py in (printed[0].centre, (x + w / 2, y + h / 2), (x + 1, y + 1), (x + w - 1, y + h - 1)):
                got = drawing.place_at(widget, view, px, py)
                assert got == place and type(got) is type(place), (label, px, py, got)
        x, y, w, h = box_of(widget, 1)
        between = (x + w + layout.gap * 0.4, y + h / 2)
        assert drawing.place_at(widget, view, *between) in (1, 2)  # a finger in a gap means a card, not nothing
        for px, py, pw, ph in layout.panels:
            assert drawing.place_at(widget, view, px + pw / 2, py + ph / 2) is None
        assert drawing.place_at(widget, view, widget.right - 1, widget.top - 1) in (None, 4)  # past the grid: 4 or none
    finally:
        Window.remove_widget(widget)


def test_the_places_of_a_games_actions_are_where_their_texts_say(middle: Session) -> None:
    """Every placed action of a seeded game, tapped where it is drawn, is found there, and the label there is its own.

    "Place a Targi on 11" and "Use Salt and Pepper at centre 3-3": the
    action's place (``place_of``), the card ``place_at`` finds at that spot
    and the number or tag printed there must all agree.
    """
    session = Session.new("targi", ["white", "black"])
    rng = random.Random(5)
    seen: set[Any] = set()
    widget = board((390, 390))
    try:
        drawn = words_drawn(widget, middle)
        for _ in range(200):
            legal = session.legal()
            if not legal:
                break
            view = view_of(session)
            for action in legal:
                place = place_of(action)
                if place is None:
                    continue
                seen.add(place)
                text = str(action["text"])
                label = str(place) if isinstance(place, int) else f"{place[0]}-{place[1]}"
                assert (f" {label} (" in text or f"(card {label})" in text) if isinstance(place, int) else (
                    f"centre {label}" in text
                ), text
                spot = middle_of(widget, place)
                assert drawing.place_at(widget, view, *spot) == place
                assert any(d.text == label and d.inside(box_of(widget, place)) for d in drawn)
            session.act(session.game.sim_choose(session.state, legal, rng))
        assert any(isinstance(p, int) for p in seen) and any(isinstance(p, tuple) for p in seen)
    finally:
        Window.remove_widget(widget)


def close(colour: tuple[int, int, int], want: tuple[float, float, float], within: int = 40) -> bool:
    return all(abs(c - round(v * 255)) < within for c, v in zip(colour, want, strict=True))


def ink(pixels: bytes, widget: Any, word: Words, want: tuple[float, float, float]) -> int:
    """Pixels inside a drawn word's rectangle in (near) the word's own ink: its glyphs, seen."""
    count = 0
    for y in range(int(word.y) + 1, int(word.y + word.h) - 1):
        for x in range(int(word.x) + 1, int(word.x + word.w) - 1):
            count += close(pixel(pixels, widget, x, y), want, 60)
    return count


def drawn_view(widget: Any, view: BoardView) -> bytes:
    widget.canvas.clear()
    drawing.draw(widget, view)
    return bytes(widget.export_as_image().texture.pixels)


def test_marks_frame_the_cards_and_leave_their_numbers_and_tags_readable() -> None:
    """Offered cards framed gold, the listed one thicker and washed, the asked one red, the last step's white.

    Each frame reaches into the dark gap round its card, where the colour
    reads (the sand faces are near gold), and lies under the card's words: a
    card's number and a centre card's tag keep every pixel of their ink.
    """
    session = placement()
    marked = frozenset({3, 5, 11, (2, 2)})
    plain = view_of(session)
    view = view_of(session, marked=marked, focus=11, asked=(2, 1), last=2)
    widget = board((390, 390))
    try:
        layout = drawing.Layout(widget)
        words = words_drawn(widget, session)
        before = drawn_view(widget, plain)
        after = drawn_view(widget, view)

        def run(pixels: bytes, place: Any) -> list[tuple[int, int, int]]:
            """The pixels half way up the card's left edge, from the middle of the gap to a tenth of the card in."""
            x, y, _, h = box_of(widget, place)
            start, end = int(x - layout.gap / 2), int(x + min(layout.cw, layout.ch) * 0.1) + 1
            return [pixel(pixels, widget, k, y + h / 2) for k in range(start, end)]

        def count(place: Any, colour: tuple[float, float, float]) -> int:
            return sum(close(p, colour) for p in run(after, place))

        for place in marked - {11}:
            assert count(place, HIGHLIGHT) >= 2, place
        assert count((2, 1), ASKED) >= 2 and count(2, (1, 1, 1)) >= 2
        assert count(11, HIGHLIGHT) > max(count(place, HIGHLIGHT) for place in marked - {11})  # the listed: thicker
        for place in (9, 13, (1, 1), (3, 3)):  # nothing to say about these: drawn as without marks
            assert run(after, place) == run(before, place), place
        x, y, w, h = box_of(widget, 11)  # and the listed card is washed gold under its words
        assert pixel(after, widget, x + w * 0.85, y + h * 0.15) != pixel(before, widget, x + w * 0.85, y + h * 0.15)

        for place in [*marked, (2, 1), 2, 11]:
            label = str(place) if isinstance(place, int) else f"{place[0]}-{place[1]}"
            word = next(d for d in words if d.text == label and d.inside(box_of(widget, place)))
            colour = drawing.INK if isinstance(place, int) else drawing.TAG_INK
            assert ink(before, widget, word, colour) >= 5, label
            assert ink(after, widget, word, colour) >= ink(before, widget, word, colour), label  # nothing covered
    finally:
        Window.remove_widget(widget)


def test_a_tap_on_the_other_players_targi_is_refused_with_its_clause(start: Any) -> None:
    """Black taps card 2, where white's Targi stands: the referee says why not, and nothing is placed.

    Then a tap on a free card lists its placement alone, and taking it places
    there; the new Targi's card is ringed as the last step.
    """
    session = placement()
    before = list(session.log)
    document = session.document()
    app = start(session)
    table = app.root.get_screen("table")
    widget = table.ids.board
    assert widget.view.marked == {a["card"] for a in session.legal()}  # a short list, lit on the board too
    assert widget.view.last == 2 and 2 not in widget.view.marked

    tap_at(widget, *middle_of(widget, 2))
    said = app.announcements[0]
    assert said["kind"] == "ruling" and said["rules"] == ["TG-P3"], said
    assert "already holds White's Targi" in said["text"] and "TG-P3" in table.ids.announcements.text
    assert session.log == before and session.document() == document  # asking changes nothing
    assert widget.view.asked == 2 and widget.view.focus is None
    pixels = bytes(widget.export_as_image().texture.pixels)
    x, y, _, h = box_of(widget, 2)  # the board sits inside the screen: its pixels count from its own corner
    edge = [pixel(pixels, widget, x - widget.x + dx, y - widget.y + h / 2) for dx in range(-3, 4)]
    assert sum(close(p, ASKED) for p in edge) >= 2, edge

    free = next(a for a in session.legal() if a["card"] == 11)
    tap_at(widget, *middle_of(widget, 11))
    here = [b.action for b in table.ids.choices.children]
    assert here == [free] and widget.view.focus == 11 and widget.view.asked is None
    assert session.log == before
    tap(button(table.ids.choices, free["text"]))
    assert session.log[-1] == {"type": "place", "card": 11}
    assert {"card": 11, "player": "black"} in session.document()["targi"]
    assert widget.view.last == 11 and widget.view.asked is None


def test_a_tap_on_a_centre_card_offers_its_use(start: Any) -> None:
    """In the action phase a centre card under the player's tribe marker is offered by a tap on it."""
    session = centre_use()
    use = next(a for a in session.legal() if "slot" in a)
    slot = tuple(use["slot"])
    app = start(session)
    table = app.root.get_screen("table")
    widget = table.ids.board
    assert slot in widget.view.marked
    tap_at(widget, *middle_of(widget, slot))
    assert [b.action for b in table.ids.choices.children] == [use] and widget.view.focus == slot
    tap(table.ids.choices.children[0])
    assert session.log[-1]["type"] == "use" and session.log[-1]["slot"] == list(slot)
    assert widget.view.last == slot
