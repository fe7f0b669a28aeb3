"""The table: board, prompt, legal choices, announcements, undo."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.properties import ListProperty
from kivy.uix.screenmanager import Screen

from ui.widgets import BoardWidget, ChoiceButton

__all__ = ["BoardWidget", "TableScreen"]


def citation(entry: dict[str, Any]) -> str:
    rules = entry.get("rules") or []
    return entry["text"] + (f"  [{', '.join(rules)}]" if rules else "")


class TableScreen(Screen):
    choices = ListProperty([])

    def on_choices(self, _screen: Any, choices: list[dict[str, Any]]) -> None:
        """Rebuild the buttons; a choice is the offered action itself, forwarded on tap."""
        grid = self.ids.choices
        grid.clear_widgets()
        app = App.get_running_app()
        for action in choices:
            button = ChoiceButton(text=str(action.get("text") or action.get("type")), action=action)
            button.bind(on_release=lambda b: app.act(b.action))
            grid.add_widget(button)
        self.ids.choice_scroll.scroll_y = 1
