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


@dataclass
class Settings:
    """Everything a café owner may change on the settings screen."""

    inputs: dict[str, bool] = field(
        default_factory=lambda: {"touch": True, "buttons": True, "serial": False, "camera": False}
    )
    voice: bool = True
    voice_speed: int = 150
    cafe_dir: str = ""
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
        known = {f.name for f in fields(cls)}
        settings = cls(**{k: v for k, v in raw.items() if k in known})
        settings.inputs = {**cls().inputs, **{k: bool(v) for k, v in dict(settings.inputs).items()}}
        return settings

    def save(self, path: Path | None) -> None:
        if path is None:
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(asdict(self), indent=2))
        tmp.replace(path)  # atomic, so a power cut never leaves half a file
