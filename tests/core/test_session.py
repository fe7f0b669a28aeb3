"""Session, undo/redo, journal resume and game records, on the test race."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from companion.controller import Controller
from companion.errors import (
    BadRequest,
    IllegalAction,
    InvalidAction,
    InvalidPosition,
    JournalDamaged,
    JournalUnavailable,
    NothingToUndo,
)
from companion.finished import finished_game
from companion.game import kind_words
from companion.journal import Journal
from companion.observations import Touch
from companion.registry import game_class
from companion.session import Session, open_table, replay_record


def play(session: Session, *actions: dict) -> None:
    for action in actions:
        session.act(action)


def journal_with_row(tmp_path: Path, game_id: str, players: list[str], action: dict) -> Path:
    """A journal whose game's first step is ``action`` as written straight into the file (by hand, or by an
    older version that accepted it)."""
    path = tmp_path / "journal.sqlite3"
    Session.new(game_id, players, journal=Journal(path))
    raw = sqlite3.connect(path)
    raw.execute("INSERT INTO steps VALUES (1, 1, 'act', ?, 'now')", (json.dumps(action),))
    raw.commit()
    raw.close()
    return path


def test_new_game_waits_for_the_first_roll() -> None:
    session = Session.new("race", ["red", "blue"])
    pending = session.pending()
    assert (pending.kind, pending.player, pending.die) == ("roll", "red", "d6")
    assert [a["value"] for a in session.legal()] == [1, 2, 3, 4, 5, 6]


def test_any_legal_action_works_verbatim_with_its_text() -> None:
    session = Session.new("race", ["red", "blue"])
    session.act(session.legal()[3])
    assert session.document()["roll"] == 4


def test_refused_actions_leave_the_game_untouched() -> None:
    session = Session.new("race", ["red", "blue"])
    before = session.document()
    with pytest.raises(IllegalAction) as refusal:
        session.act({"type": "advance"})
    assert refusal.value.rule == "R2"
    with pytest.raises(InvalidAction):
        session.act({"type": "roll", "value": 9})
    with pytest.raises(InvalidAction):
        session.act(["not", "an", "object"])
    assert session.document() == before and session.log == []


def test_undo_and_redo_walk_the_log() -> None:
    session = Session.new("race", ["red", "blue"])
    play(session, {"type": "roll", "value": 3}, {"type": "advance"})
    after = session.document()
    note = session.undo().note
    assert session.document()["roll"] == 3
    assert note.startswith("Taken back: ") and len(note) > len("Taken back: .")  # says which action
    chance_note = session.undo().note
    assert "Correction" in chance_note and session.document()["roll"] is None
    with pytest.raises(NothingToUndo):
        session.undo()
    session.redo()
    session.redo()
    assert session.document() == after
    with pytest.raises(NothingToUndo):
        session.redo()


def test_a_new_action_clears_redo() -> None:
    session = Session.new("race", ["red", "blue"])
    play(session, {"type": "roll", "value": 3})
    session.undo()
    play(session, {"type": "roll", "value": 5})
    assert not session.can_redo


def test_bad_players_and_options_are_refused() -> None:
    with pytest.raises(BadRequest, match="needs 2 to 3 players, not 1"):
        Session.new("race", ["red"])
    with pytest.raises(BadRequest, match="unknown colour"):
        Session.new("race", ["red", "pink"])
    with pytest.raises(BadRequest, match="no option"):
        Session.new("race", ["red", "blue"], {"speed": 2})
    with pytest.raises(BadRequest, match="cannot be"):
        Session.new("race", ["red", "blue"], {"goal": 13})
    with pytest.raises(BadRequest, match="no profile"):
        Session.new("race", ["red", "blue"], profile="fast")
    # A profile given as a list or an object (Python callers; the referee checks its type first) was a TypeError.
    for odd in (["long"], {"a": 1}, 3):
        with pytest.raises(BadRequest, match="no profile"):
            Session.new("race", ["red", "blue"], profile=odd)  # type: ignore[arg-type]


def test_profiles_set_options() -> None:
    assert Session.new("race", ["red", "blue"], profile="long").document()["options"] == {"goal": 20}


def test_load_names_every_problem() -> None:
    with pytest.raises(InvalidPosition) as error:
        Session.load("race", {"game": "race", "players": ["red"], "positions": "x"})
    assert len(error.value.problems) == 2
    with pytest.raises(InvalidPosition, match="not 'race'"):
        Session.load("race", {"game": "blackpool"})


def test_journal_resumes_the_game_with_its_undo_history(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    journal = Journal(path)
    session = Session.new("race", ["red", "blue"], journal=journal)
    play(session, {"type": "roll", "value": 3}, {"type": "advance"}, {"type": "roll", "value": 2})
    session.undo()
    journal.close()

    reopened = Journal(path)
    resumed = Session.resume(reopened)
    assert resumed is not None
    assert resumed.document() == session.document()
    assert resumed.log == session.log
    resumed.redo()
    assert resumed.document()["roll"] == 2


def test_journal_is_wal_and_marks_abandoned_games(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    journal = Journal(path)
    Session.new("race", ["red", "blue"], journal=journal)
    Session.new("race", ["green", "blue"], journal=journal)
    raw = sqlite3.connect(path)
    assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert [row[0] for row in raw.execute("SELECT status FROM games ORDER BY id")] == ["abandoned", "active"]


def test_a_damaged_journal_is_set_aside_and_a_new_one_begun(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    journal = Journal(path)
    Session.new("race", ["red", "blue"], journal=journal).act({"type": "roll", "value": 3})
    journal.close()
    with path.open("r+b") as file:  # what a failing SD card leaves: a page header of noise
        file.seek(4096)
        file.write(b"\xff" * 64)
    with pytest.raises(JournalDamaged, match="cannot be read as a journal: database disk image is malformed"):
        Journal(path)

    journal, session, note = open_table(path)
    assert session is None and "It is kept as journal.sqlite3.damaged-" in note
    kept = [p for p in tmp_path.iterdir() if p.name.startswith("journal.sqlite3.damaged-")]
    assert kept and kept[0].read_bytes()[4096:4160] == b"\xff" * 64  # kept as it was, for recovery
    Session.new("race", ["red", "blue"], journal=journal).act({"type": "roll", "value": 4})
    assert Session.resume(Journal(path)).document()["roll"] == 4


@pytest.mark.parametrize(
    ("action", "why"),
    [("{\"type\": \"roll\", \"value\": 9}", "1 to 6"), ("{not json", "has a row that is not JSON")],
)
def test_a_game_that_no_longer_replays_stays_in_the_journal(tmp_path: Path, action: str, why: str) -> None:
    path = tmp_path / "journal.sqlite3"
    Session.new("race", ["red", "blue"], journal=Journal(path)).act({"type": "roll", "value": 3})
    raw = sqlite3.connect(path)
    raw.execute("UPDATE steps SET action = ?", (action,))
    raw.commit()
    raw.close()

    journal, session, note = open_table(path)
    assert session is None
    assert note.startswith("The game in progress could not be resumed") and why in note
    if why == "1 to 6":  # read whole, its number tells staff how to write it out; a row not JSON reads no number
        assert note.endswith("it stays in the journal as game 1 (companion export game.json --id 1 writes it out).")
    assert sqlite3.connect(path).execute("SELECT status FROM games").fetchall() == [("active",)]
    assert Session.new("race", ["red", "blue"], journal=journal).pending().kind == "roll"


@pytest.mark.parametrize(
    ("op", "action", "why"),
    [
        ("redo", None, "journal step 2 ('redo') has no undone step to redo"),
        ("act", "[1, 2]", "journal step 2 ('act') has no action object"),
    ],
)
def test_an_edited_journal_row_is_named_instead_of_crashing_the_start(
    tmp_path: Path, op: str, action: str | None, why: str
) -> None:
    path = tmp_path / "journal.sqlite3"
    Session.new("race", ["red", "blue"], journal=Journal(path)).act({"type": "roll", "value": 3})
    raw = sqlite3.connect(path)
    raw.execute("INSERT INTO steps VALUES (1, (SELECT MAX(seq) + 1 FROM steps), ?, ?, 'now')", (op, action))
    raw.commit()
    raw.close()

    _journal, session, note = open_table(path)
    assert session is None and why in note


def test_a_journal_that_cannot_be_opened_leaves_a_table_that_still_referees(tmp_path: Path) -> None:
    """A folder given as the journal, or a path under a file: named, never set aside, the game kept in memory."""
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "keep.txt").write_text("a café's file")
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x")
    cases = ((folder, "is a folder, not a journal file"), (blocker / "j.sqlite3", "no folder for the journal"))
    for path, why in cases:
        with pytest.raises(JournalUnavailable, match=why):
            Journal(path)
        journal, session, note = open_table(path)
        assert session is None and why in note and "only until the app closes" in note
        Session.new("race", ["red", "blue"], journal=journal).act({"type": "roll", "value": 4})
    assert (folder / "keep.txt").read_text() == "a café's file" and blocker.read_text() == "x"


def test_a_full_disk_refuses_the_step_by_name_and_keeps_the_game(tmp_path: Path) -> None:
    """SQLite's own page limit stands in for a full SD card: the same SQLITE_FULL error, no mocking."""
    path = tmp_path / "journal.sqlite3"
    journal = Journal(path)
    session = Session.new("race", ["red", "blue"], journal=journal)
    controller = Controller(session)
    (pages,) = journal._db.execute("PRAGMA page_count").fetchone()
    journal._db.execute(f"PRAGMA max_page_count = {pages}")
    taken = []
    for _ in range(300):
        update = controller.handle(Touch("act", session.legal()[0]))
        if update.kind == "refused":
            break
        taken.append(update.action)
    assert update.kind == "refused" and update.text.startswith("Not saved, so this step is not taken")
    assert "the card holding the journal is full (database or disk is full); make room on it" in update.text
    assert session.log == taken  # the refused step left no trace in memory either

    journal._db.execute(f"PRAGMA max_page_count = {pages * 100}")  # room again
    assert controller.handle(Touch("act", session.legal()[0])).kind == "step"
    assert Session.resume(Journal(path)).log == session.log


def test_a_journal_action_without_a_type_is_refused_as_a_typed_one_would_be(tmp_path: Path) -> None:
    """Targi's engine reads the type first; an edited row without one raised KeyError at start-up."""
    path = journal_with_row(tmp_path, "targi", ["white", "black"], {"value": 3})
    _journal, session, note = open_table(path)
    assert session is None and 'needs a string "type"' in note


def test_finished_games_are_not_resumed_but_can_be_gone_back_into_after_a_restart(tmp_path: Path) -> None:
    """A misread winning roll, then a restart: the game was gone for good, its last roll beyond any undo."""
    path = tmp_path / "j.sqlite3"
    journal = Journal(path)
    session = Session.load("race", {"game": "race", "players": ["red", "blue"], "positions": [10, 0]}, journal)
    play(session, {"type": "roll", "value": 5}, {"type": "advance"})
    assert session.pending().is_over
    journal.close()  # the app restarts

    journal = Journal(path)
    assert Session.resume(journal) is None  # never back into play on its own
    last = finished_game(journal)
    assert last is not None and last.reopenable and last.result == "red wins."
    again = last.reopen(journal)
    assert again.pending().is_over and again.can_undo
    assert again.undo().note == "Taken back: red advances to 15. The game's end is taken back, and Red's win with it."
    assert again.undo().note.startswith("Correction: the roll entered last")
    journal.close()  # and again: the game is in play once more, at the roll to enter again
    resumed = Session.resume(Journal(path))
    assert resumed is not None and resumed.log == [] and resumed.pending().kind == "roll"


def test_record_export_replays_to_the_same_position() -> None:
    session = Session.new("race", ["red", "blue"], profile="long")
    play(session, {"type": "roll", "value": 6}, {"type": "advance"}, {"type": "roll", "value": 1}, {"type": "hold"})
    record = json.loads(json.dumps(session.export()))
    replayed = replay_record(record)
    assert replayed.document() == session.document()
    record["final"]["positions"] = [0, 0]
    with pytest.raises(InvalidPosition):
        replay_record(record)
    with pytest.raises(BadRequest):
        replay_record({"format": "something else"})


def test_a_game_resumed_on_cafe_data_edited_since_it_began_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The steps still replay, so the game goes on; but the table is told its board changed under it."""
    from companion import registry
    from companion.cli import main

    cafe = tmp_path / "cafe"
    assert main(["data", "template", "blackpool", str(cafe)]) == 0
    path = tmp_path / "journal.sqlite3"
    Session.new("blackpool", ["yellow", "red"], journal=Journal(path), cafe_dir=cafe)
    journal, session, note = open_table(path, cafe)
    assert session is not None and note == ""  # unchanged: nothing to say
    journal.close()  # the table stops; a journal is held by one table at a time
    cards = cafe / "blackpool" / "cards.json"
    cards.write_text(cards.read_text().replace('"count": 1', '"count": 2', 1))
    monkeypatch.setattr(registry, "_instances", {})  # the next start: nothing kept from this run
    _, session, note = open_table(path, cafe)
    assert session is not None and "its data changed since it began: cards (" in note and str(cards) in note


# The journal's tables as written before data digests and versions (an old kiosk's file).
OLD_LAYOUT = (
    "CREATE TABLE games (id INTEGER PRIMARY KEY, game TEXT NOT NULL, start TEXT NOT NULL, data TEXT NOT NULL,"
    " started TEXT NOT NULL, status TEXT NOT NULL) STRICT;"
    "CREATE TABLE steps (game_id INTEGER NOT NULL REFERENCES games (id), seq INTEGER NOT NULL, op TEXT NOT NULL,"
    " action TEXT, at TEXT NOT NULL, PRIMARY KEY (game_id, seq)) STRICT;"
)


def test_a_journal_from_before_data_digests_opens_and_resumes(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    raw = sqlite3.connect(path)
    raw.executescript(
        OLD_LAYOUT +
        """INSERT INTO games VALUES (1, 'race', '{"players": ["red", "blue"]}', '{}', 'then', 'active');"""
        """INSERT INTO steps VALUES (1, 1, 'act', '{"type": "roll", "value": 4}', 'then');"""
    )
    raw.commit()
    raw.close()
    _, session, note = open_table(path)
    assert session is not None and session.document()["roll"] == 4 and note == ""


@pytest.mark.parametrize("game_id", ["blackpool", "desert", "targi", "temple", "ttd"])
def test_a_key_no_action_of_its_type_has_is_refused_by_name_and_changes_nothing(tmp_path: Path, game_id: str) -> None:
    """Before, ``{"type": "roll", "value": 6, "extra": 1}`` was applied and journalled as it came."""
    journal = Journal(tmp_path / "j.sqlite3")
    cls = game_class(game_id)
    session = Session.new(game_id, list(cls.colours[: max(cls.min_players, 2)]), journal=journal)
    offered = session.legal()
    assert session.check(offered[0]).legal  # the offered shape itself is still fine
    for action in {a["type"]: a for a in offered}.values():
        typo = {k: v for k, v in action.items() if k != "text"} | {"extra": 1}
        before = session.document()
        name = kind_words(action["type"], session.game.kind_names)
        with pytest.raises(InvalidAction, match=rf"^{name}: 'extra' is not asked for; (say|it asks)"):
            session.act(typo)
        with pytest.raises(InvalidAction, match="'extra' is not asked for"):
            session.check(typo)
        assert session.document() == before and session.log == []
    assert journal.active_game() is not None and journal.active_game().steps == []


def test_a_journalled_action_with_an_extra_key_still_resumes(tmp_path: Path) -> None:
    """Rows written before extra keys were refused must not cost the table its game."""
    path = journal_with_row(tmp_path, "race", ["red", "blue"], {"type": "roll", "value": 3, "extra": 1})
    _journal, session, note = open_table(path)
    assert session is not None and session.document()["roll"] == 3, note


def test_nothing_to_redo_says_why() -> None:
    """ "nothing to redo" bare left a table that had undone a misread roll and entered the real one wondering
    where the step taken back had gone: the refusal now says which of the three it is."""
    session = Session.new("race", ["red", "blue"])

    def refused() -> str:
        with pytest.raises(NothingToUndo) as refusal:
            session.redo()
        return refusal.value.message

    assert refused() == "nothing to redo: no step has been entered yet"
    play(session, {"type": "roll", "value": 3})
    assert refused() == "nothing to redo: no step has been taken back since the last one was entered"
    session.undo()
    play(session, {"type": "roll", "value": 4})
    assert refused() == "nothing to redo: the step taken back ended when a new step was entered in its place"
    play(session, {"type": "advance"})
    assert refused() == "nothing to redo: no step has been taken back since the last one was entered"
    session.undo()
    session.undo()
    session.redo()
    session.redo()
    assert refused() == "nothing to redo: every step taken back has been put back"
    session.undo()
    session.undo()
    play(session, {"type": "roll", "value": 2})
    assert refused() == "nothing to redo: the 2 steps taken back ended when a new step was entered"
