"""Starting the app: on a machine whose home folder Kivy cannot write, and what the first screen loads; and
stopping one in a test's process, whose window goes on."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from tests.ui.conftest import advance, make_app, stop

ROOT = Path(__file__).resolve().parents[2]


def test_the_app_starts_when_its_home_cannot_hold_kivys_folder(tmp_path: Path) -> None:
    """A home Kivy cannot write (here a file, which even root cannot make a folder in) ended the start
    with "Not a directory (~/.kivy)" before the first screen."""
    home = tmp_path / "home-is-a-file"
    home.write_text("", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "KIVY_HOME"}
    env.update(HOME=str(home), SDL_VIDEODRIVER="offscreen", COMPANION_JOURNAL=str(tmp_path / "j.sqlite3"),
               XDG_CONFIG_HOME=str(tmp_path / "config"))
    done = subprocess.run(
        [sys.executable, "-m", "companion", "ui", "run", "--bench-exit"],
        capture_output=True, text=True, timeout=120, cwd=ROOT, env=env,
    )
    assert done.returncode == 0, done.stderr
    assert '"screen": "home"' in done.stdout


@pytest.fixture(scope="module")
def first_start(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Any, float, float]:
    """The real command's first start in a new home (no Kivy folder yet), to its first screen and out, with the
    test process's monotonic clock before and after it: read by the two tests below, started once."""
    home = tmp_path_factory.mktemp("first-start")
    env = {k: v for k, v in os.environ.items() if k not in ("KIVY_HOME", "COMPANION_CAFE_DIR", "COMPANION_UI_SETTINGS")}
    env.update(HOME=str(home), SDL_VIDEODRIVER="offscreen", COMPANION_JOURNAL=str(home / "j.sqlite3"),
               XDG_DATA_HOME=str(home / "data"), XDG_CONFIG_HOME=str(home / "config"))
    before = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "companion", "ui", "run", "--bench-exit"],
        capture_output=True, text=True, timeout=120, cwd=ROOT, env=env,
    )
    return home, done, before, time.monotonic()


def test_a_first_start_in_a_new_home_says_nothing_on_stderr(first_start: Any) -> None:
    """`./tc start` on a fresh clone (or the kiosk's first boot) printed Kivy's "Config: Older configuration
    version detected (0 instead of 27)" and "Config: Upgrading configuration in progress." as it wrote its
    first config.ini: read as a fault by a new user, and logged at every new table."""
    home, done, _before, _after = first_start
    assert done.returncode == 0, done.stderr
    assert (home / ".kivy" / "config.ini").is_file()  # the first start it is: Kivy wrote its config
    assert done.stderr == ""


def test_the_start_up_benchmark_times_the_first_screen_on_the_machines_monotonic_clock(first_start: Any) -> None:
    """`ui bench` took the child's wall-clock time of its first screen minus its own: a clock set during
    the run (by hand, or the network's first answer) gave a start-up of hours, or a negative one."""
    _home, done, before, after = first_start
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert before < report["first_screen"] < after


@pytest.fixture(scope="module")
def bench_start(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The real command's report of what it had loaded when home was drawn, and after a tap on Start
    (``--bench-start``): read by the two tests below, started once."""
    from ui.shots import run_ui

    home = tmp_path_factory.mktemp("bench-start")
    env = {k: v for k, v in os.environ.items() if k not in ("COMPANION_CAFE_DIR", "COMPANION_UI_SETTINGS")}
    env.update(HOME=str(home), KIVY_HOME=str(home / "kivy"), SDL_VIDEODRIVER="offscreen",
               XDG_DATA_HOME=str(home / "data"), XDG_CONFIG_HOME=str(home / "config"))
    return run_ui(home / "j.sqlite3", env, "--bench-start")


def test_the_home_screen_of_a_table_without_a_camera_loads_no_opencv_or_numpy(bench_start: dict[str, Any]) -> None:
    """The camera screen imported `vision.view_check` at the top, and with it OpenCV and numpy: every start
    paid for them before home was drawn (a sixth of its CPU time, 55 MB), camera or none; and the hardware
    commands' module, which every start loads to list them, imported pyserial with no dice sensor. Checked by
    what the real command has imported when home is drawn, not by a time, which a busy machine would make flaky."""
    from ui.shots import LOADED_WHEN_NEEDED

    report = bench_start
    assert report["screen"] == "home"
    assert set(LOADED_WHEN_NEEDED) == {"cv2", "numpy", "serial"}
    assert report["loaded_when_needed"] == []
    # Starting a game draws its board without them too; the camera, when switched on, loads them (`vision.feed`).
    assert report["game"] == "blackpool" and report["drawn"] > report["tapped"]
    assert report["after_start"]["loaded_when_needed"] == []


def test_only_home_and_the_table_are_built_before_the_first_frame(running: list[Any], tmp_path: Path) -> None:
    """All eight screens were built before anything was drawn, a quarter of the CPU time to the home screen,
    for screens opened later if at all. The rest are built once the first frame is drawn, and any of them
    asked for before that is built then: the table never finds one missing."""
    from ui.screens import SCREENS

    app = make_app(tmp_path)
    app._run_prepare()
    running.append(app)
    assert [screen.name for screen in app.root.screens] == ["home", "table"]
    assert app.root.current == "home" and app.root.has_screen("pin")
    assert app.root.get_screen("pin").name == "pin"  # asked for early: built at once
    advance(3)  # the first frame drawn, then the rest built
    assert app.first_screen_at is not None and app.screens_built_at >= app.first_screen_at
    assert sorted(screen.name for screen in app.root.screens) == sorted(SCREENS)
    app.show("settings")
    advance(1)
    assert app.root.current_screen is app.root.get_screen("settings")


def test_an_app_stopped_in_a_tests_process_leaves_nothing_to_run_at_the_next_frame(tmp_path: Path) -> None:
    """An app stopped right after a step left its table's frame work waiting (label textures, layouts); the
    next frame, drawn with no app running (a test resizing the window before starting its own), ran its kv
    rules and Kivy's app proxy failed: "'NoneType' object has no attribute 'bind'" (table.kv)."""
    from kivy.app import App

    from companion.session import Session

    app = make_app(tmp_path, Session.new("blackpool", ["yellow", "red"]))
    app._run_prepare()
    try:
        app.show("table")
        advance(3)
        for _ in range(3):  # three announcements where there was one line: the table's layout changes
            app.act(app.controller.session.legal()[0])
    finally:
        stop(app)
    assert App.get_running_app() is None
    advance(3)  # as a test resizing the window before it starts its app draws


def test_an_app_stopped_before_its_other_screens_are_built_never_builds_them(tmp_path: Path) -> None:
    """Stopped one frame after it started, its `_first_drawn` (the next frame's) still came and built the six
    other screens for an app no longer running; with none running their kv rules failed on Kivy's ``app``."""
    app = make_app(tmp_path)
    app._run_prepare()
    try:
        advance(1)
    finally:
        stop(app)
    advance(3)
    assert [screen.name for screen in app.root.screens] == ["home", "table"] and app.screens_built_at is None


def test_home_lists_the_games_without_loading_their_rules(bench_start: dict[str, Any]) -> None:
    """Home showed five games' names, colours and player counts by importing each game's rules, 43 modules of
    the 534 the first screen loaded; it reads each package's `INFO` instead (`companion.game_info`), and a game's
    rules load when it is started, that game's alone. Checked in the real command's own process when home is drawn
    and after a tap on Start."""
    report = bench_start
    assert report["screen"] == "home"
    loaded = report["game_modules"]
    assert not [name for name in loaded if name.endswith(".rules")], loaded
    assert len(loaded) <= 1, loaded  # the voice's hex names (`companion.games.ttd.board`), a module of patterns
    started = [name for name in report["after_start"]["game_modules"] if name.endswith(".rules")]
    assert started == [f"companion.games.{report['game']}.rules"]  # Start loads the game started, and no other


def test_each_games_info_is_what_its_rules_class_says() -> None:
    """`INFO` is where the rules class takes its id, title, player counts and colours from: home's list and the
    game it starts cannot disagree."""
    from companion.game_info import GameInfo
    from companion.registry import game_classes, game_infos

    for game_id, game_cls in game_classes().items():
        assert GameInfo.of(game_cls) == replace(game_infos()[game_id], rules=""), game_id
