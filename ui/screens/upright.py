"""A screen with its own arrangement for a display mounted upright, sized in its own unit."""

from __future__ import annotations

from typing import Any

from kivy.properties import BooleanProperty, NumericProperty
from kivy.uix.screenmanager import Screen


class UprightScreen(Screen):
    """`portrait` and the unit `u` are bound in common.kv: upright, app.u follows the width (0.6 at 480x800) and
    left the lower half of the screen empty, so such a screen sizes itself in `u` instead.

    Buttons a screen makes in Python are bound to nothing; the boxes they go in are named by `made_in`, and they
    are given `u` and `upright` whenever either changes.
    """

    portrait = BooleanProperty(False)  # taller than wide (a display mounted upright)
    u = NumericProperty(1.0)  # app.u in landscape, larger upright

    def on_u(self, *_args: Any) -> None:
        self.fit(*self.made_here())

    def on_portrait(self, *_args: Any) -> None:
        self.fit(*self.made_here())

    made_in: tuple[str, ...] = ()  # the ids of the boxes whose children the screen makes in Python

    def made_here(self) -> list[Any]:
        """The widgets this screen made in Python (none while its kv rule is still being applied)."""
        return [child for name in self.made_in if name in self.ids for child in self.ids[name].children]

    def fit(self, *buttons: Any) -> None:
        for button in buttons:
            button.u, button.upright = self.u, self.portrait
