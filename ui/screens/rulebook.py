"""Rulebook: every clause of the current game, filtered by the words typed."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.factory import Factory
from kivy.properties import StringProperty
from kivy.utils import escape_markup

from ui.screens.upright import UprightScreen

SHOWN_AT_MOST = 80  # a phone-book of labels would slow a Pi; refine the search instead


class RulebookScreen(UprightScreen):
    made_in = ("clauses",)  # the box whose labels are made here
    # What the labels show now. Each label renders its text to a texture, about 4 ms apiece here: remaking
    # the 60 of a whole rulebook on every visit cost a quarter of a second before the screen appeared.
    _shown: tuple[str, ...] = ()

    # The screen Back returns to: "dispute" when a ruling's clauses were opened from there, so the referee
    # goes back to the ruling they were settling; else the table (or home, without a game).
    back_to = StringProperty("")

    def on_pre_enter(self, *_args: Any) -> None:
        self.search(self.ids.query.text)

    def on_leave(self, *_args: Any) -> None:
        if self.back_to == "dispute" and self.manager.current != "dispute":
            # Left for the table (a button box's press, which brings the table back): the dispute opened
            # later from there starts afresh, not on the ruling it held when the rules were opened.
            self.manager.get_screen("dispute").reading_rules = False
        self.back_to = ""  # opened next from the table's Rules, Back goes to the table

    def open_at(self, words: str, back_to: str) -> None:
        """Opened on a search (a ruling's clause ids), with Back leading to ``back_to``.

        The dispute screen cited "TTD-3a" in its ruling; reading the clause
        among its neighbours meant Back to the table, Rules, typing the id,
        and Back led to the table, where the ruling was gone.
        """
        self.back_to = back_to
        self.ids.query.text = words  # searched by the field's on_text, and again on entering
        self.ids.scroll.scroll_y = 1

    def search(self, words: str) -> None:
        box = self.ids.clauses
        lookup = App.get_running_app().clauses(words)
        found = lookup.clauses
        left_out = len(found) - SHOWN_AT_MOST
        # "100 clauses" over 80 labels said the rest were there to scroll to; it says how many are shown.
        count = f"{SHOWN_AT_MOST} of {len(found)} clauses" if left_out > 0 else f"{len(found)} clauses"
        count = "1 clause" if len(found) == 1 else count  # a ruling's one clause opened read "1 clauses"
        if not lookup.every:  # a question typed whole: no clause holds every word, these hold the most telling
            count = count.replace("clause", "closest clause")
        self.ids.count.text = count if found else "No clause matches."
        # A café's own rulebook is text, not markup: "[size=large]" in a clause raised out of Kivy's label
        # (ValueError) and "[font=...]" with no such font (OSError), closing the app; "[b]" bolded the rest.
        shown = tuple(f"[b]{escape_markup(c.id)}  {escape_markup(c.title)}[/b]\n{escape_markup(c.text)}"
                      for c in found[:SHOWN_AT_MOST])
        if left_out > 0:
            shown += (f"{left_out} more: add a word to the search to find them.",)
        if shown == self._shown and len(box.children) == len(shown):
            return  # the same clauses (same game, same words): the labels on screen are still right
        self._shown = shown
        box.clear_widgets()
        for text in shown:
            label = Factory.ClauseLabel(text=text)
            self.fit(label)
            box.add_widget(label)

