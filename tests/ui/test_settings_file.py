"""The settings file over days: hand edits with mistakes, a crash or a full card during a save."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

import ui.settings
from ui.settings import Settings, default_settings_path


def refuse_reading(monkeypatch: pytest.MonkeyPatch, path: Path) -> None:
    """Reading ``path`` fails as for a user without the right to (tests run as root, who reads any file)."""
    real = Path.read_bytes

    def refused(self: Path) -> bytes:
        if self == path:
            raise PermissionError(13, "Permission denied", str(self))
        return real(self)

    monkeypatch.setattr(Path, "read_bytes", refused)


ROOT = Path(__file__).resolve().parents[2]


def test_a_hand_edit_that_does_not_parse_is_kept_not_overwritten_by_the_next_save(tmp_path: Path) -> None:
    """A missing comma made the defaults load; the next new game saved them over the café's whole edit."""
    path = tmp_path / "ui.json"
    edit = '{"kiosk_pin": "8642", "idle_seconds": 300\n "voice": false "voice_volume": [160}'
    path.write_text(edit)
    loaded = Settings.load(path)
    assert loaded == Settings(kiosk_pin="8642", idle_seconds=300, voice=False), "each value standing whole is read"
    loaded.last_game = "blackpool"
    loaded.save(path)  # what starting a game does
    kept = [p for p in tmp_path.iterdir() if p.name.startswith("ui.json.broken-")]
    assert [p.read_text() for p in kept] == [edit]
    assert json.loads(path.read_text())["last_game"] == "blackpool"


def test_a_second_broken_settings_file_at_the_same_clock_second_keeps_the_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Pi without a clock boots at the same time every time: the second broken ui.json set aside took the
    first one's name, and the rename replaced the copy of the café's first edit, kept to be mended."""

    class BootClock(datetime):
        @classmethod
        def now(cls, tz: object = None) -> datetime:  # type: ignore[override]
            return datetime(1970, 1, 1, 0, 0, 12, tzinfo=UTC)

    monkeypatch.setattr(ui.settings, "datetime", BootClock)
    path = tmp_path / "ui.json"
    edits = ['{"kiosk_pin": "8642",}', '{"kiosk_pin": "8642" "voice": false}']
    for edit in edits:  # one boot each
        path.write_text(edit)
        assert Settings.load(path).kiosk_pin == "8642"
    kept = sorted(p for p in tmp_path.iterdir() if p.name.startswith("ui.json.broken-"))
    assert [p.name for p in kept] == ["ui.json.broken-19700101-000012", "ui.json.broken-19700101-000012-2"]
    assert [p.read_text() for p in kept] == edits


def test_hand_edited_values_a_person_would_write_are_taken_and_wrong_ones_named(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A PIN typed as a number went back to 1234 in silence; ``true`` seconds made the attract screen show at 1 s."""
    path = tmp_path / "ui.json"
    path.write_text(json.dumps({
        "kiosk_pin": 4321, "camera_source": 0, "idle_seconds": True, "voice_speed": "fast",
        "inputs": {"camera": "false", "buttons": False},
    }))
    loaded = Settings.load(path)
    assert loaded.kiosk_pin == "4321" and loaded.camera_source == "0"
    assert loaded.idle_seconds == 120 and loaded.voice_speed == 150
    assert loaded.inputs["camera"] is False and loaded.inputs["buttons"] is False
    assert "idle_seconds = true ignored" in caplog.text and "voice_speed = 'fast' ignored" in caplog.text
    assert "True" not in caplog.text, "a value from ui.json is quoted as the file spells it"


@pytest.mark.parametrize("pin", ["  ", "", " 4321", "abcd", "12 34", "١٢٣٤"])
def test_a_pin_the_pad_cannot_type_does_not_lock_the_staff_out(tmp_path: Path, pin: str) -> None:
    """An empty PIN matches no attempt, and the pad types 0-9 alone: a hand-edited " 4321" or "abcd" meant
    Settings and Exit could never be opened again at the table."""
    path = tmp_path / "ui.json"
    path.write_text(json.dumps({"kiosk_pin": pin}))
    assert Settings.load(path).kiosk_pin == "1234"


@pytest.mark.parametrize(("turn", "mirror", "kept"), [(180, True, (180, True)), (45, True, (0, True)),
                                                     ("90", 1, (0, False))])
def test_the_cameras_turn_is_a_quarter_turn_or_the_default(tmp_path: Path, turn: object, mirror: object,
                                                           kept: tuple[int, bool]) -> None:
    """A turn OpenCV cannot make would have stopped the camera at every start; it is named and left at 0."""
    path = tmp_path / "ui.json"
    path.write_text(json.dumps({"camera_turn": turn, "camera_mirror": mirror}))
    loaded = Settings.load(path)
    assert (loaded.camera_turn, loaded.camera_mirror) == kept
    assert ("camera_turn" in loaded.note) == (kept[0] != turn)


@pytest.mark.parametrize(("hz", "kept"), [(50, 50), (60, 60), (0, 0), (55, 0), ("50", 0), (True, 0)])
def test_a_mains_frequency_no_lamp_has_is_named_and_left_alone(tmp_path: Path, hz: object, kept: int) -> None:
    path = tmp_path / "ui.json"
    path.write_text(json.dumps({"mains_hz": hz}))
    loaded = Settings.load(path)
    assert loaded.mains_hz == kept and ("mains_hz" in loaded.note) == (hz != kept or type(hz) is not int)


def test_a_file_saved_by_notepad_with_a_byte_order_mark_is_read(tmp_path: Path) -> None:
    path = tmp_path / "ui.json"
    path.write_bytes(b"\xef\xbb\xbf" + b'{"kiosk_pin": "2468"}')
    assert Settings.load(path).kiosk_pin == "2468"
    assert [p.name for p in tmp_path.iterdir()] == ["ui.json"]


# A save on a card with room for 200 bytes only: the OS refuses the rest (EFBIG), as a full disk would.
FULL_CARD = """
import resource, signal, sys
from pathlib import Path
from ui.settings import Settings
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
resource.setrlimit(resource.RLIMIT_FSIZE, (200, 200))
try:
    Settings(last_players=["a long name"] * 50).save(Path(sys.argv[1]))
except OSError as error:
    print("refused", error.errno)
"""


def test_a_save_the_card_cannot_hold_leaves_the_old_file_and_no_scraps(tmp_path: Path) -> None:
    """The old save left half a ``ui.tmp`` behind on every failure."""
    path = tmp_path / "ui.json"
    Settings(kiosk_pin="9999").save(path)
    done = subprocess.run([sys.executable, "-c", FULL_CARD, str(path)], capture_output=True, text=True,
                          cwd=ROOT, timeout=60)
    assert done.stdout.startswith("refused"), done.stderr
    assert Settings.load(path).kiosk_pin == "9999"
    assert [p.name for p in tmp_path.iterdir()] == ["ui.json"]


def test_a_relative_xdg_config_home_is_ignored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COMPANION_UI_SETTINGS", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CONFIG_HOME", "config")
    assert default_settings_path() == tmp_path / ".config" / "table-companion" / "ui.json"


def test_a_command_that_only_reads_a_broken_file_leaves_it_and_says_so(tmp_path: Path) -> None:
    """`vision watch` and the teach steps read the camera's picture settings; a broken file went unmentioned."""
    path = tmp_path / "ui.json"
    path.write_text('{bad json')
    loaded = Settings.load(path, set_aside=False)
    assert loaded == Settings()
    assert path.read_text() == '{bad json' and [p.name for p in tmp_path.iterdir()] == ["ui.json"]
    assert "ui.json cannot be read" in loaded.note and "defaults are used" in loaded.note


def test_a_settings_path_naming_a_folder_is_said_not_passed_over(tmp_path: Path) -> None:
    """``$COMPANION_UI_SETTINGS`` naming a folder (the folder meant to hold ui.json) loaded the defaults without a
    word, and every save on the settings screen then failed with "Is a directory"."""
    folder = tmp_path / "settings"
    folder.mkdir()
    for set_aside in (True, False):
        loaded = Settings.load(folder, set_aside=set_aside)
        assert loaded == Settings()
        assert loaded.note.startswith(f"Settings file {folder} is a folder, not a settings file; the defaults")
    assert [p.name for p in tmp_path.iterdir()] == ["settings"]  # the folder is not set aside


def test_a_settings_path_past_the_name_limit_is_said_not_raised(tmp_path: Path) -> None:
    """``Path.is_file`` raised "File name too long" out of `Settings.load`: a kiosk must always start."""
    path = tmp_path / ("x" * 300) / "ui.json"
    loaded = Settings.load(path)
    assert loaded == Settings() and "cannot be read (File name too long)" in loaded.note


def test_watch_says_a_settings_path_naming_a_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    import cv2

    from tests.vision.test_feed import board_frame
    from vision.cli import main

    monkeypatch.setenv("COMPANION_UI_SETTINGS", str(tmp_path))
    board = tmp_path / "board.png"
    assert cv2.imwrite(str(board), board_frame({3: "P07"}))
    assert main(["vision", "watch", str(board), "--reader", "cards", "--mains", "0"]) == 0
    assert f"Settings file {tmp_path} is a folder, not a settings file" in capsys.readouterr().err


def test_a_key_no_setting_has_is_named_with_the_one_it_was_likely_meant_to_be(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A typo ("display_scael": 120) or an input no table has was passed over in silence: the owner saw the
    screens unchanged with nothing to say why, and the next save wrote the key away."""
    path = tmp_path / "ui.json"
    path.write_text(json.dumps({"display_scael": 120, "voice_volume": 160, "voice.speed": 200,
                                "inputs": {"Camera": True, "laser": True, "touch": True}}))
    loaded = Settings.load(path)
    assert loaded.voice_volume == 160 and loaded.display_scale == 100
    assert loaded.inputs == Settings().inputs, "an input no table has is not kept, nor saved back"
    assert loaded.note == ("Settings file ui.json: display_scael (meant display_scale?), voice.speed (meant "
                           "voice_speed?), inputs.Camera (meant inputs.camera?), inputs.laser are no settings, "
                           "ignored and left out of the next save.")
    assert "display_scael" in caplog.text


@pytest.mark.parametrize(("seconds", "kept"), [(1, 120), (29, 120), (-5, 120), (10**9, 120), (0, 0), (30, 30),
                                               (600, 600)])
def test_an_idle_time_the_attract_screen_cannot_keep_to_is_named(tmp_path: Path, seconds: int, kept: int) -> None:
    """A hand-edited 1 put the attract screen over the table a second after every tap, and -5 turned it off
    unsaid; 0 is the documented "never"."""
    path = tmp_path / "ui.json"
    path.write_text(json.dumps({"idle_seconds": seconds}))
    loaded = Settings.load(path)
    assert loaded.idle_seconds == kept and ("idle_seconds" in loaded.note) == (seconds != kept)


def test_a_file_cut_short_keeps_the_pin_and_every_value_standing_whole_before_the_cut(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A file cut short (a card's damage, an editor killed mid-write) put every setting back to its default,
    the PIN to the 1234 the docs print among them, though the café's PIN stood whole in the text. The value the
    cut runs through ("idle_seconds": 30 of 300) is not taken for the café's."""
    path = tmp_path / "ui.json"
    Settings(kiosk_pin="8642", display_scale=120, voice_volume=160, idle_seconds=300, voice=False).save(path)
    whole = path.read_text()
    path.write_text(whole[:whole.index('"idle_seconds": 300') + len('"idle_seconds": 30')])
    loaded = Settings.load(path)
    assert (loaded.kiosk_pin, loaded.display_scale, loaded.voice_volume, loaded.voice) == ("8642", 120, 160, False)
    assert loaded.idle_seconds == 120
    assert "were read from it and the rest are defaults" in loaded.note and "1234" not in loaded.note
    assert "kiosk_pin" in loaded.note and "idle_seconds" not in loaded.note
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith("ui.json.broken-")], "the cut file is kept"
    assert "were read from it" in caplog.text


def test_what_a_broken_file_gave_outlasts_a_restart_before_the_next_save(tmp_path: Path) -> None:
    """Set aside, the file was gone until something saved: a power cut first, and the next start found no file
    and used the defaults, the PIN 1234 again, without a word."""
    path = tmp_path / "ui.json"
    path.write_text('{"kiosk_pin": "8642", "display_scale": 120 "voice": false')
    assert Settings.load(path).kiosk_pin == "8642"
    again = Settings.load(path)  # the restart, nothing saved in between
    assert (again.kiosk_pin, again.display_scale, again.voice, again.note) == ("8642", 120, True, "")
    kept = [p for p in tmp_path.iterdir() if p.name.startswith("ui.json.broken-")]
    assert len(kept) == 1 and kept[0].read_text().endswith('"voice": false'), "the edit itself stays kept"


@pytest.mark.parametrize("edit", ['{"cafe_dir": "/a/\\"kiosk_pin\\": \\"0000\\"", "voice": false,',
                                  '{"kiosk_pin": 86a42, "voice": false,', '{"kiosk_pin": "8642'])
def test_a_pin_not_standing_whole_in_a_broken_file_is_not_guessed(tmp_path: Path, edit: str) -> None:
    """Only a key's own value is read: words inside another value, or a PIN the edit broke, leave 1234, said."""
    path = tmp_path / "ui.json"
    path.write_text(edit)
    loaded = Settings.load(path)
    assert loaded.kiosk_pin == "1234" and "the settings PIN is 1234 again" in loaded.note


@pytest.mark.parametrize("set_aside", [True, False])
def test_a_file_this_user_may_not_read_is_a_permission_problem_left_as_it_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, set_aside: bool
) -> None:
    """A ui.json owned by root (mode 600) was set aside as broken, and the home screen spoke of a hand edit's mistake;
    the next save then wrote the defaults where the café's settings had been. (Tests run as root, who reads any
    file: the refusal is the operating system's, made here.)"""
    path = tmp_path / "ui.json"
    path.write_text('{"kiosk_pin": "8642"}')
    refuse_reading(monkeypatch, path)
    loaded = Settings.load(path, set_aside=set_aside)
    assert loaded == Settings()
    assert loaded.note.startswith(f"Settings file {path} cannot be read by the user the app runs as (Permission "
                                  "denied): a permission problem, not a broken file.")
    assert f"sudo chown companion:companion {path}" in loaded.note and "PIN is 1234 again" in loaded.note
    loaded.last_game = "blackpool"
    with pytest.raises(OSError, match="cannot be read by this user, so it is not written over"):
        loaded.save(path)  # what starting a game does: the café's file is not replaced by the defaults
    monkeypatch.undo()
    assert [p.name for p in tmp_path.iterdir()] == ["ui.json"] and path.read_text() == '{"kiosk_pin": "8642"}'


# Saves settings on the card at argv[1], lets a log take its last bytes and saves a new PIN; then remounts the card
# read-only and saves again. Each refusal is answered as the settings screen answers it.
SAVE_ON_A_FULL_CARD = """
import json, subprocess, sys
from pathlib import Path
from ui.settings import Settings, not_saved
from tests.small_card import fill_card
path = Path(sys.argv[1]) / "config" / "ui.json"
Settings(kiosk_pin="9999").save(path)
fill_card(path.parent)
found = {}
for card in ("full", "read-only"):
    try:
        Settings(kiosk_pin="4321").save(path)
        found[card] = "saved"
    except OSError as error:
        found[card] = not_saved(error, path)
    found[card + " pin"] = Settings.load(path).kiosk_pin
    found[card + " files"] = sorted(p.name for p in path.parent.iterdir())
    if card == "full":
        path.with_name("syslog").unlink()
        subprocess.run(["mount", "-o", "remount,ro", sys.argv[1]], check=True)
print(json.dumps(found))
"""


def test_a_save_a_full_or_read_only_card_refuses_says_so_and_keeps_the_file(tmp_path: Path) -> None:
    """The settings screen said only the OS's words ("Not saved (No space left on device): ..."): nothing named the
    card as the trouble or what to do about it."""
    from tests.small_card import on_a_card

    found = on_a_card(SAVE_ON_A_FULL_CARD, tmp_path, size="1m")
    assert found["full"] == ("Not saved (the card holding ui.json is full: No space left on device): the changes hold "
                             "until the app restarts; make room on it, then save again (docs/operations.md, Recovering "
                             "a table).")
    assert found["read-only"] == ("Not saved (the card holding ui.json has turned read-only, as a failing SD card "
                                  "does: Read-only file system): the changes hold until the app restarts; check it "
                                  "(docs/operations.md, Recovering a table).")
    for card in ("full", "read-only"):
        assert found[f"{card} pin"] == "9999" and found[f"{card} files"] == ["syslog", "ui.json"][card == "read-only":]
