"""What the boards leave on the canvas at every step: texts rendered once, few draws.

A board is drawn again at every step. Each text was rendered afresh (150-180 labels a step on these two
boards, each a new texture for the GL driver) though nearly all were the step before's, and every cell,
square and patch was a draw of its own (about 380 and 300), for each of which the driver keeps buffers.
"""

from __future__ import annotations

import operator
import random
from collections.abc import Iterator
from functools import partial
from typing import Any

import pytest
from kivy.graphics import Color, Line, Rectangle
from kivy.graphics.instructions import VertexInstruction
from kivy.uix.widget import Widget

from companion.session import Session
from tests.ui.drawing import on_window
from ui.boards import BoardView, drawer_for, paint
from ui.boards.shapes import Shapes, circle_points, frame_triangles
from ui.shots import mid_game

GAMES = ("temple", "blackpool", "targi", "desert")


@pytest.fixture
def canvas() -> Iterator[Widget]:
    yield from on_window((398, 398))  # the board beside the choices at 800x480


@pytest.fixture(scope="module")
def middles() -> dict[str, Session]:
    return {game: mid_game(game) for game in GAMES}


def draw(widget: Widget, session: Session, **marks: Any) -> list[Any]:
    """The board's drawing of ``session`` afresh, as the table redraws it; its canvas's instructions."""
    widget.canvas.clear()
    view = BoardView(session.game, session.document(), session.game.describe(session.state), **marks)
    drawer_for(session.game.id)(widget, view)
    return list(widget.canvas.children)


def textures(instructions: list[Any]) -> list[Any]:
    """The texts' textures, in drawing order, a rectangle's or a mesh's of several texts (shapes have Kivy's
    blank texture, which is no label's)."""
    rendered = {id(made.texture) for made in paint._labels.values()}
    return [i.texture for i in instructions if id(getattr(i, "texture", None)) in rendered]


@pytest.mark.parametrize("game", GAMES)
def test_drawing_the_same_position_again_renders_no_text(
    canvas: Widget, middles: dict[str, Session], game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The second drawing of a position uses the first one's textures: no label is rendered again."""
    rendered: list[str] = []

    class Counted(paint.CoreLabel):  # type: ignore[misc, valid-type]
        def refresh(self) -> None:
            super().refresh()
            rendered.append(str(self.text))

    monkeypatch.setattr(paint, "CoreLabel", Counted)
    first = textures(draw(canvas, middles[game]))
    assert len(first) > 30 and rendered  # coordinates or square names, pieces' numbers, the strip
    rendered.clear()
    again = textures(draw(canvas, middles[game]))
    assert rendered == []
    assert [id(t) for t in again] == [id(t) for t in first]


def test_the_labels_kept_are_bounded(canvas: Widget) -> None:
    """A day of games, each with texts of its own (a café's names, every count), holds no more labels than
    ``LABELS_KEPT``; the least recently drawn give way first."""
    with canvas.canvas:
        for k in range(paint.LABELS_KEPT + 50):
            paint.text(10, 10, f"count {k}", 12)
        paint.text(10, 10, "count 60", 12)  # drawn again: the most recent now
    assert len(paint._labels) == paint.LABELS_KEPT
    kept = [key[1] for key in paint._labels]
    assert "count 0" not in kept and kept[-1] == "count 60" and f"count {paint.LABELS_KEPT + 49}" in kept


# Draws on the canvas (each a Kivy vertex instruction) mid-game, where there were 306 on Blackpool's board and 384
# on the temple's: the squares, the names' patches, the cells, holes, stairs, idols, steps and the strips' chips
# are a mesh a colour now, and the temple's coordinates and step numbers a mesh a figure; the other texts, the
# lines and the pieces as before. Targi's board was 224 (248 at 1003 px, its printed names then shown): each card's
# edge, face, band, tag chip and frame, each tile and chip a rectangle, every text and piece a draw; now its shapes are
# a mesh a layer and colour, its texts a mesh a texture and colour, its pieces a mesh a colour (114 and 138).
# The desert race's was 160: each space's colour, each space's words, each panel row and item chip a draw; then the
# spaces, rows and chips a mesh a colour and the words a mesh a texture and colour (the "item" and "?" of every
# such space one draw), the frames, marks and pawns as before (102 here); now the red frames, the panel's rim and
# pawns and the pawns on the ring are meshes too (92, of which 67 are texts). Each space then got its number (16 px,
# the texts' "Twin Dunes (11)"): 77 at 800x480, where the number stands for the type label and word; 132 at 1003 px,
# where the 40 numbers come on top of the labels and words a large space still shows.
MOST_DRAWS = {"blackpool": 150, "temple": 115, "targi": 140, "desert": 96}
MOST_DRAWS_LARGE = {"desert": 135}  # at 1003 px, where a board shows more than at 398


@pytest.mark.parametrize("game", sorted(MOST_DRAWS))
def test_a_board_mid_game_is_drawn_in_few_draws(canvas: Widget, middles: dict[str, Session], game: str) -> None:
    """The GL driver keeps buffers for every draw on a canvas (40-70 kB each under Mesa's llvmpipe), and the
    allocator keeps a game's peak: the squares, cells and patches that never move are gathered by colour."""
    for size in ((398, 398), (1003, 1003)):  # beside the choices at 800x480 and at 1920x1080
        canvas.size = size
        draws = sum(isinstance(i, VertexInstruction) for i in draw(canvas, middles[game]))
        assert draws <= (MOST_DRAWS_LARGE.get(game, MOST_DRAWS[game]) if size[0] > 398 else MOST_DRAWS[game]), (
            size, draws)


def test_the_temples_marked_slots_add_no_draw_each(canvas: Widget, middles: dict[str, Session]) -> None:
    """A change of card marks every slot it may go to (all twelve), each edge a line of its own before: the
    edges, like the cards' own, are a mesh a colour, the same pixels as the lines (their joints rounded)."""
    plain = sum(isinstance(i, VertexInstruction) for i in draw(canvas, middles["temple"]))
    marked = draw(canvas, middles["temple"], marked=frozenset(range(1, 13)), focus=3, last=5)
    assert sum(isinstance(i, VertexInstruction) for i in marked) <= plain + 2


def test_targis_marked_cards_add_no_draw_each(canvas: Widget, middles: dict[str, Session]) -> None:
    """Every card offered (a Targi's placing offers most of the border) was a frame of four rectangles and a seam,
    five draws a card: the frames are a mesh a colour now, whatever the number of cards marked."""
    session = middles["targi"]
    plain = sum(isinstance(i, VertexInstruction) for i in draw(canvas, session))
    everywhere = frozenset(range(1, 17)) | {(r, c) for r in (1, 2, 3) for c in (1, 2, 3)}
    marked = draw(canvas, session, marked=everywhere, focus=(2, 2), asked=None, last=5)
    assert sum(isinstance(i, VertexInstruction) for i in marked) <= plain + 5


def vertex_draws(instructions: list[Any]) -> int:
    return sum(isinstance(i, VertexInstruction) for i in instructions)


def test_the_desert_races_marked_spaces_add_no_draw_each(canvas: Widget, middles: dict[str, Session]) -> None:
    """A Desert Vortex marks every space: each mark was a dark rim and a gold line (and the listed one a wash), 81
    draws more than the board unmarked. The marks are a few meshes now, in layers that keep each rim over the
    mark before it and under the mark after it."""
    session = middles["desert"]
    spaces = [space["id"] for space in session.game.data["board"]["spaces"]]
    for size in ((398, 398), (1003, 1003)):
        canvas.size = size
        plain = vertex_draws(draw(canvas, session))
        everywhere = vertex_draws(draw(canvas, session, marked=frozenset(spaces), focus=spaces[3], asked=spaces[9]))
        assert everywhere <= plain + 6, (size, plain, everywhere)


def test_the_desert_races_pawns_are_a_few_draws(canvas: Widget) -> None:
    """Six pawns, each on a space of its own: each pawn was four ellipses (black rim, white rim, a white disc under
    its fill, its fill: 24 draws); now a mesh a colour, the rims of all six in two (one fill a player)."""
    session = Session.new("desert", ["black", "purple", "pink", "brown", "grey", "teal"])
    document = session.document()
    spaces = [space["id"] for space in session.game.data["board"]["spaces"]]
    for k, player in enumerate(document["pieces"]):
        document["pieces"][player]["space"] = spaces[2 + 5 * k]
    widget = canvas
    widget.canvas.clear()
    drawer_for("desert")(widget, BoardView(session.game, document, []))
    instructions = list(widget.canvas.children)
    rendered = {id(made.texture) for made in paint._labels.values()}
    last_text = max(k for k, i in enumerate(instructions) if id(getattr(i, "texture", None)) in rendered)
    assert vertex_draws(instructions[last_text + 1 :]) <= 6 + 3


def lines_and_meshes(widget: Widget, kivy_line: Any, gathered: Any) -> tuple[bytes, bytes]:
    """The widget's pixels with a Kivy ``Line`` drawn, then with the same line gathered into a mesh."""
    out = []
    for draw_it in (kivy_line, gathered):
        widget.canvas.clear()
        with widget.canvas:
            Color(0.8, 0.2, 0.1, 1)
            Rectangle(pos=widget.pos, size=widget.size)
            draw_it()
        out.append(bytes(widget.export_as_image().texture.pixels))
    return out[0], out[1]


def kivy_frame(box: tuple[float, float, float, float], width: float, colour: tuple[float, ...]) -> None:
    Color(*colour)
    Line(rectangle=box, width=width)


def mesh_frame(box: tuple[float, float, float, float], width: float, colour: tuple[float, ...]) -> None:
    shapes = Shapes()
    shapes.triangles(0, colour, frame_triangles(*box, width))
    shapes.draw()


@pytest.mark.parametrize("alpha", [0.85, 1.0])
def test_a_line_gathered_in_a_mesh_leaves_the_lines_pixels(canvas: Widget, alpha: float) -> None:
    """The marks' rims (0.85) and gold edges, the red frames and an out pawn's ring were Kivy lines: made in a mesh
    they must cover the very pixels, each once (Kivy draws a see-through line through the stencil: its own
    triangles overlap at the corners, and a mesh of them was darker there, 355 pixels of a 50 px frame)."""
    canvas.size = (160, 160)
    rng = random.Random(5)
    for _ in range(12):
        side = rng.uniform(30, 100)
        box, width = (rng.uniform(2, 40), rng.uniform(2, 40), side, side), rng.uniform(1.1, 6)
        kivy, mesh = (partial(way, box, width, (0.0, 0.0, 0.0, alpha)) for way in (kivy_frame, mesh_frame))
        assert operator.eq(*lines_and_meshes(canvas, kivy, mesh)), (box, width)

    def kivy_ring() -> None:
        Color(0.2, 0.4, 0.9, 1)
        Line(circle=(80, 80, 23.3), width=2.7)

    def mesh_ring() -> None:
        shapes = Shapes()
        shapes.line(0, (0.2, 0.4, 0.9), circle_points(80, 80, 23.3), 2.7)
        shapes.draw()

    assert operator.eq(*lines_and_meshes(canvas, kivy_ring, mesh_ring))
