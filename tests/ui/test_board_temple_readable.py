"""The temple board read from a chair: every text on it 16 px or more on the 7 inch display, none cut, overlapping
or run together with its neighbour.

At 800x480 (the 7 inch display, and the 5 inch, which has the same pixels)
the table's board is 398x398 and 69 of the 86 texts it drew halfway were under
16 px: the coordinates round the edge (12 px), the pawns' numbers (10 px), the
steps' numbers (10 px) and "Treasure Chamber" (8 px, in two lines). Each text
is read back from the canvas with the font size it was rendered at
(``words_drawn``).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from companion.session import Session
from tests.ui.conftest import advance
from tests.ui.drawing import Words, pixel, render, words_drawn
from tests.ui.test_boards_robust import READABLE, off_board, run_together, table_board, unreadable
from tests.ui.test_portrait import window_size  # noqa: F401  (a fixture)
from ui.boards import temple as drawing
from ui.shots import mid_game

pytestmark = pytest.mark.usefixtures("undrawn")  # boards' own pictures and sizes are read, not the window's

SIZES = [(800, 480), (1024, 600), (480, 800), (720, 1280)]
PLAYERS = ["red", "blue", "green", "yellow"]


def crowded(session: Session) -> dict[str, Any]:
    """Four colours with a pawn everywhere a pawn can be at once: waiting at its entrance, on a ring cell, on a step,
    five in the chamber (the most there can be: the game ends as one colour's second pawn comes in), a roll shown."""
    doc = session.document()
    board = session.game.data["board"]
    path = [tuple(cell) for station in board["loop"] for cell in station]
    pawns = {
        "red": ["chamber", "chamber"],
        "blue": ["chamber", "entrance"],
        "green": ["chamber", "step2"],
        "yellow": ["chamber", list(path[5])],
    }
    doc = {**doc, "pawns": pawns, "hands": dict.fromkeys(PLAYERS, 3), "pile": 12}
    doc["roll"] = {"colour": "red", "value": 7}
    return doc


def stepped(session: Session) -> dict[str, Any]:
    """Pawns on every colour's third step and both of one colour's at its entrance: the numbers a pawn covers."""
    doc = session.document()
    pawns = {"red": ["step3", "step1"], "blue": ["entrance", "entrance"], "green": ["step3", "step2"],
             "yellow": ["step1", "entrance"]}  # fmt: skip
    return {**doc, "pawns": pawns}


def ended() -> Session:
    """A seeded four-player game played to its end: a winner named in the strip."""
    session = Session.new("temple", PLAYERS)
    rng = random.Random(5)
    while not session.pending().is_over and session.legal():
        session.act(session.game.sim_choose(session.state, session.legal(), rng))
    return session


def faults(widget: Any, drawn: list[Words]) -> list[str]:
    """Texts under 16 px, cut or broken, lying over another text, off the board, or so close to another that the
    two read as one: the column numbers 10 to 14 stood 4-5 px apart at 800x480 ("1011121314"), the slot numbers 10
    and 12 7 px from a step's "2" ("122")."""
    found = unreadable(drawn)
    found += off_board(widget, drawn)
    found += run_together(drawn)
    return found


@pytest.mark.parametrize("size", SIZES)
def test_every_text_on_the_temple_board_reads_at_16_px_or_more(
    size: tuple[int, int],
    start: Any,
    window_size: Any,  # noqa: F811
) -> None:
    """The table's own board at each display size: the opening, halfway, crowded, pawns on steps, the end."""
    middle, board = table_board(start, window_size, size, "temple")
    four = Session.new("temple", PLAYERS)
    found = []
    for when, session, doc in (
        ("opening", four, None),
        ("halfway", middle, None),
        ("crowded", four, crowded(four)),
        ("on the steps", four, stepped(four)),
        ("at the end", ended(), None),
    ):
        drawn = words_drawn(board, session, doc)
        assert len(drawn) >= 40, f"{when}: the board's words were not all read back"
        found += [f"{when}: {fault}" for fault in faults(board, drawn)]
    assert not found, f"the temple's {board.width:.0f}x{board.height:.0f} board at {size[0]}x{size[1]}:\n" + "\n".join(
        found
    )


def test_a_pawns_number_is_drawn_on_its_pawn(start: Any, window_size: Any) -> None:  # noqa: F811
    """Each pawn's number lies inside its disc, so a player reads which pawn is which, not a number beside it."""
    window_size((800, 480))
    middle = mid_game("temple")
    app = start(middle)
    app.show("table")
    advance(4)
    board = app.root.get_screen("table").ids.board
    frame = drawing.Frame(board, int(middle.game.data["board"]["size"]))
    doc = middle.document()
    numbers = [d for d in words_drawn(board, middle) if d.text in ("1", "2") and d.size >= READABLE]
    for colour, places in doc["pawns"].items():
        for i, at in enumerate(places):
            if isinstance(at, list):
                x, y = frame.centre(at)
                x, y = x - board.x, y - board.y
                assert any(abs(d.centre[0] - x) < 1 and abs(d.centre[1] - y) < 1 and d.text == str(i + 1)
                           for d in numbers), f"{colour} {i + 1} at {at} has no readable number on it"  # fmt: skip


def test_five_pawns_in_the_chamber_stay_inside_it(start: Any, window_size: Any) -> None:  # noqa: F811
    """The chamber's black rim shows all round with five pawns in: the larger pawns poked out over it."""
    window_size((800, 480))
    four = Session.new("temple", PLAYERS)
    app = start(four)
    app.show("table")
    advance(4)
    board = app.root.get_screen("table").ids.board
    pixels = render(board, four, crowded(four))
    frame = drawing.Frame(board, int(four.game.data["board"]["size"]))
    chx, chy = frame.centre(four.game.data["board"]["chamber"])
    chx, chy = chx - board.x, chy - board.y
    rim = frame.cell * drawing.CHAMBER_HALF + 1  # the middle of the 2 px black rim round the gold
    points = [(chx + t * rim, chy + side * rim) for side in (-1, 1) for t in (k / 10 - 0.9 for k in range(19))]
    points += [(chx + side * rim, chy + t * rim) for side in (-1, 1) for t in (k / 10 - 0.9 for k in range(19))]
    coloured = [(round(x), round(y)) for x, y in points if max(pixel(pixels, board, x, y)) > 60]
    assert not coloured, f"pawns drawn over the chamber's rim at {coloured}"
