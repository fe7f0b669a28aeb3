"""The ``companion hw`` commands, in process and (for the simulator) as a real subprocess."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from companion.cli import main
from hardware.dice_sim import SimulatedSensor, idle

ROOT = Path(__file__).resolve().parents[2]


def test_demo_plays_a_blackpool_turn_from_a_sensor_roll_and_a_button(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hw", "demo", "--pause", "0"]) == 0
    out = capsys.readouterr().out
    assert "dice sensor connected" in out
    assert "Red rolls 6." in out
    assert "Red 1 comes out of the centre" in out  # the confirm button took the first choice
    assert "Blue (to play)" in out


def test_self_test_with_mock_buttons_finds_the_simulated_sensor(capsys: pytest.CaptureFixture[str]) -> None:
    with SimulatedSensor() as sensor:
        stop = threading.Event()

        def serve() -> None:
            while not stop.is_set():
                idle(sensor, 0.05)

        server = threading.Thread(target=serve)
        server.start()
        try:
            code = main(["hw", "test", "--buttons", "mock", "--auto", "--dwell", "0", "--dice-sensor", sensor.path])
        finally:
            stop.set()
            server.join()
    out = capsys.readouterr().out
    assert code == 0, out
    for intent in ("confirm", "undo", "next", "menu"):
        assert f"{intent}: ok" in out
    assert "press confirm (GPIO17) ..." in out  # the BCM number of pins.toml, not gpiozero's pin object
    assert "TC-DICE-SIM firmware 1.0" in out


def test_self_test_reports_a_silent_button_and_a_missing_port(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--buttons", "mock", "--timeout", "0.05", "--dwell", "0", "--dice-sensor", "/nonexistent"]
    code = main(["hw", "test", *args])
    out = capsys.readouterr().out
    assert code == 1 and "confirm: NOT PRESSED" in out and "cannot open" in out


def test_bench_prints_median_and_p99(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hw", "bench", "--rolls", "15", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["rolls"] == 15 and result["median_ms"] > 0 and result["p99_ms"] >= result["median_ms"]


def test_teach_links_a_tag_to_a_temple_card(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tags = tmp_path / "tags.json"
    assert main(["hw", "teach", "--tags", str(tags), "--tag", "04A1", "--card", "P05"]) == 0
    assert json.loads(tags.read_text())["tags"] == {"04A1": "P05"}
    assert main(["hw", "teach", "--tags", str(tags), "--tag", "04A2", "--card", "NOPE"]) == 1


def test_simulate_dice_prints_its_pty_and_plays_the_script() -> None:
    command = [sys.executable, "-m", "companion", "hw", "simulate-dice", "--script", "roll 3; wait 0.01", "--exit"]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=60, check=True)
    first, *rest = done.stdout.splitlines()
    assert first.startswith("/dev/pts/") and "sim: roll 3" in rest


def test_a_bad_simulator_script_step_is_named_and_the_rest_still_plays() -> None:
    script = "wait; slot x AA; roll 4 'open; err caf\u00e9; roll 3"
    command = [sys.executable, "-m", "companion", "hw", "simulate-dice", "--script", script, "--exit"]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert "bad script step 'wait': a value is missing" in done.stdout
    assert "bad script step 'slot x AA': invalid literal" in done.stdout
    assert "No closing quotation" in done.stdout and "bad script step 'err caf\u00e9'" in done.stdout
    assert done.stdout.splitlines()[-1] == "sim: roll 3"
