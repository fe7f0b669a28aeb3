"""House data is valid and a café's broken copy is caught with every fault named."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from companion.data import house_dir, load_data, validate_path
from companion.errors import InvalidData
from companion.games.temple.board import CELL_KINDS
from companion.games.temple.rules import TempleGame
from companion.registry import create, game_classes

HOUSE = house_dir(TempleGame)


def house(kind: str) -> dict:
    return json.loads((HOUSE / f"{kind}.json").read_text(encoding="utf-8"))


def test_house_data_is_valid_and_complete() -> None:
    assert validate_path(HOUSE, game_classes()) == []
    cards = house("cards")["cards"]
    assert len(cards) == 49 and len({c["id"] for c in cards}) == 49
    assert all(kind in CELL_KINDS for c in cards for row in c["cells"] for kind in row)
    die = house("die")["faces"]
    assert len(die) == 20 and {f["colour"] for f in die} == {"red", "white"}
    board = house("board")
    assert len(board["slots"]) == 12 and len(board["loop"]) == 56


def test_metadata_shows_the_house_die_and_every_option() -> None:
    meta = TempleGame.metadata()
    assert meta["dice"][0]["id"] == "d20" and len(meta["dice"][0]["faces"]) == 20
    decisions = {o["decision"] for o in meta["options"]}
    assert decisions == {
        "RU-Q6",
        "RU-Q7",
        "RU-Q8",
        "RU-Q10",
        "RU-Q12",
        "RU-Q13",
        "RU-Q16",
        "RU-Q17",
        "RU-Q21",
        "RU-Q23",
    }
    assert set(meta["profiles"]) == {"standard", "alternatives"}
    game = create("temple")
    for option in meta["options"]:
        assert option["decision"] in game.rulebook


def write_cafe(tmp_path: Path, kind: str, content: dict) -> Path:
    folder = tmp_path / "temple"
    folder.mkdir(exist_ok=True)
    (folder / f"{kind}.json").write_text(json.dumps(content), encoding="utf-8")
    return tmp_path


def test_a_broken_board_names_each_fault(tmp_path: Path) -> None:
    board = house("board")
    board["colours"]["red"]["wall"].append([[2, 0], [5, 5]])
    board["loop"].pop()  # the NW corner's last station disappears
    board["slots"][1]["origin"] = [4, 0]  # slot 2 now overlaps slot 1
    board["corners"][2]["cells"][1][1] = "path"  # no red Ah Kinchil marker any more
    with pytest.raises(InvalidData) as info:
        load_data(TempleGame, write_cafe(tmp_path, "board", board))
    text = " | ".join(info.value.problems)
    assert "overlaps slot 1" in text
    assert "missing from the loop" in text
    assert "exactly one red Ah Kinchil idol marker" in text


def test_a_broken_wall_is_named(tmp_path: Path) -> None:
    board = house("board")
    board["colours"]["red"]["wall"].append([[2, 0], [2, 2]])
    with pytest.raises(InvalidData, match="not side by side"):
        load_data(TempleGame, write_cafe(tmp_path, "board", board))


def test_a_board_without_a_colours_wall_is_refused(tmp_path: Path) -> None:
    """Only the wall makes a pawn go round: without it red's foot is a few steps from its entrance."""
    board = house("board")
    board["colours"]["red"]["wall"] = []
    with pytest.raises(InvalidData) as info:
        load_data(TempleGame, write_cafe(tmp_path, "board", board))
    assert info.value.problems == [
        "board.json: colours.red: the foot of the steps is only 4 steps from the entrance, "
        "so a pawn need not go round the temple; is a wall between them missing?"
    ]


def test_a_die_whose_numbers_are_all_zero_is_refused(tmp_path: Path) -> None:
    """A 0 moves no pawn (RU-10): such a die plays for ever, as a die of only X faces would."""
    die = house("die")
    for face in die["faces"]:
        if face["value"] != "X":
            face["value"] = 0
    with pytest.raises(InvalidData, match="no face shows a number from 1 to 7"):
        load_data(TempleGame, write_cafe(tmp_path, "die", die))


@pytest.mark.parametrize("value", ["x", "3", 8, 2.5])
def test_a_die_face_that_is_neither_a_number_nor_x_says_what_is_allowed(value: object, tmp_path: Path) -> None:
    """ "expected an integer, found text" misled for "x", where the text "X" is allowed too."""
    die = house("die")
    die["faces"][4]["value"] = value
    problems = validate_path(write_cafe(tmp_path, "die", die), game_classes())
    where = tmp_path / "temple" / "die.json"
    assert problems == [f'{where}: faces[4].value: {value!r} is not a number from 0 to 7 or "X"']


def test_broken_cards_and_die_are_named(tmp_path: Path) -> None:
    cards = house("cards")
    cards["cards"][3]["cells"][1][1] = "lava"
    cards["cards"][4]["id"] = cards["cards"][5]["id"]
    die = house("die")
    die["faces"].pop()
    die["faces"][0]["colour"] = "blue"
    write_cafe(tmp_path, "cards", cards)
    write_cafe(tmp_path, "die", die)
    problems = validate_path(tmp_path, game_classes())
    text = " | ".join(problems)
    assert "'lava' is not one of" in text
    assert "appears twice" in text
    assert "at least 20 entries" in text
    assert "'blue' is not one of" in text


def test_an_ah_kinchil_id_clash_is_caught(tmp_path: Path) -> None:
    cards = house("cards")
    cards["ahKinchil"]["id"] = cards["cards"][0]["id"]
    with pytest.raises(InvalidData, match="Ah Kinchil card id"):
        load_data(TempleGame, write_cafe(tmp_path, "cards", cards))


def test_a_cafe_copy_of_the_house_set_loads(tmp_path: Path) -> None:
    shutil.copytree(HOUSE, tmp_path / "temple")
    data = load_data(TempleGame, tmp_path)
    assert data.sources["board"].endswith("board.json") and not data.sources["board"].startswith("house:")
    game = TempleGame(data)
    assert game.total_cards == 50
