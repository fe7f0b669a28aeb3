"""Board drawings at the edges of what the tests usually draw: portrait boards, late games, café data, odd taps."""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from pathlib import Path

import pytest
from kivy.graphics import Ellipse
from kivy.uix.widget import Widget

from companion.data import house_dir
from companion.registry import game_class
from companion.session import Session
from tests.ui.drawing import on_window, render, words_drawn
from ui.boards import blackpool, desert

PORTRAIT_BOARD = (269, 751)  # the board widget of the table screen in a 480x800 portrait window


SQUARE_BOARD = (398, 398)  # the board widget of the table screen in an 800x480 window


@pytest.fixture
def portrait() -> Iterator[Widget]:
    yield from on_window(PORTRAIT_BOARD)


@pytest.fixture
def square() -> Iterator[Widget]:
    yield from on_window(SQUARE_BOARD)


def discs_below(widget: Widget, top: float) -> list[tuple[float, float, float]]:
    """(cx, cy, r) of every disc drawn under ``top``, concentric rims and fills merged into one."""
    out: list[tuple[float, float, float]] = []
    for instruction in widget.canvas.children:
        if not isinstance(instruction, Ellipse):
            continue
        (x, y), (w, h) = instruction.pos, instruction.size
        cx, cy, r = x + w / 2, y + h / 2, w / 2
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
    strip = portrait.height * blackpool.STRIP
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
    """A café's space named in one long word is cut at its space's edge, not drawn over its neighbours.

    The space's word shrinks to 6 px at the least; wider than its space even
    then, it was drawn whole and ran across the next spaces' labels and off
    the board.
    """
    long_name = "Sandsturmschluchtenwanderweg"
    session = cafe_desert(tmp_path, {"palm_spring": long_name})
    drawn = words_drawn(square, session)
    label = next(d for d in drawn if d.text == long_name)
    spaces = session.game.data["board"]["spaces"]
    cell, x0, _, cols, rows = desert.ring_frame(square, len(spaces))
    index = next(i for i, s in enumerate(spaces) if s["id"] == "palm_spring")
    col, _ = desert.ring_slots(cols, rows)[index]
    left = x0 + col * cell
    assert left - 0.5 <= label.x and label.x + label.w <= left + cell + 0.5
