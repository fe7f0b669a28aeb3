"""A broken tag file is told to the owner, naming the file and what is wrong, and play goes on: it was read as
no tags, in silence, and every card laid was "not one the sensor knows" (the owner sent to teach again)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from companion.observations import CardsSeen, LinkChanged
from companion.registry import create
from hardware.dice_link import to_observation
from hardware.dice_protocol import SlotReport
from hardware.dice_sim import SimulatedSensor
from hardware.tags import GameTags, TagMap, default_tags_path
from tests.at_a_terminal import AtTerminal

BROKEN = [
    ('{"tags": {"04A1": "P05",}}', "cannot be read as a tag file (not valid JSON at line 1, column 25: "),
    ('["04A1", "P05"]', 'is not a tag file (one holds {"tags": {"04A1": "P05", ...}})'),
    ('{"tags": {"04A1": 5}}', "is not a tag file"),
    ("", "is empty"),
]


@pytest.mark.parametrize(("content", "said"), BROKEN)
def test_a_broken_tag_file_is_named_with_what_is_wrong(tmp_path: Path, content: str, said: str) -> None:
    path = tmp_path / "temple-tags.json"
    path.write_text(content)
    problem = TagMap.problem(path)
    assert problem is not None and problem.startswith(f"{path} {said}"), problem
    assert problem.endswith("no tag is read from it")


def test_a_tag_file_that_cannot_be_read_or_is_not_there(tmp_path: Path) -> None:
    """A folder in the file's place cannot be read; no file is nothing taught yet, and no problem."""
    assert TagMap.problem(tmp_path / "none.json") is None
    (tmp_path / "folder.json").mkdir()
    problem = TagMap.problem(tmp_path / "folder.json")
    assert problem == (f"{tmp_path / 'folder.json'} cannot be read (Is a directory): a folder has this file's name; "
                       "put the file itself here, or take the folder away: no tag is read from it")
    (tmp_path / "good.json").write_text('{"tags": {"04A1": "P05"}}')
    assert TagMap.problem(tmp_path / "good.json", {"P05"}) is None


def test_a_tag_naming_a_card_the_game_lacks_is_named_and_not_read_as_that_card() -> None:
    """The café renamed or took out a card after teaching: the tag was read as a card the game has not."""
    path = default_tags_path("temple")
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"tags": {"04A1": "P05", "04A2": "P99", "04A3": "Q1"}}))
    tags = GameTags(lambda: create("temple"))
    assert to_observation(SlotReport(1, "04A1"), "dice sensor", tags) == CardsSeen({1: "P05"}, "dice sensor")
    stale = to_observation(SlotReport(2, "04A2"), "dice sensor", tags)
    assert isinstance(stale, LinkChanged)
    assert tags.problem() == (f"{path}: tag 04A2 names card 'P99' (and 1 more tag a card not there), which is not "
                              f"among the cards of {create('temple').title} in the data it plays with: teach those "
                              "cards again")
    assert stale.detail == f"slot 2: tag 04A2 not read: {tags.problem()}"
    assert stale.table == f"Card tags: {tags.problem()}. Play goes on: tap the cards on the screen."
    again = to_observation(SlotReport(3, "04A3"), "dice sensor", tags)  # told once on the table; the log each time
    assert isinstance(again, LinkChanged) and again.table == "The card in slot 3 is not read: tap it on the screen."


def test_hw_play_tells_a_broken_tag_file_once_as_play_starts_and_plays_on(tmp_path: Path, own_data_dir: Path) -> None:
    path = default_tags_path("temple")
    path.parent.mkdir(parents=True)
    path.write_text('{"tags": {"04A1": "P05",}}')  # a comma left after the last link, mended by hand
    env = {**os.environ, "HOME": str(tmp_path), "XDG_DATA_HOME": str(own_data_dir)}
    problem = f"{path} cannot be read as a tag file (not valid JSON at line 1, column 25: "
    with SimulatedSensor() as sensor, AtTerminal(
        "hw", "play", "--journal", str(tmp_path / "j.sqlite3"), "--game", "temple", "--players", "blue,green",
        "--dice-sensor", sensor.path, env=env,
    ) as play:
        before = play.read_until("no tag is read from it]")  # before any card is laid
        assert f"[dice sensor: {problem}" in before
        sensor.slot(1, "04A1")
        after = play.read_until("no tag is read from it]")
        assert f"[dice sensor: slot 1: tag 04A1 not read: {problem}" in after
        play.type("P05\n")  # play goes on: the card laid is entered by hand
        after += play.read_until("for slot 2")
        play.type("q\n")
        code, rest, said = play.finish()
    assert code == 0 and said == "", (code, said)
    assert (before + after + rest).count(f"[dice sensor: {problem}") == 1


def test_hw_test_says_each_tag_file_and_counts_a_broken_one_as_a_problem(
    own_data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Where the owner checks the table before opening: nothing looked at the tag files."""
    from companion.cli import main

    assert main(["hw", "test", "--buttons", "none", "--dice-sensor", "loop://"]) == 1  # loop:// answers nothing
    none = "Card tags:\n  none taught yet (companion hw teach --game GAME)\n1 problem(s) found."
    assert none in capsys.readouterr().out
    assert main(["hw", "teach", "--game", "targi", "--tag", "04A1", "--card", "G01"]) == 0
    default_tags_path("desert").write_text('{"tags": {"04A1": "golden_compass"')
    capsys.readouterr()
    assert main(["hw", "test", "--buttons", "none", "--dice-sensor", "loop://"]) == 1
    out = capsys.readouterr().out
    assert f"Card tags:\n  {default_tags_path('desert')} cannot be read as a tag file (" in out
    assert f"\n  {default_tags_path('targi')}: 1 tag\n2 problem(s) found.\n" in out


def test_the_apps_status_line_names_a_broken_tag_file_as_the_sensor_starts(tmp_path: Path) -> None:
    """The app reads the sensor through the same link: its status line is the update's "table" words, even
    with the sensor not plugged in yet."""
    from companion.controller import Controller
    from companion.session import Session
    from ui.inputs import close_one, start

    path = default_tags_path("temple")
    path.parent.mkdir(parents=True)
    path.write_text('{"tags": ["04A1"]}')
    controller = Controller(Session.new("temple", ["blue", "green"]))
    link = start(controller, "serial", str(tmp_path / "no-port"))
    try:
        notes: list[str] = []
        for _ in range(20):  # the link says "cannot open" too; the note comes first, before the port is tried
            notes += [u.detail["table"] for u in controller.wait_and_pump(1.0) if u.detail.get("note")]
            if notes:
                break
        assert notes == [
            f'Card tags: {path} is not a tag file (one holds {{"tags": {{"04A1": "P05", ...}}}}): no tag is read '
            "from it. Play goes on: tap the cards on the screen."]
    finally:
        close_one(link)
