"""The app's own settings, kept apart from the journal so a reset table keeps its café setup."""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path

INPUT_SOURCES = ("touch", "buttons", "serial", "camera")


def default_settings_path() -> Path:
    explicit = os.environ.get("COMPANION_UI_SETTINGS")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "table-companion" / "ui.json"


def existing_folder(text: str) -> Path | None:
    """A typed folder, spelled out absolute so its meaning does not hang on the working directory.

    None when it is not a folder, including text no path can be made of
    (``~nobody``), since a typo on the settings screen must not crash the kiosk.
    """
    try:
        folder = Path(text.strip()).expanduser().absolute()
        return folder if text.strip() and folder.is_dir() else None
    except (RuntimeError, ValueError, OSError):
        return None


@dataclass
class Settings:
    """Everything a café owner may change on the settings screen."""

    inputs: dict[str, bool] = field(
        default_factory=lambda: {"touch": True, "buttons": True, "serial": False, "camera": False}
    )
    voice: bool = True
    voice_speed: int = 150
    cafe_dir: str = ""
    serial_port: str = ""  # the dice sensor's port when the command line names none
    camera_source: str = ""  # the camera's source word (0, picamera, a URL, a folder) likewise
    kiosk_pin: str = "1234"
    idle_seconds: int = 120
    last_game: str = ""
    last_players: list[str] = field(default_factory=list)

    @classmethod
    def load(cls, path: Path | None) -> Settings:
        """A damaged or missing file falls back to defaults: a kiosk must always start."""
        if path is None or not path.is_file():
            return cls()
        try:
            raw = json.loads(path.read_text())
        except (OSError, ValueError):
            return cls()
        if not isinstance(raw, dict):
            return cls()
        defaults = cls()
        # a hand-edited value of the wrong type ("cafe_dir": 3) would crash the start: keep the default instead
        kept = {
            f.name: raw[f.name]
            for f in fields(cls)
            if f.name in raw and isinstance(raw[f.name], type(getattr(defaults, f.name)))
        }
        settings = cls(**kept)
        settings.inputs = {**defaults.inputs, **{str(k): bool(v) for k, v in settings.inputs.items()}}
        return settings

    def save(self, path: Path | None) -> None:
        if path is None:
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(asdict(self), indent=2))
        tmp.replace(path)  # atomic, so a power cut never leaves half a file
