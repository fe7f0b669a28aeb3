"""Colour-blind players tell their pieces apart on every board: no two colours a game offers that a
protanope, deuteranope or tritanope would confuse share a shape, and the boards draw each piece in its shape.

Before, every piece was a disc told apart by colour alone: to a deuteranope (simulated) Blackpool's and
the temple's red and green pieces are 7 apart (CIEDE2000), the desert race's grey and teal pawns 2 to a
protanope, Through the Desert's red and brown riders 2.5.
"""

from __future__ import annotations

import copy
import itertools
import math
import random
from collections.abc import Iterator
from typing import Any

import pytest
from kivy.uix.widget import Widget

from companion.colours import PIECE_RGB, delta_e, piece_rgb, piece_shape
from companion.registry import game_classes
from companion.session import Session
from tests.ui.colour_vision import CONFUSED, MACHADO, least_apart, shape_at, simulate
from tests.ui.drawing import on_window, words_drawn
from ui.boards import BoardView, blackpool, ttd
from ui.boards import temple as temple_board
from ui.shots import mid_game

Box = tuple[float, float, float, float]


@pytest.fixture
def canvas() -> Iterator[Widget]:
    yield from on_window((700, 700))  # large enough that a Through the Desert rider's mark is 7 px round


def confusable() -> list[tuple[str, str, str, float, str]]:
    """(game, colour, colour, least CIEDE2000 under a simulation, which) for every pair a game offers."""
    out = []
    for game, cls in game_classes().items():
        for one, two in itertools.combinations(cls.colours, 2):
            apart, kind = least_apart(piece_rgb(one), piece_rgb(two))
            out.append((game, one, two, apart, kind))
    return out


def test_the_simulation_keeps_greys_and_loses_red_against_green() -> None:
    """The matrices are the published ones: white, black and greys stay as they are (each row sums to 1), and
    the classic confusions appear (red and green to a deuteranope, the greens and blues to a tritanope)."""
    for kind, rows in MACHADO.items():
        assert all(abs(sum(row) - 1) < 0.002 for row in rows), kind
        for grey in ((1.0, 1.0, 1.0), (0.5, 0.5, 0.5), (0.1, 0.1, 0.1)):
            assert delta_e(simulate(grey, kind), grey) < 0.5
    assert delta_e(simulate(PIECE_RGB["red"], "deuteranopia"), simulate(PIECE_RGB["green"], "deuteranopia")) < 10
    assert delta_e(PIECE_RGB["red"], PIECE_RGB["green"]) > 70


def test_no_two_colours_a_game_offers_that_a_colour_blind_player_confuses_share_a_shape() -> None:
    pairs = confusable()
    close = [(g, a, b, round(d, 1), k) for g, a, b, d, k in pairs if d < CONFUSED]
    assert len(close) >= 10  # the palette alone does not keep them apart: 14 such pairs in the five games
    same = [(g, a, b, d, k, piece_shape(a)) for g, a, b, d, k in close if piece_shape(a) == piece_shape(b)]
    assert not same, same


def test_every_shape_is_one_the_boards_draw_and_the_colours_keep_their_own_look() -> None:
    """Shapes, not new shades: the colours stay as named, and the words on them (``ink``) keep 4.5 to 1."""
    from companion.colours import SHAPES, contrast, ink

    for game, cls in game_classes().items():
        for colour in cls.colours:
            assert piece_shape(colour) in SHAPES, (game, colour)
            assert contrast(piece_rgb(colour), ink(piece_rgb(colour))) >= 4.5, (game, colour)


def drawn(canvas: Widget, session: Session, doc: dict[str, Any] | None = None) -> tuple[bytes, list[Box]]:
    """The board's pixels and the ink boxes of its words (a piece's number is passed over in reading its shape)."""
    words = words_drawn(canvas, session, doc)
    return bytes(canvas.export_as_image().texture.pixels), [w.ink for w in words]


def checked(found: list[tuple[str, str]]) -> None:
    """Each piece read had its colour's shape, and squares, diamonds and discs were all among them."""
    wrong = [(colour, seen) for colour, seen in found if seen != piece_shape(colour)]
    assert not wrong, wrong
    assert {seen for _, seen in found} >= {"square", "diamond", "disc"}, found


def test_blackpools_travellers_are_drawn_in_their_colours_shapes(canvas: Widget) -> None:
    session = mid_game("blackpool", seed=6)  # red, green and yellow travellers each alone on a square
    view = BoardView(session.game, session.document(), session.game.describe(session.state))
    pixels, letters = drawn(canvas, session)
    pieces = blackpool.pieces(canvas, view)
    alone = [p for p in pieces if p.r >= 8 and not p.frozen
             and all(q is p or (q.x - p.x) ** 2 + (q.y - p.y) ** 2 > (3 * p.r) ** 2 for q in pieces)]  # fmt: skip
    checked([(p.colour, shape_at(pixels, canvas, p.x, p.y, p.r, piece_rgb(p.colour), letters)) for p in alone])


def test_the_temples_pawns_are_drawn_in_their_colours_shapes(canvas: Widget) -> None:
    session = mid_game("temple", seed=6)  # red, blue and green pawns on the board
    doc = session.document()
    pixels, letters = drawn(canvas, session)
    frame = temple_board.Frame(canvas, session.game.data["board"]["size"])
    found = []
    for colour, places in doc["pawns"].items():
        for at in places:
            if isinstance(at, list):
                x, y = frame.centre(at)
                found.append((colour, shape_at(pixels, canvas, x, y, frame.cell * 0.47, piece_rgb(colour), letters)))
    checked(found)


def played(game_id: str, players: list[str], steps: int, seed: int) -> Session:
    """A seeded random game ``steps`` steps in (fewer if it ends first): pieces of every colour on the board."""
    session = Session.new(game_id, players)
    rng = random.Random(seed)
    for _ in range(steps):
        legal = session.legal()
        if session.pending().is_over or not legal:
            break
        session.act(session.game.sim_choose(session.state, legal, rng))
    return session


def test_through_the_deserts_riders_are_marked_in_their_colours_shapes(canvas: Widget) -> None:
    """Red (a diamond), orange and brown (discs) and purple (a square) riders, the three pairs that come
    within 20 of each other to one eye or another, on camels of every colour."""
    players = ["red", "orange", "purple", "brown"]
    session = played("ttd", players, 40, seed=5)
    doc = copy.deepcopy(session.document())
    pixels, letters = drawn(canvas, session, doc)
    geometry = ttd.map_frame(session.game.data["board"]["cells"], canvas.width, canvas.height, len(players))
    found = []
    for piece in doc["pieces"]:
        if piece.get("colour") == "guide":
            continue
        x, y = geometry.centre(*piece["hex"])
        r = geometry.size * (0.26 if piece.get("leader") else 0.34)
        found.append((piece["player"], shape_at(pixels, canvas, x, y, r, piece_rgb(piece["player"]), letters)))
    checked(found)


def test_the_temples_hand_chips_carry_their_colours_shapes(canvas: Widget) -> None:
    """The row of hand sizes under the board: each colour's chip carries its pawns' shape beside the count."""
    from unittest.mock import patch

    marks: list[tuple[float, float, float, str, tuple[float, ...]]] = []

    class Kept(temple_board.Shapes):  # type: ignore[misc, valid-type]
        def piece(self, layer: int, shape: str, cx: float, cy: float, r: float, fill: Any, *rest: Any) -> None:
            marks.append((cx, cy, r, shape, tuple(fill)))
            super().piece(layer, shape, cx, cy, r, fill, *rest)

    session = mid_game("temple", seed=6)
    with patch.object(temple_board, "Shapes", Kept):
        pixels, letters = drawn(canvas, session)
    players = session.document()["players"]
    assert [shape for *_, shape, _ in sorted(marks)] == [piece_shape(p) for p in players]
    for cx, cy, r, shape, fill in marks:
        assert shape_at(pixels, canvas, cx, cy, r, fill, letters) == shape  # type: ignore[arg-type]


def test_the_desert_races_pawns_are_drawn_in_their_colours_shapes(canvas: Widget) -> None:
    """Purple and grey pawns (squares), teal (a diamond) and pink (a disc): four of the five pairs within 20
    of each other to one eye or another, each pawn alone on its space."""
    from unittest.mock import patch

    from ui.boards import desert

    players = ["purple", "teal", "pink", "grey"]
    session = played("desert", players, 30, seed=3)
    laid: list[Any] = []
    lay = desert._lay_pawns

    def keep(pawns: Any, shapes: Any) -> None:
        laid.extend(pawns)
        lay(pawns, shapes)

    with patch.object(desert, "_lay_pawns", keep):
        pixels, letters = drawn(canvas, session)
    apart = [p for p in laid if all(q is p or math.dist((q.cx, q.cy), (p.cx, p.cy)) > 3 * p.radius for q in laid)]
    alone = [p for p in apart if not p.out]
    checked([(p.player, shape_at(pixels, canvas, p.cx, p.cy, p.radius, piece_rgb(p.player), letters))
             for p in alone])  # fmt: skip
