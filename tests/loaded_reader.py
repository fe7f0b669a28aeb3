"""A pytest plugin that plays a loaded machine for the dice link's tests: ``-p tests.loaded_reader``.

A test that sets a link's clock (``clocked_link``, or ``link.clock = ...``)
waits for what the reader thread has done, then moves the clock on. On a busy
machine the reader can be descheduled anywhere, and a test that waited for
the wrong thing (a count taken before the reading it counts) failed now and
then, too rarely to be caught by running it again. Here the reader sleeps
before every reading of such a clock, so any such race fails every time:

    SDL_VIDEODRIVER=offscreen .venv/bin/python -m pytest -q -p no:xdist -p tests.loaded_reader tests/hardware

The real clock (``time.monotonic``) is left alone, so links a test does not
clock run as ever. Slower, never a part of the normal runs.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from hardware.dice_link import DiceLink

PAUSE = 0.15  # seconds the reader is held before each reading of a test's clock: several of the tests' 0.05 s polls

_setattr = DiceLink.__setattr__


def _descheduled(clock: Callable[[], float]) -> Callable[[], float]:
    def reading() -> float:
        if threading.current_thread() is not threading.main_thread():
            time.sleep(PAUSE)
        return clock()

    return reading


def _set(link: DiceLink, name: str, value: Any) -> None:
    if name == "clock" and value is not time.monotonic:
        value = _descheduled(value)
    _setattr(link, name, value)


DiceLink.__setattr__ = _set  # type: ignore[method-assign, assignment]
