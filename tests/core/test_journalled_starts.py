"""A game journalled on a loaded position a check added since refuses still resumes, replays and exports.

Each start below is one an older companion accepted and journalled; a check added since refuses it when it is
loaded now (Blackpool's traveller frozen in the centre, 0dc71fd7; the desert's attempts above attempts_per_turn,
f6fc8cf4; Targi's Targi facing the other player's, 16e7cefc; the temple's winner not named, eb23eaae; Through the
Desert's position without a turn, 62abc60e). The journal is a real SQLite file with the row written as that
companion wrote it; the game is resumed through the app's start-up (``open_table``) and exported and replayed
through the command line.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main
from companion.errors import InvalidPosition
from companion.journal import Journal
from companion.registry import create
from companion.session import Session, open_table, replay_record
from tests.games.old_records import journal_of
from tests.games.targi.helpers import B, W, actions_doc


def _played(game_id: str, players: list[str], done: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """The position of a seeded game of the house data, played on legal steps until ``done`` says it is reached."""
    session = Session.new(game_id, players)
    rng = random.Random(1)
    for _ in range(300):
        if done(session.document()):
            return session.document()
        session.act(rng.choice(session.legal()))
    raise AssertionError(f"no {game_id} position reached")


def _blackpool() -> dict[str, Any]:
    document = Session.new("blackpool", ["yellow", "red"]).document()
    document["travellers"]["yellow-1"]["frozen"] = True
    return document


def _desert() -> dict[str, Any]:
    document = _played("desert", ["black", "purple"], lambda d: d["step"]["kind"] == "end" and d["round"] > 0)
    document["tried"] = 2
    return document


def _targi() -> dict[str, Any]:
    return actions_doc(W, targi=[(7, B), (13, W)])  # in the order the document lists them


def _temple() -> dict[str, Any]:
    document = _played("temple", ["red", "blue"], lambda d: d["phase"] == "roll")
    document["pawns"]["red"] = ["chamber", "chamber"]
    document["turn"] = "blue"
    return document


def _ttd() -> dict[str, Any]:
    document = Session.new("ttd", ["red", "black"]).document()
    document["turn"] = None
    return document


# Each start, the problem today's loader finds first, and the steps journalled on it (the temple's Red wins at
# its next turn, as the older companion found once Red rolled).
STARTS: dict[str, tuple[Callable[[], dict[str, Any]], str, int]] = {
    "blackpool": (_blackpool, "yellow-1 waits in the centre and cannot be frozen", 3),
    "desert": (_desert, "tried: 2 attempts made this turn, but a turn has at most 1", 3),
    "targi": (_targi, "targi[1]: card 13 faces black's Targi on card 7 across the board (TG-P5)", 3),
    "temple": (_temple, "red has both pawns in the Treasure Chamber, so red has won (RU-16)", 1),
    "ttd": (_ttd, "turn: no player is named", 3),
}


def _record(game_id: str) -> dict[str, Any]:
    """A record of a game started on the refused position, with its first steps, each the first offered."""
    build, problem, steps = STARTS[game_id]
    document = build()
    with pytest.raises(InvalidPosition, match=re.escape(problem)):
        create(game_id).from_document(document)  # the loader of today refuses it
    with pytest.raises(InvalidPosition):
        Session.load(game_id, document)  # and a referee loading it now is refused as before
    start = {"kind": "load", "state": document}
    session = Session.from_start(game_id, start, played_on=True)
    for _ in range(steps):
        session.act(session.legal()[0])
    return {"format": "table-companion-record", "version": 1, "game": game_id, "start": start,
            "data": session.game.data.sources, "actions": session.log, "final": session.document()}  # fmt: skip


@pytest.fixture(autouse=True)
def _own_data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("COMPANION_CAFE_DIR", raising=False)
    monkeypatch.delenv("COMPANION_JOURNAL", raising=False)


@pytest.mark.parametrize("game_id", sorted(STARTS))
def test_the_game_resumes_at_its_step_and_the_table_is_told(game_id: str, tmp_path: Path) -> None:
    record = _record(game_id)
    path = tmp_path / "journal.sqlite3"
    game_id_in_journal = journal_of(path, record)
    journal, session, note = open_table(path)
    try:
        assert session is not None, note
        assert session.log == record["actions"] and session.document() == record["final"]
        assert note.startswith("The game began on a position this version of the companion refuses when it is"
                               f" loaded now ({STARTS[game_id][1]}")  # fmt: skip
        assert "it is read as it was journalled" in note
        session.act(session.legal()[0])  # play goes on, journalled in the same game
    finally:
        journal.close()
    journal = Journal(path)  # the step went into the same game, and the game reads back with it (the temple's ends)
    try:
        entry = journal.read_game(game_id_in_journal)
        assert entry is not None and len(Session.from_journal(entry, None).log) == len(record["actions"]) + 1
    finally:
        journal.close()


@pytest.mark.parametrize("game_id", sorted(STARTS))
def test_the_game_exports_and_replays_with_its_end(
    game_id: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = _record(game_id)
    path = tmp_path / "journal.sqlite3"
    number = journal_of(path, record)
    out = tmp_path / "game.json"
    assert main(["export", str(out), "--journal", str(path)]) == 0
    said = capsys.readouterr()
    assert f"companion: game {number}: The game began on a position" in said.err
    exported = json.loads(out.read_text(encoding="utf-8"))
    assert exported["start"] == record["start"] and exported["final"] == record["final"]
    assert main(["replay", str(out)]) == 0
    said = capsys.readouterr()
    assert said.out.startswith(f"{game_id}: {len(record['actions'])} action")
    assert "replayed; the final position matches the record." in said.out
    assert STARTS[game_id][1] in said.err
    assert replay_record(exported).document() == record["final"]


def test_a_field_that_could_not_be_read_is_named_to_the_table(tmp_path: Path) -> None:
    """Through the Desert's turn journalled as null is the first player's, as the older companion read it, and
    the table is told the turn was not read as journalled."""
    record = _record("ttd")
    path = tmp_path / "journal.sqlite3"
    journal_of(path, record)
    journal, session, note = open_table(path)
    try:
        assert session is not None
        assert note.endswith("Not read as journalled: turn, taken as this version reads it; check it against the"
                             " table.")  # fmt: skip
    finally:
        journal.close()
    blackpool = _record("blackpool")
    journal_of(tmp_path / "other.sqlite3", blackpool)
    journal, session, note = open_table(tmp_path / "other.sqlite3")
    try:
        assert session is not None and "Not read" not in note  # every field was read as journalled
    finally:
        journal.close()


def stays_in_the_journal(path: Path, number: int, why: str) -> None:
    """The table starts with no game, told why the journalled one could not be resumed and that it is kept."""
    journal, session, note = open_table(path)
    try:
        assert session is None
        assert note.startswith(f"The game in progress could not be resumed {why}"), note
        assert f"it stays in the journal as game {number}" in note
    finally:
        journal.close()


def test_a_start_no_position_can_be_built_from_stays_in_the_journal(tmp_path: Path) -> None:
    record = _record("targi")
    record["start"]["state"]["players"] = ["white"]
    path = tmp_path / "journal.sqlite3"
    stays_in_the_journal(path, journal_of(path, {**record, "actions": []}), "(players: ")


def test_an_option_the_loader_cannot_read_is_taken_at_its_default_and_named(tmp_path: Path) -> None:
    """A temple start whose option value this version no longer takes: its options are the defaults, said, where
    the loader kept none and the first roll crashed on a missing option."""
    document = _played("temple", ["red", "blue"], lambda d: d["phase"] == "roll")
    document["options"]["roll1_mode"] = "reroll"
    path = tmp_path / "journal.sqlite3"
    journal_of(path, {"game": "temple", "start": {"kind": "load", "state": document}, "data": {}, "actions": []})
    journal, session, note = open_table(path)
    try:
        assert session is not None and dict(session.state.options)["roll1_mode"] == "orthogonal"
        assert "(options: option 'roll1_mode' cannot be 'reroll'" in note
        assert note.endswith("Not read as journalled: options, taken as this version reads it; check it against the"
                             " table.")  # fmt: skip
        for _ in range(3):
            session.act(session.legal()[0])
    finally:
        journal.close()


def test_a_start_read_back_that_its_steps_cannot_be_taken_on_stays_in_the_journal(tmp_path: Path) -> None:
    """A temple card change whose roll cannot be read: built past the refusal it has no roll, and the journalled
    change crashed the start. Such a start stays in the journal, said, and the table starts."""
    document = _played("temple", ["red", "blue"], lambda d: d["phase"] == "change")
    step = Session.from_start("temple", {"kind": "load", "state": document}).legal()[0]
    document["roll"]["colour"] = "P05"
    path = tmp_path / "journal.sqlite3"
    record = {"game": "temple", "start": {"kind": "load", "state": document}, "data": {}, "actions": [step]}
    stays_in_the_journal(path, journal_of(path, record), '(2 problems: roll {"value": ')
