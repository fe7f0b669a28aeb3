"""A wiring check a café can run without a game: every light, every button, the sensor on the port.

Each LED is lit in turn so a person can see it; each button is waited for
with a timeout so a dead switch is reported rather than hanging the check;
serial ports are asked ``$ID?`` and whoever answers is named.
"""

from __future__ import annotations

import glob
import os
import queue
import time
from collections.abc import Callable, Mapping
from typing import Any

import serial

from companion.observations import ButtonPressed, Observation
from hardware.dice_link import QUERY, ask_ident, open_port
from hardware.dice_protocol import BadLine, Ident, LineParser
from hardware.panel import HardwareUnavailable, Panel

Say = Callable[[str], None]
PORT_PATTERNS = ("/dev/serial/by-id/*", "/dev/ttyUSB*", "/dev/ttyACM*")


def found_ports() -> dict[str, list[str]]:
    """The serial ports here, one entry a device: its stable by-id name where it has one, with its other names.

    udev gives a USB sensor two names, /dev/serial/by-id/usb-... and /dev/ttyACM0; both were listed and asked, so
    one sensor read as two, and two as four.
    """
    names: dict[str, list[str]] = {}
    for pattern in PORT_PATTERNS:  # the by-id names first: the one to keep for a device
        for path in sorted(glob.glob(pattern)):
            names.setdefault(os.path.realpath(path), []).append(path)
    return {paths[0]: paths[1:] for paths in sorted(names.values())}


def probe(url: str, wait: float = 2.0) -> Ident | str:
    """Who is on ``url``: the device's ident, or why nothing answered.

    Opened and asked as the reader does (`open_port`, `ask_ident`), so a mistyped
    URL is a "cannot open" line rather than a traceback ending the check, and a
    device that takes no input cannot hang it on the query.
    """
    try:
        port = open_port(url)
    except (serial.SerialException, OSError, ValueError) as error:
        return f"cannot open: {error}"
    parser = LineParser()
    heard = 0
    garbled: list[BadLine] = []  # lines that could not be read: a wrong baud rate is nothing but these
    echoed = False
    try:
        sent = ask_ident(port)
        end = time.monotonic() + wait
        while time.monotonic() < end:
            for message in parser.feed(port.read(port.in_waiting or 1)):
                if isinstance(message, Ident):
                    return message
                if isinstance(message, BadLine) and message.raw.strip() == QUERY.strip():
                    echoed = True  # a loopback, or a tty with echo on: not a line from a device
                elif isinstance(message, BadLine):
                    garbled.append(message)
                else:
                    heard += 1
    except (serial.SerialException, OSError) as error:
        return f"lost while asking: {error}"
    finally:
        port.close()
    if garbled and not heard:
        # Counted as "lines heard" with the readable ones, a sensor at the wrong baud rate (nothing but
        # garbage) read "no answer to $ID? (27 other lines heard)", as if it spoke and only lacked an answer.
        many = len(garbled) != 1
        return (f"no answer to $ID?, and the {len(garbled)} line{'s' if many else ''} heard could not be read "
                f"({'the first: ' if many else ''}{garbled[0].reason}): check the sensor speaks {BAUD_WORDS}, as a "
                "wrong baud rate turns every line into garbage")
    if not sent and not heard:
        return "no answer: the port takes no input, so $ID? could not be sent (is the device reading its port?)"
    if echoed:
        sent_back = "only the query sent back (a loopback or a port that echoes"
        return f"no answer to $ID?, {sent_back}; {heard} other lines heard)"
    return f"no answer to $ID? ({heard} other lines heard)"


BAUD_WORDS = "115200 baud 8N1"  # `open_port`'s default, and docs/hardware.md's protocol


def test_lights(panel: Panel, say: Say, dwell: float) -> None:
    lights = panel.lights
    if lights.rgb is not None:
        channels = dict(zip(("red", "green", "blue"), lights.rgb_pins or (), strict=False))
        other = "cathode" if lights.common == "anode" else "anode"
        # Both kinds are sold alike; the wrong one shows each colour's opposite, so the check says what mends it.
        say(f"  (an RGB LED showing the opposite, cyan for red and dark for white, is common-{other}: "
            f"set common = \"{other}\" under [lights])")
        for name in ("red", "green", "blue", "white"):
            pin = channels.get(name)
            say(f"  light: RGB LED {name}" + (f" ({_place(lights.rgb.pin_factory, f'GPIO{pin}')})" if pin else ""))
            lights.show(name)
            time.sleep(dwell)
    for name, led in lights.leds.items():
        say(f"  light: {name} LED ({_pin_name(led)})")
        lights.show(name)
        time.sleep(dwell)
    if lights.buzzer is not None:
        say("  buzzer: beep")
        lights.buzzer.beep(0.1, 0.1, n=1, background=False)
    lights.show(None)


def self_test(
    config: Mapping[str, Any],
    pin_factory: Callable[[], Any] | None,
    ports: list[str] | None,
    say: Say = print,
    timeout: float = 10.0,
    dwell: float = 0.5,
    auto_press: bool = False,
    tag_files: list[tuple[str, bool]] | None = None,
) -> int:
    """Run the whole check; 0 when everything answered, 1 otherwise.

    ``tag_files``: what to say of each game's tag file and whether it is a problem (`hardware.tags.tag_file_lines`),
    where the owner checks the table before the café opens; a broken one was read as no tags, in silence.

    ``pin_factory`` makes the factory, so a machine without GPIO (or a pin held by
    another program) is one reported problem and the serial sensor is still checked;
    None for a table without a button box, whose lights and buttons are not checked.
    """
    presses: queue.Queue[Observation] = queue.Queue()
    failures = 0
    if pin_factory is None:
        say("Lights and buttons: not checked (--buttons none)")
    else:
        failures += _check_panel(config, pin_factory, presses, say, timeout, dwell, auto_press)
    say("Serial sensor:")
    candidates = {url: [] for url in ports} if ports else found_ports()
    if not candidates:
        say("  no serial port found (looked at " + ", ".join(PORT_PATTERNS) + ")")
        failures += 1
    found: list[str] = []
    for url, others in candidates.items():
        answer = probe(url)
        also = f" (also {', '.join(others)})" if others else ""
        if isinstance(answer, Ident):
            found.append(url)
            say(f"  {url}{also}: {answer.model} firmware {answer.firmware} #{answer.serial}")
        else:
            say(f"  {url}{also}: {answer}")
    if candidates and not found:
        failures += 1
    if len(found) > 1:
        # Two boxes answering is no fault, but the table reads one: which one was the owner's to choose.
        say(f"  {len(found)} sensors answer; the table reads one: name it with --dice-sensor (hw play) or on the "
            "settings screen, by its /dev/serial/by-id name where it has one")
    if tag_files is not None:
        say("Card tags:")
        for line, problem in tag_files:
            say(f"  {line}")
            failures += problem
    say("All wiring answered." if not failures else f"{failures} problem(s) found.")
    return 1 if failures else 0


def _check_panel(
    config: Mapping[str, Any], pin_factory: Callable[[], Any], presses: queue.Queue[Observation], say: Say,
    timeout: float, dwell: float, auto_press: bool,
) -> int:
    """The lights and buttons: how many problems; a box that cannot start is one."""
    try:
        panel = Panel(config, presses.put, pin_factory())
    except HardwareUnavailable as error:
        say(f"Lights and buttons: cannot start - {error.message}")
        return 1
    try:
        return _test_panel(panel, presses, say, timeout, dwell, auto_press)
    finally:
        panel.close()


def _test_panel(
    panel: Panel, presses: queue.Queue[Observation], say: Say, timeout: float, dwell: float, auto_press: bool
) -> int:
    failures = 0
    say("Lights (watch each one):")
    test_lights(panel, say, dwell)
    say("Buttons (press each one when asked):")
    for intent in panel.buttons.down_at_start:
        # A press of a button already down never comes: it was asked for and waited out as "NOT PRESSED", which
        # sent the owner to a wire that was fine, and a normally-closed switch passed (its let-go is a press).
        failures += 1
        say(f"  {intent} ({_pin_name(panel.buttons.devices[intent])}): reads PRESSED before anyone pressed it - "
            "is something resting on it? Otherwise its switch is normally closed (use a normally-open one, or "
            "move its wire to the switch's NO terminal), or its pin's wire touches ground")
    for intent, button in panel.buttons.devices.items():
        if intent in panel.buttons.down_at_start:
            continue
        say(f"  press {intent} ({_pin_name(button)}) ...")
        if auto_press:
            panel.press(intent)  # mock pins: the check presses for you
        others = _wait_press(presses, intent, timeout)
        if others is None:
            say(f"  {intent}: ok")
            continue
        failures += 1
        # Another button heard meanwhile is most often two wires swapped: said, not silently swallowed.
        heard = [f"{o} ({_pin_name(panel.buttons.devices[o])})" for o in others if o in panel.buttons.devices]
        if heard:
            say(f"  {intent}: NOT PRESSED within {timeout:g} s; {' and '.join(heard)} was pressed instead: "
                "are their wires swapped?")
        else:
            say(f"  {intent}: NOT PRESSED within {timeout:g} s - check the wiring: {_switch_wiring(button)}")
    return failures


def _pin_name(button: Any) -> str:
    """The BCM name the wiring and pins.toml use, and where it is on the header: "GPIO17, header pin 11".

    The pin map counts in BCM numbers, the header's pins are numbered by place, and a switch wired to header
    pin 17 for "confirm = 17" lands on 3.3 V; the check names both, so the wire is looked for where it belongs.
    """
    return _place(button.pin_factory, str(getattr(getattr(button.pin, "info", None), "name", button.pin)))


def _place(factory: Any, name: str) -> str:
    return f"{name}, header pin {place}" if (place := header_pin(factory, name)) else name


def _switch_wiring(button: Any) -> str:
    """Where a button's switch goes, said when it was not heard: its pin and a ground pin near it.

    With the internal pull-up the switch must pull the pin to ground; one wired to 3.3 V (as for a pull-down)
    never reads pressed, and "check the wiring" alone did not say which wiring was meant.
    """
    name = str(getattr(getattr(button.pin, "info", None), "name", button.pin))
    place = header_pin(button.pin_factory, name)
    if place is None:
        return f"the switch goes between {name} and ground (not 3.3 V)"
    near = nearest_ground(button.pin_factory, place)
    ground = f"a ground pin (GND, e.g. header pin {near})" if near else "a ground pin"
    return f"the switch goes between header pin {place} ({name}) and {ground}, not 3.3 V"


def nearest_ground(factory: Any, place: int) -> int | None:
    """The header's ground pin fewest rows from pin ``place`` (the lower number on a tie); None where the
    board's layout is not known. docs/hardware.md's pin table names the same ones."""
    try:
        grounds = [number for number, pin in factory.board_info.headers["J8"].pins.items() if pin.name == "GND"]
    except Exception:
        return None
    row = (place - 1) // 2  # the header's pins run in pairs: 1 and 2 are one row
    return min(grounds, key=lambda pin: (abs((pin - 1) // 2 - row), pin)) if grounds else None


def header_pin(factory: Any, name: str) -> int | None:
    """The number of ``name``'s pin on the Pi's 40-pin header (J8), None where the board's layout is not known."""
    try:
        places = [pin.number for header, pin in factory.board_info.find_pin(name) if header.name == "J8"]
    except Exception:  # no board information (an unknown revision)
        return None
    return places[0] if places else None


def _wait_press(presses: queue.Queue[Observation], intent: str, timeout: float) -> list[str] | None:
    """None once ``intent`` is pressed; else, at the timeout, the other buttons pressed meanwhile."""
    wanted = {intent, "settings"} if intent == "menu" else {intent}
    others: list[str] = []
    end = time.monotonic() + timeout
    while True:  # a press already heard is read even with no time left: `--auto --timeout 0` found none
        left = end - time.monotonic()
        try:
            observation = presses.get(timeout=max(0.0, left))
        except queue.Empty:
            break
        if isinstance(observation, ButtonPressed) and observation.intent in wanted:
            return None
        if isinstance(observation, ButtonPressed):
            name = "menu" if observation.intent == "settings" else observation.intent
            others += [name] if name not in others else []
        if left <= 0:
            break
    return others
