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

from companion.errors import IllegalAction
from companion.session import Session, open_table, replay_record
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
