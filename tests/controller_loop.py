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


def pump_until_done(controller: Controller, done: Callable[[], bool], said: list[Update]) -> None:
    """Run the controller's loop, keeping what it says in ``said``, until ``done()`` (a link's count reached),
    then once more, so that what the reading that got it there made the controller say is kept too."""
    for _ in range(400):  # ten seconds at most: a generous bound, nothing timed is asserted
        if done():
            said.extend(controller.pump())
            return
        said.extend(controller.wait_and_pump(0.025))
    raise AssertionError(f"the link never got there; it said {[u.text for u in said]}")
