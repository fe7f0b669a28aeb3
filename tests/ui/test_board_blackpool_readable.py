"""Blackpool's board read from a chair: its coordinates, pieces' numbers and counts 16 px or more at 800x480.

At 800x480 (the 7 inch display, and the 5 inch, which has the same pixels)
the table's board is 398x398, and all 93 texts it drew halfway through a game
were under 16 px, the smallest 6: the 81 square names (13 px), the pieces'
numbers (12 px), the coins' counts (11 px) and the decks' line. Each text is
read back from the canvas with the font size it was rendered at
(``words_drawn``). The centre square crowded with four stacks or more (all
twelve travellers at a four-player start) drew their numbers at 6 px, a fifth
of a square; now every traveller's number is read at 16 px or more on a disc
of its own, in the tray beside the grid for the centre's crowd.
"""

from __future__ import annotations

import functools
import itertools
import math
import random
from collections.abc import Callable
from typing import Any

import pytest
from kivy.graphics import Color, Ellipse

from companion.session import Session
from tests.ui.drawing import Words, draw, on_window, pixel, pixels_of, words_drawn
from tests.ui.test_board_blackpool import TABLE_BOARDS, frozen_and_riding
from tests.ui.test_boards_robust import (
    NARROW_BOARDS,
    READABLE,
    board_at,
    off_board,
    run_together,
    table_board,
    unreadable,
)
from tests.ui.test_portrait import window_size  # noqa: F401  (a fixture)
from ui.boards import BoardView, blackpool
from ui.boards.paint import piece_shape
from ui.boards.shapes import piece_points

pytestmark = pytest.mark.usefixtures("undrawn")  # boards' own pictures and sizes are read, not the window's

SIZES = [(800, 480), (1024, 600), (480, 800), (720, 1280)]


@functools.cache  # played once: the tests only draw it (read-only)
def ended() -> Session:
    """A seeded four-player game played to its end."""
    session = Session.new("blackpool", ["yellow", "red", "green", "blue"])
    rng = random.Random(11)
    for _ in range(3000):
        if session.pending().is_over or not session.legal():
            break
        session.act(session.game.sim_choose(session.state, session.legal(), rng))
    return session


@functools.cache  # played once: the tests only draw it (read-only)
def crowd_of_four() -> Session:
    """A seeded four-player game at its first position with four to seven stacks left in the centre."""
    session = Session.new("blackpool", ["yellow", "red", "green", "blue"])
    rng = random.Random(5)
    while sum(t["at"] == "centre" for t in session.document()["travellers"].values()) > 7:
        session.act(session.game.sim_choose(session.state, session.legal(), rng))
    return session


def numbers_unread(widget: Any, session: Session, drawn: list[Words]) -> list[str]:
    """Travellers whose number is nowhere drawn at 16 px or more on a disc of their own."""
    doc = session.document()
    discs = blackpool.pieces(widget, BoardView(session.game, doc, session.game.describe(session.state)))
    found = []
    for traveller in blackpool.travellers(doc):
        mine = [p for p in discs if p.id == traveller["id"]]
        on_a_disc = [d for d in drawn if any(abs(d.centre[0] + widget.x - p.x) < 1 and
                                              abs(d.centre[1] + widget.y - p.y) < 1 for p in mine)]  # fmt: skip
        if not [d for d in on_a_disc if d.text == str(traveller["number"]) and d.size >= READABLE]:
            found.append(f"{traveller['id']}'s number is read nowhere at {READABLE:.0f} px: {mine}")
    return found


def faults(widget: Any, session: Session, drawn: list[Words]) -> list[str]:
    """Texts under 16 px, cut or broken, over another text, or off the board; travellers whose number is nowhere
    read at 16 px on their own disc; the centre's tray over the grid or off the board."""
    doc = session.document()
    view = BoardView(session.game, doc, session.game.describe(session.state))
    found = unreadable(drawn) + off_board(widget, drawn) + numbers_unread(widget, session, drawn) + run_together(drawn)
    grid = blackpool.grid_for(widget, view)
    board = session.game.data["board"]
    right = grid.x0 + board["width"] * grid.cell
    centre = blackpool.centre_of(board)
    shelf = blackpool.tray(widget, grid, board, blackpool.stacks(doc, board["camps"], centre).get(centre, []))
    for p in shelf:
        reach = p.r + blackpool.OUTLINE
        if p.x - reach < right or p.x + reach > widget.right or p.y - reach < widget.y or p.y + reach > widget.top:
            found.append(f"{p.id} in the centre's tray lies over the grid or off the board")
    return found


def played_until(seed: int, wanted: Callable[[Session], bool]) -> Session:
    """A seeded four-player game played to the first position ``wanted`` (through the real game's own moves)."""
    session = Session.new("blackpool", ["yellow", "red", "green", "blue"])
    rng = random.Random(seed)
    while not wanted(session):
        assert not session.pending().is_over, "the seeded game ended first"
        session.act(session.game.sim_choose(session.state, session.legal(), rng))
    return session


@functools.cache  # played once: the tests only draw it (read-only)
def two_home() -> Session:
    """Two of a player's travellers home in their camp, side by side on one square (green's a9, top left)."""
    board = blackpool_board()

    def wanted(session: Session) -> bool:
        camps = blackpool.stacks(session.document(), board["camps"], "e5")
        return any(len(camps.get(square, [])) == 2 for square in board["camps"].values())

    return played_until(1, wanted)


@functools.cache  # played once: the tests only draw it (read-only)
def just_home_at_the_top() -> Session:
    """Red's traveller just home in red's camp, i9 at the top right, alone there: ringed white as the last step."""
    return played_until(2, lambda s: bool(s.log) and s.log[-1].get("traveller") == "red-3"
                        and s.document()["travellers"]["red-3"]["at"] == "camp")  # fmt: skip


def blackpool_board() -> dict[str, Any]:
    return Session.new("blackpool", ["yellow", "red"]).game.data["board"]


@pytest.mark.parametrize("scale", [100, 120], ids=lambda scale: f"{scale}%")
@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_every_text_on_blackpools_board_reads_at_16_px_or_more(
    size: tuple[int, int], scale: int, start: Any, window_size: Any  # noqa: F811
) -> None:
    """The table's own board at each display size, at 100% and at the owner's 120%: the opening, halfway, a rider
    on its carrier, a crowd of four, two travellers home in one camp, the end. At 120% and 800x480 the two home
    drew their numbers 5.6 px across and 2.6 px down from each other, read as one number ("13")."""
    middle, board = table_board(start, window_size, size, "blackpool", scale)
    found = []
    for when, session in (
        ("opening", Session.new("blackpool", ["yellow", "red", "green", "blue"])),
        ("halfway", middle),
        ("riding", frozen_and_riding()),
        ("a crowd of four", crowd_of_four()),
        ("two home in a camp", two_home()),
        ("just home at the top", just_home_at_the_top()),
        ("at the end", ended()),
    ):
        drawn = words_drawn(board, session)
        assert len(drawn) >= 20, f"{when}: the board's words were not all read back"
        found += [f"{when}: {fault}" for fault in faults(board, session, drawn)]
    where = f"{board.width:.0f}x{board.height:.0f} board at {size[0]}x{size[1]}, {scale}%"
    assert not found, f"Blackpool's {where}:\n" + "\n".join(found)


@pytest.mark.parametrize("size", NARROW_BOARDS)
def test_a_tall_narrow_board_shows_the_centres_crowd_in_rows_above_the_grid(size: tuple[int, int]) -> None:
    """Where the grid fills the board's width, the row numbers leave no column beside it: the crowd's tray goes
    in rows in the room above the grid instead (all twelve were 6 px there), inside the board, and above the
    room a ring round a piece in the grid's top row takes (it reached 2 px over the tray's lowest row)."""
    window = on_window(size)
    widget = next(window)
    try:
        session = Session.new("blackpool", ["yellow", "red", "green", "blue"])
        drawn = words_drawn(widget, session)
        assert not numbers_unread(widget, session, drawn)
        view = BoardView(session.game, session.document(), [])
        grid = blackpool.grid_for(widget, view)
        shelf = [p for p in blackpool.pieces(widget, view) if p.r >= grid.text / 2]
        top = grid.y0 + 9 * grid.cell + blackpool.overhang(grid.cell)  # a ring round a piece in the top row
        assert len(shelf) == 12 and all(top < p.y - p.r and p.y + p.r < widget.top for p in shelf)
        assert all(widget.x < p.x - p.r and p.x + p.r < widget.right for p in shelf)
    finally:
        next(window, None)


SCALED_BOARDS = [board_at((800, 480), 120), board_at((480, 800), 120)]  # the table's board at 120%: 398x398, 470x398


@pytest.mark.parametrize("size", SCALED_BOARDS, ids=["800x480-120", "480x800-120"])
def test_a_camp_with_all_three_home_reads_its_numbers_on_the_boards_drawn_at_120_percent(
    size: tuple[int, int],
) -> None:
    """The winner's camp at the end: its three discs (23% of a 33 px square) held their numbers at 8 px, half
    the board's 16 px, where the display scale leaves the board 381 px (800x480) or 347 px high (upright)."""
    window = on_window(size)
    widget = next(window)
    try:
        session = ended()
        doc = session.document()
        home = {t["id"] for t in blackpool.travellers(doc) if t["colour"] == "green"}
        assert all(doc["travellers"][t]["at"] == "camp" for t in home), "the seeded game's winner is green"
        drawn = words_drawn(widget, session)
        assert not [fault for fault in numbers_unread(widget, session, drawn) if fault.split("'")[0] in home]
        camp = [d for d in drawn if d.text in "123" and d.x < widget.width / 4 and d.y > widget.height * 0.7]
        assert len(camp) == 3 and not run_together(camp), camp
    finally:
        next(window, None)


DECK_BOARDS = {name: size for name, size in TABLE_BOARDS.items() if name.startswith(("800x480", "480x800"))}


@pytest.mark.parametrize("size", DECK_BOARDS.values(), ids=DECK_BOARDS.keys())
def test_the_decks_counts_are_labelled_and_read_whole_at_16_px_at_100_and_120_percent(size: tuple[int, int]) -> None:
    """Each deck's count is named as the game's texts name the deck, with a capital as the temple's "Pile 9":
    "Charm deck 3, Curse deck 3", or "Charm deck 3" over "Curse deck 3" where one line does not fit. They read
    "charm 3 curse 3", lower-case and not said to be decks; labelled on one line they are 199 px, where four
    players leave the decks 123 px at 800x480. Two to four players, at the start and at a seeded game's end: each
    line whole at 16 px or more, on the board, clear of the other texts. (Four players and the decks are six slots
    in a strip of five a row at 120%: the decks took the one slot left at the first row's end and shrank to 9.9 px
    over an empty second row.)"""
    window = on_window(size)
    widget = next(window)
    try:
        colours, split = ["yellow", "red", "green", "blue"], 0
        for session in (*(Session.new("blackpool", colours[:n]) for n in (2, 3, 4)), ended()):
            drawn = words_drawn(widget, session)
            left = {deck: sum(cards.values()) for deck, cards in session.document()["decks"].items()}
            decks = [d for d in drawn if "deck" in d.text]
            charm, curse = f"Charm deck {left['charm']}", f"Curse deck {left['curse']}"
            assert [d.text for d in decks] in ([f"{charm}, {curse}"], [charm, curse]), decks
            assert min(d.size for d in decks) >= READABLE, decks
            assert len(decks) == 1 or decks[0].y > decks[1].y, "the charm deck's line over the curse deck's"
            split += len(decks) == 2
            strip = blackpool.grid_for(widget, BoardView(session.game, session.document(), [])).strip_h
            assert all(d.y >= -0.5 and d.y + d.h <= strip + 0.5 for d in decks), (strip, decks)
            near = [d for d in drawn if d.y < strip + 0.5]  # the strip's texts: the coins' counts and the decks
            assert not off_board(widget, decks) and not unreadable(near) and not run_together(near), near
        assert split, "four players leave the decks too little room for one line"
    finally:
        next(window, None)


@pytest.mark.parametrize("size", TABLE_BOARDS.values(), ids=TABLE_BOARDS.keys())
def test_stacks_sharing_a_square_keep_their_numbers_apart_at_100_and_120_percent(size: tuple[float, float]) -> None:
    """Two stacks on one square (two travellers home in a camp, two leaving the centre), a carrier with its
    rider, three home: each number read apart from the others, on the board at each display size and scale.

    At 120% and 800x480 (32 px squares) two stacks drew their numbers 5.6 px across and 2.6 px down from
    each other, read as one number ("13")."""
    window = on_window(size)
    widget = next(window)
    try:
        found = []
        for when, session in (("two home in a camp", two_home()), ("a crowd of four", crowd_of_four()),
                              ("riding", frozen_and_riding()), ("at the end", ended())):  # fmt: skip
            view = BoardView(session.game, session.document(), [])
            grid = blackpool.grid_for(widget, view)
            board = session.game.data["board"]
            shared = [s for s, piles in blackpool.stacks(view.document, board["camps"], "e5").items()
                      if s != "e5" and sum(map(len, piles)) > 1]  # fmt: skip
            assert shared or when == "a crowd of four", when
            drawn = words_drawn(widget, session)
            for square in (s for s in board["squares"] if s["id"] in shared):
                x, y = grid.origin(square)
                box = (x - widget.x, y - widget.y, grid.cell, grid.cell)
                numbers = [d for d in drawn if d.inside(box)]
                assert len(numbers) > 1, (when, square["id"], numbers)
                found += [f"{when}, {square['id']}: {fault}" for fault in run_together(numbers) + unreadable(numbers)]
        assert not found, f"{widget.width:.0f}x{widget.height:.0f}:\n" + "\n".join(found)
    finally:
        next(window, None)


def opaque_discs(widget: Any) -> list[tuple[float, float, float]]:
    """(cx, cy, r) of every opaque ``Ellipse`` on the canvas, widget-local: the rings and the round pieces (the
    listed piece's faint glow, drawn see-through, aside)."""
    out, alpha = [], 1.0
    for instruction in widget.canvas.children:
        if isinstance(instruction, Color):
            alpha = instruction.a
        elif isinstance(instruction, Ellipse) and alpha == 1.0:
            (x, y), (w, h) = instruction.pos, instruction.size
            out.append((x + w / 2 - widget.x, y + h / 2 - widget.y, w / 2))
    return out


def covers(disc: tuple[float, float, float], box: tuple[float, float, float, float]) -> bool:
    """Whether a disc reaches into a box (x, y, w, h) by more than half a pixel."""
    cx, cy, r = disc
    nx, ny = min(max(cx, box[0]), box[0] + box[2]), min(max(cy, box[1]), box[1] + box[3])
    return math.hypot(cx - nx, cy - ny) < r - 0.5


@pytest.mark.parametrize("size", TABLE_BOARDS.values(), ids=TABLE_BOARDS.keys())
def test_a_ring_round_a_piece_in_a_top_camp_stays_on_the_board_and_off_the_row_numbers(
    size: tuple[float, float],
) -> None:
    """Red 3 just home in i9's camp, ringed white as the last step (and each other ring): at 120% display scale
    and 800x480 the grid reached the board's top and the ring ran 9 px past it, off the window's edge. Two
    greens home in a9's camp: a ring round the low one lay under the row number "9" beside it."""
    window = on_window(size)
    widget = next(window)
    try:
        found = []
        for session in (just_home_at_the_top(), two_home()):
            board = session.game.data["board"]
            camps = blackpool.stacks(session.document(), board["camps"], "e5")
            ringed = [p["id"] for square in ("a9", "i9") for stack in camps.get(square, []) for p in stack]
            assert ringed
            for tid, kind in itertools.product(ringed, ("last", "focus", "asked", "marked")):
                marks = {"marked": frozenset({tid})} if kind == "marked" else {kind: tid}
                drawn = words_drawn(widget, session, **marks)
                grid = blackpool.grid_for(widget, BoardView(session.game, session.document(), []))
                discs = opaque_discs(widget)
                high = max(cy + r for _, cy, r in discs)
                if high > widget.height + 0.5:
                    found.append(f"{tid} ringed {kind}: a disc runs {high - widget.height:.1f} px past the top")
                rows = [d for d in drawn if d.text in "123456789" and d.x + d.w <= grid.x0 - widget.x + 0.5
                        and d.centre[1] > grid.y0 - widget.y]  # fmt: skip
                assert len(rows) == 9, rows
                found += [f"{tid} ringed {kind}: a disc lies under the row number {d.text}"
                          for d in rows if any(covers(disc, d.ink) for disc in discs)]  # fmt: skip
        assert not found, f"{widget.width:.0f}x{widget.height:.0f}:\n" + "\n".join(found)
    finally:
        next(window, None)


@functools.cache  # played once: the tests only draw it (read-only)
def home_at_the_bottom() -> Session:
    """Blue 3 just home in a1's camp (bottom left), Yellow 1 home in i1's (bottom right) since earlier."""
    return played_until(2, lambda s: bool(s.log) and s.log[-1].get("traveller") == "blue-3"
                        and s.document()["travellers"]["blue-3"]["at"] == "camp")  # fmt: skip


def ring_in(pixels: bytes, widget: Any, box: tuple[float, float, float, float]) -> int:
    """How many pixels in ``box`` (x, y, w, h) are a ring's white, gold or red rather than a light grey letter on
    the dark ground (a letter's edges are greys between the two)."""
    x, y, w, h = box
    seen = 0
    for px in range(max(0, math.floor(x)), min(int(widget.width), math.ceil(x + w))):
        for py in range(max(0, math.floor(y)), min(int(widget.height), math.ceil(y + h))):
            r, g, b = pixel(pixels, widget, px, py)
            seen += max(r, g, b) > 0.85 * 255 + 6 or max(r, g, b) - min(r, g, b) > 24
    return seen


@pytest.mark.parametrize("size", TABLE_BOARDS.values(), ids=TABLE_BOARDS.keys())
def test_a_ring_round_a_piece_in_a_bottom_camp_leaves_the_column_letter_below_it_readable(
    size: tuple[float, float],
) -> None:
    """Blue 3 just home in a1's camp and Yellow 1 in i1's, each ringed in turn (white after its move, gold when
    offered or listed, red when asked about): the ring ran 8 px under the light column letter below it, "a" or
    "i" grey on white. The letters now stand on the dark ground, the ring cut round them; nothing moved or
    shrank (the room for it would have taken the 16 px numbers of three home in a camp at 120% display scale)."""
    window = on_window(size)
    widget = next(window)
    try:
        found, reached = [], 0
        session = home_at_the_bottom()
        board = session.game.data["board"]
        camps = blackpool.stacks(session.document(), board["camps"], "e5")
        ringed = [p["id"] for square in ("a1", "i1") for stack in camps.get(square, []) for p in stack]
        assert {"blue-3", "yellow-1"} <= set(ringed)
        for tid, kind in itertools.product(ringed, ("last", "focus", "asked", "marked")):
            marks = {"marked": frozenset({tid})} if kind == "marked" else {kind: tid}
            drawn = words_drawn(widget, session, **marks)
            grid = blackpool.grid_for(widget, BoardView(session.game, session.document(), []))
            letters = [d for d in drawn if d.text in "abcdefghi" and d.centre[1] < grid.y0 - widget.y]
            assert len(letters) == 9, letters
            under = [d for d in letters if any(covers(disc, d.ink) for disc in opaque_discs(widget))]
            reached += len(under)
            # The board words_drawn drew, read back where a letter has a disc over it: no letter, no picture to read.
            pixels = pixels_of(widget) if under else b""
            found += [f"{tid} ringed {kind}: {seen} px of ring in the letter {d.text!r}"
                      for d in under if (seen := ring_in(pixels, widget, d.ink))]  # fmt: skip
        assert reached, "no ring reached a column letter"
        assert not found, f"{widget.width:.0f}x{widget.height:.0f}:\n" + "\n".join(found)
    finally:
        next(window, None)


def all_home(colour: str) -> tuple[Session, dict[str, Any]]:
    """A four-player start with ``colour``'s three travellers home in its camp, one stack each."""
    session = Session.new("blackpool", ["yellow", "red", "green", "blue"])
    doc = session.document()
    for n in (1, 2, 3):
        doc["travellers"][f"{colour}-{n}"]["at"] = "camp"
        doc["travellers"][f"{colour}-{n}"].pop("on", None)
    return session, doc


def shapes_apart(a: blackpool.Piece, b: blackpool.Piece) -> float:
    """The gap between two pieces' colours, inside their black rims (negative where they overlap): the largest
    gap along any side's normal of either (convex shapes; a disc as a 64-sided polygon)."""

    def outline(p: blackpool.Piece) -> list[tuple[float, float]]:
        points = piece_points(piece_shape(p.colour), p.x, p.y, p.r)
        if points is None:
            return [(p.x + p.r * math.cos(t / 64 * math.tau), p.y + p.r * math.sin(t / 64 * math.tau))
                    for t in range(64)]  # fmt: skip
        return list(zip(points[::2], points[1::2], strict=True))

    shapes = outline(a), outline(b)
    gap = -math.inf
    for shape in shapes:
        for (x1, y1), (x2, y2) in zip(shape, shape[1:] + shape[:1], strict=True):
            nx, ny = y2 - y1, x1 - x2
            length = math.hypot(nx, ny)
            spans = [[(x * nx + y * ny) / length for x, y in s] for s in shapes]
            gap = max(gap, min(spans[1]) - max(spans[0]), min(spans[0]) - max(spans[1]))
    return gap


@pytest.mark.parametrize("size", TABLE_BOARDS.values(), ids=TABLE_BOARDS.keys())
def test_three_red_travellers_home_in_their_corner_camp_lie_apart_and_read_at_16_px(size: tuple[int, int]) -> None:
    """Red's three travellers home in i9, the top right corner: the low two diamonds (a diamond reaches 1.15 times a
    disc's radius) lay 0.56 of a square apart and their red ran 1 px into each other under the rims (37 px squares,
    1.6 px at 705 px). The three now stand staggered, a black rim (1.5 px) at least between any two pieces' colours,
    every shape (green's squares, blue's and yellow's discs too), their numbers still 16 px and read apart."""
    window = on_window(size)
    widget = next(window)
    try:
        for colour, camp in (("red", "i9"), ("green", "a9"), ("blue", "a1"), ("yellow", "i1")):
            session, doc = all_home(colour)
            mine = [p for p in blackpool.pieces(widget, BoardView(session.game, doc, [])) if p.colour == colour]
            assert len(mine) == 3
            found = [f"{a.id} and {b.id}: {gap:.1f} px between their colours"
                     for a, b in itertools.combinations(mine, 2) if (gap := shapes_apart(a, b)) < blackpool.OUTLINE]
            drawn = words_drawn(widget, session, doc)
            numbers = [d for d in drawn if any(abs(d.centre[0] + widget.x - p.x) < 1 and
                                               abs(d.centre[1] + widget.y - p.y) < 1 for p in mine)]  # fmt: skip
            found += [f"{d.text!r} is {d.size:.1f} px" for d in numbers if d.size < READABLE]
            found += run_together(numbers)
            assert len(numbers) == 3, numbers
            assert not found, f"{colour}'s three home in {camp} at {size[0]}x{size[1]}:\n" + "\n".join(found)
    finally:
        next(window, None)


@pytest.mark.parametrize("size", TABLE_BOARDS.values(), ids=TABLE_BOARDS.keys())
def test_the_players_strip_counts_travellers_home_in_pips_12_px_across_and_apart(size: tuple[int, int]) -> None:
    """Each player's pips for travellers home, right of the coin, were 6.4 px across (8.4 with their white rim) on
    the 398 px board, a fifth of the strip's 32 px row: too small to count from a chair, or to tell red's diamond
    from a disc. They are now 12 px across with the rim at least (10 of colour; a 16 px figure is 11.5 px high),
    their white rims apart, clear of the coin and inside the gold frame round the one to play."""
    window = on_window(size)
    widget = next(window)
    try:
        session, doc = all_home("red")
        pips = blackpool.strip_pips(widget, BoardView(session.game, doc, []))
        assert len(pips) == 12
        edge = 1.0  # the pips' white rim, outside their colour
        found = [f"{player}'s pip is {2 * (r + edge):.1f} px across" for player, (_, _, r), _ in pips
                 if 2 * (r + edge) < 12 - 0.01]  # fmt: skip
        for (player, (x1, y1, r1), _), (other, (x2, y2, r2), _) in itertools.combinations(pips, 2):
            if player == other and math.hypot(x1 - x2, y1 - y2) < r1 + r2 + 2 * edge:
                found.append(f"{player}'s pips at {x1:.0f},{y1:.0f} and {x2:.0f},{y2:.0f} touch")
        for player, (x, y, r), (sx, sy, w, h) in pips:
            u = min(h, w / blackpool.PLAYER_W)
            coin = (sx + u * blackpool.COIN[0], sy + h / 2, u * blackpool.COIN[1] + edge)
            if math.hypot(x - coin[0], y - coin[1]) < r + edge + coin[2]:
                found.append(f"{player}'s pip at {x:.0f},{y:.0f} touches the coin")
            reach = r + edge
            if x - reach < sx + 3.5 or x + reach > sx + w - 3.5 or y - reach < sy + 3.5 or y + reach > sy + h - 3.5:
                found.append(f"{player}'s pip at {x:.0f},{y:.0f} reaches the slot's gold frame")
        assert not found, f"at {size[0]}x{size[1]}:\n" + "\n".join(found)
    finally:
        next(window, None)


def column_i_beside_the_crowd() -> tuple[Session, dict[str, Any]]:
    """A four-player start with eight travellers still in the centre (its tray beside the grid) and four on the
    grid's right column level with it: Yellow 1 alone on i5, Red 1 and Green 1 on i6, Blue's three on i4."""
    session = Session.new("blackpool", ["yellow", "red", "green", "blue"])
    doc = session.document()
    for tid, square in {"yellow-1": "i5", "red-1": "i6", "green-1": "i6", "blue-1": "i4", "blue-2": "i4",
                        "blue-3": "i4"}.items():  # fmt: skip
        doc["travellers"][tid]["at"] = square
    return session, doc


def apart_from(disc: tuple[float, float, float], box: tuple[float, float, float, float]) -> float:
    """How far a disc's edge lies from a box (x, y, w, h), negative where it reaches in."""
    cx, cy, r = disc
    nx, ny = min(max(cx, box[0]), box[0] + box[2]), min(max(cy, box[1]), box[1] + box[3])
    return math.hypot(cx - nx, cy - ny) - r


@pytest.mark.parametrize("size", TABLE_BOARDS.values(), ids=TABLE_BOARDS.keys())
def test_a_ring_round_a_piece_in_column_i_stays_clear_of_the_centres_tray(size: tuple[float, float]) -> None:
    """Each piece on i4, i5 and i6 ringed in turn (each kind of ring), the centre's tray level with them: the
    tray stood in a margin as wide as the row numbers', its white rim 0.8 px off the grid at 800x480, and the
    rings ran up to 12 px over it (13 at 1024x600, 16 at 720x1280). Now every ring's black edge stays 2 px or
    more from the tray's rim (3.4 at 800x480), the grid's squares 36 px where they were 37."""
    window = on_window(size)
    widget = next(window)
    try:
        session, doc = column_i_beside_the_crowd()
        board = session.game.data["board"]
        view = BoardView(session.game, doc, [])
        grid = blackpool.grid_for(widget, view)
        shelf = blackpool.tray(widget, grid, board, blackpool.stacks(doc, board["camps"], "e5")["e5"])
        assert shelf and all(p.x > grid.x0 + 9 * grid.cell for p in shelf)
        left = min(p.x - blackpool.extent(p.colour, p.r) for p in shelf) - 2 - widget.x
        bottom = min(p.y - blackpool.extent(p.colour, p.r) for p in shelf) - 2 - widget.y
        top = max(p.y + blackpool.extent(p.colour, p.r) for p in shelf) + 2 - widget.y
        rim = (left, bottom, widget.width - left, top - bottom)
        grid_right = grid.x0 + 9 * grid.cell - widget.x
        found = []
        for tid, kind in itertools.product(("yellow-1", "red-1", "green-1", "blue-1", "blue-2", "blue-3"),
                                           ("last", "focus", "asked", "marked")):  # fmt: skip
            marks = {"marked": frozenset({tid})} if kind == "marked" else {kind: tid}
            draw(widget, session, doc, **marks)
            near = [apart_from(d, rim) for d in opaque_discs(widget) if d[0] < grid_right]
            if min(near) < 2.0:
                found.append(f"{tid} ringed {kind}: {min(near):.1f} px from the tray's rim")
        assert not found, f"{widget.width:.0f}x{widget.height:.0f}:\n" + "\n".join(found)
    finally:
        next(window, None)
