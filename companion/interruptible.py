"""Standard input whose blocking reads a Ctrl-C always ends, for the referee's protocol lines.

Python runs its SIGINT handler between bytecodes, not inside the C signal
handler. A Ctrl-C landing after the interpreter last looked for signals and
before the read() system call began only set Python's flag: the read then
blocked with nothing left to interrupt it, and the referee went on waiting
until the next line came (1 in about 90 tries under load). Here the signal
also writes a byte to a pipe (``signal.set_wakeup_fd``), and every read of the
input first waits in select() on the input and that pipe together, so a
signal that came before the wait still ends it.

The input is read through a ``BufferedReader`` of its own, so lines that
arrive in one piece are all handed on before the next wait, and end of input
reads as it always did. `play` needs none of this: it wakes every 0.5 s.
This is the one IO module of its kind; the protocol (``protocol.serve``)
reads whatever stream it is given.
"""

from __future__ import annotations

import io
import os
import select
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import BinaryIO


class _WakeableInput(io.RawIOBase):
    """A file descriptor read only once select() says it is readable, or a signal's byte has arrived."""

    def __init__(self, fd: int, wake: int) -> None:
        super().__init__()
        self._fd = fd
        self._wake = wake

    def readable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self._fd

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        while True:
            ready, _, _ = select.select([self._fd, self._wake], [], [])
            if self._wake in ready:
                # A signal came; its Python handler runs at this loop's next turn, before the next select(),
                # and raises KeyboardInterrupt for a Ctrl-C. Any other handler returns and the wait goes on.
                _drain(self._wake)
                continue
            try:
                data = os.read(self._fd, len(buffer))
            except BlockingIOError:  # an input left non-blocking by whoever shares it, and another took the bytes
                continue
            buffer[: len(data)] = data
            return len(data)


def _drain(fd: int) -> None:
    try:
        while os.read(fd, 512):
            pass
    except BlockingIOError:
        pass


def _wakeable_fd(stream: BinaryIO) -> int | None:
    """The stream's file descriptor, if its reads can be made wakeable here (POSIX, the main thread)."""
    if sys.platform == "win32" or threading.current_thread() is not threading.main_thread():
        return None  # Windows' select() takes sockets only; only the main thread may set the wake-up pipe
    try:
        return stream.fileno()
    except (OSError, ValueError, AttributeError):  # an in-memory stream (tests), or one closed
        return None


@contextmanager
def interruptible_input(stream: BinaryIO) -> Iterator[BinaryIO]:
    """``stream`` read so that Ctrl-C ends a read however it lands; ``stream`` itself where that cannot be done.

    ``stream`` must not have been read from yet (the referee hands over stdin untouched): bytes its own
    buffer held would not be seen by the reader yielded here, which reads its file descriptor directly.
    """
    fd = _wakeable_fd(stream)
    if fd is None:
        yield stream
        return
    wake, wake_in = os.pipe()
    os.set_blocking(wake, False)
    os.set_blocking(wake_in, False)
    try:
        previous = signal.set_wakeup_fd(wake_in, warn_on_full_buffer=False)
    except ValueError:  # not the main interpreter's main thread after all
        os.close(wake)
        os.close(wake_in)
        yield stream
        return
    try:
        yield io.BufferedReader(_WakeableInput(fd, wake))
    finally:
        signal.set_wakeup_fd(previous)
        os.close(wake)
        os.close(wake_in)
