"""A café's Targi cards that the board would shrink under 16 px are warned of, measured as the board measures.

The board writes what a card gives ("+2 dates", "+1D +1P", "2 VP" over
"3P/1D 1G") in 16 px type at 800x480 and shrinks it, to 7 px at worst, when a
café's numbers outgrow every form: a border card giving four goods came out
7 px. ``companion data validate`` runs without a screen, so it measures with
a table of the screen font's widths and a table of the cards' room
(companion.games.targi.card_words); these tests measure both again with the
screen's own font and layout, and check that the warnings name exactly the
cards the board draws small.
"""

from __future__ import annotations

import json
import random
import shutil
from collections import Counter
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from companion import screen_font
from companion.data import house_dir
from companion.games.targi import card_words
from companion.games.targi.board import POSITION
from companion.registry import game_class
from companion.session import Session
from tests.ui.conftest import advance
from tests.ui.drawing import words_drawn
from tests.ui.test_portrait import window_size  # noqa: F401  (a fixture)
from ui.boards import targi as drawing
from ui.boards.paint import measure
from ui.shots import mid_game

pytestmark = pytest.mark.usefixtures("undrawn")  # texts, sizes and states are read, never the window's pixels

READABLE = 16.0


def width(line: str) -> int:
    return int(measure(line, READABLE, True)[0])


def test_the_width_table_is_the_screen_fonts_own() -> None:
    """Each character alone, its step to the next and the closer pairs, measured again; and whole lines agree."""
    alphabet = "".join(screen_font.BOLD_16_ALONE)
    assert {c: width(c) for c in alphabet} == screen_font.BOLD_16_ALONE
    steps = {a: Counter(width(a + b) - width(b) for b in alphabet).most_common(1)[0][0] for a in alphabet}
    assert steps == screen_font.BOLD_16_STEP
    closer = {a + b: steps[a] + width(b) - width(a + b) for a in alphabet for b in alphabet}
    assert {pair: n for pair, n in closer.items() if n} == screen_font.BOLD_16_CLOSER
    rng = random.Random(5)
    goods = ["dates", "salt", "pepper", "gold", "vp"]
    lines = set()
    for _ in range(400):
        gain = {k: rng.randint(1, 10) for k in rng.sample(goods, rng.randint(1, 5))}
        if rng.random() < 0.3:
            gain["choice"] = rng.randint(1, 3)
        forms = card_words.border_forms({"action": {"code": "GAIN", "gain": gain}})
        cost = [{k: rng.randint(1, 9) for k in rng.sample(goods[:4], rng.randint(1, 4))} for _ in range(4)]
        forms += card_words.tribe_forms({"vp": rng.randint(1, 3), "cost": cost[: rng.randint(1, 4)]})
        lines.update(line for form in forms for line in form)
    lines.update(f"+{n} any good" for n in range(1, 11))
    wrong = {line: (screen_font.board_width(line), width(line)) for line in lines}
    assert not {line: pair for line, pair in wrong.items() if pair[0] != pair[1]}


def test_the_room_table_is_the_boards_layout_at_800x480(window_size: Any, start: Any) -> None:  # noqa: F811
    window_size((800, 480))
    app = start(mid_game("targi"))
    app.show("table")
    advance(4)
    board = app.root.get_screen("table").ids.board
    assert (board.width, board.height) == drawing.TABLE_BOARD
    layout = drawing.Layout(SimpleNamespace(x=0.0, y=0.0, width=board.width, height=board.height))
    assert layout.text == READABLE
    for col, room in card_words.BORDER_WIDTH.items():
        assert abs(layout.cols[col] - 6 - room) < 0.01
    for row, lines in card_words.BORDER_LINES.items():
        assert drawing._lines_in(layout.rows[row], READABLE)[0] - 1 == lines
    centre = layout.card(2, 2)
    assert abs(centre[2] - 4 - card_words.CENTRE_ROOM[0]) < 0.01
    assert drawing._lines_in(centre[3], READABLE)[0] - 1 == card_words.CENTRE_ROOM[1]


def cafe_with_crowded_cards(folder: Path) -> Path:
    """A café copy of the house set where some cards give more than their card holds, and some just fit."""
    target = folder / "targi"
    target.mkdir(parents=True)
    for kind in ("border", "goods", "tribe"):
        shutil.copy(house_dir(game_class("targi")) / f"{kind}.json", target)
    border = json.loads((target / "border.json").read_text())
    gains = {
        2: {"dates": 5, "salt": 5, "pepper": 5, "gold": 5},  # top row, one line: shrunk
        5: {"dates": 5, "salt": 5, "pepper": 5},  # right column, two lines: shrunk
        11: {"dates": 2, "salt": 1},  # bottom row, one line: "+2D +1S" fits
        15: {"dates": 10, "pepper": 10},  # left column, two lines: "+10D" over "+10P" fits
    }
    for card in border["cards"]:
        if card["no"] in gains:
            card["action"] = {"code": "GAIN", "gain": gains[card["no"]]}
    (target / "border.json").write_text(json.dumps(border))
    goods = json.loads((target / "goods.json").read_text())
    goods["cards"][0]["yield"] = {"dates": 3, "salt": 3, "pepper": 3, "gold": 3}  # wraps into two lines: fits
    goods["cards"][1]["yield"] = {"dates": 5, "salt": 5, "pepper": 5, "gold": 5, "vp": 5}  # shrunk
    (target / "goods.json").write_text(json.dumps(goods))
    tribe = json.loads((target / "tribe.json").read_text())
    tribe["cards"][0]["cost"] = [{"dates": 3, "salt": 2}, {"pepper": 3, "gold": 1}, {"salt": 4}, {"gold": 2}]  # shrunk
    tribe["cards"][1]["cost"] = [{"dates": 3, "salt": 2}, {"pepper": 3}]  # fits
    (target / "tribe.json").write_text(json.dumps(tribe))
    return folder


def test_the_warnings_name_exactly_the_cards_the_board_draws_under_16_px(
    window_size: Any, start: Any, tmp_path: Path  # noqa: F811
) -> None:
    window_size((800, 480))
    app = start(mid_game("targi"))
    app.show("table")
    advance(4)
    board = app.root.get_screen("table").ids.board
    cafe = cafe_with_crowded_cards(tmp_path / "cafe")
    session = Session.new("targi", ["white", "black"], cafe_dir=cafe)
    warned = {w.split(": ")[1].split(" (")[0] for w in session.game.data.warnings}
    assert warned == {"card 2", "card 5", "card G02", "card T01"}, session.game.data.warnings

    small = set()
    doc = session.document()
    goods = [c["id"] for c in session.game.data["goods"]["cards"][:2]]
    tribe = [c["id"] for c in session.game.data["tribe"]["cards"][:2]]
    faces = [{"card": goods[0]}, {"card": tribe[0]}, {"card": goods[1]}, {"card": tribe[1]}, *[None] * 5]
    doc = {**doc, "centre": [faces[0:3], faces[3:6], faces[6:9]], "targi": [], "markers": []}
    drawn = words_drawn(board, session, doc)
    layout = drawing.Layout(board)
    cells = {**{f"card {no}": layout.card(*cell) for no, cell in POSITION.items()},
             f"card {goods[0]}": layout.card(1, 1), f"card {tribe[0]}": layout.card(1, 2),
             f"card {goods[1]}": layout.card(1, 3), f"card {tribe[1]}": layout.card(2, 1)}  # fmt: skip
    for name, (x, y, w, h) in cells.items():
        x, y = x - board.x, y - board.y
        inside = [d for d in drawn if x - 0.5 <= d.x and d.x + d.w <= x + w + 0.5 and y - 0.5 <= d.y <= y + h]
        assert inside, f"nothing read back on {name}"
        if any(d.size < READABLE for d in inside):
            small.add(name)
    assert small == warned


def test_the_house_set_draws_every_card_whole() -> None:
    files = {kind: json.loads((house_dir(game_class("targi")) / f"{kind}.json").read_text()) for kind in
             ("border", "goods", "tribe")}  # fmt: skip
    assert card_words.too_small(files, {}) == []


def test_a_game_started_on_such_data_starts_and_says_which_card_to_mend(start: Any, tmp_path: Path) -> None:
    app = start()
    app.cafe_dir = cafe_with_crowded_cards(tmp_path / "cafe")
    assert app.new_game("targi", ["white", "black"])
    advance(3)
    assert app.root.current == "table"
    border = tmp_path / "cafe" / "targi" / "border.json"
    assert app.status.startswith(f"Warning: {border}: card 2 ('Palm Grove'): its action is drawn as '+5D +5S +5P +5G'")
    assert app.status.endswith("(and 3 more: companion data validate lists them)")
    app.cafe_dir = None
    assert app.new_game("targi", ["white", "black"])
    advance(3)
    assert "Warning" not in app.status
