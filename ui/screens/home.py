"""Home: pick a game and the players (tap colours in turn order), resume the game in progress, or go back into
the last game when it is over (its result shown), to take back a misread last roll."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.core.text import Label as CoreLabel
from kivy.event import EventDispatcher
from kivy.factory import Factory
from kivy.properties import BooleanProperty, ColorProperty, ListProperty, NumericProperty, StringProperty

from companion.colours import ink, piece_rgb
from companion.errors import CompanionError
from companion.phrases import how_many
from companion.registry import game_class
from ui.screens.upright import UprightScreen
from ui.widgets import first_tap_at, shown_now

FINGER = 48  # px: a fingertip's 9 mm on the 7 inch display, the least a game's button shrinks to


class PlayerPaint(EventDispatcher):
    """What a player's button on home is drawn with (home.kv, ``ColourToggle``); typed here, not in the kv rule,
    whose canvas read ``ink`` before the rule had given it three channels."""

    paint = ColorProperty((0.95, 0.75, 0.1))  # the player's piece colour; a player known by name alone lights yellow
    ink = ColorProperty((0, 0, 0))  # black or white, whichever reads on ``paint`` (`companion.colours.ink`)
    swatch = BooleanProperty(False)  # a bar of ``paint`` at the left while not picked (a player with a colour)
    order = NumericProperty(0)  # the place in the turn order while picked, 1 first
    word = StringProperty("")  # the colour's or the player's name


Factory.register("PlayerPaint", cls=PlayerPaint)


class HomeScreen(UprightScreen):
    made_in = ("games", "colours")  # the boxes whose buttons are made here

    chosen_game = StringProperty("")
    game_cols = NumericProperty(1)  # the games' columns in landscape: two when one cannot hold them all (`fit_games`)
    players = ListProperty([])  # in the order tapped: that is the turn order
    # "Seat order" where the game's opening roll picks who starts (`GameInfo.first_by_roll`): home said "Turn
    # order: Black, Purple, Pink" and the desert race's roll-off then sent Pink first.
    order_name = StringProperty("Turn order")
    # Why the last "Start new game" did not start one. Kept here, not in the app's status line, which the
    # table shows too: "Targi needs 2 players" stayed in red under another game's prompt after Resume.
    note = StringProperty("")
    confirming: tuple[str, tuple[str, ...]] | None = None  # the choice Start was tapped for once, over a game
    asked_at = 0.0  # when Start last asked for its second tap (`shown_now`)
    # Whether someone has tapped a game or a colour since this screen opened: a new game is being chosen, and a
    # press of the button box is refused here (`CompanionApp._button_gate`) rather than bringing back the table.
    choosing = False

    def on_touch_down(self, touch: Any) -> bool:
        """The second tap of a double tap whose first tap asked "tap Start again" is no answer to it.

        A double tap on Start over a game in play set that game aside at once: the
        first tap asked, the second (a fraction of a second later) answered, and
        nobody at the table had read the question.
        """
        asking = self.confirming is not None and getattr(touch, "is_double_tap", False)
        if asking and first_tap_at(touch) < self.asked_at:
            return True
        return super().on_touch_down(touch)

    def on_pre_enter(self, *_args: Any) -> None:
        app = App.get_running_app()
        self.confirming = None
        app.check_saving()  # a card that filled since the last visit is told before Start, not by its refusal
        games = self.ids.games
        games.clear_widgets()
        for info in app.games():
            button = Factory.HomeToggle(text=info.title, group="game", allow_no_selection=False)
            button.game_id = info.id
            button.shorten, button.font = False, 19  # long titles wrap to two lines
            games.add_widget(button)
            self.fit(button)
            button.bind(on_release=lambda b: self.tap_game(b.game_id))
        known = {info.id for info in app.games()}
        # The first of these that is still a game: a last game the café no longer has (a game removed, a hand
        # edit of ui.json) picked nothing, and home showed no game lit, no colours and "no game ''" on Start.
        wanted = (self.chosen_game, app.settings.last_game, app.game_id)
        self.pick_game(next((game for game in wanted if game in known), app.games()[0].id))
        self.choosing = False  # the game lit on opening is the screen's guess, not anyone's choice

    def fit(self, *buttons: Any) -> None:
        super().fit(*buttons)
        self.fit_games()

    @staticmethod
    def upright_room(height: float, scale: float) -> float:
        """The most of the middle's ``height`` the games' list takes upright: two fifths, or 45% at a display
        scale over 100% (at 0.4 Through the Desert lay under the list's edge at 120%)."""
        return height * (0.4 if scale <= 1 else 0.45)

    def fit_games(self, *_args: Any) -> None:
        """The games share their list's height, down to a finger's 48 px, before it scrolls.

        At a display scale over 100% (Settings) five games at their usual height
        no longer fit the landscape column at 800x480, and Through the Desert lay
        hidden under the list's edge for a table to find by scrolling. A café's
        sixth game (`companion.registry.install`) at 120% then lay half under the
        list's foot, and a seventh out of sight: a column that cannot hold them
        all at 48 px wraps into two, titles on up to three lines. Upright, where
        the list stands in two columns over the players, its rows share the
        list's part of the room likewise. Only past that does the list scroll.
        """
        if "games" not in self.ids:
            return
        grid, games = self.ids.games, self.ids.games.children
        gap, count = grid.spacing[1], max(1, len(games))
        if self.portrait:
            cols, height = 2, self.upright_room(self.ids.middle.height, App.get_running_app().scale)
        else:
            height = self.ids.game_scroll.height
            cols = 1 if (height - gap * (count - 1)) / count >= FINGER else 2
        rows = -(-count // cols)
        room = max(FINGER, (height - gap * (rows - 1)) / rows)
        self.game_cols = cols if not self.portrait else self.game_cols
        colour_room, room = self.note_room(room, rows)
        for button in games:
            button.room = room
            button.lines = 3 if cols == 2 and not self.portrait else 2
        for button in self.ids.colours.children:
            button.room = colour_room

    def note_room(self, game_room: float, game_rows: int) -> tuple[float, float]:
        """The colours' most height, and the games' (``game_room``, ``game_rows`` rows): less while the note
        under the turn order needs more room than it has, down to a finger's 48 px, the colours first and then,
        upright, the games (in landscape they stand in a column of their own).

        At 120% six colours' rows left the note asking to tap Start again (a game in play) one line at 800x480
        and half of one upright: "Desert lap race (Secret Passage) on the table is not", the rest cut off. The
        note, the colours' rows and, upright, the games' rows share one height, so what the note would have
        with every button at its usual height is the same however high they stand now.
        """
        note, colours = self.ids.note, self.ids.colours.children
        usual = self.u * (56 if self.portrait else 60)
        if not note.text or not colours:
            return usual, game_room
        colour_rows = -(-len(colours) // max(1, int(self.ids.colours.cols or 1)))
        games = self.ids.games.children if self.portrait else []
        game_usual = min(usual, game_room)
        free = note.height + colour_rows * (colours[0].height - usual)
        free += game_rows * (games[0].height - game_usual) if games else 0.0
        probe = CoreLabel(text=note.text, font_size=note.font_size, text_size=(note.width, None))
        probe.refresh()
        short = probe.texture.size[1] + 1 - free
        if short <= 0:
            return usual, game_room
        colour_cut = min(short / colour_rows, max(0.0, usual - FINGER))
        short -= colour_cut * colour_rows
        game_cut = min(short / game_rows, max(0.0, game_usual - FINGER)) if games and short > 0 else 0.0
        return usual - colour_cut, game_usual - game_cut if games else game_room

    def tap_game(self, game_id: str) -> None:
        """A game tapped: someone is choosing a new game."""
        self.choosing = True
        self.pick_game(game_id)

    def pick_game(self, game_id: str) -> None:
        app = App.get_running_app()
        info = next((i for i in app.games() if i.id == game_id), None)
        if info is None:
            return
        self.chosen_game = game_id
        self.note = ""
        self.confirming = None
        for button in self.ids.games.children:
            button.state = "down" if button.game_id == game_id else "normal"
        self.players = []
        colours = self.ids.colours
        colours.clear_widgets()
        names = info.colours or [f"Player {i}" for i in range(1, info.max_players + 1)]
        for name in names:
            button = Factory.ColourToggle()
            button.word = name.capitalize()
            button.player = name
            if info.colours:
                button.paint, button.swatch = piece_rgb(name), True
            button.ink = ink(tuple(button.paint[:3]))
            button.lines = 1  # a name on one line: its words keep their size where the note takes room (`note_room`)
            self.fit(button)
            button.bind(on_release=self.toggle_player)
            colours.add_widget(button)
        low, high = info.min_players, info.max_players
        count = str(low) if low == high else f"{low}-{high}"  # "2-2 players" read like a typo
        # "tap in turn order" did not say what to tap: the buttons under it are the players
        self.order_name = "Seat order" if info.first_by_roll else "Turn order"
        self.ids.limits.text = (f"{count} players: tap their {'colours' if info.colours else 'names'} in "
                                f"{self.order_name.lower()}")


    def toggle_player(self, button: Any) -> None:
        self.choosing = True
        self.note = ""  # "needs 2 players, not 0" is out of date after a tap
        self.confirming = None
        if button.state == "down":
            self.players = [*self.players, button.player]
        else:
            self.players = [p for p in self.players if p != button.player]

    def on_players(self, *_args: Any) -> None:
        """Each picked button shows its place in the turn order: one taken out moves those after it up."""
        for button in self.ids.colours.children if "colours" in self.ids else ():
            button.order = self.players.index(button.player) + 1 if button.player in self.players else 0

    def start(self) -> None:
        app = App.get_running_app()
        choice = (self.chosen_game, tuple(self.players))
        unfinished = self.unfinished_game()
        if unfinished and self.confirming != choice and self.could_start():
            # One tap set aside a game in play for good (the app resumes only the latest game), so a stray
            # tap on Start ended a table's evening. The second tap, on the same choice, is the answer.
            self.confirming = choice
            self.asked_at = shown_now()
            self.note = f"{unfinished}: tap Start again to set it aside and begin, or Resume to go back to it."
            return
        self.confirming = None
        wrong = self.players_refused()
        if wrong:
            self.note = wrong
            return
        if not app.new_game(self.chosen_game, list(self.players)):
            self.note, app.status = app.status, ""  # the refusal concerns this screen, not the game on the table

    def players_refused(self) -> str:
        """Why the colours tapped cannot start the game, with what to do and the clause; "" when they can.

        "Targi needs 2 players, not 0" alone left a family who had tapped the
        game and then Start wondering what a player was here: nothing said the
        colours above were the players, to be tapped in turn order.
        """
        try:
            game_class(self.chosen_game).check_players(list(self.players))
        except CompanionError as refusal:
            cite = f" [{refusal.rule}]" if refusal.rule else ""
            low, high = game_class(self.chosen_game).min_players, game_class(self.chosen_game).max_players
            if low <= len(self.players) <= high:
                return refusal.message + cite
            button = "a colour" if game_class(self.chosen_game).colours else "a name"
            return (f"{refusal.message}: tap {button} for each player, in {self.order_name.lower()}, then Start new "
                    f"game.{cite}")
        return ""

    @staticmethod
    def unfinished_game() -> str:
        """Words for the game on the table when one is in play (started, not over), else ""."""
        session = App.get_running_app().controller.session
        if session is None or not session.log or session.pending().is_over:
            return ""
        return f"{session.game.title} on the table is not finished ({how_many(len(session.log))} played)"

    def could_start(self) -> bool:
        """Whether the players picked suit the game picked: if not, its refusal says so at the first tap."""
        return not self.players_refused()
