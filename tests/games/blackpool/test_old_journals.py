"""A game journalled before an update whose next step the new rules' code no longer takes goes on from there.

The record is the first 13 actions of a random game played by the companion at c72d3ec: Red draws Diagonal Step
Down (action 10) with Yellow 1 on e3, which that code could not step in (BP-Q25, before eed0d92), so the card did
nothing and Yellow rolled next. Now the card steps Yellow 1 to d4 or f4 and asks which: the roll is refused.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.errors import IllegalAction
from companion.journal import Journal
from companion.session import export_game, open_table, replay_record

RECORD = json.loads((Path(__file__).parent / "record_before_step_in_fix.json").read_text(encoding="utf-8"))


def _journalled(path: Path) -> int:
    """The record written into a real journal as the older companion wrote it, one row a step."""
    journal = Journal(path)
    game_id = journal.begin_game("blackpool", RECORD["start"], RECORD["data"])
    for action in RECORD["actions"]:
        journal.append(game_id, "act", action)
    journal.close()
    return game_id


def test_the_game_goes_on_from_its_last_step_that_fits_and_the_table_is_told(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    old_id = _journalled(path)
    journal, session, note = open_table(path)
    try:
        assert session is not None
        assert note == (
            'The game in progress could not be resumed whole: its step 11 of 13 ({"type": "roll", "value": 2}) no'
            " longer fits this version of the companion (Not now: Red must choose what the card acts on first.)."
            " It goes on from the step before, with 10 of its steps: check the board against it. The game as it"
            f" was journalled is kept as game {old_id} (companion export game.json --id {old_id})."
        )
        assert session.log == RECORD["actions"][:10]
        assert session.pending().text == "Red: choose what Diagonal Step Down acts on."
        session.act({"type": "target", **_first_target(session)})  # and it is journalled as the game in progress
        new_id = journal.active_game().id
        assert new_id != old_id and len(journal.active_game().steps) == 11
        kept = journal.read_game(old_id)
        assert kept.status == "abandoned" and kept.actions() == RECORD["actions"]
        record, why = export_game(kept)  # the whole game as journalled, exported as any unreplayable one
        assert record["actions"] == RECORD["actions"] and record["final"] is None
        assert why.startswith("its steps do not replay with this café data or this version of the companion (")
    finally:
        journal.close()
    again, session, note = open_table(path)  # the next start resumes the copy without a word
    try:
        assert note == "" and session is not None and len(session.log) == 11
    finally:
        again.close()


def _first_target(session: object) -> dict:
    offered = next(a for a in session.legal() if a["type"] == "target")  # type: ignore[attr-defined]
    return {k: v for k, v in offered.items() if k not in ("type", "text")}


def test_the_record_itself_is_refused_at_the_step_naming_it() -> None:
    with pytest.raises(IllegalAction, match="action 11 of 13 in the record"):
        replay_record(RECORD)
