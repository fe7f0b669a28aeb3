"""Blackpool's board read from a chair: its coordinates, pieces' numbers and counts 16 px or more at 800x480.

At 800x480 (the 7 inch display, and the 5 inch, which has the same pixels)
the table's board is 398x398, and all 93 texts it drew halfway through a game
were under 16 px, the smallest 6: the 81 square names (13 px), the pieces'
numbers (12 px), the coins' counts (11 px) and the decks' line. Each text is
read back from the canvas with the font size it was rendered at
(``words_drawn``). Left small: the numbers of the pieces crowded in the centre
square when four or more stacks are there (all twelve at a four-player
start), drawn at a square's share as before.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from companion.session import Session
from tests.ui.drawing import Words, words_drawn
from tests.ui.test_board_blackpool import frozen_and_riding
from tests.ui.test_boards_robust import misdrawn, off_board, table_board, unreadable
from tests.ui.test_portrait import window_size  # noqa: F401  (a fixture)
from ui.boards import BoardView, blackpool

SIZES = [(800, 480), (1024, 600), (480, 800), (720, 1280)]


def ended() -> Session:
    """A seeded four-player game played to its end."""
    session = Session.new("blackpool", ["yellow", "red", "green", "blue"])
    rng = random.Random(11)
    for _ in range(3000):
        if session.pending().is_over or not session.legal():
            break
        session.act(session.game.sim_choose(session.state, session.legal(), rng))
    return session


def faults(widget: Any, session: Session, drawn: list[Words]) -> list[str]:
    """Texts under 16 px (but the crowded centre's numbers), cut or broken, over another text, or off the board."""
    doc = session.document()
    view = BoardView(session.game, doc, session.game.describe(session.state))
    board = session.game.data["board"]
    centre = blackpool.centre_of(board)
    piles = blackpool.stacks(doc, board["camps"], centre).get(centre, [])
    in_centre = {str(t["id"]) for pile in piles for t in pile} if len(piles) > 3 else set()
    crowd = [p for p in blackpool.pieces(widget, view) if p.id in in_centre]

    def crowded(d: Words) -> bool:  # a number on a piece in the centre square, crowded with four stacks or more
        x, y = d.centre
        return any(abs(x + widget.x - p.x) < 1 and abs(y + widget.y - p.y) < 1 for p in crowd)

    found = unreadable([d for d in drawn if not crowded(d)]) + misdrawn([d for d in drawn if crowded(d)])
    found += off_board(widget, drawn)
    return found


@pytest.mark.parametrize("size", SIZES)
def test_every_text_on_blackpools_board_reads_at_16_px_or_more(
    size: tuple[int, int], start: Any, window_size: Any  # noqa: F811
) -> None:
    """The table's own board at each display size: the opening, halfway, a rider on its carrier, the end."""
    middle, board = table_board(start, window_size, size, "blackpool")
    found = []
    for when, session in (
        ("opening", Session.new("blackpool", ["yellow", "red", "green", "blue"])),
        ("halfway", middle),
        ("riding", frozen_and_riding()),
        ("at the end", ended()),
    ):
        drawn = words_drawn(board, session)
        assert len(drawn) >= 20, f"{when}: the board's words were not all read back"
        found += [f"{when}: {fault}" for fault in faults(board, session, drawn)]
    where = f"{board.width:.0f}x{board.height:.0f} board at {size[0]}x{size[1]}"
    assert not found, f"Blackpool's {where}:\n" + "\n".join(found)
