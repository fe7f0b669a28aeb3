"""A power cut mid-game, as the kiosk meets it: the real `companion ui run --kiosk` killed with SIGKILL while it
plays, then started again on the same journal (a real SQLite file, a temporary HOME and data folder).

SIGKILL gives the app no chance to close anything: no on_stop, no checkpoint, the journal's write-ahead log left
as it was, as after the plug is pulled between two steps.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from companion.journal import Journal
from ui.shots import bench_env, run_ui

PLAYED_BEFORE_THE_CUT = 20  # steps of the first game journalled before the plug is pulled


def standing(journal: Path) -> tuple[int, str] | None:
    """The latest game's standing steps and status, read as another process would, or None before it is there."""
    if not journal.exists():
        return None
    try:
        reader = Journal.read_only(journal)
    except Exception:  # the app still creating it
        return None
    try:
        game = reader.latest_game()
        return (game.standing(), game.status) if game is not None else None
    finally:
        reader.close()


def test_a_kiosk_killed_mid_game_resumes_at_the_last_step_it_journalled(tmp_path: Path) -> None:
    env = {**bench_env(tmp_path), "HOME": str(tmp_path / "home"), "XDG_DATA_HOME": str(tmp_path / "data"),
           "XDG_CONFIG_HOME": str(tmp_path / "config"), "KIVY_NO_ARGS": "1"}
    env.pop("COMPANION_CAFE_DIR", None)
    journal = tmp_path / "journal.sqlite3"
    playing = subprocess.Popen(
        [sys.executable, "-m", "companion", "ui", "run", "--kiosk", "--bench-games", "3", "--size", "800x480",
         "--journal", str(journal)], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 180  # a bound for a stuck app, not a timing: it waits for the steps
        while (found := standing(journal)) is None or found[0] < PLAYED_BEFORE_THE_CUT:
            assert playing.poll() is None, playing.stderr.read() if playing.stderr else ""
            assert time.monotonic() < deadline, f"the app journalled {found} in 180 s"
            time.sleep(0.05)
        os.kill(playing.pid, signal.SIGKILL)
        playing.wait(30)
    finally:
        if playing.poll() is None:
            playing.kill()
            playing.wait()
        if playing.stderr:
            playing.stderr.close()
    cut = standing(journal)
    assert cut is not None and cut[1] == "active" and cut[0] >= PLAYED_BEFORE_THE_CUT
    report = run_ui(journal, env, "--kiosk", "--bench-exit")
    assert report["screen"] == "table" and report["steps"] == cut[0], report
    assert "not in the journal" not in report["status"], report["status"]  # every step written was whole
