"""Games journalled before the temple stopped asking a pair order that changes nothing still resume (RU-Q13).

The record was exported by the companion at c72d3ec: a house-data position with pair_order = ownerChooses, where
Red puts P02 into slot 2 under both red pawns with no red marker behind them, and the table was asked which red
pawn takes the nearer marker ("order", red2 first) before Red moved. The question is no longer asked.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.errors import IllegalAction
from companion.session import Session, open_table, replay_record
from tests.games.old_records import journal_of, temple_step_that_no_longer_fits

RECORD = json.loads((Path(__file__).parent / "record_before_unasked_pair_order.json").read_text(encoding="utf-8"))
ORDER = RECORD["actions"][2]


def test_an_older_record_with_an_order_that_changes_nothing_replays_to_its_end() -> None:
    assert ORDER == {"type": "order", "first": "red2"}
    assert replay_record(RECORD).document() == RECORD["final"]


def test_the_old_answer_is_taken_as_changing_nothing_and_said_so() -> None:
    session = Session.from_start("temple", RECORD["start"])
    for action in RECORD["actions"][:2]:
        session.act(action)
    changed = session.document()
    assert changed["pawns"]["red"] == ["entrance", "entrance"] and changed["tasks"] == []
    with pytest.raises(IllegalAction, match="Not now: Red: move a pawn 3"):
        session.act(ORDER)  # typed at the table it is refused: the question is not asked
    step = session.act(ORDER, journalled=True)
    assert session.document() == changed
    assert [(e.text, e.rules) for e in step.events] == [(
        "Red 2 first changes nothing: no marker lay behind either red pawn, so both went back when the card was"
        " changed (a choice this companion no longer asks).", ("RU-19", "RU-Q13"))]  # fmt: skip
    assert ORDER not in [{k: v for k, v in a.items() if k != "text"} for a in session.legal()]  # never offered
    session.undo()
    session.redo()
    assert session.document() == changed and session.log[-1] == ORDER
    # A second answer, or one for a colour the change left alone, is refused as before.
    for stray in (ORDER, {"type": "order", "first": "blue1"}):
        with pytest.raises(IllegalAction, match="Not now: Red: move a pawn 3"):
            session.act(stray, journalled=True)


def test_an_order_elsewhere_than_right_after_the_change_is_refused() -> None:
    session = Session.from_start("temple", RECORD["start"])
    for action in RECORD["actions"][:4]:  # the change, the old answer, Red's move
        session.act(action, journalled=True)
    with pytest.raises(IllegalAction):
        session.act(ORDER, journalled=True)


def test_the_game_journalled_by_the_older_companion_resumes(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    journal_of(path, RECORD)
    journal, session, note = open_table(path)
    try:
        assert note == "" and session is not None
        assert session.document() == RECORD["final"]
    finally:
        journal.close()


def test_a_game_journalled_before_rq14s_order_resumes_whole(tmp_path: Path) -> None:
    """Two blue pawns competed for one marker and now end the other way round; Blue's last move (with Blue 1) is
    taken with the pawns as the older companion left them (tests/games/temple/test_send_back_order.py)."""
    record = json.loads(
        (Path(__file__).parent / "records_before_rq14_queue.json").read_text(encoding="utf-8")
    )["competing"]
    path = tmp_path / "journal.sqlite3"
    journal_of(path, record)
    journal, session, note = open_table(path)
    try:
        assert note == "" and session is not None
        assert session.document() == record["final"] and session.log == record["actions"]
    finally:
        journal.close()


def test_a_journalled_game_whose_step_no_longer_fits_goes_on_from_the_step_before(tmp_path: Path) -> None:
    """A step that fits neither this companion nor the older one: the game is not left behind."""
    record = temple_step_that_no_longer_fits()
    path = tmp_path / "journal.sqlite3"
    game_id = journal_of(path, record)
    journal, session, note = open_table(path)
    try:
        assert session is not None and session.log == record["actions"][:5]
        assert note.startswith("The game in progress could not be resumed whole: its step 6 of 6 (")
        assert f"kept as game {game_id} (companion export game.json --id {game_id})" in note
        assert session.pending().text == "Blue: move a pawn 2."
        assert journal.read_game(game_id).actions() == record["actions"]
    finally:
        journal.close()
