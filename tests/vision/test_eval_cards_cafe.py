"""`vision eval-cards` scores the café's own deck and board, as `watch` and `teach-card` read them.

It took the house files whatever `companion --cafe DIR` (or `$COMPANION_CAFE_DIR`)
named, so a café that printed its own cards could not check the reader on them
and took the house numbers for its own.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from companion.cli import main as companion_main
from vision.card_reader import CardReader
from vision.cli import main as vision_main
from vision.eval_cards import SYNTHETIC, deck_to_score, evaluate_cards

HOUSE = Path(__file__).resolve().parents[2] / "companion" / "games" / "temple" / "data"


@pytest.fixture(autouse=True)
def no_cafe_of_the_machine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The machine's own café folder, if it has one, must not stand in for the house data here."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("COMPANION_CAFE_DIR", raising=False)


def cafe_with_own_deck(root: Path) -> Path:
    """A café that printed the deck under its own numbers (K01, K02, ...) and copied the house board."""
    cafe = root / "cafe"
    (cafe / "temple").mkdir(parents=True)
    deck = json.loads((HOUSE / "cards.json").read_text())
    for card in deck["cards"]:
        card["id"] = "K" + card["id"][1:]
    (cafe / "temple" / "cards.json").write_text(json.dumps(deck))
    shutil.copy(HOUSE / "board.json", cafe / "temple" / "board.json")
    return cafe


def test_eval_cards_scores_the_deck_and_board_of_the_cafe_named(tmp_path: Path, capsys) -> None:
    cafe = cafe_with_own_deck(tmp_path)
    assert companion_main(["--cafe", str(cafe), "vision", "eval-cards", "--frames", "2"]) == 0
    out = capsys.readouterr().out
    assert f"scored on: cards {cafe / 'temple' / 'cards.json'}, board {cafe / 'temple' / 'board.json'}" in out
    assert companion_main(["--cafe", str(cafe), "vision", "eval-cards", "--frames", "2", "--json"]) == 0
    captured = capsys.readouterr()
    assert set(json.loads(captured.out)) == {"slot_accuracy", "ms_per_frame", "frames"}  # the JSON keeps its keys
    assert f"scored on: cards {cafe / 'temple' / 'cards.json'}" in captured.err


def test_eval_cards_takes_the_cafe_from_the_environment_as_the_other_commands_do(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    cafe = cafe_with_own_deck(tmp_path)
    monkeypatch.setenv("COMPANION_CAFE_DIR", str(cafe))
    assert vision_main(["vision", "eval-cards", "--frames", "1", "--synthetic-deck"]) == 0
    out = capsys.readouterr().out
    assert f"scored on: cards {SYNTHETIC}, board {cafe / 'temple' / 'board.json'}" in out  # the café's board


def test_without_a_cafe_the_house_deck_is_scored_and_said(capsys) -> None:
    assert vision_main(["vision", "eval-cards", "--frames", "1"]) == 0
    assert "scored on: cards house:temple/cards.json, board house:temple/board.json" in capsys.readouterr().out


def test_a_broken_cafe_deck_is_said_and_the_house_deck_scored(tmp_path: Path, capsys) -> None:
    cafe = tmp_path / "cafe"
    (cafe / "temple").mkdir(parents=True)
    (cafe / "temple" / "cards.json").write_text('{"game": "temple", "kind": "cards", broken')
    assert companion_main(["--cafe", str(cafe), "vision", "eval-cards", "--frames", "1"]) == 0
    captured = capsys.readouterr()
    assert "the café's temple data cannot be used" in captured.err and "cards.json" in captured.err
    assert "the house deck and board are used instead" in captured.err
    assert "scored on: cards house:temple/cards.json, board house:temple/board.json" in captured.out


def test_the_cafe_deck_is_rendered_and_read_by_its_own_ids(tmp_path: Path) -> None:
    """The photos show the café's cards and the reader names them by the café's ids, and reads them right."""
    deck = deck_to_score(cafe_with_own_deck(tmp_path))
    assert deck.cards and all(card.id.startswith("K") for card in deck.cards)
    reader = CardReader(deck.cards, deck.board)
    assert all(card_id.startswith("K") for card_id in reader.groups)
    score = evaluate_cards(reader, deck.cards, deck.board, frames=4, seed=3)
    assert score.frames == 4 and score.summary()["slot_accuracy"] >= 0.9
