"""Settings: input sources, voice, café data folder, kiosk PIN and leaving the kiosk."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.factory import Factory
from kivy.uix.screenmanager import Screen

from ui.settings import INPUT_SOURCES


class SettingsScreen(Screen):
    def on_pre_enter(self, *_args: Any) -> None:
        app = App.get_running_app()
        s = app.settings
        box = self.ids.inputs
        box.clear_widgets()
        for source in INPUT_SOURCES:
            button = Factory.BigToggle(text=source.capitalize(), state="down" if s.inputs.get(source) else "normal")
            button.source = source
            box.add_widget(button)
        self.ids.voice.state = "down" if s.voice else "normal"
        self.ids.speed.value = s.voice_speed
        self.ids.cafe.text = s.cafe_dir
        self.ids.pin.text = ""
        self.ids.note.text = ""

    def save(self) -> None:
        app = App.get_running_app()
        changes: dict[str, Any] = {
            "inputs": {b.source: b.state == "down" for b in self.ids.inputs.children},
            "voice": self.ids.voice.state == "down",
            "voice_speed": int(self.ids.speed.value),
            "cafe_dir": self.ids.cafe.text.strip(),
        }
        new_pin = self.ids.pin.text.strip()
        if new_pin:
            if not new_pin.isdigit() or len(new_pin) < 4:
                self.ids.note.text = "The PIN must be at least 4 digits."
                return
            changes["kiosk_pin"] = new_pin
        app.save_settings(**changes)
        self.ids.note.text = "Saved. Input and café folder changes apply at the next start."
