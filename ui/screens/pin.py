"""The PIN pad: staff-only actions (settings, leaving the kiosk) pass through here."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.app import App
from kivy.factory import Factory
from kivy.properties import StringProperty
from kivy.uix.screenmanager import Screen


class PinScreen(Screen):
    entered = StringProperty("")
    message = StringProperty("Staff PIN")

    def ask(self, then: Callable[[], None], back: str = "table") -> None:
        self._then, self._back = then, back
        self.entered, self.message = "", "Staff PIN"

    def press(self, key: str) -> None:
        if key == "clear":
            self.entered = ""
        elif key == "ok":
            self.submit()
        elif len(self.entered) < 12:
            self.entered += key

    def submit(self) -> None:
        app = App.get_running_app()
        if app.unlock(self.entered):
            self.entered = ""
            getattr(self, "_then", lambda: app.show("home"))()
        else:
            self.entered, self.message = "", "Wrong PIN - try again"

    def cancel(self) -> None:
        self.entered = ""
        App.get_running_app().show(getattr(self, "_back", "table"))

    def on_kv_post(self, *_args: Any) -> None:
        for key in ["1", "2", "3", "4", "5", "6", "7", "8", "9", "clear", "0", "ok"]:
            button = Factory.PinKey(text={"clear": "Clear", "ok": "OK"}.get(key, key))
            button.key = key
            button.bind(on_release=lambda b: self.press(b.key))
            self.ids.keypad.add_widget(button)
