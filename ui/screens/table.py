"""The table: board, prompt, legal choices, announcements, undo."""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.factory import Factory
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.widget import Widget

from companion.places import place_of
from ui.boards import placer_for
from ui.choices import EVERYWHERE, Arrangement, DiePad, arrange, die_pad, face_colour, face_label, reveal
from ui.even import even, wrapped
from ui.reach import Nearby
from ui.screens.upright import UprightScreen
from ui.widgets import BoardWidget, ChoiceButton, first_tap_at, shown_now

__all__ = ["BoardWidget", "TableScreen"]

SHORT_LABEL = 16  # characters that fit a half-width button at 800x480
TWO_LINE_BUTTONS = 6  # three rows of half-width buttons on two lines each still fit at 800x480
LONG_LABEL = 60  # characters past three lines of a half-width button on a 16:9 monitor (about 20 a line)
# Upright, the board gives way to the choices under it, but no further than the 800x480 board (398 px), at which
# every board's texts were made to read at 16 px: at 120% at 480x800 it fell to 468x347 and every one of Targi's
# 82 texts to 12.7 px (17.1 at 100%), the display scale meant to draw things larger drawing the board smaller.
BOARD_LEAST = 398.0
# The frame round the board in landscape, in units: the window's margins above and below (6 each), the gap over the
# bottom bar (6) and the bar (64). At 800x480 it leaves the board exactly BOARD_LEAST.
FRAME = 82.0
# A die pad's buttons in the colour of the face they stand for: (background, text).
FACE_COLOURS = {"red": ((0.72, 0.12, 0.1, 1), (1, 1, 1, 1)), "white": ((0.93, 0.92, 0.88, 1), (0.1, 0.1, 0.1, 1))}


def citation(entry: dict[str, Any]) -> str:
    rules = entry.get("rules") or []
    return entry["text"] + (f"  [{', '.join(rules)}]" if rules else "")


class TableScreen(UprightScreen):
    """Shows the legal actions as buttons, or, when there are hundreds, as marks on the board to tap.

    Upright, the board goes on top and the rest is sized in the table's own unit (table.kv), so the choices
    it makes here are given that unit (`made_in`, `fit`).
    """

    made_in = ("die_pad", "choices")  # the boxes whose buttons are made here

    choices = ListProperty([])
    board = ObjectProperty(None, allownone=True)  # the app's BoardView, before this screen marks it
    view = ObjectProperty(None, allownone=True)  # what the board widget draws: the board with its marks
    highlighted = ObjectProperty(None, allownone=True)  # the button box's pick, brought on screen and lit
    highlighted_place = ObjectProperty(None, allownone=True)  # or the place it walked to, opened on the map
    # The arrangement's parts as Kivy properties: kv cannot follow a plain object's attributes.
    hint = StringProperty("")
    can_list_all = BooleanProperty(False)
    can_go_back = BooleanProperty(False)
    paged = BooleanProperty(False)
    has_buttons = BooleanProperty(False)  # none (a map to tap): the announcements may take the room
    game_over = BooleanProperty(False)  # offer the next game where the moves were
    announcements = ListProperty([])  # the app's, newest first: a new one means someone is playing
    short_labels = BooleanProperty(False)  # every label fits half a narrow panel: two columns show twice as many
    long_labels = BooleanProperty(False)  # a label would wrap to four lines in half a wide panel: one column
    has_pad = BooleanProperty(False)
    # The height of the first row of choices (under a die pad, the first card play): what the announcements give
    # room for under the pad (`announcement_room`), the other rows being a scroll away.
    first_row = NumericProperty(0.0)
    arrangement = Arrangement([])
    focus: Hashable | None = None
    asked: Hashable | None = None  # a place tapped where nothing is offered: the board rings it while it is answered
    page = 0
    can_point = BooleanProperty(False)  # the board answers taps with places
    frame = NumericProperty(1.0)  # the unit of the margins and the bottom bar's height (``frame_unit``)
    entered_at = 0.0  # when the table last came on screen (`shown_now`)

    def on_enter(self, *_args: Any) -> None:
        self.entered_at = shown_now()

    def on_kv_post(self, base_widget: Any) -> None:
        """The choices are wrapped evenly again whenever their grid's width or columns change (``even_out``)."""
        self._evened = Clock.create_trigger(self.even_out, -1)
        self.ids.choices.bind(width=self._evened, cols=self._evened)
        self.ids.choices.bind(cols=self.measure_first_row)

    def on_u(self, *args: Any) -> None:
        super().on_u(*args)
        if hasattr(self, "_evened"):
            self._evened()

    def even_out(self, *_args: Any) -> None:
        """The choices' labels wrapped so a row's take as many lines and no word stands alone on one
        (``ui.even``): the type steps down to its 100% size at most, and only where the lines need it."""
        grid = self.ids.choices
        buttons = [b for b in reversed(grid.children) if isinstance(b, ChoiceButton)]
        if not buttons:
            return
        cols = max(1, int(grid.cols or 1))
        width = (grid.width - grid.spacing[0] * (cols - 1) - grid.padding[0] - grid.padding[2]) / cols - self.u * 12
        least = 1 / max(1.0, App.get_running_app().scale)  # the labels' own sizes at 100%, at the smallest
        # One size a list, its smallest label's own: Targi's "Use Salt Block (G02) at centre 2-2" (a long label's
        # smaller size) stood a size under "Finish my actions this round" beside it, and a goods card drawn
        # under two others in a column.
        size = min(b.own_size for b in buttons)
        wraps = even([b.text for b in buttons], [size] * len(buttons), cols, width, least)
        for button, wrap in zip(buttons, wraps, strict=True):
            button.even_size, button.even_width = wrap.size, wrap.width

    @staticmethod
    def prompt_height(prompt: str, width: float, u: float, portrait: bool) -> float:
        """The prompt's box: two lines at 24 px (66 units) for a short prompt, three at 19 (72), four (96) for a
        prompt of 100 letters or more that takes four in ``width`` (20 px upright). By its length alone, a
        desert roll's prompt with the cost of a Scared! space ("Purple: roll to move from Nomad Camp (13); a 3 is
        Scared!: loses the Cloak, or 2 Lives and goes back.", 103 letters, three lines) took four lines' room,
        and at 120% at 800x480 the last row of rolls went 17 px under the announcements."""
        if len(prompt) < 56:
            return u * 66
        if len(prompt) < 100:
            return u * 72
        lines = wrapped(prompt, width, u * (20 if portrait else 19))
        return u * (72 if len(lines) <= 3 else 96)

    @staticmethod
    def board_height(width: float, height: float, u: float) -> float:
        """Upright, the board's height in ``main`` (``width`` x ``height``): a square of the full width, or as tall
        as leaves 390 units under it for a two-line prompt, three rows of choices and the announcements (the
        landscape column's 398), but never under ``BOARD_LEAST`` while that leaves the rest 300 units (at 120% at
        480x800 the rest then has 323 px, where 390 units are 374: the prompt, three rows of rolls and a line and
        a half of announcements still show)."""
        return max(0.0, min(width, max(height - u * 390, min(BOARD_LEAST, height - u * 300))))

    @staticmethod
    def frame_unit(height: float, u: float, scale: float, portrait: bool) -> float:
        """The unit of the frame round the board (margins, the bottom bar's height) in a window ``height`` high.

        In landscape the board is as tall as the window less the frame, so at 120% at 800x480 the frame's
        larger margins and bar took 16 px off it: 381.6 px, and Targi's board drew every text at 15.3 px, the
        display scale meant to draw things larger drawing the board smaller. There the frame gives back what
        the board needs to keep ``BOARD_LEAST``, down to its size at 100% at most (the bar's words keep the
        scale: 24 px in a 64 px bar); a taller window (1024x600) keeps the whole scale. Upright the frame keeps its
        100% size, as the bar's words there already did: at 120% at 480x800 its 13 px more left the first card
        play under the temple die's pad a scroll away, with the board at its least already.
        """
        if scale <= 1:
            return u
        if portrait:
            return u / scale
        return max(u / scale, min(u, (height - BOARD_LEAST) / FRAME))

    @classmethod
    def board_size(cls, width: float, height: float, scale: float) -> tuple[float, float]:
        """The board's size on the table in a ``width`` x ``height`` window at display scale ``scale`` (1.2 for
        120%), worked out as table.kv lays it out: the unit, the frame round it (``frame_unit``) and, upright,
        ``board_height``. Tests that draw a board at the table's sizes take them from here, so they draw the sizes
        that occur: at 120% at 800x480 they drew 381.6 px after the frame gave the board back its 398."""
        portrait = width < height
        u = (min(width / 600, height / 1000) if portrait else min(width / 800, height / 480)) * scale
        frame = cls.frame_unit(height, u, scale, portrait)
        main_width, main_height = width - frame * 12, height - frame * 82
        if portrait:
            return main_width, cls.board_height(main_width, main_height, u)
        return min(main_height, width * 0.56), main_height

    @staticmethod
    def announcement_room(
        column: float, taken: float, listed: float, u: float, has_buttons: bool
    ) -> float:
        """The most height the announcements take in the right-hand column: ``column`` high, ``taken`` by the
        prompt and the lines over the choices, ``listed`` the height of the choices themselves.

        Their usual 112 units leave three rows of buttons under a two-line prompt at 800x480. The choices come
        first: where they need more (a status line over them: a camera's unsure reading to confirm, a refusal of
        three lines; or a display scale over 100%, Settings) the announcements give it, keeping a line and a half
        (30 units, the newest first, the rest a scroll away; every announcement is spoken too). The status line
        left the third row of rolls, 5 and 6, half under them just when a misread die had to be corrected, and
        upright at 120% only their first row whole. A list short of room by a row or less gives them their 30
        units (upright at 120% under an unsure reading, the foot of the last row of rolls is a scroll away); a
        list that must scroll further leaves them their 112, or what keeps two rows of it in view, a line and a
        half at least: at 120% under a refusal of three lines Targi's setup list of tribe cards showed part of
        one button at 800x480 and 1024x600, none upright. Where the choices leave more (two at a game's end,
        an attempt or a stop) the announcements take it: their third line was a scroll away beside an empty band.
        Upright too: there the board gives way no further than ``BOARD_LEAST`` (``board_height``).

        Under a die pad ``listed`` is the pad and the first row of choices under it (``first_row``): under the
        temple die's captioned rows the first card play showed 42 of its 60 px at 800x480, and at 120% none of
        it; the other card plays are a scroll away, as before.

        With no buttons (a map to tap) they take their 200 units, or what the column has left under the prompt
        and the hint: at 120% at 800x480 the 240 px ran the column 12 px over the window's top, the prompt's
        first line at the window's edge, once three announcements had come in beside Through the Desert's map.
        """
        usual = u * (112 if has_buttons else 200)
        left = column - taken - listed - u * 24 - 2  # the column's four gaps of 6; 2 px so the list needs no bar
        if not has_buttons:
            return max(u * 30, min(usual, left))
        if left >= u * 30:
            return left
        if left > -u * 60:  # short of a row at most: all but part of the last row show
            return u * 30
        two_rows = column - taken - u * (24 + 126) - 2  # what leaves two rows of 60 units of a long list in view
        return max(u * 30, min(usual, two_rows))

    def on_touch_down(self, touch: Any) -> bool:
        """The second tap of a double tap begun on another screen is swallowed.

        "Touch anywhere to continue", tapped twice, woke the table on the first
        tap and took the choice under the finger with the second: the attract
        screen rolled a 4 for the game. A double tap on a screen's button that
        leads here ("Back to the table") landed on Undo or a choice the same way.
        """
        if getattr(touch, "is_double_tap", False) and first_tap_at(touch) < self.entered_at:
            return True
        return super().on_touch_down(touch)

    def on_choices(self, *_args: Any) -> None:
        """A new position: what was pointed at before no longer means anything."""
        self.focus, self.page, self.asked = None, 0, None
        self.rearrange()
        self._to_top()

    def on_announcements(self, *_args: Any) -> None:
        self._in_play()

    @staticmethod
    def _in_play() -> None:
        """Something was done at the table, by whatever input: the kiosk is in use, so the attract screen
        waits, or gives way if it is up.

        The idle clock heard only the screen's touches, so a table playing on the
        button box (or with touch off) was covered by the attract screen every
        couple of minutes, and played on behind it unseen. Every step, undo, redo
        and refusal is announced, so a new announcement is the sign of play; the
        choices are not: a roll that moves nobody gives the next player the same list.
        """
        app = App.get_running_app()
        idle = getattr(app, "idle", None)
        if idle is None:
            return
        idle.touched(app.clock())
        if app.root is not None and app.root.current == "attract":
            app.wake()

    def _to_top(self) -> None:
        """The list's first choice in view, and the scroll effect told so.

        Setting ``scroll_y`` alone left the effect at the old position: after a
        pick scrolled into view (the button box's, an unsure reading's) and
        taken with a finger, the effect reapplied it on the release, and the
        next list opened at its bottom ("Bring Yellow 3" showing, 1 and 2 out
        of sight above it).
        """
        scroll = self.ids.choice_scroll
        scroll.scroll_y = 1
        if scroll.effect_y is not None:
            scroll.effect_y.value = scroll.effect_y.max  # the value that scroll_y 1 stands for

    def on_board(self, *_args: Any) -> None:
        """The board arrives after the choices (the app sets them first) and marks the places they were arranged
        for; they are arranged again only if its game's board points where theirs was taken not to."""
        if self._board_can_point() != self.can_point:
            self.rearrange()
        else:
            self._mark()

    def _board_can_point(self) -> bool:
        """Whether the board of the choices' game answers taps with places (``placer_for``).

        The game is the app's ``game_id``, which it sets before the choices, and the board's only without it:
        judged by the board on show, choices set at start-up, on a resume or a Start from home (no board yet)
        were arranged for a board that cannot point, every one a button (the temple's 50 card plays), and
        arranged, built and wrapped all over again a moment later when the board came.
        """
        game = getattr(App.get_running_app(), "game_id", "") or (self.board.game.id if self.board else "")
        return bool(game) and placer_for(game) is not None

    def on_highlighted(self, *_args: Any) -> None:
        """Next on the button box: open the place or page holding its pick, light it, scroll to it."""
        if self.highlighted is not None:  # a press of next, or a reading to confirm: someone is at the table
            self._in_play()
        shown = (self.focus, self.page)
        self.focus, self.page = reveal(self.choices, self.highlighted, self.focus, self.page, self.can_point)
        if (self.focus, self.page) != shown:
            self.rearrange()
        for button in self.buttons():
            button.chosen = button.action == self.highlighted
        self._pick_into_view()

    def _pick_into_view(self, _dt: float = 0, frames: int = 3) -> None:
        """Scroll the lit choice into sight once the list is laid out, and tell the scroll effect so.

        Buttons just built all sit at the list's foot until their grid lays them
        out, and a wrapped label sets its button's height a frame after that:
        scrolled at once, an unsure card's slot opened with the scroll at the
        foot of its 37 cards and the lit one out of sight above them. So it
        scrolls again over the next few frames, each time after any pending
        layout; the effect is set as in ``_to_top``, or it pulled the list back.
        """
        chosen = next((b for b in self.buttons() if b.chosen), None)
        if chosen is None:
            return
        scroll = self.ids.choice_scroll
        grids = (self.ids.choices, self.ids.die_pad, *self.ids.die_pad.children, *scroll.children[:1])
        if not any(g._trigger_layout.is_triggered for g in grids if hasattr(g, "_trigger_layout")):  # not captions
            scroll.scroll_to(chosen, padding=0, animate=False)
            if scroll.effect_y is not None:
                scroll.effect_y.value = scroll.effect_y.max * scroll.scroll_y  # as Kivy's own bounds update sets it
        if frames:
            Clock.schedule_once(lambda dt: self._pick_into_view(dt, frames - 1), 0)

    def on_game_over(self, *_args: Any) -> None:
        self.rearrange()

    def on_highlighted_place(self, *_args: Any) -> None:
        """The button box walks a long list place by place: the place it reached is opened, as a tap would."""
        place = self.highlighted_place
        if place is not None:
            self._in_play()
        if place is not None and place in self.arrangement.marked and place != self.focus:
            self.focus, self.page = place, 0
            self.rearrange()

    def point(self, place: Hashable | None) -> None:
        """A tap on a marked place lists what may happen there; on any other place, the table hears why not.

        A tap off the places clears the list. A finger as near one marked place
        as another (a ``Nearby``) lists what may happen at each: the buttons
        name their places, so the table picks rather than the app guessing.
        """
        if isinstance(place, Nearby):
            self.focus, self.page, self.asked = place, 0, None
            self.rearrange()
            return
        if place is not None and place not in self.arrangement.marked:
            App.get_running_app().explain(place)
        offered = {place_of(action) for action in self.choices}
        self.asked = place if place is not None and place not in offered else None
        self.focus = place if place in self.arrangement.marked else None
        self.page = 0
        self.rearrange()

    def list_all(self) -> None:
        self.focus, self.page = EVERYWHERE, 0
        self.rearrange()

    def go_back(self) -> None:
        self.focus, self.page = None, 0
        self.rearrange()

    def next_page(self) -> None:
        self.page += 1
        self.rearrange()
        self._to_top()

    def rearrange(self) -> None:
        """Rebuild the buttons; a choice is the offered action itself, forwarded on tap."""
        self.can_point = self._board_can_point()
        self.arrangement = arrange(self.choices, self.focus, self.page, self.can_point)
        self.page = self.arrangement.page
        self.hint = self.arrangement.hint
        self.can_list_all, self.can_go_back = self.arrangement.can_list_all, self.arrangement.can_go_back
        self.paged = self.arrangement.pages > 1
        self.has_buttons = bool(self.arrangement.buttons)
        pad = die_pad(self.arrangement.buttons)
        listed = pad.rest if pad else self.arrangement.buttons
        texts = [str(a.get("text") or a.get("type")) for a in listed]
        # At 800x480 one column showed three rolls of six ("Oracle shows 4" and up needed a scroll), and
        # the desert's "4: to Shifting Sands (4)" too: six labels of two half-width lines fit
        # three rows, so they take two columns as well.
        longest = max(map(len, texts), default=0)
        self.short_labels = bool(texts) and (
            longest <= SHORT_LABEL or (len(texts) <= TWO_LINE_BUTTONS and longest <= 2 * SHORT_LABEL + 4)
        )
        # On a 16:9 monitor the wide panel takes two columns, where the temple's card plays ("Play the Ah Kinchil
        # card: Green 1 forward to its Ah Kinchil marker [1,1] (corner)") and Targi's drawn cards wrapped to four
        # lines of three or four words each; across the panel they read in two.
        self.long_labels = longest > LONG_LABEL
        app = App.get_running_app()
        self._fill_pad(pad, app)
        grid = self.ids.choices
        grid.clear_widgets()
        if self.game_over:  # the table's next step is the next game
            again = self._choice(text=f"Play again: new {app.game_title}, same players")
            again.bind(on_release=lambda _b: app.play_again())
            grid.add_widget(again)
            # The way to another game or other players: only Menu led there, a word a family at their first
            # game's end did not read as "choose the next game".
            other = self._choice(text="Choose another game or other players")
            other.bind(on_release=lambda _b: app.show("home"))
            grid.add_widget(other)
            self.has_buttons = True
        for action in listed:
            button = self._choice(
                text=str(action.get("text") or action.get("type")), action=action, chosen=action == self.highlighted
            )
            button.bind(on_release=lambda b: app.act(b.action))
            grid.add_widget(button)
        for button in grid.children:
            button.bind(height=self.measure_first_row)
        self.measure_first_row()
        if self.get_root_window() is None:
            # Off the window (the app being built, a game started from home) the grid has not its width yet, or
            # not for sure: evened out before the next frame, and again as the grid is laid out. At start-up its
            # labels were wrapped first for Kivy's default 100 px (2-10 ms, the temple's 50 card plays).
            self._evened()
        else:
            self.even_out()
        self._mark()

    def measure_first_row(self, *_args: Any) -> None:
        """``first_row``: the tallest of the first row's buttons (a wrapped label sets its height a frame late)."""
        grid = self.ids.choices
        row = list(reversed(grid.children))[: max(1, int(grid.cols or 1))]
        self.first_row = max((b.height for b in row), default=0.0)

    def _fill_pad(self, pad: DiePad | None, app: Any) -> None:
        """The die pad's buttons, row by row under each row's caption ("Die shows red"); an empty cell keeps the
        numbers lined up in their columns.

        Audit: the rows had no caption; a player new to the temple die could not tell which row stood for which
        face but by the paint (and not at all in the button box's light, which repaints the one it lights).
        """
        box = self.ids.die_pad
        box.clear_widgets()
        self.has_pad = pad is not None
        if pad is None:
            return
        for row, label in zip(pad.rows, pad.labels or [""] * len(pad.rows), strict=True):
            if label:
                caption = Factory.PadCaption(text=label)
                self.fit(caption)
                box.add_widget(caption)
            grid = Factory.PadRow(cols=pad.columns)
            self.fit(grid)
            box.add_widget(grid)
            for action in row + [None] * (pad.columns - len(row)):
                if action is None:
                    grid.add_widget(Widget(size_hint_y=None, height=1))
                    continue
                colours = FACE_COLOURS.get(face_colour(action))
                button = self._choice(
                    "PadChoice", text=face_label(action), action=action, chosen=action == self.highlighted
                )
                if colours:
                    button.tint, button.ink = colours
                button.bind(on_release=lambda b: app.act(b.action))
                grid.add_widget(button)

    def made_here(self) -> list[Any]:
        """The captions and rows of the die pad, their buttons (a level down, in each row) and the choices."""
        pad = self.ids.get("die_pad")  # none while the kv rule is still being applied
        return super().made_here() + [b for row in (pad.children if pad else ()) for b in row.children]

    def _choice(self, kind: str = "TableChoice", **kwargs: Any) -> ChoiceButton:
        """A choice button in the table's unit (table.kv, <TableChoice>; a die pad's, <PadChoice>)."""
        button = getattr(Factory, kind)(**kwargs)
        self.fit(button)
        return button

    def buttons(self) -> list[ChoiceButton]:
        """Every choice on show, die pad first: what the button box lights and a test taps."""
        pad = [b for row in reversed(self.ids.die_pad.children) for b in reversed(row.children)]
        shown = [*pad, *reversed(self.ids.choices.children)]
        return [b for b in shown if isinstance(b, ChoiceButton)]

    def _mark(self) -> None:
        marks = self.arrangement
        self.view = None if self.board is None else dataclasses.replace(
            self.board, marked=marks.marked, focus=marks.focus, asked=self.asked
        )
