"""The desert lap race drawing, rendered in the real offscreen window and checked pixel by pixel."""

from __future__ import annotations

import copy
import json
import math
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from unittest.mock import patch

import pytest
from kivy.graphics import Color, Mesh
from kivy.uix.widget import Widget

from companion.data import house_dir, read_json, validate_path
from companion.registry import game_classes
from companion.session import Session
from tests.ui.drawing import Words, on_window, pixel, pixels_of, quads, render, words_drawn
from tests.ui.test_boards_robust import board_at
from ui.boards import BoardView, desert, has_drawing, paint
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
    """The middle of a space's pawn row (under its number), and the space's side."""
    x, y, cell, _ = space_box(widget, session, index)
    spaces = session.game.data["board"]["spaces"]
    bottom, top = desert.ring_layout(spaces, cell).pawn_band(spaces[index], y, cell, crowded=False)
    return x + cell / 2, (bottom + top) / 2, cell


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


@pytest.mark.parametrize("size", [(390, 390), (660, 660), (1003, 1003)])
def test_every_space_shows_its_number_and_a_large_board_a_word_of_its_name(
    canvas: Widget, size: tuple[int, int]
) -> None:
    """Each space shows its number on the loop, on no other space, at 16 px; where a space is large enough
    (1920x1080's 1003 px board) it also shows the word of its name no other space shares, as before."""
    canvas.size = size
    session = Session.new("desert", ["black", "pink", "teal"])
    drawn = words_drawn(canvas, session)
    spaces = session.game.board.spaces
    for space in spaces:
        here = [d for d in drawn if d.inside(space_box(canvas, session, space.index))]
        numbers = [d for d in here if d.text == str(space.index)]
        assert len(numbers) == 1 and numbers[0].size >= 16, (space.name, [d.text for d in here])
        assert [d.text for d in drawn].count(str(space.index)) == 1, space.index
        word = word_of(space.name, here)
        if size[0] < 1000:
            assert word is None, (space.name, word)  # 8 to 10 px in a 36 px space: left to the number
            continue
        assert word is not None and word.size >= 16, (space.name, [d.text for d in here])
        others = [s.name for s in spaces if s is not space and word.text in s.name.split()]
        assert not others, (space.name, word.text, others)


def test_a_crowded_space_keeps_its_number(canvas: Widget) -> None:
    """Six pawns on Desert Dawn take most of the space; its number stays on top, 16 px."""
    canvas.size = (390, 390)
    session = Session.new("desert", ["black", "purple", "pink", "brown", "grey", "teal"])
    here = [d for d in words_drawn(canvas, session) if d.inside(space_box(canvas, session, 0))]
    assert [(d.text, d.size) for d in here] == [("0", 16.0)]


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


def test_short_names_skip_dashes_marks_and_small_words_of_a_cafes_language() -> None:
    """A café's names were drawn as "—" and "·" (the marks between words), or "der" and "am" (its small words)."""
    spaces = [
        {"id": "a", "name": "Hafen — Ostmole"},
        {"id": "b", "name": "Hafen — Westmole"},
        {"id": "c", "name": "Oase · Brunnen (Nord)"},
        {"id": "d", "name": "Oase · Palmen"},
        {"id": "e", "name": "— · —"},
        {"id": "f", "name": "Quelle der Stille"},
        {"id": "g", "name": "Tor am Meer"},
        {"id": "h", "name": "puits du désert"},
    ]
    assert desert.short_names(spaces) == {
        "a": "Ostmole",
        "b": "Westmole",
        "c": "Nord",  # without its brackets
        "d": "Palmen",
        "e": "— · —",  # nothing to pick: the whole name
        "f": "Quelle",  # a capitalised word before the shorter small word "der"
        "g": "Tor",  # not "am"
        "h": "du",  # no capital anywhere: the shortest word of its own
    }


def ink_pixels(pixels: bytes, widget: Widget, box: Words, ink: tuple[float, float, float]) -> int:
    """How many pixels inside a drawn word's rectangle are (near) the word's own ink colour."""
    want = tuple(round(c * 255) for c in ink)
    count = 0
    for y in range(int(box.y) + 1, int(box.y + box.h) - 1):
        for x in range(int(box.x) + 1, int(box.x + box.w) - 1):
            if max(abs(a - b) for a, b in zip(pixel(pixels, widget, x, y), want, strict=True)) < 60:
                count += 1
    return count


def drawn_with_words(widget: Widget, view: BoardView) -> tuple[bytes, list[tuple[int, Words]]]:
    """The desert drawing of ``view``: its pixels, and each word with its place in the canvas and its rectangle."""
    made: dict[int, Any] = {}

    class Remembered(paint.CoreLabel):  # type: ignore[misc, valid-type]
        def refresh(self) -> None:
            super().refresh()
            made[id(self.texture)] = self

    widget.canvas.clear()
    with patch.object(paint, "CoreLabel", Remembered):
        desert.draw(widget, view)
    drawn = [  # a text alone or in a mesh of the texts sharing its texture
        (k, Words(str(made[id(i.texture)].text), x - widget.x, y - widget.y, w, h))
        for k, i in enumerate(widget.canvas.children)
        if id(getattr(i, "texture", None)) in made and made[id(i.texture)].text
        for x, y, w, h in quads(i)
    ]
    return bytes(widget.export_as_image().texture.pixels), drawn


def frames_in(widget: Widget, box: tuple[float, float, float, float]) -> list[int]:
    """Places in the canvas of the marks' dark rims (a mesh of every mark's, in the rims' colour) on a space."""
    x, y, w, h = box
    out, colour = [], None
    for k, instruction in enumerate(widget.canvas.children):
        if isinstance(instruction, Color):
            colour = tuple(round(c, 3) for c in instruction.rgba)
        elif isinstance(instruction, Mesh) and colour == desert.DARK_RIM:
            v = instruction.vertices
            corners = [(v[i] - widget.x, v[i + 1] - widget.y) for i in range(0, len(v), 4)]
            if any(x < cx < x + w and y < cy < y + h for cx, cy in corners):
                out.append(k)
    return out


def test_marked_and_tapped_spaces_keep_their_words_readable(canvas: Widget) -> None:
    """A Desert Vortex marks every space; the one tapped is filled in gold. Their words must still show.

    The gold frame was drawn over the space's labels: every marked space lost
    the top of its type label and the foot of its name, and the tapped space
    became a plain gold square, so the player could not see which space the
    list below was about. Now the words lie on top of the marks.
    """
    canvas.size = (398, 398)  # the board at 800x480
    session = Session.new("desert", ["black", "pink", "teal"])
    spaces = session.game.data["board"]["spaces"]
    tapped = next(s for s in spaces if s["type"] == "life")  # black words on orange, as in the screenshot
    _, plain_words = drawn_with_words(canvas, BoardView(session.game, session.document()))
    every = frozenset(s["id"] for s in spaces)
    view = BoardView(session.game, session.document(), marked=every, focus=tapped["id"])
    marked_pixels, marked_words = drawn_with_words(canvas, view)
    assert [w.text for _, w in marked_words] == [w.text for _, w in plain_words]
    for space in spaces:
        box = space_box(canvas, session, space["index"])
        words = [k for k, w in marked_words if w.inside(box)]
        frames = frames_in(canvas, box)
        assert words and frames, space["name"]
        assert max(frames) < min(words), f"{space['name']}: its gold frame is drawn over its words"
    box = space_box(canvas, session, tapped["index"])
    for _, word in marked_words:
        if word.inside(box):  # the tapped space's words are as dark as the plain drawing's: seen, not covered
            assert ink_pixels(marked_pixels, canvas, word, (0, 0, 0)) >= 3, word.text


def test_the_order_roll_off_is_headed_without_a_round_number(canvas: Widget) -> None:
    """Before the first round the panel read "Round  -  -  roll for order", dashes where a number belongs."""
    canvas.size = (390, 390)
    session = Session.new("desert", ["black", "purple", "pink"])
    headers = [d.text for d in words_drawn(canvas, session) if "order" in d.text]
    assert headers == ["Roll for order"]
    for value in (6, 2, 1):  # the roll-off: Black's 6 is highest, and Black starts round 1
        session.act({"type": "roll", "value": value})
    headers = [d.text for d in words_drawn(canvas, session) if "Round" in d.text or "order" in d.text]
    assert headers == ["Round 1  -  Black to play"]


def luminance(rgb_pixel: tuple[int, int, int]) -> float:
    r, g, b = rgb_pixel
    return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255


@pytest.mark.parametrize("kind, mark", [("collection", "asked"), ("scared", "marked"), ("secret_passage", "marked")])
def test_a_mark_shows_on_a_space_of_its_own_colour(canvas: Widget, kind: str, mark: str) -> None:
    """An item space tapped "why not here?" was edged red on red, and a gold mark on a yellow space was gold on
    gold: the table could not see which space the answer or the choice was about."""
    canvas.size = (390, 390)
    session = Session.new("desert", ["black", "pink", "teal"])
    space = next(s for s in session.game.data["board"]["spaces"] if s["type"] == kind)
    index = next(i for i, s in enumerate(session.game.data["board"]["spaces"]) if s is space)
    doc = session.document()
    plain = render(canvas, session, doc)
    canvas.canvas.clear()
    marks = {"asked": space["id"]} if mark == "asked" else {"marked": frozenset({space["id"]})}
    desert.draw(canvas, BoardView(session.game, doc, [], **marks))
    shown = bytes(canvas.export_as_image().texture.pixels)
    x, y, cell, _ = space_box(canvas, session, index)
    contrast = max(
        abs(luminance(pixel(shown, canvas, px, py)) - luminance(pixel(plain, canvas, px, py)))
        for px in range(int(x) + 1, int(x + cell) - 1)
        for py in range(int(y) + 1, int(y + cell) - 1)
    )
    assert contrast >= 0.2, f"the {mark} {kind} space's frame differs from the space by {contrast:.2f} in brightness"


def test_a_cafe_space_is_drawn_in_the_colour_its_board_prints(canvas: Widget, tmp_path) -> None:
    """A café's Mystery spaces printed purple were drawn in the rules' blue, so players looked for a blue space."""
    import json

    from companion.data import house_dir, read_json
    from companion.errors import InvalidData
    from companion.games.desert.rules import DesertRace

    board = read_json(house_dir(DesertRace) / "board.json")
    mystery = next(i for i, s in enumerate(board["spaces"]) if s["type"] == "mystery")
    board["spaces"][mystery]["colour"] = "#6a1b9a"
    (tmp_path / "desert").mkdir()
    (tmp_path / "desert" / "board.json").write_text(json.dumps(board), encoding="utf-8")
    session = Session.new("desert", ["black", "pink"], cafe_dir=tmp_path)
    canvas.size = (650, 650)
    pixels = render(canvas, session)
    x, y, cell, _ = space_box(canvas, session, mystery)
    assert pixel(pixels, canvas, x + cell * 0.1, y + cell * 0.5) == (0x6A, 0x1B, 0x9A)
    assert desert.space_ink(board["spaces"][mystery]) == (1, 1, 1)  # white words on the dark purple
    board["spaces"][mystery]["colour"] = "#6a1b9"
    (tmp_path / "desert" / "board.json").write_text(json.dumps(board), encoding="utf-8")
    with pytest.raises(InvalidData, match="'#6a1b9' is not a colour written #rrggbb"):
        Session.new("desert", ["black", "pink"], cafe_dir=tmp_path)


def long_loop(cafe: Path, extra: int) -> Path:
    """A café board of 40 + ``extra`` spaces: the house loop with plain spaces of new names put in after space 19."""
    board = read_json(house_dir(game_classes()["desert"]) / "board.json")
    plain = [s for s in board["spaces"] if s["type"] in ("safe", "life", "mystery", "collection", "scared", "trade")]
    added = [
        {**plain[i % len(plain)], "id": f"added_{i}", "name": f"Crossing {chr(65 + i % 26)}{i // 26 or ''}"}
        for i in range(extra)
    ]
    board["spaces"] = board["spaces"][:20] + added + board["spaces"][20:]
    for i, space in enumerate(board["spaces"]):
        space["index"] = i
    (cafe / "desert").mkdir(parents=True, exist_ok=True)
    (cafe / "desert" / "board.json").write_text(json.dumps(board), encoding="utf-8")
    assert validate_path(cafe, game_classes()) == []
    return cafe


@pytest.mark.parametrize("size", [(398, 398), (470, 422)])  # the board at 800x480 and upright at 480x800
def test_a_long_cafe_loop_drops_the_words_it_cannot_fit_and_shows_numbers(
    canvas: Widget, size: tuple[int, int], tmp_path: Path
) -> None:
    """A 72-space café loop left 20 px spaces, every word on them shrunk to 6 px and cut: none could be read.
    A space too small for a readable word shows its number (board.json's ``index``) instead; none is smaller."""
    canvas.size = size
    session = Session.new("desert", ["black", "pink"], cafe_dir=long_loop(tmp_path / "cafe", 32))
    spaces = session.game.board.spaces
    assert len(spaces) == 72
    drawn = words_drawn(canvas, session)
    numbered = 0
    for space in spaces:
        box = space_box(canvas, session, space.index)
        assert box[2] < 24, box  # 20-23 px spaces
        here = [d for d in drawn if d.inside(box)]
        assert all(d.h >= 9 and d.cut < 0.5 for d in here), (space.name, here)  # an 8 px font or larger, whole
        numbered += any(d.text == str(space.index) for d in here)
        assert word_of(space.name, here) or any(d.text == str(space.index) for d in here), (space.name, here)
    assert numbered > 60
    house = Session.new("desert", ["black", "pink"])  # the house loop of 40 keeps every number at 16 px
    drawn = words_drawn(canvas, house)
    for space in house.game.board.spaces:
        here = [d for d in drawn if d.inside(space_box(canvas, house, space.index))]
        assert [(d.text, d.size) for d in here] == [(str(space.index), 16.0)], space.name


def colour_pixels(pixels: bytes, widget: Widget, colour: tuple[float, float, float], band: float) -> int:
    """How many pixels in ``colour`` lie in the board's top, right or bottom band ``band`` px wide: the ring and
    the lane inside it, clear of the players' panel's discs at its left."""
    want = bytes(round(c * 255) for c in colour)
    width, height = int(widget.width), int(widget.height)
    return sum(
        pixels[(row * width + x) * 4 : (row * width + x) * 4 + 3] == want
        for row in range(height)
        for x in range(width)
        if x >= width - band or row < band or row >= height - band
    )


@pytest.mark.parametrize("size", [(398, 398), (470, 422)])  # the board at 800x480 and upright at 480x800
def test_pawns_on_a_long_cafe_loop_can_be_told_apart(canvas: Widget, size: tuple[int, int], tmp_path: Path) -> None:
    """On a 72-space loop (21 px spaces at 800x480) a pawn was 7 px across its colour, three on a space 5 px: from
    the chairs, rims with a dot inside. A pawn there is now as big as a lone pawn on the house loop (12 px across),
    and pawns sharing a space fan into a lane inside the ring, each showing its colour."""
    canvas.size = size
    session = Session.new(
        "desert", ["black", "purple", "pink", "brown", "grey", "teal"], cafe_dir=long_loop(tmp_path / "cafe", 32)
    )
    document = copy.deepcopy(session.document())
    spaces = [space.id for space in session.game.board.spaces]
    where = {"black": 45, "purple": 45, "pink": 45, "brown": 27, "grey": 60, "teal": 60}  # right, top, bottom
    for player, index in where.items():
        document["pieces"][player]["space"] = spaces[index]
    document["turn"] = "purple"  # haloed, in the middle of a stack
    pixels = render(canvas, session, document)
    cell = space_box(canvas, session, 0)[2]
    for player, index in where.items():
        seen = colour_pixels(pixels, canvas, rgb(player), cell * desert.PAWN_LANE)
        assert seen >= (90 if index == 27 else 35), (player, seen)
    document["pieces"] = {p: {**piece, "space": spaces[0]} for p, piece in document["pieces"].items()}
    pixels = render(canvas, session, document)  # all six on the start, a corner: a crescent of each at least
    band = int(cell * desert.PAWN_LANE)
    corner = {bytes(pixels[(row * size[0] + x) * 4 : (row * size[0] + x) * 4 + 3])
              for row in range(size[1] - band, size[1]) for x in range(band)}  # fmt: skip
    assert all(bytes(round(c * 255) for c in rgb(player)) in corner for player in where)


def test_the_texts_give_each_space_they_name_the_number_the_ring_shows() -> None:
    """At 800x480 the ring shows numbers, not names: "Rolled 3: move to Twin Dunes" could not be found on it.
    Every prompt, button and announcement of a seeded game that names a space gives its number beside the name,
    the number drawn in that space ("Twin Dunes (11)"; a Vortex choice "Cobra Pit (27, scared)")."""
    session = Session.new("desert", ["black", "pink", "teal"])
    spaces = {s.name: s.index for s in session.game.board.spaces}
    names = "|".join(re.escape(n) for n in sorted(spaces, key=len, reverse=True))
    pattern = re.compile(rf"({names})( \((\d+)[,)])?")
    rng = random.Random(2)
    seen = 0
    for _ in range(300):
        legal = session.legal()
        if session.pending().is_over or not legal:
            break
        texts = [session.pending().text, *(str(a.get("text")) for a in legal)]
        result = session.act(session.game.sim_choose(session.state, legal, rng))
        for text in texts + [e.text for e in result.events]:
            for m in pattern.finditer(text):
                seen += 1
                assert m[3] is not None and int(m[3]) == spaces[m[1]], (text, m[0])
    assert seen > 100, seen


def test_the_framed_spaces_words_stay_inside_their_red_frame_on_a_large_board(canvas: Widget) -> None:
    """At 1920x1080 the Secret Passage's "37" and "SP" and the Guardian's Test's "6!" stood against the space's
    sides, where the red frame ran through them ("6!" read "6"): their words now stand inside the frame."""
    canvas.size = (1003, 1003)  # the board at 1920x1080
    session = Session.new("desert", ["black", "pink"])
    drawn = words_drawn(canvas, session)
    spaces = session.game.data["board"]["spaces"]
    framed = [s for s in spaces if desert.framed(s)]
    assert len(framed) == 2
    for space in framed:
        x, y, cell, _ = space_box(canvas, session, space["index"])
        edge = 3 + desert.frame_width(cell) / 2 + 0.5  # the frame's inner edge, from the space's side
        here = [d for d in drawn if d.inside((x, y, cell, cell))]
        assert {d.text for d in here} >= {str(space["index"]), desert.space_label(space)}, here
        for d in here:
            assert x + edge <= d.x and d.x + d.w <= x + cell - edge, (space["name"], d)
            assert y + edge <= d.y and d.y + d.h <= y + cell - edge, (space["name"], d)


def test_each_players_row_says_what_the_text_view_says_of_the_race(canvas: Widget) -> None:
    """'lap done' read as finished at a lap race: a row says what the runner still needs, the winner's 'won'."""
    canvas.size = (398, 398)
    session = Session.new("desert", ["black", "pink", "teal"])
    doc = copy.deepcopy(session.document())
    doc["pieces"]["black"].update(space="crumbling_stairs", lap=True, items=["golden_compass"])
    doc["pieces"]["pink"].update(space="crumbling_stairs", lap=True)
    doc["pieces"]["teal"].update(space="crumbling_stairs", items=["golden_compass"])
    texts = [d.text for d in words_drawn(canvas, session, doc)]
    assert {"14 to go", "needs Compass", "lap 23/40"} <= set(texts) and "lap done" not in texts, texts
    doc["pieces"]["black"]["space"], doc["winner"] = "secret_passage", "black"
    assert "won" in [d.text for d in words_drawn(canvas, session, doc)]


@pytest.mark.parametrize("area", [(0, 0), (0, 398), (398, 0), (398, 398)])
@pytest.mark.parametrize("n", [12, 40, 72])
def test_the_ring_has_a_slot_for_every_space_in_any_area(n: int, area: tuple[int, int]) -> None:
    """The table's board is 0 px high for a frame while the table lays out: the ring was 3x3 there, and the drawing
    failed at the ninth space (logged as "Board: drawing failed, showing text")."""
    cols, rows = desert.ring_shape(n, *area)
    assert len(desert.ring_slots(cols, rows)) >= n


FRAME_RGB = (191, 13, 13)  # the red frame round the Guardian's Test and the Secret Passage, in 8 bits


def frame_pixels(pixels: bytes, widget: Widget, box: tuple[float, float, float, float]) -> list[tuple[int, int]]:
    """The pixels in the frame's red within ``box`` (x, y, w, h, widget-local), the board's edges aside."""
    x, y, w, h = box
    return [(px, py) for px in range(max(0, math.floor(x)), min(int(widget.width), math.ceil(x + w)))
            for py in range(max(0, math.floor(y)), min(int(widget.height), math.ceil(y + h)))
            if max(abs(a - b) for a, b in zip(pixel(pixels, widget, px, py), FRAME_RGB, strict=True)) < 40]  # fmt: skip


# the table's board at 800x480 (398x398 at 100% and 120%) and upright at 480x800 at 100% and 120%
@pytest.mark.parametrize("size", [board_at((800, 480)), board_at((480, 800)), board_at((480, 800), 120)])
def test_the_red_frame_runs_through_no_number_on_a_long_cafe_loop(
    canvas: Widget, size: tuple[float, float], tmp_path: Path
) -> None:
    """On a 72-space loop (21-23 px spaces at 800x480 and upright, at 100% and 120%) a framed space's 16 px number
    is 18 px wide, and the red frame 3 px inside the space's sides ran through its figures ("63", "69"); on the
    house loop (36 px spaces) it ran along the tops of "31". The frame now keeps clear of the figures, on the
    space's rim where they leave no room inside, and still shows all round the space."""
    canvas.size = size
    for session in (Session.new("desert", ["black", "pink"], cafe_dir=long_loop(tmp_path / "cafe", 32)),
                    Session.new("desert", ["black", "pink"])):  # fmt: skip
        drawn = words_drawn(canvas, session)
        pixels = pixels_of(canvas)  # the board words_drawn drew
        spaces = session.game.data["board"]["spaces"]
        framed = [s for s in spaces if desert.framed(s)]
        assert len(framed) == 2
        for space in framed:
            box = space_box(canvas, session, space["index"])
            number = next(d for d in drawn if d.inside(box) and d.text == str(space["index"]))
            assert number.size >= 16, number
            red = frame_pixels(pixels, canvas, number.ink)
            assert not red, f"{len(spaces)} spaces at {size}: the frame runs through {number.text!r} at {red[:4]}"
            rim = frame_pixels(pixels, canvas, (box[0] - 1, box[1] - 1, box[2] + 2, box[3] + 2))
            assert len(rim) >= 3 * box[2], f"{space['name']} at {size}: its red frame is {len(rim)} px"
