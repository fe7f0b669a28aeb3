"""A café's damaged data file gets a list of problems, never a crash; what passes must play.

`companion data validate` and the game loading a café folder read files a
person edited by hand. Each house file is damaged at any depth, written into
a real café folder and validated; a set the validator accepts is loaded and
played for a while.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from companion.data import house_dir, read_json, schemas, validate_path
from companion.registry import create, game_classes
from companion.simulate import random_players
from tests.core.damage import damage


def cafe_with(tmp_path: Path, game_id: str, kind: str, content: object) -> Path:
    folder = tmp_path / f"cafe-{game_id}-{kind}"
    (folder / game_id).mkdir(parents=True, exist_ok=True)
    (folder / game_id / f"{kind}.json").write_text(json.dumps(content))
    return folder


def play_a_while(game_id: str, cafe: Path, rng: random.Random) -> None:
    game = create(game_id, cafe)
    state = game.setup(random_players(game, rng), game.resolve_options({}))
    for _ in range(60):
        legal = game.legal_actions(state)
        if not legal:
            break
        state, _ = game.apply(state, rng.choice(legal))
        assert game.from_document(game.to_document(state)) == state


@pytest.mark.parametrize("game_id", sorted(game_classes()))
def test_damaged_data_files_get_problems_not_crashes(game_id: str, tmp_path: Path) -> None:
    rng = random.Random(3)
    game_cls = game_classes()[game_id]
    for kind in schemas(game_cls):
        house = read_json(house_dir(game_cls) / f"{kind}.json")
        for n in range(25):
            cafe = cafe_with(tmp_path / str(n), game_id, kind, damage(house, rng))
            problems = validate_path(cafe, game_classes())
            assert all(isinstance(p, str) and p for p in problems)
            if not problems:
                play_a_while(game_id, cafe, rng)


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ({"game": ["blackpool"], "kind": "board"}, "unknown game ['blackpool']"),
        ({"game": "blackpool", "kind": {"board": 1}}, "has no data kind {'board': 1}"),
    ],
)
def test_a_header_naming_no_game_or_kind_is_reported(header: dict, expected: str, tmp_path: Path) -> None:
    board = {**read_json(house_dir(game_classes()["blackpool"]) / "board.json"), **header}
    problems = validate_path(cafe_with(tmp_path, "blackpool", "board", board), game_classes())
    assert any(expected in p for p in problems), problems


def test_a_targi_effect_whose_code_is_an_object_is_reported(tmp_path: Path) -> None:
    tribe = read_json(house_dir(game_classes()["targi"]) / "tribe.json")
    tribe["cards"][0]["effects"][0]["code"] = {"gold": 1}
    problems = validate_path(cafe_with(tmp_path, "targi", "tribe", tribe), game_classes())
    assert any("{'gold': 1} is not one of" in p for p in problems), problems
