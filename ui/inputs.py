"""Optional inputs for the app: the button box (simulated by default), the serial dice sensor, the camera.

They come from the hardware adapter and talk only to the controller; a missing
or broken one is reported and skipped, since touch alone runs a whole game.
Each can be started and stopped on its own, so the settings screen switches
one while a game goes on with the others.
"""

from __future__ import annotations

import logging
from typing import Any

from companion.controller import Controller
from vision.orientation import UPRIGHT, Orientation
from vision.tray_area import WHOLE_PICTURE, TrayArea

log = logging.getLogger(__name__)

NAMES = ("buttons", "serial", "camera")  # the inputs that run as objects; touch is the window itself
LABELS = {"buttons": "Button box", "serial": "Dice sensor", "camera": "Camera"}
LINK_SOURCES = {"dice sensor": "serial", "camera": "camera"}  # LinkChanged.source -> input name
READERS = ("serial", "camera")  # the inputs that read for the table and can lose their link while running


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

        return DiceLink(spec, controller.submit, tags=TagMap.load(default_tags_path())).start()
    if name == "camera":
        from vision.feed import start_camera

        return start_camera(spec, controller.submit, lambda: controller.session, orientation=orientation,
                            mains_hz=mains_hz, tray=tray)
    raise ValueError(f"no input called {name!r}")


def stop(controller: Controller, thing: Any) -> None:
    """Close one input; a closed button box's lights also leave the controller, which would drive dead pins."""
    lights = getattr(thing, "lights", None)
    if lights is not None:
        controller.outputs[:] = [output for output in controller.outputs if output is not lights]
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
