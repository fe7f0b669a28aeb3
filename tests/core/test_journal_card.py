"""The journal's card full, failing mid-write or gone read-only: what the table says, and that the game survives.

Real conditions, never the machine's own folders: a card that fills up is a
tmpfs of 3 MB mounted in a user and mount namespace of the test's own
(``unshare``), so SQLite meets the kernel's real "No space left on device"; a
card gone read-only is that tmpfs remounted read-only between two starts, as
the kernel remounts a failing card; a write the card refuses mid-game is
``RLIMIT_FSIZE`` lowered in a child (the kernel's EFBIG: SQLite's "disk I/O
error", as a card remounted read-only under a write gives). Tests that need a
namespace are skipped where the machine allows none.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.small_card import on_a_card

ROOT = Path(__file__).resolve().parents[2]

# Plays a Blackpool game on the card at argv[1] as the kiosk does (random offered steps) until the card is full,
# then tries an undo, closes the table and starts it again on the same full card.
FILL_THE_CARD = """
import json, random, sys
from pathlib import Path
from companion.controller import Controller
from companion.observations import Touch
from companion.session import Session, open_table
path = Path(sys.argv[1]) / "journal.sqlite3"
journal, _, _ = open_table(path)
session = Session.new("blackpool", ["red", "blue", "green"], journal=journal)
controller = Controller(session)
pick = random.Random(1)
taken = []
for _ in range(20000):
    update = controller.handle(Touch("act", pick.choice(session.legal())))
    if update.kind == "refused":
        break
    taken.append(update.action)
found = {"refused": update.text, "taken": len(taken), "kept": session.log == taken}
found["undo"] = controller.handle(Touch("undo")).text
found["after"] = session.log == taken
journal.close()
journal, resumed, note = open_table(path)
found["resumed"] = resumed is not None and resumed.log == taken
found["note"] = note
print(json.dumps(found))
"""

# Journals a game of 5 steps on the card at argv[1], remounts the card read-only and starts the table again.
GONE_READ_ONLY = """
import json, subprocess, sys
from pathlib import Path
from companion.controller import Controller
from companion.journal import Journal
from companion.observations import Touch
from companion.session import Session, open_table
path = Path(sys.argv[1]) / "journal.sqlite3"
journal = Journal(path)
session = Session.new("blackpool", ["red", "blue"], journal=journal)
for _ in range(5):
    session.act(session.legal()[0])
journal.close()
subprocess.run(["mount", "-o", "remount,ro", sys.argv[1]], check=True)
journal, resumed, note = open_table(path)
found = {"steps": len(resumed.log), "note": note, "on_disk": journal.kept_on_disk}
found["step"] = Controller(resumed).handle(Touch("act", resumed.legal()[0])).kind
print(json.dumps(found))
"""

# A game of 5 steps journalled on the card at argv[1] by a table that has not let go of the file (its -wal and -shm
# still there, as after a power cut) and never made the lock file beside it, or that closed it; a log then takes
# the card's last bytes, and the table starts.
FULL_AT_START = """
import json, sys
from pathlib import Path
from companion.controller import Controller
from companion.journal import Journal
from companion.observations import Touch
from companion.session import Session, open_table
from tests.small_card import fill_card
path = Path(sys.argv[1]) / "journal.sqlite3"
before = Journal(path)
session = Session.new("blackpool", ["red", "blue"], journal=before)
for _ in range(5):
    session.act(session.legal()[0])
if sys.argv[2:] == ["closed"]:  # let go of cleanly: its -wal and -shm are gone, to be made again at start
    before.close()
fill_card(path.parent)
journal, resumed, note = open_table(path)
found = {"steps": len(resumed.log), "note": note, "on_disk": journal.kept_on_disk}
found["step"] = Controller(resumed).handle(Touch("act", resumed.legal()[0])).text
print(json.dumps(found))
"""

# A game of 5 steps journalled on the card at argv[1] by a table still holding it; a log takes the card's last
# bytes, and the table starts with a journal past the size at which it is set aside for a new one.
FULL_AT_ROLLOVER = """
import json, sys
from pathlib import Path
import companion.journal
from companion.journal import Journal
from companion.session import Session, open_table
from tests.small_card import fill_card
path = Path(sys.argv[1]) / "journal.sqlite3"
before = Journal(path)
session = Session.new("blackpool", ["red", "blue"], journal=before)
for _ in range(5):
    session.act(session.legal()[0])
fill_card(path.parent)
companion.journal.ARCHIVE_AT_BYTES = path.stat().st_size  # the 64 MB, reached
journal, resumed, note = open_table(path)
files = sorted(file.name for file in path.parent.iterdir())
print(json.dumps({"steps": len(resumed.log), "note": note, "on_disk": journal.kept_on_disk, "files": files}))
"""

# A temple game journalled before an update, its last step no longer fitting, held open by a table (its -wal and
# -shm stay); a log takes the card's last bytes and the table starts: the steps that fit must be copied to go on.
CUT_ON_A_FULL_CARD = """
import json, sys
from pathlib import Path
from companion.controller import Controller
from companion.journal import Journal
from companion.observations import Touch
from companion.session import open_table
from tests.games.blackpool.test_old_journals import _six_loaded_as_move
from tests.games.old_records import journal_of, temple_step_that_no_longer_fits
from tests.small_card import fill_card
path = Path(sys.argv[1]) / "journal.sqlite3"
record = temple_step_that_no_longer_fits() if sys.argv[2] == "cut" else _six_loaded_as_move()
journal_of(path, record)
held = Journal(path)
fill_card(path.parent)
journal, resumed, note = open_table(path)
found = {"fits": resumed is not None and resumed.log == record["actions"][:5], "note": note}
found["six"] = resumed is not None and resumed.pending().text.startswith("Yellow rolled a six")
found["step"] = Controller(resumed).handle(Touch("act", resumed.legal()[0])).kind if resumed else None
journal.close()
held.close()
print(json.dumps(found))
"""

# Plays 20 Targi steps on the journal at argv[1], then lets no file grow by a byte (the kernel refuses the write
# with EFBIG), tries a step, an undo and a new game, gives the room back and plays on; then starts again.
WRITE_REFUSED = """
import json, random, resource, signal, sys
from pathlib import Path
from companion.controller import Controller
from companion.errors import CompanionError
from companion.observations import Touch
from companion.session import Session, open_table
path = Path(sys.argv[1])
journal, _, _ = open_table(path)
session = Session.new("targi", ["white", "black"], journal=journal)
controller = Controller(session)
pick = random.Random(1)
for _ in range(20):
    controller.handle(Touch("act", pick.choice(session.legal())))
before = list(session.log)
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
size = max(p.stat().st_size for p in path.parent.iterdir())
resource.setrlimit(resource.RLIMIT_FSIZE, (size, resource.RLIM_INFINITY))
found = {"step": controller.handle(Touch("act", session.legal()[0])).text}
found["undo"] = controller.handle(Touch("undo")).text
try:
    Session.new("targi", ["white", "black"], journal=journal)
    found["new_game"] = "begun"
except CompanionError as refusal:
    found["new_game"] = refusal.message
found["unchanged"] = session.log == before
resource.setrlimit(resource.RLIMIT_FSIZE, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
found["again"] = controller.handle(Touch("act", session.legal()[0])).kind
played = list(session.log)
journal.close()
_, resumed, _ = open_table(path)
found["resumed"] = resumed is not None and resumed.log == played and len(played) == len(before) + 1
print(json.dumps(found))
"""


def test_a_step_a_full_card_refuses_says_it_was_not_saved_and_what_to_do(tmp_path: Path) -> None:
    """It read "the journal /var/lib/.../journal.sqlite3 cannot be written: database or disk is full", spoken aloud
    with the path, and said neither whether the tapped step counted nor what would mend it."""
    found = on_a_card(FILL_THE_CARD, tmp_path)
    assert found["taken"] > 100 and found["kept"] and found["after"] and found["resumed"]
    full = ("the card holding the journal is full (database or disk is full); make room on it (older journals "
            "beside it, or whatever filled it: df -h), then try again (docs/operations.md, Recovering a table).")
    assert found["refused"] == f"Not saved, so this step is not taken and the game stays at its last saved step: {full}"
    assert found["undo"] == f"Not saved, so nothing is taken back and the game stays at its last saved step: {full}"
    # The refused step's unfinished write stays in the WAL, so the restart also names it as not in the journal.
    assert "The card holding the journal is full: no step can be written" in found["note"]
    assert "/" not in found["refused"].split("df -h")[0]  # no path read out at the table


def test_a_card_gone_read_only_is_named_at_start_and_the_game_goes_on_in_memory(tmp_path: Path) -> None:
    """The note gave SQLite's "attempt to write a readonly database" alone: nothing said the card had failed."""
    found = on_a_card(GONE_READ_ONLY, tmp_path, size="8m")
    assert found["steps"] == 5 and found["step"] == "step" and not found["on_disk"]
    assert ("cannot be opened: the card holding the journal has turned read-only (unable to open database "
            "file), as a failing SD card does: check the card (dmesg | grep -i 'read-only'; docs/operations.md, "
            "Recovering a table); this table keeps its game only until the app closes. The game in "
            "progress (Blackpool, 5 steps) was read from it and goes on.") in found["note"]


def test_a_table_started_on_a_full_card_resumes_its_game_instead_of_crashing(tmp_path: Path) -> None:
    """The pid written into the lock file beside the journal found no room: OSError out of the start, and a kiosk
    restarting into the same crash every 5 seconds, the screen black."""
    found = on_a_card(FULL_AT_START, tmp_path, size="2m")
    assert found["steps"] == 5 and found["on_disk"]
    assert "The card holding the journal is full: no step can be written" in found["note"]
    assert found["step"].startswith("Not saved, so this step is not taken")


def test_a_journal_a_full_card_has_no_room_to_open_is_said_with_what_to_do(tmp_path: Path) -> None:
    """Its -shm could not be made: the note said only "cannot be opened: disk I/O error"."""
    found = on_a_card(FULL_AT_START, tmp_path, "2m", "closed")
    assert found["steps"] == 5 and not found["on_disk"] and not found["step"].startswith("Not saved")
    assert ("cannot be opened: the card holding the journal is full (disk I/O error): make room on it (older "
            "journals beside it, or whatever filled it: df -h), then restart the table between games (the steps played "
            "in memory end with it) to keep them on the card again (docs/operations.md, Recovering a table); this "
            "table keeps its game only until the app closes. "
            "The game in progress (Blackpool, 5 steps) was read from it and goes on.") in found["note"]


@pytest.mark.skipif(sys.platform == "win32", reason="RLIMIT_FSIZE is POSIX")
def test_a_write_the_card_refuses_mid_game_is_refused_by_name_and_play_goes_on_after(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-c", WRITE_REFUSED, str(tmp_path / "journal.sqlite3")],
                          capture_output=True, text=True, timeout=300, cwd=ROOT)  # fmt: skip
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    failed = ("the card holding the journal could not write it (disk I/O error); check the card (dmesg), then try "
              "again (docs/operations.md, Recovering a table).")
    assert found["step"] == f"Not saved, so this step is not taken and the game stays at its last saved step: {failed}"
    assert found["undo"].startswith("Not saved, so nothing is taken back") and found["undo"].endswith(failed)
    assert found["new_game"].startswith("The new game could not be saved, so it is not begun")
    assert found["unchanged"] and found["again"] == "step" and found["resumed"]


def test_a_journal_due_for_its_rollover_on_a_full_card_says_the_card_is_full(tmp_path: Path) -> None:
    """The new journal could not be written, yet the note said the journal "could not be renamed (the journal
    .../.journal.sqlite3.new cannot be opened: ...)", and told the owner to restart between games, as for a table
    in memory, of a journal still in use."""
    found = on_a_card(FULL_AT_ROLLOVER, tmp_path, size="2m")
    assert found["steps"] == 5 and found["on_disk"]
    assert ".journal.sqlite3.new" not in found["files"] and "journal.sqlite3" in found["files"]
    assert found["note"].startswith(
        "The journal had grown to 0 MB, but the new journal to follow it could not be written, as the card holding "
        "the journal is full: the journal goes on in use, its games safe, and starting slows as it grows; make room "
        "on it (older journals beside it, or whatever filled it: df -h), and the next start begins the new one ")
    assert "renamed" not in found["note"] and ".new" not in found["note"]


def test_a_game_an_update_cuts_goes_on_in_memory_when_a_full_card_refuses_its_copy(tmp_path: Path) -> None:
    """The copy of the steps that fit could not be written: the game was left at home with the rules' reason
    alone ("could not be resumed (Blue 1 cannot reach ...); it stays in the journal"), the card unnamed."""
    found = on_a_card(CUT_ON_A_FULL_CARD, tmp_path, "2m", "cut")
    assert found["fits"] and found["step"] == "step"  # refereed from memory
    note = found["note"]
    assert note.startswith("The game in progress could not be resumed whole: its step 6 of 6 (")
    assert ("It goes on from the step before, with 5 of its steps, in memory only, as the copy it goes on in could "
            "not be written: the card holding the journal is full (database or disk is full). Check the board against "
            "it; make room on it (older journals beside it, or whatever filled it: df -h), then restart the table "
            "between games, since the steps played until then end with the app") in note
    assert "The game as it was journalled is kept as game 1 (companion export game.json --id 1)." in note
    assert note.endswith("The card holding the journal is full: no step can be written. No older journal lies beside "
                         "it to delete.")  # the table plays: no "and the table cannot play"


def test_a_start_an_update_reads_otherwise_goes_on_in_memory_when_a_full_card_refuses_its_copy(tmp_path: Path) -> None:
    """The copy on the start as read now could not be written: the game was left at home, "could not be resumed (a
    roll of 6 is decided in phase "six" ...)", the card unnamed."""
    found = on_a_card(CUT_ON_A_FULL_CARD, tmp_path, "2m", "reread")
    assert found["six"] and found["step"] == "step"
    assert found["note"].startswith("The game in progress began on a position this version of the companion reads "
                                    'otherwise (a roll of 6 is decided in phase "six"')
    note = found["note"]
    assert ("it goes on as read now, in memory only, as the copy it goes on in could not be written: the card holding "
            "the journal is full (database or disk is full). Check the board against it; make room on it") in note


# A game of 5 steps journalled on the card at argv[1] after an old one; a page of the old game is spoilt and a table
# still holds the journal (its -wal and -shm stay, as after a power cut); a log takes the card's last bytes, and the
# table starts: the damaged journal is to be set aside for a new one holding the game, which the full card refuses.
DAMAGED_ON_A_FULL_CARD = """
import json, sqlite3, sys
from pathlib import Path
from companion.controller import Controller
from companion.journal import Journal
from companion.observations import Touch
from companion.session import Session, open_table
from tests.core.damage import old_game_of_many_steps, spoil_oldest_steps
path = Path(sys.argv[1]) / "journal.sqlite3"
journal = Journal(path)
old_game_of_many_steps(path, journal, "race")
session = Session.new("blackpool", ["red", "blue"], journal=journal)
for _ in range(5):
    session.act(session.legal()[0])
journal.close()
spoil_oldest_steps(path)  # the oldest rows of the old game: far from the game on the table
crashed = sqlite3.connect(path)  # a table that has not let go of the file: its -wal and -shm stay
crashed.execute("CREATE TABLE IF NOT EXISTS unfinished (x)")
with open(path.with_name("syslog"), "wb", buffering=0) as log:
    try:
        while True:
            log.write(bytes(4096))
    except OSError:
        pass
journal, resumed, note = open_table(path)
files = sorted(file.name for file in path.parent.iterdir())
found = {"steps": len(resumed.log) if resumed else None, "note": note, "files": files}
found["step"] = Controller(resumed).handle(Touch("act", resumed.legal()[0])).kind if resumed else None
print(json.dumps(found))
"""


def test_a_damaged_journal_a_full_card_cannot_set_aside_names_the_full_card(tmp_path: Path) -> None:
    """The new journal to hold the game could not be written, yet the note said "It could not be set aside (the
    journal .../.journal.sqlite3.new cannot be opened: ...)", a path and SQLite's words, the card unnamed."""
    found = on_a_card(DAMAGED_ON_A_FULL_CARD, tmp_path, size="8m")
    assert found["steps"] == 5 and found["step"] == "step"  # refereed from memory
    note = found["note"]
    assert "cannot be read as a journal" in note
    assert ("It could not be set aside, as the new journal to hold its game could not be written: the card holding "
            "the journal is full (") in note
    assert ("make room on it (older journals beside it, or whatever filled it: df -h), then restart the table between "
            "games (the steps played in memory end with it) to keep them on the card again") in note
    assert ".new" not in note and "cannot be opened" not in note
    assert not [name for name in found["files"] if ".damaged-" in name or name.endswith(".new")]  # nothing moved


# What a table is told of its card before a game begins (`card_state`): room, full, then read-only.
CARD_STATE = """
import json, subprocess, sys
from pathlib import Path
from companion.journal import Journal, card_state
from tests.small_card import fill_card
card = Path(sys.argv[1])
path = card / "table-companion" / "journal.sqlite3"
journal = Journal(path)
found = {"room": card_state(path), "unmade": card_state(card / "later" / "journal.sqlite3")}
fill_card(card)
found["full"] = card_state(path)
journal.close()
(card / "syslog").unlink()
subprocess.run(["mount", "-o", "remount,ro", str(card)], check=True)
found["read_only"] = card_state(path)
print(json.dumps(found))
"""


def test_the_card_is_told_full_or_read_only_in_the_players_words(tmp_path: Path) -> None:
    """Home said nothing of a card that had filled: the new game was refused only once Start was tapped."""
    found = on_a_card(CARD_STATE, tmp_path)
    assert found == {"room": "", "unmade": "", "full": "the card is full", "read_only": "the card has turned read-only"}


# A game of 5 steps, then a card left with 300 kB: room for the new game's first row, none to speak of after.
NEW_GAME_ON_A_NEARLY_FULL_CARD = """
import json, os, sys
from pathlib import Path
from companion.errors import JournalNotWritten
from companion.journal import Journal
from companion.session import Session
from tests.small_card import fill_card
card = Path(sys.argv[1])
journal = Journal(card / "journal.sqlite3")
session = Session.new("blackpool", ["red", "blue"], journal=journal)
for _ in range(5):
    session.act(session.legal()[0])
fill_card(card)
log = card / "syslog"
os.truncate(log, log.stat().st_size - 300 * 1024)
try:
    Session.new("targi", ["white", "black"], journal=journal)
    found = {"new_game": "begun"}
except JournalNotWritten as refusal:
    found = {"new_game": refusal.message}
active = journal.active_game()
found["kept"] = [active.game, active.standing()] if active else None
print(json.dumps(found))
"""


def test_a_new_game_is_not_begun_on_a_card_with_under_a_megabyte_left(tmp_path: Path) -> None:
    """Its first row fitted: the game in play was set aside for one whose steps the card would refuse."""
    found = on_a_card(NEW_GAME_ON_A_NEARLY_FULL_CARD, tmp_path, "8m")
    assert found["new_game"] == (
        "The new game could not be saved, so it is not begun (the game before stays as it was): the card holding "
        "the journal is full (under 1 MB free); make room on it (older journals beside it, or whatever filled it: "
        "df -h), then try again (docs/operations.md, Recovering a table).")
    assert found["kept"] == ["blackpool", 5]
