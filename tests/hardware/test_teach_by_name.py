"""`hw teach` takes a card by the name printed on it as well as by its data id: Blackpool's and the desert race's
cards were taught as 'golden_compass' alone, which no card shows; and its prompt counts the cards to sticker."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from companion.cli import main
from hardware.cli import card_named, cards_called, no_such_card
from hardware.dice_sim import SimulatedSensor
from hardware.tags import default_tags_path
from tests.at_a_terminal import AtTerminal


@pytest.mark.parametrize(("game", "typed", "card"), [
    ("desert", "Golden Compass", "golden_compass"),
    ("desert", "camel's blessing", "camels_blessing"),
    ("desert", "CAMELS BLESSING", "camels_blessing"),
    ("desert", "Camel\u2019s  Blessing ", "camels_blessing"),
    ("blackpool", "diagonal step up", "diagonal_step_up"),
    ("targi", "Date Basket", "G01"),
    ("desert", "golden_compass", "golden_compass"),  # the id, as before
])
def test_a_card_is_taught_by_its_printed_name(game: str, typed: str, card: str,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hw", "teach", "--game", game, "--tag", "04A1", "--card", typed]) == 0
    assert json.loads(default_tags_path(game).read_text())["tags"] == {"04A1": card}
    assert f"tag 04A1 -> card {card}" in capsys.readouterr().out


def test_a_name_two_cards_share_names_neither_and_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    """A café's deck where two cards are printed alike: the name is no card, and the ids are named to type."""
    known, names = {"G01", "G07", "G02"}, {"G01": "Date Basket", "G07": "Date Basket", "G02": "Salt Block"}
    assert cards_called("date basket", known, names) == ["G01", "G07"]
    assert card_named("date basket", known, names) is None
    assert card_named("g07", known, names) == "G07"
    assert no_such_card("Date Basket", known, names) == ("'Date Basket' is the name of G01 and G07: type the id of "
                                                         "the one in hand")
    assert main(["hw", "teach", "--game", "desert", "--tag", "04A1", "--card", "Golden"]) == 2
    assert "argument --card: no card 'Golden' in the " in capsys.readouterr().err


def test_teaching_at_the_board_takes_the_name_read_off_the_card(tmp_path: Path, own_data_dir: Path) -> None:
    env = {**os.environ, "HOME": str(tmp_path), "XDG_DATA_HOME": str(own_data_dir)}
    with SimulatedSensor() as sensor, AtTerminal("hw", "teach", "--game", "desert", "--dice-sensor", sensor.path,
                                                 env=env) as teach:
        teach.read_until("type its card id or name (")
        teach.read_until("[dice sensor connected")
        sensor.slot(1, "04A1")
        teach.read_until("tag 04A1 (slot 1): card? ")
        teach.type("Mirage Cloak\n")
        teach.read_until("  saved (")
        teach.type("q\n")
        code, _rest, said = teach.finish()
    assert code == 0 and said == "", (code, said)
    assert json.loads(default_tags_path("desert").read_text())["tags"] == {"04A1": "mirage_cloak"}
