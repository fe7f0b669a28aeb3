"""A ``companion`` command run at a real pseudo-terminal, for Ctrl-C as a person at the keyboard gives it.

The command's standard input and output are the terminal (its controlling
terminal, in a session of its own), so Ctrl-C typed into it reaches the
command as the kernel's line discipline sends it: SIGINT to the foreground
process group, not a signal aimed at one process by the test. Standard error
goes to a file, to be read apart. A guard of 30 s ends a command that never
answers, so a fault hangs no run; no outcome depends on timing.
"""

from __future__ import annotations

import fcntl
import os
import pty
import select
import signal
import subprocess
import sys
import tempfile
import termios
import time
from pathlib import Path
from types import TracebackType

ROOT = Path(__file__).resolve().parents[1]
GUARD_SECONDS = 30.0
CTRL_C = b"\x03"
# Ctrl-C's SIGINT taken by a second thread, never by the main one: Python's flag is set (and its wake-up byte
# written) while the main thread's read goes on, uninterrupted. That is, every time, where a SIGINT landing
# between Python's last look for signals and the start of its read left a command (1 in about 90 tries).
SIGINT_ELSEWHERE = """\
import signal, threading
threading.Thread(target=threading.Event().wait, name="takes-sigint", daemon=True).start()
signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})  # the main thread's own; the thread above keeps it open
"""


class AtTerminal:
    """``python -m companion ARGS`` with a pty for stdin and stdout; used as a context manager."""

    def __init__(self, *args: str, env: dict[str, str] | None = None, before: str = "") -> None:
        """``before``: Python run in the command's process before the command starts (see `SIGINT_ELSEWHERE`)."""
        self.master, slave = pty.openpty()
        self.seen = ""
        self._err = tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace")  # noqa: SIM115 (closed on exit)
        run = ["-c", f"{before}\nimport runpy\nrunpy.run_module('companion', run_name='__main__')"] if before else \
            ["-m", "companion"]  # fmt: skip
        self.process = subprocess.Popen(
            [sys.executable, *run, *args], cwd=ROOT, env=env, stdin=slave, stdout=slave,
            stderr=self._err, preexec_fn=_own_terminal,
        )  # fmt: skip
        os.close(slave)

    def __enter__(self) -> AtTerminal:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        os.close(self.master)
        self._err.close()

    def read_until(self, marker: str) -> str:
        """What the command wrote (``\\r\\n`` read as ``\\n``) up to and including ``marker``."""
        deadline = time.monotonic() + GUARD_SECONDS
        while marker not in self.seen:
            left = deadline - time.monotonic()
            assert left > 0, f"no {marker!r} within {GUARD_SECONDS} s: {self.seen[-500:]!r}"
            ready, _, _ = select.select([self.master], [], [], left)
            if ready and not self._read_some():
                raise AssertionError(f"the output ended before {marker!r}: {self.seen[-500:]!r}")
        upto = self.seen.index(marker) + len(marker)
        said, self.seen = self.seen[:upto], self.seen[upto:]
        return said

    def type(self, text: str) -> None:
        os.write(self.master, text.encode())

    def ctrl_c(self) -> None:
        """Ctrl-C once the command waits for what is typed, as a person presses it.

        Typed the instant the command had written its answer, the key raced the command on its way into its
        read: a SIGINT landing after Python last looked for signals but before the read began set Python's
        flag and left the read blocked, so the command went on waiting (seen 1 in about 100 tries under
        load, the process asleep in its terminal read with no signal pending). That gap lasts microseconds
        for a person at the keyboard, so the test waits for the command to be asleep first. The referee no longer
        depends on that (`companion/interruptible.py`; `SIGINT_ELSEWHERE` puts every Ctrl-C in the gap).
        """
        self._wait_asleep()
        os.write(self.master, CTRL_C)

    def _wait_asleep(self) -> None:
        """Until every thread of the command sleeps, twice in a row 20 ms apart (Linux's /proc; elsewhere a pause)."""
        tasks = Path(f"/proc/{self.process.pid}/task")
        if not tasks.is_dir():
            time.sleep(0.5)
            return
        deadline, calm = time.monotonic() + GUARD_SECONDS, 0
        while calm < 2 and time.monotonic() < deadline:
            try:
                states = [(task / "stat").read_text().rsplit(")", 1)[1].split()[0] for task in tasks.iterdir()]
            except OSError:  # a thread ended while it was read, or the command did
                states = []
            calm = calm + 1 if states and all(state == "S" for state in states) else 0
            time.sleep(0.02)

    def finish(self) -> tuple[int, str, str]:
        """Wait for the command to end: its exit status, the rest of what it wrote, and its standard error."""
        deadline = time.monotonic() + GUARD_SECONDS
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                self.process.kill()
                raise AssertionError(f"still running after {GUARD_SECONDS} s: {self.seen[-500:]!r}")
            ready, _, _ = select.select([self.master], [], [], min(left, 0.2))
            if ready:
                if not self._read_some():
                    break
            elif self.process.poll() is not None:
                break
        code = self.process.wait(timeout=GUARD_SECONDS)
        self._err.seek(0)
        rest, self.seen = self.seen, ""
        return code, rest, self._err.read()

    def _read_some(self) -> bool:
        try:
            chunk = os.read(self.master, 4096)
        except OSError:  # EIO: every holder of the terminal's other end has closed it
            return False
        self.seen += chunk.decode(errors="replace").replace("\r\n", "\n")
        return bool(chunk)


def _own_terminal() -> None:
    """In the child: a session of its own whose controlling terminal is its stdin, and Ctrl-C's default action
    (a run started in the background ignores SIGINT, and its children would inherit that)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)
