"""Buttons and lights on gpiozero's mock pins, wired to a controller and a real session."""

from __future__ import annotations

import queue
from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from companion.controller import Controller
from companion.errors import InvalidData
from companion.observations import ButtonPressed, DieRead, Touch
from companion.session import Session
from hardware.panel import Panel
from hardware.pins import load_config

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
    cfg = load_config(Path("/nonexistent"))
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
        factory.pin(17).drive_low()  # confirm: take it
        factory.pin(17).drive_high()
        updates = controller.pump()
        assert [u.kind for u in updates] == ["select", "step"]
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
