"""Through the Desert's board read from a chair: every text on it 16 px or more on the 7 inch display.

At 800x480 (the 7 inch display, and the 5 inch, which has the same pixels)
the table's board is 398x398, and 22 of the 34 texts it drew halfway were
under 16 px (every one of the 51 at a five-player opening): the water holes'
figures 12.8 px, the score parts ("water 0  oases 5  areas 0  longest 25")
11.5-13.5, the names, totals and "Left:" 12-14 with five players. Each text
is read back from the canvas with the font size it was rendered at.
"""

from __future__ import annotations

import functools
import random
from typing import Any

import pytest

from companion.session import Session
from tests.ui.drawing import Words, words_drawn
from tests.ui.test_boards_robust import off_board, run_together, table_board, unreadable
from tests.ui.test_portrait import window_size  # noqa: F401  (a fixture)
from ui.boards import BoardView, ttd

pytestmark = pytest.mark.usefixtures("undrawn")  # boards' own pictures and sizes are read, not the window's

SIZES = [(800, 480), (1024, 600), (480, 800), (720, 1280)]
FIVE = ["red", "black", "orange", "purple", "brown"]


@functools.cache  # played once a process: the tests only draw it (read-only)
def ended() -> Session:
    """A seeded five-player game played to its end: a full map, the final score and its winners."""
    session = Session.new("ttd", FIVE)
    rng = random.Random(5)
    while not session.pending().is_over and session.legal():
        session.act(session.game.sim_choose(session.state, session.legal(), rng))
    return session


def faults(widget: Any, session: Session, drawn: list[Words]) -> list[str]:
    """Texts under 16 px, cut or broken, lying over another text, off the board, or a water hole's figure
    outside its hex's box or a strip's text reaching up into the map."""
    doc = session.document()
    frame = ttd._frame(widget, BoardView(session.game, doc, []))
    found = unreadable(drawn) + run_together(drawn)
    found += off_board(widget, drawn)
    sites = [frame.centre(*site["hex"]) for site in doc.get("waterholes") or []]
    for d in drawn:
        cx, cy = d.centre
        near = min(sites, key=lambda s: abs(s[0] - cx) + abs(s[1] - cy), default=None)
        if near and abs(near[0] - cx) < 1 and abs(near[1] - cy) < 1:  # a water hole's figure
            if d.w > frame.size * ttd.SQRT3 + 0.5 or d.h > frame.size * 2 + 0.5:
                found.append(f"water hole {d.text!r} ({d.w:.0f}x{d.h:.0f}) outruns its hex ({frame.size:.1f} px)")
        elif d.y + d.h > frame.strip_top + 0.5:
            found.append(f"{d.text!r} reaches into the map")
    return found


@pytest.mark.parametrize("size", SIZES)
def test_every_text_on_through_the_deserts_board_reads_at_16_px_or_more(
    size: tuple[int, int], start: Any, window_size: Any  # noqa: F811
) -> None:
    """The table's own board at each display size: five players' opening, halfway, and a five-player end."""
    middle, board = table_board(start, window_size, size, "ttd")
    found = []
    for when, session in (("opening", Session.new("ttd", FIVE)), ("halfway", middle), ("at the end", ended())):
        drawn = words_drawn(board, session)
        assert len(drawn) >= 30, f"{when}: the board's words were not all read back"
        found += [f"{when}: {fault}" for fault in faults(board, session, drawn)]
        found += [] if any(d.text == "Water" for d in drawn) else [f"{when}: the score parts have no heading"]
    assert not found, f"Through the Desert's {board.width:.0f}x{board.height:.0f} board at {size}:\n" + "\n".join(found)


@pytest.mark.parametrize("size", [(800, 480), (480, 800)])
def test_the_strips_totals_say_mid_game_they_are_the_score_if_it_ended_now(
    size: tuple[int, int], start: Any, window_size: Any  # noqa: F811
) -> None:
    """Mid-game the strip's totals count the longest-caravan bonus as if the game ended now, and a heading of
    "Total" alone had a first-time table take them for points banked. Before the end the heading says so, whole
    and at 16 px or more, at 800x480 and 480x800; at the end it is "Total" again."""
    middle, board = table_board(start, window_size, size, "ttd")
    assert middle.game.score(middle.state)["provisional"]
    drawn = words_drawn(board, middle)
    headings = [d.text for d in drawn if d.text in ttd.PROVISIONAL or d.text == "Total"]
    assert headings and headings[0] in ttd.PROVISIONAL, (size, headings)
    assert not faults(board, middle, drawn), (size, faults(board, middle, drawn))
    assert "Total" in [d.text for d in words_drawn(board, ended())]
