"""A café edits its data files while the table runs: the next new game uses them, the game in progress does not.

Real files in a real café folder, edited between calls as a café owner would
(an editor saving over the file, a file put in or taken away), with no
restart in between.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from companion import registry
from companion.cli import main
from companion.data import house_dir, load_data, read_json, validate_path
from companion.errors import InvalidData
from companion.journal import Journal
from companion.protocol import Referee
from companion.registry import create, game_classes
from companion.screen_font import NAME_LIMIT
from companion.session import Session


@pytest.fixture
def cafe(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A café folder holding a copy of the temple's house data, and a table that has not read it yet."""
    monkeypatch.setattr(registry, "_instances", {})
    folder = tmp_path / "cafe"
    assert main(["data", "template", "temple", str(folder)]) == 0
    return folder


def edit(path: Path, change: object) -> None:
    content = json.loads(path.read_text(encoding="utf-8"))
    change(content)  # type: ignore[operator]
    path.write_text(json.dumps(content, indent=2), encoding="utf-8")


def rename_die(name: str) -> object:
    def change(die: dict) -> None:
        die["name"] = name

    return change


def test_an_edit_is_used_by_the_next_new_game_and_not_by_the_game_in_progress(cafe: Path) -> None:
    die = cafe / "temple" / "die.json"
    playing = Session.new("temple", ["red", "blue"], cafe_dir=cafe)
    edit(die, rename_die("the café's own die, numbers worn"))
    fresh = Session.new("temple", ["red", "blue"], cafe_dir=cafe)
    assert fresh.game.die.name == "the café's own die, numbers worn"
    assert fresh.game.data.digests["die"] != playing.game.data.digests["die"]
    assert playing.game.die.name != fresh.game.die.name  # the game under way keeps the die it began with
    assert playing.legal() and playing.game is not fresh.game


def test_unchanged_files_are_not_read_again(cafe: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A stat of each café file decides; the files are read and validated only when one changed."""
    reads: list[str] = []
    real_load = registry.load_data

    def counting_load(game_cls: object, cafe_dir: object) -> object:
        reads.append(str(cafe_dir))
        return real_load(game_cls, cafe_dir)  # type: ignore[arg-type]

    monkeypatch.setattr(registry, "load_data", counting_load)
    first = create("temple", cafe)
    assert create("temple", cafe) is first and len(reads) == 1
    edit(cafe / "temple" / "die.json", rename_die("edited"))
    assert create("temple", cafe) is not first and len(reads) == 2
    assert create("temple", cafe) is create("temple", cafe) and len(reads) == 2


def test_an_edit_of_the_same_size_is_noticed(cafe: Path) -> None:
    """Only the modification time tells this edit apart: one digit for another."""
    die = cafe / "temple" / "die.json"
    before = create("temple", cafe)
    text = die.read_text(encoding="utf-8")
    name = json.loads(text)["name"]
    size = die.stat().st_size
    die.write_text(text.replace(json.dumps(name), json.dumps(name[:-1] + "#"), 1), encoding="utf-8")
    stat = die.stat()
    assert stat.st_size == size
    os.utime(die, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    after = create("temple", cafe)
    assert after is not before and after.die.name == name[:-1] + "#"


def test_a_file_put_in_or_taken_away_is_noticed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file taken away is a café going back to the house file on purpose; the sources say which is used."""
    monkeypatch.setattr(registry, "_instances", {})
    cafe = tmp_path / "cafe"
    assert create("temple", cafe).data.sources["die"] == "house:temple/die.json"
    assert main(["data", "template", "temple", str(cafe)]) == 0
    die = cafe / "temple" / "die.json"
    assert create("temple", cafe).data.sources["die"] == str(die)
    die.unlink()
    assert create("temple", cafe).data.sources["die"] == "house:temple/die.json"


def test_a_broken_edit_is_refused_as_the_validator_refuses_it(cafe: Path) -> None:
    """Neither the house die nor the last good one is put in its place: the new game is refused, saying why."""
    die = cafe / "temple" / "die.json"
    playing = Session.new("temple", ["red", "blue"], cafe_dir=cafe)
    good = die.read_text(encoding="utf-8")
    die.write_text(good.replace('"colour": "red"', '"colour": "blue"', 1), encoding="utf-8")
    validator = validate_path(cafe, game_classes())
    assert len(validator) == 1 and "'blue' is not one of 'red', 'white'" in validator[0]
    for _ in range(2):  # and again on the next try, the refusal being remembered with the files' stat
        with pytest.raises(InvalidData) as refusal:
            Session.new("temple", ["red", "blue"], cafe_dir=cafe)
        assert refusal.value.problems == validator
    assert playing.legal()  # the game in progress is untouched
    die.write_text(good[:-3] + ",\n}", encoding="utf-8")  # a comma too many, as hand edits have
    with pytest.raises(InvalidData) as refusal:
        create("temple", cafe)
    assert refusal.value.problems == validate_path(cafe, game_classes())
    assert "a comma before '}'" in refusal.value.problems[0]
    die.write_text(good, encoding="utf-8")
    assert create("temple", cafe).data.digests == playing.game.data.digests


def test_a_broken_board_is_refused_with_the_validators_cross_check(cafe: Path) -> None:
    board = cafe / "temple" / "board.json"
    create("temple", cafe)

    def move_lap_start(content: dict) -> None:
        content["colours"]["red"]["lapStart"] = 1

    edit(board, move_lap_start)
    with pytest.raises(InvalidData) as refusal:
        create("temple", cafe)
    assert [f"temple set (board, cards, die, rulebook given): {p}" for p in refusal.value.problems] == validate_path(
        cafe, game_classes()
    )
    assert refusal.value.problems[0].startswith("board.json: colours.red.lapStart is 1; it must be 0")


def test_a_running_referee_starts_new_games_on_the_edit_and_refuses_a_broken_one(cafe: Path, tmp_path: Path) -> None:
    referee = Referee(Journal(tmp_path / "journal.sqlite3"), cafe)
    assert referee.handle({"cmd": "new", "game": "temple", "players": ["red", "blue"]})["ok"]
    die = cafe / "temple" / "die.json"
    edit(die, rename_die("edited"))
    assert referee.handle({"cmd": "new", "game": "temple", "players": ["red", "blue"]})["ok"]
    assert referee.session is not None and referee.session.game.die.name == "edited"
    in_progress = referee.session
    edit(die, lambda content: content["faces"].pop())
    answer = referee.handle({"cmd": "new", "game": "temple", "players": ["red", "green"]})
    assert answer["ok"] is False and answer["error"]["code"] == "invalid_data"
    assert answer["error"]["problems"] == [f"{die}: faces: needs at least 20 entries, has 19"]
    assert referee.session is in_progress and referee.handle({"cmd": "legal"})["ok"]
    games = {g["id"]: g for g in referee.handle({"cmd": "games"})["games"]}
    assert games["temple"]["problems"] == answer["error"]["problems"]


def test_the_rules_of_the_game_in_progress_stay_its_own_after_a_rulebook_edit(cafe: Path, tmp_path: Path) -> None:
    """A referee citing a clause must quote the text the game is refereed on, not a newer edit."""
    referee = Referee(Journal(tmp_path / "journal.sqlite3"), cafe)
    assert referee.handle({"cmd": "new", "game": "temple", "players": ["red", "blue"]})["ok"]
    before = referee.handle({"cmd": "rules", "clause": "RU-1"})["clause"]["text"]

    def reword(book: dict) -> None:
        book["clauses"][0]["text"] = "Edited by the café after the game began."

    edit(cafe / "temple" / "rulebook.json", reword)
    assert referee.handle({"cmd": "rules", "clause": "RU-1"})["clause"]["text"] == before
    assert referee.handle({"cmd": "rules", "game": "temple", "clause": "RU-1"})["clause"]["text"] == before
    assert referee.handle({"cmd": "new", "game": "temple", "players": ["red", "blue"]})["ok"]
    edited = referee.handle({"cmd": "rules", "clause": "RU-1"})["clause"]["text"]
    assert edited == "Edited by the café after the game began."


def test_a_name_the_screen_cannot_draw_is_refused_by_file_place_and_character(tmp_path: Path) -> None:
    """A café's Tifinagh tribe label and a "☀" in a space's name were drawn as empty boxes on the table."""
    targi, desert = game_classes()["targi"], game_classes()["desert"]
    tribe = read_json(house_dir(targi) / "tribe.json")
    tribe["cards"][1]["label"] = "ⵜⴰⵎⴰⵣⵉⵖⵜ"
    tribe["cards"][2]["label"] = "Ελληνικά, русский, Dattelpalme à l'oasis"  # drawn as written
    board = read_json(house_dir(desert) / "board.json")
    board["spaces"][4]["name"] = "Düne ☀"
    for game, kind, content in (("targi", "tribe", tribe), ("desert", "board", board)):
        (tmp_path / game).mkdir()
        (tmp_path / game / f"{kind}.json").write_text(json.dumps(content, ensure_ascii=False), encoding="utf-8")
    found = validate_path(tmp_path, game_classes())
    assert found == [
        f"{tmp_path / 'desert' / 'board.json'}: spaces[4].name: 'Düne ☀' holds '☀' (U+2600), which the touchscreen's"
        " font cannot draw (it would show an empty box); write it in Latin letters with their usual accents, Greek or"
        " Cyrillic",
        f"{tmp_path / 'targi' / 'tribe.json'}: cards[1].label: 'ⵜⴰⵎⴰⵣⵉⵖⵜ' holds 'ⵜ' (U+2D5C), 'ⴰ' (U+2D30),"
        " 'ⵎ' (U+2D4E), 'ⵣ' (U+2D63), 'ⵉ' (U+2D49), which the touchscreen's font cannot draw (it would show an"
        " empty box); write it in Latin letters with their usual accents, Greek or Cyrillic",
    ]
    with pytest.raises(InvalidData) as refused:  # and the table will not start the game on it either
        load_data(targi, tmp_path)
    assert "cards[1].label" in refused.value.problems[0]


def test_a_name_written_decomposed_is_read_composed_and_drawn(tmp_path: Path) -> None:
    """ "Düne" pasted from a PDF as "u" plus a separate accent: the screen's font has no lone accent to draw."""
    import unicodedata

    desert = game_classes()["desert"]
    board = read_json(house_dir(desert) / "board.json")
    board["spaces"][4]["name"] = unicodedata.normalize("NFD", "Düne à l'Oasis")
    (tmp_path / "desert").mkdir()
    (tmp_path / "desert" / "board.json").write_text(json.dumps(board, ensure_ascii=False), encoding="utf-8")
    assert validate_path(tmp_path, game_classes()) == []
    assert load_data(desert, tmp_path).files["board"]["spaces"][4]["name"] == "D\u00fcne \u00e0 l'Oasis"


def test_a_temple_card_id_the_screen_cannot_draw_is_refused_as_names_are(tmp_path: Path) -> None:
    """A temple card's id is written on its card button; a café's "P✓1" showed an empty box there."""
    temple = game_classes()["temple"]
    cards = read_json(house_dir(temple) / "cards.json")
    cards["cards"][0]["id"] = "P✓1"
    cards["ahKinchil"]["id"] = "Ἀ✦"
    (tmp_path / "temple").mkdir()
    (tmp_path / "temple" / "cards.json").write_text(json.dumps(cards, ensure_ascii=False), encoding="utf-8")
    where = tmp_path / "temple" / "cards.json"
    found = validate_path(tmp_path, game_classes())
    assert found == [
        f"{where}: ahKinchil.id: 'Ἀ✦' holds 'Ἀ' (U+1F08), '✦' (U+2726), which the touchscreen's font cannot draw (it"
        " would show an empty box); write it in Latin letters with their usual accents, Greek or Cyrillic",
        f"{where}: cards[0].id: 'P✓1' holds '✓' (U+2713), which the touchscreen's font cannot draw (it would show an"
        " empty box); write it in Latin letters with their usual accents, Greek or Cyrillic",
    ]
    with pytest.raises(InvalidData):
        load_data(temple, tmp_path)


def test_a_name_longer_than_a_button_shows_is_refused_with_the_limit(tmp_path: Path) -> None:
    """A café's 219-character card name ran off the foot of its button; a board's own title is not on a button."""
    blackpool, desert = game_classes()["blackpool"], game_classes()["desert"]
    cards = read_json(house_dir(blackpool) / "cards.json")
    cards["cards"][0]["name"] = ("Gust of Force, the great wind that blows every traveller along the pier " * 4)[:219]
    board = read_json(house_dir(desert) / "board.json")
    board["spaces"][4]["name"] = "D" * NAME_LIMIT  # at the limit: taken
    board["spaces"][5]["name"] = "E" * (NAME_LIMIT + 1)
    for game, kind, content in (("blackpool", "cards", cards), ("desert", "board", board)):
        (tmp_path / game).mkdir(exist_ok=True)
        (tmp_path / game / f"{kind}.json").write_text(json.dumps(content), encoding="utf-8")
    found = validate_path(tmp_path, game_classes())
    assert found == [
        f"{tmp_path / 'blackpool' / 'cards.json'}: cards[0].name: 'Gust of Force, the great wind that blows'... is"
        f" 219 characters long; a name shown on the table's buttons may have at most {NAME_LIMIT} (a longer one runs"
        " past three lines of its button); shorten it",
        f"{tmp_path / 'desert' / 'board.json'}: spaces[5].name: '{'E' * 40}'... is {NAME_LIMIT + 1} characters long;"
        f" a name shown on the table's buttons may have at most {NAME_LIMIT} (a longer one runs past three lines of"
        " its button); shorten it",
    ]
    with pytest.raises(InvalidData) as refused:
        load_data(blackpool, tmp_path)
    assert "is 219 characters long" in refused.value.problems[0]
