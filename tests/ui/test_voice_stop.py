"""Quitting ends speech at once: a real process stands in for espeak-ng, and must be gone when stop returns.

Quitting (a café closing the kiosk, systemd stopping the service) let the sentence being said finish and waited
up to 5 s for the voice's thread, and an espeak-ng stuck on a busy sound device outlived the app.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path

import pytest

from tests.ui.conftest import Spoken, stand_in
from ui.voice import Voice

QUIT_SECONDS = 2.0  # the old stop took 5 s and more on a long sentence; the new one well under 1 s


def gone(pid: int) -> bool:
    """Whether ``pid`` has ended and been reaped: a zombie still answers signal 0."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def read_when_written(path: Path, seconds: float = 10.0) -> str:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if path.is_file() and path.read_text().endswith("\n"):
            return path.read_text()
        time.sleep(0.02)
    raise AssertionError(f"{path.name} was never written: the stand-in for espeak-ng did not start")


def stop_timed(voice: Voice) -> float:
    started = time.monotonic()
    voice.stop()
    return time.monotonic() - started


def test_voice_stop_cuts_the_sentence_being_said(espeak: Path) -> None:
    """A long sentence (espeak-ng running 30 s) is cut: stop returns at once and the process is reaped."""
    stand_in(espeak, "exec sleep 30")
    voice = Voice()
    assert voice.say("Yellow wins the game with 3 travellers in camp and 41 victory points.")
    pid = int(read_when_written(espeak / "pids"))
    thread = voice._thread
    took = stop_timed(voice)
    assert took < QUIT_SECONDS, f"quitting waited {took:.1f} s for the voice"
    assert gone(pid), "espeak-ng outlived the app (or was left a zombie)"
    assert thread is not None and not thread.is_alive()


def test_voice_stop_kills_an_espeak_that_ignores_terminate(espeak: Path) -> None:
    """An espeak-ng that does not end on SIGTERM (stuck on a busy sound device) is killed, then reaped."""
    stand_in(espeak, "trap '' TERM\nexec sleep 30")  # an ignored signal stays ignored across exec
    voice = Voice()
    assert voice.say("Red rolled 4.")
    pid = int(read_when_written(espeak / "pids"))
    took = stop_timed(voice)
    assert took < QUIT_SECONDS, f"quitting waited {took:.1f} s for the voice"
    assert gone(pid), "an espeak-ng ignoring SIGTERM outlived the app"


def test_voice_stop_drops_the_sentences_waiting(tmp_path: Path) -> None:
    """Through the runner hook: the sentences queued behind the one being said are never started."""
    said: list[str] = []
    started: list[subprocess.Popen[bytes]] = []

    def runner(cmd: Sequence[str]) -> subprocess.Popen[bytes]:
        said.append(cmd[-1])
        started.append(subprocess.Popen(["sleep", "30"]))
        return started[-1]

    voice = Voice(runner=runner)
    try:
        for n in range(1, 4):
            assert voice.say(f"Sentence {n}.")
        end = time.monotonic() + 10
        while not started and time.monotonic() < end:
            time.sleep(0.02)
        thread = voice._thread
        took = stop_timed(voice)
        assert took < QUIT_SECONDS, f"quitting waited {took:.1f} s for the voice"
        assert thread is not None and not thread.is_alive()
        assert said == ["Sentence 1."], "the waiting sentences were said at quit"
        assert all(gone(process.pid) for process in started)
    finally:
        for process in started:
            process.kill()
            process.wait()


def test_voice_wait_still_says_everything_queued(espeak: Path) -> None:
    """``wait`` is how a last sentence is heard on purpose: each queued sentence is said in full, in order."""
    stand_in(espeak, "sleep 0.1")
    voice = Voice()
    sentences = ["Red rolled 4.", "Black: roll the die.", "Black rolled 6."]
    for sentence in sentences:
        assert voice.say(sentence)
    voice.wait()
    assert (espeak / "said").read_text().splitlines() == sentences
    pids = [int(line) for line in (espeak / "pids").read_text().split()]
    assert len(pids) == 3 and all(gone(pid) for pid in pids)  # each reaped as it ended
    voice.stop()


def test_voice_stop_is_safe_twice_before_speech_and_without_espeak(espeak: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    never_spoke = Voice(runner=Spoken())
    never_spoke.stop()
    never_spoke.stop()

    stand_in(espeak, "exec sleep 30")
    voice = Voice()
    voice.say("Red rolled 4.")
    pid = int(read_when_written(espeak / "pids"))
    voice.stop()
    assert stop_timed(voice) < QUIT_SECONDS and gone(pid)
    voice.wait()  # nothing left to wait for

    spoken = Spoken()
    again = Voice(runner=spoken)  # a voice stopped and then asked to speak speaks again
    again.say("Red rolled 4.")
    again.stop()
    again.say("Black rolled 6.")
    again.wait()
    assert spoken.lines[-1] == "Black rolled 6."
    again.stop()

    (espeak / "espeak-ng").unlink()  # removed after start-up: each sentence fails, nothing hangs
    removed = Voice()
    removed.binary = str(espeak / "espeak-ng")
    assert removed.say("Red rolled 4.")
    removed.wait()
    removed.stop()
    removed.stop()

    monkeypatch.setattr(shutil, "which", lambda _name: None)
    missing = Voice()
    assert not missing.say("Red rolled 4.")
    missing.stop()
    missing.stop()


def espeak_children() -> list[str]:
    """This process's espeak-ng children, zombies included, as ``pid state``."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError):
            text = stat.read_text()
            name = text[text.index("(") + 1:text.rindex(")")]
            state, ppid = text[text.rindex(")") + 2:].split()[:2]
            if name == "espeak-ng" and int(ppid) == os.getpid():
                found.append(f"{stat.parent.name} {state}")
    return found


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed (apt install espeak-ng)")
@pytest.mark.skipif(not Path("/proc/self/stat").is_file(), reason="reads /proc")
def test_voice_stop_leaves_no_real_espeak_behind() -> None:
    """The real espeak-ng, mid-sentence on a Pi with speakers (without a sound card it ends by itself at once)."""
    voice = Voice()
    assert voice.say("The game is over: the last blue camel has been placed. Final scores: Red 50, Black 51. "
                     "Black wins the game, and the café thanks the table for playing.")
    time.sleep(0.3)
    assert stop_timed(voice) < QUIT_SECONDS
    assert espeak_children() == []
