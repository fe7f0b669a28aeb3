"""The idle attract screen: a tap anywhere returns to the game exactly as it was."""

from __future__ import annotations

from typing import Any

from kivy.app import App

from ui.screens.upright import UprightScreen


class AttractScreen(UprightScreen):
    """Sized in the screen's own unit (attract.kv): upright, app.u made its words small on a tall screen."""

    def on_touch_down(self, touch: Any) -> bool:
        if self.ids.new_game.collide_point(*touch.pos):
            return super().on_touch_down(touch)
        App.get_running_app().wake()
        return True
