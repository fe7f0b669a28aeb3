"""The PIN pad: staff-only actions (settings, leaving the kiosk) pass through here."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.app import App
from kivy.factory import Factory
from kivy.properties import StringProperty

from ui.screens.upright import UprightScreen

ENTRY_LIMIT = 12  # digits the pad takes when the PIN is no longer: a stuck key cannot grow the entry for ever
SHORTEST_PIN = 4  # a new PIN chosen on the pad has at least so many digits (the settings screen's rule)


class PinScreen(UprightScreen):
    made_in = ("keypad",)  # the boxes whose buttons are made here

    entered = StringProperty("")
    message = StringProperty("Staff PIN")
    _back = "table"  # where Cancel returns

    def ask(self, then: Callable[[], None], back: str = "table") -> None:
        """``back`` is where Cancel returns; asked again from the pad itself, the screen before it stays so.

        The button box's menu hold while the pad was up asked with ``back="pin"``,
        and Cancel then showed the pad again: the table was out of reach until
        the kiosk idled to its attract screen.
        """
        self._then = then
        self._chosen: Callable[[str], None] | None = None
        if back != self.name:
            self._back = back
        self.entered, self.message = "", "Staff PIN"

    def choose(self, then: Callable[[str], None], back: str = "settings") -> None:
        """The pad for typing a new PIN: the digits go to ``then`` when OK is tapped, unchecked against the PIN.

        The settings screen's New PIN was a text field, and a kiosk's touchscreen has no keyboard (Kivy shows
        none by default): a café told to change the PIN "at once" could not type one without plugging a
        keyboard into the Pi.
        """
        self._chosen = then
        if back != self.name:
            self._back = back
        self.entered, self.message = "", f"New PIN ({SHORTEST_PIN} digits or more)"

    def press(self, key: str) -> None:
        if key == "clear":
            self.entered = ""
        elif key == "ok":
            self.submit()
        elif len(self.entered) < self.entry_limit():
            self.entered += key

    @staticmethod
    def entry_limit() -> int:
        """As many digits as the PIN has, if more than the usual 12: the settings screen takes a PIN of any
        length, and a 16-digit one saved there could never be typed, locking staff out of settings and exit."""
        pin = getattr(getattr(App.get_running_app(), "pin", None), "pin", "")
        return max(ENTRY_LIMIT, len(pin))

    def submit(self) -> None:
        app = App.get_running_app()
        chosen = getattr(self, "_chosen", None)
        if chosen is not None:
            if len(self.entered) < SHORTEST_PIN:
                self.entered, self.message = "", f"At least {SHORTEST_PIN} digits - try again"
                return
            digits, self.entered, self._chosen = self.entered, "", None
            chosen(digits)
            return
        if app.unlock(self.entered):
            self.entered = ""
            getattr(self, "_then", lambda: app.show("home"))()
        else:
            # The same words each time: a second wrong PIN looked like the first one's message, left standing.
            wrong = app.pin.wrong
            self.entered = ""
            self.message = "Wrong PIN - try again" if wrong < 2 else f"Wrong PIN ({wrong} in a row) - try again"

    def cancel(self) -> None:
        self.entered, self._chosen = "", None
        App.get_running_app().show(self._back)

    def on_kv_post(self, *_args: Any) -> None:
        for key in ["1", "2", "3", "4", "5", "6", "7", "8", "9", "clear", "0", "ok"]:
            button = Factory.PinKey(text={"clear": "Clear", "ok": "OK"}.get(key, key))
            button.key = key
            button.bind(on_release=lambda b: self.press(b.key))
            self.fit(button)
            self.ids.keypad.add_widget(button)


    def on_portrait(self, *args: Any) -> None:
        """Upright, Cancel goes under the keypad, the foot of the screen as on a phone: left in the column
        above, it lay between the digits and the keypad, where a finger going for 1 lands. Turned back, it
        is the column's last again, exactly where it was."""
        super().on_portrait(*args)
        if "cancel" not in self.ids:
            return
        cancel, home = self.ids.cancel, self.ids.pad if self.portrait else self.ids.column
        if cancel.parent is not home:
            cancel.parent.remove_widget(cancel)
            home.add_widget(cancel)
