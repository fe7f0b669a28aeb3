"""Buttons and lights on gpiozero's mock pins, wired to a controller and a real session."""

from __future__ import annotations

import queue
import threading
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero import Button, Buzzer, Device
from gpiozero.exc import BadPinFactory, PinFactoryFallback
from gpiozero.pins.mock import MockFactory

from companion.cli import main
from companion.controller import Controller
from companion.errors import InvalidData
from companion.journal import Journal
from companion.observations import ButtonPressed, DieRead, Touch
from companion.session import Session
from hardware.panel import HardwareUnavailable, Panel, make_pin_factory
from hardware.pins import load_config
from tests.hardware.conftest import drain

RGB = (5, 6, 13)


def config(tmp_path: Path, extra: str = "") -> dict:
    path = tmp_path / "hardware.toml"
    path.write_text("[buttons]\nbounce_ms = 0\nhold_seconds = 0.05\n" + extra, encoding="utf-8")
    return load_config(path)


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    pins = MockFactory()
    yield pins
    pins.close()


def lit(factory: MockFactory, pins=RGB) -> tuple[bool, ...]:
    return tuple(bool(factory.pin(n).state) for n in pins)


def test_defaults_are_documented_and_debounced() -> None:
    cfg = load_config()  # no wiring file in the test's data dir
    assert cfg["buttons"]["confirm"] == 17 and cfg["buttons"]["bounce_ms"] == 30
    pins = MockFactory()
    panel = Panel(cfg, lambda o: None, pins)
    try:
        assert panel.buttons.devices["confirm"].pin.bounce == pytest.approx(0.03)
    finally:
        panel.close()
        pins.close()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("[buttons\nconfirm = 17\n", "not a readable TOML file"),
        ("[buttons]\nconfim = 17\n", "buttons: unknown field 'confim'"),
        ('[buttons]\nundo = "27"\n', "buttons.undo: expected an integer, found text"),
        ("[buttons]\nnext = 40\n", "buttons.next: 40 is above the maximum 27"),
        ('[lights]\nmode = "rgbw"\n', "lights.mode: 'rgbw' is not one of"),
        ("[lights.colours]\nred = true\n", "lights.colours.red: expected an integer"),
        # One pin for two parts is named with both keys, a default not moved among them.
        ("[buttons]\nundo = 17\n", "buttons.undo and buttons.confirm are both GPIO17"),
        ("[buttons]\nconfirm = 22\n", "buttons.next and buttons.confirm are both GPIO22"),
        ("[buzzer]\npin = 5\n", "buzzer.pin and lights.red are both GPIO5"),
        ('[lights]\nmode = "per_colour"\n[lights.colours]\npink = 19\n', "colours.pink and lights.colours.yellow"),
        ("[lights.colours]\nRed = 6\nred = 7\n", "lights.colours.Red and lights.colours.red are one colour"),
        ("[lights]\nblue = 0\n", 'lights.blue: 0 leaves the channel out, but mode "rgb" needs all three'),
        # Else every hold of menu that opened the settings also said the button seemed stuck down.
        ("[buttons]\nstuck_seconds = 1.5\n",
         "buttons.stuck_seconds (1.5) must be longer than buttons.hold_seconds (2)"),
    ],
)
def test_a_broken_cafe_wiring_file_is_named_not_used(tmp_path: Path, text: str, expected: str) -> None:
    path = tmp_path / "hardware.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InvalidData) as refusal:
        load_config(path)
    assert str(path) in refusal.value.message and expected in refusal.value.message


def test_a_button_press_becomes_a_session_action(tmp_path: Path, factory: MockFactory) -> None:
    controller = Controller(Session.new("race", ["red", "blue"]))
    panel = Panel(config(tmp_path), controller.submit, factory)
    controller.add_output(panel.lights)
    try:
        controller.set_session(controller.session)
        assert lit(factory) == (True, False, False)  # red to roll
        controller.handle(DieRead(3, "serial"))
        factory.pin(22).drive_low()  # next: highlight "Hold"
        factory.pin(22).drive_high()
        assert [u.kind for u in controller.pump()] == ["select"]  # shown
        factory.pin(17).drive_low()  # confirm: take it
        factory.pin(17).drive_high()
        updates = controller.pump()
        assert [u.kind for u in updates] == ["step"]
        assert controller.session.log[-1] == {"type": "hold"}
        assert lit(factory) == (False, False, True)  # blue's turn now
        factory.pin(27).drive_low()  # undo
        factory.pin(27).drive_high()
        assert controller.pump()[0].kind == "undo" and controller.session.log == [{"type": "roll", "value": 3}]
    finally:
        panel.close()


def test_menu_tap_and_hold_for_settings(tmp_path: Path, factory: MockFactory) -> None:
    heard: queue.Queue = queue.Queue()
    panel = Panel(config(tmp_path), heard.put, factory)
    try:
        factory.pin(23).drive_low()
        factory.pin(23).drive_high()
        assert heard.get(timeout=5) == ButtonPressed("menu")
        factory.pin(23).drive_low()
        assert heard.get(timeout=5) == ButtonPressed("settings")  # held past hold_seconds
        factory.pin(23).drive_high()
        assert heard.empty()  # releasing after a hold is not also a tap
    finally:
        panel.close()


def test_a_penalty_flashes_then_shows_whose_turn(tmp_path: Path, factory: MockFactory) -> None:
    controller = Controller(Session.load("race", {"game": "race", "players": ["red", "blue"], "positions": [4, 0]}))
    extra = "[lights]\nflash_seconds = 0.01\n[buzzer]\npin = 12\n"
    panel = Panel(config(tmp_path, extra), controller.submit, factory)
    controller.add_output(panel.lights)
    try:
        controller.handle(DieRead(3, "serial"))
        update = controller.handle(Touch("act", {"type": "advance"}))  # 4 + 3 = the trap on 7
        assert any(e.kind == "penalty" for e in update.events)
        assert panel.lights.flash_done.wait(10)
        states = list(factory.pin(13).states)
        assert lit(factory) == (False, False, True)  # blue's turn, steady
        assert len(states) >= 6  # blue went off and on again for each flash
        controller.handle(Touch("act", {"type": "hold"}))  # refused: roll first -> a beep
        assert controller.session.document()["turn"] == 1
    finally:
        panel.close()


def test_one_led_per_colour(tmp_path: Path, factory: MockFactory) -> None:
    controller = Controller(Session.new("race", ["red", "blue"]))
    panel = Panel(config(tmp_path, '[lights]\nmode = "per_colour"\n'), controller.submit, factory)
    controller.add_output(panel.lights)
    try:
        controller.set_session(controller.session)
        assert lit(factory, (5, 13, 19)) == (True, False, False)
        controller.handle(DieRead(1, "serial"))
        controller.handle(Touch("act", {"type": "hold"}))
        assert lit(factory, (5, 13, 19)) == (False, True, False)
    finally:
        panel.close()


def test_a_colour_key_in_capitals_moves_the_players_led(tmp_path: Path, factory: MockFactory) -> None:
    controller = Controller(Session.new("race", ["red", "blue"]))
    wiring = '[lights]\nmode = "per_colour"\n[lights.colours]\nRed = 26\n'
    panel = Panel(config(tmp_path, wiring), controller.submit, factory)
    controller.add_output(panel.lights)
    try:
        controller.set_session(controller.session)
        assert lit(factory, (26, 5, 13)) == (True, False, False)  # red's turn lights the café's pin, not the default
    finally:
        panel.close()


def test_lights_of_another_mode_may_share_pins(tmp_path: Path) -> None:
    path = tmp_path / "hardware.toml"
    path.write_text('[lights]\nmode = "none"\n[buttons]\nconfirm = 5\n', encoding="utf-8")
    assert load_config(path)["buttons"]["confirm"] == 5  # the unused RGB channels do not count


def test_a_named_wiring_file_that_is_not_there_is_an_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(InvalidData, match=r"absent\.toml: no such wiring file"):
        load_config(tmp_path / "absent.toml")
    monkeypatch.setenv("COMPANION_HARDWARE_CONFIG", str(tmp_path / "typo.toml"))
    with pytest.raises(InvalidData, match=r"typo\.toml: no such wiring file"):
        load_config()


class Clock:
    """Edge times set by the test, so chatter is "within a few ms" on any machine, however loaded."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def edges(self, pin, levels: str, step: float = 0.0005) -> None:
        for level in levels:
            pin.drive_low() if level == "L" else pin.drive_high()
            self.now += step


def test_a_chattering_button_is_one_press(factory: MockFactory) -> None:
    heard: queue.Queue = queue.Queue()
    panel = Panel(load_config(), heard.put, factory)  # bounce_ms 30
    clock = panel.buttons.clock = Clock()
    confirm, nxt = factory.pin(17), factory.pin(22)
    try:
        clock.edges(confirm, "LHLHLHL")  # contact chatter on the way down, then held
        clock.now += 1.0
        clock.edges(confirm, "HLHLH")  # and on the way up, after a long hold
        clock.now += 0.2
        clock.edges(nxt, "L")  # two buttons at once: next goes down, confirm too, both let go
        clock.edges(confirm, "L")
        clock.now += 0.1
        clock.edges(nxt, "H")
        clock.edges(confirm, "H")
        assert [o.intent for o in drain(heard)] == ["confirm", "next", "confirm"]
    finally:
        panel.close()


def test_menu_chatter_is_one_tap_and_a_hold_is_only_settings(factory: MockFactory) -> None:
    heard: queue.Queue = queue.Queue()
    for hold_seconds in (30, 0.05):  # 30: no hold can fire during the tap, however slow the machine
        wiring = load_config()
        wiring["buttons"]["hold_seconds"] = hold_seconds
        panel = Panel(wiring, heard.put, factory)
        clock = panel.buttons.clock = Clock()
        menu = factory.pin(23)
        try:
            if hold_seconds == 30:
                clock.edges(menu, "LHLHL")
                clock.now += 0.1  # a tap: longer than the chatter, shorter than the hold
                clock.edges(menu, "HLH")
                assert [o.intent for o in drain(heard)] == ["menu"]
            else:
                menu.drive_low()
                assert heard.get(timeout=5) == ButtonPressed("settings")
                clock.now += 1.0
                clock.edges(menu, "HLHLH")  # a bouncing release after the hold is not also a tap
                assert heard.empty()
        finally:
            panel.close()


def test_press_settings_from_the_keyboard_holds_the_menu_button(tmp_path: Path, factory: MockFactory) -> None:
    heard: queue.Queue = queue.Queue()
    panel = Panel(config(tmp_path), heard.put, factory)
    try:
        assert panel.press("settings")
        assert drain(heard) == [ButtonPressed("settings")]  # not the menu a quick tap opens
        assert panel.press("menu")
        assert drain(heard) == [ButtonPressed("menu")]
    finally:
        panel.close()


def test_a_pin_held_by_something_else_is_named_and_nothing_stays_reserved(factory: MockFactory) -> None:
    other = Button(27, pin_factory=factory)  # another program's device on the undo pin
    with pytest.raises(HardwareUnavailable, match=r"buttons\.undo \(GPIO27\) cannot be used: .*in use"):
        Panel(load_config(), lambda o: None, factory)
    other.close()
    buzzer = Buzzer(12, pin_factory=factory)
    with pytest.raises(HardwareUnavailable, match=r"buzzer\.pin \(GPIO12\)"):
        Panel({**load_config(), "buzzer": {"pin": 12}}, lambda o: None, factory)
    buzzer.close()
    Panel(load_config(), lambda o: None, factory).close()  # confirm and the RGB pins were let go each time


@pytest.fixture
def no_gpio(monkeypatch: pytest.MonkeyPatch) -> None:
    """gpiozero off a Pi, on any machine: every driver falls back, then none is left."""

    def default_pin_factory() -> None:
        warnings.warn(PinFactoryFallback("Falling back from lgpio: No module named 'lgpio'"), stacklevel=1)
        raise BadPinFactory("Unable to load any default pin factory!")

    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setattr(Device, "_default_pin_factory", staticmethod(default_pin_factory))


@pytest.mark.usefixtures("no_gpio")
def test_no_gpio_here_is_one_clear_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(HardwareUnavailable) as refusal:
        make_pin_factory("gpio")
    assert "no GPIO pins on this machine (lgpio: No module named 'lgpio')" in refusal.value.message
    assert refusal.value.message.endswith("off the Pi use --buttons mock")
    code = main(["hw", "play", "--game", "race", "--players", "red,blue", "--new", "--buttons", "gpio"])
    assert code == 1 and "companion: no GPIO pins on this machine" in capsys.readouterr().err


@pytest.mark.usefixtures("no_gpio")
def test_the_self_test_without_gpio_still_checks_the_sensor(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hw", "test", "--dwell", "0", "--dice-sensor", "/nonexistent"]) == 1
    out = capsys.readouterr().out
    assert "Lights and buttons: cannot start - no GPIO pins" in out
    assert "/nonexistent: cannot open" in out and "2 problem(s) found." in out


def test_next_while_a_roll_is_awaited_does_not_offer_what_confirm_will_not_take(
    tmp_path: Path, factory: MockFactory
) -> None:
    """Confirm takes a highlighted choice only; a die face lit as "confirm takes it" would be a broken promise."""
    controller = Controller(Session.new("race", ["red", "blue"]))
    panel = Panel(config(tmp_path), controller.submit, factory)
    try:
        assert panel.press("next") and panel.press("confirm")
        updates = controller.pump()
        assert [(u.kind, u.text) for u in updates] == [("info", "red: roll the die.")] * 2
        assert controller.session.log == []
    finally:
        panel.close()


def test_next_while_a_reading_waits_for_its_tap_says_confirm_takes_the_reading(
    tmp_path: Path, factory: MockFactory
) -> None:
    """With a card read unsure waiting for its tap, next lit 'slot 2: ... confirm to open', and confirm then
    took the waiting card instead: the button box said one thing and did another."""
    import random

    from companion.observations import CardsSeen

    session = Session.new("temple", ["red", "blue"])
    rng = random.Random(3)
    while not (session.pending().kind == "choose" and any(a["type"] == "change" for a in session.legal())):
        session.act(session.game.sim_choose(session.state, session.legal(), rng))
    change = next(a for a in session.legal() if a["type"] == "change")
    controller = Controller(session)
    panel = Panel(config(tmp_path), controller.submit, factory)
    try:
        controller.handle(CardsSeen({change["slot"]: change["card"]}, "camera", confidence=0.5))
        assert panel.press("next")
        [update] = controller.pump()
        assert update.kind == "info" and "select" not in {u.kind for u in [update]}
        assert "confirm takes it, undo drops it" in update.text and f"card {change['card']}" in update.text
        assert panel.press("confirm")
        [step] = controller.pump()
        assert step.kind == "step" and step.action == {"type": "change", "slot": change["slot"], "card": change["card"]}
    finally:
        panel.close()


def test_a_wiring_file_saved_with_a_byte_order_mark_is_read(tmp_path: Path) -> None:
    """Notepad saves UTF-8 with a byte-order mark; the file looked right and was refused as "Invalid statement
    (at line 1, column 1)", so the button box did not start."""
    path = tmp_path / "hardware.toml"
    path.write_text("\ufeff[buttons]\nconfirm = 4\n", encoding="utf-8")
    assert load_config(path)["buttons"]["confirm"] == 4


def test_the_self_test_names_a_button_pressed_instead_of_the_one_asked(factory: MockFactory) -> None:
    """Confirm and undo wired to each other's pins: each press was swallowed while the other was waited for,
    and both were reported "NOT PRESSED within 0 s" (a --timeout of 0.3) as if the buttons were dead."""
    from hardware.selftest import self_test

    said: list[str] = []

    def say(text: str) -> None:
        said.append(text)
        if text.startswith("  press confirm"):  # the tester presses the button labelled confirm: undo's pin
            factory.pin(27).drive_low()
            factory.pin(27).drive_high()

    self_test(load_config(), lambda: factory, ["/nonexistent"], say=say, timeout=0.3, dwell=0)
    assert ("  confirm: NOT PRESSED within 0.3 s; undo (GPIO27, header pin 13) was pressed instead: are their wires "
            "swapped?") in said
    assert ("  undo: NOT PRESSED within 0.3 s - check the wiring: the switch goes between header pin 13 (GPIO27) and "
            "a ground pin (GND, e.g. header pin 14), not 3.3 V") in said  # its press came too early, and is said


def test_the_simulated_button_box_forgets_its_lights_past_changes(tmp_path: Path) -> None:
    """The kiosk runs the simulated box unless told --buttons gpio, and gpiozero's mock pins keep every change
    they made: each turn's light added one to a list never emptied (about 250 a game, for as long as the kiosk
    ran). The simulated box keeps only the latest few."""
    pins = make_pin_factory("mock")
    controller = Controller(Session.new("race", ["red", "blue"]))
    panel = Panel(config(tmp_path), controller.submit, pins)
    controller.add_output(panel.lights)
    try:
        for turn in range(2000):
            panel.lights.show(("red", "blue")[turn % 2])
        assert lit(pins) == (False, False, True)  # blue's turn, shown as ever
        held = {number: len(pins.pin(number).states) for number in RGB}
        assert max(held.values()) <= 64, f"states kept per light pin after 2000 turns: {held}"
    finally:
        panel.close()
        pins.close()


def test_a_button_box_started_on_a_resumed_game_lights_whose_turn_it_is() -> None:
    """The lights heard only updates, and a game resumed at start-up (or the box switched on from the settings
    screen mid-game) published none: the box stayed dark while blue was to play, until someone moved."""
    from ui import inputs

    resumed = {"game": "race", "players": ["red", "blue"], "positions": [0, 0], "turn": 1}
    controller = Controller(Session.load("race", resumed))
    panel = inputs.start(controller, "buttons", "mock")
    try:
        assert lit(panel.pin_factory) == (False, False, True)  # blue's turn, before any move
        controller.handle(DieRead(2, "serial"))
        controller.handle(Touch("act", {"type": "hold"}))
        assert lit(panel.pin_factory) == (True, False, False)  # and it follows the game as before
    finally:
        inputs.stop(controller, panel)
    controller = Controller()  # no game yet: dark, and lit once one begins
    panel = inputs.start(controller, "buttons", "mock")
    try:
        assert lit(panel.pin_factory) == (False, False, False)
        controller.set_session(Session.new("race", ["red", "blue"]))
        assert lit(panel.pin_factory) == (True, False, False)
    finally:
        inputs.stop(controller, panel)


def test_next_and_confirm_pressed_together_take_no_choice_nobody_saw(tmp_path: Path, factory: MockFactory) -> None:
    """Both reached the controller before the screen redrew (a palm across the box, or confirm pressed as next
    was): confirm took the choice next had just lit, which no one had seen or heard."""
    controller = Controller(Session.new("race", ["red", "blue"]))
    panel = Panel(config(tmp_path), controller.submit, factory)
    try:
        controller.handle(DieRead(3, "serial"))
        first = controller.session.legal()[0]["text"]
        for pin in (22, 17):  # next, confirm: in one pump of the table's loop
            factory.pin(pin).drive_low()
            factory.pin(pin).drive_high()
        lit, press = controller.pump()
        assert lit.kind == "select" and lit.text != first and press.kind == "refused"
        assert press.text.startswith(f"This press of 'confirm' was not taken: the button box lit {lit.text!r} just")
        assert controller.session.log == [{"type": "roll", "value": 3}]
        factory.pin(17).drive_low()  # seen now: confirm takes it
        factory.pin(17).drive_high()
        [step] = controller.pump()
        assert step.kind == "step" and controller.session.log[-1] == {"type": "hold"}
    finally:
        panel.close()


def test_buttons_held_down_for_minutes_are_one_press_each_and_the_others_still_work(factory: MockFactory) -> None:
    """Something resting on confirm all afternoon, and the menu button held through a long pause."""
    heard: queue.Queue = queue.Queue()
    wiring = load_config()
    wiring["buttons"]["hold_seconds"] = 0.05
    panel = Panel(wiring, heard.put, factory)
    clock = panel.buttons.clock = Clock()
    confirm, undo, menu = factory.pin(17), factory.pin(27), factory.pin(23)
    try:
        clock.edges(confirm, "L")
        assert heard.get(timeout=5) == ButtonPressed("confirm")  # taken as it goes down, once
        menu.drive_low()
        assert heard.get(timeout=5) == ButtonPressed("settings")
        for _ in range(3):  # minutes pass; undo is tapped now and then
            clock.now += 120
            clock.edges(undo, "L")
            clock.now += 0.1
            clock.edges(undo, "H")
        threading.Event().wait(0.3)  # many hold times over: the menu hold is not said again
        clock.now += 120
        clock.edges(confirm, "HLH")  # let go at last, with a bounce
        clock.edges(menu, "H")
        assert [o.intent for o in drain(heard)] == ["undo", "undo", "undo"]
    finally:
        panel.close()


def test_a_button_resting_pressed_is_said_held_once_and_changes_nothing(factory: MockFactory) -> None:
    """A cup on confirm was one press and then silence: the table could not tell why the button seemed dead."""
    wiring = load_config()
    wiring["buttons"]["stuck_seconds"] = 0.05
    controller = Controller(Session.new("race", ["red", "blue"]))
    heard: queue.Queue = queue.Queue()
    panel = Panel(wiring, heard.put, factory)
    confirm = factory.pin(17)
    try:
        confirm.drive_low()
        assert heard.get(timeout=5) == ButtonPressed("confirm")
        held = heard.get(timeout=5)
        assert held == ButtonPressed("held confirm")
        threading.Event().wait(0.3)  # many stuck times over: said once per hold
        assert heard.empty()
        update = controller.handle(held)
        assert update.kind == "info" and update.detail == {"held": "confirm"}
        assert update.text.startswith("The confirm button seems held down (is something resting on it?)")
        assert controller.session.log == []  # nothing taken
        assert Controller().handle(held).kind == "info"  # said with no game on the table too
    finally:
        panel.close()


def test_the_menu_button_resting_pressed_opens_the_settings_then_is_said_held_once(factory: MockFactory) -> None:
    """Confirm, undo and next said they seemed held after stuck_seconds; the menu button only opened the settings."""
    wiring = load_config()
    wiring["buttons"].update(hold_seconds=0.05, stuck_seconds=0.15)
    controller = Controller(Session.new("race", ["red", "blue"]))
    heard: queue.Queue = queue.Queue()
    panel = Panel(wiring, heard.put, factory)
    menu = factory.pin(23)
    try:
        for _ in range(2):  # and again on the next hold: each hold starts over
            menu.drive_low()
            assert heard.get(timeout=5) == ButtonPressed("settings")  # its hold, as ever
            held = heard.get(timeout=5)
            assert held == ButtonPressed("held menu")
            threading.Event().wait(0.4)  # many stuck times over: said once per hold
            menu.drive_high()
            threading.Event().wait(0.05)
            assert heard.empty()
        update = controller.handle(held)
        assert update.kind == "info" and update.detail == {"held": "menu"}
        assert update.text.startswith("The menu button seems held down (is something resting on it?): its hold "
                                      "opened the settings once, and it does nothing more until it is let go.")
        assert controller.session.log == []
    finally:
        panel.close()


DEFAULT_LEDS = ("red", "green", "blue", "yellow")


def test_every_player_colour_of_every_game_has_a_signal_of_its_own() -> None:
    """One LED per colour left the desert race's teal, brown, grey, pink, purple and black dark; the RGB LED
    showed black, grey, brown and teal all as white, and purple and pink alike."""
    from companion.registry import game_classes
    from hardware.signals import RGB_LIGHTS, assign

    for game in game_classes().values():
        for lights in (RGB_LIGHTS, DEFAULT_LEDS, ("red", "blue")):
            signals = assign(game.colours, lights)
            assert set(signals) == set(game.colours), (game.id, lights)
            if len(game.colours) <= 3 * len(lights):  # steady, blink and wink on each light
                assert len(set(signals.values())) == len(game.colours), (game.id, lights, signals)


def wait_for_changes(pin, count: int = 4) -> bool:
    """Until a blinking pin has gone on and off a few times (no timing asserted: only that it does).

    Four changes of a 0.5 s blink take 1.5 s; the bound (20 s at least) is only for a pin that never blinks, so a
    loaded machine's slow blink thread does not fail it (5 s before, little more than three times what it waits).
    """
    for _ in range(400):
        if len(pin.states) >= count:
            return True
        threading.Event().wait(0.05)
    return False


def test_a_colour_without_its_own_led_blinks_the_nearest_one(tmp_path: Path, factory: MockFactory) -> None:
    players = ["teal", "pink", "black"]
    controller = Controller(Session.new("desert", players))
    panel = Panel(config(tmp_path, '[lights]\nmode = "per_colour"\n'), controller.submit, factory)
    try:
        panel.lights.follow(controller)
        assert panel.lights.shown == ("green", "blink")  # teal to move: the green LED, blinking
        green = factory.pin(6)
        green.clear_states()
        assert wait_for_changes(green)
        assert lit(factory, (5, 13, 19)) == (False, False, False)
        for colour, expected in (("pink", ("red", "blink")), ("black", ("blue", "wink"))):
            panel.lights.show(colour)
            assert panel.lights.shown == expected, colour
        panel.lights.show("teal")
        assert panel.lights.shown == ("green", "blink")
        panel.lights.show(None)
        assert lit(factory, (5, 6, 13, 19)) == (False,) * 4 and panel.lights.shown is None
    finally:
        panel.close()


def test_the_rgb_led_tells_the_desert_colours_apart(tmp_path: Path, factory: MockFactory) -> None:
    controller = Controller(Session.new("desert", ["black", "purple", "pink", "brown", "grey", "teal"]))
    panel = Panel(config(tmp_path), controller.submit, factory)
    try:
        panel.lights.follow(controller)
        shown = {}
        for colour in ("black", "purple", "pink", "brown", "grey", "teal"):
            panel.lights.show(colour)
            shown[colour] = panel.lights.shown
        assert shown == {"black": ("white", "wink"), "purple": ("magenta", "steady"), "pink": ("magenta", "blink"),
                         "brown": ("red", "blink"), "grey": ("white", "blink"), "teal": ("cyan", "steady")}
        panel.lights.show("teal")
        assert lit(factory) == (False, True, True)  # green and blue: cyan, no longer white
        panel.lights.show("grey")
        red = factory.pin(5)
        red.clear_states()
        assert wait_for_changes(red)  # white, blinking
    finally:
        panel.close()


def test_the_self_test_does_not_name_a_button_resting_pressed_as_another_pressed(factory: MockFactory) -> None:
    """Confirm left down (a cup on it) was named at each later button as pressed instead: 'wires swapped?'."""
    from hardware.selftest import self_test

    wiring = load_config()
    wiring["buttons"]["stuck_seconds"] = 0.05
    said: list[str] = []

    def say(text: str) -> None:
        said.append(text)
        if text.startswith("  press confirm"):
            factory.pin(17).drive_low()  # and left down

    # Each button not pressed waits out the timeout; the hold is said after 0.05 s, well inside undo's 0.3 s.
    self_test(wiring, lambda: factory, ["/nonexistent"], say=say, timeout=0.3, dwell=0)
    assert "  confirm: ok" in said
    assert "  undo: NOT PRESSED within 0.3 s - check the wiring: the switch goes between header pin 13" in (
        "\n".join(said))
    assert not [line for line in said if "instead" in line], said


def test_a_blinking_player_keeps_its_rhythm_through_updates_that_do_not_change_it(
    tmp_path: Path, factory: MockFactory
) -> None:
    """Every update started the blink again from its "on": teal's light looked irregular while moves came quickly.

    gpiozero's blink runs on its own thread with the real clock, so what is checked is that the blink is not
    restarted: the same thread keeps running through updates for the same player.
    """
    players = ["teal", "pink", "black"]
    controller = Controller(Session.new("desert", players))
    panel = Panel(config(tmp_path, '[lights]\nmode = "per_colour"\n'), controller.submit, factory)
    try:
        panel.lights.follow(controller)
        green = panel.lights.leds["green"]
        blinking = green._blink_thread
        assert panel.lights.shown == ("green", "blink") and blinking is not None
        for _ in range(5):  # a press that changes no turn, a refusal: each an update lighting teal's turn again
            assert controller.handle(ButtonPressed("next")).pending.player == "teal"
            assert controller.handle(DieRead(9, "sensor")).kind in ("refused", "unapplied")
        assert green._blink_thread is blinking and blinking.is_alive()
        panel.lights.show("pink")  # another signal does change it
        assert green._blink_thread is None and panel.lights.shown == ("red", "blink")
        panel.lights.show("teal")
        assert green._blink_thread is not None and green._blink_thread is not blinking
    finally:
        panel.close()


@pytest.mark.usefixtures("no_gpio")
def test_no_gpio_is_refused_before_the_game_in_progress_is_resumed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`hw play --buttons gpio` off a Pi said "Resuming the Blackpool game in progress" and only then refused."""
    journal = tmp_path / "journal.sqlite3"
    kept = Journal(journal)
    Session.new("race", ["red", "blue"], journal=kept)
    kept.close()
    code = main(["hw", "play", "--journal", str(journal), "--buttons", "gpio"])
    out, err = capsys.readouterr()
    assert code == 1 and "companion: no GPIO pins on this machine" in err
    assert "Resuming" not in out and out == ""


def grounded_factory(*names: str) -> MockFactory:
    """Mock pins where ``names`` (GPIO17...) read low from the start: a switch closed before the box opened its pin.

    gpiozero's mock pin goes high as its pull-up is set, as an open switch would; a closed one holds it low.
    """
    from gpiozero.pins.mock import MockPin

    class Grounded(MockPin):
        def _set_pull(self, value: str) -> None:
            super()._set_pull(value)
            if self.info.name in names:
                self._change_state(False)  # no edge: the line was low before anyone listened

    return MockFactory(pin_class=Grounded)


def test_a_button_down_when_the_box_starts_is_said_once_and_changes_nothing() -> None:
    """A cup on confirm at power-up, or a normally-closed switch: gpiozero tells changes only, so the button
    fired nothing, not even its 'seems held', and looked dead with no word; a normally-closed one then took its
    press when let go."""
    pins = grounded_factory("GPIO17")
    wiring = load_config()
    wiring["buttons"]["stuck_seconds"] = 0.05
    controller = Controller(Session.new("race", ["red", "blue"]))
    heard: queue.Queue = queue.Queue()
    panel = Panel(wiring, heard.put, pins)
    clock = panel.buttons.clock = Clock()
    try:
        down = heard.get(timeout=5)
        assert down == ButtonPressed("down confirm")
        update = controller.handle(down)
        assert update.kind == "info" and update.detail == {"held": "confirm", "at_start": True}
        assert update.text.startswith("The confirm button was already down when the button box started (is "
                                      "something resting on it, or is it wired the wrong way round?): that is "
                                      "not taken as a press, and it works once it is let go.")
        assert Controller().handle(down).kind == "info"  # said with no game on the table too
        clock.now += 1.0
        clock.edges(pins.pin(17), "H")  # the cup lifted: no press
        clock.now += 1.0
        clock.edges(pins.pin(17), "L")  # then a real press
        assert heard.get(timeout=5) == ButtonPressed("confirm")
        assert heard.empty() and controller.session.log == []
    finally:
        panel.close()
        pins.close()


def test_the_self_test_names_a_button_down_before_it_is_asked_for_and_where_each_pin_is() -> None:
    """A button down from the start waited out its timeout as 'NOT PRESSED - check the wiring' (a normally-closed
    switch even passed: its let-go is a press); and the check named BCM numbers only, which are not the header's."""
    from hardware.selftest import self_test

    pins = grounded_factory("GPIO27")
    said: list[str] = []
    try:
        code = self_test(load_config(), lambda: pins, ["/nonexistent"], say=said.append, timeout=0.3, dwell=0,
                         auto_press=True)
    finally:
        pins.close()
    assert code == 1
    assert ("  undo (GPIO27, header pin 13): reads PRESSED before anyone pressed it - is something resting on "
            "it? Otherwise its switch is normally closed") in "\n".join(said)
    assert not [line for line in said if line.startswith(("  press undo", "  undo: NOT"))], said
    assert "  press confirm (GPIO17, header pin 11) ..." in said and "  confirm: ok" in said
    assert "  light: RGB LED red (GPIO5, header pin 29)" in said
    assert "2 problem(s) found." in said  # the undo button and the missing sensor


def test_the_header_table_in_the_docs_matches_the_default_pins_and_the_board() -> None:
    """The wiring table an installer follows: each row's GPIO is pins.toml's default for its key, its header pin
    is where gpiozero's layout of the board puts that GPIO, and its ground is a ground pin; every default part
    has a row."""
    import re

    from hardware.selftest import nearest_ground

    docs = (Path(__file__).parents[2] / "docs" / "hardware.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| [^|]+ \| `([a-z.]+)` \| (\d+) \| (\d+) \| (\d+) \|$", docs, re.MULTILINE)
    defaults = load_config()
    pins = MockFactory()
    try:
        header = pins.board_info.headers["J8"].pins
        for key, gpio, place, ground in rows:
            section, *rest = key.split(".")
            value = defaults[section]
            for part in rest:
                value = value[part]
            assert value == int(gpio), key
            assert header[int(place)].name == f"GPIO{gpio}", key
            assert header[int(ground)].name == "GND", key
            assert nearest_ground(pins, int(place)) == int(ground), key  # as hw test names it
    finally:
        pins.close()
    wired = {f"buttons.{b}" for b in ("confirm", "undo", "next", "menu")} | {f"lights.{c}" for c in RGB_NAMES}
    wired |= {f"lights.colours.{c}" for c in defaults["lights"]["colours"] if c not in RGB_NAMES}
    assert {row[0] for row in rows} == wired
    assert all(defaults["lights"]["colours"][c] == defaults["lights"][c] for c in RGB_NAMES)  # as the docs say


RGB_NAMES = ("red", "green", "blue")


def test_a_common_anode_rgb_led_lights_whose_turn_it_is_in_its_own_colour(tmp_path: Path, factory: MockFactory) -> None:
    """Common-anode RGB LEDs are sold beside common-cathode ones; driven as the other kind it showed cyan for red
    and white when it should be dark, and the wiring file had no way to say which kind was fitted."""
    controller = Controller(Session.new("race", ["red", "blue"]))
    panel = Panel(config(tmp_path, '[lights]\ncommon = "anode"\n'), controller.submit, factory)
    try:
        panel.lights.follow(controller)
        assert lit(factory) == (False, True, True)  # red's turn: only the red channel's pin pulled low
        panel.lights.show(None)
        assert lit(factory) == (True, True, True)  # dark: every channel's pin high, as the common leg is
    finally:
        panel.close()
    with pytest.raises(InvalidData, match=r"lights\.common: 'anod' is not one of 'cathode', 'anode'; is it 'anode'\?"):
        config(tmp_path, '[lights]\ncommon = "anod"\n')
