"""The service over days: a crash loop, a hung screen and the log, checked against systemd/."""

from __future__ import annotations

import configparser
import contextlib
import os
import signal
import socket
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SYSTEMD = ROOT / "systemd"


def unit() -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # systemd keys are case-sensitive
    parser.read(SYSTEMD / "table-companion.service")
    return parser


def unit_environment() -> dict[str, str]:
    lines = (SYSTEMD / "table-companion.service").read_text().splitlines()
    pairs = [line.removeprefix("Environment=").split("=", 1) for line in lines if line.startswith("Environment=")]
    return {key: value for key, value in pairs}


def test_a_crash_loop_never_leaves_the_table_black_for_good() -> None:
    """systemd's default gives up after 5 starts in 10 s; a crash at start left the unit failed until a reboot."""
    service = unit()
    assert service["Service"]["Restart"] == "always"
    assert service["Unit"].get("StartLimitIntervalSec") == "0"
    assert int(service["Service"]["RestartSec"]) >= 5  # a loop that never stops must not flood the log


def test_the_log_is_bounded_on_the_card() -> None:
    service = unit()
    assert service["Service"].get("LogRateLimitBurst")
    journald = configparser.ConfigParser()
    journald.read(SYSTEMD / "journald-table-companion.conf")
    assert journald["Journal"]["SystemMaxUse"]
    setup = (SYSTEMD / "setup-pi.sh").read_text()
    assert "/etc/systemd/journald.conf.d/table-companion.conf" in setup


def test_the_pi_camera_loads_inside_the_kiosks_venv() -> None:
    """Raspberry Pi OS's picamera2 imports a simplejpeg built for its numpy 1.24, which the venv's numpy 2
    refuses: the setup installs the OS's picamera2, lets the venv see it, and gives the venv its own simplejpeg."""
    setup = (SYSTEMD / "setup-pi.sh").read_text()
    assert "python3-picamera2" in setup and "--system-site-packages" in setup and '"$DEST[pi]"' in setup
    extra = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]["pi"]
    assert [req.split(">")[0] for req in extra] == ["simplejpeg"]
    pins = (ROOT / "constraints.txt").read_text().splitlines()
    assert any(pin.startswith("simplejpeg==") for pin in pins) and any(pin.startswith("numpy==2.") for pin in pins)


def test_the_setup_makes_the_cafe_folder_the_unit_names() -> None:
    """The unit names $COMPANION_CAFE_DIR, and a folder named there that is not there is reported: on a fresh
    install every kiosk start, and every command the operations guide gives, said it was not a folder."""
    cafe = unit_environment()["COMPANION_CAFE_DIR"]
    setup = (SYSTEMD / "setup-pi.sh").read_text()
    made = [line for line in setup.splitlines() if line.startswith("install -d ") and line.split()[-1] == cafe]
    assert made and '-o "$USER_NAME"' in made[0]


# The kiosk as the unit runs it, whose main loop hangs once the test has had its pings and asks for it by a
# file (HANG; the loop writes HANG + "ed" as it hangs). A hang timed from the first tick had to come late enough
# for pings first on a loaded machine (6 s, all of it waited; at 3 s it came 0.4 s after READY on a machine that
# took 2.6 s to start, with one ping between).
HANGING_KIOSK = """
import argparse, os, time
from ui.cli import _prepare_kivy, build_app
_prepare_kivy(800, 480, offscreen=True)
from kivy.clock import Clock
app = build_app(argparse.Namespace(journal=None, new=False, buttons="none", dice_sensor=None, camera=None), kiosk=True)
def stuck_in_the_main_loop(_dt):
    if os.path.exists(os.environ["HANG"]):
        open(os.environ["HANG"] + "ed", "w").close()
        while True:
            time.sleep(0.1)
Clock.schedule_interval(stuck_in_the_main_loop, 0.1)
app.run()
"""


def test_a_hung_screen_stops_the_watchdog_pings_and_its_kill_logs_where_it_hung(tmp_path: Path) -> None:
    """The pings come from the main loop, so a hang stops them; systemd then sends SIGABRT, and with the
    unit's environment Python writes the stuck frame to the log instead of dying without a word."""
    notify = tmp_path / "notify"
    python_env = {k: v for k, v in unit_environment().items() if k.startswith("PYTHON")}
    env = {
        **os.environ, **python_env,
        "HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "data"), "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "KIVY_HOME": str(tmp_path / "kivy"), "SDL_VIDEODRIVER": "offscreen",
        "NOTIFY_SOCKET": str(notify), "WATCHDOG_USEC": "1000000", "HANG": str(tmp_path / "hang"),
    }
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as server:
        server.bind(str(notify))
        server.settimeout(90)
        app = subprocess.Popen([sys.executable, "-c", HANGING_KIOSK], env=env, cwd=ROOT,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            while b"READY=1" not in server.recv(256):
                pass
            pings = 0
            while pings < 2:  # pings every 0.5 s from the main loop
                pings += server.recv(256) == b"WATCHDOG=1"
            (tmp_path / "hang").touch()  # the main loop hangs at its next tick
            server.settimeout(0.1)
            while not (tmp_path / "hanged").exists():
                assert app.poll() is None, app.stderr.read()
                with contextlib.suppress(TimeoutError):
                    server.recv(256)
            server.settimeout(2)  # none for 2 s (4 pings' time) after the hang
            try:
                while True:
                    if server.recv(256) == b"WATCHDOG=1":
                        pings += 1
            except TimeoutError:
                pass
            assert pings >= 2 and app.poll() is None  # it pinged, then went quiet while still running
            app.send_signal(signal.SIGABRT)  # systemd's WatchdogSignal default
            assert app.wait(timeout=30) == -signal.SIGABRT
        finally:
            if app.poll() is None:
                app.kill()
                app.wait()
    log = app.stderr.read()
    assert "Fatal Python error: Aborted" in log and "stuck_in_the_main_loop" in log
