"""The words on the boards' pieces, squares, spaces and chips read from a chair: 4.5 to 1 or more on their colour.

The boards chose black or white by a brightness rule (0.3 R + 0.59 G + 0.11 B
over a half) and put white numbers on the green pieces (2.8 to 1), the teal
ones (3.3), Targi's oasis band (2.9), the desert race's swap spaces (3.7) and
Blackpool's third ring (4.1). Every board now takes ``companion.colours.ink``,
black or white by the WCAG contrast ratio, as home does. Each text is read
back from the canvas with the colour it is drawn in (``words_drawn``) and the
colour around it from the drawn pixels.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from kivy.uix.widget import Widget

from companion.colours import RGB, contrast, hex_code, piece_rgb
from companion.registry import game_classes
from companion.session import Session
from tests.ui.drawing import Words, on_window, pixel, words_drawn
from ui.boards.paint import ink_for
from ui.shots import MAX_STEPS

GAMES = ("blackpool", "temple", "targi", "desert", "ttd")
READS = 4.5  # WCAG AA for text
BLACK_OR_WHITE = ((0.0, 0.0, 0.0), (1.0, 1.0, 1.0))


@pytest.fixture
def canvas() -> Iterator[Widget]:
    yield from on_window((398, 398))  # the board beside the choices at 800x480


def ground(pixels: bytes, widget: Any, words: Words) -> RGB:
    """The colour most of the text's rectangle shows apart from the text itself: what the words stand on."""
    ink = tuple(round(c * 255) for c in words.colour)
    seen: Counter[tuple[int, int, int]] = Counter()
    for x in range(max(0, int(words.x)), min(int(widget.width), int(words.x + words.w))):
        for y in range(max(0, int(words.y)), min(int(widget.height), int(words.y + words.h))):
            here = pixel(pixels, widget, x, y)
            if sum(abs(a - b) for a, b in zip(here, ink, strict=True)) > 120:  # the letters and their soft edges
                seen[here] += 1
    best = seen.most_common(1)[0][0] if seen else (128, 128, 128)
    return best[0] / 255, best[1] / 255, best[2] / 255


def poor(widget: Widget, session: Session) -> list[str]:
    """Each black or white text (the ones a board chooses by the colour under them) under 4.5 to 1 on its ground."""
    drawn = words_drawn(widget, session)
    pixels = bytes(widget.export_as_image().texture.pixels)
    out = []
    for words in drawn:
        if words.colour not in BLACK_OR_WHITE:
            continue
        under = ground(pixels, widget, words)
        ratio = contrast(words.colour, under)
        if ratio < READS:
            ink = "black" if words.colour == BLACK_OR_WHITE[0] else "white"
            out.append(f"{words.text!r} {ink} on {hex_code(under)}: {ratio:.2f} to 1")
    return out


def every_colour_halfway(game: str, seed: int = 7) -> Session:
    """Halfway through a seeded game played by as many of the game's colours as it takes: every colour's pieces out."""
    cls = game_classes()[game]
    players = list(cls.colours[: cls.max_players])
    rng, trial = random.Random(seed), Session.new(game, players)
    for _ in range(MAX_STEPS):
        legal = trial.legal()
        if trial.pending().is_over or not legal:
            break
        trial.act(trial.game.sim_choose(trial.state, legal, rng))
    session = Session.new(game, players)
    for action in trial.log[: len(trial.log) // 2]:
        session.act(action)
    return session


@pytest.mark.parametrize("game", GAMES)
def test_every_colour_of_every_game_takes_words_at_4_5_to_1(game: str) -> None:
    """The words a board puts on a player's pieces (``ink_for``) read at 4.5 to 1 on each of the game's colours."""
    for colour in game_classes()[game].colours:
        assert contrast(ink_for(colour), piece_rgb(colour)) >= READS, colour


@pytest.mark.parametrize("game", GAMES)
def test_every_text_a_board_draws_on_a_colour_reads_at_4_5_to_1(canvas: Widget, game: str) -> None:
    """Halfway through a game of all its colours (pieces out, numbered), no black or white text is under 4.5 to 1."""
    session = every_colour_halfway(game)
    checked = [w for w in words_drawn(canvas, session) if w.colour in BLACK_OR_WHITE]
    assert checked, f"{game}: no black or white text drawn"
    problems = poor(canvas, session)
    assert not problems, f"{game}: " + "; ".join(problems)
