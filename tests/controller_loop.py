"""Driving a controller's loop from a test, for adapters whose readers run on their own threads."""

from __future__ import annotations

import time
from collections.abc import Callable

from companion.controller import Controller
from companion.observations import Update


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
