"""Home's players' buttons: a picked colour keeps its own colour, says its place in the turn order, and reads.

Every picked colour lit the same yellow, so a family that tapped red, blue and
green saw three yellow buttons and could not tell from them who was picked.
"""

from __future__ import annotations

from typing import Any

import pytest

from companion.colours import APART, contrast, delta_e, ink, piece_rgb
from companion.registry import game_classes
from tests.ui.conftest import advance, tap
from tests.ui.test_app import button
from tests.ui.test_layout import window_box

pytestmark = pytest.mark.usefixtures("undrawn")  # texts, sizes and states are read, never the window's pixels

RGB = tuple[float, float, float]
READS = 4.5  # WCAG AA contrast for text; a frame wants 3


def pixel(image: Any, x: float, y: float) -> RGB:
    """The colour shown at (x, y), window coordinates, in a screen's ``export_as_image`` (rows run from the top)."""
    texture = image.texture
    data = texture.pixels
    i = ((texture.height - 1 - int(y)) * texture.width + int(x)) * 4
    return data[i] / 255, data[i + 1] / 255, data[i + 2] / 255


def close(one: RGB, two: RGB) -> bool:
    return delta_e(one, two) < 2  # the fill as drawn, up to rounding to 8 bits


def home_of(start: Any) -> Any:
    app = start()
    app.show("home")
    advance(4)
    return app.root.get_screen("home")


@pytest.mark.parametrize("game_id", sorted(game_classes()))
def test_a_picked_colour_keeps_its_colour_and_shows_its_place_in_the_turn_order(start: Any, game_id: str) -> None:
    """Every colour of every game, all picked in turn: each button is filled with its own piece colour, framed
    and labelled in an ink that reads on it (4.5:1 at least), and leads with its place, 1, 2, 3..."""
    home = home_of(start)
    home.pick_game(game_id)
    advance(3)
    colours = game_classes()[game_id].colours
    for colour in colours:
        tap(button(home.ids.colours, colour.capitalize()))
    assert home.players == list(colours)
    image = home.export_as_image()
    fills = []
    for place, colour in enumerate(colours, 1):
        picked = button(home.ids.colours, f"{place}. {colour.capitalize()}")
        assert picked.state == "down"
        left, bottom, right, top = window_box(picked)
        fill = pixel(image, left + (right - left) / 2, bottom + (top - bottom) * 0.15)  # under the words
        paint = piece_rgb(colour)
        assert close(fill, paint), f"{game_id}: {colour} picked shows {fill}, not its colour {paint}"
        words = tuple(picked.color[:3])
        assert words == ink(paint) and contrast(words, paint) >= READS, f"{colour}: its words do not read"
        rim = pixel(image, left + (right - left) / 2, bottom + 4)  # the frame that says it is picked
        assert close(rim, words), f"{game_id}: {colour} picked has no frame ({rim})"
        fills.append(fill)
    for i, one in enumerate(fills):  # and no two picked look alike
        assert all(delta_e(one, two) >= APART for two in fills[i + 1 :])


def test_a_colour_not_picked_shows_a_swatch_and_a_colour_taken_out_moves_the_others_up(start: Any) -> None:
    """Before a tap each colour shows a swatch of itself on a grey button; taking the first out of red, blue,
    green makes blue 1 and green 2."""
    home = home_of(start)
    home.pick_game("blackpool")
    advance(3)
    image = home.export_as_image()
    for colour in ("yellow", "red", "green", "blue"):
        left, bottom, right, top = window_box(button(home.ids.colours, colour.capitalize()))
        swatch = pixel(image, left + 11, bottom + (top - bottom) / 2)  # the bar at the left
        assert close(swatch, piece_rgb(colour)), f"{colour}: no swatch ({swatch})"
        assert close(pixel(image, (left + right) / 2, bottom + 4), (0.25, 0.25, 0.3))  # grey: not picked
    for colour in ("Red", "Blue", "Green"):
        tap(button(home.ids.colours, colour))
    tap(button(home.ids.colours, "1. Red"))
    assert home.players == ["blue", "green"]
    assert button(home.ids.colours, "1. Blue") and button(home.ids.colours, "2. Green")
    assert button(home.ids.colours, "Red").state == "normal"
