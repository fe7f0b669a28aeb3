"""A person at the keyboard, for tests of referees that read their lines on a thread of their own."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable


def slow_typist(lines: Iterable[str], pause: float, echo: bool = False) -> Callable[[str], str]:
    """A stand-in for ``input``: each line a moment after the one before, to whichever reader waits first.

    With ``echo`` the line is printed after its prompt, as a terminal shows what was typed. The lines run
    out as the input ending does (EOFError).
    """
    typed = iter(lines)
    lock = threading.Lock()

    def typing(prompt: str = "") -> str:
        print(prompt, end="", flush=True)
        with lock:
            time.sleep(pause)
            try:
                line = next(typed)
            except StopIteration:
                raise EOFError from None
            if echo:
                print(line, flush=True)
            return line

    return typing
