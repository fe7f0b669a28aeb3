"""The wiring of a table: which GPIO pin does what, from a TOML file over documented defaults.

Cafés wire their own boxes, so nothing about pins is hard-coded: the packaged
``pins.toml`` is both the defaults and their documentation, and a café file
only lists what differs.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any

from companion.errors import InvalidData
from companion.paths import env_or, user_data_dir
from companion.schema import Enum, Int, MapOf, Number, Obj, Str

DEFAULTS = Path(__file__).with_name("pins.toml")

PIN = Int(0, 27)  # a BCM GPIO number of the 40-pin header; 0 leaves the part out
SCHEMA = Obj(
    {},
    {
        "buttons": Obj(
            {},
            {"confirm": PIN, "undo": PIN, "next": PIN, "menu": PIN, "bounce_ms": Int(0, 1000),
             "hold_seconds": Number(0.01, 30), "stuck_seconds": Number(0.01, 600)},
        ),
        "lights": Obj(
            {},
            {"mode": Enum("rgb", "per_colour", "none"), "common": Enum("cathode", "anode"),
             "red": PIN, "green": PIN, "blue": PIN,
             "flash_count": Int(0, 20), "flash_seconds": Number(0.01, 5), "colours": MapOf(PIN, Str())},
        ),
        "buzzer": Obj({}, {"pin": PIN, "beep_seconds": Number(0.01, 5)}),
    },
)


CONFIG_VARIABLE = "COMPANION_HARDWARE_CONFIG"


def default_config_path() -> Path:
    return env_or(CONFIG_VARIABLE, user_data_dir() / "hardware.toml")


def config_source(path: Path | None = None) -> str:
    """Which pin map `load_config` reads, in a line for ``hw test``: the café's file, or the defaults and where
    a café file would be.

    The installed service reads its own data folder (/var/lib/table-companion/table-companion), not the
    owner's home: a wiring file written to ~/.local/share was passed over without a word, and the check run as
    the owner tested that file while the table used the defaults.
    """
    path = path or default_config_path()
    if path.exists():
        return f"Pin map: {path} (over the defaults in hardware/{DEFAULTS.name})"
    return f"Pin map: the defaults (hardware/{DEFAULTS.name}); there is no wiring file at {path}"


def _merge(base: dict[str, Any], override: dict[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for key, value in override.items():
        merged[key] = _merge(base[key], value) if isinstance(value, dict) and isinstance(base.get(key), dict) else value
    return merged


def _pins_in_use(config: dict[str, Any]) -> list[tuple[str, int]]:
    """Each wired part and its pin, as the panel will open them (the lights of the chosen mode only)."""
    buttons, lights, buzzer = config["buttons"], config["lights"], config["buzzer"]
    uses = [(f"buttons.{name}", buttons[name]) for name in ("confirm", "undo", "next", "menu")]
    if lights["mode"] == "rgb":
        uses += [(f"lights.{channel}", lights[channel]) for channel in ("red", "green", "blue")]
    elif lights["mode"] == "per_colour":
        uses += [(f"lights.colours.{colour}", pin) for colour, pin in lights["colours"].items()]
    uses.append(("buzzer.pin", buzzer["pin"]))
    return [(key, pin) for key, pin in uses if pin]


def _colours_in_lower_case(own: dict[str, Any], where: str) -> list[str]:
    """Lower-case the café's colour keys in place, so "Red = 6" moves the default red LED.

    Player colours reach the lights lower-cased; a key kept as written would
    never light, and would sit beside the default red on its own pin.
    """
    colours = own.get("lights", {}).get("colours")
    if not colours:
        return []
    problems = []
    lowered: dict[str, Any] = {}
    written: dict[str, str] = {}
    for colour, pin in colours.items():
        key = colour.lower()
        if key in lowered:
            problems.append(
                f"{where} lights.colours.{written[key]} and lights.colours.{colour} are one colour "
                "(case does not count); keep one of them"
            )
        lowered[key], written[key] = pin, colour
    own["lights"]["colours"] = lowered
    return problems


def _wiring_problems(config: dict[str, Any], where: str) -> list[str]:
    """Two parts on one pin, or an RGB LED missing a channel: caught here with their keys.

    gpiozero would only say "pin GPIO17 is already in use" for the second part it
    opened, and a channel left at 0 would quietly drive GPIO0, the HAT EEPROM pin.
    A clash may come from the café file against a default it did not move, so
    both keys are named.
    """
    problems = []
    buttons = config["buttons"]
    if buttons["menu"] and buttons["stuck_seconds"] <= buttons["hold_seconds"]:
        # The menu's "seems held" comes stuck_seconds after its press, once its hold opened the settings: at or
        # under hold_seconds every hold of menu that opened the settings also said the button seemed stuck.
        problems.append(
            f"{where} buttons.stuck_seconds ({buttons['stuck_seconds']:g}) must be longer than buttons.hold_seconds "
            f"({buttons['hold_seconds']:g}): else every hold of menu that opens the settings is also said to be "
            "a button stuck down"
        )
    lights = config["lights"]
    if lights["mode"] == "rgb":
        for channel in ("red", "green", "blue"):
            if not lights[channel]:
                problems.append(
                    f"{where} lights.{channel}: 0 leaves the channel out, but mode \"rgb\" needs all three "
                    'channel pins; wire it, or use mode "per_colour" or "none"'
                )
    first: dict[int, str] = {}
    for key, pin in _pins_in_use(config):
        if pin in first:
            problems.append(f"{where} {key} and {first[pin]} are both GPIO{pin}; each part needs a pin of its own")
        else:
            first[pin] = key
    return problems


def load_config(path: Path | None = None) -> dict[str, Any]:
    """Defaults, overlaid with the café file when it exists; a broken café file is an error, not ignored.

    The file is checked against `SCHEMA` before it is used, so a typo ("confim")
    or a pin written as text is named with its file and key instead of
    surfacing as a gpiozero error about some pin. A file named on purpose
    (``--hardware-config`` or ``$COMPANION_HARDWARE_CONFIG``) that is not there
    is an error too: silently wiring the defaults would look like dead buttons.
    """
    with DEFAULTS.open("rb") as file:
        config = tomllib.load(file)
    named = path is not None or bool(os.environ.get(CONFIG_VARIABLE))
    path = path or default_config_path()
    if not path.exists():
        if named:
            raise InvalidData([f"{path}: no such wiring file"])
        return config
    try:
        # Past a byte-order mark (Notepad's UTF-8): tomllib refused it as "Invalid statement" at line 1.
        own = tomllib.loads(path.read_text(encoding="utf-8-sig"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise InvalidData([f"{path}: not a readable TOML file ({exc})"]) from None
    problems = SCHEMA(own, f"{path}:") or _colours_in_lower_case(own, f"{path}:")
    if problems:
        raise InvalidData(problems)
    config = _merge(config, own)
    problems = _wiring_problems(config, f"{path}:")
    if problems:
        raise InvalidData(problems)
    return config
