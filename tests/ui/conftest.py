"""A real offscreen Kivy window for the app tests; Kivy reads its environment at import, so set it first."""

from __future__ import annotations

import argparse
import contextlib
import gc
import os
import signal
import tempfile
import time

os.environ["SDL_VIDEODRIVER"] = "offscreen"  # 'dummy' kills the process with exit 102
os.environ["KIVY_NO_ARGS"] = "1"
os.environ["KIVY_LOG_MODE"] = "PYTHON"
os.environ["KIVY_NO_CONSOLELOG"] = "1"
os.environ["MESA_SHADER_CACHE_DISABLE"] = "true"
os.environ["KIVY_CLIPBOARD"] = "sdl2"
os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="kivy-home-"))

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from kivy.config import Config

Config.set("graphics", "width", "800")
Config.set("graphics", "height", "480")
# No antialiasing: Mesa's llvmpipe drew each frame in about half the CPU time (every test draws hundreds of
# frames), and no test looks at the window's edges smoothed.
Config.set("graphics", "multisamples", "0")
Config.set("graphics", "min_state_time", "0")  # buttons release at once, no timing in tests
# Frames unthrottled: at Kivy's 60 a second, a test slept about a third of its time between frames. A test that
# waits for the app's own clock (its 1/20 s pump of the controller) waits with `until`, in real time.
Config.set("graphics", "maxfps", "0")
Config.set("input", "mouse", "mouse,disable_multitouch")

from kivy.animation import Animation  # noqa: E402
from kivy.app import App  # noqa: E402
from kivy.base import EventLoop  # noqa: E402
from kivy.clock import Clock  # noqa: E402
from kivy.graphics.opengl import glFinish  # noqa: E402
from kivy.lang import Builder  # noqa: E402
from kivy.tests.common import UnitTestTouch  # noqa: E402
from kivy.uix.scrollview import ScrollView  # noqa: E402

from companion.controller import Controller  # noqa: E402
from companion.journal import Journal  # noqa: E402
from companion.session import Session  # noqa: E402
from ui.settings import Settings  # noqa: E402
from ui.voice import Voice  # noqa: E402

PIN = "2468"


@pytest.fixture(scope="session", autouse=True)
def frozen_heap() -> None:
    """What is alive before the first app starts (Kivy, OpenCV, the modules, every test module collected) is kept
    out of the garbage collector's full passes: each pass walked it all again to free the last test's app, a
    third of a settings test's CPU (3.6 s of test_settings.py's 11.8)."""
    from ui.screens import load_kv

    EventLoop.ensure_window()
    load_kv()
    gc.collect()
    gc.freeze()


DRAWN = {"window": True}  # `undrawn` turns the window's drawing off for a test that reads no pixels of it


def advance(frames: int = 3) -> None:
    for _ in range(frames):
        if not DRAWN["window"]:
            laid_out()
            continue
        EventLoop.idle()
        # The offscreen window's swap flushes nothing, so Mesa's llvmpipe kept every frame's drawing (150-200 MB
        # per 100 screen changes); finished, a frame is let go as a real display's swap lets it go.
        glFinish()


def laid_out() -> None:
    """A frame's work but the drawing: the clock's triggers (layouts, label textures) run and the kv rules are
    applied, as `advance` does, and the window is drawn at the next `advance`. For a test that measures sizes
    over hundreds of texts, not pixels: drawing the window was about half such a test's CPU."""
    Clock.tick()
    Builder.sync()
    Clock.tick_draw()
    Builder.sync()


@pytest.fixture
def undrawn() -> Iterator[None]:
    """Frames without the window's drawing for the whole test (``advance``, and so ``start``, ``tap``, ``until``
    and the rest, run `laid_out`): for a file that measures sizes, places and texts, never the window's pixels.
    A widget's own pictures (``export_as_image``, a label's texture) are drawn as before. Drawing the window
    was about half such a test's CPU; nothing a layout holds waits for it (a touch is dispatched at once, the
    app's clock events run at the clock's tick)."""
    DRAWN["window"] = False
    try:
        yield
    finally:
        DRAWN["window"] = True


def tap(widget: Any) -> None:
    """A real touch at the widget's centre, through the window's input dispatch."""
    advance(2)
    assert widget.get_root_window() is not None, f"{widget} is not on screen"
    parent = widget.parent
    while parent is not None and parent is not parent.parent and not isinstance(parent, ScrollView):
        parent = parent.parent  # the window is its own parent
    if isinstance(parent, ScrollView):  # as a player would: scroll the choice into view first
        # Twice: a wrapped label sets its button's height from its texture a frame later, and the
        # list's height (and so where a scroll lands) only settles after that.
        for _ in range(2):
            parent.scroll_to(widget, padding=0, animate=False)
            advance(2)
    x, y = widget.to_window(*widget.center)
    touch = UnitTestTouch(x, y)
    touch.touch_down()
    advance(1)
    touch.touch_up()
    advance(2)


def tap_at(widget: Any, x: float, y: float) -> None:
    """A real touch at (x, y) in the widget's parent coordinates: a point on a board rather than a button."""
    touch = UnitTestTouch(*widget.to_window(x, y))
    touch.touch_down()
    advance(1)
    touch.touch_up()
    advance(2)


class Spoken:
    """Stands in for espeak-ng's process so speech is checked without a sound card."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def __call__(self, cmd: Any) -> None:
        self.lines.append(cmd[-1])


@pytest.fixture
def espeak(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A folder put first on PATH; a test writes its own ``espeak-ng`` there. Whatever it started is killed after."""
    folder = tmp_path / "bin"
    folder.mkdir()
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ['PATH']}")
    yield folder
    pids = folder / "pids"
    for line in pids.read_text().split() if pids.is_file() else []:
        with contextlib.suppress(ProcessLookupError):
            os.kill(int(line), signal.SIGKILL)


def stand_in(folder: Path, body: str) -> None:
    """``espeak-ng`` as a shell script: notes its pid and the sentence (its last argument), then runs ``body``."""
    script = folder / "espeak-ng"
    script.write_text(f'#!/bin/sh\necho $$ >> "{folder}/pids"\nfor said; do :; done\n'
                      f'echo "$said" >> "{folder}/said"\n{body}\n')
    script.chmod(0o755)


def make_app(tmp_path: Path, session: Session | None = None, kiosk: bool = False) -> Any:
    from ui.app import CompanionApp

    settings = Settings(kiosk_pin=PIN, idle_seconds=60)
    journal = Journal(tmp_path / "journal.sqlite3")
    app = CompanionApp(
        Controller(session), journal, settings, tmp_path / "ui.json", kiosk=kiosk, voice=Voice(runner=Spoken())
    )
    app.spoken = app.voice._runner
    return app


def spoken_step(tmp_path: Path, running: list[Any]) -> Any:
    """A Blackpool table speaking through whatever ``espeak-ng`` the test put on PATH, one step played: the
    step's sentence is on its way when this returns."""
    from ui.app import CompanionApp

    session = Session.new("blackpool", ["yellow", "red"])
    app = CompanionApp(Controller(session), Journal(tmp_path / "journal.sqlite3"), Settings(), tmp_path / "ui.json")
    app._run_prepare()
    running.append(app)
    advance(3)
    app.act(app.controller.session.legal()[0])
    return app


def button_box(app: Any) -> Any:
    """A simulated button box wired to ``app``'s controller, stopped with the app (``app.hardware``)."""
    from ui import inputs

    panel = inputs.start(app.controller, "buttons", "mock")
    app.hardware.append(panel)
    return panel


@pytest.fixture
def running() -> Iterator[list[Any]]:
    """Apps started with ``start`` are stopped and taken off the window afterwards."""
    apps: list[Any] = []
    yield apps
    for app in apps:
        stop(app)


def stop(app: Any) -> None:
    """The app stopped and taken off the window, with nothing of it left to run at a later frame.

    A real app's loop ends with it; a test's window goes on. A test ending right
    after a step left its widgets' frame work waiting (label textures, layouts, the
    board's redraw: 30-46 clock events), which ran at whatever frame came next. Its
    kv rules read ``app``: after the next test's app had started they read that app,
    and before it (``window_size`` resizing first) there was none, and Kivy's app
    proxy failed ("'NoneType' object has no attribute 'bind'", table.kv). An app
    stopped one frame after it started would also have built its other screens then.
    """
    app.dispatch("on_stop")
    window = EventLoop.window
    if window is not None and app.root in window.children:
        window.remove_widget(app.root)
    let_go(app)
    App._running_app = None


def let_go(app: Any) -> None:
    """Cancel every clock event of ``app`` (`_first_drawn`, scheduled by a frame on its way) and every clock
    event and animation of its widgets, its screens not shown included."""
    root = app.root
    trees = [root, *getattr(root, "screens", ())] if root is not None else []
    widgets = [widget for tree in trees for widget in tree.walk(restrict=True)]
    ids = {id(widget) for widget in widgets} | {id(app)}
    for widget in widgets:
        Animation.cancel_all(widget)
    for event in Clock.get_events():
        if any(id(owner) in ids for owner in owners(event.get_callback())):
            event.cancel()


def owners(callback: Any) -> list[Any]:
    """What a clock callback belongs to: a method's object, or what a lambda holds (a widget's own ``self``)."""
    found = [getattr(callback, "__self__", None)]
    for cell in getattr(callback, "__closure__", None) or ():
        with contextlib.suppress(ValueError):  # a cell not filled yet
            found.append(cell.cell_contents)
    return found


@pytest.fixture
def start(running: list[Any], tmp_path: Path) -> Any:
    def _start(session: Session | None = None, kiosk: bool = False) -> Any:
        app = make_app(tmp_path, session, kiosk)
        app._run_prepare()
        running.append(app)
        advance(3)
        return app

    return _start


@pytest.fixture
def launch(running: list[Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[..., Any]:
    """``launch(settings, new=..., buttons=..., dice_sensor=..., camera=...)``: the app as ``ui run`` starts it."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))  # pins, tags, café: nothing of this machine's
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    for variable in ("COMPANION_UI_SETTINGS", "COMPANION_CAFE_DIR", "COMPANION_TAGS", "COMPANION_HARDWARE_CONFIG"):
        monkeypatch.delenv(variable, raising=False)

    def _launch(settings: Settings | str | None = None, new: bool = True, **flags: str | None) -> Any:
        """``settings`` as text is written as it stands: a hand-edited or damaged file."""
        from ui.cli import build_app

        if isinstance(settings, str):
            settings_file(tmp_path).parent.mkdir(parents=True, exist_ok=True)
            settings_file(tmp_path).write_text(settings, encoding="utf-8")
        else:
            settings = settings or Settings()
            settings.voice = False  # no espeak-ng processes from a test
            settings.save(settings_file(tmp_path))
        args = argparse.Namespace(new=new, **{"buttons": None, "dice_sensor": None, "camera": None, **flags})
        app = build_app(args, journal_path=tmp_path / "journal.sqlite3")
        app._run_prepare()
        running.append(app)
        advance(3)
        return app

    return _launch


def settings_file(tmp_path: Path) -> Path:
    return tmp_path / "config" / "table-companion" / "ui.json"


def open_settings(app: Any) -> Any:
    app.show("settings")
    advance(3)
    return app.root.get_screen("settings")


def until(condition: Callable[[], bool], seconds: float = 10.0) -> bool:
    """Frames until the condition holds: the camera and serial threads report in real time."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        advance(1)  # the app's clock pumps the controller, as on the table
        if condition():
            return True
        time.sleep(0.02)
    return condition()
