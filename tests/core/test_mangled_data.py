"""A café's damaged data file gets a list of problems, never a crash; what passes must play.

`companion data validate` and the game loading a café folder read files a
person edited by hand. Each house file is damaged at any depth, written into
a real café folder and validated; a set the validator accepts is loaded and
played for a while.
"""

from __future__ import annotations

import json
import os
import random
import re
from pathlib import Path

import pytest

from companion import registry
from companion.data import house_dir, load_data, read_json, schemas, validate_path
from companion.errors import InvalidData
from companion.registry import create, game_classes
from companion.session import Session, open_table
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
        ({"game": ["blackpool"], "kind": "board"}, 'unknown game ["blackpool"]'),
        ({"game": "blackpool", "kind": {"board": 1}}, 'has no data kind {"board": 1}'),
    ],
)
def test_a_header_naming_no_game_or_kind_is_reported(header: dict, expected: str, tmp_path: Path) -> None:
    """A draft outside a café's game folders is checked as its header says, so the header must name both."""
    board = {**read_json(house_dir(game_classes()["blackpool"]) / "board.json"), **header}
    (tmp_path / "drafts").mkdir()
    (tmp_path / "drafts" / "board.json").write_text(json.dumps(board))
    problems = validate_path(tmp_path / "drafts", game_classes())
    assert any(expected in p for p in problems), problems
    in_place = validate_path(cafe_with(tmp_path, "blackpool", "board", board), game_classes())
    assert any("header says game" in p for p in in_place), in_place  # in its game's folder: checked as read


def test_a_targi_effect_whose_code_is_an_object_is_reported(tmp_path: Path) -> None:
    tribe = read_json(house_dir(game_classes()["targi"]) / "tribe.json")
    tribe["cards"][0]["effects"][0]["code"] = {"gold": 1}
    problems = validate_path(cafe_with(tmp_path, "targi", "tribe", tribe), game_classes())
    assert any('{"gold": 1} is not one of' in p for p in problems), problems


def house_text(game_id: str, kind: str) -> str:
    return (house_dir(game_classes()[game_id]) / f"{kind}.json").read_text(encoding="utf-8")


@pytest.mark.parametrize("encoding", ["utf-8-sig", "utf-16"])
def test_a_file_saved_with_a_byte_order_mark_or_as_utf16_is_read(encoding: str, tmp_path: Path) -> None:
    """Notepad's "UTF-8 with BOM" and "Unicode" hold the same text: the café's file is used, not refused."""
    (tmp_path / "desert").mkdir()
    (tmp_path / "desert" / "cards.json").write_text(house_text("desert", "cards"), encoding=encoding)
    assert validate_path(tmp_path, game_classes()) == []
    assert load_data(game_classes()["desert"], tmp_path).sources["cards"] == str(tmp_path / "desert" / "cards.json")


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (b"", "cards.json: the file is empty"),
        (b"  \n", "cards.json: the file is empty"),
        ('{"game": "Désert"}'.encode("latin-1"), "cards.json: not UTF-8 text (byte 11 is 0xe9)"),
        (b'{"collection": [1, 2,]}', "line 1, column 22: a comma before ']'"),
        (b'{"game": "desert",\n}', "line 2, column 1: a comma before '}'"),
        # A key held down, or a paste gone wrong: Python refuses the number, and that ValueError crashed every
        # start of the kiosk (with a game in progress on the file) and `data validate` with a traceback.
        (b'{"game": "desert", "schema": ' + b"9" * 5000 + b"}", "cards.json: a number too long to read"),
        # A tab typed, or a line broken, inside a name: the decoder said "Invalid control character at" and stopped.
        (
            b'{"label": "Caf\xc3\xa9\tcopy"}',
            "line 1, column 16: a tab inside quotes, which JSON text cannot hold; type a space (or \\t) instead",
        ),
        (
            b'{"label": "Caf\xc3\xa9\r\n copy"}',
            "line 1, column 16: a line break inside quotes, which JSON text cannot hold; join the text onto one "
            "line, or close the quotes left open before it",
        ),
        # Python's reader takes NaN and Infinity, which are not JSON: a count would have been NaN.
        (b'{"game": "desert",\r\n "schema": NaN}', "line 2, column 12: NaN is not a number JSON allows"),
    ],
)
def test_an_unreadable_file_is_named_with_what_to_fix(content: bytes, expected: str, tmp_path: Path) -> None:
    (tmp_path / "desert").mkdir()
    (tmp_path / "desert" / "cards.json").write_bytes(content)
    problems = validate_path(tmp_path, game_classes())
    assert any(expected in p for p in problems), problems
    with pytest.raises(InvalidData, match=re.escape(expected)):
        load_data(game_classes()["desert"], tmp_path)


def test_a_folder_where_a_data_file_belongs_is_refused_not_swapped_for_house_data(tmp_path: Path) -> None:
    """The validator refuses it, so the game must too: quietly refereeing the house board misleads the table."""
    (tmp_path / "blackpool" / "board.json").mkdir(parents=True)
    board = tmp_path / "blackpool" / "board.json"
    assert validate_path(tmp_path, game_classes()) == [
        f"{board}: cannot be read (Is a directory): a folder has this file's name; put the file itself here, or "
        "take the folder away"
    ]
    with pytest.raises(InvalidData, match=re.escape(f"{board}: cannot be read")):
        load_data(game_classes()["blackpool"], tmp_path)


def test_a_broken_link_where_a_data_file_belongs_is_refused(tmp_path: Path) -> None:
    (tmp_path / "blackpool").mkdir()
    (tmp_path / "blackpool" / "cards.json").symlink_to(tmp_path / "gone.json")
    said = (
        f"{tmp_path / 'blackpool' / 'cards.json'}: cannot be read (No such file or directory): it is a link to "
        f"{tmp_path / 'gone.json'}, which is not there; put the file itself here"
    )
    with pytest.raises(InvalidData, match=re.escape(said)):
        load_data(game_classes()["blackpool"], tmp_path)
    assert validate_path(tmp_path, game_classes()) == [said]


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any file whatever its mode")
def test_an_unreadable_cafe_folder_is_named(tmp_path: Path) -> None:
    (tmp_path / "blackpool").mkdir()
    (tmp_path / "blackpool" / "cards.json").write_text(house_text("blackpool", "cards"), encoding="utf-8")
    (tmp_path / "blackpool").chmod(0)
    try:
        unreadable = f"{tmp_path / 'blackpool'}: cannot be read (Permission denied)"
        assert validate_path(tmp_path, game_classes()) == [unreadable]
        with pytest.raises(InvalidData, match="cannot be read"):
            load_data(game_classes()["blackpool"], tmp_path)
    finally:
        (tmp_path / "blackpool").chmod(0o755)


def test_an_unreadable_folder_is_reported_not_passed_over(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """As root nothing is unreadable, so the refusal is staged: the walk must report it, not skip it."""
    (tmp_path / "blackpool").mkdir()
    real_scandir = os.scandir

    def scandir(path: object) -> object:
        if Path(os.fsdecode(path)).name == "blackpool":
            raise PermissionError(13, "Permission denied", os.fsdecode(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    problems = validate_path(tmp_path, game_classes())
    assert problems == [
        f"{tmp_path / 'blackpool'}: cannot be read (Permission denied): the table's user may not read it; let "
        "everyone read it (chmod a+r on a file, a+rx on a folder), or copy it in again as that user"
    ]


def test_a_data_file_the_table_may_not_read_says_how_to_let_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """As root every file reads, so the refusal is staged; "Permission denied" alone did not say what to do."""
    (tmp_path / "ttd").mkdir()
    (tmp_path / "ttd" / "camels.json").write_text(house_text("ttd", "camels"), encoding="utf-8")
    real = Path.read_bytes

    def read_bytes(path: Path) -> bytes:
        if path.name == "camels.json" and path.parent.parent == tmp_path:
            raise PermissionError(13, "Permission denied", str(path))
        return real(path)

    monkeypatch.setattr(Path, "read_bytes", read_bytes)
    said = (
        f"{tmp_path / 'ttd' / 'camels.json'}: cannot be read (Permission denied): the table's user may not read "
        "it; let everyone read it (chmod a+r on a file, a+rx on a folder), or copy it in again as that user"
    )
    assert validate_path(tmp_path, game_classes()) == [said]
    with pytest.raises(InvalidData) as refused:
        load_data(game_classes()["ttd"], tmp_path)
    assert refused.value.problems == [said]


@pytest.mark.parametrize("name", ["board.json.txt", "Board.json", "board.JSON", "board (1).json"])
def test_a_data_file_saved_under_another_name_is_named_with_the_one_the_game_reads(name: str, tmp_path: Path) -> None:
    """Notepad's "board.json.txt" (Windows hides the .txt) was passed over in silence: "no JSON data files
    found" from the validator while the game went on with the house board. Its content does not matter."""
    (tmp_path / "desert").mkdir()
    (tmp_path / "desert" / name).write_text("{not even JSON", encoding="utf-8")
    problems = validate_path(tmp_path, game_classes())
    assert problems == [
        f"{tmp_path / 'desert' / name}: never read; the desert game reads only rulebook.json, board.json, "
        "cards.json from this folder; is it board.json? rename it"
        + (" (Notepad adds .txt, and Windows hides it unless file name extensions are shown)" if ".txt" in name else "")
    ]


def test_a_game_in_progress_survives_its_cafe_file_becoming_unreadable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Start-up reports why the game cannot be resumed and keeps it; the old data back, it resumes."""

    def next_start() -> tuple:
        monkeypatch.setattr(registry, "_instances", {})  # a new process: nothing bound to the old files
        return open_table(journal_path, cafe)

    cafe = tmp_path / "cafe"
    (cafe / "blackpool").mkdir(parents=True)
    board = cafe / "blackpool" / "board.json"
    board.write_text(house_text("blackpool", "board"), encoding="utf-8")
    journal_path = tmp_path / "journal.sqlite3"
    journal, session, _ = open_table(journal_path, cafe)
    session = Session.new("blackpool", ["red", "blue"], None, None, journal, cafe)
    session.act(session.legal()[0])
    journal.close()
    board.unlink()
    board.mkdir()
    journal, session, note = next_start()
    assert session is None and "board.json: cannot be read" in note and "stays in the journal" in note
    journal.close()
    board.rmdir()
    board.write_text(house_text("blackpool", "board"), encoding="utf-8")
    journal, session, note = next_start()
    assert session is not None and len(session.log) == 1 and note == ""
    journal.close()


def test_a_key_written_twice_in_one_object_is_named_with_both_values(tmp_path: Path) -> None:
    """A JSON reader keeps the last of two values in silence: "golden_compass": 1 and, below it, 0, read as 0.

    The café was told nobody could ever win while its file said 1; now both places and values are named.
    """
    cards = house_text("desert", "cards").replace('"golden_compass": ', '"golden_compass": 1, "golden_compass": ', 1)
    house = read_json(house_dir(game_classes()["desert"]) / "cards.json")
    (tmp_path / "desert").mkdir()
    (tmp_path / "desert" / "cards.json").write_text(cards, encoding="utf-8")
    said = (
        f"{tmp_path / 'desert' / 'cards.json'}: collection: 'golden_compass' is written twice in one object (1, then "
        f"{house['collection']['golden_compass']}); a JSON reader keeps only the last, so keep only the one meant"
    )
    assert validate_path(tmp_path, game_classes()) == [said]
    with pytest.raises(InvalidData) as refused:
        load_data(game_classes()["desert"], tmp_path)
    assert refused.value.problems == [said]
    # The same value twice (a line pasted twice) reads the same either way; true and 1 are not the same.
    once = house_text("desert", "cards").replace('"golden_compass": ', '"golden_compass": 3, "golden_compass": ', 1)
    (tmp_path / "desert" / "cards.json").write_text(once, encoding="utf-8")
    assert validate_path(tmp_path, game_classes()) == []
    (tmp_path / "desert" / "cards.json").write_text('{"game": "desert", "schema": true, "schema": 1}', encoding="utf-8")
    assert "'schema' is written twice in one object (true, then 1)" in validate_path(tmp_path, game_classes())[0]
