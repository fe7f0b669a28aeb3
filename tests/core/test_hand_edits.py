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
    problems = validate_path(folder / f"{kind}.json", game_classes())
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
    assert edited(tmp_path, "ttd", "waterholes", lambda c: c["tokens"][0].update(count="fifteen")) == [
        "waterholes.json: tokens[0] (id '1').count: expected an integer, found text"
    ]


def test_a_list_emptied_says_how_many_entries_it_needs(tmp_path: Path) -> None:
    assert edited(tmp_path, "ttd", "waterholes", lambda c: c.update(tokens=[])) == [
        "waterholes.json: tokens: needs at least 1 entry, has 0"
    ]
