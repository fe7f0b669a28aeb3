"""espeak-ng missing or failing: said once (the table's status line, the settings screen, one log line), never
a crash or a line per sentence. A shell script stands in for espeak-ng on PATH, failing as the real one does.

Without a sound card the real espeak-ng prints ALSA's complaints and still exits 0: the table heard nothing and
nothing anywhere said why, since the voice threw its output away and passed over every failure in silence.
"""

from __future__ import annotations

import logging
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.ui.conftest import advance, spoken_step, stand_in
from ui.voice import Voice

pytestmark = pytest.mark.usefixtures("undrawn")  # texts, sizes and states are read, never the window's pixels

NO_CARD = """cat >&2 <<'ALSA'
ALSA lib confmisc.c:855:(parse_card) cannot find card '0'
ALSA lib pcm.c:2666:(snd_pcm_open_noupdate) Unknown PCM default
error: No such file or directory
ALSA
exit 0"""
NO_VOICE = 'echo "Error: The specified espeak-ng voice does not exist." >&2\nexit 1'


def failing_voice(caplog: pytest.LogCaptureFixture) -> tuple[Voice, list[str]]:
    told: list[str] = []
    caplog.set_level(logging.WARNING, logger="ui.voice")
    return Voice(on_problem=told.append), told


def warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "ui.voice" and r.levelno >= logging.WARNING]


def say_all(voice: Voice, count: int) -> None:
    for n in range(count):
        voice.say(f"Red rolls {n % 6 + 1}.", key=object())  # a new event each time, as the app's are
        voice.wait()  # one at a time: each sentence fails on its own


def test_no_sound_card_is_said_once_and_logged_once(espeak: Path, caplog: pytest.LogCaptureFixture) -> None:
    stand_in(espeak, NO_CARD)
    voice, told = failing_voice(caplog)
    say_all(voice, 12)
    voice.stop()
    assert len(told) == 1 and "cannot find card '0'" in told[0] and "not spoken" in told[0]
    assert voice.note() == told[0]  # the settings screen says it while it lasts
    assert len(warnings(caplog)) == 1, warnings(caplog)


def test_a_failing_espeak_that_recovers_clears_the_note_and_logs_nothing_more(
        espeak: Path, caplog: pytest.LogCaptureFixture) -> None:
    stand_in(espeak, NO_VOICE)
    voice, told = failing_voice(caplog)
    say_all(voice, 3)
    assert "(exit 1)" in voice.problem and "voice does not exist" in voice.problem
    stand_in(espeak, "exit 0")  # the sound card plugged back in
    say_all(voice, 3)
    assert voice.problem == "" and voice.note() == "Speech through espeak-ng."
    stand_in(espeak, NO_VOICE)
    say_all(voice, 3)
    voice.stop()
    assert [bool(t) for t in told] == [True, False, True]  # each change told once, not each sentence
    assert len(warnings(caplog)) == 1


def test_espeak_missing_or_removed_is_said_once(espeak: Path, monkeypatch: pytest.MonkeyPatch,
                                               caplog: pytest.LogCaptureFixture) -> None:
    stand_in(espeak, "exit 0")
    removed, told = failing_voice(caplog)
    (espeak / "espeak-ng").unlink()  # taken away after the app started
    say_all(removed, 5)
    removed.stop()
    assert len(told) == 1 and "could not start" in told[0]

    caplog.clear()
    monkeypatch.setattr(shutil, "which", lambda _name: None)
    missing, told = failing_voice(caplog)
    for n in range(5):
        assert not missing.say(f"Red rolls {n + 1}.", key=n)
    assert len(told) == 1 and "not installed" in told[0] and len(warnings(caplog)) == 1
    silent = Voice(enabled=False, on_problem=told.append)  # muted: nothing to say about espeak-ng
    assert not silent.say("Red rolls 4.")
    assert len(told) == 1


def test_the_table_is_told_once_and_play_goes_on(espeak: Path, running: list[Any], tmp_path: Path) -> None:
    """Through the app: the status line says it after the first step, the next step's words replace it, and the
    settings screen keeps saying it."""
    stand_in(espeak, NO_CARD)
    app = spoken_step(tmp_path, running)
    app.voice.wait()
    advance(2)
    assert "Speech failed" in app.status and "cannot find card '0'" in app.status
    assert app.voice_note == app.voice.note() != "Speech through espeak-ng."
    app.act(app.controller.session.legal()[0])
    app.voice.wait()
    advance(2)
    assert "Speech failed" not in app.status and app.controller.session.log  # once; the game went on
    assert "cannot find card '0'" in app.voice_note
