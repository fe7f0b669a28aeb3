"""The desert race's board read from a chair: the texts a player reads at the table 16 px or more at 800x480.

At 800x480 (the 7 inch display, and the 5 inch, which has the same pixels)
the table's board is 398x398, and upright at 480x800 470x422. Each text is
read back from the canvas with the font size it was rendered at
(``words_drawn``).
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from unittest.mock import patch

import pytest
from kivy.uix.widget import Widget

from companion.session import Session
from tests.ui.drawing import Words, on_window, words_drawn
from tests.ui.test_boards_robust import board_at, off_board, run_together, unreadable
from ui.boards import desert
from ui.boards.paint import piece_shape
from ui.boards.shapes import piece_points
from ui.shots import mid_game

SIZES = [board_at((800, 480)), board_at((480, 800))]  # the board at 800x480 (398x398), and upright at 480x800
SIX = ["black", "purple", "pink", "brown", "grey", "teal"]


@pytest.fixture
def canvas() -> Iterator[Widget]:
    yield from on_window()


def panel_box(widget: Widget, session: Session) -> tuple[float, float, float, float]:
    """The players' panel inside the ring (x, y, w, h), widget-local."""
    cell, x0, y0, cols, rows = desert.ring_frame(widget, len(session.game.data["board"]["spaces"]))
    return x0 - widget.x + cell, y0 - widget.y + cell, cell * (cols - 2), cell * (rows - 2)


def busy(session: Session) -> dict[str, Any]:
    """Six players with everything a row can hold: items, a lost turn, failed tries, one out, two laps done (one
    with a Golden Compass, one still needing it)."""
    doc = copy.deepcopy(session.document())
    spaces = session.game.data["board"]["spaces"]
    test = next(s["id"] for s in spaces if s["type"] == "challenge")
    players = list(doc["pieces"])
    rows = [
        {"items": ["golden_compass", "desert_flask", "mirage_cloak"], "skip": 1},
        {"lives": 0, "out": True},
        {"items": ["sandstorm_sneakers"], "space": test, "failures": 2},
        {"lap": True, "items": ["golden_compass"]},
        {"items": ["desert_flask", "desert_flask"], "lives": 1, "lap": True},
    ]
    for player, row in zip(players, rows, strict=False):
        doc["pieces"][player].update(row)
    doc["round"], doc["turn"] = 12, players[-1]
    return doc


def panel_faults(widget: Widget, session: Session, doc: dict[str, Any] | None) -> list[str]:
    """Texts in the panel under 16 px, cut or broken, lying over another text, or running out of the panel."""
    x, y, w, h = panel_box(widget, session)
    drawn: list[Words] = [d for d in words_drawn(widget, session, doc) if d.inside((x, y, w, h))]
    assert len(drawn) >= 5, "the panel's words were not all read back"
    found = unreadable(drawn) + run_together(drawn)
    found += [f"{d.text!r} runs out of the panel" for d in drawn
              if d.x < x - 0.5 or d.x + d.w > x + w + 0.5 or d.y < y - 0.5 or d.y + d.h > y + h + 0.5]  # fmt: skip
    return found


@pytest.mark.parametrize("size", SIZES)
def test_the_players_panel_reads_at_16_px_or_more(canvas: Widget, size: tuple[int, int]) -> None:
    """Each player's name, Lives, lap, items and notes, and the round, for two to six players.

    Six players at 800x480 have 46 px rows: their names and Lives were 15 px,
    "lap 0/40" and "no items" 12 px, an item chip 13 px.
    """
    canvas.size = size
    found = []
    for players in (SIX[:2], SIX[:4], SIX):
        opening = Session.new("desert", players)
        found += [f"{len(players)} players, opening: {f}" for f in panel_faults(canvas, opening, None)]
        found += [f"{len(players)} players, busy: {f}" for f in panel_faults(canvas, opening, busy(opening))]
    middle = mid_game("desert")
    found += [f"halfway: {f}" for f in panel_faults(canvas, middle, None)]
    assert not found, f"the desert race's {size[0]}x{size[1]} board:\n" + "\n".join(found)


def test_six_players_rows_keep_a_lost_turn_and_failed_tries_at_16_px(canvas: Widget) -> None:
    """Items no longer fit at 16 px beside a note on a six-player row: a hand of three becomes the Compass and the
    note (a lost turn changes the table's next turn), one item keeps its chip and the note goes only if it cannot
    fit; "2 failed" beside Sneakers still fits."""
    canvas.size = (398, 398)
    opening = Session.new("desert", SIX)
    texts = {d.text for d in words_drawn(canvas, opening, busy(opening))}
    assert {"Compass", "misses 1 turn", "Sneakers", "2 failed", "Flask x2", "37 to go", "needs Compass"} <= texts, texts


def ring_faults(widget: Widget, session: Session, doc: dict[str, Any] | None) -> list[str]:
    """Texts on the ring under 16 px, cut, broken, over another or off the board, and spaces without their number
    (each space's number drawn in it, as the referee's texts give it: "Twin Dunes (11)")."""
    x, y, w, h = panel_box(widget, session)
    drawn = [d for d in words_drawn(widget, session, doc) if not d.inside((x, y, w, h))]
    found = unreadable(drawn) + off_board(widget, drawn) + run_together(drawn)
    cell, x0, y0, cols, rows = desert.ring_frame(widget, len(session.game.data["board"]["spaces"]))
    slots = desert.ring_slots(cols, rows)
    for space in session.game.board.spaces:
        col, row = slots[space.index]
        box = (x0 - widget.x + col * cell, y0 - widget.y + row * cell, cell, cell)
        here = [d for d in drawn if d.inside(box)]
        if [d.text for d in here].count(str(space.index)) != 1:
            found.append(f"{space.name} ({space.index}) shows {[d.text for d in here]}")
        found += [f"{d.text!r} runs out of {space.name}" for d in here
                  if d.x < box[0] - 0.5 or d.x + d.w > box[0] + cell + 0.5]  # fmt: skip
    return found


@pytest.mark.parametrize("size", SIZES)
def test_every_space_on_the_ring_shows_its_number_at_16_px_or_more(canvas: Widget, size: tuple[int, int]) -> None:
    """The ring's 80 texts (a type label and a word of the name a space) were 8.7-10.5 px at 800x480: no word
    of a name fits a 36 px space at 16 px ("Whispering" is 81 px). Each space now shows its number, 16 px,
    which the referee's texts give beside its name; six pawns on the start leave it its number too."""
    canvas.size = size
    found = []
    opening = Session.new("desert", SIX)
    found += [f"six players, opening: {f}" for f in ring_faults(canvas, opening, None)]
    found += [f"six players, busy: {f}" for f in ring_faults(canvas, opening, busy(opening))]
    middle = mid_game("desert")
    found += [f"halfway: {f}" for f in ring_faults(canvas, middle, None)]
    assert not found, f"the desert race's {size[0]}x{size[1]} board:\n" + "\n".join(found)


def pawns_over_numbers(
    canvas: Widget, session: Session, doc: dict[str, Any] | None = None
) -> tuple[list[desert.Pawn], list[str]]:
    """The pawns drawn on the ring, and each one lying over a space's number (the pawn with its rim, as a box,
    against the number's ink)."""
    with patch.object(desert, "_lay_pawns", wraps=desert._lay_pawns) as lay:
        drawn = words_drawn(canvas, session, doc)
    pawns = lay.call_args[0][0]
    numbers = [d for d in drawn if d.text.isdigit()]
    found = []
    for pawn in pawns:
        corners = piece_points("disc" if pawn.out else piece_shape(pawn.player), pawn.cx, pawn.cy, pawn.radius, 2.5)
        reach = (abs(v - c) for v, c in zip(corners, (pawn.cx, pawn.cy) * 4, strict=True)) if corners else ()
        half = max(reach, default=pawn.radius + 2.5)
        px, py = pawn.cx - canvas.x, pawn.cy - canvas.y
        for d in numbers:
            x, y, w, h = d.ink
            if min(x + w, px + half) - max(x, px - half) > 0 and min(y + h, py + half) - max(y, py - half) > 0:
                found.append(f"{pawn.player}'s pawn ({pawn.radius:.1f} px) over the number {d.text!r}")
    return pawns, found


SCALED = [board_at((800, 480), 120), board_at((480, 800), 120)]  # the table's board at 120%: 398x398, 470x398


@pytest.mark.parametrize("size", SCALED + SIZES)
def test_a_pawn_leaves_its_spaces_number_clear_on_the_board_drawn_at_120_percent(
    canvas: Widget, size: tuple[int, int]
) -> None:
    """At 120% the house loop's spaces are 34.7 px (31.5 upright), and a lone pawn (17% of its space) fell 0.1 px
    under 6 px: the pawns were stacked as on a café's long loop, each over the middle of its space, where its
    number is ("13" under Pink's disc halfway through), and the players' panel gave them a lane, its texts
    13.6 px. A pawn now sits below its space's number and the panel's texts are 17.5 px or more."""
    canvas.size = size
    session = mid_game("desert")
    pawns, found = pawns_over_numbers(canvas, session)
    assert len(pawns) == 3
    assert not found, f"the desert race's board at {size[0]:.0f}x{size[1]:.0f}: {found}"
    assert not ring_faults(canvas, session, None)
    if size != SCALED[1]:  # upright at 120% the 31.5 px spaces still leave pawns a lane: the heading is 15.7 px
        assert not panel_faults(canvas, session, None), "the panel, giving no lane to pawns, reads at 16 px"


# The board with a café's long loop (72 spaces): at 800x480 (21 px spaces), upright at 480x800 and 720x1280 at 120%
# (22.1 and 33.4 px), and at 720x1280 at 100% (37 px).
LONG_LOOP_BOARDS = [board_at((800, 480)), board_at((480, 800), 120), board_at((720, 1280), 120), board_at((720, 1280))]


@pytest.mark.parametrize("size", LONG_LOOP_BOARDS)
def test_a_pawn_on_a_long_cafe_loop_leaves_its_spaces_number_in_sight(
    canvas: Widget, size: tuple[int, int], tmp_path: Path
) -> None:
    """On a 72-space loop the pawns stacked in the lane inside the ring, the first over its space's middle: at 120%
    upright at 480x800 Purple's pawn hid "58", the space its prompt names ("roll the die to move from Sunken
    Temple (58)"), and Black's and Pink's "22". The stack now starts in the lane, just inside its space."""
    from tests.ui.test_board_desert import long_loop

    canvas.size = size
    session = Session.new("desert", SIX, cafe_dir=long_loop(tmp_path / "cafe", 32))
    doc = copy.deepcopy(session.document())
    spaces = [space.id for space in session.game.board.spaces]
    where = {"black": 22, "purple": 58, "pink": 22, "brown": 45, "grey": 45, "teal": 45}  # top, bottom, right
    for player, index in where.items():
        doc["pieces"][player]["space"] = spaces[index]
    pawns, found = pawns_over_numbers(canvas, session, doc)
    assert len(pawns) == 6
    assert not found, f"the long loop at {size[0]}x{size[1]}: {found}"


@pytest.mark.parametrize("size", LONG_LOOP_BOARDS)
def test_six_players_panel_on_a_long_cafe_loop_reads_at_16_px_or_more(
    canvas: Widget, size: tuple[int, int], tmp_path: Path
) -> None:
    """Upright at 120% at 480x800 (a 468x398 board) the 72-space ring was 21x17 spaces of 22.3 px, the ring with
    the largest spaces, and six players' rows in the 267 px it left inside drew their names, Lives and laps at
    14.6 px. A ring as good as that to half a pixel (20x18 of 22.1 px) leaves the panel 287 px, and two 16 px
    lines a row."""
    from tests.ui.test_board_desert import long_loop

    canvas.size = size
    session = Session.new("desert", SIX, cafe_dir=long_loop(tmp_path / "cafe", 32))
    found = [f"opening: {f}" for f in panel_faults(canvas, session, None)]
    found += [f"busy: {f}" for f in panel_faults(canvas, session, busy(session))]
    assert not found, f"the long loop at {size[0]}x{size[1]}:\n" + "\n".join(found)
