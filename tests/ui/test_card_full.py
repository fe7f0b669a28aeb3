"""The table's screen and voice when the journal's card is full: what the players see and hear, in a real window.

The card's limit is SQLite's own page limit on the app's real journal file:
the same SQLITE_FULL a full SD card gives (tests/core/test_journal_card.py
fills a real small card).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.ui.conftest import advance

pytestmark = pytest.mark.usefixtures("undrawn")  # texts, sizes and states are read, never the window's pixels


def test_a_step_a_full_card_refuses_is_shown_and_said_as_not_saved_and_the_board_stays(start: Any) -> None:
    """The status line and the voice gave "the journal /.../journal.sqlite3 cannot be written: database or disk
    is full": the path read out letter by letter, and nothing said whether the tapped step counted."""
    app = start()
    assert app.new_game("blackpool", ["yellow", "red"])
    session = app.controller.session
    db = app.journal._db
    (pages,) = db.execute("PRAGMA page_count").fetchone()
    db.execute(f"PRAGMA max_page_count = {pages}")
    for _ in range(300):
        before, board = list(session.log), app.board.document
        app.act(session.legal()[0])
        if app.announcements[0]["kind"] == "refused":
            break
    advance(2)
    assert app.announcements[0]["kind"] == "refused"
    assert session.log == before and app.board.document == board  # the board shows the game as saved
    assert app.status.startswith("Not saved, so this step is not taken and the game stays at its last saved step: "
                                 "the card holding the journal is full (database or disk is full); make room on it")
    app.voice.wait()
    said = app.spoken.lines[-1]
    assert said.startswith("Not saved, so this step is not taken") and str(app.journal.path) not in said

