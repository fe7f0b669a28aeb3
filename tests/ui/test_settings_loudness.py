"""The voice's loudness set by touch on the settings screen: heard at once, kept by Save and after a restart.

It was only in ui.json (``voice_volume``, espeak-ng's -a), which a café owner had to stop the service to edit.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from tests.ui.conftest import advance, open_settings, settings_file, tap
from ui.settings import Settings, volume_step
from ui.voice import Voice


class Speaker:
    """A fake espeak-ng: keeps each command line, so the loudness a sentence was said at can be read back."""

    def __init__(self) -> None:
        self.said: list[list[str]] = []

    def __call__(self, cmd: Sequence[str]) -> None:
        self.said.append(list(cmd))

    def loudness(self) -> list[tuple[str, int]]:
        return [(cmd[-1], int(cmd[cmd.index("-a") + 1])) for cmd in self.said]


def with_speaker(app: Any) -> Speaker:
    speaker = Speaker()
    app.voice._runner = speaker
    return speaker


def saved(tmp_path: Path) -> dict[str, Any]:
    return json.loads(settings_file(tmp_path).read_text())


def test_tapping_plus_says_a_sample_at_the_new_loudness_and_save_keeps_it_after_a_restart(
    launch: Any, tmp_path: Path
) -> None:
    app = launch('{"voice": true}')
    speaker = with_speaker(app)
    screen = open_settings(app)
    assert screen.ids.volume.text == "Loudness 100"
    for _ in range(3):
        tap(screen.ids.louder)
    app.voice.wait()
    assert screen.ids.volume.text == "Loudness 160"
    # each tap heard at its own level; the last tap's sample is the one the owner keeps
    assert speaker.loudness()[-1] == ("Loudness 160.", 160)
    assert app.voice.volume == 100 and app.voice.last == "", "a sample changed the voice before Save"
    assert saved(tmp_path).get("voice_volume", 100) == 100

    tap(screen.ids.save)
    assert saved(tmp_path)["voice_volume"] == 160 and app.voice.volume == 160
    app.voice.say("Red rolls 4.")
    app.voice.wait()
    assert speaker.loudness()[-1] == ("Red rolls 4.", 160)

    from companion.controller import Controller
    from ui.app import CompanionApp

    path = settings_file(tmp_path)
    restarted = CompanionApp(Controller(None), None, Settings.load(path), path)  # what the next start reads
    assert restarted.voice.volume == 160
    app.show("home")
    advance(2)
    assert open_settings(app).ids.volume.text == "Loudness 160"


def test_minus_stops_at_the_quietest_level_and_back_leaves_the_saved_one(launch: Any, tmp_path: Path) -> None:
    """20 is the floor (0 would be Silent without saying so); leaving without Save keeps what was saved."""
    app = launch('{"voice": true, "voice_volume": 60}')
    speaker = with_speaker(app)
    screen = open_settings(app)
    tap(screen.ids.softer)
    tap(screen.ids.softer)
    app.voice.wait()
    assert screen.volume == 20 and screen.ids.softer.disabled and not screen.ids.louder.disabled
    tap(screen.ids.softer)  # disabled: nothing more is said
    app.voice.wait()
    assert [level for _, level in speaker.loudness()] == [40, 20]

    tap(screen.ids.back)
    assert saved(tmp_path)["voice_volume"] == 60 and app.voice.volume == 60
    assert open_settings(app).volume == 60, "the screen kept a level that was never saved"


def test_while_the_switch_shows_silent_no_sample_is_said_and_the_note_says_why(launch: Any, tmp_path: Path) -> None:
    app = launch('{"voice": true}')
    speaker = with_speaker(app)
    screen = open_settings(app)
    tap(screen.ids.voice)  # Silent, not saved yet
    tap(screen.ids.louder)
    app.voice.wait()
    assert speaker.said == []
    assert "switch to Spoken to hear it" in screen.ids.note.text and "120" in screen.ids.note.text
    tap(screen.ids.save)
    assert saved(tmp_path)["voice"] is False and saved(tmp_path)["voice_volume"] == 120


def test_a_sample_is_said_while_silent_is_saved_if_the_switch_shows_spoken(launch: Any) -> None:
    """Turning the voice back on, the owner hears the level before saving both."""
    app = launch('{"voice": false}')
    speaker = with_speaker(app)
    screen = open_settings(app)
    tap(screen.ids.voice)  # Spoken, not saved yet
    tap(screen.ids.louder)
    app.voice.wait()
    assert speaker.loudness() == [("Loudness 120.", 120)]
    assert not app.voice.say("Red rolls 4."), "the saved Silent was undone by a sample"


def test_a_sample_cuts_what_waits_and_leaves_the_voice_its_level() -> None:
    """A sample heard behind a queue of the game's sentences answers no tap; Repeat never says a sample."""
    speaking, go_on = threading.Event(), threading.Event()
    speaker = Speaker()

    def runner(cmd: Sequence[str]) -> None:
        speaker(cmd)
        if cmd[-1] == "Red rolls 4.":  # held while being said, so the next ones wait behind it
            speaking.set()
            go_on.wait(10)

    voice = Voice(runner=runner, volume=100)
    voice.say("Red rolls 4.")
    assert speaking.wait(10)
    voice.say("Blue rolls 2.")
    voice.say("Green rolls 1.")
    voice.sample("Loudness 140.", 140)
    go_on.set()
    voice.wait()
    voice.say("Yellow rolls 6.")
    voice.wait()
    assert speaker.loudness() == [("Red rolls 4.", 100), ("Loudness 140.", 140), ("Yellow rolls 6.", 100)]
    assert voice.volume == 100 and voice.last == "Yellow rolls 6."
    assert voice.repeat_last()
    voice.wait()
    assert speaker.loudness()[-1] == ("Yellow rolls 6.", 100)
    voice.stop()


@pytest.mark.parametrize(("volume", "steps", "level"), [
    (100, 1, 120), (100, -1, 80), (150, 1, 160), (150, -1, 140), (200, 1, 200), (20, -1, 20), (190, 1, 200),
    (30, -1, 20), (21, -1, 20),
])
def test_the_steps_keep_to_a_grid_and_the_range(volume: int, steps: int, level: int) -> None:
    """A hand-edited 150 goes to the step beside it, not 20 past it; nothing leaves 20-200."""
    assert volume_step(volume, steps) == level
