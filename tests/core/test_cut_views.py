"""The results list and the finished last game of a game journalled before an update whose later steps no longer
fit: shown up to the last step that fits, as the game would resume (`replay_what_fits`), and saying so.

The temple record was played to its end by the companion at 1274648 (before RU-Q14 queued the pairs): the
"competing" game of records_before_rq14_queue.json, whose step 6 no longer fits, carried on by seeded play until
Blue won at step 143. The other game is one the rules now end a step earlier than the journal does: its extra
step, taken after that end, is refused.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from companion.cli import main
from companion.finished import finished_game
from companion.journal import Journal
from companion.results import results
from companion.session import Session, open_table
from tests.games.old_records import journal_of

OLDER = json.loads(
    (Path(__file__).parents[1] / "games" / "temple" / "record_finished_before_rq14_queue.json").read_text("utf-8")
)
# The older companion's finished game with its step 6 put to a cell no pawn of Blue's reaches with its 2: a step
# that fits neither that companion nor this one (the game as journalled replays whole through Game.old_step).
TEMPLE = {**OLDER, "actions": [*OLDER["actions"][:5], {"type": "move", "pawn": "blue1", "to": [1, 9]},
                               *OLDER["actions"][6:]]}  # fmt: skip


def test_a_game_an_older_companion_finished_is_listed_whole_with_its_winner(tmp_path: Path) -> None:
    """Its step 6 fits only the pawns as the older companion left them (RU-Q14's order came later)."""
    path = tmp_path / "journal.sqlite3"
    journal_of(path, OLDER, finished=True)
    journal = Journal.for_reading(path)
    try:
        (found,) = results(journal, 1).finished
    finally:
        journal.close()
    assert found.said.endswith("Blue wins.") and "Shown up to" not in found.said


def won_with_a_step_after_its_end(path: Path) -> Session:
    """A Targi game won, journalled with one step more after the end (the last one again), marked over."""
    session = Session.new("targi", ["white", "black"])
    rng = random.Random(2)
    while not session.pending().is_over:
        session.act(session.game.sim_choose(session.state, session.legal(), rng))
    record = session.export()
    journal_of(path, {**record, "actions": [*record["actions"], record["actions"][-1]]}, finished=True)
    return session


def test_the_results_command_lists_a_cut_game_up_to_its_last_step_that_fits(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """All-or-nothing, the list said only "(its steps no longer replay ...)" for a game 142 of whose 143 steps
    were never in question; now it says how far it is shown, why no further, and which export keeps it whole."""
    path = tmp_path / "journal.sqlite3"
    game_id = journal_of(path, TEMPLE, finished=True)
    assert main(["results", "--journal", str(path), "--days", "1"]) == 0
    out = capsys.readouterr().out
    assert "no longer replay" not in out
    assert (f"game {game_id}, Temple path-card race (Ruin). Shown up to step 5 of 143, where it was"
            " not over yet, so no winner can be told: the rest no longer fits this version of the companion (step"
            " 6, {") in out  # fmt: skip
    assert f"no route of 2 steps or fewer over path spaces leads there.); companion export game.json --journal {path}" \
        f" --id {game_id} keeps the original." in out
    journal = Journal.for_reading(path)
    try:
        assert journal.read_game(game_id).actions() == TEMPLE["actions"]  # read only: nothing copied or cut
        assert len(journal.summaries()) == 1
    finally:
        journal.close()


def test_a_cut_game_that_ended_where_it_fits_names_its_winner(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    won = won_with_a_step_after_its_end(path)
    journal = Journal.for_reading(path)
    try:
        (found,) = results(journal, 1).finished
    finally:
        journal.close()
    steps = len(won.log)
    assert found.said.startswith("Final score White 23, Black 25: Black wins. ")
    assert won.pending().text.endswith("Final score White 23, Black 25: Black wins.")
    assert f"Shown up to step {steps} of {steps + 1}, where it ended: the rest no longer fits" in found.said
    assert "The game is over: the robber has completed its lap; no more actions." in found.said


def test_the_finished_game_of_a_cut_journal_is_shown_up_to_where_it_fits_and_not_reopened(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    game_id = journal_of(path, TEMPLE, finished=True)
    journal = Journal(path)
    try:
        last = finished_game(journal)
        assert last is not None and last.result == "" and not last.reopenable
        assert last.why_not == "its steps that still fit this version of the companion do not end the game"
        assert "(143 steps). Shown up to step 5 of 143, where it was not over yet" in last.words()
        assert last.headline().endswith(  # the home screen's line: without the step's JSON
            "Shown up to step 5 of 143, where it was not over yet, so no winner can be told: the rest no longer"
            f" fits this version of the companion; companion export game.json --id {game_id} keeps the original.")
        assert last.to_dict()["cut"] == last.cut_words()
    finally:
        journal.close()


def test_a_cut_game_that_ended_is_gone_back_into_as_a_copy_of_its_steps_that_fit(tmp_path: Path) -> None:
    """Going back into it goes on as a resume does: the steps that fit, copied into a new game; the original
    stays whole under its own id."""
    path = tmp_path / "journal.sqlite3"
    won = won_with_a_step_after_its_end(path)
    journal = Journal(path)
    try:
        last = finished_game(journal)
        assert last is not None and last.reopenable and last.result == won.pending().text
        session = last.reopen(journal)
        assert session.log == won.log and session.pending().is_over
        session.undo()
        copy = journal.latest_game()
        assert copy is not None and copy.id == 2 and copy.status == "active"
        assert copy.steps == [("act", a) for a in won.log] + [("undo", None)]
        assert len(journal.read_game(1).steps) == len(won.log) + 1
    finally:
        journal.close()
    journal, session, note = open_table(path)  # the next start resumes the copy, in play again, with nothing cut
    try:
        assert note == "" and session is not None and session.log == won.log[:-1]
    finally:
        journal.close()
