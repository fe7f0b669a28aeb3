"""Each game's tags: what `hw teach --game G` saves is what `hw play` reads while G is on the table."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from companion.cli import main
from companion.controller import Controller
from companion.observations import CardsSeen, LinkChanged
from companion.registry import create, game_classes
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
    game = [create("targi")]
    tags = GameTags(lambda: game[0])
    assert to_observation(SlotReport(1, "04a1"), "dice sensor", tags) == CardsSeen({1: "G01"}, "dice sensor")
    unknown = to_observation(SlotReport(2, "04A2"), "dice sensor", tags)
    assert isinstance(unknown, LinkChanged)
    assert unknown.detail == "slot 2: unknown tag 04A2; teach it with 'companion hw teach --game targi'"
    game[0] = create("temple")
    assert to_observation(SlotReport(2, "04A2"), "dice sensor", tags) == CardsSeen({2: "P05"}, "dice sensor")
    assert sorted(p.name for p in default_tags_path().parent.iterdir()) == ["targi-tags.json", "temple-tags.json"]


def test_a_tag_file_named_for_play_is_read_for_every_game(tmp_path: Path) -> None:
    """`hw play --tags FILE`: that file, whatever the game, and the unknown tag's hint names it."""
    assert main(["hw", "teach", "--game", "targi", "--tags", str(tmp_path / "my tags.json"), "--tag", "04A1",
                 "--card", "G01"]) == 0
    tags = GameTags(lambda: create("targi"), tmp_path / "my tags.json")
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


def test_teaching_at_the_board_offers_every_targi_card_and_keeps_a_tag_for_each_copy(
    tmp_path: Path, own_data_dir: Path
) -> None:
    """The cards offered were the opening's legal moves: for Targi its goods cards alone, so a tribe card laid on
    the board was "no card 'T05'"; and the second Date Basket taught took the first one's tag away."""
    env = {**os.environ, "HOME": str(tmp_path), "XDG_DATA_HOME": str(own_data_dir)}
    with SimulatedSensor() as sensor, AtTerminal("hw", "teach", "--game", "targi", "--dice-sensor", sensor.path,
                                                 env=env) as teach:
        # 57 different cards, and 64 to sticker: "(57 cards)" had the owner stop with the second copies untagged.
        teach.read_until("type its card id or name (57 different cards, 64 in the deck with their copies: each copy "
                         "takes a tag of its own), or q to stop.")
        teach.read_until("[dice sensor connected")
        for slot, (tag, card) in enumerate([("04A1", "t05"), ("04A2", "G01"), ("04A3", "G01")], start=1):
            sensor.slot(slot, tag)
            teach.read_until(f"tag {tag} (slot {slot}): card? ")
            teach.type(f"{card}\n")
            teach.read_until(f"  saved ({slot} of 64 cards tagged; ")
        teach.type("q\n")
        code, _rest, said = teach.finish()
    assert code == 0 and said == "", (code, said)
    links = json.loads(default_tags_path("targi").read_text())["tags"]
    assert links == {"04A1": "T05", "04A2": "G01", "04A3": "G01"}


def test_a_card_keeps_as_many_tags_as_the_deck_has_copies_the_newest(own_data_dir: Path) -> None:
    """Three Golden Compasses in the desert race's house deck: a fourth sticker taught drops the oldest (a card
    stickered again), and the temple's one-of-each cards keep one tag each, as before."""
    assert create("desert").card_copies()["golden_compass"] == 3
    for tag in ("04A1", "04A2", "04A3", "04A4"):
        assert main(["hw", "teach", "--game", "desert", "--tag", tag, "--card", "Golden_Compass"]) == 0
    assert json.loads(default_tags_path("desert").read_text())["tags"] == dict.fromkeys(("04A2", "04A3", "04A4"),
                                                                                         "golden_compass")
    for tag in ("04B1", "04B2"):
        assert main(["hw", "teach", "--tag", tag, "--card", "P05"]) == 0
    assert json.loads(default_tags_path().read_text())["tags"] == {"04B2": "P05"}


@pytest.mark.parametrize("game_id", sorted(game_classes()))
def test_every_card_a_game_draws_can_be_taught(game_id: str) -> None:
    """Whatever card a game asks to be drawn, in random play, is one `hw teach` offers (`Game.card_copies`)."""
    game = create(game_id)
    drawn: set[str] = set()
    for seed in range(2):
        rng = random.Random(seed)
        session = Session.new(game_id, list(game.colours[:2]))
        for _ in range(300):
            legal = session.legal()
            if session.pending().is_over or not legal:
                break
            drawn |= {str(a["card"]) for a in legal if a["type"] == "draw" and a.get("deck") not in game.token_decks}
            session.act({k: v for k, v in rng.choice(legal).items() if k != "text"})
    assert drawn <= set(game.card_copies()), drawn - set(game.card_copies())
    assert bool(drawn) == bool(game.card_copies())  # Through the Desert draws only tokens, which carry no tag
