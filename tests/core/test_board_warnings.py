"""A café's Targi card that the board at 800x480 would draw under 16 px is warned of, without a screen.

The validator and a game's start measure with the screen font's widths kept in
companion.screen_font and the cards' room in companion.games.targi.card_words
(tests/ui/test_targi_card_words.py measures both again on the real board).
The data stays valid: the game plays the same, only the board reads worse.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.cli import main
from companion.registry import create


def crowd(folder: Path) -> Path:
    """Card 2 of a café's border gives four goods, card T01 of its tribe deck four cost options."""
    target = folder / "targi"
    border = json.loads((target / "border.json").read_text())
    border["cards"][1]["action"]["gain"] = {"dates": 5, "salt": 5, "pepper": 5, "gold": 5}
    (target / "border.json").write_text(json.dumps(border))
    tribe = json.loads((target / "tribe.json").read_text())
    tribe["cards"][0]["cost"] = [{"dates": 3, "salt": 2}, {"pepper": 3, "gold": 1}, {"salt": 4}, {"gold": 2}]
    (target / "tribe.json").write_text(json.dumps(tribe))
    return target


def test_validate_warns_naming_file_card_field_text_and_the_most_that_fits(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["data", "template", "targi", str(tmp_path)]) == 0
    capsys.readouterr()
    assert main(["data", "validate", str(tmp_path / "targi")]) == 0
    assert "warning" not in capsys.readouterr().out  # the house numbers all fit
    folder = crowd(tmp_path)
    assert main(["data", "validate", str(folder)]) == 0  # still valid: a warning refuses nothing
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == f"{folder}: valid (2 warnings)"
    assert out[0] == (
        f"warning: {folder / 'border.json'}: card 2 ('Palm Grove'): its action is drawn as '+5D +5S +5P +5G' on "
        "Targi's board, which at 800x480 shrinks it under 16 px or cuts it (the card has 1 line 72 px wide for "
        "it); the most that fits is '+5D +5S': give it fewer goods"
    )
    assert out[1].startswith(f"warning: {folder / 'tribe.json'}: card T01 ('Deep Cistern'): its cost is drawn as "
                             "'1 VP 3D2S/3P1G/4S/2G'")  # fmt: skip
    assert out[1].endswith("the most that fits is '1 VP 3D 2S': give it fewer cost options")


def test_a_game_set_up_on_such_data_carries_the_warnings(tmp_path: Path) -> None:
    assert main(["data", "template", "targi", str(tmp_path)]) == 0
    assert create("targi", tmp_path).data.warnings == ()
    crowd(tmp_path)
    warnings = create("targi", tmp_path).data.warnings
    assert [w.split(": ")[1] for w in warnings] == ["card 2 ('Palm Grove')", "card T01 ('Deep Cistern')"]
