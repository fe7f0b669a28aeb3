"""The Through the Desert drawing, rendered in the real offscreen window and checked pixel by pixel."""

from __future__ import annotations

import copy
from collections.abc import Iterator

import pytest
from kivy.uix.widget import Widget

from companion.session import Session
from tests.ui.drawing import on_window, pixel, render
from ui.boards import has_drawing, ttd
from ui.shots import mid_game

SIZES = ((390, 390), (650, 650), (640, 400))


@pytest.fixture
def canvas() -> Iterator[Widget]:
    yield from on_window((390, 390))


@pytest.fixture(scope="module")
def middle() -> Session:
    """Halfway through the seeded random game the screenshots show (a second or two to play, so once)."""
    return mid_game("ttd")


def close(got: tuple[int, int, int], want: tuple[float, float, float]) -> bool:
    return max(abs(g - round(w * 255)) for g, w in zip(got, want, strict=True)) < 30


def frame(widget: Widget, session: Session, players: int) -> ttd.MapFrame:
    return ttd.map_frame(session.game.data["board"]["cells"], widget.width, widget.height, players)


def test_ttd_has_a_drawing() -> None:
    assert has_drawing("ttd")


def test_opening_and_mid_game_draw(canvas: Widget, middle: Session) -> None:
    opening = Session.new("ttd", ["red", "black", "orange", "purple", "brown"])
    for size in SIZES:
        canvas.size = size
        render(canvas, opening)
        assert len(render(canvas, middle)) == size[0] * size[1] * 4


def test_a_placed_camel_shows_in_its_colour(canvas: Widget, middle: Session) -> None:
    session = middle
    doc = copy.deepcopy(session.document())
    taken = {tuple(p["hex"]) for p in doc["pieces"]}
    sites = {tuple(s["hex"]) for s in doc["waterholes"]}
    free = next(
        (c["q"], c["r"])
        for c in session.game.data["board"]["cells"]
        if c["type"] == "sand"
        and c["region"] == "main"
        and not c.get("oasis")
        and (c["q"], c["r"]) not in taken
        and (c["q"], c["r"]) not in sites
    )
    geometry = frame(canvas, session, len(doc["players"]))
    x, y = geometry.centre(*free)
    x += geometry.size * 0.4  # beside the owner's dot, on the camel's own colour
    before = render(canvas, session, doc)
    assert close(pixel(before, canvas, x, y), ttd.SAND)
    doc["pieces"].append({"hex": list(free), "player": "red", "colour": "green", "leader": False})
    after = render(canvas, session, doc)
    assert close(pixel(after, canvas, x, y), ttd.CAMEL_RGB["green"])


def test_the_eastern_strip_is_greyed_with_few_players(canvas: Widget) -> None:
    strip = next(
        (c["q"], c["r"])
        for c in Session.new("ttd", ["red", "black"]).game.data["board"]["cells"]
        if c["region"] == "small" and c["type"] == "sand" and not c.get("oasis") and not c.get("waterhole")
    )
    for players, ground in ((["red", "black", "orange"], ttd.UNUSED), (["red", "black", "orange", "purple"], ttd.SAND)):
        session = Session.new("ttd", players)
        pixels = render(canvas, session)
        x, y = frame(canvas, session, len(players)).centre(*strip)
        assert close(pixel(pixels, canvas, x, y), ground)


def test_odd_documents_do_not_break_the_drawing(canvas: Widget) -> None:
    session = Session.new("ttd", ["red", "black"])
    doc = copy.deepcopy(session.document())
    doc["pieces"] = [{"hex": "nowhere"}, {"hex": [0, 0], "player": "red", "colour": "guide", "leader": True}]
    doc["waterholes"] = [{"hex": [2, 0], "value": None}, "junk"]
    render(canvas, session, doc)
    doc.pop("pieces"), doc.pop("waterholes"), doc.pop("supply", None)
    render(canvas, session, doc)
