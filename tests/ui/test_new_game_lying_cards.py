"""The app's next temple game begun while the camera reads a board still holding the last game's cards: the table
is told to clear them, and none is taken as the new game's draw.

A real offscreen Kivy window, the real card reader on a folder of rendered board frames, a real SQLite journal.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.journal import Journal
from tests.ui.conftest import advance, until
from tests.vision.test_feed import board_frame, laid_board, on_the_table, write_frames

KEPT = "hold the cards the game has there"
CLEAR = "Slots 1 to 12 hold cards that lay there before this game began: not taken as draws."


def test_the_next_tables_game_tells_the_table_to_clear_the_last_games_cards(launch: Any, tmp_path: Path) -> None:
    """'New game for the next table' kept the camera's readers as they were: the new game waited for draws over a
    full board, and nothing said to clear it. Begun after an app restart, every card lying there was its draw."""
    journal = Journal(tmp_path / "journal.sqlite3")  # where `launch` keeps the app's journal
    lying = on_the_table(laid_board(journal=journal))
    journal.close()
    folder = write_frames(tmp_path / "frames", [board_frame(lying)] * 300)
    app = launch(new=False, camera=str(folder))
    assert until(lambda: KEPT in app.status, 60), app.status
    assert app.new_game("temple", ["red", "blue"])
    session = app.controller.session
    assert until(lambda: CLEAR in app.status, 60), (app.status, app.announcements)
    advance(3)
    assert session.log == [] and session.pending().kind == "draw", app.announcements
    assert "Clear the last game's cards off the board" in app.status
