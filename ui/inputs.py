"""Optional inputs for the app: the button box (simulated by default), the serial dice sensor, the camera.

They come from the hardware adapter and talk only to the controller; a missing
or broken one is reported and skipped, since touch alone runs a whole game.
Each can be started and stopped on its own, so the settings screen switches
one while a game goes on with the others.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from companion.controller import Controller
from vision.orientation import UPRIGHT, Orientation
from vision.tray_area import WHOLE_PICTURE, TrayArea

log = logging.getLogger(__name__)

NAMES = ("buttons", "serial", "camera")  # the inputs that run as objects; touch is the window itself
LABELS = {"buttons": "Button box", "serial": "Dice sensor", "camera": "Camera"}
LINK_SOURCES = {"dice sensor": "serial", "camera": "camera"}  # LinkChanged.source -> input name
READERS = ("serial", "camera")  # the inputs that read for the table and can lose their link while running
LINK_STOP_SECONDS = 0.5  # a healthy link's read times out every 0.1 s; longer is a port stuck opening
CLOSE_SECONDS = 6.0  # every input together, at exit: a camera's feed waits 5 s for a reader stuck in OpenCV


class Gate:
    """The controller's submit for one dice sensor, shut when it is switched off.

    A link stopped while its port hangs in connect() (a ``socket://`` sensor
    that does not answer) is not waited for (see `stop`); when the connect
    finally fails its thread still reports "cannot open", which would mark the
    sensor that replaced it as down. Shut, the gate drops everything it is given.
    """

    def __init__(self, submit: Callable[[Any], None]) -> None:
        self._submit = submit
        self._lock = threading.Lock()  # held while submitting, so nothing passes once shut() returns
        self.open = True

    def __call__(self, observation: Any) -> None:
        with self._lock:
            if self.open:
                self._submit(observation)

    def shut(self) -> None:
        with self._lock:
            self.open = False


def start(controller: Controller, name: str, spec: str, orientation: Orientation = UPRIGHT, mains_hz: int = 0,
          tray: TrayArea = WHOLE_PICTURE, on_tray: Callable[[TrayArea], None] | None = None) -> Any:
    """One input, running when this returns; raises when it cannot start, for the caller to report.

    ``spec`` is the button pin factory (``mock`` or ``gpio``), the serial port or
    the camera source word; ``orientation`` puts the camera's picture upright
    (`vision.orientation.Orientation`), ``mains_hz`` is told to the camera
    against flickering light (`vision.mains`) and ``tray`` is where it reads dice
    (`vision.tray_area`), told through ``on_tray`` (on the camera's thread) when
    it moved with a knocked camera's picture. A port or camera that cannot be opened does not
    raise: its adapter reports the failure through the controller and retries.
    """
    if name == "buttons":
        from hardware.panel import Panel, make_pin_factory
        from hardware.pins import load_config

        panel = Panel(load_config(None), controller.submit, make_pin_factory(spec))
        panel.lights.follow(controller)  # lit for the game already on the table, not dark until its next move
        return panel
    if name == "serial":
        from hardware.dice_link import DiceLink
        from hardware.tags import GameTags

        # The tags of the game on the table, each game's own file (`hw teach --game G`); the temple's were read
        # for every game.
        tags = GameTags(lambda: controller.session.game if controller.session else None)
        return DiceLink(spec, Gate(controller.submit), tags=tags).start()
    if name == "camera":
        from vision.feed import start_camera

        return start_camera(spec, controller.submit, lambda: controller.session, orientation=orientation,
                            mains_hz=mains_hz, tray=tray, on_tray=on_tray)
    raise ValueError(f"no input called {name!r}")


def stop(controller: Controller, thing: Any) -> None:
    """Close one input; a closed button box's lights also leave the controller, which would drive dead pins.

    A dice sensor is waited for briefly only: stopping joins its thread, which
    a network port that never answers holds in connect() for 5 s, and this runs
    on Kivy's thread (Save froze the touchscreen for all of it). Its gate is
    shut first, so the thread left to end on its own reports nothing more.
    """
    lights = getattr(thing, "lights", None)
    if lights is not None:
        controller.outputs[:] = [output for output in controller.outputs if output is not lights]
    close_one(thing)


def close_one(thing: Any) -> None:
    """Shut one input's gate and close it: a dice sensor waited for ``LINK_STOP_SECONDS``, the rest by their own.

    Whatever goes wrong is logged and swallowed: one input that fails to close
    must not keep the others open or stop the app's exit.
    """
    gate = getattr(thing, "submit", None)
    try:
        if isinstance(gate, Gate):
            gate.shut()
            thing.stop(LINK_STOP_SECONDS)
            return
        for name in ("close", "stop"):
            method = getattr(thing, name, None)
            if callable(method):
                method()
                return
    except Exception as error:
        log.warning("closing %r: %s", thing, error)


def close(objects: list[Any], seconds: float = CLOSE_SECONDS) -> None:
    """Close every input at once and wait ``seconds`` at most for them all together: the app's exit.

    One after the other, each waited for its own time: a dice sensor stuck in
    connect() held the exit 5 s, and the next one, not yet told to stop,
    started another 5 s connect meanwhile, so two held it 9 s. Now every gate
    is shut before anything is waited for (nothing closing reports on a table
    that is going away), each input closes on a thread of its own, and all
    share one deadline; an input still closing after it is left behind, on a
    daemon thread that does not hold the process.
    """
    things = list(reversed(objects))  # the last started first, as before
    for thing in things:
        gate = getattr(thing, "submit", None)
        if isinstance(gate, Gate):
            gate.shut()
    closers = [
        threading.Thread(target=close_one, args=(thing,), name=f"close {type(thing).__name__}", daemon=True)
        for thing in things
    ]
    for closer in closers:
        closer.start()
    deadline = time.monotonic() + seconds
    for closer in closers:
        closer.join(max(0.0, deadline - time.monotonic()))
    for thing, closer in zip(things, closers, strict=True):
        if closer.is_alive():
            log.warning("closing %r: still closing after %.1f s, left to end on its own", thing, seconds)
