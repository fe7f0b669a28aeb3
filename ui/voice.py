"""Spoken announcements through espeak-ng, on a worker thread so speech never blocks the screen."""

from __future__ import annotations

import shutil
import subprocess
import threading
from collections import OrderedDict, deque
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


MAX_WAITING = 4  # sentences queued behind the one being spoken; older ones are dropped past this
KEYS_KEPT = 256  # event keys remembered as spoken; the app's keys only grow, so older ones never recur


class Voice:
    """Sentences spoken one at a time; each event key is spoken at most once.

    Speech is slower than a table: a few quick steps, and above all a sensor
    or camera repeating a reading the game cannot take, would queue sentences
    faster than espeak-ng says them, and the kiosk would talk for hours about
    moments long gone. So a sentence already waiting is not queued twice, and
    past ``MAX_WAITING`` the oldest waiting one gives way.
    """

    def __init__(self, enabled: bool = True, speed: int = 150, runner: Runner | None = None) -> None:
        self.binary = espeak_path()
        self.enabled = enabled
        self.speed = speed
        self.last = ""
        self._runner = runner or _run
        self._spoken: OrderedDict[object, None] = OrderedDict()
        self._waiting: deque[str] = deque()
        self._speaking = False
        self._closing = False
        self._changed = threading.Condition()
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
            self._spoken[key] = None
            while len(self._spoken) > KEYS_KEPT:
                self._spoken.popitem(last=False)
        self.last = text
        return self._enqueue(text)

    def repeat_last(self) -> bool:
        return self._enqueue(self.last, asked=True) if self.last else False

    def _enqueue(self, text: str, asked: bool = False) -> bool:
        """``asked``: a player asked to hear it again, which is said even while the same sentence waits."""
        if not (self.enabled and self.available):
            return False
        with self._changed:
            if text in self._waiting and not asked:
                return False
            if len(self._waiting) >= MAX_WAITING:
                self._waiting.popleft()
            self._waiting.append(text)
            if self._thread is None:
                self._closing = False
                self._thread = threading.Thread(target=self._work, name="voice", daemon=True)
                self._thread.start()
            self._changed.notify_all()
        return True

    def _work(self) -> None:
        while True:
            with self._changed:
                while not self._waiting and not self._closing:
                    self._changed.wait()
                if not self._waiting:
                    return
                text = self._waiting.popleft()
                self._speaking = True
            try:
                self._runner([self.binary or "espeak-ng", "-s", str(self.speed), text])
            except Exception:  # a missing sound card must never stop the referee
                pass
            finally:
                with self._changed:
                    self._speaking = False
                    self._changed.notify_all()

    def wait(self) -> None:
        """Block until everything queued was spoken (tests and shutdown)."""
        with self._changed:
            while self._thread is not None and (self._waiting or self._speaking):
                self._changed.wait()

    def stop(self) -> None:
        """Say what is waiting, then end the worker."""
        thread = self._thread
        if thread is None:
            return
        with self._changed:
            self._closing = True
            self._changed.notify_all()
        thread.join(timeout=5)
        self._thread = None
