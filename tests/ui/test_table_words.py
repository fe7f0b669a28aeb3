"""What the players read on the table's status line from the dice sensor and the camera, and what the owner reads
on the settings screen and in the log: one report, two wordings (`observations.table_text`, `link_text`).

The table's line read the owner's: "Dice sensor: the sensor read 5 after 3 with no $ROLL between ...", "Dice
sensor lost: /dev/ttyACM0: the port closed: ...". On a real pty and a real folder of pictures; each step waits
for the count or the line it needs."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest

from hardware.dice_sim import SimulatedSensor
from tests.hardware.test_table_words import JARGON
from tests.ui.conftest import until

pytestmark = pytest.mark.usefixtures("undrawn")  # the status line's words are read, never the window's pixels


def logged(caplog: pytest.LogCaptureFixture, level: int = logging.INFO) -> str:
    """What the app logged at ``level`` or above: the service's log keeps warnings (the root logger's default)."""
    return "\n".join(r.getMessage() for r in caplog.records if r.name == "ui.app" and r.levelno >= level)


def test_the_table_reads_what_to_do_and_the_settings_and_log_keep_the_sensors_detail(
        launch: Any, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="ui.app")
    sensor = SimulatedSensor(tmp_path / "dice").plug()
    try:
        app = launch(dice_sensor=sensor.path)
        assert app.new_game("blackpool", ["yellow", "red"])
        link = app.running_inputs["serial"][1]
        assert until(lambda: app.controller.links.get("dice sensor") is True)
        assert f"dice sensor connected: {sensor.path} open" in logged(caplog)

        sensor.roll(3)  # Yellow's throw, read whole
        assert until(lambda: len(app.controller.session.log) == 1)
        sensor.send("DIE", "d6", 5, 100)  # a die with no $ROLL before it: no new throw
        assert until(lambda: "read 5 after 3" in app.status)
        assert app.status.startswith("The sensor read 5 after 3 with no new throw between, so 5 is not taken.")
        assert "with no $ROLL between (the dice did not move)" in logged(caplog, logging.WARNING)

        sensor.write(b"$DIE,d6,4,100*00\n")  # garbled on the wire
        assert until(lambda: "garbled" in app.status)
        assert app.status == ("The dice sensor's message came through garbled: if your roll did not show, enter it "
                              "by hand.")
        assert "(checksum mismatch)" in logged(caplog, logging.WARNING) and "115200 baud" in logged(caplog)

        sensor.unplug()  # lost
        assert until(lambda: app.controller.links.get("dice sensor") is False)
        assert until(lambda: "serial" in app.input_problems)
        assert app.status == "Dice sensor lost: tap what it would have read (owner: Settings)."
        assert app.input_problems["serial"].startswith(f"Dice sensor lost: {sensor.path}: the port closed: ")
        assert f"dice sensor lost: {sensor.path}: the port closed" in logged(caplog, logging.WARNING)
        assert not JARGON.search(app.status)

        sensor.plug()
        assert until(lambda: link.counts["connects"] == 2 and app.controller.links.get("dice sensor") is True)
        sensor.roll(4, confidence=60)  # an unsure reading: the table asks, the log says how sure
        assert until(lambda: app.controller.proposal is not None)
        assert app.status == "The die looks like 4. Tap to confirm or correct it."
        assert "dice sensor: read 4 at 60% sure, below the 80% taken without a tap" in logged(caplog, logging.WARNING)
    finally:
        sensor.unplug()


def test_a_camera_never_found_is_told_to_the_table_without_its_path(launch: Any, tmp_path: Path,
                                                                     caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="ui.app")
    missing = tmp_path / "no such camera"
    app = launch(camera=str(missing))
    assert until(lambda: "camera" in app.input_problems)
    assert app.status == "Camera not found: tap what it would have read (owner: Settings)."
    assert app.input_problems["camera"].startswith("Camera not found: ") and str(missing) in app.input_problems[
        "camera"]
    assert "camera not found: " in logged(caplog) and str(missing) in logged(caplog)
