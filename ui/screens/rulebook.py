"""Rulebook: every clause of the current game, filtered by the words typed."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.factory import Factory
from kivy.uix.screenmanager import Screen


class RulebookScreen(Screen):
    def on_pre_enter(self, *_args: Any) -> None:
        self.search(self.ids.query.text)

    def search(self, words: str) -> None:
        box = self.ids.clauses
        box.clear_widgets()
        found = App.get_running_app().clauses(words)
        self.ids.count.text = f"{len(found)} clauses" if found else "No clause matches."
        for clause in found[:80]:  # a phone-book of labels would slow a Pi; refine the search instead
            box.add_widget(Factory.ClauseLabel(text=f"[b]{clause.id}  {clause.title}[/b]\n{clause.text}"))
