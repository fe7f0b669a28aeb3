"""The colours the board draws camels in and the sand they stand on, for the screen and for the validator.

They live here rather than in the board's drawing (``ui/boards/ttd.py``) so
that the data validator measures a café's camel colours against the very
colours the screen shows (``companion.colours``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.colours import RGB, hex_rgb, piece_rgb

SAND: RGB = (0.72, 0.6, 0.38)  # every camel stands on a sand hex (mountains take none)
CAMEL_RGB: dict[str, RGB] = {  # the game's camels are pastel; these stay apart from each other and from the sand
    "pink": (0.98, 0.6, 0.8),
    "green": (0.55, 0.9, 0.45),
    "yellow": (0.99, 0.93, 0.35),
    "blue": (0.5, 0.75, 1.0),
    "white": (0.98, 0.98, 0.98),
}


def camel_rgb(colour: str) -> RGB:
    """A camel colour id's drawing colour: the house camels' own, else a piece colour of that name, else grey."""
    return CAMEL_RGB.get(str(colour).lower(), piece_rgb(colour))


def camel_paints(camels: Mapping[str, Any]) -> dict[str, RGB]:
    """Each camel colour id, in the data's order, with the colour it is drawn in.

    A café's own ``colour`` (``#rrggbb``) in camels.json comes first: a box
    with, say, lilac camels names a colour outside every table here, which
    was drawn grey, five such colours all the same grey.
    """
    paints = {}
    for entry in camels.get("colours") or ():
        if isinstance(entry, Mapping) and "id" in entry:
            paints[str(entry["id"])] = hex_rgb(entry.get("colour")) or camel_rgb(str(entry["id"]))
    return paints
