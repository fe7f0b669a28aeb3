"""Targi's board read from a chair: every text on it 16 px or more on the 7 inch display, none cut or overlapping.

At 800x480 (the 7 inch display, and the 5 inch, which has the same pixels)
the table's board is 398x398, and 60 of the 72 texts it drew were under 16 px,
the smallest 8: the display's symbols, a centre card's costs, the tags, the
border cards' numbers and what they give. Each text is read back from the
canvas with the font size it was rendered at (``words_drawn``).
"""

from __future__ import annotations

import functools
import random
from typing import Any

import pytest
from kivy.app import App

from companion.games.targi.board import POSITION
from companion.session import Session
from tests.ui.drawing import Words, words_drawn
from tests.ui.test_boards_robust import run_together, table_board, unreadable
from tests.ui.test_portrait import window_size  # noqa: F401  (a fixture)
from ui.boards import targi as drawing

pytestmark = pytest.mark.usefixtures("undrawn")  # boards' own pictures and sizes are read, not the window's

SIZES = [(800, 480), (1024, 600), (480, 800), (720, 1280)]


def crowded(session: Session) -> dict[str, Any]:
    """The halfway position with everything a board can hold at once: a Targi beside the robber, both players'
    tribe markers, a face-down and an emptied centre card, full displays, two held cards, two-figure counts."""
    doc = session.document()
    tribe = [c["id"] for c in session.game.data["tribe"]["cards"]]
    centre = [list(row) for row in doc["centre"]]
    centre[0][0] = {"face_down": "goods", "pile": 0}
    centre[2][2] = None
    supplies = {}
    for k, (player, supply) in enumerate(doc["supplies"].items()):
        rows = [tribe[k * 12 + r * 4 : k * 12 + r * 4 + 4] for r in range(3)]
        supplies[player] = {**supply, "dates": 10, "salt": 10, "pepper": 10, "gold": 10, "vp": 12,
                            "rows": rows, "hand": tribe[30 + 2 * k : 32 + 2 * k]}  # fmt: skip
    robber = doc["robber"]
    targi = [{"card": robber, "player": "white"}, *[t for t in doc["targi"] if t["card"] != robber]]
    markers = [{"slot": [1, 2], "player": "white"}, {"slot": [3, 2], "player": "black"}]
    return {**doc, "centre": centre, "supplies": supplies, "targi": targi, "markers": markers}


@functools.cache  # played once a process: the tests only draw it (read-only)
def ended() -> Session:
    """A seeded game played to its end: every tribe card bought so far in the displays, the final score."""
    session = Session.new("targi", ["white", "black"])
    rng = random.Random(11)
    while not session.pending().is_over and session.legal():
        session.act(session.game.sim_choose(session.state, session.legal(), rng))
    return session


def faults(widget: Any, drawn: list[Words]) -> list[str]:
    """Texts under 16 px, cut or broken, lying over another text, run together with another in their card or
    panel (``run_together``), or not inside one card or panel.

    Texts in two cards are not held to ``run_together``'s spacing: the dark gap between the cards and both
    cards' dark rims (6 px at 800x480, 8.4 at 720x1280) lie between them, so at 720x1280 a centre card's
    cost ending at its right edge ("3D / 1D 1G") reads apart from the next card's starting at its left
    ("2S 2P / 2G") though their letters are 11.7 px apart, under half the 28 px type.
    """
    layout = drawing.Layout(widget)
    boxes = [layout.card(*cell) for cell in POSITION.values()]
    boxes += [layout.card(r, c) for r in (1, 2, 3) for c in (1, 2, 3)] + list(layout.panels)
    found = unreadable(drawn)

    def within(d: Words, box: tuple[float, float, float, float]) -> bool:
        x, y, w, h = box[0] - widget.x, box[1] - widget.y, box[2], box[3]  # the words are read widget-local
        return x - 0.5 <= d.x and d.x + d.w <= x + w + 0.5 and y - 0.5 <= d.y and d.y + d.h <= y + h + 0.5

    for box in boxes:
        found += run_together([d for d in drawn if within(d, box)])
    found += [f"{d.text!r} at {d.x:.0f},{d.y:.0f} runs out of its card" for d in drawn
              if not any(within(d, box) for box in boxes)]  # fmt: skip
    return found


@pytest.mark.parametrize("size", SIZES)
def test_every_text_on_targis_board_reads_at_16_px_or_more(
    size: tuple[int, int], start: Any, window_size: Any  # noqa: F811
) -> None:
    """The table's own board at each display size: the opening, halfway, a crowded position and the end."""
    middle, board = table_board(start, window_size, size, "targi")
    opening = Session.new("targi", ["white", "black"])
    last = ended()
    found = []
    for when, session, doc in (
        ("opening", opening, None),
        ("halfway", middle, None),
        ("crowded", middle, crowded(middle)),
        ("at the end", last, None),
    ):
        drawn = words_drawn(board, session, doc)
        assert len(drawn) >= 60, f"{when}: the board's words were not all read back"
        found += [f"{when}: {fault}" for fault in faults(board, drawn)]
    assert not found, f"Targi's {board.width:.0f}x{board.height:.0f} board at {size[0]}x{size[1]}:\n" + "\n".join(found)


def test_each_border_card_says_what_it_gives_in_the_longest_words_that_fit() -> None:
    """Words where they fit, shorter forms where not, never a form wider than the card."""
    spice = {"action": {"code": "GAIN", "gain": {"pepper": 1, "dates": 1}}}
    smith = {"action": {"code": "SILVERSMITH"}}
    wide, narrow = drawing.measure("+1 pepper", 16, True)[0], drawing.measure("+1D +1P", 16, True)[0]
    assert drawing.pick(drawing.border_forms(spice), wide, 2, 16) == ("+1 date", "+1 pepper")
    assert drawing.pick(drawing.border_forms(spice), wide, 1, 16) == ("+1D +1P",)
    assert drawing.pick(drawing.border_forms(spice), narrow, 2, 16) == ("+1D +1P",)
    assert drawing.pick(drawing.border_forms(smith), 200, 1, 16) == ("Silversmith",)
    assert drawing.pick(drawing.border_forms(smith), 70, 1, 16) == ("Smith",)


@pytest.mark.parametrize("size", [(480, 800), (600, 1024)])
def test_targis_board_upright_at_the_largest_display_scale_still_reads_at_16_px(
    size: tuple[int, int], start: Any, window_size: Any  # noqa: F811
) -> None:
    """At 120% at 480x800 the choices under the board took 390 units and the board gave way to 468x347: every
    one of its 82 texts fell to 12.7 px (17.1 at 100%), the scale meant to draw things larger drawing the board
    smaller. Upright the board now gives way no further than the 800x480 board's 398 px."""
    from tests.ui.test_display_scale import scaled

    middle, board = table_board(start, window_size, size, "targi")
    scaled(App.get_running_app(), 120)
    assert board.height >= 398 - 0.5, f"the board is {board.width:.0f}x{board.height:.0f}"
    drawn = words_drawn(board, middle)
    found = unreadable(drawn)
    where = f"Targi's {board.width:.0f}x{board.height:.0f} board at {size[0]}x{size[1]}, 120%"
    assert not found, f"{where}:\n" + "\n".join(found)


@pytest.mark.parametrize("size", SIZES)
def test_a_tribe_marker_stands_apart_from_its_cards_band_word(
    size: tuple[int, int], start: Any, window_size: Any  # noqa: F811
) -> None:
    """A marker on a tribe card sits at the right end of its band, beside the symbol's word: at 800x480 at a
    game's end "Te" stood 3.9 px from the marker's rim (2.9 px at 120%), under half the 16 px type, and read as
    "Te" with a ring over its last letter. The word keeps 0.3 of the type size clear of the marker, about as it
    does of the tag's chip on its left (``targi._tag_gap``); a card at 800x480 has no room for more beside a
    16 px "Te" and the tag "1-1"."""
    from tests.ui.test_boards_robust import discs_below

    middle, board = table_board(start, window_size, size, "targi")
    doc = middle.document()
    kinds = {}  # one card of each symbol, the widest words ("Te", "Ta") among them
    for card in middle.game.data["tribe"]["cards"]:
        kinds.setdefault(card["symbol"], card["id"])
    tribe = [*kinds.values()] * 2
    centre = [[{"card": tribe[r * 3 + c]} for c in range(3)] for r in range(3)]
    markers = [{"slot": [r + 1, c + 1], "player": ("white", "black")[(r + c) % 2]} for r in range(3) for c in range(3)]
    drawn = words_drawn(board, middle, {**doc, "centre": centre, "markers": markers})
    layout = drawing.Layout(board)
    found = []
    for r in (1, 2, 3):
        for c in (1, 2, 3):
            x, y, w, h = layout.card(r, c)
            x, y = x - board.x, y - board.y
            band = [d for d in drawn if x + w * 0.3 < d.centre[0] < x + w and y + h * 0.7 < d.centre[1] < y + h]
            marks = [(cx, cy, rr) for cx, cy, rr in discs_below(board, board.y + y + h)
                     if x + w * 0.6 < cx - board.x < x + w and y + h * 0.7 < cy - board.y < y + h]  # fmt: skip
            assert band and marks, f"centre {r}-{c}: no band word or marker found"
            word = band[0]
            rim = min(cx - board.x - rr for cx, _, rr in marks)
            gap = rim - (word.ink[0] + word.ink[2])
            if gap < 0.3 * word.size:
                found.append(f"centre {r}-{c}: {word.text!r} ({word.size:.1f} px) {gap:.1f} px from the marker")
    assert not found, f"at {size[0]}x{size[1]}:\n" + "\n".join(found)


@pytest.mark.parametrize("percent", (110, 120))
def test_targis_board_in_landscape_at_a_larger_display_scale_still_reads_at_16_px(
    percent: int, start: Any, window_size: Any  # noqa: F811
) -> None:
    """At 120% at 800x480 the table's larger margins and bottom bar left the board 381.6 px, and every one of its
    texts 15.3 px: the frame now gives back what the board needs to stay 398 px, the bar's words still 24 px."""
    from tests.ui.test_display_scale import scaled

    middle, board = table_board(start, window_size, (800, 480), "targi")
    scaled(App.get_running_app(), percent)
    assert board.height >= 398 - 0.5, f"the board is {board.width:.0f}x{board.height:.0f}"
    table = App.get_running_app().root.get_screen("table")
    assert table.ids.undo.font_size == pytest.approx(20 * percent / 100), "the bar's words lost the scale"
    found = []
    positions = (("halfway", middle, None), ("crowded", middle, crowded(middle)), ("at the end", ended(), None))
    for when, session, doc in positions:
        found += [f"{when}: {fault}" for fault in faults(board, words_drawn(board, session, doc))]
    assert not found, f"Targi's {board.width:.0f}x{board.height:.0f} board at 800x480, {percent}%:\n" + "\n".join(found)
