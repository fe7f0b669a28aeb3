"""The table screen on a display mounted upright: the board across the top, the choices under it.

In the landscape arrangement a 480x800 window put the board in a column 270 px
wide with a 250 px empty band under it, and the choices in a narrow column
beside it.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations
from typing import Any

import pytest
from kivy.app import App
from kivy.core.window import Window
from kivy.uix.button import Button
from kivy.uix.label import Label

from companion.session import Session
from tests.ui.conftest import advance, tap
from tests.ui.drawing import words_drawn
from tests.ui.test_boards_robust import TABLE_WINDOWS, board_at, misdrawn, table_board
from tests.ui.test_layout import rolls_under_full_announcements, shown_whole, window_box
from ui.shots import default_players, long_list, mid_game

pytestmark = pytest.mark.usefixtures("undrawn")  # sizes and places are measured, never the window's pixels

PORTRAIT = [(480, 800), (600, 1024), (800, 1280)]
GAMES = ("blackpool", "desert", "ttd", "targi", "temple")
FINGER = 48  # px: 9 mm on the 7 inch display (about 130 px an inch); the table's buttons are 60-64 at 800x480
READABLE = 16  # px: the smallest text on the table upright (17-24 at 800x480)
AREAS = ("board", "prompt", "status", "narrowing", "choice_scroll", "announcements_scroll")


@pytest.fixture
def window_size() -> Iterator[Any]:
    """Resize the real offscreen window; the 800x480 the other tests expect is restored afterwards."""

    def resize(size: tuple[int, int]) -> None:
        Window.size = size
        advance(4)

    yield resize
    Window.size = (800, 480)
    advance(3)


def areas(table: Any) -> dict[str, tuple[float, float, float, float]]:
    """The table's main areas that take room now (the status line and the hint row fold away when empty)."""
    boxes = {name: window_box(table.ids[name]) for name in AREAS}
    boxes["bottom bar"] = window_box(table.ids.undo.parent)
    return {name: box for name, box in boxes.items() if box[2] - box[0] > 0.5 and box[3] - box[1] > 0.5}


def overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return min(a[2], b[2]) - max(a[0], b[0]) > 0.5 and min(a[3], b[3]) - max(a[1], b[1]) > 0.5


def inside(box: tuple[float, float, float, float], outer: tuple[float, float, float, float]) -> bool:
    left, bottom, right, top = outer
    return left - 0.5 <= box[0] and box[2] <= right + 0.5 and bottom - 0.5 <= box[1] and box[3] <= top + 0.5


def faults(table: Any) -> list[str]:
    """What a player would find wrong: areas overlapping or off the window, buttons cut or out of reach."""
    window = (0.0, 0.0, float(Window.width), float(Window.height))
    shown = areas(table)
    found = [f"{name} {box} is off the window" for name, box in shown.items() if not inside(box, window)]
    found += [f"{a} and {b} overlap" for a, b in combinations(shown, 2) if overlap(shown[a], shown[b])]
    scroll = table.ids.choice_scroll
    scrolls = scroll.children[0].height > scroll.height + 1  # a long list scrolls: its far buttons are out of view
    choices = table.buttons()
    for button in table.walk():
        if not isinstance(button, Button) or not button.opacity or button.width < 1 or button.height < 1:
            continue
        box = window_box(button)
        if button in choices:
            if not (box[0] >= -0.5 and box[2] <= Window.width + 0.5):
                found.append(f"choice {button.text!r} {box} runs off the side")
            elif not scrolls and not shown_whole(button, scroll):
                found.append(f"choice {button.text!r} {box} is cut by its list {window_box(scroll)}")
        elif not inside(box, window):
            found.append(f"button {button.text!r} {box} is off the window")
    return found


@pytest.mark.parametrize("size", PORTRAIT)
@pytest.mark.parametrize("game_id", GAMES)
def test_the_board_spans_the_top_and_nothing_overlaps_on_a_portrait_screen(
    game_id: str, size: tuple[int, int], start: Any, window_size: Any
) -> None:
    """Top to bottom: the board (the window's width, and no smaller than on the same display in landscape),
    prompt, choices, announcements, bottom bar."""
    window_size((size[1], size[0]))  # the same display in landscape
    app = start(mid_game(game_id))
    app.show("table")
    advance(4)
    table = app.root.get_screen("table")
    board, prompt, scroll = table.ids.board, table.ids.prompt, table.ids.choice_scroll
    beside = min(board.size)
    window_size(size)
    assert board.width >= Window.width * 0.96, f"the board is {board.width:.0f} px wide in a {Window.width} px window"
    assert min(board.size) >= beside, f"{board.size} upright, {beside:.0f} px square beside the choices"
    assert window_box(board)[1] >= window_box(prompt)[3] - 0.5, "the prompt is not under the board"
    assert window_box(prompt)[1] >= window_box(scroll)[3] - 0.5, "the choices are not under the prompt"
    assert window_box(scroll)[1] >= window_box(table.ids.announcements_scroll)[3] - 0.5
    assert window_box(table.ids.announcements_scroll)[1] >= window_box(table.ids.undo)[3] - 0.5
    assert scroll.width >= Window.width * 0.96, "the choices keep a narrow column"
    found = faults(table)
    assert not found, f"{game_id} at {size[0]}x{size[1]}:\n" + "\n".join(found)
    first = table.buttons()[0] if table.buttons() else None
    assert first is None or shown_whole(first, scroll), "not even the first choice shows"


@pytest.mark.parametrize("size", PORTRAIT)
@pytest.mark.parametrize("game_id", GAMES)
def test_the_table_is_sized_for_a_finger_and_readable_on_a_portrait_screen(
    game_id: str, size: tuple[int, int], start: Any, window_size: Any
) -> None:
    """Every button a finger's size, every text readable: sized by the width alone (app.u 0.6 at 480x800),
    the choices and the bottom bar were 36-38 px high and the words 11-14 px."""
    window_size(size)
    app = start(mid_game(game_id))
    app.show("table")
    app.status = "The camera sees no picture."
    app.announcements = [{"text": "Yellow rolls 1. Nothing of Yellow's can move with a 1.", "rules": ["BP-5"]}]
    advance(4)
    table = app.root.get_screen("table")
    texts = [w for w in table.walk(restrict=True)  # buttons are labels too
             if isinstance(w, Label) and w.text and w.opacity and w.width > 0.5 and w.height > 0.5]
    assert table.ids.status in texts and table.ids.announcements in texts
    assert game_id != "ttd" or (table.ids.hint in texts and table.ids.list_all in texts)
    small = [f"{w.text[:40]!r} is {w.font_size:.1f} px" for w in texts if w.font_size < READABLE]
    pokes = [f"{w.text!r} is {w.width:.0f}x{w.height:.0f} px" for w in texts
             if isinstance(w, Button) and min(w.size) < FINGER]
    assert not small + pokes, f"{game_id} at {size[0]}x{size[1]}:\n" + "\n".join(small + pokes)
    assert not faults(table)


@pytest.mark.parametrize("size", PORTRAIT)
def test_all_six_rolls_show_without_scrolling_on_a_portrait_screen(
    size: tuple[int, int], start: Any, window_size: Any
) -> None:
    """A roll is the commonest tap: under a square board, a two-line prompt and full announcements, all six show."""
    window_size(size)
    table, rolls = rolls_under_full_announcements(start)
    hidden = [b.text for b in rolls if not shown_whole(b, table.ids.choice_scroll)]
    assert not hidden, f"{hidden} need a scroll at {size[0]}x{size[1]}"
    assert not faults(table)


def test_a_long_list_pages_and_scrolls_on_a_portrait_screen(start: Any, window_size: Any) -> None:
    """Through the Desert's hundreds of leader placements, listed all: in pages, a page's last reached by a scroll."""
    window_size((480, 800))
    app = start(long_list("ttd", default_players("ttd")))
    table = app.root.get_screen("table")
    advance(3)
    tap(table.ids.list_all)
    assert table.paged and "Page 1 of" in table.hint
    scroll = table.ids.choice_scroll
    assert scroll.children[0].height > scroll.height, "a page of sixty fits no window: it scrolls"
    assert not faults(table)
    tap(table.ids.next_page)
    assert "Page 2 of" in table.hint
    last = table.buttons()[-1]
    before = len(app.controller.session.log)
    tap(last)  # scrolled to, as a finger would, then taken
    assert len(app.controller.session.log) == before + 1


@pytest.mark.parametrize("size", PORTRAIT)
def test_no_board_breaks_or_cuts_a_word_across_the_top_of_a_portrait_screen(
    size: tuple[int, int], start: Any, window_size: Any
) -> None:
    """Every board, at its opening and halfway, in the full-width square the table gives it upright."""
    window_size(size)
    app = start(Session.new("blackpool", default_players("blackpool")))
    app.show("table")
    advance(3)
    board = app.root.get_screen("table").ids.board
    assert board.width >= Window.width * 0.96
    found = []
    for game_id in GAMES:
        opening = Session.new(game_id, default_players(game_id))
        for when, session in (("opening", opening), ("halfway", mid_game(game_id))):
            found += [f"{game_id} {when}: {fault}" for fault in misdrawn(words_drawn(board, session))]
    assert not found, f"at {size[0]}x{size[1]}:\n" + "\n".join(found)


def test_turning_the_display_rearranges_the_table_and_turning_it_back_restores_it(start: Any, window_size: Any) -> None:
    app = start(mid_game("blackpool"))
    table = app.root.get_screen("table")
    board, scroll = table.ids.board, table.ids.choice_scroll
    advance(3)
    landscape = (tuple(board.size), window_box(board), window_box(scroll))
    assert window_box(board)[2] <= window_box(scroll)[0], "at 800x480 the choices are beside the board"

    window_size((480, 800))
    assert board.width >= Window.width * 0.96
    assert window_box(board)[1] >= window_box(scroll)[3], "upright, the choices go under the board"
    assert not faults(table)

    window_size((800, 480))
    assert (tuple(board.size), window_box(board), window_box(scroll)) == landscape
    assert not faults(table)


@pytest.mark.parametrize(("window", "percent"), TABLE_WINDOWS, ids=[f"{w}x{h}-{p}" for (w, h), p in TABLE_WINDOWS])
def test_the_board_sizes_tests_draw_are_the_real_tables(
    window: tuple[int, int], percent: int, start: Any, window_size: Any
) -> None:
    """Board tests draw at ``board_at``: the real table's board, opened at each size and scale, is that size. Once
    the frame gave the board back its 398 px at 120% at 800x480 (and upright kept its 100% frame), tests went on
    drawing 381.6x381.6 and 468.48x346.88, boards no table shows."""
    _, board = table_board(start, window_size, window, "blackpool", percent)
    assert tuple(board.size) == pytest.approx(board_at(window, percent), abs=0.01)


@pytest.mark.parametrize(("window", "percent"), TABLE_WINDOWS, ids=[f"{w}x{h}-{p}" for (w, h), p in TABLE_WINDOWS])
def test_the_bottom_bars_buttons_stay_in_the_bar_clear_of_the_board(
    window: tuple[int, int], percent: int, start: Any, window_size: Any
) -> None:
    """Undo ... Menu are as tall as their bar, the frame's margin between them and what is above. At 120% at
    800x480 the frame gives the board back its 398 px with a 64 px bar, but the buttons stayed 76.8 px (the
    scale's 64 units): they rose 12.8 px out of the bar and 6.8 px over the board's foot, over Targi's display
    row 3 and hand (0.4 px at 110%); upright at 120% at 480x800, 10.2 px out of the bar toward the announcements."""
    _, board = table_board(start, window_size, window, "targi", percent)
    table = App.get_running_app().root.get_screen("table")
    bar = table.ids.undo.parent
    found = []
    for name in ("undo", "redo", "repeat", "dispute", "rules", "menu"):
        button = table.ids[name]
        if button.top > bar.top + 0.01 or button.y < bar.y - 0.01:
            found.append(f"{name} {button.y:.1f}..{button.top:.1f} in a bar {bar.y:.1f}..{bar.top:.1f}")
        if not table.portrait and board.y - button.top < table.frame * 6 - 0.01:
            found.append(f"{name} reaches {button.top - board.y + table.frame * 6:.1f} px into the margin over it")
    assert not found, "\n".join(found)
