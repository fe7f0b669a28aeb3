"""Optional inputs for the app: the button box (simulated by default), the serial dice sensor, the camera.

They come from the hardware adapter and talk only to the controller; a missing
or broken one is reported and skipped, since touch alone runs a whole game.
"""

from __future__ import annotations

import logging
from typing import Any

from companion.controller import Controller

log = logging.getLogger(__name__)


def attach(
    controller: Controller, buttons: str = "mock", dice_sensor: str | None = None, camera: str | None = None
) -> list[Any]:
    """Start the chosen inputs; returns the objects to hand to the app (it closes them on exit)."""
    attached: list[Any] = []
    if buttons != "none":
        try:
            from hardware.panel import Panel, make_pin_factory
            from hardware.pins import load_config

            panel = Panel(load_config(None), controller.submit, make_pin_factory(buttons))
            controller.add_output(panel.lights)
            attached.append(panel)
        except Exception as error:  # touch still works without the button box
            log.warning("buttons (%s) unavailable: %s", buttons, error)
    if dice_sensor:
        try:
            from hardware.dice_link import DiceLink
            from hardware.tags import TagMap, default_tags_path

            attached.append(DiceLink(dice_sensor, controller.submit, tags=TagMap.load(default_tags_path())).start())
        except Exception as error:
            log.warning("dice sensor %s unavailable: %s", dice_sensor, error)
    if camera:
        try:
            from vision.feed import start_camera

            attached.append(start_camera(camera, controller.submit, lambda: _game_id(controller)))
        except Exception as error:  # e.g. no OpenCV on this machine
            log.warning("camera %s unavailable: %s", camera, error)
    return attached


def _game_id(controller: Controller) -> str | None:
    """The game the camera should read for (its readers follow the session the app has now)."""
    session = controller.session
    return session.game.id if session is not None else None


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
