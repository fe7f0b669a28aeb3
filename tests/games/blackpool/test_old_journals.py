"""A game journalled before Diagonal Step Down stepped in from more squares (eed0d92, BP-Q25) still resumes.

The record is the first 13 actions of a random game played by the companion at c72d3ec: Red draws Diagonal Step
Down (action 10) with Yellow 1 on e3, from which that code could not step in, so the card was spent on nothing
and Yellow rolled next. Now the card can step Yellow 1 to d4 or f4 and asks which: the roll was refused and the
game could no longer be resumed, replayed or exported with its end.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.errors import IllegalAction, InvalidPosition
from companion.session import Session, open_table, replay_record
from tests.games.blackpool.helpers import GAME, Y, position
from tests.games.old_records import journal_of

RECORD = json.loads((Path(__file__).parent / "record_before_step_in_fix.json").read_text(encoding="utf-8"))
DRAW, ROLL = RECORD["actions"][9], RECORD["actions"][10]


def test_the_older_record_replays_with_the_card_spent_as_it_was() -> None:
    assert DRAW["card"] == "diagonal_step_down" and ROLL == {"type": "roll", "value": 2}
    session = replay_record(RECORD)
    assert session.log == RECORD["actions"] and session.pending().text == "Yellow: roll the oracle."


def test_the_card_is_said_to_be_spent_and_a_roll_typed_at_the_table_is_still_refused() -> None:
    session = Session.from_start("blackpool", RECORD["start"])
    for action in RECORD["actions"][:10]:
        session.act(action)
    assert session.pending().text == "Red: choose what Diagonal Step Down acts on."
    with pytest.raises(IllegalAction, match="Red must choose what the card acts on first"):
        session.act(ROLL)
    step = session.act(ROLL, journalled=True)
    assert [(e.text, e.rules) for e in step.events] == [
        ("Diagonal Step Down is spent on nothing, as the companion this game was journalled on had it: it stepped"
         " in from fewer squares then.", ("BP-C8", "BP-Q25")),
        ("Yellow rolls 2.", ("BP-3",)),
    ]  # fmt: skip
    after = session.document()
    session.undo()
    assert session.pending().text == "Red: choose what Diagonal Step Down acts on."
    session.redo()
    assert session.document() == after


def test_the_game_journalled_by_the_older_companion_resumes_whole(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    journal_of(path, RECORD)
    journal, session, note = open_table(path)
    try:
        assert note == "" and session is not None and session.log == RECORD["actions"]
        assert session.document() == replay_record(RECORD).document()
    finally:
        journal.close()


def _six_loaded_as_move() -> dict:
    """A game started, before bbc8013, on a position loaded in phase "move" with a 6 in hand: Yellow 1 on its
    tenth square, its two others in the centre. That companion offered only 'forward 6' there (BP-8)."""
    six = position({"yellow-1": Y(10)}, phase="six", roll=6, sixChain=1)
    document = {**GAME.to_document(six), "phase": "move", "sixChain": 0}
    with pytest.raises(InvalidPosition, match='a roll of 6 is decided in phase "six"'):
        GAME.from_document(document)  # loaded now, it is refused
    return {"format": "table-companion-record", "version": 1, "game": "blackpool",
            "start": {"kind": "load", "state": document}, "data": GAME.data.sources, "actions": []}  # fmt: skip


def test_a_game_started_on_a_six_in_phase_move_resumes_with_the_six_to_decide(tmp_path: Path) -> None:
    """No step taken yet: the six is decided as the rules have it (move six, bring one out or spend a coin), and
    the game is journalled anew on that reading, so it resumes the same way once steps follow."""
    record = _six_loaded_as_move()
    path = tmp_path / "journal.sqlite3"
    game_id = journal_of(path, record)
    journal, session, note = open_table(path)
    try:
        assert session is not None
        assert session.pending().text == "Yellow rolled a six: move six, bring one out, or spend a coin."
        assert {a["type"] for a in session.legal()} == {"move", "bring_out", "coin"}
        assert note.startswith("The game in progress began on a position this version of the companion reads"
                               ' otherwise (a roll of 6 is decided in phase "six"')  # fmt: skip
        assert f"kept as game {game_id} (companion export game.json --id {game_id})" in note
        session.act({"type": "move", "traveller": "yellow-1"})  # move six: Yellow rolls again
    finally:
        journal.close()
    journal, session, note = open_table(path)
    try:
        assert note == "" and session is not None and session.log == [{"type": "move", "traveller": "yellow-1"}]
        assert session.pending().text.startswith("Yellow: roll the oracle")
    finally:
        journal.close()


def test_a_game_played_on_from_a_six_in_phase_move_replays_as_it_was_played() -> None:
    """Its steps were taken on that companion's reading: Yellow 1 forward 6 and the turn passed (the rolls name
    no player, so read as a six, Red's roll would have gone to Yellow)."""
    record = _six_loaded_as_move()
    record["actions"] = [{"type": "move", "traveller": "yellow-1"}, {"type": "roll", "value": 3}]
    session = replay_record(record)
    assert session.document()["turn"] == "yellow" and session.document()["phase"] == "roll"
    assert session.document()["travellers"]["yellow-1"]["at"] == Y(16)
    session.undo()
    assert session.document()["turn"] == "red"


def test_a_six_in_phase_move_with_another_fault_is_read_as_journalled_and_the_fault_named() -> None:
    """Not the six alone: the start is read as journalled, past today's checks (``companion.journalled_start``),
    the six in phase "move" as that companion read it, and the coins it cannot read are named to the table."""
    record = _six_loaded_as_move()
    record["start"]["state"]["coins"] = {"yellow": 9}
    session = replay_record(record)
    assert session.pending().text == "Yellow rolled 6: choose the traveller to move."
    assert session.as_journalled.startswith("The game began on a position this version of the companion refuses")
    assert session.as_journalled.endswith("Not read as journalled: coins, taken as this version reads it; check it"
                                          " against the table.")  # fmt: skip
