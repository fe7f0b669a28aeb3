"""Announcements piling up behind the sentence being said: the table hears the present, and the newest last.

A gate holds the first sentence "being said" (no timing), so the queue fills exactly as it does behind a
long sentence at the table; releasing it lets the worker say what is left.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest

from tests.ui.conftest import Spoken, spoken_step, stand_in
from tests.ui.test_voice_stop import gone, read_when_written
from ui.voice import MAX_WAITING, Voice

pytestmark = pytest.mark.usefixtures("undrawn")  # texts, sizes and states are read, never the window's pixels


class Held(Spoken):
    """A fake espeak-ng that holds its first sentence until released."""

    def __init__(self) -> None:
        super().__init__()
        self.busy, self.release = threading.Event(), threading.Event()

    def __call__(self, cmd: Any) -> None:
        self.busy.set()
        self.release.wait(10)
        super().__call__(cmd)


def said_after(voice: Voice, held: Held) -> list[str]:
    held.release.set()
    voice.wait()
    voice.stop()
    return held.lines


def test_an_undo_redo_run_ends_on_what_the_table_now_shows() -> None:
    """Undo, redo, undo, redo, undo pressed quickly: the last sentence heard is the last undo's.

    The undo's sentence was still waiting from the first press, so the last press was not queued again and
    the redo's sentence came after it: the table heard the step said as done while the board had it undone.
    """
    held = Held()
    voice = Voice(runner=held)
    voice.say("Red 1 goes forward 4 from c4 (ring 3) to f3 (ring 3).", key=0)
    assert held.busy.wait(10)
    undo = "Taken back: Red 1 goes forward 4. Red rolled 4: choose the traveller to move."
    redo = "Red 1 goes forward 4. Green: roll the oracle."
    for key, sentence in enumerate([undo, redo, undo, redo, undo], start=1):
        voice.say(sentence, key=key)
    heard = said_after(voice, held)
    assert heard[-1] == undo, heard
    assert heard.count(undo) == 1 and heard.count(redo) == 1  # each waiting sentence still said once


def test_a_long_run_keeps_the_queue_short_and_the_newest_last() -> None:
    """Thirty distinct announcements behind one long sentence: four wait, the newest of them said last."""
    held = Held()
    voice = Voice(runner=held)
    voice.say("The game is over.", key=0)
    assert held.busy.wait(10)
    for key in range(1, 31):
        voice.say(f"Taken back: step {key}.", key=key)
        assert len(voice._waiting) <= MAX_WAITING
    heard = said_after(voice, held)
    assert heard == ["The game is over.", *(f"Taken back: step {key}." for key in range(27, 31))]


def test_silent_drops_what_waits_at_once() -> None:
    """Saved Silent while four sentences waited behind a long one: they were all said after it."""
    held = Held()
    voice = Voice(runner=held)
    voice.say("The game is over.", key=0)
    assert held.busy.wait(10)
    for key in range(1, 5):
        voice.say(f"Taken back: step {key}.", key=key)
    voice.enabled = False
    assert said_after(voice, held) == ["The game is over."]


def test_silent_cuts_the_sentence_being_said(espeak: Path) -> None:
    """A real process stands in for espeak-ng mid-sentence: Silent ends it without waiting (Kivy's thread)."""
    stand_in(espeak, "exec sleep 60")
    voice = Voice()
    voice.say("Black places a blue camel on hex minus 4, 12. The game is over.")
    pid = int(read_when_written(espeak / "pids"))
    voice.enabled = False
    ended = time.monotonic() + 10  # it used to speak on for the whole 60 s
    while not gone(pid) and time.monotonic() < ended:
        time.sleep(0.02)
    assert gone(pid), "espeak-ng went on speaking after Silent was saved"
    voice.wait()
    assert voice.problem == ""  # a sentence cut on purpose is no failure
    stand_in(espeak, "exit 0")
    voice.enabled = True
    voice.say("Red rolls 4.")  # and speech comes back with the switch
    voice.wait()
    assert (espeak / "said").read_text().splitlines()[-1] == "Red rolls 4."
    voice.stop()


def test_an_undo_cuts_the_announcement_of_the_step_it_takes_back(espeak: Path, running: list[Any],
                                                                 tmp_path: Path) -> None:
    """A misread roll undone at once: the step's sentence (and the prompt after it) was said to its end, then
    that it was taken back. The undo's sentence is said at once instead."""
    stand_in(espeak, "exec sleep 60")  # the step's sentence, long
    app = spoken_step(tmp_path, running)
    pid = int(read_when_written(espeak / "pids"))
    stand_in(espeak, "exit 0")  # the undo's sentence
    app.undo()
    ended = time.monotonic() + 10  # the step's sentence ran its whole 60 s before
    while not gone(pid) and time.monotonic() < ended:
        time.sleep(0.02)
    assert gone(pid), "the undone step was still being announced"
    app.voice.wait()
    heard = (espeak / "said").read_text().splitlines()
    assert heard[-1] == app.last_spoken and heard[-1].startswith("Correction:"), heard
    assert app.voice.problem == ""  # cut on purpose: no failure to report
