"""Dispute: pick an offered action or type any action, and see the ruling with its clause."""

from __future__ import annotations

import json
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.core.window import Window
from kivy.factory import Factory
from kivy.properties import BooleanProperty, StringProperty

from companion.places import PLACE_FIELDS
from companion.scoresheet import score_clauses, score_lines
from ui import compose
from ui.choices import EVERYWHERE, arrange
from ui.even import READABLE
from ui.reach import Nearby
from ui.screens.upright import UprightScreen

LONG_LABEL = 34  # letters from which an offered action's label takes the smaller size (dispute.kv, <DisputeChoice>)


def ruling_text(ruling: dict[str, Any]) -> str:
    if not ruling:
        return "Tap an action, or type one below, to hear whether it is allowed and why."
    if ruling.get("sheet"):  # the game is over: how it ended, not a verdict on an action
        return str(ruling.get("text", ""))
    verdict = "ALLOWED" if ruling.get("legal") else "NOT ALLOWED"
    text = str(ruling.get("text", ""))
    while verdict == "ALLOWED" and text.startswith("Allowed."):  # "ALLOWED: Allowed. Allowed." said nothing
        text = text.removeprefix("Allowed.").strip()
    clauses = "\n".join(ruling.get("clauses") or ruling.get("rules") or [])
    return f"{verdict}: {text or 'the rules allow it now.'}\n{clauses}".strip()


def final_sheet(session: Any) -> dict[str, Any]:
    """At the end, what the screen shows instead of a ruling: the final score, each part beside its clauses.

    Nothing is offered once a game is over, and the screen asked the referee
    to tap an action: a table disputing a score or a tie at the end found no
    answer on the touchscreen (the terminal's `score` had it). The same lines
    as the terminal's; the Rules button opens the clauses they cite.
    """
    lines = score_lines(session.game, session.state, over=True)
    return {"sheet": True, "legal": True, "text": "\n".join(lines),  # the result itself is in the heading
            "rules": list(score_clauses(session.game)), "clauses": []}


def rules_label(ruling: dict[str, Any]) -> str:
    """The Rules button names the clauses it opens, so the referee knows the tap leads to the ruling's clause."""
    cited = ruling.get("rules") or []
    if len(cited) > 2:  # three ids were cut to "TG-Q..." in landscape's bottom row, a final score's nine to "TTD-4c..."
        return f"Rules: {len(cited)} clauses"
    return f"Rules: {', '.join(cited)}" if cited else "Rules"


class DisputeScreen(UprightScreen):
    """The offered actions come in pages like the table's list: hundreds of buttons took seconds to open.

    Upright they stand above the ruling, both across the full width (dispute.kv).
    """
    made_in = ("offered",)  # the boxes whose buttons are made here

    # Whether any action is offered: in landscape the empty column at a game's end left the final score a
    # column 450 px wide beside nothing.
    has_offered = BooleanProperty(True)
    # **Build**: the action a player insists on put together by taps (its kind, then each field from lists), in
    # the offered actions' place; with no keyboard at a café, typing JSON was the only way to check it.
    building = BooleanProperty(False)
    built: dict[str, Any] | None = None  # the kind ("type") and the fields chosen so far
    over = BooleanProperty(False)  # the game has ended: nothing to build, the final score is shown
    page_text = StringProperty("")  # "Next page (1 of 11)" when the offered actions fill more than one
    page = 0
    filled_for: tuple[str, int] | None = None  # the game and step the typed template was made for
    template = ""  # the typed field as last filled, to tell it from the referee's own typing
    # The action the field stands for while it shows what the screen put there: the field shows it in the game's
    # words ("Redeem Mirage Cloak: ignore Scared!"), where a first-time table saw '{"type": "use", "card": 5}'.
    # Tapped to type in, the field turns to its JSON, to edit (`typing`).
    held: dict[str, Any] | None = None
    words = ""  # the held action in words, as the field shows it

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        # One rebuild a frame, after the table has let go of its open place for the new position.
        self._moved_on = Clock.create_trigger(lambda _dt: self.offer(keep_typing=True))

    reading_rules = False  # the ruling's clauses were opened in the rulebook: coming back, the ruling stays

    def on_portrait(self, *args: Any) -> None:
        """Rules goes under the ruling upright and between the bottom buttons in landscape (as pin.py moves
        Cancel), Build under the offered actions upright and beside Check in landscape: each place is where the
        other arrangement had no room for it."""
        super().on_portrait(*args)
        self._place_rules()

    def on_kv_post(self, *_args: Any) -> None:
        self._place_rules()  # a window landscape from the start never changes `portrait`

    def _place_rules(self) -> None:
        if "rules" not in self.ids:
            return
        build, home = self.ids.build, self.ids.offered_column if self.portrait else self.ids.entry
        if build.parent is not home:  # upright under the offered actions: beside Check it cut "Check" at 120%
            build.parent.remove_widget(build)
            home.add_widget(build, index=0 if self.portrait else 1)
        rules, home = self.ids.rules, self.ids.ruling_column if self.portrait else self.ids.foot
        if rules.parent is not home:
            rules.parent.remove_widget(rules)
            home.add_widget(rules, index=0 if self.portrait else 1)  # landscape: between Back and Say again

    def on_pre_enter(self, *_args: Any) -> None:
        app = App.get_running_app()
        # A place asked about at the table, or a ruling whose clauses were just read, is what the referee came
        # (back) to read. A step taken meanwhile has cleared the ruling already.
        if "place" not in app.ruling and not self.reading_rules:
            app.ruling = {}
            self.built = None  # built afresh from the typed action and the place tapped on the board meanwhile
        self.reading_rules = False
        self.offer()
        app.bind(choices=self._choices_changed)

    def on_leave(self, *_args: Any) -> None:
        App.get_running_app().unbind(choices=self._choices_changed)

    def _choices_changed(self, *_args: Any) -> None:
        """The game moved on while the screen was open (a camera's roll, the button box, a game ended).

        The offered buttons and the template stayed those of the position before:
        "Oracle shows 4", tapped when the game waited for a traveller, was NOT
        ALLOWED, under a heading naming the new question.
        """
        self._moved_on()

    def offer(self, keep_typing: bool = False) -> None:
        """The first page of what the game offers now, and a fresh template when the position changed.

        ``keep_typing``: the screen is open, so an action the referee is typing is
        kept; only the template, as it was filled, follows the game.
        """
        app = App.get_running_app()
        self.page = 0
        session = app.controller.session
        self.over = session is not None and session.pending().is_over
        if self.over:  # an action built to the end has nothing left to rule on
            self.building = False
        offered = self.show_page()
        now = (session.game.id, len(session.log)) if session is not None else None
        typed = self.ids.typed.text
        stale = now != self.filled_for and (not keep_typing or typed == self.template)
        if session is not None and session.pending().is_over and not app.ruling:
            app.ruling = final_sheet(session)
        if offered and (not typed or stale):
            # A template to edit: disputes are usually about a near miss of an offered action. Made
            # afresh for each position: another game's roll, checked here, was refused as unknown.
            self.fill(offered[0])
        self.filled_for = now

    def fill(self, action: Any) -> None:
        """Put ``action`` in the typed field in the game's words, shown from its start: Kivy leaves the cursor at
        the end, and a field too narrow for it (Through the Desert's camel at 800x480 at 120%) showed its tail,
        hiding the start a referee reads first."""
        self.held = {k: v for k, v in action.items() if k != "text"}
        session = App.get_running_app().controller.session
        self.words = compose.action_words(session, action) if session is not None else json.dumps(self.held)
        self._put(self.words)

    def _put(self, text: str) -> None:
        field = self.ids.typed
        field.text = self.template = text
        field.cursor = (0, 0)

    def typing(self, focused: bool) -> None:
        """The field tapped to type in: the action it shows in words turns to its JSON, for a referee to edit (a
        dispute is usually a near miss of an offered action); left untouched, the words come back."""
        if self.held is None or self.ids.typed.text != self.template:
            return
        self._put(json.dumps(self.held) if focused else self.words)

    def typed_action(self) -> Any:
        """What **Check** and **Build** read: the action the field shows in words, else its text as JSON (None when
        it is not JSON; Check then says why)."""
        text = self.ids.typed.text
        if self.held is not None and text == self.template:
            return dict(self.held)
        try:
            return json.loads(text)
        except (ValueError, RecursionError):
            return None

    def check_typed(self) -> None:
        """**Check**: the action the field shows in words, or the JSON typed over it, by the same path."""
        app = App.get_running_app()
        if self.held is not None and self.ids.typed.text == self.template:
            app.check(self.held)
        else:
            app.check_text(self.ids.typed.text)

    def pick(self, button: Any) -> None:
        """An offered action tapped: checked, and put in the typed field, so field and verdict agree."""
        self.fill(button.action)
        App.get_running_app().check(button.action)


    def open_rules(self) -> None:
        """**Rules**: the rulebook opened on the clauses the ruling cites (the whole book without a ruling),
        its Back leading here, to the same ruling and typed action."""
        app = App.get_running_app()
        self.reading_rules = True
        self.manager.get_screen("rulebook").open_at(" ".join(app.ruling.get("rules") or []), back_to="dispute")
        app.show("rulebook")

    def next_page(self) -> None:
        self.page += 1
        self.show_page()

    def board_place(self) -> Any:
        """The place last tapped on the table's board, if one was: the place a dispute is about."""
        if not (self.manager and self.manager.has_screen("table")):
            return None
        table = self.manager.get_screen("table")
        place = table.asked if table.asked is not None else table.focus
        return None if place is None or place == EVERYWHERE or isinstance(place, Nearby) else place

    def toggle_build(self) -> None:
        """**Build** shows the kind and fields of an action to pick, started from the typed (or offered) one and
        the place tapped on the board; **Offered** goes back to the offered actions."""
        self.building = not self.building
        self.built = None
        if self.building:
            self.show_page()
        else:
            self.offer(keep_typing=True)

    def _start_built(self) -> dict[str, Any]:
        session = App.get_running_app().controller.session
        kinds = compose.kinds(session.game)
        typed = self.typed_action()
        if not isinstance(typed, dict) or typed.get("type") not in kinds:
            typed = {"type": kinds[0]} if kinds else {"type": ""}
        keep = set(compose.fields(session.game, typed["type"]))
        built = {k: v for k, v in typed.items() if k in keep or k == "type"}
        place = self.board_place()
        for key in keep & set(PLACE_FIELDS):
            if place is not None:
                built[key] = compose.values(session, key, place)[0]
        return built

    def show_built(self) -> None:
        """The composer's rows: the kind, then one list of values per field; the typed field follows each pick."""
        app = App.get_running_app()
        session = app.controller.session
        grid = self.ids.offered
        grid.clear_widgets()
        self.page_text = ""
        if session is None:
            return
        if self.built is None:
            self.built = self._start_built()
        kind = self.built["type"]
        place = self.board_place()
        rows = [("action", compose.kinds(session.game), kind)]
        for key in compose.fields(session.game, kind):
            choices = compose.values(session, key, place)
            rows.append((key, [compose.LEAVE_OUT, *choices], self.built.get(key, compose.LEAVE_OUT)))
        for key, choices, chosen in rows:
            row = Factory.ComposeRow()
            row.key = key
            if key == "action":
                row.choices = {compose.kind_label(session, kind): kind for kind in choices}
                shown = compose.kind_label(session, chosen)
            else:
                row.choices = compose.labels(session, key, choices)  # the first of two alike wins
                shown = chosen if chosen is compose.LEAVE_OUT else compose.label(session, key, chosen)
            row.ids.pick.values = list(row.choices)
            row.ids.pick.text = shown
            row.ids.pick.bind(text=self._picked, is_open=self._open_wide)
            row.ids.pick.bind(text=self._fit_pick, width=self._fit_pick)
            self.fit(row)
            grid.add_widget(row)
        self._write_built()

    @staticmethod
    def _fit_pick(spinner: Any, *_args: Any) -> None:
        """The value picked whole in its field: in smaller type when its words are wider (not under 16 px), on two
        lines when they are wider still, where "card 14 (Tribal Expansion)" was cut to "card 14 (Tribal Ex..." in
        landscape."""
        row = spinner.parent
        if row is None:
            return
        size = row.u * 20
        probe = CoreLabel(text=spinner.text, font_size=size, bold=spinner.bold)
        probe.refresh()
        room = spinner.width - row.u * 12
        need = probe.texture.size[0]
        one_line = size if need <= room else size * room / need
        # A temple route of seven cells is wider than any field at 16 px: on two lines, as the field is tall enough
        spinner.shorten = one_line >= READABLE
        spinner.font_size = min(size, max(READABLE, one_line if spinner.shorten else 1.8 * size * room / need))

    @staticmethod
    def _open_wide(spinner: Any, is_open: bool) -> None:
        """A field's list as wide as its longest words, up to the window, and a value wider still in smaller type
        (not under 16 px): in landscape the list was the 200 px of its field, and "Sandstorm Sneakers", "card 6
        (Fata Morgana)" or a temple route ran past its edges."""
        if not is_open:
            return
        dropdown, room = spinner._dropdown, Window.width - 2 * spinner.height * 0.1
        options = list(dropdown.container.children)
        for option in options:
            option.texture_update()
        widest = max((option.texture_size[0] for option in options), default=0)
        pad = spinner.height * 0.3
        dropdown.auto_width = False
        dropdown.width = min(room, max(spinner.width, widest + 2 * pad))
        for option in options:
            if option.texture_size[0] > dropdown.width - 2 * pad:
                option.font_size = min(option.font_size, max(READABLE, option.font_size * (dropdown.width - 2 * pad)
                                                            / option.texture_size[0]))
        dropdown._reposition()

    def _picked(self, spinner: Any, text: str) -> None:
        row = spinner.parent
        if self.built is None or row is None:  # rows of a screen left meanwhile: nothing is being built
            return
        value = row.choices.get(text, compose.LEAVE_OUT)
        if row.key == "action":
            if value != self.built.get("type"):
                session = App.get_running_app().controller.session
                keep = set(compose.fields(session.game, value))
                self.built = {"type": value, **{k: v for k, v in self.built.items() if k in keep}}
                Clock.schedule_once(lambda _dt: self.show_built())  # not from inside the spinner's own event
            return
        if value is compose.LEAVE_OUT:
            self.built.pop(row.key, None)
        else:
            self.built[row.key] = value
        self._write_built()

    def _write_built(self) -> None:
        """The built action in the typed field, in words, so **Check** rules on it as on one typed."""
        self.fill(compose.action_of(self.built["type"], {k: v for k, v in self.built.items() if k != "type"}))

    def show_page(self) -> list[Any]:
        """Build one page of buttons; a place tapped on the table's board offers its actions first."""
        app = App.get_running_app()
        if self.building:
            self.has_offered = True
            self.show_built()
            return []
        focus = self.manager.get_screen("table").focus if self.manager and self.manager.has_screen("table") else None
        shown = arrange(app.choices, focus, self.page, can_point=True)
        if shown.focus is None:  # no place open on the table (or 'List all'): every action, paged
            shown = arrange(app.choices, page=self.page, can_point=False)
        self.page = shown.page
        self.has_offered = bool(shown.buttons)
        self.page_text = f"Next page ({shown.page + 1} of {shown.pages})" if shown.pages > 1 else ""
        grid = self.ids.offered
        grid.clear_widgets()
        labels = [str(action.get("text") or action.get("type")) for action in shown.buttons]
        small = any(len(label) >= LONG_LABEL for label in labels)  # one long label: the page in its smaller size
        for action, label in zip(shown.buttons, labels, strict=True):
            button = Factory.DisputeChoice(text=label, action=action)
            button.small = small
            button.background_color = (0.25, 0.3, 0.45, 1)
            self.fit(button)
            button.bind(on_release=self.pick)
            grid.add_widget(button)
        self.ids.offered_scroll.scroll_y = 1
        return shown.buttons
