"""Widgets shared by screens: the board area and the big choice button."""

from __future__ import annotations

from typing import Any

from kivy.clock import Clock
from kivy.logger import Logger
from kivy.properties import DictProperty, ObjectProperty
from kivy.uix.button import Button
from kivy.uix.widget import Widget

from ui.boards import drawer_for, generic


class BoardWidget(Widget):
    """Redraws the position whenever the view or the widget's size changes."""

    view = ObjectProperty(None, allownone=True)

    def __init__(self, **kwargs: Any) -> None:
        # One redraw per frame, after layout settles: size and pos change several times while it does.
        self._redraw_soon = Clock.create_trigger(lambda _dt: self.redraw())
        super().__init__(**kwargs)

    def on_view(self, *_args: Any) -> None:
        self._redraw_soon()

    def on_size(self, *_args: Any) -> None:
        self._redraw_soon()

    def on_pos(self, *_args: Any) -> None:
        self._redraw_soon()

    def redraw(self) -> None:
        self.canvas.clear()
        if self.view is None or self.width < 10:
            return
        try:
            drawer_for(self.view.game.id)(self, self.view)
        except Exception:  # a bug in a drawing must never blank the table: fall back to text
            Logger.exception("Board: drawing failed, showing text")
            self.canvas.clear()
            generic.draw(self, self.view)


class ChoiceButton(Button):
    """One legal action; the whole action travels with it so a tap forwards it unchanged."""

    action = DictProperty({})
