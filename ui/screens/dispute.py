"""Dispute: pick an offered action or type any action, and see the ruling with its clause."""

from __future__ import annotations

import json
from typing import Any

from kivy.app import App
from kivy.uix.screenmanager import Screen

from ui.widgets import ChoiceButton


def ruling_text(ruling: dict[str, Any]) -> str:
    if not ruling:
        return "Tap an action, or type one below, to hear whether it is allowed and why."
    verdict = "ALLOWED" if ruling.get("legal") else "NOT ALLOWED"
    clauses = "\n".join(ruling.get("clauses") or ruling.get("rules") or [])
    return f"{verdict}: {ruling.get('text', '')}\n{clauses}".strip()


class DisputeScreen(Screen):
    def on_pre_enter(self, *_args: Any) -> None:
        app = App.get_running_app()
        app.ruling = {}
        grid = self.ids.offered
        grid.clear_widgets()
        for action in app.choices:
            button = ChoiceButton(text=str(action.get("text") or action.get("type")), action=action)
            button.background_color = (0.25, 0.3, 0.45, 1)
            button.bind(on_release=lambda b: app.check(b.action))
            grid.add_widget(button)
        if app.choices and not self.ids.typed.text:
            # A template to edit: disputes are usually about a near miss of an offered action.
            self.ids.typed.text = json.dumps({k: v for k, v in app.choices[0].items() if k != "text"})
