"""Odd input on the home, rulebook and settings screens, the settings file and the voice: nothing crashes or is lost."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from kivy.utils import escape_markup

from companion.session import Session
from tests.ui.conftest import advance, open_settings, tap
from ui.settings import Settings
from ui.voice import Voice

HOUSE = Path(__file__).resolve().parents[2] / "companion" / "games"


def cafe_rulebook(tmp_path: Path, texts: tuple[str, ...] = (), extra: int = 0) -> Path:
    """A café folder whose Blackpool rulebook has ``texts`` as its first clauses' texts and ``extra`` more."""
    cafe = tmp_path / "cafe"
    (cafe / "blackpool").mkdir(parents=True)
    book = json.loads((HOUSE / "blackpool" / "data" / "rulebook.json").read_text(encoding="utf-8"))
    for clause, text in zip(book["clauses"], texts, strict=False):
        clause["text"] = text
    book["clauses"] += [{"id": f"BP-X{i}", "title": f"House rule {i}", "text": "Agreed at the table."}
                        for i in range(extra)]
    (cafe / "blackpool" / "rulebook.json").write_text(json.dumps(book), encoding="utf-8")
    return cafe


def test_a_last_game_the_cafe_no_longer_has_still_offers_a_game_to_start(launch: Any) -> None:
    """ui.json naming a game no longer installed lit no game and no colours; Start said "no game ''"."""
    app = launch(Settings(last_game="carcassonne", last_players=["red", "blue"]))
    home = app.root.get_screen("home")
    assert app.root.current == "home"
    assert home.chosen_game in {info.id for info in app.games()}
    assert home.ids.colours.children and "players" in home.ids.limits.text
    for colour in list(reversed(home.ids.colours.children))[:2]:
        tap(colour)
    tap(home.ids.start)
    assert app.root.current == "table" and app.game_id == home.chosen_game


@pytest.mark.parametrize(("game", "players", "why"), [("carcassonne", ["red", "blue"], "carcassonne"),
                                                     ("blackpool", ["red", "red"], "'red' is named twice")])
def test_a_next_table_the_game_refuses_goes_home_and_says_why(launch: Any, game: str, players: list[str],
                                                              why: str) -> None:
    """"New game for the next table" refused (a game gone, colours it no longer takes) left the kiosk on the
    attract screen, the refusal on a status line that screen does not show: the button seemed dead."""
    app = launch(Settings(last_game=game, last_players=players))
    app.show("attract")
    advance(2)
    tap(app.root.get_screen("attract").ids.new_game)
    assert app.root.current == "home" and why in app.root.get_screen("home").ids.note.text


def test_players_that_are_no_colours_names_are_named_at_start(launch: Any, tmp_path: Path) -> None:
    app = launch('{"last_game": "blackpool", "last_players": [1, 2]}')
    assert app.settings.last_players == [] and "last_players ignored" in app.root.get_screen("home").ids.note.text


@pytest.mark.parametrize("text", ["Roll [size=large] dice.", "Use the [font=Gothic]old[/font] board.",
                                  "[b]Always[/b] roll; [color=zz]never[/color] argue; & [BP-3]."])
def test_a_cafe_rulebook_with_brackets_is_shown_as_written(start: Any, tmp_path: Path, text: str) -> None:
    """The clause labels took a café's text as Kivy markup: "[size=large]" raised ValueError and a missing
    font OSError out of the label on Kivy's thread, which closed the app."""
    app = start(Session.new("blackpool", ["yellow", "red"], cafe_dir=cafe_rulebook(tmp_path, (text,))))
    app.show("rulebook")
    advance(3)
    rulebook = app.root.get_screen("rulebook")
    first = rulebook.ids.clauses.children[-1]  # the first clause: children run last first
    assert first.texture is not None and first.height > 0
    assert escape_markup(text) in first.text  # "[b]" shown as typed, not bolding the rest


def test_a_rulebook_longer_than_the_screen_lists_says_how_many_are_left_out(start: Any, tmp_path: Path) -> None:
    """"100 clauses" stood over 80 labels, as if the last 20 could be scrolled to."""
    app = start(Session.new("blackpool", ["yellow", "red"], cafe_dir=cafe_rulebook(tmp_path, extra=40)))
    app.show("rulebook")
    advance(3)
    rulebook = app.root.get_screen("rulebook")
    assert rulebook.ids.count.text == "80 of 100 clauses"
    assert rulebook.ids.clauses.children[0].text.startswith("20 more: add a word to the search")
    rulebook.ids.query.text = "BP-X"
    advance(2)
    assert rulebook.ids.count.text == "40 clauses" and len(rulebook.ids.clauses.children) == 40


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed (apt install espeak-ng)")
@pytest.mark.parametrize("sentence", ["-2 lives for Red.", "--- Round 3 ---"])
def test_a_sentence_starting_with_a_dash_is_spoken(tmp_path: Path, sentence: str) -> None:
    """espeak-ng took the sentence for its own options, said nothing and exited 0: the table heard silence."""
    commands: list[list[str]] = []
    voice = Voice(runner=lambda cmd: commands.append(list(cmd)))
    assert voice.say(sentence)
    voice.wait()
    command = commands[0]
    wav = tmp_path / "said.wav"
    done = subprocess.run([command[0], "-w", str(wav), *command[1:]], capture_output=True, timeout=60, check=False)
    assert done.returncode == 0 and wav.is_file() and wav.stat().st_size > 8000, done.stderr


@pytest.mark.parametrize(("speed", "kept"), [(1500, 150), (100000, 150), (-5, 150), (0, 150), (80, 80), (260, 260)])
def test_a_voice_speed_off_the_slider_is_named_and_left_at_the_default(tmp_path: Path, speed: int,
                                                                         kept: int) -> None:
    """A hand-edited 1500 (for 150) made espeak-ng gabble every sentence, 100000 made it silent, and the
    slider's knob sat off its track beside "1500 wpm"."""
    path = tmp_path / "ui.json"
    path.write_text(json.dumps({"voice_speed": speed}))
    loaded = Settings.load(path)
    assert loaded.voice_speed == kept and ("voice_speed" in loaded.note) == (speed != kept)


def test_a_voice_speed_off_the_slider_leaves_the_slider_on_its_track(launch: Any) -> None:
    app = launch('{"voice_speed": 1500, "voice": false}')
    screen = open_settings(app)
    assert screen.ids.speed.min <= screen.ids.speed.value <= screen.ids.speed.max
    assert app.voice.speed == 150 and "voice_speed" in app.status


def test_a_saved_cafe_folder_gone_at_start_is_said_on_the_home_screen(launch: Any, tmp_path: Path) -> None:
    """A USB stick taken out: every game went on the house data in silence, while Settings showed the stick's
    folder and refused every Save with "No folder ...", unexplained."""
    stick = tmp_path / "stick" / "cafe"
    app = launch(Settings(cafe_dir=str(stick)), new=False)
    assert app.cafe_dir is None
    note = app.root.get_screen("home").ids.note.text
    assert f"The café data folder {stick} is missing" in note and "the house data" in note


def test_a_cafe_folder_that_is_there_says_nothing_at_start(launch: Any, tmp_path: Path) -> None:
    cafe = tmp_path / "cafe"
    cafe.mkdir()
    app = launch(Settings(cafe_dir=str(cafe)), new=False)
    assert app.cafe_dir == cafe and app.status == ""


def test_a_refusal_at_the_table_does_not_stand_on_the_home_screen(start: Any) -> None:
    """A refused move's words ("the oracle shows 1 to 6, not 99") stood in red under the turn order on home,
    as if the game or players just picked were wrong."""
    app = start(Session.new("blackpool", ["yellow", "red"]))
    app.act({"type": "roll", "value": 99})
    assert app.status  # said at the table
    app.show("home")
    advance(3)
    home = app.root.get_screen("home")
    assert home.ids.note.text == ""
    home.start()  # no players tapped: home's own refusal still shows
    assert "players" in home.ids.note.text and app.game_id == "blackpool"


def test_a_question_typed_whole_lists_the_closest_clauses_first_and_says_so(start: Any) -> None:
    """"can I jump over other travellers" held in no clause whole: "No clause matches." answered a fair question."""
    app = start(Session.new("blackpool", ["yellow", "red"]))
    app.show("rulebook")
    advance(3)
    rulebook = app.root.get_screen("rulebook")
    rulebook.ids.query.text = "can I jump over other travellers"
    advance(2)
    shown = [label.text for label in reversed(rulebook.ids.clauses.children)]
    assert rulebook.ids.count.text == f"{len(shown)} closest clauses"
    count = rulebook.ids.count
    count.texture_update()
    assert count.texture_size[0] <= count.width + 1, "the count is cut"
    assert any(text.startswith("[b]BP-Q11 ") for text in shown[:3])
    rulebook.ids.query.text = "six"  # every word held: the count is as before
    advance(2)
    assert rulebook.ids.count.text == f"{len(rulebook.ids.clauses.children)} clauses"
