"""The kiosk's first start on a card gone bad: the real `companion ui run --kiosk` on a small card of its own.

The card is a tmpfs in a user and mount namespace (`tests.small_card`), set up
as the service sets its folders (systemd/table-companion.service: ``KIVY_HOME``,
``XDG_DATA_HOME``, ``XDG_CONFIG_HOME`` and ``COMPANION_CAFE_DIR`` all on it),
Kivy's folder not made yet, as before the kiosk's first start. A game of 5
steps is journalled on it, then the card is remounted read-only or filled by a
log, and the app started offscreen. Skipped where the machine allows no namespace.
"""

from __future__ import annotations

from pathlib import Path

from tests.small_card import on_a_card

START_ON_THE_CARD = """
import json, os, subprocess, sys
from pathlib import Path
from companion.journal import Journal
from companion.session import Session
from tests.small_card import fill_card
card = Path(sys.argv[1]).resolve()
env = {k: v for k, v in os.environ.items() if not k.startswith(("COMPANION_", "KIVY_", "XDG_"))}
env.update(HOME=str(card / "home"), KIVY_HOME=str(card / "kivy"), XDG_DATA_HOME=str(card),
           XDG_CONFIG_HOME=str(card / "config"), COMPANION_CAFE_DIR=str(card / "cafe"), KIVY_NO_ARGS="1",
           SDL_VIDEODRIVER="offscreen")
speech = card.parent / "speech"  # off the card: a voice heard, whatever this machine's sound
speech.mkdir(exist_ok=True)
(speech / "espeak-ng").write_text("#!/bin/sh\\nexit 0\\n")
(speech / "espeak-ng").chmod(0o755)
env["PATH"] = f"{speech}:{env.get('PATH', '')}"
mode, _, then = sys.argv[2].partition("+")  # "+start": a game begun from home once it shows
if mode == "cut-full":  # a game an update cuts, its journal held by a table (its -wal and -shm stay)
    from tests.games.old_records import journal_of, temple_step_that_no_longer_fits
    journal_of(card / "table-companion" / "journal.sqlite3", temple_step_that_no_longer_fits())
    held = Journal(card / "table-companion" / "journal.sqlite3")
elif mode not in ("new", "new-full"):  # a card the kiosk never started on has no journal yet either
    journal = Journal(card / "table-companion" / "journal.sqlite3")
    session = Session.new("blackpool", ["red", "blue"], journal=journal)
    for _ in range(5):
        session.act(session.legal()[0])
    journal.close()
run = [sys.executable, "-m", "companion", "ui", "run", "--kiosk", "--bench-start" if then else "--bench-exit"]
if len(sys.argv) > 3:  # Kivy's folder made whole by a start with room, then its config.ini as given
    subprocess.run(run, capture_output=True, env=env, timeout=240, check=True)
    (card / "kivy" / "config.ini").write_text(sys.argv[3])
if mode in ("read-only", "new"):
    subprocess.run(["mount", "-o", "remount,ro", str(card)], check=True)
else:
    fill_card(card)
done = subprocess.run(run, capture_output=True, text=True, env=env, timeout=240)
report = json.loads(done.stdout) if done.returncode == 0 else {}
print(json.dumps({"code": done.returncode, "stderr": done.stderr, "screen": report.get("screen"),
                  "status": report.get("status", ""), "saving": report.get("saving", ""),
                  "table_status": report.get("table_status", ""), "unsaved": report.get("unsaved", "")}))
"""


def test_the_kiosk_starts_on_a_card_gone_read_only_before_kivy_made_its_folder(tmp_path: Path) -> None:
    """Kivy's import made its folder: "companion: Read-only file system (.../kivy)" and exit 1, a kiosk
    restarting every 5 s with the screen black."""
    found = on_a_card(START_ON_THE_CARD, tmp_path, "8m", "read-only")
    assert found["code"] == 0, found["stderr"]
    assert found["screen"] == "table"  # the game in progress, refereed from memory
    assert "the card holding the journal has turned read-only" in found["status"]
    assert "check the card (dmesg | grep -i 'read-only'" in found["status"]
    assert "The game in progress (Blackpool, 5 steps) was read from it and goes on." in found["status"]
    assert found["unsaved"] == "This game is not being saved: the card has turned read-only."  # once that is gone
    assert "Traceback" not in found["stderr"]


def test_the_kiosks_first_start_on_a_full_card_logs_no_traceback(tmp_path: Path) -> None:
    """Kivy wrote its first config.ini on a card without a byte left: "Unable to write the config" and a
    traceback in the log (the app went on)."""
    found = on_a_card(START_ON_THE_CARD, tmp_path, "2m", "full")
    assert found["code"] == 0, found["stderr"]
    assert found["screen"] == "table"
    assert "the card holding the journal is full (" in found["status"] and "make room on it" in found["status"]
    assert "Traceback" not in found["stderr"] and "Unable to write" not in found["stderr"]


def test_a_kiosk_never_started_on_a_card_gone_read_only_says_the_card_failed(tmp_path: Path) -> None:
    """Neither Kivy's folder nor the journal's made: after Kivy, the note read "no folder for the journal ...:
    Read-only file system", the card unnamed."""
    found = on_a_card(START_ON_THE_CARD, tmp_path, "8m", "new")
    assert found["code"] == 0, found["stderr"]
    assert found["screen"] == "home"
    assert ("table-companion/journal.sqlite3: the card holding the journal has turned read-only (Read-only file "
            "system), as a failing SD card does: check the card (dmesg | grep -i 'read-only'; docs/operations.md, "
            "Recovering a table); this table keeps its game only until the app closes.") in found["status"]
    assert "Traceback" not in found["stderr"]


def test_a_kivy_config_left_behind_on_a_full_card_is_one_plain_line(tmp_path: Path) -> None:
    """A config.ini of another version (here empty, as a write cut short leaves it) in a Kivy folder otherwise
    whole: Kivy rewrote it at import, and on a full card logged "Unable to write the config" and a traceback of
    "No space left on device" at every start."""
    found = on_a_card(START_ON_THE_CARD, tmp_path, "8m", "full", "")
    assert found["code"] == 0, found["stderr"]
    assert found["screen"] == "table"
    assert "Traceback" not in found["stderr"] and "Unable to write" not in found["stderr"]
    kivy = [line for line in found["stderr"].splitlines() if "Kivy" in line]
    assert len(kivy) == 1 and "cannot be written (No space left on device)" in kivy[0], found["stderr"]


def test_a_kiosk_on_a_full_card_says_before_a_game_begins_that_it_is_not_saved(tmp_path: Path) -> None:
    """The journal could not be made on a full card, so the table referees in memory: home showed the start-up
    note, and a game begun from it (or the attract screen's next table) played on with nothing said that the
    next power cut or restart would lose it."""
    found = on_a_card(START_ON_THE_CARD, tmp_path, "3m", "new-full+start")
    assert found["code"] == 0, found["stderr"]
    assert found["screen"] == "home"
    assert found["saving"] == ("Games are not being saved: the card is full. A game played now is lost when the app "
                               "closes or the power goes off. Owner: make room on the card, then restart the table.")
    assert found["unsaved"] == "This game is not being saved: the card is full."
    assert found["table_status"].startswith("This game is not being saved: the card is full.")
    assert "Traceback" not in found["stderr"]


def test_a_game_going_on_in_memory_as_a_full_card_refused_its_copy_keeps_the_tables_not_saved_line(
        tmp_path: Path) -> None:
    """A game an update cuts goes on from its steps that fit, copied into the journal: on a full card the copy was
    refused and the game went on with no journal at all, so once the start-up note was gone the table's line said
    nothing of it, where a game begun on a full card keeps 'This game is not being saved: ...' there."""
    found = on_a_card(START_ON_THE_CARD, tmp_path, "2m", "cut-full")
    assert found["code"] == 0, found["stderr"]
    assert found["screen"] == "table"
    assert "in memory only, as the copy it goes on in could not be written: the card holding" in found["status"]
    assert found["unsaved"] == "This game is not being saved: the card is full."  # as for a game begun on it
    assert "Traceback" not in found["stderr"]
