"""A new game begun while the last game's die still lies in the tray: the camera sees it again, and a hand passes
over it, and it is no roll of the new game.

Real OpenCV and the real d6 reader on a folder of rendered frames, the feed made as the app makes it
(`start_camera`, its readers following the controller's game); the new game is begun the moment the last game's roll
is taken, while the camera still reads frames.
"""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from companion.controller import Controller
from companion.observations import LinkChanged
from companion.session import Session
from tests.controller_loop import pump_until
from tests.vision.test_feed import dice_news, held_after_a_read, rolled_then_a_hand_over
from vision.feed import start_camera


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
    later = controller.pump()
    assert [u.text for u in later if u.kind == "step"] == [] and controller.session.log == []
    assert dice_news(seen) == [("RollStarted", None), ("DieRead", 6)]
    assert [o.detail for o in seen if isinstance(o, LinkChanged) and "lie where" in o.detail] == [
        "the dice lie where they lay, 6: not taken as a new roll; roll again or enter the value by hand"]
