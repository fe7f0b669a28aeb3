"""Screens, one module and one .kv file each; the .kv files are loaded once, here."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kivy.lang import Builder
from kivy.uix.screenmanager import Screen, ScreenManager

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


# Built before the first frame: the app opens on one of them (the table when a game is resumed, else home).
FIRST = ("home", "table")


class Screens(ScreenManager):
    """The app's screens, each built when first asked for (shown, or `get_screen`) or by `build_rest`.

    Building all eight before the first frame took a quarter of the CPU time to the
    home screen (0.12 s here, three to four times that on a Pi; the PIN pad alone
    0.04 s), for screens a table opens later if at all. The app builds the rest
    once its first frame is drawn (`CompanionApp._first_drawn`); a screen asked
    for sooner is built then, so nothing else sees the difference.
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._unbuilt: dict[str, type[Screen]] = {}

    def build_later(self, name: str, cls: type[Screen]) -> None:
        self._unbuilt[name] = cls

    def get_screen(self, name: str) -> Screen:
        self._build(name)
        return super().get_screen(name)

    def has_screen(self, name: str) -> bool:
        return name in self._unbuilt or super().has_screen(name)

    def build_rest(self) -> None:
        """Every screen not built yet, in `SCREENS` order."""
        for name in list(self._unbuilt):
            self._build(name)

    def _build(self, name: str) -> None:
        cls = self._unbuilt.pop(name, None)
        if cls is not None:
            self.add_widget(cls(name=name))


def manager(**kwargs: Any) -> Screens:
    """The screens' manager: the `FIRST` screens built, the rest to be built when asked for or `build_rest`."""
    load_kv()
    manager = Screens(**kwargs)
    for name, cls in SCREENS.items():
        if name in FIRST:
            manager.add_widget(cls(name=name))
        else:
            manager.build_later(name, cls)
    return manager
