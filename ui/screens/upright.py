"""A screen with its own arrangement for a display mounted upright, sized in its own unit."""

from __future__ import annotations

from typing import Any

from kivy.properties import BooleanProperty, NumericProperty
from kivy.uix.screenmanager import Screen


class UprightScreen(Screen):
    """`portrait` and the unit `u` are bound in common.kv: upright, app.u follows the width (0.6 at 480x800) and
    left the lower half of the screen empty, so such a screen sizes itself in `u` instead.

    Buttons a screen makes in Python are bound to nothing; `made_here` names them, and they are given `u` and
    `upright` whenever either changes.
    """

    portrait = BooleanProperty(False)  # taller than wide (a display mounted upright)
    u = NumericProperty(1.0)  # app.u in landscape, larger upright

    def on_u(self, *_args: Any) -> None:
        self.fit(*self.made_here())

    def on_portrait(self, *_args: Any) -> None:
        self.fit(*self.made_here())

    def made_here(self) -> list[Any]:
        """The buttons this screen made in Python (none while its kv rule is still being applied)."""
        return []

    def fit(self, *buttons: Any) -> None:
        for button in buttons:
            button.u, button.upright = self.u, self.portrait
