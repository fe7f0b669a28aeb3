"""A die (or a temple card) the sensor tells again after an undo took its roll (or change) back: still lying as it
lay, it is not taken again (the die is named). Over a real pseudo-terminal, on the link's own clock, with
gpiozero's mock pins."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from companion.observations import Touch
from hardware.dice_link import DiceLink
from hardware.dice_sim import SimulatedSensor
from hardware.panel import Panel
from tests.controller_loop import pump_until, pump_until_done
from tests.hardware.conftest import (
    FAST,
    blackpool_on,
    laid_out_to_a_change,
    open_a_while,
    red_rolled_3,
    replugged_and_told_again,
    temple_tagged,
    until_link,
)
from tests.hardware.test_panel import config

LAY = ("3 already lay there before the undo: not taken as a roll. Throw the die to roll, or enter 3 by hand if that "
       "is the roll (Red: roll the oracle).")


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    pins = MockFactory()
    yield pins
    pins.close()


def test_a_die_told_again_after_its_roll_was_undone_is_named_not_taken(
    sensor: SimulatedSensor, tmp_path: Path, factory: MockFactory
) -> None:
    """Red's 3 taken back with undo as a misread, then the sensor's cable moved: firmware that tells its state on
    connecting sent the 3 still lying in the tray, and it was taken as Red's roll again ('Red rolls 3.'): undo had
    forgotten the dice seen, where without the undo the same 3 was 'Same dice as before'."""
    controller, link, now = blackpool_on(sensor)
    panel = Panel(config(tmp_path), controller.submit, factory)
    said: list = []
    try:
        with link:
            pump_until(controller, until_link(True))
            sensor.roll(3)
            pump_until(controller, lambda u: u.kind == "step")
            factory.pin(27).drive_low()  # undo on the button box
            factory.pin(27).drive_high()
            said += pump_until(controller, lambda u: u.kind == "undo")
            assert controller.session.log == []
            replugged_and_told_again(sensor, controller, link, now, said)
            assert controller.session.log == [], [u.text for u in said]
            assert [u.text for u in said if u.kind == "info" and "already lay" in u.text] == [LAY]
            sensor.roll(3)  # thrown again: a throw, though it shows the same face
            said += pump_until(controller, lambda u: u.kind == "step")
    finally:
        panel.close()
    assert controller.session.log == [{"type": "roll", "value": 3}]


def test_a_die_told_again_after_a_redo_is_the_same_dice_as_before(sensor: SimulatedSensor) -> None:
    """The roll put back is the dice's again: the 3 told again is no news, as with no undo at all."""
    said: list = []
    with red_rolled_3(sensor) as (controller, link, now):
        assert controller.handle(Touch("undo")).kind == "undo"
        assert controller.handle(Touch("redo")).kind == "redo"
        replugged_and_told_again(sensor, controller, link, now, said)
    assert controller.session.log == [{"type": "roll", "value": 3}]
    assert [u.text for u in said if u.kind == "info"][-1] == "Same dice as before; waiting for a new roll."


def test_a_card_told_again_after_its_change_was_undone_is_not_taken_again(
    sensor: SimulatedSensor, tmp_path: Path
) -> None:
    """A temple card change taken back, then the sensor's port reopened: firmware that tells its slots on
    connecting sent the new card still lying in its slot, and the change was taken again before the old card was
    put back as the undo asked. The link keeps each slot's tag across reopenings; lifted and laid again, the card
    is a change again."""
    session, controller, tags = temple_tagged(tmp_path)
    said: list = []
    with DiceLink(sensor.path, controller.submit, tags=tags, backoff=FAST) as link:
        pump_until(controller, until_link(True))
        open_a_while(link)
        change = laid_out_to_a_change(sensor, controller, session)
        slot, tag = change["slot"], f"T{change['card']}"
        sensor.slot(slot, None)
        sensor.slot(slot, tag)
        pump_until(controller, lambda u: u.kind == "step")
        steps = len(session.log)
        assert controller.handle(Touch("undo")).kind == "undo"
        sensor.unplug()
        sensor.plug()
        pump_until_done(controller, lambda: link.counts["connects"] == 2, said)
        reports = link.counts["SlotReport"]
        sensor.slot(slot, tag)  # its state, told again: the new card still lies there
        pump_until_done(controller, lambda: link.counts["SlotReport"] == reports + 1, said)
        assert len(session.log) == steps - 1, [u.text for u in said]
        assert not [u for u in said if u.kind == "step"]
        sensor.slot(slot, None)  # lifted and laid again: meant
        sensor.slot(slot, tag)
        step = pump_until(controller, lambda u: u.kind == "step")[-1]
    assert step.action == {"type": "change", "slot": slot, "card": change["card"]}
