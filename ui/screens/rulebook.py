"""Rulebook: every clause of the current game, filtered by the words typed."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.factory import Factory
from kivy.uix.screenmanager import Screen


class RulebookScreen(Screen):
    # What the labels show now. Each label renders its text to a texture, about 4 ms apiece here: remaking
    # the 60 of a whole rulebook on every visit cost a quarter of a second before the screen appeared.
    _shown: tuple[str, ...] = ()

    def on_pre_enter(self, *_args: Any) -> None:
        self.search(self.ids.query.text)

    def search(self, words: str) -> None:
        box = self.ids.clauses
        found = App.get_running_app().clauses(words)
        self.ids.count.text = f"{len(found)} clauses" if found else "No clause matches."
        # a phone-book of labels would slow a Pi; refine the search instead
        shown = tuple(f"[b]{c.id}  {c.title}[/b]\n{c.text}" for c in found[:80])
        if shown == self._shown and len(box.children) == len(shown):
            return  # the same clauses (same game, same words): the labels on screen are still right
        self._shown = shown
        box.clear_widgets()
        for text in shown:
            box.add_widget(Factory.ClauseLabel(text=text))
