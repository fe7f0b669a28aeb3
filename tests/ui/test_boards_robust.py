"""Board drawings at the edges of what the tests usually draw: narrow boards, late games, café data, odd taps."""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from kivy.graphics import Ellipse, Mesh
from kivy.uix.widget import Widget

from companion.data import house_dir
from companion.registry import game_class
from companion.session import Session
from tests.ui.conftest import advance
from tests.ui.drawing import Words, on_window, render, words_drawn
from ui.boards import BoardView, blackpool, desert, paint, targi
from ui.screens.table import TableScreen
from ui.shots import default_players, mid_game

pytestmark = pytest.mark.usefixtures("undrawn")  # boards' own pictures and sizes are read, not the window's

# Tall, narrow boards: what the table screen gave its board in a 480x800 and a 600x1024 portrait window before it
# had a portrait arrangement of its own (tests/ui/test_portrait.py), kept as the hardest shapes a board is drawn at.
NARROW_BOARDS = [(269, 751), (336, 963)]
PORTRAIT_BOARD = NARROW_BOARDS[0]


SQUARE_BOARD = (398, 398)  # the board widget of the table screen in an 800x480 window


@pytest.fixture
def portrait() -> Iterator[Widget]:
    yield from on_window(PORTRAIT_BOARD)


@pytest.fixture
def square() -> Iterator[Widget]:
    yield from on_window(SQUARE_BOARD)


def shapes_drawn(widget: Widget) -> Iterator[tuple[float, float, float]]:
    """(cx, cy, r) of every disc on the canvas, as a Kivy ``Ellipse`` or as a polygon of a mesh
    (``ui/boards/shapes.py``: each polygon a fan of triangles from its first corner), and of every square or
    diamond piece (``piece_shape``), r as far as its corners reach."""
    for instruction in widget.canvas.children:
        if isinstance(instruction, Ellipse):
            (x, y), (w, h) = instruction.pos, instruction.size
            yield x + w / 2, y + h / 2, w / 2
        elif isinstance(instruction, Mesh) and instruction.mode == "triangles":
            points = instruction.vertices
            firsts = [*sorted(set(instruction.indices[0::3])), len(points) // 4]
            for start, end in itertools.pairwise(firsts):
                xs, ys = points[4 * start : 4 * end : 4], points[4 * start + 1 : 4 * end + 1 : 4]
                cx, cy = sum(xs) / len(xs), sum(ys) / len(ys)
                reach = [math.hypot(x - cx, y - cy) for x, y in zip(xs, ys, strict=True)]
                if len(xs) < 12 and (len(xs) != 4 or max(reach) - min(reach) > 0.01):
                    continue  # a polygon of a few corners but not a square or diamond piece: a patch, no disc
                yield cx, cy, max(reach)


def discs_below(widget: Widget, top: float) -> list[tuple[float, float, float]]:
    """(cx, cy, r) of every disc drawn under ``top``, concentric rims and fills merged into one."""
    out: list[tuple[float, float, float]] = []
    for cx, cy, r in shapes_drawn(widget):
        if cy > top:
            continue
        same = next((k for k, (ox, oy, _) in enumerate(out) if math.hypot(ox - cx, oy - cy) < 0.5), None)
        if same is None:
            out.append((cx, cy, r))
        else:
            out[same] = (cx, cy, max(r, out[same][2]))
    return out


def test_blackpool_players_strip_fits_a_portrait_board(portrait: Widget) -> None:
    """Four players and the decks in a 269 px wide strip: each player's disc, coin and pips in its own room.

    Each player took 2.4 strip heights of width whatever the slot's width, so
    on a portrait screen every player's disc covered the previous one's coin
    and the last player's pips ran off the board over the announcements.
    """
    session = Session.new("blackpool", ["yellow", "red", "green", "blue"])
    render(portrait, session)
    strip = blackpool.grid_for(portrait, BoardView(session.game, session.document(), [])).strip_h
    discs = discs_below(portrait, strip)
    assert len(discs) == 4 * 5  # per player: its disc, its coin, three pips
    for cx, _, r in discs:
        assert r <= cx <= portrait.width - r, "a disc of the strip runs off the board"
    for k, (ax, ay, ar) in enumerate(discs):
        for bx, by, br in discs[k + 1 :]:
            assert math.hypot(ax - bx, ay - by) >= ar + br - 0.5, "one disc of the strip covers another"


def cafe_desert(tmp_path: Path, rename: dict[str, str]) -> Session:
    """A desert race on a café's own board: the house loop with some spaces renamed."""
    board = json.loads((house_dir(game_class("desert")) / "board.json").read_text(encoding="utf-8"))
    for space in board["spaces"]:
        space["name"] = rename.get(space["id"], space["name"])
    (tmp_path / "desert").mkdir()
    (tmp_path / "desert" / "board.json").write_text(json.dumps(board), encoding="utf-8")
    return Session.new("desert", ["black", "purple"], cafe_dir=tmp_path)


def test_a_long_one_word_space_name_stays_in_its_space(square: Widget, tmp_path: Path) -> None:
    """A café's space named in one long word is not drawn over its neighbours, nor cut too small to read.

    Drawn whole, it ran across the next spaces' labels and off the board;
    then it was shrunk to 6 px and cut at its space's edge, which nobody
    could read. A word that does not fit at a readable size gives way to the
    space's number (board.json's ``index``), inside its space.
    """
    long_name = "Sandsturmschluchtenwanderweg"
    session = cafe_desert(tmp_path, {"palm_spring": long_name})
    drawn = words_drawn(square, session)
    assert not [d for d in drawn if d.text == long_name]
    spaces = session.game.data["board"]["spaces"]
    cell, x0, y0, cols, rows = desert.ring_frame(square, len(spaces))
    index = next(i for i, s in enumerate(spaces) if s["id"] == "palm_spring")
    col, row = desert.ring_slots(cols, rows)[index]
    left, bottom = x0 + col * cell, y0 + row * cell
    here = [d for d in drawn if d.inside((left, bottom, cell, cell))]
    assert str(spaces[index]["index"]) in [d.text for d in here]
    assert all(left - 0.5 <= d.x and d.x + d.w <= left + cell + 0.5 and d.h >= 9 for d in here), here


GAMES = ("blackpool", "desert", "ttd", "targi", "temple")
MARGIN = 2.0  # a label's texture is a pixel or two taller and wider than its letters: that much cut shows nothing


@pytest.fixture(params=NARROW_BOARDS, ids=lambda size: f"{size[0]}x{size[1]}")
def narrow(request: pytest.FixtureRequest) -> Iterator[Widget]:
    yield from on_window(request.param)


def misdrawn(drawn: list[Words]) -> list[str]:
    """Texts drawn with a word broken across lines, or with part of them left off, each with how it was drawn."""
    faults = [f"{d.text!r} broken as {list(d.lines)}" for d in drawn if d.broken]
    return faults + [f"{d.text!r} cut by {d.cut:.0f} px" for d in drawn if d.cut > MARGIN]


READABLE = 16.0  # px: the smallest text a board shows at 800x480 (and upright at 480x800), read from a chair


def off_board(widget: Widget, drawn: list[Words]) -> list[str]:
    """Texts running past the board's edges (the words are read widget-local)."""
    w, h = widget.width + 0.5, widget.height + 0.5
    return [f"{d.text!r} at {d.x:.0f},{d.y:.0f} runs off the board" for d in drawn
            if d.x < -0.5 or d.y < -0.5 or d.x + d.w > w or d.y + d.h > h]  # fmt: skip


def board_at(window: tuple[int, int], percent: int = 100) -> tuple[float, float]:
    """The board's size on the table in a ``window`` at display scale ``percent``, from the table's own layout
    (``TableScreen.board_size``, checked against the real table below): tests draw the sizes that occur."""
    return TableScreen.board_size(window[0], window[1], percent / 100)


# Every window the boards are made for, at 100%, 110% and 120%: the real table's board is ``board_at`` each.
TABLE_WINDOWS = [(w, p) for w in ((800, 480), (1024, 600), (480, 800), (720, 1280)) for p in (100, 110, 120)]


def table_board(
    start: Any, window_size: Any, size: tuple[int, int], game_id: str, scale: int = 100
) -> tuple[Session, Widget]:
    """A game halfway, shown on the table at ``size`` and the owner's display scale ``scale`` (percent): the
    session and the table's own board widget."""
    window_size(size)
    middle = mid_game(game_id)
    app = start(middle)
    app.settings.display_scale, app.scale = scale, scale / 100
    app.show("table")
    advance(4)
    return middle, app.root.get_screen("table").ids.board


def unreadable(drawn: list[Words]) -> list[str]:
    """Texts under ``READABLE``, broken or cut (``misdrawn``), or lying over another: what each board's
    read-from-a-chair test refuses before its own checks of where its texts belong."""
    found = [f"{d.text!r} is {d.size:.1f} px" for d in drawn if d.size < READABLE]
    found += misdrawn(drawn)
    for a, b in itertools.combinations(drawn, 2):
        if min(a.x + a.w, b.x + b.w) - max(a.x, b.x) > 0.5 and min(a.y + a.h, b.y + b.h) - max(a.y, b.y) > 0.5:
            found.append(f"{a.text!r} at {a.x:.0f},{a.y:.0f} and {b.text!r} at {b.x:.0f},{b.y:.0f} overlap")
    return found


SIDE_GAP = 0.5  # of the font size: letters of two texts on a line closer than this read as one ("10" "11": "1011")
LINE_GAP = 0.25  # of the font size: two texts one over the other closer than this read as one two-line text


def run_together(drawn: list[Words]) -> list[str]:
    """Pairs of texts whose letters come too close to read apart (``Words.ink``, the pixels, not the labels'
    boxes): side by side, less than ``SIDE_GAP`` of the font size between them (the figures of one number stand
    about a quarter apart); one over the other, less than ``LINE_GAP``. Two texts meant as one (a pawn's number on
    its disc) are drawn as one text or apart."""
    found = []
    for a, b in itertools.combinations(drawn, 2):
        size = max(a.size, b.size)
        (ax, ay, aw, ah), (bx, by, bw, bh) = a.ink, b.ink
        across = max(bx - (ax + aw), ax - (bx + bw))  # the gap between their letters, negative where they overlap
        down = max(by - (ay + ah), ay - (by + bh))
        if across < SIDE_GAP * size and down < LINE_GAP * size and aw * ah > 0 and bw * bh > 0:
            gap = f"{across:.1f} px apart" if across >= down else f"{down:.1f} px over each other"
            found.append(f"{a.text!r} at {a.x:.0f},{a.y:.0f} and {b.text!r} at {b.x:.0f},{b.y:.0f}: {gap}")
    return found


def test_no_board_breaks_or_cuts_a_word_on_a_narrow_board(narrow: Widget) -> None:
    """Every board, at its opening and halfway, drawn tall and narrow.

    Targi's display tiles are 12 px across at 480x800: "camel" came out a
    letter or two a line ("c", "a", "m", "el") and the hand's "came" over
    "l". Through the Desert's score parts at 600x1024 lost their last
    figure ("longest 25" read "longest 2"): shrunk in proportion, the
    text's next whole font size was still wider than its room.
    """
    faults = []
    for game_id in GAMES:
        for when, session in (
            ("opening", Session.new(game_id, default_players(game_id))),
            ("halfway", mid_game(game_id)),
        ):
            faults += [f"{game_id} {when}: {fault}" for fault in misdrawn(words_drawn(narrow, session))]
    assert not faults, f"at {narrow.width:.0f}x{narrow.height:.0f}:\n" + "\n".join(faults)


@pytest.mark.parametrize("size", [*NARROW_BOARDS, SQUARE_BOARD])
def test_targi_tiles_name_their_symbols_whole_or_by_their_first_letters(size: tuple[int, int]) -> None:
    """Where no symbol's name fits a display tile on one line, every tile gives its first letters, all alike.

    A row is read across ("four tents", "four different"), so one display
    never mixes names and letters. On the square board of an 800x480 window a
    tile is about 32 px across for the board's 16 px type, where "camel" is 44
    px: letters there too (the names fitted only in 8-9 px type).
    """
    session = mid_game("targi")
    shown = on_window(size)
    board = next(shown)
    try:
        drawn = words_drawn(board, session)
    finally:
        next(shown, None)  # the board taken off the window
    letters = set(targi.SHORT_SYMBOL.values())
    names = set(targi.SYMBOLS)
    tiles = [d for d in drawn if d.text in letters | names and d.y < board.height * 0.38]  # the panels, under the grid
    assert len(tiles) >= 4, "the halfway game's displays and hands hold a few cards"
    assert {d.text for d in tiles} <= letters
    assert not misdrawn(tiles)
    assert set(targi.symbol_names(200, 16).values()) == names  # a tile wide enough for every name gets names


def test_each_symbol_has_letters_no_other_symbol_starts_with() -> None:
    """Letters two symbols share would name neither: targia and tent both start with T."""
    assert targi.SHORT_SYMBOL == {"well": "W", "camel": "C", "oasis": "O", "targia": "Ta", "tent": "Te"}


def test_a_word_too_wide_for_its_box_at_the_smallest_size_is_never_broken(square: Widget) -> None:
    """A café's long word in a narrow box: lines break only at spaces, the long word is cut at the box's edge.

    Kivy's own wrapping broke it letter by letter down the box, each line a
    fragment; kept whole, its start reads and the words round it stay words.
    """
    long_name = "Sandsturmschluchtenwanderweg"
    made: list[Any] = []

    class Remembered(paint.CoreLabel):  # type: ignore[misc, valid-type]
        def refresh(self) -> None:
            super().refresh()
            made.append(self)

    square.canvas.clear()
    with square.canvas, pytest.MonkeyPatch.context() as patch:
        patch.setattr(paint, "CoreLabel", Remembered)
        paint.fit_text((0, 0, 60, 80), f"the {long_name} card", 12)
    drawn = made[-1]
    lines = ["".join(word.text for word in line.words) for line in drawn._cached_lines]
    assert lines == ["the", long_name, "card"]


@pytest.mark.parametrize("size", [(398, 0), (0, 398), (398, 5)])
def test_a_board_with_no_height_draws_nothing_rather_than_failing(
    size: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A board laid out with no height yet (the table turned upright, before its layout settles) is left blank.
    Drawn at 398x0, the desert race's ring found no shape for its 40 spaces (IndexError), logged 'Board:
    drawing failed, showing text' with a traceback in the kiosk's log, and drew the text view for a frame (a
    board with no width was already left blank: Through the Desert divides by it)."""
    from ui import widgets

    fell_back: list[str] = []
    monkeypatch.setattr(widgets.generic, "draw", lambda widget, view: fell_back.append(view.game.id))
    for game_id in GAMES:
        session = mid_game(game_id)
        board = widgets.BoardWidget(size_hint=(None, None), size=size)
        board.view = BoardView(session.game, session.document(), session.game.describe(session.state))
        board.redraw()
    assert not fell_back, f"fell back to text at {size}: {fell_back}"

