"""Widgets shared by screens: the board area and the big choice button."""

from __future__ import annotations

import time
from typing import Any

from kivy.clock import Clock
from kivy.logger import Logger
from kivy.properties import BooleanProperty, DictProperty, ListProperty, NumericProperty, ObjectProperty
from kivy.uix.button import Button
from kivy.uix.scrollview import ScrollView
from kivy.uix.spinner import Spinner
from kivy.uix.textinput import TextInput
from kivy.uix.widget import Widget

from ui.boards import drawer_for, generic, placer_for
from ui.reach import reached


class BoardWidget(Widget):
    """Redraws the position whenever the view or the widget's size changes; a tap names the place it meant.

    ``on_place`` fires, for boards whose drawing has a ``place_at``, with the
    marked place nearest the finger, a ``Nearby`` when several are about as
    near, else the hex, slot or space under it (None off the places): a
    fingertip covers several of the smallest places (``ui/reach.py``).
    """

    view = ObjectProperty(None, allownone=True)
    unit = NumericProperty(1.0)  # the table's unit, which the drawing is sized in: a finger's reach follows it
    __events__ = ("on_place",)

    def __init__(self, **kwargs: Any) -> None:
        # One redraw per frame, after layout settles: size and pos change several times while it does.
        self._redraw_soon = Clock.create_trigger(lambda _dt: self.redraw())
        super().__init__(**kwargs)

    def on_touch_down(self, touch: Any) -> bool:
        if self.view is None or not self.collide_point(*touch.pos):
            return False
        placer = placer_for(self.view.game.id)
        if placer is None:
            return False
        try:
            view = self.view
            place = reached(lambda x, y: placer(self, view, x, y), *touch.pos, view.marked, self.unit)
        except Exception:  # like a drawing, a hit test that trips on odd data must not close the app
            Logger.exception("Board: finding the tapped place failed")
            return False
        self.dispatch("on_place", place)
        return True

    def on_place(self, place: Any) -> None:
        pass

    def on_view(self, *_args: Any) -> None:
        self._redraw_soon()

    def on_size(self, *_args: Any) -> None:
        self._redraw_soon()

    def on_pos(self, *_args: Any) -> None:
        self._redraw_soon()

    def redraw(self) -> None:
        self.canvas.clear()
        if self.view is None or min(self.size) < 10:  # not laid out yet: the desert's ring has no shape at 398x0
            return
        try:
            drawer_for(self.view.game.id)(self, self.view)
        except Exception:  # a bug in a drawing must never blank the table: fall back to text
            Logger.exception("Board: drawing failed, showing text")
            self.canvas.clear()
            generic.draw(self, self.view)


class SteadyScrollView(ScrollView):
    """A ScrollView that holds one binding of its bar colour however often its content moves (every list in the .kv).

    Kivy 2.3's ``update_from_scroll`` binds ``bar_color`` again at every call and lets go of one binding when
    the bar fades half a second later. A step rebuilds the table's choices and announcements within a frame, so
    each step left a binding more (200 bytes): about 600 a game, 2-3 MB of a kiosk's memory a café day, never
    given back, and a longer list walked at every scroll.
    """

    def update_from_scroll(self, *largs: Any) -> None:
        self.funbind("bar_color", self._change_bar_color)  # nothing to let go of when the bar has faded
        super().update_from_scroll(*largs)

    def convert_distance_to_scroll(self, dx: float, dy: float) -> tuple[float, float]:
        """No scroll up or down in a list whose content fits its height: Kivy 2.3 answers a whole scroll (1).

        ``scroll_to`` subtracts that from ``scroll_y``, so bringing a button of a
        list that fits "into view" dropped the whole list to its foot (Kivy lets
        a short list overscroll), and the scroll effect sprang it back to the top
        over the next second of wall clock: the button box's pick on a table of
        six rolls sank 16 px and crept back, and a layout measured in that second
        found home's games a pixel or two off their list's top, or at its foot.
        """
        sx, sy = super().convert_distance_to_scroll(dx, dy)
        fits = self._viewport is None or self._viewport.height <= self.height
        return sx, 0.0 if fits else sy


def shown_now() -> float:
    """When something comes on screen, on the clock `first_tap_at` answers on (monotonic)."""
    return time.monotonic()


def first_tap_at(touch: Any) -> float:
    """When the first tap of ``touch``'s double tap (``touch`` itself, if it is no double tap) began, on the
    monotonic clock, so it can be held against `shown_now`.

    Kivy stamps a touch with the wall clock (``time_start``), and the screens
    held it against the wall clock's time they came on screen: once the
    owner set the clock back an hour, every double tap on a screen shown
    before that lost its second tap for the hour (Undo, Undo took back one
    step). A touch's age, read on the wall clock the instant it arrives,
    does not care where the clock stands.
    """
    age = time.time() - touch.time_start + getattr(touch, "double_tap_time", 0)
    return time.monotonic() - age


class ChoiceButton(Button):
    """One legal action; the whole action travels with it so a tap forwards it unchanged."""

    action = DictProperty({})
    chosen = BooleanProperty(False)  # the one the button box's confirm would take
    tint = ListProperty([0.1, 0.45, 0.2, 1])  # background and text colour when not chosen: a die face's own
    ink = ListProperty([1, 1, 1, 1])

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.shown_at = shown_now()

    def on_touch_down(self, touch: Any) -> bool:
        """The second tap of a double tap is swallowed by a button that was not there at the first.

        The first tap takes its choice and the list is rebuilt under the finger,
        so the second landed on whatever choice now sat there: a double tap on
        "Oracle shows 6" also brought out Yellow 3, a move nobody had read.
        """
        before = getattr(touch, "is_double_tap", False) and first_tap_at(touch) < self.shown_at
        if before and self.collide_point(*touch.pos):
            return True
        return super().on_touch_down(touch)


ENTER_KEYS = (13, 271)  # Return, and the keypad's Enter


class WrappingInput(TextInput):
    """A field whose long text wraps over lines as Kivy's multiline field does, and whose Enter still says "done"
    (``on_text_validate``) as a one-line field's does, never starting a line (every BigInput, common.kv).

    The dispute field wraps a long action (Through the Desert's camel at 120%), and so Enter, on a keyboard a
    referee plugged in, put a new line in the action instead of asking the question: the field grew a line,
    the Check button waited, and the question was asked only by finding Check on the screen.
    """

    def keyboard_on_key_down(self, window: Any, keycode: tuple[int, str], text: str | None,
                             modifiers: list[str]) -> bool:
        if self.multiline and keycode[0] in ENTER_KEYS:
            self.dispatch("on_text_validate")  # the focus stays: a slip is mended and asked again at once
            return True
        return bool(super().keyboard_on_key_down(window, keycode, text, modifiers))


class BigSpinner(Spinner):
    """A spinner whose list's rows are made when the list opens, not each time its values are set (camera.kv).

    The camera screen sets its three lists on every visit, a café deck's 49 cards among them: Kivy made a row
    button for each value there and then, 70 buttons (0.06 s, more on a Pi) for lists an owner mostly leaves
    shut. The rows are the same, made at the first opening after the values changed.
    """

    _stale = False

    def _update_dropdown(self, *largs: Any) -> None:
        if self.is_open:  # changed under an open list: its rows at once, as Kivy's own
            self._stale = False
            super()._update_dropdown(*largs)
            return
        self._stale = True
        self._dropdown.clear_widgets()
        values = self.values
        if self.text_autoupdate and (not values or not self.text or self.text not in values):
            self.text = values[0] if values else ""

    def on_is_open(self, instance: Any, value: bool) -> None:
        if value and self._stale:
            self._stale = False
            super()._update_dropdown()
        super().on_is_open(instance, value)
