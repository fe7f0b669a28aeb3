"""The button box plays only while the table shows the game: real offscreen window, gpiozero mock pins."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from companion.session import Session
from tests.ui.conftest import advance, button_box, open_settings, tap, until

pytestmark = pytest.mark.usefixtures("undrawn")  # texts, sizes and states are read, never the window's pixels


def pumped(app: Any, done: Callable[[], bool]) -> bool:
    """Frames until ``done``: the app's own loop pumps what the button box queued, no sleeping."""
    for _ in range(200):
        if done():
            return True
        advance(1)
    return done()


def test_a_press_off_the_table_changes_no_game_nobody_is_looking_at(start: Any) -> None:
    """An undo pressed while the owner edited the settings took back a step on the game behind them."""
    session = Session.new("blackpool", ["yellow", "red"])
    session.act({"type": "roll", "value": 6})
    app = start(session)
    panel = button_box(app)
    settings = open_settings(app)
    assert app.root.current == "settings"
    assert panel.press("undo") and panel.press("next")
    assert pumped(app, lambda: "while the settings screen was open" in settings.ids.note.text)
    assert settings.ids.note.text.startswith("The button box plays only while the table shows: that press of ")
    assert app.root.current == "settings" and len(session.log) == 1  # refused, the owner's screen left alone
    assert "Leave it to play on." in app.status  # and the table's status line says it when it comes back

    app.show("home")
    advance()
    assert panel.press("undo")
    assert pumped(app, lambda: app.root.current == "table")  # a player's screen: the table comes back
    assert app.status == ("Back to the table: that press of undo was not taken, as the game was not on screen. "
                          "Press again to play.")
    assert len(session.log) == 1  # not taken: nobody saw what it would take back

    assert panel.press("undo")  # on the table, it plays as ever
    assert pumped(app, lambda: not session.log)
    assert app.announcements[0]["kind"] == "undo"


def test_a_game_played_on_the_button_box_alone_does_not_go_to_the_attract_screen(start: Any) -> None:
    """Only touches counted as someone at the table: the kiosk showed its attract screen mid-game."""
    session = Session.new("blackpool", ["yellow", "red"])
    app = start(session, kiosk=True)
    panel = button_box(app)
    app.show("table")
    app.idle.touched(app.clock() - 10 * app.idle.limit)  # nobody has touched the screen for long
    assert app.idle.expired(app.clock())
    assert app.status == "" and panel.press("next")
    assert pumped(app, lambda: bool(app.status))  # answered: the press reached the table
    assert not app.idle.expired(app.clock())
    app._check_idle(0)
    assert app.root.current == "table"


def test_the_menu_button_resting_pressed_is_said_held_on_the_settings_it_opened(start: Any) -> None:
    """Its hold opened the settings and then nothing: only confirm, undo and next said they seemed held."""
    session = Session.new("blackpool", ["yellow", "red"])
    app = start(session)
    panel = button_box(app)
    panel.buttons.hold_seconds, panel.buttons.stuck_seconds = 0.05, 0.15
    menu = panel.buttons.devices["menu"].pin
    menu.drive_low()  # a box leaning on it
    try:
        assert until(lambda: app.root.current == "settings")
        settings = app.root.get_screen("settings")
        assert until(lambda: "seems held" in settings.ids.note.text)
    finally:
        menu.drive_high()
    assert settings.ids.note.text.startswith("The menu button seems held down (is something resting on it?): its "
                                             "hold opened the settings once")
    assert app.root.current == "settings" and not session.log


def test_a_press_while_a_new_game_is_being_chosen_keeps_the_choices(start: Any) -> None:
    """With a game on the table, a press on home brought that table back mid-choice: the owner lost the new game's
    players and game, tapped a moment before."""
    session = Session.new("blackpool", ["yellow", "red"])
    session.act({"type": "roll", "value": 6})
    app = start(session)
    panel = button_box(app)
    app.show("home")
    advance()
    home = app.root.get_screen("home")
    game = next(b for b in home.ids.games.children if b.game_id == "temple")
    tap(game)
    advance()
    colours = {b.player: b for b in home.ids.colours.children}
    tap(colours["blue"])
    tap(colours["green"])
    advance()
    assert (home.chosen_game, home.players) == ("temple", ["blue", "green"])

    assert panel.press("undo") and panel.press("confirm")
    assert pumped(app, lambda: "while a new game was being chosen" in home.note)
    assert home.note == ("The button box plays only while the table shows: that press of confirm changed nothing "
                         "while a new game was being chosen. Resume goes back to the game; Start new game begins "
                         "the one chosen.")
    assert app.root.current == "home" and (home.chosen_game, home.players) == ("temple", ["blue", "green"])
    assert len(session.log) == 1 and app.status == ""  # the game left alone; the note is home's, not the table's

    home.start()  # the choice carries on where it was: Start asks once over the game on the table
    assert home.confirming == ("temple", ("blue", "green"))

    app.show("table")
    advance()
    app.show("home")  # opened afresh, nothing tapped yet: a press still brings the table back
    advance()
    assert panel.press("undo")
    assert pumped(app, lambda: app.root.current == "table")
    assert len(session.log) == 1
