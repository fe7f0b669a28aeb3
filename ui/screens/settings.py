"""Settings: input sources, voice, café data folder, kiosk PIN and leaving the kiosk."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.factory import Factory
from kivy.properties import BooleanProperty, NumericProperty, StringProperty

from ui import inputs
from ui.screens.upright import UprightScreen
from ui.settings import DISPLAY_SCALES, INPUT_SOURCES, scale_step, volume_step

FLAGS = {"serial": "--dice-sensor", "camera": "--camera"}
NOT_SAVED = "Not saved yet: "
HINTS = {"serial": "e.g. /dev/ttyACM0", "camera": "0, picamera, a URL, a video or an image folder"}


class SettingsScreen(UprightScreen):
    made_in = ("inputs",)  # the boxes whose buttons are made here
    # The loudness shown beside Voice (espeak-ng's -a), kept by Save: a café owner could set it only in ui.json.
    volume = NumericProperty(100)
    # The display scale shown beside the heading, in percent, and applied to the whole app while it shows.
    scale = NumericProperty(100)

    # What the camera was taught and when (`taught_summary`), beside Clear.
    taught = StringProperty("")
    can_clear = BooleanProperty(False)  # something is taught to set aside

    _keep_edits = False  # back from the keypad that types a new PIN: what was changed here stays unsaved
    _clearing = False  # Clear tapped once: the next tap sets what was taught aside
    _taught_row: Any = None  # the taught row, out of the list or in it (`place_taught`)
    _shown: dict[str, str] | None = None  # each setting in words as the screen opened or last saved it

    def on_pre_enter(self, *_args: Any) -> None:
        from vision.taught import default_taught_dir, taught_summary

        self.taught = taught_summary(default_taught_dir())  # back from the camera screen too: what it taught
        self.can_clear = self.taught.startswith("Taught:")
        self._clearing = False
        if self._keep_edits:
            self._keep_edits = False
            return
        self._shown = None  # filling the controls below is no change of the owner's
        app = App.get_running_app()
        s = app.settings
        box = self.ids.inputs
        box.clear_widgets()
        for source in INPUT_SOURCES:  # the switches as this run has them, command line included
            on = app.inputs_on.get(source, s.inputs.get(source))
            label = inputs.LABELS.get(source, source.capitalize())  # "Serial" did not say it is the dice sensor
            button = Factory.SettingToggle(text=label, state="down" if on else "normal")
            button.source = source
            button.bind(state=self.changed)
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
        self.ids.note.text, app.pin_note = app.pin_note, ""  # wrong PINs before the one that opened it, once
        self._shown = self.shown()

    def shown(self) -> dict[str, str]:
        """Each setting as the screen shows it now, in the words the note names a change with."""
        switches = self.ids.inputs.children
        return {
            **{f"input {b.source}": f"{b.text} {'on' if b.state == 'down' else 'off'}" for b in switches},
            "voice": f"Voice {self.ids.voice.text}",
            "speed": f"speed {int(self.ids.speed.value)} wpm",
            "volume": f"Loudness {int(self.volume)}",
            "scale": f"Scale {int(self.scale)}%",
            "serial": "Sensor port" if self.ids.serial_port.text.strip() else "Sensor port cleared",
            "serial text": self.ids.serial_port.text.strip(),
            "camera": "Camera source" if self.ids.camera_source.text.strip() else "Camera source cleared",
            "camera text": self.ids.camera_source.text.strip(),
            "cafe": "Café data" if self.ids.cafe.text.strip() else "Café data cleared",
            "cafe text": self.ids.cafe.text.strip(),
            "pin": "New PIN" if self.ids.pin.text else "",
        }

    def unsaved(self) -> list[str]:
        """What the owner changed here and Save has not kept yet, in words ("Voice Spoken", "speed 200 wpm")."""
        if self._shown is None:
            return []
        now = self.shown()
        changed = [key for key in now if now[key] != self._shown[key]]
        return list(dict.fromkeys(now[key.removesuffix(" text")] for key in changed))

    def changed(self, *_args: Any) -> None:
        """A control moved: the note says at once what waits for Save. The voice switch, the speed, the inputs
        and the text fields act only on Save, and the screen said nothing of it: Back dropped them unsaid."""
        if self._shown is None:  # the screen filling its controls, or still being built
            return
        pending = self.unsaved()
        if not pending:
            if self.ids.note.text.startswith(NOT_SAVED):
                self.ids.note.text = ""
            return
        them = "it" if len(pending) == 1 else "them"
        self.ids.note.text = f"{NOT_SAVED}{', '.join(pending)}; tap Save to keep {them}, or Back to leave {them}."

    def afresh(self) -> None:
        """The next showing reads the saved settings, whatever visit to the keypad or camera screen was left."""
        self._keep_edits = False

    def teach(self) -> None:
        """Teach, tapped: the camera screen, and back here with what was changed still unsaved, as the keypad
        does. The camera screen's Back put the saved settings back over a camera source just typed."""
        self._keep_edits = True
        App.get_running_app().show("camera")

    def on_can_clear(self, *_args: Any) -> None:
        self.place_taught()

    def on_portrait(self, *_args: Any) -> None:
        super().on_portrait()
        self.place_taught()

    def place_taught(self) -> None:
        """The taught row in the list, upright only while something is taught: upright, every other setting fills
        800 px without a scroll. Out of the list, not hidden in it: a hidden button still takes the touches."""
        if self._taught_row is None and "taught_row" in self.ids:
            self._taught_row = self.ids.taught_row.__self__  # held here: the ids keep a weak proxy only
        row, rows = self._taught_row, self.ids.get("rows")
        if row is None or rows is None:
            return
        wanted = self.can_clear or not self.portrait
        if wanted and row.parent is None:
            rows.add_widget(row, index=rows.children.index(self.ids.inputs_note) + 1)
        elif not wanted and row.parent is not None:
            rows.remove_widget(row)

    def clear_taught(self) -> None:
        """Clear beside what was taught: a first tap asks, the second sets the taught folder aside (never deletes
        it) and the running camera reads the house drawings from its next picture."""
        from vision.taught import clear_taught, default_taught_dir, taught_summary

        folder = default_taught_dir()
        if not self._clearing:
            self._clearing = True
            self.ids.note.text = ("Tap Clear again to stop using everything taught: the camera then reads the house "
                                  f"drawings. Nothing is deleted: {folder} is set aside beside itself.")
            return
        self._clearing = False
        try:
            kept = clear_taught(folder)
        except OSError as error:
            self.ids.note.text = (f"Not cleared ({error.strerror or error}): the camera reads with what was taught "
                                  "as before.")
            return
        app = App.get_running_app()
        running = app.running_inputs.get("camera")
        if running is not None and hasattr(running[1], "reload_taught"):
            running[1].reload_taught()
        self.taught = taught_summary(folder)
        self.can_clear = False
        self.ids.note.text = (f"Cleared: what was taught is kept aside as {kept}; the camera reads the house "
                              "drawings. To undo, put that folder back under its old name.")

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
        self.changed()

    def louder(self, steps: int) -> None:
        """- or + beside Voice: the next level, said at once at that level, so the owner hears it before Save.

        Not while the screen's switch shows Silent: a sample would speak for a table about to be silent.
        """
        self.volume = volume_step(int(self.volume), steps)
        if self.ids.voice.state != "down":
            self.ids.note.text = f"Loudness {self.volume}, saved with Save; switch to Spoken to hear it."
            return
        self.changed()
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
        if self.ids.note.text.startswith(("Saved.", "Not saved (")):  # kept, or held for this run: shown as it is
            self._shown = self.shown()
