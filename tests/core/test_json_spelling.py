"""What a café wrote in a JSON file is quoted back in JSON's spelling, never Python's.

A café owner who typed ``null`` or ``["x"]`` into a position document or a
data file and was told ``None`` or ``['x']`` reads words of a language they
never wrote. Documents and house files are damaged with every odd value at
once-random places, and every problem reported must spell values as JSON.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from companion.data import house_dir, read_json, schemas, validate_path
from companion.registry import game_classes
from tests.core.damage import damage, random_position

# None/True/False as words, a Python dict or list opening with a quoted text.
PYTHON_SPELLING = re.compile(r"\b(None|True|False)\b|\{'|\['")


def python_words(problems: list[str]) -> list[str]:
    return [p for p in problems if PYTHON_SPELLING.search(p)]


@pytest.mark.parametrize("game_id", sorted(game_classes()))
def test_position_problems_quote_values_as_json(game_id: str) -> None:
    rng = random.Random(11)
    found: list[str] = []
    for _position in range(6):
        referee = random_position(game_id, rng, 40)
        document = referee.session.document()
        for _try in range(60):
            answer = referee.handle_line(json.dumps({"cmd": "load", "game": game_id, "state": damage(document, rng)}))
            if not answer["ok"]:
                found += python_words(answer["error"].get("problems", [answer["error"]["message"]]))
    assert found == []


@pytest.mark.parametrize("game_id", sorted(game_classes()))
def test_data_file_problems_quote_values_as_json(game_id: str, tmp_path: Path) -> None:
    rng = random.Random(12)
    game_cls = game_classes()[game_id]
    found: list[str] = []
    for kind in schemas(game_cls):
        house = read_json(house_dir(game_cls) / f"{kind}.json")
        for n in range(40):
            folder = tmp_path / f"{kind}-{n}" / game_id
            folder.mkdir(parents=True)
            (folder / f"{kind}.json").write_text(json.dumps(damage(house, rng)))
            found += python_words(validate_path(folder.parent, game_classes()))
    assert found == []
