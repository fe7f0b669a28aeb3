"""The Through the Desert drawing, rendered in the real offscreen window and checked pixel by pixel."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from kivy.uix.widget import Widget

from companion.session import Session
from tests.ui.drawing import on_window, pixel, render
from ui.boards import BoardView, has_drawing, ttd
from ui.shots import mid_game

SIZES = ((390, 390), (650, 650), (640, 400))
ROOT = Path(__file__).resolve().parents[2]


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
    x, y = x + geometry.size * 0.35, y + geometry.size * 0.35  # beside the owner's mark (a red diamond), on the camel
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


def test_a_cafe_camel_colour_is_drawn_in_the_colour_its_data_names(canvas: Widget, tmp_path: Path) -> None:
    """Lilac is in no colour table of the app: drawn grey until camels.json could say #b57edc."""
    camels = json.loads((ROOT / "companion/games/ttd/data/camels.json").read_text())
    camels["colours"][0] = {"id": "lilac", "name": "lilac", "letter": "L", "colour": "#b57edc"}
    camels["colours"][1] = {"id": "sand", "name": "sand", "letter": "S"}  # no colour: drawn as before
    (tmp_path / "ttd").mkdir()
    (tmp_path / "ttd" / "camels.json").write_text(json.dumps(camels), encoding="utf-8")
    session = Session.new("ttd", ["red", "black"], cafe_dir=tmp_path)
    doc = copy.deepcopy(session.document())
    free = [
        (c["q"], c["r"])
        for c in session.game.data["board"]["cells"]
        if c["type"] == "sand" and c["region"] == "main" and not c.get("oasis") and not c.get("waterhole")
    ]
    canvas.size = (650, 650)
    geometry = frame(canvas, session, 2)
    lilac, sand, blue = free[0], free[len(free) // 2], free[-1]
    for where, colour in ((lilac, "lilac"), (sand, "sand"), (blue, "blue")):
        doc["pieces"].append({"hex": list(where), "player": "red", "colour": colour, "leader": False})
    pixels = render(canvas, session, doc)

    def body(where: tuple[int, int]) -> tuple[int, int, int]:
        x, y = geometry.centre(*where)
        return pixel(pixels, canvas, x + geometry.size * 0.47, y)  # between the owner's dot and the edge

    assert close(body(lilac), (181 / 255, 126 / 255, 220 / 255))
    assert close(body(sand), (0.7, 0.7, 0.7))
    assert close(body(blue), ttd.CAMEL_RGB["blue"])
    assert ttd.camel_paints(camels)["lilac"] == (181 / 255, 126 / 255, 220 / 255)


def test_a_full_map_is_drawn_in_a_bounded_number_of_draws(canvas: Widget) -> None:
    """Each hex, edge and camel disc was a draw of its own (about a thousand late in a game), and the GL driver
    keeps buffers for every one (40-70 kB each under Mesa's llvmpipe): a kiosk's memory stepped up whenever a
    game reached a fuller map. Gathered by colour, the map is a few dozen draws however many camels stand."""
    from kivy.graphics.instructions import VertexInstruction

    session = Session.new("ttd", ["red", "black", "orange", "purple", "brown"])
    rng = random.Random(5)
    while not session.pending().is_over and session.legal():
        session.act(session.game.sim_choose(session.state, session.legal(), rng))
    doc = session.document()
    assert len(doc["pieces"]) > 60  # a full map: the game ran to its end
    marked = frozenset((c["q"], c["r"]) for c in session.game.data["board"]["cells"])  # every hex outlined
    canvas.size = (650, 650)
    canvas.canvas.clear()
    ttd.draw(canvas, BoardView(session.game, doc, [], marked=marked))
    draws = sum(isinstance(i, VertexInstruction) for i in canvas.canvas.children)
    assert draws <= 120, draws  # the score strip's texts and discs are most of them
