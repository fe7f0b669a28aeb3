"""The terminal referee driven by typed lines, with its journal."""

from __future__ import annotations

import io
from pathlib import Path

from companion.journal import Journal
from companion.session import Session
from companion.terminal import Terminal


def run(session: Session | None, lines: list[str], make=lambda: None) -> str:
    out = io.StringIO()
    Terminal(session, make, out).run(iter(lines))
    return out.getvalue()


def test_typed_values_numbers_undo_and_rules(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite3")
    session = Session.new("race", ["red", "blue"], journal=journal)
    text = run(session, ["5", "1", "u", "2", "rules trap", "rule R4", "check 1", "check {\"type\": \"roll\"}", "q"])
    assert "red rolled 5." in text
    assert "red advances to 5." in text
    assert "taken back" in text
    assert "red holds." in text
    assert "R4  Trap" in text
    assert "LEGAL: Allowed." in text
    assert "Refused: a d6 shows 1 to 6" in text
    assert session.document()["turn"] == 1


def test_game_over_and_resume_after_closing(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    journal = Journal(path)
    session = Session.load("race", {"game": "race", "players": ["red", "blue"], "positions": [10, 0]}, journal)
    run(session, ["4", "q"])
    journal.close()
    resumed = Session.resume(Journal(path))
    assert resumed is not None and resumed.document()["roll"] == 4
    text = run(resumed, ["1", "q"])
    assert "red wins." in text and "The game is over" in text


def test_nonsense_never_stops_the_terminal() -> None:
    session = Session.new("race", ["red", "blue"])
    text = run(session, ["banana", "do {oops", "do [1]", "99", "q"])
    assert text.count("Not understood") == 4
    assert session.log == []


def test_hundreds_of_choices_are_shown_in_part_and_taken_by_their_words() -> None:
    """Through the Desert's leader placement offers hundreds: a wall of lines every step helps nobody."""
    session = Session.new("ttd", ["red", "black", "orange"])
    while session.state.phase == "waterholes":
        session.act(session.legal()[0])
    legal = session.legal()
    assert len(legal) > 200
    wanted = next(a for a in legal if a.get("colour") == "green" and a["hex"] == [3, 0])
    text = run(session, ["green 3,0", "q"])
    assert f"... and {len(legal) - 30} more: 'all' lists them" in text
    assert f"  {len(legal):>3}. " not in text.split("green 3,0")[0]  # the last choice was not listed
    assert session.log[-1] == {k: v for k, v in wanted.items() if k != "text"}


def test_words_that_fit_several_choices_ask_for_more_and_all_lists_every_one() -> None:
    session = Session.new("ttd", ["red", "black", "orange"])
    while session.state.phase == "waterholes":
        session.act(session.legal()[0])
    legal, steps = session.legal(), len(session.log)
    text = run(session, ["gre", "all", "q"])
    assert "That fits" in text and "add a word, or type its number" in text
    assert f"  {len(legal):>3}. {legal[-1]['text']}" in text
    assert len(session.log) == steps  # neither line took a step
    assert text.count("Key: ") == 1  # nor showed the board again, which would push the answers off screen
