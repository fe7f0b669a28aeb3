"""The desert lap race drawing, rendered in the real offscreen window and checked pixel by pixel."""

from __future__ import annotations

import copy
import random
import re
from collections.abc import Iterator

import pytest
from kivy.uix.widget import Widget

from companion.session import Session
from tests.ui.drawing import Words, on_window, pixel, render, words_drawn
from ui.boards import desert, has_drawing
from ui.boards.paint import rgb
from ui.shots import mid_game

SIZES = ((390, 390), (650, 650), (640, 400))


@pytest.fixture
def canvas() -> Iterator[Widget]:
    yield from on_window()


def space_box(widget: Widget, session: Session, index: int) -> tuple[float, float, float, float]:
    """Where the drawing puts a space: its square (x, y, side, side) in the ring."""
    n = len(session.game.data["board"]["spaces"])
    cols, rows = desert.ring_shape(n, widget.width, widget.height)
    cell = min(widget.width / cols, widget.height / rows)
    col, row = desert.ring_slots(cols, rows)[index]
    x0 = (widget.width - cell * cols) / 2
    y0 = (widget.height - cell * rows) / 2
    return x0 + col * cell, y0 + row * cell, cell, cell


def space_centre(widget: Widget, session: Session, index: int) -> tuple[float, float, float]:
    """The middle of a space's pawn row, and the space's side."""
    x, y, cell, _ = space_box(widget, session, index)
    return x + cell / 2, y + cell * desert.PAWN_Y, cell


def names_in_texts(session: Session, seed: int, steps: int) -> set[str]:
    """The space names a seeded game's buttons, prompts and announcements use, as they use them."""
    names = {s.name for s in session.game.board.spaces}
    pattern = re.compile("|".join(re.escape(n) for n in sorted(names, key=len, reverse=True)))
    rng = random.Random(seed)
    seen: set[str] = set()
    for _ in range(steps):
        legal = session.legal()
        if session.pending().is_over or not legal:
            break
        texts = [session.pending().text, *(str(a.get("text")) for a in legal)]
        result = session.act(session.game.sim_choose(session.state, legal, rng))
        texts += [e.text for e in result.events]
        seen.update(m.group(0) for t in texts for m in pattern.finditer(t))
    return seen


def word_of(name: str, drawn: list[Words]) -> Words | None:
    """A drawn label that is one whole word of ``name``."""
    words = set(name.split())
    return next((d for d in drawn if d.text in words), None)


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


@pytest.mark.parametrize("size", [(390, 390), (660, 660)])
def test_every_space_the_texts_name_shows_a_word_of_that_name(canvas: Widget, size: tuple[int, int]) -> None:
    """ "Rolled 3: move to Twin Dunes" must be findable: "Twin" in that space, on no other space, readable."""
    canvas.size = size
    session = Session.new("desert", ["black", "pink", "teal"])
    named = names_in_texts(Session.new("desert", ["black", "pink", "teal"]), seed=2, steps=300)
    assert len(named) > 20  # the texts do name spaces, by their full names
    drawn = words_drawn(canvas, session)
    spaces = session.game.board.spaces
    for space in spaces:
        here = [d for d in drawn if d.inside(space_box(canvas, session, space.index))]
        word = word_of(space.name, here)
        assert word is not None, (space.name, [d.text for d in here])
        assert word.h >= 9, (space.name, word)  # 8 to 10 px fonts at 800x480, never the 6 px floor
        others = [s.name for s in spaces if s is not space and word.text in s.name.split()]
        assert not others, (space.name, word.text, others)
    assert named <= {s.name for s in spaces}


def test_a_crowded_space_keeps_its_name(canvas: Widget) -> None:
    """Six pawns on Desert Dawn take most of the space; its name moves to the top rather than vanish."""
    canvas.size = (390, 390)
    session = Session.new("desert", ["black", "purple", "pink", "brown", "grey", "teal"])
    here = [d for d in words_drawn(canvas, session) if d.inside(space_box(canvas, session, 0))]
    assert word_of(session.game.board.spaces[0].name, here) is not None


def test_short_names_pick_a_word_no_other_space_shares() -> None:
    spaces = [
        {"id": "a", "name": "Golden Dune"},
        {"id": "b", "name": "Twin Dunes"},
        {"id": "c", "name": "Jewel of the Desert"},
        {"id": "d", "name": "Desert Dawn"},
        {"id": "e", "name": "Oasis"},
        {"id": "f", "name": "Oasis"},
    ]
    assert desert.short_names(spaces) == {
        "a": "Golden",  # "Dune" and "Dunes" would be mixed up
        "b": "Twin",
        "c": "Jewel",  # never "of"
        "d": "Dawn",
        "e": "Oasis",  # no word of its own: the whole name
        "f": "Oasis",
    }
