"""Inputs switched at run time from the settings screen: a sensor that hangs must not freeze the table.

The dice sensor may be a network one (``socket://host:port``, a ser2net box);
one that does not answer holds its reader thread in connect() for pyserial's
5 s. A listening socket whose backlog is full stands in for it: connect() to
it neither succeeds nor fails until it times out.
"""

from __future__ import annotations

import contextlib
import select
import socket
import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.ui.conftest import open_settings, tap, until


def switch(screen: Any, name: str) -> Any:
    return next(b for b in screen.ids.inputs.children if b.source == name)


class SilentServer(str):
    """A ``socket://`` URL whose connect() hangs, and `close` to shut the server: a connect() under way then fails
    at its next retry (1 s, then 3 s after it began) instead of pyserial's 5 s timeout."""

    sockets: list[socket.socket]

    def close(self) -> None:
        for sock in self.sockets:
            sock.close()


@pytest.fixture
def silent_server() -> Iterator[SilentServer]:
    """A ``socket://`` URL whose connect() hangs: the server's accept queue is full and it never accepts."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(0)
    port = server.getsockname()[1]
    fillers = []
    for _ in range(3):
        filler = socket.socket()
        filler.setblocking(False)
        with contextlib.suppress(BlockingIOError):  # in progress: it only has to take a place in the queue
            filler.connect(("127.0.0.1", port))
        fillers.append(filler)
    # The first has its place once its connect() is done (at once on loopback): waited for, not slept on.
    assert select.select([], fillers[:1], [], 10)[1], "the server's queue never filled"
    url = SilentServer(f"socket://127.0.0.1:{port}")
    url.sockets = [*fillers, server]
    yield url
    url.close()


def save_timed(screen: Any) -> float:
    started = time.monotonic()
    tap(screen.ids.save)
    return time.monotonic() - started


def sensor_stuck_connecting(launch: Any, port: str) -> tuple[Any, Any]:
    """The app with its dice sensor switched on at ``port`` and its thread inside connect(), on the settings."""
    app = launch()
    screen = open_settings(app)
    screen.ids.serial_port.text = port
    tap(switch(screen, "serial"))
    tap(screen.ids.save)
    time.sleep(0.3)
    return app, screen


def test_switching_off_a_dice_sensor_that_hangs_in_connect_does_not_freeze_the_screen(
    launch: Any, silent_server: str
) -> None:
    app, screen = sensor_stuck_connecting(launch, silent_server)
    link = app.running_inputs["serial"][1]

    tap(switch(screen, "serial"))
    assert save_timed(screen) < 3.5  # 4.7 s before: Kivy's thread joined the link stuck in connect() for 5 s
    assert "serial" not in app.running_inputs and link._thread is None and app.inputs_note == ""


def test_a_dice_sensor_switched_away_from_does_not_report_on_the_one_that_replaced_it(
    launch: Any, silent_server: SilentServer
) -> None:
    app, screen = sensor_stuck_connecting(launch, silent_server)
    old_thread = app.running_inputs["serial"][1]._thread

    screen.ids.serial_port.text = "loop://"
    assert save_timed(screen) < 3.5  # not the 5 s the old link spends in connect()
    assert app.running_inputs["serial"][0] == "loop://"
    assert until(lambda: app.status == "Dice sensor connected.")  # "loop:// open" is the owner's, in the log
    # The old link's connect() fails, at the latest after 5 s; its "cannot open" must not mark the new one down.
    # Waited for its thread to end (a fixed 6 s before, most of it spent after the end on a quiet machine); the
    # server shut, its connect() is refused at its next retry, a second or three in, not 5 s.
    silent_server.close()
    old_thread.join(30)
    assert not old_thread.is_alive()
    until(lambda: False, 0.5)
    assert app.inputs_down == "" and app.inputs_note == "" and "cannot open" not in app.status


def test_quitting_with_two_dice_sensors_stuck_in_connect_waits_for_neither(launch: Any, silent_server: str) -> None:
    """Quitting tells every input to stop before waiting for any, and waits for them all together, briefly.

    Each link was stopped and joined in turn: the first joined held the exit
    until its connect() gave up (5 s), and the second, not yet told to stop,
    meanwhile failed, retried and sat in a fresh 5 s connect() for its own
    join: 9.0 s here with the second started a second after the first.
    """
    from ui import inputs

    app = launch()
    first = inputs.start(app.controller, "serial", silent_server)
    app.hardware.append(first)
    time.sleep(1.0)  # apart, as a table's sensors are: the first's connect() gives up while the second's is joined
    second = inputs.start(app.controller, "serial", silent_server)
    app.hardware.append(second)
    time.sleep(0.3)  # both threads inside connect()

    started = time.monotonic()
    app.dispatch("on_stop")
    took = time.monotonic() - started

    assert took < 3.0, f"quitting took {took:.1f} s"  # 0.5 s here: LINK_STOP_SECONDS, both links at once
    # Left to end on their own, they report nothing to a table that has gone.
    assert not first.submit.open and not second.submit.open
