"""Each game's tags: what `hw teach --game G` saves is what `hw play` reads while G is on the table."""

from __future__ import annotations

import os
from pathlib import Path

from companion.cli import main
from companion.controller import Controller
from companion.observations import CardsSeen, LinkChanged
from companion.session import Session
from hardware.dice_link import to_observation
from hardware.dice_protocol import SlotReport
from hardware.dice_sim import SimulatedSensor
from hardware.tags import GameTags, default_tags_path
from tests.at_a_terminal import AtTerminal


def test_a_targi_tag_taught_with_hw_teach_is_read_by_hw_play(tmp_path: Path, own_data_dir: Path) -> None:
    """`hw teach --game targi` saved to targi-tags.json and `hw play` read temple-tags.json whatever the game:
    the Date Basket laid on the board was "not one the sensor knows"."""
    assert main(["hw", "teach", "--game", "targi", "--tag", "04A1", "--card", "G01"]) == 0
    env = {**os.environ, "HOME": str(tmp_path), "XDG_DATA_HOME": str(own_data_dir)}
    with SimulatedSensor() as sensor, AtTerminal(
        "hw", "play", "--journal", str(tmp_path / "j.sqlite3"), "--game", "targi", "--players", "white,black",
        "--dice-sensor", sensor.path, env=env,
    ) as play:
        play.read_until("turn up the goods card at centre 1-1")
        play.read_until("\n? ")
        sensor.slot(1, "04A1")
        play.read_until("Centre 1-1 shows Date Basket.")
        play.read_until("\n? ")
        play.type("q\n")
        code, _rest, said = play.finish()
    assert code == 0 and said == "", (code, said)


def test_each_game_reads_its_own_tag_file_and_the_owner_is_told_which_to_teach(own_data_dir: Path) -> None:
    """A new game of another kind reads that game's file; an unknown tag's log line names the game to teach
    (plain `companion hw teach` taught the temple's tags)."""
    assert main(["hw", "teach", "--game", "targi", "--tag", "04A1", "--card", "G01"]) == 0
    assert main(["hw", "teach", "--tag", "04A2", "--card", "P05"]) == 0
    game = ["targi"]
    tags = GameTags(lambda: game[0])
    assert to_observation(SlotReport(1, "04a1"), "dice sensor", tags) == CardsSeen({1: "G01"}, "dice sensor")
    unknown = to_observation(SlotReport(2, "04A2"), "dice sensor", tags)
    assert isinstance(unknown, LinkChanged)
    assert unknown.detail == "slot 2: unknown tag 04A2; teach it with 'companion hw teach --game targi'"
    game[0] = "temple"
    assert to_observation(SlotReport(2, "04A2"), "dice sensor", tags) == CardsSeen({2: "P05"}, "dice sensor")
    assert sorted(p.name for p in default_tags_path().parent.iterdir()) == ["targi-tags.json", "temple-tags.json"]


def test_a_tag_file_named_for_play_is_read_for_every_game(tmp_path: Path) -> None:
    """`hw play --tags FILE`: that file, whatever the game, and the unknown tag's hint names it."""
    assert main(["hw", "teach", "--game", "targi", "--tags", str(tmp_path / "my tags.json"), "--tag", "04A1",
                 "--card", "G01"]) == 0
    tags = GameTags(lambda: "targi", tmp_path / "my tags.json")
    assert tags.card("04A1") == "G01"
    assert tags.teach_command == f"companion hw teach --game targi --tags '{tmp_path / 'my tags.json'}'"
    assert GameTags(lambda: None).card("04A1") is None  # no game on the table yet


def test_the_apps_dice_sensor_reads_the_tags_of_the_game_on_the_table(tmp_path: Path) -> None:
    """The app read temple-tags.json whatever the game, as `hw play` did."""
    from ui.inputs import close_one, start

    assert main(["hw", "teach", "--game", "targi", "--tag", "04A1", "--card", "G01"]) == 0
    controller = Controller(Session.new("targi", ["white", "black"]))
    link = start(controller, "serial", str(tmp_path / "no-port"))
    try:
        assert link.tags.card("04A1") == "G01"
    finally:
        close_one(link)
