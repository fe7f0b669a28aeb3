from __future__ import annotations

import queue
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from companion import registry
from companion.controller import Controller
from companion.observations import Update
from hardware.dice_sim import SimulatedSensor
from tests.core.race_game import Race


@pytest.fixture(autouse=True, scope="session")
def race_installed() -> None:
    registry.install(Race())


@pytest.fixture
def sensor(tmp_path: Path) -> Iterator[SimulatedSensor]:
    """A simulated dice tower on a real pty, behind a stable symlink like udev's by-id names."""
    sim = SimulatedSensor(tmp_path / "dice").plug()
    yield sim
    sim.unplug()


def pump_until(controller: Controller, wanted: Callable[[Update], bool], timeout: float = 10.0) -> list[Update]:
    """Run the controller's loop until an update satisfies ``wanted``; generous timeout, no timing asserts."""
    seen: list[Update] = []
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        for update in controller.wait_and_pump(0.05):
            seen.append(update)
            if wanted(update):
                return seen
    raise AssertionError(f"no wanted update within {timeout} s; saw {[(u.kind, u.text) for u in seen]}")


def until_link(up: bool) -> Callable[[Update], bool]:
    return lambda u: u.kind == "link" and u.detail.get("up") is up


def drain(q: queue.Queue) -> list:
    items = []
    while not q.empty():
        items.append(q.get_nowait())
    return items
