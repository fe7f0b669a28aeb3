"""Optional inputs for the app: the button box (simulated by default), the serial dice sensor, the camera.

They come from the hardware adapter and talk only to the controller; a missing
or broken one is reported and skipped, since touch alone runs a whole game.
Each can be started and stopped on its own, so the settings screen switches
one while a game goes on with the others.
"""

from __future__ import annotations

import logging
import threading
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
          tray: TrayArea = WHOLE_PICTURE) -> Any:
    """One input, running when this returns; raises when it cannot start, for the caller to report.

    ``spec`` is the button pin factory (``mock`` or ``gpio``), the serial port or
    the camera source word; ``orientation`` puts the camera's picture upright
    (`vision.orientation.Orientation`), ``mains_hz`` is told to the camera
    against flickering light (`vision.mains`) and ``tray`` is where it reads dice
    (`vision.tray_area`). A port or camera that cannot be opened does not
    raise: its adapter reports the failure through the controller and retries.
    """
    if name == "buttons":
        from hardware.panel import Panel, make_pin_factory
        from hardware.pins import load_config

        panel = Panel(load_config(None), controller.submit, make_pin_factory(spec))
        controller.add_output(panel.lights)
        return panel
    if name == "serial":
        from hardware.dice_link import DiceLink
        from hardware.tags import TagMap, default_tags_path

        return DiceLink(spec, Gate(controller.submit), tags=TagMap.load(default_tags_path())).start()
    if name == "camera":
        from vision.feed import start_camera

        return start_camera(spec, controller.submit, lambda: controller.session, orientation=orientation,
                            mains_hz=mains_hz, tray=tray)
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
    gate = getattr(thing, "submit", None)
    if isinstance(gate, Gate):
        gate.shut()
        try:
            thing.stop(LINK_STOP_SECONDS)
        except Exception as error:
            log.warning("closing %r: %s", thing, error)
        return
    close([thing])


def close(objects: list[Any]) -> None:
    for thing in reversed(objects):
        for name in ("close", "stop"):
            method = getattr(thing, name, None)
            if callable(method):
                try:
                    method()
                except Exception as error:
                    log.warning("closing %r: %s", thing, error)
                break
