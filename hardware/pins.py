"""The wiring of a table: which GPIO pin does what, from a TOML file over documented defaults.

Cafés wire their own boxes, so nothing about pins is hard-coded: the packaged
``pins.toml`` is both the defaults and their documentation, and a café file
only lists what differs.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from companion.paths import env_or, user_data_dir

DEFAULTS = Path(__file__).with_name("pins.toml")


def default_config_path() -> Path:
    return env_or("COMPANION_HARDWARE_CONFIG", user_data_dir() / "hardware.toml")


def _merge(base: dict[str, Any], override: dict[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for key, value in override.items():
        merged[key] = _merge(base[key], value) if isinstance(value, dict) and isinstance(base.get(key), dict) else value
    return merged


def load_config(path: Path | None = None) -> dict[str, Any]:
    """Defaults, overlaid with the café file when it exists; a broken café file is an error, not ignored."""
    with DEFAULTS.open("rb") as file:
        config = tomllib.load(file)
    path = path or default_config_path()
    if path.is_file():
        with path.open("rb") as file:
            config = _merge(config, tomllib.load(file))
    return config
