"""How each player colour shows on the button box's lights: which light, steady or blinking.

An RGB LED without PWM shows seven colours, and a café wires one LED per colour
for only some colours (red, green, blue and yellow by default), while the games
bring twelve: the desert race's teal, brown or grey had no LED of their own and
left every light off, and in RGB mode black, grey, brown and teal all showed
white. So each colour has a list of signals to try, nearest first, and a game's
colours are given signals together, so two players of one game never share one.
Pure: no gpiozero here, so the mapping is checked and documented on its own.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import NamedTuple

# Seconds on, seconds off; None: steady. A blink is half on; a wink a short flash, mostly dark, as black is.
PATTERNS: dict[str, tuple[float, float] | None] = {"steady": None, "blink": (0.5, 0.5), "wink": (0.15, 0.85)}

# The seven colours of an RGB LED whose channels are only on or off.
RGB_LIGHTS: dict[str, tuple[int, int, int]] = {
    "red": (1, 0, 0),
    "green": (0, 1, 0),
    "blue": (0, 0, 1),
    "yellow": (1, 1, 0),
    "magenta": (1, 0, 1),
    "cyan": (0, 1, 1),
    "white": (1, 1, 1),
}


class Signal(NamedTuple):
    light: str  # an RGB colour of `RGB_LIGHTS`, or the colour key of a wired LED
    pattern: str  # a key of `PATTERNS`


S, B, W = "steady", "blink", "wink"
# Each colour's signals, nearest first. The colour's own light (an LED named so), steady, always comes first.
CANDIDATES: dict[str, tuple[tuple[str, str], ...]] = {
    "red": (("red", B),),
    "green": (("green", B),),
    "blue": (("blue", B),),
    "yellow": (("yellow", B),),
    "white": (("white", B), ("yellow", S)),
    "orange": (("yellow", B), ("red", B), ("yellow", W)),
    "purple": (("magenta", S), ("blue", B), ("red", B), ("blue", W)),
    "pink": (("magenta", B), ("red", B), ("red", W)),
    "brown": (("orange", B), ("red", B), ("yellow", W), ("red", W)),
    "grey": (("white", B), ("blue", W), ("green", W)),
    "black": (("white", W), ("blue", W), ("green", W)),
    "teal": (("cyan", S), ("green", B), ("blue", B), ("green", W)),
    "cyan": (("teal", S), ("green", B), ("blue", B)),
    "magenta": (("purple", S), ("pink", S), ("red", B)),
}


def assign(colours: Iterable[str], lights: Collection[str]) -> dict[str, Signal]:
    """Each colour's signal on these lights, no two alike while the lights have signals enough.

    A colour with a light of its own takes it steady; the others, in the order
    given (a game's colours, then any other names), take their nearest signal
    not yet taken, then any free one (a player named "alice" still gets a light).
    Only when every light's three patterns are taken do two colours share.
    """
    colours = list(dict.fromkeys(c.lower() for c in colours))
    every = [Signal(light, pattern) for pattern in PATTERNS for light in lights]
    chosen: dict[str, Signal] = {c: Signal(c, S) for c in colours if c in lights}
    taken = set(chosen.values())
    for colour in colours:
        if colour in chosen or not every:
            continue
        near = [Signal(*c) for c in CANDIDATES.get(colour, ()) if c[0] in lights]
        signal = next((s for s in [*near, *every] if s not in taken), (near or every)[0])
        chosen[colour] = signal
        taken.add(signal)
    return chosen

