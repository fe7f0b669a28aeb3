"""The service's log as a café owner reads it: the real `companion ui run`, its output as journald gets it.

The app sets no logging up, so Python's last-resort handler writes warnings and above to stderr (the unit's
StandardError=journal) and drops information. Run as the service runs it (systemd/table-companion.service's
folders, all in a temporary HOME; offscreen), with a dice sensor on a real pty behind links of the test's own
(the kernel's name and udev's by-id name; never the machine's /dev) and a camera that finds no picture, each
owner's report must come out once, at a level the service keeps. Each step waits for the line it needs.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

from companion.journal import Journal
from companion.session import Session
from hardware.dice_sim import SimulatedSensor
from ui.settings import Settings

ROOT = Path(__file__).resolve().parents[2]

# The companion command itself, but with udev's by-id folder a test folder (`hardware.dice_link.BY_ID`).
COMPANION = """
import sys
from pathlib import Path
import hardware.dice_link
hardware.dice_link.BY_ID = Path(sys.argv[1])
from companion.cli import main
raise SystemExit(main(sys.argv[2:]))
"""


class Output:
    """The lines a process writes to a pipe, gathered as they come."""

    def __init__(self, pipe) -> None:
        self.lines: list[str] = []
        self._thread = threading.Thread(target=self._read, args=(pipe,), daemon=True)
        self._thread.start()

    def _read(self, pipe) -> None:
        for line in pipe:
            self.lines.append(line.rstrip("\n"))

    def wait_for(self, condition: Callable[[str], bool], seconds: float = 60.0) -> bool:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if any(condition(line) for line in list(self.lines)):
                return True
            time.sleep(0.05)
        return False

    def done(self, seconds: float = 30.0) -> None:
        self._thread.join(seconds)

    def count(self, words: str) -> int:
        return sum(words in line for line in self.lines)


def test_each_owners_report_reaches_the_services_log_once(tmp_path: Path) -> None:
    home = tmp_path / "home"
    data = home / "var-lib"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("COMPANION_", "KIVY_", "XDG_"))}
    env.update(HOME=str(home), KIVY_HOME=str(data / "kivy"), XDG_DATA_HOME=str(data),
               XDG_CONFIG_HOME=str(data / "config"), COMPANION_CAFE_DIR=str(data / "cafe"),
               COMPANION_TAUGHT_DIR=str(data / "taught"), KIVY_NO_ARGS="1", SDL_VIDEODRIVER="offscreen",
               PYTHONFAULTHANDLER="1")
    (data / "cafe").mkdir(parents=True)
    settings = Settings()
    settings.voice = False  # no espeak-ng from a test
    settings.save(data / "config" / "table-companion" / "ui.json")
    journal = Journal(data / "table-companion" / "journal.sqlite3")  # a game in progress, resumed at start
    Session.new("blackpool", ["red", "blue"], journal=journal)
    journal.close()
    by_id, dev, camera = tmp_path / "by-id", tmp_path / "dev", tmp_path / "camera"
    for folder in (by_id, dev, camera):
        folder.mkdir()
    sensor = SimulatedSensor(by_id / "usb-TC_Dice_Tower_0001-if00").plug()
    (dev / "ttyACM0").symlink_to(sensor.tty_path)
    app = subprocess.Popen(
        [sys.executable, "-c", COMPANION, str(by_id), "ui", "run", "--size", "800x480",
         "--dice-sensor", str(dev / "ttyACM0"), "--camera", str(camera)],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT)
    log = Output(app.stderr)
    try:
        assert sensor.answer_queries(timeout=120), log.lines  # the app opened the port and asked who is there
        sensor.roll(3)  # Red's throw, read whole: nothing for the log
        sensor.send("DIE", "d6", 5, 100)  # a die with no $ROLL before it
        assert log.wait_for(lambda line: "read 5 after 3 with no $ROLL between" in line), log.lines
        sensor.write(b"$DIE,d6,4,100*00\n")  # garbled on the wire
        assert log.wait_for(lambda line: "checksum mismatch" in line), log.lines
        sensor.unplug()
        (dev / "ttyACM0").unlink()
        assert log.wait_for(lambda line: "dice sensor lost" in line), log.lines
        sensor.plug()  # back as the kernel's ttyACM1, found by its by-id name
        (dev / "ttyACM1").symlink_to(sensor.tty_path)
        assert log.wait_for(lambda line: "give that name as the port" in line), log.lines
    finally:
        app.send_signal(signal.SIGTERM)  # systemctl stop
        try:
            app.wait(60)
        finally:
            if app.poll() is None:
                app.kill()
            sensor.unplug()
        log.done()
    assert app.returncode == 0, log.lines
    for words in ("read 5 after 3 with no $ROLL between", "checksum mismatch", "dice sensor lost",
                  "give that name as the port", f"camera: folder {camera} is empty"):
        assert log.count(words) == 1, (words, log.lines)
    assert log.count("dice sensor connected: ") == 1, log.lines  # the first opening is news, not kept
    assert not [line for line in log.lines if "Traceback" in line or "Speech failed" in line], log.lines
