"""A whole Blackpool game in the terminal referee: typed rolls, numbered choices,
undo, a rule lookup, and a resume after the terminal is closed."""

from __future__ import annotations

import io
import random
from collections.abc import Iterator
from pathlib import Path

from companion.journal import Journal
from companion.session import Session
from companion.terminal import Terminal


def typist(terminal: Terminal, rng: random.Random, stop_after: int | None) -> Iterator[str]:
    """Types what a table would: the rolled value for a roll, the card for a draw, a choice number otherwise."""
    typed = 0
    while True:
        session = terminal.session
        assert session is not None
        pending = session.pending()
        if pending.is_over or (stop_after is not None and typed >= stop_after):
            yield "q"
            return
        legal = session.legal()
        if pending.kind == "roll":
            yield str(rng.choice(legal)["value"])
        elif pending.kind == "draw":  # a bare number would be no card: the table types what it turned over
            yield str(rng.choice(legal)["card"])
        else:
            yield str(rng.randrange(len(legal)) + 1)
        typed += 1
        if typed == 5:
            yield "u"  # take it back and type it again
            yield "redo"
        if typed == 7:
            yield "rule BP-C6"


def test_blackpool_from_start_to_win_with_a_resume(tmp_path: Path) -> None:
    journal_path = tmp_path / "journal.sqlite3"
    rng = random.Random(4)
    first = Session.new("blackpool", ["yellow", "red"], journal=Journal(journal_path))
    out = io.StringIO()
    terminal = Terminal(first, lambda: None, out)
    terminal.run(typist(terminal, rng, stop_after=60))
    text = out.getvalue()
    assert "Yellow rolls" in text and "Taken back: " in text
    assert "BP-C6" in text and "Bye." in text
    halfway = first.document()

    resumed = Session.resume(Journal(journal_path))
    assert resumed is not None and resumed.document() == halfway
    out = io.StringIO()
    terminal = Terminal(resumed, lambda: None, out)
    terminal.run(typist(terminal, rng, stop_after=None))
    assert resumed.pending().is_over
    assert resumed.pending().result["winner"] in ("yellow", "red")
    assert "The game is over" in out.getvalue()
