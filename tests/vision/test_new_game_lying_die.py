"""A new game begun while the last game's die still lies in the tray: the camera sees it again, and a hand passes
over it, and it is no roll of the new game.

Real OpenCV and the real d6 reader on a folder of rendered frames, the feed made as the app makes it
(`start_camera`, its readers following the controller's game); the new game is begun the moment the last game's roll
is taken, while the camera still reads frames.
"""

from __future__ import annotations

import threading
from pathlib import Path

import numpy as np
import pytest

from companion.controller import Controller
from companion.observations import LinkChanged
from companion.session import Session
from tests.controller_loop import pump_until
from tests.vision.test_feed import dice_news, hand_over, held_after_a_read, rolled_then_a_hand_over, write_frames
from vision.feed import start_camera
from vision.temple_die_render import render_temple_die


def the_6_lying_was_named_not_taken(controller: Controller, seen: list) -> None:
    """The new game took no roll: the 6 read where the last game's 6 lay is named to the table instead."""
    later = controller.pump()
    assert [u.text for u in later if u.kind == "step"] == [] and controller.session.log == []
    assert dice_news(seen) == [("RollStarted", None), ("DieRead", 6)]
    assert [o.detail for o in seen if isinstance(o, LinkChanged) and "lie where" in o.detail] == [
        "the dice lie where they lay, 6: not taken as a new roll; roll again or enter the value by hand"]


@pytest.mark.parametrize(("game", "players"), [("blackpool", ["yellow", "red"]), ("desert", ["pink", "teal"])])
def test_the_last_games_die_is_not_the_new_games_roll_when_a_hand_passes(
    tmp_path: Path, d6_reader, game: str, players: list[str]
) -> None:
    """The same game for the next table keeps the feed's readers; another game's data makes them afresh, just as
    the hand that tapped the new game passes over the tray, and the die lying there was taken as the desert race's
    first roll ('Pink rolls 6.'). Either way the feed knows where the die lay: named, no roll."""
    folder = rolled_then_a_hand_over(tmp_path / "frames")
    controller = Controller(Session.new("blackpool", ["yellow", "red"]))
    seen: list = []
    begun = threading.Event()  # the camera reads on once it is set
    submit = held_after_a_read(controller, seen, begun)

    feed = start_camera(str(folder), submit, lambda: controller.session, fps=None, readers={"d6": d6_reader},
                        taught_dir=tmp_path / "taught")
    try:
        step = pump_until(controller, lambda u: u.kind == "step", timeout=30)[-1]
        assert step.action == {"type": "roll", "value": 6}
        assert controller.set_session(Session.new(game, players)).kind == "new_game"
        begun.set()
        assert feed.ended.wait(30)
    finally:
        feed.close()
    the_6_lying_was_named_not_taken(controller, seen)


def held_in_between(controller: Controller, between: threading.Event, back: threading.Event):
    """A feed's ``on_frame`` that, once the feed has read a frame of a game other than Blackpool, holds the camera
    until ``back`` (``between`` told): the test begins Blackpool again there, so the game between is seen."""
    read = []

    def on_frame(_number: int) -> None:
        if controller.session.game.id != "blackpool":
            if read:
                between.set()
                assert back.wait(30)
            read.append(_number)

    return on_frame


@pytest.mark.parametrize(("game", "players"), [("targi", ["white", "black"]), ("temple", ["red", "blue"])])
def test_the_die_lying_through_a_game_with_no_dice_or_another_die_is_not_the_next_games_roll(
    tmp_path: Path, d6_reader, game: str, players: list[str]
) -> None:
    """Blackpool, then a game that reads no dice (Targi) or another die (the temple game's d20), then Blackpool
    again, the oracle left lying in the tray all along: the readers of the game between forgot where it lay, and the
    hand that tapped the new game, passing over it, made it a throw, taken as the new game's first roll ('Yellow
    rolls 6.'). A die that has not moved is no roll: named, not taken."""
    folder = rolled_then_a_hand_over(tmp_path / "frames")
    controller = Controller(Session.new("blackpool", ["yellow", "red"]))
    seen: list = []
    begun, between, back = threading.Event(), threading.Event(), threading.Event()
    submit = held_after_a_read(controller, seen, begun)

    feed = start_camera(str(folder), submit, lambda: controller.session, fps=None, readers={"d6": d6_reader},
                        taught_dir=tmp_path / "taught", on_frame=held_in_between(controller, between, back))
    try:
        step = pump_until(controller, lambda u: u.kind == "step", timeout=30)[-1]
        assert step.action == {"type": "roll", "value": 6}
        assert controller.set_session(Session.new(game, players)).kind == "new_game"
        begun.set()
        assert between.wait(30)
        assert controller.set_session(Session.new("blackpool", ["yellow", "red"])).kind == "new_game"
        back.set()
        assert feed.ended.wait(30)
    finally:
        feed.close()
    the_6_lying_was_named_not_taken(controller, seen)


def test_the_last_games_other_die_read_by_this_games_reader_is_not_its_first_roll(tmp_path: Path, d6_reader) -> None:
    """The temple game's d20 left in the tray as Blackpool begins: the d6 reader reads it as a d6 now and then (this
    one as a 1, 93% sure), and the hand that tapped the new game, passing over it, made it a throw: 'Yellow rolls 1.'
    It lies where the temple die reader saw it lie, unmoved: named, no roll."""
    d20 = render_temple_die(np.random.default_rng(25), "2", "red")[0]
    assert [d.value for d in d6_reader.read(d20)] == [1]  # the misreading this test is about
    folder = write_frames(tmp_path / "frames", [d20] * 6 + hand_over(d20) + [d20] * 8)
    controller = Controller(Session.new("temple", ["red", "blue"]))
    seen: list = []
    begun = threading.Event()  # the camera reads on once it is set
    submit = held_after_a_read(controller, seen, begun,
                               lambda o: isinstance(o, LinkChanged) and "already lay" in o.detail)

    feed = start_camera(str(folder), submit, lambda: controller.session, fps=None, readers={"d6": d6_reader},
                        taught_dir=tmp_path / "taught")
    try:
        assert pump_until(controller, lambda u: "already lay" in u.text, timeout=30)
        assert controller.set_session(Session.new("blackpool", ["yellow", "red"])).kind == "new_game"
        begun.set()
        assert feed.ended.wait(30)
    finally:
        feed.close()
    later = controller.pump()
    assert [u.text for u in later if u.kind in ("step", "confirm")] == [] and controller.session.log == []
    assert dice_news(seen) == []
    assert [o.detail for o in seen if isinstance(o, LinkChanged) and "last game's die" in o.detail] == [
        "a die read as 1 lies where the last game's die lay: not taken as a roll (take that die out of the tray, and "
        "roll this game's)"]
