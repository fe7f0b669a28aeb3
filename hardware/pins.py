"""The wiring of a table: which GPIO pin does what, from a TOML file over documented defaults.

Cafés wire their own boxes, so nothing about pins is hard-coded: the packaged
``pins.toml`` is both the defaults and their documentation, and a café file
only lists what differs.
"""

from __future__ import annotations

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
             "hold_seconds": Number(0.01, 30)},
        ),
        "lights": Obj(
            {},
            {"mode": Enum("rgb", "per_colour", "none"), "red": PIN, "green": PIN, "blue": PIN,
             "flash_count": Int(0, 20), "flash_seconds": Number(0.01, 5), "colours": MapOf(PIN, Str())},
        ),
        "buzzer": Obj({}, {"pin": PIN, "beep_seconds": Number(0.01, 5)}),
    },
)


def default_config_path() -> Path:
    return env_or("COMPANION_HARDWARE_CONFIG", user_data_dir() / "hardware.toml")


def _merge(base: dict[str, Any], override: dict[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for key, value in override.items():
        merged[key] = _merge(base[key], value) if isinstance(value, dict) and isinstance(base.get(key), dict) else value
    return merged


def load_config(path: Path | None = None) -> dict[str, Any]:
    """Defaults, overlaid with the café file when it exists; a broken café file is an error, not ignored.

    The file is checked against `SCHEMA` before it is used, so a typo ("confim")
    or a pin written as text is named with its file and key instead of
    surfacing as a gpiozero error about some pin.
    """
    with DEFAULTS.open("rb") as file:
        config = tomllib.load(file)
    path = path or default_config_path()
    if path.is_file():
        try:
            with path.open("rb") as file:
                own = tomllib.load(file)
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            raise InvalidData([f"{path}: not a readable TOML file ({exc})"]) from None
        problems = SCHEMA(own, f"{path}:")
        if problems:
            raise InvalidData(problems)
        config = _merge(config, own)
    return config
