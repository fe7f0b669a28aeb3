"""Buttons and lights on GPIO: the buttons feed the controller, the lights are one of its outputs.

Buttons only ever submit a ``ButtonPressed`` intent: what "confirm" means at
this moment (apply a proposed reading, take the highlighted choice, roll in
the app) is the controller's call, made on its own thread. The lights only
ever listen to ``Update``s, so typed input, touches and sensors light them
the same way.
"""

from __future__ import annotations

import threading
import time
import warnings
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from gpiozero import LED, RGBLED, Button, Buzzer, Device

from companion.controller import Controller
from companion.errors import CompanionError
from companion.game import Pending
from companion.observations import DOWN_PREFIX, HELD_PREFIX, ButtonPressed, Observation, Update
from hardware.signals import PATTERNS, RGB_LIGHTS, Signal, assign

Submit = Callable[[Observation], None]
TAP_INTENTS = ("confirm", "undo", "next")

D = TypeVar("D")


class HardwareUnavailable(CompanionError, RuntimeError):
    """The button box cannot be wired up here: no GPIO on this machine, or a pin someone else holds.

    A CompanionError, so ``companion hw ...`` prints it as one line and the
    settings screen shows it, instead of a gpiozero traceback about some pin.
    """

    code = "hardware_unavailable"


def make_pin_factory(kind: str) -> Any:
    """``mock`` for laptops and tests, ``gpio`` for gpiozero's own choice on a Pi.

    gpiozero tries its drivers one by one and, off a Pi, ends with a bare
    "Unable to load any default pin factory!" after four warnings on stderr; the
    reasons are gathered into one refusal that also says what to do instead.
    """
    if kind == "mock":
        from gpiozero.pins.mock import MockFactory

        return MockFactory(pin_class=_forgetful_mock_pin())
    with warnings.catch_warnings(record=True) as heard:
        warnings.simplefilter("always")
        try:
            Device.ensure_pin_factory()
        except Exception as error:
            reasons = "; ".join(str(w.message).removeprefix("Falling back from ") for w in heard) or str(error)
            raise HardwareUnavailable(
                f"no GPIO pins on this machine ({reasons}); off the Pi use --buttons mock"
            ) from None
    for warning in heard:  # a usable but limited driver (gpiozero's native one) still says so
        warnings.showwarning(warning.message, warning.category, warning.filename, warning.lineno)
    return Device.pin_factory


MOCK_STATES_KEPT = 64  # a simulated pin's latest changes, kept for a look in a debugger


def _forgetful_mock_pin() -> type:
    """gpiozero's mock pin keeping only its last `MOCK_STATES_KEPT` changes.

    The kiosk runs the simulated button box unless the unit says ``--buttons gpio``, and gpiozero's own mock
    pin keeps every change it ever made, for tests to compare: each turn's light added one to a list never
    emptied, about 250 a game for as long as the kiosk ran.
    """
    from collections import deque

    from gpiozero.pins.mock import MockPin

    class ForgetfulMockPin(MockPin):
        def clear_states(self) -> None:
            super().clear_states()
            self.states = deque(self.states, maxlen=MOCK_STATES_KEPT)

    return ForgetfulMockPin


def _open(part: str, pin: object, make: Callable[[], D]) -> D:
    """One gpiozero device, or a refusal naming the wiring key and pin that failed."""
    try:
        return make()
    except HardwareUnavailable:
        raise
    except Exception as error:  # gpiozero's own errors, or the driver's ("GPIO busy" from lgpio)
        raise HardwareUnavailable(f"{part} (GPIO{pin}) cannot be used: {error}") from error


class Buttons:
    """The four buttons, each press submitted once.

    Chatter is filtered here as well as by the pin driver, because the drivers
    do not agree: gpiozero's mock pins ignore ``bounce_time``, RPi.GPIO lets the
    bounce of a release through as a new press, and lgpio has been reported to
    pass chatter. A doubled confirm would take two steps of the game, so a press
    only counts after the line was quiet for ``bounce_ms``, and a release only
    ends a press that lasted that long.
    """

    def __init__(self, config: Mapping[str, Any], submit: Submit, pin_factory: Any = None) -> None:
        self.submit = submit
        self.bounce = float(config.get("bounce_ms", 30)) / 1000
        self.hold_seconds = float(config.get("hold_seconds", 2.0))
        self.stuck_seconds = float(config.get("stuck_seconds", 5.0))
        self.clock: Callable[[], float] = time.monotonic
        self.devices: dict[str, Button] = {}
        self.held = threading.Event()  # set when the menu hold fired; Panel.press waits on it
        self._lock = threading.Lock()
        self._last_edge: dict[str, float] = {}
        self._down_since: dict[str, float] = {}
        self._held = False
        try:
            for intent in (*TAP_INTENTS, "menu"):
                pin = config.get(intent)
                if pin:
                    self.devices[intent] = self._button(intent, pin, pin_factory)
        except Exception:
            self.close()  # pins opened so far would stay reserved, and a retry would find them "in use"
            raise
        self.down_at_start = [intent for intent, button in self.devices.items() if button.is_pressed]
        for intent in self.down_at_start:
            # gpiozero reports changes only: a button down as its pin opened (a cup on it at power-up, a
            # normally-closed switch, a wire touching ground) fired nothing, not even its "seems held", so it
            # looked dead with no word why. Its let-go is no press either (no press began), as before.
            self.submit(ButtonPressed(f"{DOWN_PREFIX}{intent}"))

    def _button(self, intent: str, pin: int, pin_factory: Any) -> Button:
        # The menu's hold repeats once: its first firing is the settings, its second (`_menu_held`) the same
        # "seems held" the other buttons say after stuck_seconds.
        hold = {"hold_time": self.hold_seconds, "hold_repeat": True} if intent == "menu" else {
            "hold_time": self.stuck_seconds}
        button = _open(
            f"buttons.{intent}",
            pin,
            lambda: Button(pin, pull_up=True, bounce_time=self.bounce or None, pin_factory=pin_factory, **hold),
        )
        if intent == "menu":
            button.when_pressed = self._menu_pressed
            button.when_held = self._menu_held
            button.when_released = self._menu_released
        else:
            button.when_pressed = lambda: self._pressed(intent) and self.submit(ButtonPressed(intent))
            button.when_released = lambda: self._released(intent)
            # Once per hold (gpiozero repeats it only with hold_repeat): a cup resting on confirm was one press
            # and then silence, and the table could not tell why the box seemed dead to that button.
            button.when_held = lambda: self.submit(ButtonPressed(f"{HELD_PREFIX}{intent}"))
        return button

    def _pressed(self, name: str) -> bool:
        """Whether this falling edge is a press rather than chatter."""
        with self._lock:
            now = self.clock()
            last = self._last_edge.get(name)
            self._last_edge[name] = now
            if last is not None and now - last < self.bounce:
                return False
            self._down_since[name] = now
            return True

    def _released(self, name: str) -> bool:
        """Whether this rising edge ends a press, rather than being chatter inside one or after one."""
        with self._lock:
            now = self.clock()
            self._last_edge[name] = now
            since = self._down_since.get(name)
            if since is None or now - since < self.bounce:
                return False
            del self._down_since[name]
            return True

    def _menu_pressed(self) -> None:
        if self._pressed("menu"):
            self._held = False
            button = self.devices["menu"]
            button.hold_time, button.hold_repeat = self.hold_seconds, True  # as `_menu_held` found them

    def _menu_held(self) -> None:
        """The settings at hold_seconds; then, still down at stuck_seconds, said once to seem held.

        The menu button resting pressed opened the settings and then said nothing, where confirm, undo
        and next said they seemed held: the owner could not tell why a tap of menu did nothing afterwards.
        gpiozero reads the hold time afresh before each wait, so the second wait is the rest of stuck_seconds.
        """
        button = self.devices["menu"]
        if self._held:
            button.hold_repeat = False  # once per hold, as for the other buttons
            self.submit(ButtonPressed(f"{HELD_PREFIX}menu"))
            return
        self._held = True
        button.hold_time = max(self.stuck_seconds - self.hold_seconds, 0.0)
        self.submit(ButtonPressed("settings"))
        self.held.set()  # after the submit: whoever waits on it may look for the press at once

    def _menu_released(self) -> None:
        if self._released("menu") and not self._held:
            self.submit(ButtonPressed("menu"))

    def close(self) -> None:
        for device in self.devices.values():
            device.close()


class Lights:
    """Whose turn it is, in their colour; a few flashes on a penalty; a beep on a refusal.

    A colour with no light of its own shows as the nearest one, blinking or winking
    (`hardware.signals`), chosen with the other colours of the game on the table so
    no two players of it look alike.
    """

    def __init__(self, config: Mapping[str, Any], buzzer: Mapping[str, Any] | None = None, pin_factory: Any = None):
        self.mode = config.get("mode", "rgb")
        self.flash_count = int(config.get("flash_count", 3))
        self.flash_seconds = float(config.get("flash_seconds", 0.15))
        self.rgb: RGBLED | None = None
        self.rgb_pins: tuple[int, int, int] | None = None  # red, green, blue: the self-test names each channel's pin
        self.common = str(config.get("common", "cathode"))  # the RGB LED's common leg: "cathode" or "anode"
        self.leds: dict[str, LED] = {}
        self.buzzer: Buzzer | None = None
        buzzer = buzzer or {}
        self.beep_seconds = float(buzzer.get("beep_seconds", 0.1))
        try:
            if self.mode == "rgb":
                pins = self.rgb_pins = (config["red"], config["green"], config["blue"])
                self.rgb = _open(
                    "lights.red/green/blue",
                    "/".join(map(str, pins)),
                    # A common-anode LED (as often sold as the other kind) lights a channel by pulling its pin
                    # low: driven as common-cathode it showed cyan for red, and white when it should be dark.
                    lambda: RGBLED(*pins, pwm=False, active_high=self.common != "anode",
                                   pin_factory=pin_factory),
                )
            elif self.mode == "per_colour":
                for colour, pin in config.get("colours", {}).items():
                    if pin:
                        led = _open(f"lights.colours.{colour}", pin, lambda p=pin: LED(p, pin_factory=pin_factory))
                        self.leds[colour.lower()] = led  # players' colours arrive lower-cased
            if buzzer.get("pin"):
                self.buzzer = _open("buzzer.pin", buzzer["pin"], lambda: Buzzer(buzzer["pin"], pin_factory=pin_factory))
        except Exception:
            self._close_devices()
            raise
        self.colour: str | None = None
        self.shown: Signal | None = None  # what the lights show now (None: dark)
        self._controller: Controller | None = None  # whose game's colours are told apart (`follow`)
        self.flash_done = threading.Event()
        self.flash_done.set()
        self._stop_flash = threading.Event()
        self._flasher: threading.Thread | None = None

    def signal(self, colour: str) -> Signal | None:
        """How ``colour`` shows, told apart from the other colours of the game on the table; None: no light."""
        session = self._controller.session if self._controller is not None else None
        colours: list[str] = []
        if session is not None:
            players = session.start.get("players") if isinstance(session.start, dict) else None
            colours = [*session.game.colours, *(str(p) for p in players or ())]
        lights = RGB_LIGHTS if self.rgb is not None else self.leds
        return assign([*colours, colour], lights).get(colour.lower())

    def show(self, colour: str | None) -> None:
        """Light one colour (None: dark): its light steady, or blinking for a colour without one of its own.

        The signal already shown is left running: every update lights whose turn it is, and each started the
        blink again from its "on", so a blinking player's light looked irregular while moves came quickly.
        """
        signal = self.signal(colour) if colour else None
        if signal == self.shown:
            return
        self.shown = signal
        timing = PATTERNS[signal.pattern] if signal is not None else None
        if self.rgb is not None:
            on = RGB_LIGHTS[signal.light] if signal is not None else (0, 0, 0)
            if timing is None:
                self.rgb.color = on
            else:
                self.rgb.blink(*timing, on_color=on, off_color=(0, 0, 0), background=True)
        for name, led in self.leds.items():
            if signal is not None and name == signal.light and timing is not None:
                led.blink(*timing, background=True)
            else:
                led.value = 1 if signal is not None and name == signal.light else 0

    def follow(self, controller: Controller) -> None:
        """Listen to ``controller`` from now on, lighting the turn of the game it already holds.

        The lights hear only updates, and a game resumed at start-up (or a
        button box switched on from the settings screen mid-game) publishes
        none until the next move: the box stayed dark while blue was to play.
        """
        controller.add_output(self)
        self._controller = controller
        session = controller.session
        self._light(session.pending() if session is not None else None)

    def _light(self, pending: Pending | None) -> None:
        colour = None
        if pending is not None and not pending.is_over and pending.player:
            colour = str(pending.player).lower()
        self.colour = colour
        self.show(colour)

    def __call__(self, update: Update) -> None:
        self._end_flash()
        self._light(update.pending)
        colour = self.colour
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
        self._close_devices()

    def _close_devices(self) -> None:
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
        """Press and release a mock button (laptop demos and tests); False if there is no such button.

        The pin is held down as a finger would: past the debounce for a tap, and
        for "settings" until the menu button's hold has fired, since a quick tap
        of that button is the menu.
        """
        button = self.buttons.devices.get("menu" if intent in ("menu", "settings") else intent)
        if button is None or not hasattr(button.pin, "drive_low"):
            return False
        self.buttons.held.clear()
        button.pin.drive_low()
        if intent == "settings":
            self.buttons.held.wait(self.buttons.hold_seconds + 5)
        else:
            time.sleep(self.buttons.bounce * 1.5)
        button.pin.drive_high()
        time.sleep(self.buttons.bounce * 1.5)  # the line is quiet again before a next press counts
        return True

    def close(self) -> None:
        self.buttons.close()
        self.lights.close()
