"""The desert lap race drawing, rendered in the real offscreen window and checked pixel by pixel."""

from __future__ import annotations

import copy
from collections.abc import Iterator

import pytest
from kivy.uix.widget import Widget

from companion.session import Session
from tests.ui.drawing import on_window, pixel, render
from ui.boards import desert, has_drawing
from ui.boards.paint import rgb
from ui.shots import mid_game

SIZES = ((390, 390), (650, 650), (640, 400))


@pytest.fixture
def canvas() -> Iterator[Widget]:
    yield from on_window()


def space_centre(widget: Widget, session: Session, index: int) -> tuple[float, float, float]:
    """Where the drawing puts a space (centre x, y of its pawn area) and the space's size."""
    n = len(session.game.data["board"]["spaces"])
    cols, rows = desert.ring_shape(n, widget.width, widget.height)
    cell = min(widget.width / cols, widget.height / rows)
    col, row = desert.ring_slots(cols, rows)[index]
    x0 = (widget.width - cell * cols) / 2
    y0 = (widget.height - cell * rows) / 2
    return x0 + (col + 0.5) * cell, y0 + row * cell + cell * 0.35, cell


def test_desert_has_a_drawing() -> None:
    assert has_drawing("desert")


def test_opening_and_mid_game_draw(canvas: Widget) -> None:
    opening = Session.new("desert", ["black", "purple", "pink", "brown", "grey", "teal"])
    middle = mid_game("desert")  # the position the screenshots show
    for size in SIZES:
        canvas.size = size
        render(canvas, opening)
        assert len(render(canvas, middle)) == size[0] * size[1] * 4


def test_a_moved_pawn_moves_on_screen(canvas: Widget) -> None:
    canvas.size = (390, 390)
    session = Session.new("desert", ["black", "pink"])
    spaces = session.game.data["board"]["spaces"]
    target = next(s["index"] for s in spaces if s["id"] == "golden_dune")
    x, y, _cell = space_centre(canvas, session, target)
    before = render(canvas, session)
    doc = copy.deepcopy(session.document())
    doc["pieces"]["pink"]["space"] = "golden_dune"
    after = render(canvas, session, doc)
    assert pixel(before, canvas, x, y) != pixel(after, canvas, x, y)
    pink = tuple(round(c * 255) for c in rgb("pink"))
    assert max(abs(a - b) for a, b in zip(pixel(after, canvas, x, y), pink, strict=True)) < 40


def test_out_and_odd_documents_do_not_break_the_drawing(canvas: Widget) -> None:
    canvas.size = (390, 390)
    session = Session.new("desert", ["black", "pink", "teal"])
    doc = copy.deepcopy(session.document())
    doc["pieces"]["black"].update(lives=0, out=True)
    doc["pieces"]["pink"].update(
        items=[
            "golden_compass",
            "desert_flask",
            "desert_flask",
            "mirage_cloak",
            "sunshield_amulet",
            "sandstorm_sneakers",
        ],
        lap=True,
        skip=2,
    )
    doc["turn"], doc["winner"] = None, "teal"
    render(canvas, session, doc)
    doc.pop("pieces")
    render(canvas, session, doc)
