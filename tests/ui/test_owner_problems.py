"""What the café owner finds of a sensor that works but needs mending: in the service's log, at a level it keeps,
once, and on the settings screen's problem list (`LinkChanged.standing`).

"The dice sensor does not notice throws" reached the table and the log but not the settings screen, and a
sensor back under another port name logged its "give that name as the port" advice as information, which the
service's log drops (the root logger keeps warnings). On real ptys, each step waiting for the count it needs.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest

import hardware.dice_link
from hardware.dice_sim import SimulatedSensor
from tests.ui.conftest import until

KEPT = logging.WARNING  # what the service's log keeps: no logging is set up, so the root logger's default


def kept(caplog: pytest.LogCaptureFixture, words: str) -> list[str]:
    """The lines holding ``words`` that the service's log keeps, from any logger."""
    return [r.getMessage() for r in caplog.records if r.levelno >= KEPT and words in r.getMessage()]


def test_a_sensor_that_never_announces_a_throw_is_listed_in_settings_until_it_comes_up_again(
        launch: Any, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    sensor = SimulatedSensor(tmp_path / "dice").plug()
    try:
        app = launch(dice_sensor=sensor.path)
        assert app.new_game("blackpool", ["yellow", "red"])
        link = app.running_inputs["serial"][1]
        now = [1000.0]
        link.clock = lambda: now[0]
        assert until(lambda: app.controller.links.get("dice sensor") is True)
        sensor.send("ROLL")  # at power-up, and never again
        sensor.send("DIE", "d6", 3, 100)  # Yellow's throw: taken
        assert until(lambda: len(app.controller.session.log) == 1)
        for count, value in enumerate((5, 2), start=2):  # Red's throws, 30 s apart, none announced
            now[0] += 30
            sensor.send("DIE", "d6", value, 100)
            assert until(lambda: link.counts["DieSettled"] == count)  # noqa: B023
        assert until(lambda: "does not notice throws" in app.status)
        assert until(lambda: "serial" in app.input_problems)
        problem = app.input_problems["serial"]
        assert problem.startswith("Dice sensor: the sensor sends no $ROLL when the dice are thrown: it sent one "
                                  "before 3 and none since")
        assert len(kept(caplog, "the sensor sends no $ROLL when the dice are thrown")) == 1

        sensor.write(b"$DIE,d6,4,100*00\n")  # a garbled line in passing: the firmware is still what it was
        assert until(lambda: "garbled" in app.status)
        assert app.input_problems.get("serial") == problem

        sensor.unplug()
        assert until(lambda: app.input_problems.get("serial", "").startswith("Dice sensor lost"))
        sensor.plug()  # a new connection: told again if still so
        assert until(lambda: link.counts["connects"] == 2 and "serial" not in app.input_problems)
    finally:
        sensor.unplug()


def test_a_sensor_back_under_another_port_name_logs_its_advice_as_a_warning_and_lists_it(
        launch: Any, tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    """Given as ttyACM0 and re-plugged while held, the sensor came back as ttyACM1, found by its udev by-id name:
    the advice to give that name as the port went to the log as information, which the service drops."""
    caplog.set_level(logging.DEBUG)
    by_id, dev = tmp_path / "by-id", tmp_path / "dev"  # never the machine's /dev: ptys behind links of the test's own
    by_id.mkdir()
    dev.mkdir()
    monkeypatch.setattr(hardware.dice_link, "BY_ID", by_id)
    sensor = SimulatedSensor(by_id / "usb-TC_Dice_Tower_0001-if00").plug()
    (dev / "ttyACM0").symlink_to(sensor.tty_path)
    try:
        app = launch(dice_sensor=str(dev / "ttyACM0"))
        link = app.running_inputs["serial"][1]
        assert until(lambda: app.controller.links.get("dice sensor") is True)
        assert link.stable == sensor.link
        assert not kept(caplog, "dice sensor connected")  # a link coming up is news, not a problem
        sensor.unplug()
        (dev / "ttyACM0").unlink()
        assert until(lambda: app.controller.links.get("dice sensor") is False)
        sensor.plug()  # a new pty behind the by-id name: the kernel's ttyACM1
        (dev / "ttyACM1").symlink_to(sensor.tty_path)
        assert until(lambda: link.counts["connects"] == 2 and app.controller.links.get("dice sensor") is True)
        advice = kept(caplog, "give that name as the port")
        assert len(advice) == 1 and f"found by its stable name {sensor.link}" in advice[0]
        assert until(lambda: "give that name as the port" in app.input_problems.get("serial", ""))
        assert app.status == "Dice sensor connected."  # the players' words: nothing for them to do
    finally:
        sensor.unplug()
