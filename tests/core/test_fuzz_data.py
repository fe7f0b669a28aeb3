"""Hypothesis damages each house data file; the validator names the place, and no game starts on a refused set.

A café edits boards, decks and catalogues by hand. Each house file is broken
the ways hand edits break it (a key deleted, a value of another type, an id
used twice, a list emptied, an enormous or negative number, a path or link
that walks back on itself) and written into a real café folder. The
validator must answer with problems that name the file and the place in it,
never crash; the game must refuse to start on what the validator refuses,
and what it accepts must play.
"""

from __future__ import annotations

import copy
import itertools
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.data import house_dir, read_json, schemas, validate_path
from companion.errors import CompanionError, InvalidData
from companion.protocol import Referee
from companion.registry import create, game_classes
from companion.simulate import random_players
from tests.core.damage import places

GAMES = ["blackpool", "desert", "targi", "temple", "ttd"]
KINDS = [(g, k) for g in GAMES for k in schemas(game_classes()[g])]
FUZZ = settings(max_examples=25, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
ODD = [None, True, False, 0, -1, 1.5, -(10**30), 10**30, 10**400, 1e308, "", "x" * 300, "🐪", [], {}, [[]], {"a": {}}]
FOLDERS = itertools.count()


def value_at(doc: Any, path: tuple) -> Any:
    for key in path:
        doc = doc[key]
    return doc


@st.composite
def damaged(draw: st.DrawFn, house: dict) -> dict:
    """The house file with one to three hand-editing slips, at any depth."""
    doc = copy.deepcopy(house)
    for _ in range(draw(st.integers(1, 3))):
        spots = [p for p in places(doc) if p[0] not in ("game", "kind")]
        if not spots:
            break
        path = draw(st.sampled_from(spots))
        parent, key = value_at(doc, path[:-1]), path[-1]
        value = parent[key]
        how = draw(st.sampled_from(["delete", "retype", "retype", "number", "empty", "twice", "loop"]))
        if how == "delete":
            del parent[key]
        elif how == "retype":
            parent[key] = copy.deepcopy(draw(st.sampled_from(ODD)))
        elif how == "number":
            parent[key] = draw(st.sampled_from([-1, 0, 10**9, 2**63, 10**400, -(10**400), 1e308, 0.5]))
        elif how == "empty":
            parent[key] = type(value)() if isinstance(value, (list, dict, str)) else []
        elif how == "twice" and isinstance(parent, list) and len(parent) > 1:
            # An entry copied over its neighbour: a duplicated id, square, card or face.
            other = draw(st.sampled_from([i for i in range(len(parent)) if i != key]))
            parent[other] = copy.deepcopy(value)
        elif how == "twice" and isinstance(value, dict) and isinstance(value.get("id"), str):
            twin = next((e for e in parent if isinstance(e, dict) and e is not value), None) if isinstance(
                parent, list
            ) else None
            if twin is not None:
                twin["id"] = value["id"]
        elif how == "loop" and isinstance(value, list) and value:
            # A path or link list that comes back to where it has been: [a, b, c] -> [a, b, c, a] or [a, b, a].
            i = draw(st.integers(0, len(value) - 1))
            value.insert(draw(st.integers(i + 1, len(value))), copy.deepcopy(value[i]))
    return doc


@pytest.fixture(scope="module")
def cafes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    yield tmp_path_factory.mktemp("cafes")


def named_in_place(problem: str, cafe: Path, game_id: str, kind: str) -> bool:
    """A problem names the file and a place in it, or (a fault between files) the set it was given in."""
    file = str(cafe / game_id / f"{kind}.json")
    if problem.startswith(f"{game_id} set ({kind} given): "):
        return True
    return problem.startswith(file) and len(problem) > len(file) + 2


@pytest.mark.parametrize(("game_id", "kind"), KINDS)
def test_damaged_cafe_files_are_named_by_place_and_never_start_a_game(
    game_id: str, kind: str, cafes: Path
) -> None:
    house = read_json(house_dir(game_classes()[game_id]) / f"{kind}.json")

    @FUZZ
    @given(doc=damaged(house))
    def run(doc: dict) -> None:
        cafe = cafes / str(next(FOLDERS))
        (cafe / game_id).mkdir(parents=True)
        (cafe / game_id / f"{kind}.json").write_text(json.dumps(doc), encoding="utf-8")
        problems = validate_path(cafe, game_classes())
        assert all(isinstance(p, str) and named_in_place(p, cafe, game_id, kind) for p in problems), problems
        referee = Referee(cafe_dir=cafe)
        players = random_players(create(game_id), random.Random(1))
        answer = referee.handle({"cmd": "new", "game": game_id, "players": players})
        if problems:
            assert answer["error"]["code"] == "invalid_data", (problems, answer)
            assert referee.session is None
            with pytest.raises(InvalidData):
                create(game_id, cafe)
            return
        assert answer["ok"], answer
        rng = random.Random(2)
        for _ in range(40):  # what the validator passes must referee
            legal = referee.handle({"cmd": "legal"})["legal"]
            if not legal:
                break
            step = referee.handle({"cmd": "act", "action": rng.choice(legal)})
            assert step["ok"], step

    run()


def test_a_refused_cafe_file_is_refused_by_the_game_too(tmp_path: Path) -> None:
    """The plain case the fuzzing rests on: one wrong type, named by place, and `new` refuses with it."""
    cards = read_json(house_dir(game_classes()["desert"]) / "cards.json")
    cards["collection"]["golden_compass"] = "three"
    (tmp_path / "desert").mkdir()
    (tmp_path / "desert" / "cards.json").write_text(json.dumps(cards), encoding="utf-8")
    problems = validate_path(tmp_path, game_classes())
    assert problems and all(p.startswith(str(tmp_path / "desert" / "cards.json")) for p in problems)
    answer = Referee(cafe_dir=tmp_path).handle({"cmd": "new", "game": "desert", "players": ["black", "teal"]})
    assert answer["error"]["code"] == "invalid_data" and answer["error"]["problems"] == problems
    with pytest.raises(CompanionError):
        create("desert", tmp_path)


def test_a_file_in_a_games_folder_is_validated_as_that_game_reads_it(tmp_path: Path) -> None:
    """A Blackpool board copied into the desert's folder was "valid", yet the desert game refused to start on it."""
    (tmp_path / "desert").mkdir()
    board = tmp_path / "desert" / "board.json"
    board.write_bytes((house_dir(game_classes()["blackpool"]) / "board.json").read_bytes())
    problems = validate_path(tmp_path, game_classes())
    with pytest.raises(InvalidData) as refusal:
        create("desert", tmp_path)
    assert problems == refusal.value.problems and problems[0].startswith(f"{board}: header says game 'blackpool'")
    assert validate_path(tmp_path / "desert", game_classes()) == problems  # as `data template` says to run it


def test_a_data_file_the_game_never_reads_is_named(tmp_path: Path) -> None:
    """A board saved as "board (1).json" was "valid" while the game went on with the house board."""
    (tmp_path / "desert").mkdir()
    copy_ = tmp_path / "desert" / "board (1).json"
    copy_.write_bytes((house_dir(game_classes()["desert"]) / "board.json").read_bytes())
    assert validate_path(tmp_path, game_classes()) == [
        f"{copy_}: never read; the desert game reads only rulebook.json, board.json, cards.json from this folder; "
        "is it board.json? rename it"
    ]
    assert create("desert", tmp_path).data.sources["board"] == "house:desert/board.json"


def test_a_cafe_rulebook_that_drops_a_cited_clause_is_refused(tmp_path: Path) -> None:
    """Rewording the rules, a café dropped BP-Q5: "valid", and every refused die cited a clause nobody could read."""
    book = read_json(house_dir(game_classes()["blackpool"]) / "rulebook.json")
    book["clauses"] = [c for c in book["clauses"] if c["id"] != "BP-Q5"]
    book["clauses"][0]["see"] = ["BP-99"]
    (tmp_path / "blackpool").mkdir()
    where = tmp_path / "blackpool" / "rulebook.json"
    where.write_text(json.dumps(book), encoding="utf-8")
    problems = validate_path(tmp_path, game_classes())
    assert problems[0] == f"{where}: clauses: no clause BP-Q5, which rulings cite; keep each id and reword its text"
    assert f"{where}: clauses[0] (id {book['clauses'][0]['id']!r}).see: no clause BP-99" in problems
    answer = Referee(cafe_dir=tmp_path).handle({"cmd": "new", "game": "blackpool", "players": ["red", "blue"]})
    assert answer["error"]["code"] == "invalid_data" and answer["error"]["problems"] == problems
