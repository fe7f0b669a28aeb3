"""Two cards of a café's deck under one name are refused; a card written twice as a copy is warned of.

The table's draw buttons, referee texts and "why <name>" tell cards apart by
the name printed on them: two Blackpool cards both called "Gust of Force", or
two Targi border cards both called "Noble", passed validation while the table
could not say which was meant. Copies of one card are normal in a deck, so an
entry alike in all but its id is valid, with a warning to write a count.
Ids a player types or hears are kept apart the same way, case aside.
Each test edits a template the validator wrote (``data template``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main
from companion.registry import create

Edit = Callable[[list[dict[str, Any]]], None]


def validated(
    folder: Path, game: str, kind: str, change: Edit, capsys: pytest.CaptureFixture[str], key: str = "cards"
) -> tuple[int, list[str]]:
    """``data validate``'s exit code and lines for a template of ``game`` whose ``kind`` list ``key`` (its cards)
    ``change`` edits."""
    assert main(["data", "template", game, str(folder)]) == 0
    path = folder / game / f"{kind}.json"
    content = json.loads(path.read_text(encoding="utf-8"))
    change(content[key])
    path.write_text(json.dumps(content), encoding="utf-8")
    capsys.readouterr()
    code = main(["data", "validate", str(folder / game)])
    return code, capsys.readouterr().out.splitlines()


def test_two_different_blackpool_cards_under_one_name_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def freeze_named_gust(cards: list[dict[str, Any]]) -> None:
        cards[3]["name"] = "gust of  FORCE"  # the Freeze card: case and spacing do not make another name

    code, out = validated(tmp_path, "blackpool", "cards", freeze_named_gust, capsys)
    assert code == 1
    assert out == [
        f"{tmp_path / 'blackpool' / 'cards.json'}: cards[3] (id 'freeze').name: 'gust of  FORCE' is also the name "
        "of cards[0] (id 'gust_of_force'), a different card (its deck, effect and params differ); the table's texts "
        "and buttons tell cards apart by name, so give each its own (copies of one card are one entry with a count)"
    ]


def test_a_blackpool_card_written_again_as_a_copy_is_valid_with_a_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def copy_gust(cards: list[dict[str, Any]]) -> None:
        cards.append({**cards[0], "id": "gust_again", "count": 2, "note": "the second print run"})

    code, out = validated(tmp_path, "blackpool", "cards", copy_gust, capsys)
    folder = tmp_path / "blackpool"
    assert code == 0
    assert out == [
        f"warning: {folder / 'cards.json'}: cards[6] (id 'gust_again'): a copy of cards[0] (id 'gust_of_force') "
        "('Gust of Force'), alike but for its id: it plays the same, but the table lists and offers each on its own "
        'under one name (a draw offers both); write that card once with "count": 3 and take this entry out',
        f"{folder}: valid (1 warning)",
    ]
    # A game started on it carries the warning too (the table's start line shows the first).
    assert [w.split(": ")[1] for w in create("blackpool", tmp_path).data.warnings] == ["cards[6] (id 'gust_again')"]


def test_two_targi_border_cards_under_one_label_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = validated(tmp_path, "targi", "border", lambda cards: cards[4].update(label="Noble"), capsys)
    assert code == 1
    assert out == [
        f"{tmp_path / 'targi' / 'border.json'}: cards[4] (no 5).label: 'Noble' is also the label of cards[0] (no 1); "
        "the table's texts and buttons tell entries apart by label, so give each its own"
    ]


@pytest.mark.parametrize(("kind", "field"), [("goods", "yield"), ("tribe", "vp")])
def test_two_different_targi_centre_cards_under_one_label_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str, field: str
) -> None:
    def relabel(cards: list[dict[str, Any]]) -> None:
        other = next(i for i, c in enumerate(cards) if c[field] != cards[0][field])
        cards[other]["label"] = cards[0]["label"]

    code, out = validated(tmp_path, "targi", kind, relabel, capsys)
    assert code == 1
    assert len(out) == 1
    assert out[0].startswith(f"{tmp_path / 'targi' / (kind + '.json')}: cards[")
    assert "is also the label of cards[0] (id '" in out[0]
    assert field in out[0].split("a different card (its ")[1].split(")")[0]  # what tells the two apart
    assert out[0].endswith("so give each its own (copies of one card are one entry with a count)")


def test_a_targi_card_written_again_as_a_copy_is_valid_with_a_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def copy_first(cards: list[dict[str, Any]]) -> None:
        cards.append({**cards[0], "id": "T99", "count": 2})

    code, out = validated(tmp_path, "targi", "tribe", copy_first, capsys)
    folder = tmp_path / "targi"
    assert code == 0
    assert out[-1] == f"{folder}: valid (1 warning)"
    assert out[0] == (
        f"warning: {folder / 'tribe.json'}: cards[45] (id 'T99'): a copy of cards[0] (id 'T01') ('Deep Cistern'), "
        "alike but for its id: it plays the same, but the table lists and offers each on its own under one name (a "
        'draw offers both); write that card once with "count": 3 and take this entry out'
    )


def test_a_targi_label_two_files_share_is_refused_naming_both(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def like_goods_and_border(cards: list[dict[str, Any]]) -> None:
        cards[0]["label"] = "date  basket"  # a goods card's
        cards[1]["label"] = "NOBLE"  # a border card's

    code, out = validated(tmp_path, "targi", "tribe", like_goods_and_border, capsys)
    assert code == 1
    given = "targi set (border, goods, rulebook, tribe given): "
    assert out == [
        f"{given}tribe.json card 'T01': label 'date  basket' is also the label of goods.json card 'G01'; the table "
        "names border and centre cards by label, so give each its own",
        f"{given}tribe.json card 'T02': label 'NOBLE' is also the label of border.json card no 1; the table names "
        "border and centre cards by label, so give each its own",
    ]


def test_two_blackpool_squares_whose_ids_differ_only_in_case_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A square is typed in any case ("why C2" is c2): a square "C2" beside "c2" could never be asked about."""

    def capital(squares: list[dict[str, Any]]) -> None:
        squares[11]["id"] = squares[10]["id"].upper()

    code, out = validated(tmp_path, "blackpool", "board", capital, capsys, "squares")
    assert code == 1
    assert out[0] == (
        f"{tmp_path / 'blackpool' / 'board.json'}: squares[11] (id 'B2').id: 'B2' is also the id of squares[10] "
        "(id 'b2'); the table's texts and buttons tell entries apart by id, so give each its own"
    )


def test_an_id_written_twice_is_said_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = validated(tmp_path, "temple", "cards", lambda cards: cards[1].update(id=cards[0]["id"]), capsys)
    assert code == 1
    assert out == [f"{tmp_path / 'temple' / 'cards.json'}: cards[1] (id 'P01'): id 'P01' appears twice"]


def test_temple_card_ids_that_read_alike_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A path card's id is its name on its button and aloud: "p02" beside "P02" reads as one card."""
    code, out = validated(tmp_path, "temple", "cards", lambda cards: cards[2].update(id="p02"), capsys)
    assert code == 1
    assert out == [
        f"{tmp_path / 'temple' / 'cards.json'}: cards[2] (id 'p02').id: 'p02' is also the id of cards[1] (id 'P02'); "
        "the table's texts and buttons tell entries apart by id, so give each its own"
    ]

    def ak_like_a_path_card(content: dict[str, Any]) -> None:
        content["id"] = "p01"

    code, out = validated(tmp_path / "ak", "temple", "cards", ak_like_a_path_card, capsys, "ahKinchil")
    assert code == 1
    assert out == [
        "temple set (board, cards, die, rulebook given): cards.json: the Ah Kinchil card id 'p01' is also a path "
        "card id ('P01' reads the same)"
    ]
