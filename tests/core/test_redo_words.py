"""A redo says it is one everywhere: "Put back:" on the touchscreen, the terminal and in the referee's answer.

The terminal and the protocol reported a redo's events bare, so the step read as a new move nobody had made.
"""

from __future__ import annotations

import io

from companion.protocol import Referee
from companion.session import Session
from companion.terminal import Terminal


def test_the_terminal_says_a_redo_is_put_back_with_the_steps_clauses() -> None:
    out = io.StringIO()
    terminal = Terminal(Session.new("blackpool", ["yellow", "red"]), lambda: None, out)
    terminal.run(["4", "u", "redo", "q"])
    text = out.getvalue()
    undone, put = text.index("Correction: the roll entered last"), text.index("  Put back:\n")
    roll = [line for line in text.splitlines() if line.startswith("  * Yellow rolls 4")]
    assert len(roll) == 2 and "[BP-3]" in roll[1]  # said when taken, and again under "Put back:"
    assert undone < put < text.rindex(roll[1])


def test_the_referees_redo_answer_carries_a_put_back_note_and_the_events_unchanged() -> None:
    referee = Referee()
    referee.handle({"cmd": "new", "game": "blackpool", "players": ["red", "blue"]})
    acted = referee.handle({"cmd": "act", "action": {"type": "roll", "value": 4}})
    referee.handle({"cmd": "undo"})
    redo = referee.handle({"cmd": "redo"})
    assert redo["ok"] and redo["events"] == acted["events"]
    assert redo["note"] == "Put back: " + " ".join(e["text"] for e in acted["events"])
