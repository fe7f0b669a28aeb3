"""The app's camera started afresh while a temple card change taken back with undo still lies on the board: after
Settings' Save with another camera source, after the app starts again over its journal, and in a finished game gone
back into. The new card lying there is named, not taken as the change made again.

A real offscreen Kivy window, the real card reader on folders of rendered board frames, a real SQLite journal.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from companion.journal import Journal
from tests.ui.conftest import advance, until
from tests.vision.test_camera_restarted import undone_change
from tests.vision.test_feed import LOOKS_UNIQUE, board_frame, laid_board, on_the_table, write_frames

STILL = "still shows"  # the table's words for the undone step's card still lying (`Controller._left_lying`)


def journal_of(tmp_path: Path) -> Journal:
    return Journal(tmp_path / "journal.sqlite3")  # where `launch` keeps the app's journal


HELD = 150  # frames of a board held still: some 5 s at the camera's pace, so the table's line is read before it ends


def named(app: Any, card: str) -> None:
    """Frames until the table's line names ``card`` as the undone step's, still lying (the camera reads in real
    time); a step taken meanwhile would have said otherwise."""
    assert until(lambda: STILL in app.status, 60), (app.status, app.announcements)
    assert card in app.status
    advance(3)


def test_settings_save_with_another_camera_names_the_undone_change_still_lying(launch: Any, tmp_path: Path) -> None:
    """The camera read the change and the table took it back with Undo; Save with another camera source started a
    fresh card tracker, which told the new card still lying in its slot, and the change was taken again."""
    from ui.settings import Settings

    journal = journal_of(tmp_path)
    session = laid_board(journal=journal)
    change = next(a for a in session.legal() if a["type"] == "change" and a["card"] in LOOKS_UNIQUE)
    before = on_the_table(session)
    laid = before | {change["slot"]: change["card"]}
    journal.close()
    # The change held as long as the other boards: 20 frames (under a second at the camera's pace) ended the
    # folder before the card was read steady on a loaded machine ("Camera has stopped").
    first = write_frames(tmp_path / "first", [board_frame(before)] * 20 + [board_frame(laid)] * HELD)
    other = write_frames(tmp_path / "other", [board_frame(laid)] * HELD)
    settings = Settings(camera_source=str(first))
    settings.inputs["camera"] = True
    app = launch(settings, new=False)
    steps = len(app.controller.session.log)
    assert until(lambda: len(app.controller.session.log) == steps + 1, 60), app.status
    app.undo()
    assert len(app.controller.session.log) == steps
    app.save_settings(camera_source=str(other))
    assert app.running_inputs["camera"][0] == str(other)
    named(app, change["card"])
    assert len(app.controller.session.log) == steps, app.announcements


def test_the_app_started_again_over_its_journal_names_the_undone_change_still_lying(
    launch: Any, tmp_path: Path
) -> None:
    journal = journal_of(tmp_path)
    _, change, lying = undone_change(journal)
    journal.close()
    folder = write_frames(tmp_path / "frames", [board_frame(lying)] * HELD)
    app = launch(new=False, camera=str(folder))
    session = app.controller.session
    assert session is not None and session.taken_back
    steps = len(session.log)
    named(app, change["card"])
    assert len(session.log) == steps, app.announcements


def test_a_finished_game_gone_back_into_names_the_undone_change_still_lying(launch: Any, tmp_path: Path) -> None:
    """A finished game is set aside at start; gone back into, its last steps undone back to a card change at once,
    the camera's fresh tracker read the board only then, and took that change again."""
    journal = journal_of(tmp_path)
    session = laid_board(journal=journal)
    rng = random.Random(2)
    while not session.pending().is_over:
        session.act(session.game.sim_choose(session.state, session.legal(), rng))
    back = len(session.log) - max(i for i, a in enumerate(session.log) if a["type"] == "change")
    change = session.log[-back]
    board = on_the_table(session)  # the board as the game ended: its last card change lies there
    journal.close()
    folder = write_frames(tmp_path / "frames", [board_frame(board)] * 2 * HELD)  # read from home on
    app = launch(new=False, camera=str(folder))
    assert app.controller.session is None and app.last_game is not None
    app.resume()
    for _ in range(back):
        app.undo()
    session = app.controller.session
    steps = len(session.log)
    assert session.taken_back[-1] == change
    named(app, change["card"])
    assert len(session.log) == steps, app.announcements
