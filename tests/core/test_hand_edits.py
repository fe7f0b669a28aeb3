"""A café owner's hand edits of a data file, each answered with what to change, in the file's own words.

Typing slips (a field name misspelt, a number in quotes) were reported as two
faults or as a type alone: ``missing field 'name'`` beside ``unknown field
'nmae'``, and ``expected an integer, found text`` for ``"count": "3"``.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest

from companion.data import house_dir, load_data, read_json, validate_path
from companion.errors import InvalidData
from companion.registry import game_classes


def edited(tmp_path: Path, game_id: str, kind: str, change) -> list[str]:
    """The validator's problems with one house file changed as ``change`` changes it, written into a café folder."""
    content = read_json(house_dir(game_classes()[game_id]) / f"{kind}.json")
    change(content)
    cafe = Path(tempfile.mkdtemp(dir=tmp_path))
    folder = cafe / game_id
    folder.mkdir()
    (folder / f"{kind}.json").write_text(json.dumps(content), encoding="utf-8")
    # Faults across files are said "<game> set (<kinds> given): ..." by the validator, plainly at game start.
    problems = [p.removeprefix(f"{game_id} set ({kind} given): ") for p in validate_path(folder, game_classes())]
    with pytest.raises(InvalidData) as refused:  # the same problems stop the game starting
        load_data(game_classes()[game_id], cafe)
    assert refused.value.problems == problems
    return [p.replace(f"{folder}/", "") for p in problems]


def rename(entry: dict, old: str, new: str) -> None:
    entry[new] = entry.pop(old)


def test_a_misspelt_field_is_one_problem_naming_the_field_meant(tmp_path: Path) -> None:
    assert edited(tmp_path, "targi", "goods", lambda c: rename(c["cards"][0], "label", "lable")) == [
        "goods.json: cards[0] (id 'G01'): unknown field 'lable': is it 'label', which is missing? rename it"
    ]
    assert edited(tmp_path, "ttd", "camels", lambda c: rename(c, "supply_by_players", "Supply_By_Players")) == [
        "camels.json: unknown field 'Supply_By_Players': is it 'supply_by_players', which is missing? rename it"
    ]
    # An optional field misspelt would have been ignored had it been allowed: it is named too, not dropped.
    problems = edited(tmp_path, "ttd", "camels", lambda c: rename(c["colours"][0], "letter", "leter"))
    assert problems == ["camels.json: colours[0] (id 'pink'): unknown field 'leter': is it 'letter'? rename it"]
    # A field like no other is still plain unknown.
    assert edited(tmp_path, "ttd", "camels", lambda c: c["colours"][0].update(flavour="mint")) == [
        "camels.json: colours[0] (id 'pink'): unknown field 'flavour'"
    ]


def test_a_misspelt_card_or_choice_names_the_one_meant(tmp_path: Path) -> None:
    problems = edited(tmp_path, "desert", "cards", lambda c: rename(c["collection"], "golden_compass", "Golden_Compas"))
    assert problems[0] == (
        "cards.json: collection key 'Golden_Compas': 'Golden_Compas' is not one of 'golden_compass', "
        "'desert_flask', 'sunshield_amulet', 'sandstorm_sneakers', 'mirage_cloak'; is it 'golden_compass'?"
    )


def test_a_number_or_truth_in_quotes_is_told_to_lose_them(tmp_path: Path) -> None:
    assert edited(tmp_path, "ttd", "waterholes", lambda c: c["tokens"][0].update(count="15")) == [
        "waterholes.json: tokens[0] (id '1').count: expected an integer, found text; write 15 without quotes"
    ]
    assert edited(tmp_path, "ttd", "board", lambda c: c.update(house="true")) == [
        "board.json: house: expected true or false, found text; write true without quotes"
    ]
    assert edited(tmp_path, "ttd", "waterholes", lambda c: c["tokens"][0].update(count=15.0)) == [
        "waterholes.json: tokens[0] (id '1').count: expected an integer, found number 15.0; write 15, without the "
        "decimal point"
    ]
    assert edited(tmp_path, "ttd", "waterholes", lambda c: c["tokens"][0].update(count="fifteen")) == [
        "waterholes.json: tokens[0] (id '1').count: expected an integer, found text"
    ]


def test_a_list_emptied_says_how_many_entries_it_needs(tmp_path: Path) -> None:
    assert edited(tmp_path, "ttd", "waterholes", lambda c: c.update(tokens=[])) == [
        "waterholes.json: tokens: needs at least 1 entry, has 0"
    ]


def test_a_reference_to_an_id_the_file_lacks_names_the_one_most_likely_meant(tmp_path: Path) -> None:
    """A square, region or clause typed in the wrong case, or a letter off, was only "no square 'F6'"."""
    problems = edited(tmp_path, "blackpool", "board", lambda c: c["paths"]["red"].__setitem__(1, "F6"))
    assert "board.json: paths.red[1]: no square 'F6'; is it 'f6'?" in problems
    problems = edited(tmp_path, "blackpool", "board", lambda c: c["camps"].update(red="i99"))
    assert "board.json: camps.red: no square 'i99'; is it 'i9'?" in problems
    problems = edited(tmp_path, "ttd", "board", lambda c: c["cells"][0].update(region="Main"))
    assert any("unknown region 'Main'; is it 'main'?; regions: main" in p for p in problems), problems

    def see_wrong(book: dict, ref: str) -> None:
        book["clauses"][0]["see"] = [ref]

    assert edited(tmp_path, "ttd", "rulebook", lambda c: see_wrong(c, "TDQ20")) == [
        "rulebook.json: clauses[0] (id 'TTD-T').see: no clause TDQ20; is it 'TD-Q20'?"
    ]
    # TD-Q2O (a capital O for the zero) is as near TD-Q20 as TD-Q21 to TD-Q27: no guess rather than a wrong one.
    assert edited(tmp_path, "ttd", "rulebook", lambda c: see_wrong(c, "TD-Q2O")) == [
        "rulebook.json: clauses[0] (id 'TTD-T').see: no clause TD-Q2O"
    ]


def test_two_entries_the_table_names_alike_are_refused(tmp_path: Path) -> None:
    """Two desert spaces called "Desert Dawn" made "move to Desert Dawn" name neither; two camel colours
    called "pink" made "Red's pink caravan" do the same. Case and spacing do not make a name another."""

    def rename_second(key: str, to: str):
        return lambda c: c[key][1].update(name=to)

    assert edited(tmp_path, "desert", "board", rename_second("spaces", "desert  DAWN")) == [
        "board.json: spaces[1] (id 'palm_spring').name: 'desert  DAWN' is also the name of spaces[0] (id 'dawn'); "
        "the table's texts and buttons tell entries apart by name, so give each its own"
    ]
    assert edited(tmp_path, "ttd", "camels", rename_second("colours", "Pink")) == [
        "camels.json: colours[1] (id 'green').name: 'Pink' is also the name of colours[0] (id 'pink'); the table's "
        "texts and buttons tell entries apart by name, so give each its own"
    ]
