"""Odd moments at a real table: double taps, the PIN pad asked twice, play on the button box alone,
the game moving on under an open dispute, a typed action nested too deep. None may crash or lose the game."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from kivy.base import EventLoop
from kivy.input import kivy_postproc_modules
from kivy.tests.common import UnitTestTouch

from companion.observations import DieRead
from companion.session import Session
from tests.ui.conftest import PIN, advance, button_box, tap, until


@pytest.fixture
def double_taps() -> Iterator[None]:
    """Kivy's double-tap detection, as `App.run` installs it for a real touchscreen (the tests' start skips it)."""
    module = kivy_postproc_modules["doubletap"]
    # Taps a few frames apart take longer than a finger's 0.25 s on a loaded machine: given more time, the
    # two taps are a double tap however slowly the frames between them are drawn.
    usual, module.double_tap_time = module.double_tap_time, 30.0
    EventLoop.add_postproc_module(module)
    yield
    EventLoop.remove_postproc_module(module)
    module.touches.clear()
    module.double_tap_time = usual


def real_tap(x: float, y: float) -> None:
    """A tap through the window's input queue, so the post-processing (double taps) sees it."""
    touch = UnitTestTouch(x, y)
    EventLoop._dispatch_input("begin", touch)
    advance(1)
    EventLoop._dispatch_input("end", touch)
    advance(1)


def test_a_double_tap_on_a_choice_takes_that_choice_alone(start: Any, double_taps: None) -> None:
    """The list was rebuilt under the finger, and the second tap took whatever now sat there."""
    session = Session.new("blackpool", ["yellow", "red"])
    app = start(session)
    table = app.root.get_screen("table")
    six = next(b for b in table.buttons() if b.text == "Oracle shows 6")
    x, y = six.to_window(*six.center)
    real_tap(x, y)
    real_tap(x, y)
    advance(3)
    assert session.log == [{"type": "roll", "value": 6}]
    later = next(b for b in table.buttons() if b.collide_point(*b.to_widget(x, y)))
    advance(20)  # a deliberate tap on the new list, later, is no double tap and still counts
    module = kivy_postproc_modules["doubletap"]
    module.touches.clear()
    real_tap(x, y)
    advance(3)
    assert len(session.log) == 2 and session.log[-1] == {k: v for k, v in later.action.items() if k != "text"}


def test_a_double_tap_that_wakes_the_attract_screen_takes_no_choice(start: Any, double_taps: None) -> None:
    """"Touch anywhere to continue", tapped twice, woke the table and took the choice under the second tap."""
    session = Session.new("blackpool", ["yellow", "red"])
    app = start(session, kiosk=True)
    four = next(b for b in app.root.get_screen("table").buttons() if b.text == "Oracle shows 4")
    x, y = four.to_window(*four.center)
    app.idle.last -= app.idle.limit + 1
    app._check_idle(0)
    advance(2)
    assert app.root.current == "attract"
    real_tap(x, y)
    real_tap(x, y)
    advance(3)
    assert app.root.current == "table" and session.log == []


def test_a_double_tap_on_start_over_a_game_in_play_only_asks(start: Any, double_taps: None) -> None:
    """Start over an unfinished game asks for a second tap; a double tap gave it at once, and the game in
    play was set aside before anyone could read the question."""
    from tests.ui.test_app import targi_picked_over_blackpool_in_play

    app, session, home = targi_picked_over_blackpool_in_play(start)
    kivy_postproc_modules["doubletap"].touches.clear()  # the colours tapped just before are no first tap
    x, y = home.ids.start.to_window(*home.ids.start.center)
    real_tap(x, y)
    real_tap(x, y)
    advance(3)
    assert app.controller.session is session and app.root.current == "home"
    assert "tap Start again" in home.ids.note.text
    advance(20)  # a deliberate second tap, later, is the answer
    kivy_postproc_modules["doubletap"].touches.clear()
    real_tap(x, y)
    advance(3)
    assert app.root.current == "table" and app.game_id == "targi"

@pytest.fixture
def clock_set_back(monkeypatch: pytest.MonkeyPatch) -> Callable[[float], None]:
    """``clock_set_back(seconds)``: the wall clock, Kivy's touch stamps included, jumps back (the owner sets it)."""
    import kivy.input.motionevent
    import kivy.input.postproc.doubletap

    def set_back(seconds: float) -> None:
        real = time.time
        wall = lambda: real() - seconds  # noqa: E731
        for module in (time, kivy.input.motionevent, kivy.input.postproc.doubletap):
            monkeypatch.setattr(module, "time", wall)

    return set_back


def test_a_double_tap_on_undo_after_the_clock_was_set_back_takes_back_two_steps(
    start: Any, double_taps: None, clock_set_back: Callable[[float], None]
) -> None:
    """The table held a touch's wall-clock stamp against the wall clock's time it came on screen: after the
    clock was set back an hour, each double tap lost its second tap for that hour (Undo, Undo undid one step)."""
    session = Session.new("blackpool", ["yellow", "red"])
    app = start(session)
    session.act({"type": "roll", "value": 6})
    app.controller.set_session(session)  # the two steps shown as play shows them
    session.act(session.legal()[0])
    app.controller.set_session(session)
    advance(3)
    table = app.root.get_screen("table")
    clock_set_back(3600)
    x, y = table.ids.undo.to_window(*table.ids.undo.center)
    real_tap(x, y)
    real_tap(x, y)
    advance(3)
    assert session.log == []


def test_the_pin_pad_asked_again_from_itself_cancels_to_the_screen_before(start: Any) -> None:
    """The button box's menu hold while the pad was up made Cancel return to the pad: no way back to the table."""
    app = start(Session.new("blackpool", ["yellow", "red"]), kiosk=True)
    app.request("settings")
    advance()
    app.request("settings")  # the menu button held while the pad is showing
    advance()
    assert app.root.current == "pin"
    tap(app.root.get_screen("pin").ids.cancel)
    assert app.root.current == "table"


def test_a_pin_longer_than_twelve_digits_still_opens_settings(start: Any) -> None:
    """The settings screen took a 16-digit PIN that the pad, stopping at 12 digits, could never take back."""
    app = start(Session.new("blackpool", ["yellow", "red"]), kiosk=True)
    pin = app.root.get_screen("pin")
    app.request("settings")
    advance()
    for key in [*PIN, "ok"]:
        pin.press(key)
    advance()
    settings = app.root.get_screen("settings")
    long_pin = "1234567890123456"
    settings.ids.pin.text = long_pin
    settings.save()
    assert app.settings.kiosk_pin == long_pin
    app.show("table")
    app.request("settings")
    advance()
    for key in [*long_pin, "ok"]:
        pin.press(key)
    advance()
    assert app.root.current == "settings"


def test_a_game_played_on_the_button_box_keeps_the_attract_screen_away(start: Any) -> None:
    """Only touches restarted the idle clock: every couple of minutes of play on the buttons, the attract
    screen covered the table, and the game went on behind it."""
    session = Session.new("blackpool", ["yellow", "red"])
    app = start(session, kiosk=True)
    app.controller.app_dice = random.Random(1)  # confirm rolls for the table, as the button box's own die
    panel = button_box(app)
    for steps in range(1, 4):
        app.idle.last -= app.idle.limit + 1  # the screen untouched for longer than the kiosk waits
        assert panel.press("confirm")
        until(lambda steps=steps: len(session.log) == steps)
        app._check_idle(0)
        assert len(session.log) == steps and app.root.current == "table"


def test_a_step_while_the_attract_screen_shows_brings_the_table_back(start: Any) -> None:
    session = Session.new("blackpool", ["yellow", "red"])
    app = start(session, kiosk=True)
    app.idle.last -= app.idle.limit + 1
    app._check_idle(0)
    assert app.root.current == "attract"
    app.controller.submit(DieRead(4, "camera", 0.95))
    until(lambda: bool(session.log))
    assert session.log == [{"type": "roll", "value": 4}] and app.root.current == "table"


def dispute_under_a_camera_roll(start: Any, typed: str = "") -> tuple[Any, Any]:
    """The app and its open dispute screen (``typed`` in its box) once a camera's 6 has been taken under it."""
    session = Session.new("blackpool", ["yellow", "red"])
    app = start(session)
    app.show("dispute")
    advance(3)
    dispute = app.root.get_screen("dispute")
    if typed:
        dispute.ids.typed.text = typed
    app.controller.submit(DieRead(6, "camera", 0.95))
    until(lambda: bool(session.log))
    advance(3)
    return app, dispute


def test_the_dispute_screen_follows_the_game_when_it_moves_on_under_it(start: Any) -> None:
    """A camera's roll taken while the dispute screen was open left its buttons and template on the roll."""
    app, dispute = dispute_under_a_camera_roll(start)
    offered = [b.action for b in reversed(dispute.ids.offered.children)]
    assert offered == app.choices and offered[0]["type"] != "roll"
    tap(dispute.ids.check)  # the template follows too: it checks as allowed now
    assert app.ruling["legal"] is True


def test_the_dispute_screen_keeps_an_action_being_typed_when_the_game_moves_on(start: Any) -> None:
    typed = '{"type": "move", "traveller": "red-1"}'
    _app, dispute = dispute_under_a_camera_roll(start, typed)
    assert dispute.ids.typed.text == typed


def test_an_action_typed_nested_too_deep_is_refused_not_raised(start: Any) -> None:
    """A thousand '[' (a held key) raised RecursionError out of the Check button, which closed the app."""
    session = Session.new("blackpool", ["yellow", "red"])
    app = start(session)
    app.show("dispute")
    advance(3)
    dispute = app.root.get_screen("dispute")
    dispute.ids.typed.text = "[" * 5000
    tap(dispute.ids.check)
    assert app.ruling["legal"] is False and "Not an action" in app.ruling["text"]
    assert session.log == [] and app.root.current == "dispute"
