"""The temple's 20-sided die: its faces as the companion offers them, and the house die.

The die's faces carry a number (or X) and a background colour; red asks for a card change first.
The house die gives the class its ``dice`` metadata; a café's own die replaces it on the bound game.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from companion.game import DieSpec

DIE_ID = "d20"
HOUSE_DIE = Path(__file__).resolve().parent / "data" / "die.json"


def die_spec(die: Mapping[str, Any]) -> DieSpec:
    """One payload per face (duplicates kept), so the face list is also the distribution."""
    faces = tuple({"value": f["value"], "face": {"colour": f["colour"]}} for f in die["faces"])
    return DieSpec(DIE_ID, die.get("name", "20-sided temple die"), faces)


def house_die() -> DieSpec:
    # The DieSpec is class metadata, so it comes from the house die; a café die
    # replaces it on the bound game object (``TempleGame.__init__``).
    return die_spec(json.loads(HOUSE_DIE.read_text(encoding="utf-8")))

