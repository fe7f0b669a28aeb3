"""House data passes its schemas and cross-checks; broken café copies are caught with a precise message."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from companion.data import load_data, set_problems, validate_path
from companion.errors import BadRequest, InvalidData
from companion.games.blackpool import GAME as BLACKPOOL
from companion.registry import game_classes
from tests.games.blackpool.helpers import GAME

HOUSE = Path(__file__).resolve().parents[3] / "companion" / "games" / "blackpool" / "data"


def house(kind: str) -> dict:
    return json.loads((HOUSE / f"{kind}.json").read_text())


def problems_with(**files: dict) -> list[str]:
    full = {kind: house(kind) for kind in ("board", "cards", "rulebook")}
    full.update(files)
    return set_problems(BLACKPOOL, full, {k: f"{k}.json" for k in full})


def test_house_data_is_clean() -> None:
    assert problems_with() == []
    assert validate_path(HOUSE, game_classes()) == []


def test_house_board_shape() -> None:
    """The house grid of BP-Q1 (a centre, rings of 8, 16 and 24, an edge of 32 with four camps) and paths that
    hold every water square (BP-Q2)."""
    board = GAME.board
    zones = [s.zone for s in board.squares.values()]
    assert (zones.count("centre"), zones.count("ring4"), zones.count("ring3"), zones.count("ring2")) == (1, 8, 16, 24)
    assert zones.count("edge") + zones.count("camp") == 32 and zones.count("camp") == 4
    water = {s for s, sq in board.squares.items() if sq.zone in ("ring4", "ring3", "ring2")}
    for colour, path in board.paths.items():
        assert water <= set(path), colour
        assert board.zone(path[0]) == "ring4" and len(path) == len(set(path))
    shared_edge = set(board.paths["yellow"]) & set(board.paths["red"]) - water
    assert shared_edge, "colours must meet on the edge too"


def test_house_decks_hold_the_six_named_cards() -> None:
    """One of each card the rules name, charms and curses as BP-Q22 sorts them."""
    cards = {c.id: (c.deck, c.effect, c.count) for c in GAME.catalogue.cards.values()}
    assert cards == {
        "gust_of_force": ("charm", "gust", 1),
        "awaken": ("charm", "awaken", 1),
        "diagonal_step_up": ("charm", "step_out", 1),
        "freeze": ("curse", "freeze", 1),
        "reset": ("curse", "reset", 1),
        "diagonal_step_down": ("curse", "step_in", 1),
    }


def test_rulebook_clauses_are_unique_and_cited() -> None:
    ids = [c.id for c in GAME.rulebook.clauses]
    assert len(ids) == len(set(ids))
    for needed in ("BP-1", "BP-C7", "BP-D4", "BP-Q12", "BP-Q30", "BP-Q31"):
        assert needed in GAME.rulebook


def test_broken_paths_are_named() -> None:
    board = house("board")
    board["paths"]["yellow"][3] = "zz"
    board["paths"]["red"].append(board["paths"]["red"][0])
    board["paths"]["green"] = [*board["paths"]["green"][:-10], "i9"]
    board["paths"]["blue"].remove("c5")
    text = "\n".join(problems_with(board=board))
    assert "paths.yellow[3]: no square 'zz'" in text
    assert "appears twice" in text
    assert "paths.green" in text and "is a camp" in text
    assert "paths.blue misses water squares" in text and "c5" in text


def test_broken_camps_diagonals_and_circles_are_named() -> None:
    board = house("board")
    board["camps"]["yellow"] = "e1"
    board["diagonalOut"]["e4"] = ["c2"]
    board["diagonalIn"]["d6"] = ["d7"]
    board["startCircles"]["red"] = ["centre", "centre", "a1"]
    text = "\n".join(problems_with(board=board))
    assert "camps.yellow: e1 has zone edge" in text and "not a corner" in text
    assert "diagonalOut.e4: c2 is not one ring out" in text
    assert "diagonalIn.d6: d7 is not one ring in" in text
    assert "startCircles.red[2]" in text



def test_starting_circles_that_crowd_a_square_are_named() -> None:
    """Two red travellers on one circle passed ``data validate``, and a game with red was then refused at its
    start with no clause; three colours on one square began a stack of three (a rider ridden)."""
    board = house("board")
    red, blue, green = (board["paths"][c] for c in ("red", "blue", "green"))
    shared = next(sid for sid in red if sid in blue and sid in green)
    board["startCircles"]["red"] = [red[2], red[2], "centre"]
    assert any(f"startCircles.red lists {red[2]} twice" in p and "(BP-Q4, BP-C3)" in p
               for p in problems_with(board=board))
    board = house("board")
    for colour in ("red", "blue", "green"):
        board["startCircles"][colour] = [shared, "centre", "centre"]
    assert any(f"put red, green, blue travellers on {shared}" in p for p in problems_with(board=board))
    board["startCircles"]["green"] = ["centre"] * 3  # two colours on one square: the later rides (BP-7)
    assert problems_with(board=board) == []

def test_schema_errors_are_named() -> None:
    board = house("board")
    del board["camps"]
    board["squares"][0]["zone"] = "lava"
    text = "\n".join(problems_with(board=board))
    assert "missing field 'camps'" in text and "'lava' is not one of" in text


def test_card_problems_are_named() -> None:
    """A café card may only reuse an effect the engine knows, in the deck that effect serves (BP-Q22)."""
    cards = house("cards")
    cards["cards"][0]["deck"] = "curse"
    cards["cards"][1]["effect"] = "teleport"
    cards["cards"].append(copy.deepcopy(cards["cards"][2]))
    text = "\n".join(problems_with(cards=cards))
    assert "'teleport' is not one of" in text
    assert "id 'diagonal_step_up' appears twice" in text
    cards = house("cards")
    cards["cards"][0]["deck"] = "curse"
    assert "belongs in the charm deck" in "\n".join(problems_with(cards=cards))


def test_cafe_folder_replaces_house_files(tmp_path: Path) -> None:
    cafe = tmp_path / "blackpool"
    cafe.mkdir()
    cards = house("cards")
    cards["cards"][0]["count"] = 2
    (cafe / "cards.json").write_text(json.dumps(cards))
    data = load_data(BLACKPOOL, tmp_path)
    assert data.sources["cards"].endswith("cards.json") and "house:" in data.sources["board"]
    game = BLACKPOOL(data)
    state = game.setup(["yellow", "red"], game.resolve_options({}))
    assert dict(state.decks)["gust_of_force"] == 2
    board = house("board")
    board["paths"]["yellow"][0] = "nowhere"
    (cafe / "board.json").write_text(json.dumps(board))
    with pytest.raises(InvalidData) as err:
        load_data(BLACKPOOL, tmp_path)
    assert any("nowhere" in p for p in err.value.problems)


def test_setup_refuses_bad_players_and_options() -> None:
    with pytest.raises(BadRequest):
        GAME.setup(["yellow"], GAME.resolve_options({}))
    with pytest.raises(BadRequest):
        GAME.setup(["yellow", "purple"], GAME.resolve_options({}))
    with pytest.raises(BadRequest):
        GAME.resolve_options({"edge.landing": "swim"})
    with pytest.raises(BadRequest):
        GAME.resolve_options({"no.such": 1})


def test_every_option_has_a_decision_and_profiles_resolve() -> None:
    for spec in GAME.option_specs:
        assert spec.decision and spec.decision in GAME.rulebook and spec.default in spec.choices
    for profile in GAME.profiles:
        GAME.resolve_options({}, profile)
    keys = {s.key for s in GAME.option_specs}
    assert {
        "six.carrierUsesTable",
        "capacity.countsArrivingStack",
        "edge.landing",
        "six.noMoveCoinAllowed",
        "six.maxChain",
        "freeze.resetMoves",
        "awaken.anyFrozen",
        "variant.glossaryDraft",
        "continueForPlacings",
        "cards.targetChooser",
    } <= keys


def test_every_clause_the_code_cites_exists() -> None:
    import re

    code = HOUSE.parent
    cited = set()
    for source in code.glob("*.py"):
        cited |= set(re.findall(r'"(BP-[A-Z0-9]+)"', source.read_text()))
    assert cited and not [c for c in cited if c not in GAME.rulebook]


@pytest.mark.parametrize(
    ("table", "pull", "expected"),
    [
        ("draftBlackforce", 5, "draftBlackforce.centre is 5; in the glossary draft exactly a 5"),
        ("draftBlackforce", 6, "draftBlackforce.centre is 6; in the glossary draft exactly a 5"),
        ("blackforce", 6, "blackforce.centre is 6; only a six"),
        ("blackforce", 4, "blackforce.centre is 4; only a six"),
    ],
)
def test_a_centre_pull_the_exit_roll_cannot_beat_is_refused(
    tmp_path: Path, table: str, pull: int, expected: str
) -> None:
    """A traveller leaves the centre on one more than its pull: the board's six, the draft's 5.

    A café centre pull of 5 in the draft table let nobody out (a six never brings one out there):
    every glossary-draft game ran for ever. One of 4 or 6 on the board brought a traveller out on
    a six to path square 5 or 7, not the sixth square the cited clauses promise.
    """
    board = house("board")
    board[table]["centre"] = pull
    folder = tmp_path / "blackpool"
    folder.mkdir()
    (folder / "board.json").write_text(json.dumps(board))
    found = validate_path(tmp_path, game_classes())
    assert len(found) == 1 and found[0].startswith("blackpool set (board given): board.json: ")
    assert expected in found[0]
    assert ("(BP-Q6)" if table == "draftBlackforce" else "(BP-C7, BP-Q20)") in found[0]
    with pytest.raises(InvalidData) as err:
        load_data(BLACKPOOL, tmp_path)
    assert [f"blackpool set (board given): {p}" for p in err.value.problems] == found


@pytest.mark.parametrize(("table", "zone", "pull"), [("blackforce", "ring3", 5), ("draftBlackforce", "ring4", 4)])
def test_a_water_ring_pulling_as_hard_as_the_centre_is_refused(
    tmp_path: Path, table: str, zone: str, pull: int
) -> None:
    """A ring pulling as much as the centre lets a traveller on only on the exit roll and pulls it back on
    nearly every other: it drifts back into the centre. A café board with every ring at 5 left 20 of 20
    random games running after 5,000 actions."""
    board = house("board")
    board[table][zone] = pull
    folder = tmp_path / "blackpool"
    folder.mkdir()
    (folder / "board.json").write_text(json.dumps(board))
    found = validate_path(tmp_path, game_classes())
    assert len(found) == 1
    assert f"board.json: {table}.{zone} of {pull} is not below the centre's {pull}, as the rings' pulls are" in found[0]
    assert "(BP-4, BP-C1)" in found[0]
