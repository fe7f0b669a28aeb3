"""Settings: input sources, voice, café data folder, kiosk PIN and leaving the kiosk."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.factory import Factory
from kivy.properties import NumericProperty

from ui import inputs
from ui.screens.upright import UprightScreen
from ui.settings import DISPLAY_SCALES, INPUT_SOURCES, scale_step, volume_step

FLAGS = {"serial": "--dice-sensor", "camera": "--camera"}
HINTS = {"serial": "e.g. /dev/ttyACM0", "camera": "0, picamera, a URL, a video or an image folder"}


class SettingsScreen(UprightScreen):
    made_in = ("inputs",)  # the boxes whose buttons are made here
    # The loudness shown beside Voice (espeak-ng's -a), kept by Save: a café owner could set it only in ui.json.
    volume = NumericProperty(100)
    # The display scale shown beside the heading, in percent, and applied to the whole app while it shows.
    scale = NumericProperty(100)

    _keep_edits = False  # back from the keypad that types a new PIN: what was changed here stays unsaved

    def on_pre_enter(self, *_args: Any) -> None:
        if self._keep_edits:
            self._keep_edits = False
            return
        app = App.get_running_app()
        s = app.settings
        box = self.ids.inputs
        box.clear_widgets()
        for source in INPUT_SOURCES:  # the switches as this run has them, command line included
            on = app.inputs_on.get(source, s.inputs.get(source))
            label = inputs.LABELS.get(source, source.capitalize())  # "Serial" did not say it is the dice sensor
            button = Factory.SettingToggle(text=label, state="down" if on else "normal")
            button.source = source
            self.fit(button)
            box.add_widget(button)
        self.ids.voice.state = "down" if s.voice else "normal"
        self.ids.speed.value = s.voice_speed
        self.volume = s.voice_volume
        self.scale = s.display_scale
        self.ids.cafe.text = s.cafe_dir
        for name, field in (("serial", self.ids.serial_port), ("camera", self.ids.camera_source)):
            field.text = s.serial_port if name == "serial" else s.camera_source
            given = app.input_sources.get(name)
            # the owner must see why a typed source is not the one running
            field.hint_text = f"{FLAGS[name]} {given} on the command line, for this run" if given else HINTS[name]
        self.ids.pin.text = ""
        self.ids.note.text = ""

    def choose_pin(self) -> None:
        """New PIN, tapped: the PIN keypad, as no keyboard shows on a kiosk's touchscreen (`PinScreen.choose`)."""
        self.ids.pin.focus = False
        self._keep_edits = True
        app = App.get_running_app()
        app.root.get_screen("pin").choose(self._pin_chosen, back=self.name)
        app.show("pin")

    def _pin_chosen(self, digits: str) -> None:
        self._keep_edits = True
        self.ids.pin.text = digits
        App.get_running_app().show(self.name)
        self.ids.note.text = "New PIN typed: tap Save to keep it."

    def louder(self, steps: int) -> None:
        """- or + beside Voice: the next level, said at once at that level, so the owner hears it before Save.

        Not while the screen's switch shows Silent: a sample would speak for a table about to be silent.
        """
        self.volume = volume_step(int(self.volume), steps)
        if self.ids.voice.state != "down":
            self.ids.note.text = f"Loudness {self.volume}, saved with Save; switch to Spoken to hear it."
            return
        self.ids.note.text = ""
        App.get_running_app().voice.sample(f"Loudness {self.volume}.", self.volume)

    def larger(self, steps: int) -> None:
        """- or + beside the heading: every screen drawn a step smaller or larger at once, this one included, so
        the owner sees the new size before Save keeps it."""
        self.scale = scale_step(int(self.scale), steps)
        App.get_running_app().scale = self.scale / 100
        saved = App.get_running_app().settings.display_scale
        self.ids.note.text = (f"Scale {self.scale}% ({DISPLAY_SCALES[0]} for the 7 inch display, more for a smaller "
                              f"one): Save keeps it; Back goes back to {saved}%.")

    def on_leave(self, *_args: Any) -> None:
        """A scale tried and not saved goes back to the saved one, as the loudness does."""
        app = App.get_running_app()
        app.scale = app.settings.display_scale / 100

    def save(self) -> None:
        app = App.get_running_app()
        changes: dict[str, Any] = {
            "inputs": {b.source: b.state == "down" for b in self.ids.inputs.children},
            "voice": self.ids.voice.state == "down",
            "voice_speed": int(self.ids.speed.value),
            "voice_volume": int(self.volume),
            "display_scale": int(self.scale),
            "cafe_dir": self.ids.cafe.text.strip(),
            "serial_port": self.ids.serial_port.text.strip(),
            "camera_source": self.ids.camera_source.text.strip(),
        }
        new_pin = self.ids.pin.text.strip()
        if new_pin:
            if not new_pin.isdigit() or len(new_pin) < 4:
                self.ids.note.text = "The PIN must be at least 4 digits."
                return
            changes["kiosk_pin"] = new_pin
        self.ids.note.text = app.save_settings(**changes)
