"""Screens, one module and one .kv file each; the .kv files are loaded once, here."""

from __future__ import annotations

from pathlib import Path

from kivy.lang import Builder
from kivy.uix.screenmanager import Screen

from ui.screens.attract import AttractScreen
from ui.screens.camera import CameraScreen
from ui.screens.dispute import DisputeScreen
from ui.screens.home import HomeScreen
from ui.screens.pin import PinScreen
from ui.screens.rulebook import RulebookScreen
from ui.screens.settings import SettingsScreen
from ui.screens.table import TableScreen

HERE = Path(__file__).parent
SCREENS = {
    "home": HomeScreen,
    "table": TableScreen,
    "dispute": DisputeScreen,
    "rulebook": RulebookScreen,
    "settings": SettingsScreen,
    "camera": CameraScreen,
    "attract": AttractScreen,
    "pin": PinScreen,
}
_loaded = False


def load_kv() -> None:
    global _loaded
    if not _loaded:
        Builder.load_file(str(HERE / "common.kv"))
        for name in SCREENS:
            Builder.load_file(str(HERE / f"{name}.kv"))
        _loaded = True


def build_all() -> list[Screen]:
    load_kv()
    return [cls(name=name) for name, cls in SCREENS.items()]
