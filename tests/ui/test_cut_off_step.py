"""A step the power cut off while it was being written, told on the table the kiosk starts on."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from companion.journal import Journal
from companion.session import Session
from tests.ui.conftest import advance

pytestmark = pytest.mark.usefixtures("undrawn")  # texts, sizes and states are read, never the window's pixels

FRAME = 24 + 4096  # a frame of the journal's WAL: its header, then one page


@pytest.mark.parametrize("undone", [False, True])
def test_a_step_cut_off_by_a_power_cut_is_named_on_the_tables_status_line(
    launch: Any, tmp_path: Path, undone: bool
) -> None:
    """The game came back a step short with nothing said, the board a step ahead of it; the status line shows
    three lines at most, so the step and the check come first, and all of them are in view at 800x480. With a
    step taken back and put back, the longer note, counting steps and writes, is in view too."""
    path = tmp_path / "journal.sqlite3"
    journal = Journal(path)
    session = Session.new("blackpool", ["yellow", "red"], journal=journal)
    for number in range(3):
        session.act(session.legal()[0])
        if undone and number == 1:
            session.undo()
            session.redo()
    index = Path(f"{path}-shm").read_bytes()  # as SQLite left it before the last write was synced
    session.act(session.legal()[0])
    card = tmp_path / "card"
    card.mkdir()
    for suffix in ("", "-wal"):
        shutil.copy(f"{path}{suffix}", card / f"{path.name}{suffix}")
    journal.close()
    wal = (card / f"{path.name}-wal").read_bytes()
    for suffix, data in (("", (card / path.name).read_bytes()), ("-wal", wal[: len(wal) - FRAME + 1000]),
                         ("-shm", index)):  # fmt: skip
        Path(f"{path}{suffix}").write_bytes(data)

    app = launch(new=False)
    advance(3)
    assert app.root.current == "table" and len(app.controller.session.log) == 3
    label = app.root.get_screen("table").ids.status
    shown = " ".join(word.text for line in label._label._cached_lines for word in line.words)
    told = ("Blackpool resumes at 3 steps (5 writes, undos included); write 6 is not in the journal. Check"
            " the board, and enter again what the table lacks." if undone else
            "Blackpool resumes after step 3; step 4 is not in the journal. Check the board, and enter step 4 again"
            " if it was played.")  # fmt: skip
    assert " ".join(shown.split()).startswith(told), shown
