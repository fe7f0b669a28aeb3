"""Spoken announcements through espeak-ng, on a worker thread so speech never blocks the screen."""

from __future__ import annotations

import queue
import shutil
import subprocess
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

Runner = Callable[[Sequence[str]], object]


def espeak_path() -> str | None:
    return shutil.which("espeak-ng")


def _run(cmd: Sequence[str]) -> object:
    return subprocess.run(list(cmd), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, timeout=60)


def render_wav(text: str, out: Path, speed: int = 150) -> Path:
    """Write speech to a WAV file: how tests (and a café without speakers) check the voice works."""
    binary = espeak_path()
    if binary is None:
        raise FileNotFoundError("espeak-ng is not installed")
    subprocess.run([binary, "-s", str(speed), "-w", str(out), text], check=True, capture_output=True, timeout=60)
    return out


class Voice:
    """A queue of sentences spoken one at a time; each event key is spoken at most once."""

    def __init__(self, enabled: bool = True, speed: int = 150, runner: Runner | None = None) -> None:
        self.binary = espeak_path()
        self.enabled = enabled
        self.speed = speed
        self.last = ""
        self._runner = runner or _run
        self._spoken: set[object] = set()
        self._queue: queue.Queue[str | None] = queue.Queue()
        self._thread: threading.Thread | None = None

    @property
    def available(self) -> bool:
        return self.binary is not None or self._runner is not _run

    def note(self) -> str:
        """What the settings screen says about speech."""
        if not self.available:
            return "espeak-ng is not installed: announcements are shown but not spoken (sudo apt install espeak-ng)."
        return "Speech through espeak-ng."

    def say(self, text: str, key: object = None) -> bool:
        """Queue ``text`` unless ``key`` was already spoken; returns whether it was queued."""
        if not text:
            return False
        if key is not None:
            if key in self._spoken:
                return False
            self._spoken.add(key)
        self.last = text
        return self._enqueue(text)

    def repeat_last(self) -> bool:
        return self._enqueue(self.last) if self.last else False

    def _enqueue(self, text: str) -> bool:
        if not (self.enabled and self.available):
            return False
        if self._thread is None:
            self._thread = threading.Thread(target=self._work, name="voice", daemon=True)
            self._thread.start()
        self._queue.put(text)
        return True

    def _work(self) -> None:
        while (text := self._queue.get()) is not None:
            try:
                self._runner([self.binary or "espeak-ng", "-s", str(self.speed), text])
            except Exception:  # a missing sound card must never stop the referee
                pass
            finally:
                self._queue.task_done()
        self._queue.task_done()

    def wait(self) -> None:
        """Block until everything queued was spoken (tests and shutdown)."""
        if self._thread is not None:
            self._queue.join()

    def stop(self) -> None:
        if self._thread is not None:
            self._queue.put(None)
            self._thread.join(timeout=5)
            self._thread = None
