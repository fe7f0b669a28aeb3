"""Buttons and lights on GPIO: the buttons feed the controller, the lights are one of its outputs.

Buttons only ever submit a ``ButtonPressed`` intent: what "confirm" means at
this moment (apply a proposed reading, take the highlighted choice, roll in
the app) is the controller's call, made on its own thread. The lights only
ever listen to ``Update``s, so typed input, touches and sensors light them
the same way.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from typing import Any

from gpiozero import LED, RGBLED, Button, Buzzer

from companion.observations import ButtonPressed, Observation, Update

Submit = Callable[[Observation], None]
TAP_INTENTS = ("confirm", "undo", "next")

# Channel values for a plain (non-PWM) RGB LED: each channel is on or off.
COLOURS: dict[str, tuple[int, int, int]] = {
    "red": (1, 0, 0),
    "green": (0, 1, 0),
    "blue": (0, 0, 1),
    "yellow": (1, 1, 0),
    "orange": (1, 1, 0),
    "purple": (1, 0, 1),
    "pink": (1, 0, 1),
    "cyan": (0, 1, 1),
    "white": (1, 1, 1),
}
UNKNOWN = (1, 1, 1)  # a player who is not a colour still gets a light


def make_pin_factory(kind: str) -> Any:
    """``mock`` for laptops and tests, ``gpio`` for gpiozero's own choice on a Pi."""
    if kind == "mock":
        from gpiozero.pins.mock import MockFactory

        return MockFactory()
    return None


class Buttons:
    def __init__(self, config: Mapping[str, Any], submit: Submit, pin_factory: Any = None) -> None:
        self.submit = submit
        bounce = float(config.get("bounce_ms", 30)) / 1000 or None
        self.devices: dict[str, Button] = {}
        for intent in TAP_INTENTS:
            pin = config.get(intent)
            if pin:
                button = Button(pin, pull_up=True, bounce_time=bounce, pin_factory=pin_factory)
                button.when_pressed = self._sender(intent)
                self.devices[intent] = button
        self._held = False
        if config.get("menu"):
            menu = Button(
                config["menu"],
                pull_up=True,
                bounce_time=bounce,
                hold_time=float(config.get("hold_seconds", 2.0)),
                pin_factory=pin_factory,
            )
            menu.when_held = self._menu_held
            menu.when_released = self._menu_released
            self.devices["menu"] = menu

    def _sender(self, intent: str) -> Callable[[], None]:
        return lambda: self.submit(ButtonPressed(intent))

    def _menu_held(self) -> None:
        self._held = True
        self.submit(ButtonPressed("settings"))

    def _menu_released(self) -> None:
        if not self._held:
            self.submit(ButtonPressed("menu"))
        self._held = False

    def close(self) -> None:
        for device in self.devices.values():
            device.close()


class Lights:
    """Whose turn it is, in their colour; a few flashes on a penalty; a beep on a refusal."""

    def __init__(self, config: Mapping[str, Any], buzzer: Mapping[str, Any] | None = None, pin_factory: Any = None):
        self.mode = config.get("mode", "rgb")
        self.flash_count = int(config.get("flash_count", 3))
        self.flash_seconds = float(config.get("flash_seconds", 0.15))
        self.rgb: RGBLED | None = None
        self.leds: dict[str, LED] = {}
        if self.mode == "rgb":
            self.rgb = RGBLED(config["red"], config["green"], config["blue"], pwm=False, pin_factory=pin_factory)
        elif self.mode == "per_colour":
            self.leds = {c: LED(p, pin_factory=pin_factory) for c, p in config.get("colours", {}).items() if p}
        buzzer = buzzer or {}
        self.beep_seconds = float(buzzer.get("beep_seconds", 0.1))
        self.buzzer = Buzzer(buzzer["pin"], pin_factory=pin_factory) if buzzer.get("pin") else None
        self.colour: str | None = None
        self.flash_done = threading.Event()
        self.flash_done.set()
        self._stop_flash = threading.Event()
        self._flasher: threading.Thread | None = None

    def show(self, colour: str | None) -> None:
        """Light one colour (None: dark)."""
        if self.rgb is not None:
            self.rgb.color = COLOURS.get(colour, UNKNOWN) if colour else (0, 0, 0)
        for name, led in self.leds.items():
            led.value = 1 if name == colour else 0

    def __call__(self, update: Update) -> None:
        self._end_flash()
        pending = update.pending
        colour = None
        if pending is not None and not pending.is_over and pending.player:
            colour = str(pending.player).lower()
        self.colour = colour
        self.show(colour)
        if any(getattr(event, "kind", None) == "penalty" for event in update.events):
            self._start_flash(colour or "white")
        if update.kind in ("refused", "unapplied") and self.buzzer is not None:
            self.buzzer.beep(self.beep_seconds, self.beep_seconds, n=1, background=True)

    def _start_flash(self, colour: str) -> None:
        self._stop_flash = threading.Event()
        self.flash_done.clear()
        self._flasher = threading.Thread(target=self._flash, args=(colour, self._stop_flash), daemon=True)
        self._flasher.start()

    def _flash(self, colour: str, stop: threading.Event) -> None:
        try:
            for _ in range(self.flash_count):
                self.show(None)
                if stop.wait(self.flash_seconds):
                    return
                self.show(colour)
                if stop.wait(self.flash_seconds):
                    return
        finally:
            self.flash_done.set()

    def _end_flash(self) -> None:
        if self._flasher is not None:
            self._stop_flash.set()
            self._flasher.join()
            self._flasher = None
            self.show(self.colour)

    def close(self) -> None:
        self._end_flash()
        for device in [self.rgb, self.buzzer, *self.leds.values()]:
            if device is not None:
                device.close()


class Panel:
    """The whole button box: buttons submitting to a controller, lights listening to it."""

    def __init__(self, config: Mapping[str, Any], submit: Submit, pin_factory: Any = None) -> None:
        self.pin_factory = pin_factory
        self.buttons = Buttons(config.get("buttons", {}), submit, pin_factory)
        try:
            self.lights = Lights(config.get("lights", {}), config.get("buzzer"), pin_factory)
        except Exception:
            self.buttons.close()
            raise

    def press(self, intent: str) -> bool:
        """Press and release a mock button (laptop demos and tests); False if there is no such button."""
        button = self.buttons.devices.get("menu" if intent in ("menu", "settings") else intent)
        if button is None or not hasattr(button.pin, "drive_low"):
            return False
        button.pin.drive_low()
        button.pin.drive_high()
        return True

    def close(self) -> None:
        self.buttons.close()
        self.lights.close()
