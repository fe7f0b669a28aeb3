"""A die the sensor tells again after a new game began: the last game's die, still lying in the tray, is no roll of
the new game (it is named); a throw is. Over a real pseudo-terminal, on the link's own clock."""

from __future__ import annotations

import pytest

from companion.controller import Controller
from companion.observations import DieRead
from companion.session import Session
from hardware.dice_sim import SimulatedSensor
from tests.controller_loop import pump_until
from tests.hardware.conftest import red_rolled_3, replugged_and_told_again

LAY = ("3 already lay there before the new game: not taken as a roll. Throw the die to roll, or enter 3 by hand if "
       "that is the roll (Red: roll the oracle).")


def test_the_last_games_die_told_again_is_not_the_new_games_first_roll(sensor: SimulatedSensor) -> None:
    """Red's 3 read, then a new game for the next table (as home's Start and the attract screen's button begin one),
    then the sensor's cable moved: firmware that tells its state again long after its port opened sent the 3 still
    lying in the tray, and it was taken as the new game's first roll ('Red rolls 3.'), nobody having thrown: a new
    game forgot the dice seen."""
    said: list = []
    with red_rolled_3(sensor) as (controller, link, now):
        assert controller.set_session(Session.new("blackpool", ["red", "blue"])).kind == "new_game"
        replugged_and_told_again(sensor, controller, link, now, said)
        assert controller.session.log == [], [u.text for u in said]
        assert [u.text for u in said if u.kind == "info" and "already lay" in u.text] == [LAY]
        sensor.roll(3)  # thrown: a throw, though it shows the same face
        said += pump_until(controller, lambda u: u.kind == "step")
    assert controller.session.log == [{"type": "roll", "value": 3}]


def test_the_die_lying_through_a_game_set_aside_is_not_the_next_games_roll(sensor: SimulatedSensor) -> None:
    """A finished game set aside when its café day ended (the kiosk left running overnight), the next morning's new
    game: the die left lying in the tray, told again, was the new game's first roll."""
    said: list = []
    with red_rolled_3(sensor) as (controller, link, now):
        controller.set_aside()
        controller.set_session(Session.new("blackpool", ["red", "blue"]))
        replugged_and_told_again(sensor, controller, link, now, said)
    assert controller.session.log == [], [u.text for u in said]
    assert [u.text for u in said if u.kind == "info" and "already lay" in u.text] == [LAY]


def test_the_last_games_die_in_a_game_without_dice_is_to_be_taken_away() -> None:
    """Kept as lying there, the last game's die told in a new game that rolls none is answered as any die then:
    not 'Same dice as before; waiting for a new roll', a roll no such game waits for."""
    controller = Controller(Session.new("blackpool", ["red", "blue"]))
    assert controller.handle(DieRead(3, "tower")).kind == "step"
    controller.set_session(Session.new("targi", ["white", "black"]))
    again = controller.handle(DieRead(3, "tower"))
    assert again.kind == "unapplied" and "this game rolls no dice: take it away" in again.text, again.text


@pytest.mark.parametrize(("game", "players"), [("targi", ["white", "black"]), ("temple", ["red", "blue"])])
def test_the_die_lying_through_a_game_with_no_dice_or_another_die_is_not_the_next_games_roll(
    sensor: SimulatedSensor, game: str, players: list[str]
) -> None:
    """Blackpool, then Targi (no dice) or the temple game (its own d20), then Blackpool again, Red's 3 lying in the
    tower all along and told again in the game between and after it: a die that has not moved is no roll, whatever
    was played meanwhile (the camera forgot it there: tests/vision/test_new_game_lying_die.py)."""
    said: list = []
    with red_rolled_3(sensor) as (controller, link, now):
        controller.set_session(Session.new(game, players))
        replugged_and_told_again(sensor, controller, link, now, said)
        assert controller.session.log == [] and [u.kind for u in said if "showing 3" in u.text] == ["unapplied"]
        controller.set_session(Session.new("blackpool", ["red", "blue"]))
        replugged_and_told_again(sensor, controller, link, now, said)
    assert controller.session.log == [], [u.text for u in said]
    assert [u.text for u in said if u.kind == "info" and "already lay" in u.text] == [LAY]
