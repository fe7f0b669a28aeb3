"""The ``companion`` command in-process: simulate, bench, rules, export and replay."""

from __future__ import annotations

import argparse
import io
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import add_play_arguments, build_parser, cmd_play, main
from companion.journal import Journal
from companion.session import RECORD_FORMAT, Session
from companion.simulate import outcome
from tests.at_a_terminal import SIGINT_ELSEWHERE, AtTerminal
from tests.typist import slow_typist


def test_simulate_reports_and_exits_zero(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--game", "race", "--games", "20", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "race: 20 games, 0 errors" in out


def test_bench_json_has_the_documented_shape(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--game", "race", "--games", "3", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)["games"]["race"]
    for call in ("legal", "act", "check"):
        assert report[call]["p99_ms"] >= report[call]["median_ms"] >= 0
    assert report["games_per_s"] > 0


def test_rules_lookup(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "race", "R4"]) == 0
    assert "Trap" in capsys.readouterr().out
    assert main(["rules", "race", "R99"]) == 1


@pytest.mark.parametrize("argv", [["simulate", "--game", "chess"], ["bench", "--game", "chess"], ["rules", "chess"],
                                  ["data", "which", "chess"], ["hw", "bench", "--game", "chess"]])
def test_unknown_game_is_a_clear_error(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """Each command lists the games by id and name, as `play` does (they listed ids alone: "games: blackpool, ..."),
    and ends 2, a bad argument, as `play` does (they ended 1, as for a refusal of what a file holds)."""
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("companion: no game 'chess'; the games are:\n") and "  ttd        Through the Desert\n" in err


def test_rules_takes_a_clause_id_in_any_case_as_the_terminal_does(capsys: pytest.CaptureFixture[str]) -> None:
    """`rule bp-c5` in `play` showed the clause; `companion rules blackpool bp-c5` said Blackpool has none."""
    assert main(["rules", "blackpool", "bp-c5"]) == 0
    assert capsys.readouterr().out.startswith("BP-C5  How riders move\n\n")
    assert main(["rules", "blackpool", "bp-c55"]) == 1
    assert "Blackpool has no rule clause 'bp-c55'" in capsys.readouterr().err


def test_export_then_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    journal_path = tmp_path / "j.sqlite3"
    session = Session.new("race", ["red", "blue"], journal=Journal(journal_path))
    for action in ({"type": "roll", "value": 6}, {"type": "advance"}, {"type": "roll", "value": 2}):
        session.act(action)
    record = tmp_path / "game.json"
    assert main(["export", str(record), "--journal", str(journal_path)]) == 0
    assert json.loads(record.read_text())["final"] == session.document()
    assert main(["replay", str(record)]) == 0
    assert "3 actions replayed" in capsys.readouterr().out


def test_replay_reads_a_record_piped_from_export(tmp_path: Path) -> None:
    """`export -` writes the record to stdout, and `replay -` said "-: cannot be read (No such file or
    directory)": the record had to be written to a file between the two."""
    import subprocess
    import sys

    journal_path = tmp_path / "j.sqlite3"
    session = Session.new("blackpool", ["red", "blue"], journal=Journal(journal_path))  # a game the process has
    for _ in range(2):
        session.act(session.legal()[0])
    root = Path(__file__).resolve().parents[2]
    command = [sys.executable, "-m", "companion"]
    shell = (f"{' '.join(command)} export - --journal {journal_path} | {' '.join(command)} replay -; "
             f"{' '.join(command)} replay - < /dev/null")
    done = subprocess.run(["sh", "-c", shell], capture_output=True, text=True, timeout=120, cwd=root)
    assert done.stdout.startswith("blackpool: 2 actions replayed; the final position matches the record.\n"), (
        done.stderr)
    assert done.stderr == "companion: standard input: it is empty\n" and done.returncode == 1


def test_export_list_counts_the_steps_the_game_stands_at_as_play_and_export_do(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A game of 2 steps with one taken back and put back was listed with 4 (the journal's rows), while `play`
    resumed it "(2 steps so far)" and `export` wrote "2 actions": a café owner looking for a game by its length
    found none that matched."""
    journal_path = tmp_path / "j.sqlite3"
    session = Session.new("race", ["red", "blue"], journal=Journal(journal_path))
    for action in ({"type": "roll", "value": 6}, {"type": "advance"}):
        session.act(action)
    session.undo()
    session.redo()
    session.undo()  # 1 step stands, from 5 rows
    assert main(["export", "--list", "--journal", str(journal_path)]) == 0
    row = capsys.readouterr().out.splitlines()[1].split()
    assert main(["export", str(tmp_path / "game.json"), "--journal", str(journal_path)]) == 0
    assert capsys.readouterr().out == f"wrote {tmp_path / 'game.json'}: race, 1 action\n"
    assert row[:2] == ["1", "race"] and row[6] == str(len(session.log)) == "1"


def test_export_of_a_game_that_no_longer_replays_keeps_its_actions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Café data changed under a game: the record still carries every journalled action, without an end."""
    journal_path = tmp_path / "j.sqlite3"
    session = Session.new("race", ["red", "blue"], journal=Journal(journal_path))
    for action in ({"type": "roll", "value": 6}, {"type": "advance"}, {"type": "roll", "value": 2}):
        session.act(action)
    session.undo()
    raw = sqlite3.connect(journal_path)
    raw.execute("UPDATE steps SET action = ? WHERE seq = 1", ('{"type": "roll", "value": 9}',))
    raw.commit()
    raw.close()

    record_path = tmp_path / "game.json"
    assert main(["export", str(record_path), "--journal", str(journal_path)]) == 0
    record = json.loads(record_path.read_text())
    assert record["actions"] == [{"type": "roll", "value": 9}, {"type": "advance"}] and record["final"] is None
    assert "do not replay with this café data" in capsys.readouterr().err
    assert main(["replay", str(record_path)]) == 1
    assert "1 to 6" in capsys.readouterr().err


def test_replay_names_the_action_of_the_record_that_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A record of hundreds of actions with one mistyped said only "a d6 shows 1 to 6": which one?"""
    session = Session.new("race", ["red", "blue"])
    for action in ({"type": "roll", "value": 6}, {"type": "advance"}, {"type": "roll", "value": 2}):
        session.act(action)
    record = session.export()
    record["actions"][2] = {"type": "roll", "value": 9}
    (tmp_path / "game.json").write_text(json.dumps(record))
    assert main(["replay", str(tmp_path / "game.json")]) == 1
    assert 'action 3 of 3 in the record ({"type": "roll", "value": 9}): ' in capsys.readouterr().err  # as in the file


def test_export_without_a_journal_says_so_and_creates_none(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "nowhere" / "j.sqlite3"
    assert main(["export", str(tmp_path / "game.json"), "--journal", str(missing)]) == 1
    assert f"No journal at {missing}" in capsys.readouterr().err
    assert not missing.parent.exists()


@pytest.mark.parametrize("count", ["0", "-5", "many", "10001", "1" * 5000])
def test_a_count_of_games_must_be_within_its_range(count: str, capsys: pytest.CaptureFixture[str]) -> None:
    """`--games 100000000` ran for days, until Ctrl-C: the usage line says the range at once instead."""
    with pytest.raises(SystemExit) as usage:
        main(["simulate", "--game", "race", "--games", count])
    err = capsys.readouterr().err
    assert usage.value.code == 2 and "is not a whole number from 1 to 10000" in err, err
    assert len(err) < 400  # a number thousands of digits long is not written back whole


@pytest.mark.parametrize(("argv", "said"), [
    (["bench", "--games", "1001"], "argument --games: '1001' is not a whole number from 1 to 1000"),
    (["hw", "bench", "--rolls", "10001"], "argument --rolls: '10001' is not a whole number from 1 to 10000"),
    (["hw", "simulate-dice", "--random", "10001"], "argument --random: '10001' is not a whole number from 0 to 10000"),
    (["vision", "eval-cards", "--frames", "10001"], "argument --frames: '10001' is not a whole number from 1 to 10000"),
    (["vision", "eval-temple-die", "--frames", "1e9"], "argument --frames: '1e9' is not a whole number from 1 to"),
    (["vision", "bench", "--repeat", "1001"], "argument --repeat: '1001' is not a whole number from 1 to 1000"),
    (["vision", "bench", "--soak", "15001"], "argument --soak: '15001' is not a whole number from 1 to 15000"),
    (["ui", "bench", "--soak", "1001"], "argument --soak: '1001' is not a whole number from 1 to 1000"),
])
def test_every_count_that_runs_a_while_has_a_ceiling(
    argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as usage:
        main(argv)
    assert usage.value.code == 2 and said in capsys.readouterr().err


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (None, "cannot be read"),
        ("{not json", "not valid JSON at line 1"),
        ('{"format": "FORMAT", "game": "race", "start": 5, "actions": []}', "start of the game must be an object"),
        ('{"format": "FORMAT", "game": "race", "start": {"players": ["red", "blue"]}, "actions": 7}',
         "actions must be a list"),
        ('{"format": "FORMAT", "game": "race", "start": {"players": ["red", "blue"]}, "actions": [{"type": "roll", '
         '"value": ' + "6" * 5000 + "}]}", "a number too long to read (more than 4300 digits)"),
        ('{"format": "FORMAT", "version": 2, "game": "race", "start": {"players": ["red", "blue"]}, "actions": []}',
         "written by a newer Table Companion (record version 2; this one reads version 1)"),
        ('{"format": "FORMAT", "version": "1", "game": "race", "start": {"players": ["red", "blue"]}, "actions": []}',
         "the game record's version must be a whole number 1 or more, not '1'"),
    ],
)
def test_replay_of_a_broken_record_says_what_is_wrong(
    content: str | None, expected: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "game.json"
    if content is not None:
        record.write_text(content.replace("FORMAT", RECORD_FORMAT))
    assert main(["replay", str(record)]) == 1
    assert expected in capsys.readouterr().err


def test_referee_on_a_damaged_journal_says_so_on_stderr_and_serves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    journal_path = tmp_path / "j.sqlite3"
    journal_path.write_bytes(b"noise\x00" * 1000)  # binary, as a card's lost pages are: text is no journal at all
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b'{"cmd": "pending"}\n')))
    assert main(["referee", "--journal", str(journal_path)]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out) == {"ok": True, "pending": None}
    assert "cannot be read as a journal" in err and "It is kept as j.sqlite3.damaged-" in err


def test_play_resumes_from_its_journal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    journal_path = tmp_path / "j.sqlite3"
    Session.new("race", ["red", "blue"], journal=Journal(journal_path)).act({"type": "roll", "value": 2})
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO("1\nq\n"))
    assert main(["play", "--journal", str(journal_path)]) == 0
    assert "Resuming the Test race game in progress (1 step so far)" in capsys.readouterr().out
    resumed = Session.resume(Journal(journal_path))
    assert resumed is not None and resumed.document()["positions"] == [2, 0]


def test_quitting_a_game_on_a_named_journal_says_how_to_resume_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    """README's hardware demo by hand plays on --journal /tmp/demo.sqlite3: its goodbye sent the player to a bare
    'companion play', which opens the default journal and never finds that game."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("COMPANION_JOURNAL", raising=False)
    named = tmp_path / "demo game.sqlite3"
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    assert main(["play", "--game", "race", "--players", "red,blue", "--journal", str(named)]) == 0
    assert f"The game is kept; to resume it: companion play --journal '{named}'" in capsys.readouterr().out
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    assert main(["play", "--game", "race", "--players", "red,blue"]) == 0
    assert "'companion play' resumes it" in capsys.readouterr().out
    by_variable = tmp_path / "cafe.sqlite3"
    monkeypatch.setenv("COMPANION_JOURNAL", str(by_variable))  # the default journal, named by the variable
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    assert main(["play", "--game", "race", "--players", "red,blue", "--journal", str(by_variable)]) == 0
    assert "'companion play' resumes it" in capsys.readouterr().out


def test_quitting_a_game_on_a_named_cafe_folder_says_to_resume_it_there(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    """`companion --cafe DIR play ...` said 'companion play' (or 'companion play --journal FILE') resumes it:
    typed as printed, the game resumed on the house data, "its data changed since it began", and went on with
    the house board and cards instead of the café's. `hw play`'s goodbye names --cafe already."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("COMPANION_JOURNAL", raising=False)
    cafe = tmp_path / "our cafe"
    cafe.mkdir()
    named = tmp_path / "demo.sqlite3"
    for journal, resume in (([], f"companion --cafe '{cafe}' play"),
                            (["--journal", str(named)], f"companion --cafe '{cafe}' play --journal {named}")):
        monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
        assert main(["--cafe", str(cafe), "play", "--game", "race", "--players", "red,blue", *journal]) == 0
        assert f"The game is kept; to resume it: {resume}\n" in capsys.readouterr().out


def test_data_validate_names_file_entry_and_problem(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["data", "template", "blackpool", str(tmp_path)]) == 0
    folder = tmp_path / "blackpool"
    assert main(["data", "validate", str(folder)]) == 0
    board = json.loads((folder / "board.json").read_text())
    board["squares"][3]["zone"] = "ring9"
    (folder / "board.json").write_text(json.dumps(board))
    (folder / "cards.json").write_text("{not json")
    capsys.readouterr()
    assert main(["data", "validate", str(folder)]) == 1
    out = capsys.readouterr().out
    assert "board.json: squares[3]" in out and "'ring9'" in out
    assert "cards.json: not valid JSON at line 1" in out


def test_data_which_names_house_and_cafe_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--cafe", str(tmp_path), "data", "template", "targi", str(tmp_path)]) == 0
    (tmp_path / "targi" / "goods.json").unlink()
    capsys.readouterr()
    assert main(["--cafe", str(tmp_path), "data", "which", "targi"]) == 0
    out = capsys.readouterr().out
    assert "house:targi/goods.json" in out and str(tmp_path / "targi" / "border.json") in out


def test_data_which_names_a_broken_file_and_still_lists_the_other_games(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "desert").mkdir()
    (tmp_path / "desert" / "board.json").write_text("")
    assert main(["--cafe", str(tmp_path), "data", "which"]) == 1
    out = capsys.readouterr().out
    assert f"desert:\n  cannot be used: {tmp_path / 'desert' / 'board.json'}: the file is empty" in out
    assert "temple:" in out and "house:ttd/board.json" in out


def test_a_pipe_closed_early_ends_quietly(tmp_path: Path) -> None:
    """`companion rules blackpool | head -1` must not end in a traceback on a café's terminal."""
    import os
    import subprocess
    import sys

    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone before the first line is written
    done = subprocess.run(
        [sys.executable, "-m", "companion.cli", "rules", "blackpool"],
        stdout=write_end, stderr=subprocess.PIPE, text=True, timeout=60, cwd=Path(__file__).resolve().parents[2],
    )
    os.close(write_end)
    assert done.returncode == 141, done.stderr
    assert "Traceback" not in done.stderr and "BrokenPipe" not in done.stderr


def test_a_path_that_cannot_be_written_is_named_not_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    with pytest.raises(SystemExit) as usage:  # refused as it is read, before anything is copied
        main(["data", "template", "ttd", str(blocker / "cafe")])
    err = capsys.readouterr().err
    assert usage.value.code == 2 and "companion data template: error: " in err
    assert str(blocker) in err and "Traceback" not in err


def test_a_cafe_folder_that_is_not_there_is_named_not_passed_over(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["--cafe", str(tmp_path / "cafee"), "data", "which", "targi"])
    assert stop.value.code == 2 and "is not a folder" in capsys.readouterr().err
    monkeypatch.setenv("COMPANION_CAFE_DIR", str(tmp_path / "cafee"))
    assert main(["data", "which", "targi"]) == 0
    captured = capsys.readouterr()
    assert "COMPANION_CAFE_DIR" in captured.err and "using the house data" in captured.err
    assert "house:targi/goods.json" in captured.out


def test_bench_times_the_cafe_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`--cafe DIR bench` timed the house data whatever the folder held."""
    from companion import cli

    assert main(["data", "template", "targi", str(tmp_path)]) == 0
    seen: list = []
    real = cli.bench_game
    monkeypatch.setattr(cli, "bench_game", lambda game, **kw: seen.append(game.data.sources) or real(game, **kw))
    assert main(["--cafe", str(tmp_path), "bench", "--game", "targi", "--games", "1"]) == 0
    assert seen and str(tmp_path / "targi" / "goods.json") in seen[0].values()


def test_live_play_asks_each_question_once_without_the_referees_prompt_beside_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`hw play` (the live referee) read its lines on a helper thread that wrote its '? ' each time it began
    to wait, so `new` showed "?   1. Blackpool ..." or "Which game? ? " on the screen: a prompt stood before
    every question asked, and the player could not tell which one the typed answer went to."""
    monkeypatch.setattr("builtins.input", slow_typist(["new", "race", "red,blue", "", "q"], 0.3, echo=True))
    parser = argparse.ArgumentParser()
    add_play_arguments(parser)
    args = parser.parse_args(["--game", "race", "--players", "red,blue", "--new", "--journal", str(tmp_path / "j.db")])
    assert cmd_play(args, attach=lambda terminal: lambda: None) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "Which game? race" in lines, lines
    assert any(line.endswith("(comma separated): red,blue") and "?" not in line for line in lines), lines
    prompts = [line for line in lines if line.startswith("?")]
    assert prompts == ["? new", "? q"], prompts


def test_play_for_another_game_keeps_the_game_in_progress_unless_told_new(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """With a Blackpool game in progress, `companion play --game targi --players white,black` set it aside without
    a word: the next `companion play --game blackpool` asked for players, and the table's game was gone."""
    journal = tmp_path / "j.sqlite3"
    session = Session.new("blackpool", ["red", "blue"], journal=Journal(journal))
    session.act({"type": "roll", "value": 6})
    session.journal.close()  # the table's referee has quit; a journal is held by one referee at a time
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    assert main(["play", "--game", "targi", "--players", "white,black", "--journal", str(journal)]) == 1
    out = capsys.readouterr().out
    assert "Blackpool game is in progress (1 step)" in out and "--new" in out, out
    resumed = Session.resume(Journal(journal))
    assert resumed is not None and resumed.game.id == "blackpool" and len(resumed.log) == 1
    resumed.journal.close()
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    assert main(["play", "--game", "targi", "--players", "white,black", "--new", "--journal", str(journal)]) == 0
    started = Session.resume(Journal(journal))
    assert started is not None and started.game.id == "targi"  # --new sets it aside, as the help says


@pytest.mark.parametrize(
    ("given", "said"),
    [
        (["--players", "yellow,green"], "--players yellow,green not used"),
        (["--players", "red,blue", "--profile", "placings"], "--profile placings not used"),
        (["--players", "Red, Blue"], None),  # the game's own players, as the question takes them
    ],
)
def test_players_or_a_profile_given_over_the_same_game_in_progress_are_said_not_used(
    given: list[str], said: str | None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str]
) -> None:
    """`play --game blackpool --players yellow,green` over red and blue's Blackpool game resumed it without a
    word, and the table played on as if the colours it named were at the table (README: add --new)."""
    journal = tmp_path / "j.sqlite3"
    Session.new("blackpool", ["red", "blue"], journal=Journal(journal)).journal.close()
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    assert main(["play", "--game", "blackpool", *given, "--journal", str(journal)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Resuming the Blackpool game in progress (0 steps so far).\n"), out
    if said is None:
        assert "not used" not in out, out
        return
    assert f"{said}: the game in progress was begun with red, blue, profile standard; add --new to set it aside" \
        in out, out

def test_simulate_results_read_as_words_not_a_python_dict(capsys: pytest.CaptureFixture[str]) -> None:
    """A desert race stopped at its round limit printed "results: {'brown': 2, 'black': 1, 'None': 1}"."""
    assert main(["simulate", "--game", "desert", "--games", "4", "--seed", "1"]) == 0
    line = next(row for row in capsys.readouterr().out.splitlines() if "results:" in row)
    assert "None" not in line and "{" not in line and "'" not in line, line
    assert "no winner (round limit reached): 1" in line, line


def test_each_kind_of_ending_is_named_in_words() -> None:
    assert outcome({"winner": "red"}) == "red"
    assert outcome({"winner": None, "winners": ["red", "black"]}) == "tie: red and black"
    assert outcome({"winner": None, "draw": True}) == "draw"
    assert outcome({"winner": None, "reason": "round limit reached"}) == "no winner (round limit reached)"
    assert outcome(None) == outcome({}) == "no winner"


@pytest.mark.parametrize("argv", [["play"], ["referee"], ["export", "-"]])
def test_an_empty_journal_name_is_refused_not_taken_as_none(
    argv: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("COMPANION_JOURNAL", str(tmp_path / "default.sqlite3"))
    with pytest.raises(SystemExit) as usage:
        main([*argv, "--journal", ""])
    assert usage.value.code == 2
    assert "argument --journal: it is empty: give a journal file's path" in capsys.readouterr().err
    assert not (tmp_path / "default.sqlite3").exists()  # the default journal was not opened instead


@pytest.mark.parametrize("argv", [["data", "validate", ""], ["data", "template", "race", ""], ["export", ""],
                                  ["replay", ""]])
def test_an_empty_path_is_refused_not_taken_as_the_working_folder(
    argv: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`data template race ""` wrote the house files into whatever folder the shell stood in."""
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as usage:
        main(argv)
    assert usage.value.code == 2 and ": it is empty: give " in capsys.readouterr().err
    assert not list(tmp_path.iterdir())


def test_play_for_no_such_game_is_refused_with_the_games_and_asks_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`companion play --game nope` asked "Which game?" and waited on a script's open pipe; it ended 0 after all."""
    import subprocess
    import sys

    journal = tmp_path / "j.sqlite3"
    command = [sys.executable, "-m", "tests.core.run_with_race", "play", "--game", "nope", "--journal", str(journal)]
    # stdin a pipe that stays open and never answers: a question asked would wait until the timeout.
    done = subprocess.run(command, stdin=subprocess.PIPE, capture_output=True, text=True, timeout=60,
                          cwd=Path(__file__).resolve().parents[2])
    assert done.returncode == 2 and "Which game?" not in done.stdout, (done.stdout, done.stderr)
    assert done.stderr.startswith("companion: no game 'nope'; the games are:\n"), done.stderr
    assert "  blackpool  Blackpool\n" in done.stderr and "  race       Test race\n" in done.stderr, done.stderr
    assert not journal.exists()  # nothing was opened for it


@pytest.mark.parametrize("players", ["red", "red,red", "red,pink"])
def test_play_with_game_and_players_given_ends_on_their_refusal_instead_of_asking(
    players: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--game race --players red` said the race needs two players, then asked "Which game?" and ended 0."""
    monkeypatch.setattr("sys.stdin", io.StringIO("1\nred,blue\nq\n"))  # answers a question, were one asked
    assert main(["play", "--game", "race", "--players", players, "--journal", str(tmp_path / "j.sqlite3")]) == 1
    captured = capsys.readouterr()
    assert "Which game?" not in captured.out and captured.err.startswith("companion: "), captured
    assert Journal(tmp_path / "j.sqlite3").latest_game() is None


def test_play_whose_questions_go_unanswered_says_no_game_started(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`companion play </dev/null` ended 0 with "Which game? " as its last words, as if a game had been played."""
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["play", "--journal", str(tmp_path / "j.sqlite3")]) == 1
    captured = capsys.readouterr()
    assert captured.out.endswith("Which game? \n"), captured.out
    assert captured.err.startswith("companion: no game was started; 'companion play --game ID --players A,B'")


def test_ctrl_c_in_simulate_reports_the_games_played_so_far(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ctrl-C ended `simulate` with exit 130 and not a word: the games it had played were thrown away."""
    from companion import cli

    real, calls = cli.play_random_game, []

    def interrupted_on_the_fourth(*args, **kwargs):  # as Python raises it when Ctrl-C lands mid-game
        calls.append(1)
        if len(calls) == 4:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(cli, "play_random_game", interrupted_on_the_fourth)
    assert main(["simulate", "--games", "50"]) == 130
    out = capsys.readouterr().out
    first = next(iter(cli.game_classes()))
    assert out.startswith(f"{first}: 3 of 50 games (stopped by Ctrl-C), 0 errors, "), out
    assert "  results: " in out and "  not simulated: " in out and "Traceback" not in out


def test_ctrl_c_in_bench_reports_the_games_timed_and_any_command_says_it_stopped(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from companion import cli

    real, timed = cli.bench_game, []

    def interrupted_on_the_second(game, **kwargs):
        if timed:
            raise KeyboardInterrupt
        timed.append(game.id)
        return real(game, **{**kwargs, "games": 1})

    monkeypatch.setattr(cli, "bench_game", interrupted_on_the_second)
    assert main(["bench", "--games", "5"]) == 130
    captured = capsys.readouterr()
    assert f"{timed[0]:<10} random games per second:" in captured.out
    assert captured.err.startswith("companion: bench stopped (Ctrl-C); not timed: "), captured.err

    def stopped(args):
        raise KeyboardInterrupt

    parser = cli.build_parser()  # any command: here `rules`, stopped as it starts
    monkeypatch.setattr(cli, "build_parser", lambda: parser)
    parser._subparsers._group_actions[0].choices["rules"].set_defaults(func=stopped)
    assert main(["rules", "race"]) == 130
    assert capsys.readouterr().err == "companion: rules stopped (Ctrl-C)\n"


class _CtrlC(io.StringIO):
    """Typed lines, then Ctrl-C at the next prompt (as input() raises it)."""

    def readline(self, *args) -> str:
        line = super().readline(*args)
        if not line:
            raise KeyboardInterrupt
        return line


def test_ctrl_c_at_the_prompt_ends_play_with_its_goodbye_not_a_bare_exit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ctrl-C at '? ' left "^Ccompanion: play stopped" at most, and never said the game was kept or how to resume."""
    journal = tmp_path / "j.sqlite3"
    monkeypatch.setattr("sys.stdin", _CtrlC("4\n"))
    assert main(["play", "--game", "race", "--players", "red,blue", "--journal", str(journal)]) == 130
    out = capsys.readouterr().out
    assert out.endswith(f"? \nBye. The game is kept; to resume it: companion play --journal {journal}\n"), out[-300:]
    resumed = Session.resume(Journal(journal))
    assert resumed is not None and len(resumed.log) == 1


def test_a_search_that_finds_nothing_names_the_game_as_the_table_does(capsys: pytest.CaptureFixture[str]) -> None:
    """It said "no race clause mentions ..." with the game's id."""
    assert main(["rules", "race", "--search", "zebra"]) == 1
    assert capsys.readouterr().err == "companion: no Test race clause mentions 'zebra'\n"


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["play", "--game", "race", "--players", ""], "argument --players: it is empty: give the players' colours"),
        (["play", "--game", "race", "--players", "red,blue", "--profile", " "],
         "argument --profile: it is empty: give a rule profile's name (leave --profile out for standard)"),
        (["hw", "play", "--game", "race", "--profile", ""], "argument --profile: it is empty"),
        (["hw", "demo", "--players", ""], "argument --players: it is empty: give the players' colours in turn order"),
    ],
)
def test_empty_players_or_profile_are_refused_by_name_not_taken_as_left_out(
    argv: list[str], said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`play --players "$PLAYERS"` with the variable unset asked for the players, and `--profile ""` played the
    standard rules, each without a word of the option given; `hw demo --players ""` played red and blue."""
    journal = tmp_path / "j.sqlite3"
    with pytest.raises(SystemExit) as usage:
        main([*argv, *(["--journal", str(journal)] if "play" in argv else [])])
    captured = capsys.readouterr()
    assert usage.value.code == 2 and captured.out == "" and said in captured.err
    assert not journal.exists()


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["blackpool", "BP-C5", "--search", "ride"],
         "a clause id (BP-C5) shows that clause, and --search lists the clauses holding its words: give one or the "
         "other"),
        (["blackpool", "--search", ""], "argument --search: it is empty: give the words to look for, such as 'tie'"),
        (["blackpool", "--search", "  "], "argument --search: it is empty: give the words to look for"),
    ],
)
def test_rules_refuses_a_search_it_would_pass_over(
    argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """With a clause id, --search was passed over and the clause alone shown; an empty --search (a shell variable
    left unset) listed every clause, as if no search had been asked for. Both ended 0."""
    with pytest.raises(SystemExit) as usage:
        main(["rules", *argv])
    captured = capsys.readouterr()
    assert usage.value.code == 2 and captured.out == ""
    assert captured.err.startswith("usage: companion rules ") and f"companion rules: error: {said}" in captured.err


@pytest.mark.parametrize("text", ['{"format": "table-companion-game", "actions": []}\n', "root:x:0:0:root:/root\n"])
def test_a_text_file_named_as_the_journal_is_left_as_it_is_not_set_aside_and_replaced(
    text: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`play --journal game.json` took the record for a damaged journal: it became game.json.damaged-... and a new
    journal was written as game.json. A mistyped path to any text file (a config file) was swapped out alike."""
    named = tmp_path / "game.json"
    named.write_text(text)
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    main(["play", "--game", "race", "--players", "red,blue", "--journal", str(named)])
    assert f"{named} is not a journal but a text file" in capsys.readouterr().out
    assert named.read_text() == text and [p.name for p in tmp_path.iterdir()] == ["game.json"]
    assert main(["export", "-", "--journal", str(named)]) == 1
    assert "is not a journal but a text file" in capsys.readouterr().err


def test_play_on_a_journal_that_cannot_be_written_ends_non_zero(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The game was refereed from memory and lost at the end, as the goodbye said, yet the exit status was 0."""
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    monkeypatch.setattr("sys.stdin", io.StringIO("4\nq\n"))
    assert main(["play", "--game", "race", "--players", "red,blue", "--journal", str(blocker / "j.sqlite3")]) == 1
    out = capsys.readouterr().out
    assert f"no folder for the journal {blocker / 'j.sqlite3'}" in out and "kept in memory only" in out


@pytest.mark.parametrize(("closed", "argv", "said"), [
    (0, ["play", "--game", "race", "--players", "red,blue"],
     "companion: play reads its standard input, which is closed"),
    (0, ["referee"], "companion: referee reads its standard input, which is closed"),
    (1, ["rules", "race"], "companion: rules writes to its standard output, which is closed"),
    (1, ["ui", "bench"], "companion: ui bench writes to its standard output, which is closed"),  # it ran, unseen
    (1, ["ui", "screenshots", "{t}/shots"], "companion: ui screenshots writes to its standard output, which is closed"),
])
def test_a_closed_standard_stream_is_named_not_a_traceback(
    closed: int, argv: list[str], said: str, tmp_path: Path
) -> None:
    """`companion play <&-` ended in "RuntimeError: input(): lost sys.stdin", `referee <&-` in an AttributeError;
    `rules race >&-` printed into nothing and ended 0."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "COMPANION_JOURNAL": str(tmp_path / "j.sqlite3")}
    argv = [word.replace("{t}", str(tmp_path)) for word in argv]
    done = subprocess.run([sys.executable, "-m", "tests.core.run_with_race", *argv], stderr=subprocess.PIPE,
                          stdout=subprocess.DEVNULL if closed == 0 else None, text=True, timeout=60, env=env,
                          cwd=Path(__file__).resolve().parents[2], preexec_fn=lambda: os.close(closed))
    assert done.returncode == 1 and done.stderr.startswith(said) and "Traceback" not in done.stderr, done.stderr


def test_an_empty_clause_is_refused_not_taken_for_the_whole_book(capsys: pytest.CaptureFixture[str]) -> None:
    """`rules race ""` (a shell variable never set) listed every clause and ended 0."""
    assert main(["rules", "race", ""]) == 1
    assert capsys.readouterr().err == "companion: Test race has no rule clause ''\n"


def test_every_argument_of_every_command_says_what_it_is_for() -> None:
    """`companion rules --help` showed "game", "clause" and "--search SEARCH" and no word on any of them."""
    from companion import cli, registry

    silent: list[str] = []

    def walk(parser: argparse.ArgumentParser, name: str) -> None:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for sub, subparser in action.choices.items():
                    walk(subparser, f"{name} {sub}")
            elif not action.help and not isinstance(action, argparse._HelpAction):
                silent.append(f"{name} {'/'.join(action.option_strings) or action.dest}")

    walk(build_parser(), "companion")
    assert silent == []
    assert ", ".join(sorted(registry._discovered())) == cli.GAME_IDS  # the help's list is every packaged game


def test_simulate_with_a_profile_a_game_lacks_is_refused_once_not_failed_per_game(
    capsys: pytest.CaptureFixture[str]
) -> None:
    """`simulate --game race --profile nope` printed an ERROR per game and ended 1, as if the rules had failed;
    with every game, a profile one of them has failed all the others."""
    assert main(["simulate", "--game", "race", "--profile", "nope", "--games", "3"]) == 2
    captured = capsys.readouterr()
    assert captured.err == "companion: Test race has no profile 'nope'; its profiles: standard, long\n"
    assert "ERROR" not in captured.out
    assert main(["simulate", "--profile", "long", "--games", "2"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("not simulated (no profile 'long'): blackpool, desert, targi, temple, ttd\n"), out
    assert "race: 2 games, 0 errors" in out and "ERROR" not in out


def test_a_profile_given_on_the_command_line_is_played_not_asked_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`play --game race --profile long` without --players asked "Profile (standard, long) [standard]:" after the
    players, and the Enter that followed played standard: the option was dropped in silence."""
    journal = tmp_path / "j.sqlite3"
    monkeypatch.setattr("sys.stdin", io.StringIO("red,blue\n\nq\n"))
    assert main(["play", "--game", "race", "--profile", "long", "--journal", str(journal)]) == 0
    assert "Profile (" not in capsys.readouterr().out
    assert Journal(journal).latest_game().start["profile"] == "long"


def test_export_from_a_folder_says_it_is_a_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["export", "-", "--journal", str(tmp_path)]) == 1
    said = f"companion: {tmp_path} is a folder, not a journal file: name the journal file in it\n"
    assert capsys.readouterr().err == said


def _race_journal(path: Path) -> Session:
    session = Session.new("race", ["red", "blue"], journal=Journal(path))
    session.act({"type": "roll", "value": 6})
    return session


@pytest.mark.parametrize(
    ("out", "said"),
    [
        ("no pe/game.json", "cannot write the record to {t}/no pe/game.json: there is no folder {t}/no pe; make it "
                            "first (mkdir -p '{t}/no pe'), or give a name in a folder that is there\n"),
        ("records/", "cannot write the record to {t}/records/: there is no folder {t}/records; make it first (mkdir -p "
                     "{t}/records), then give the record a file's name in it, e.g. {t}/records/game.json, or give a "
                     "name in a folder that is there\n"),
        ("notes.txt/game.json", "cannot write the record to {t}/notes.txt/game.json: {t}/notes.txt is a file, not a "
                                "folder; give the record a name in a folder\n"),
        (".", "{t}/. is a folder: give the record a file's name in it, e.g. {t}/game.json\n"),
        ("j.sqlite3", "{t}/j.sqlite3 is the journal being exported from: the record would replace what it holds; "
                      "give the record another name, e.g. game.json\n"),
        ("old.sqlite3", "{t}/old.sqlite3 is an SQLite database, as a journal is: the record would replace what it "
                        "holds; give the record another name, e.g. game.json\n"),
    ],
)
def test_export_to_a_file_it_cannot_or_must_not_write_says_what_to_do(
    out: str, said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A folder not there said only "companion: No such file or directory (PATH)"; the journal named as the
    record's file was written over with the record, every game in it lost (another journal too)."""
    journal = tmp_path / "j.sqlite3"
    session = _race_journal(journal)
    (tmp_path / "notes.txt").write_text("notes\n")
    Journal(tmp_path / "old.sqlite3").close()
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()}
    assert main(["export", f"{tmp_path}/{out}", "--journal", str(journal)]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == "companion: " + said.format(t=tmp_path)
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()} == before
    assert main(["export", "-", "--journal", str(journal)]) == 0
    assert json.loads(capsys.readouterr().out)["actions"] == session.log


@pytest.mark.parametrize("name", ["nope", "", "x" * 10_000])
def test_data_which_refuses_a_game_that_is_not_there_before_naming_it_as_a_heading(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["data", "which", name]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith("companion: no game '") and len(captured.err) < 400


def test_a_profile_the_game_lacks_is_refused_naming_the_game_as_the_table_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`play --game race --players red,blue --profile zzz` said "race has no profile 'zzz'", by the game's id."""
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    argv = ["play", "--game", "race", "--players", "red,blue", "--profile", "zzz", "--journal", str(tmp_path / "j")]
    assert main(argv) == 1
    assert capsys.readouterr().err == "companion: Test race has no profile 'zzz'; profiles: standard, long\n"


@pytest.mark.parametrize(("group", "commands"), [("data", "{validate,which,template}"),
                                                 ("hw", "{play,simulate-dice,test,bench,teach,demo}")])
def test_a_command_group_without_its_command_lists_its_commands(
    group: str, commands: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """`companion hw` said "the following arguments are required: hw_command", a name from the code."""
    assert main([group]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"usage: companion {group} [-h] {commands} ...") and "_command" not in err, err


def test_players_given_without_a_game_are_taken_once_the_game_is_chosen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`play --players red,blue` asked which game, then asked the players again: --players was dropped."""
    journal = tmp_path / "j.sqlite3"
    monkeypatch.setattr("sys.stdin", io.StringIO("race\n\nq\n"))
    assert main(["play", "--players", "red,blue", "--journal", str(journal)]) == 0
    assert "Players in turn order" not in capsys.readouterr().out
    assert Journal(journal).latest_game().start["players"] == ["red", "blue"]


def test_referee_on_a_journal_that_cannot_be_written_says_so_and_ends_non_zero(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The referee answered from memory and lost the game at the end, yet exited 0, so a script took it as kept."""
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    journal = blocker / "j.sqlite3"
    request = b'{"cmd": "new", "game": "race", "players": ["red", "blue"]}\n'
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(request)))
    assert main(["referee", "--journal", str(journal)]) == 1
    captured = capsys.readouterr()
    assert json.loads(captured.out)["ok"] is True, captured.out
    assert captured.err.startswith(f"companion: no folder for the journal {journal}")
    assert f"nothing was journalled in {journal}" in captured.err


def terminal_env(tmp_path: Path) -> dict[str, str]:
    """A command's surroundings with every file it keeps under ``tmp_path``."""
    env = {**os.environ, "HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "data"),
           "COMPANION_JOURNAL": str(tmp_path / "j.sqlite3")}
    env.pop("COMPANION_CAFE_DIR", None)
    return env


def test_ctrl_c_typed_at_the_terminal_at_the_first_question_says_no_game_was_started(tmp_path: Path) -> None:
    """At "Which game?" Ctrl-C ended `play` with 130 and a bare new line: had a game begun, was one kept?"""
    with AtTerminal("play", env=terminal_env(tmp_path)) as play:
        play.read_until("(ttd)\n")
        play.ctrl_c()
        code, _rest, said = play.finish()
    assert code == 130 and said.endswith("companion: play stopped (Ctrl-C); no game was started\n"), (code, said)
    assert "Traceback" not in said


def test_ctrl_c_typed_at_the_terminal_mid_game_says_goodbye_and_the_game_is_kept(tmp_path: Path) -> None:
    env = terminal_env(tmp_path)
    with AtTerminal("play", "--game", "blackpool", "--players", "red,blue", env=env) as play:
        play.read_until("#6. Oracle shows 6\n")
        play.type("4\n")
        play.read_until("> Blue: roll the oracle.")  # the roll is journalled before it is announced
        play.read_until("#6. Oracle shows 6\n")
        play.ctrl_c()
        code, rest, said = play.finish()
    assert code == 130 and rest.endswith("\nBye. The game is kept; 'companion play' resumes it.\n"), (code, rest)
    assert "Traceback" not in said and "stopped" not in said
    kept = Journal.for_reading(tmp_path / "j.sqlite3").latest_game()
    assert kept is not None and kept.status == "active" and kept.steps[0] == ("act", {"type": "roll", "value": 4})


@pytest.mark.parametrize("where", ["notes.txt", "notes.txt/cafe", "cafe/ttd"])
def test_a_template_whose_folder_would_be_a_file_is_refused_by_name_before_copying(
    tmp_path: Path, where: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """It said "Not a directory (notes.txt/ttd)" or "File exists (cafe/ttd)", errno's words for a folder it named."""
    (tmp_path / "notes.txt").write_text("notes\n")
    (tmp_path / "cafe").mkdir()
    (tmp_path / "cafe" / "ttd").write_text("not a folder\n")
    given = tmp_path / where.removesuffix("/ttd")
    if where == "cafe/ttd":
        assert main(["data", "template", "ttd", str(given)]) == 1
        said = capsys.readouterr().err
        assert said == f"companion: {given / 'ttd'} is a file where the game's folder goes: move it away, or give " \
                       "another café folder\n"
    else:
        with pytest.raises(SystemExit) as usage:
            main(["data", "template", "ttd", str(given)])
        said = capsys.readouterr().err.splitlines()[-1]
        assert usage.value.code == 2
        file = "it is" if where == "notes.txt" else f"{str(tmp_path / 'notes.txt')!r} in it is"
        assert said == (f"companion data template: error: argument dir: {str(given)!r} cannot be a folder: {file} a "
                        "file; give the café folder's path (. for the one you are in)")
    assert (tmp_path / "notes.txt").read_text() == "notes\n" and (tmp_path / "cafe" / "ttd").is_file()


@pytest.mark.parametrize("command", [["data", "template", "ttd"], ["ui", "screenshots"]])
def test_a_folder_to_write_into_inside_one_that_may_not_be_looked_into_is_named_not_a_traceback(
    tmp_path: Path, command: list[str]
) -> None:
    """Checking whether the folder was a file raised PermissionError out of argparse, a traceback."""
    import subprocess
    import sys

    from tests.core.test_journal_faults import ROOT, unprivileged

    shut = tmp_path / "shut"
    shut.mkdir(mode=0o000)
    try:
        done = subprocess.run(unprivileged([sys.executable, "-m", "companion", *command, str(shut / "cafe")]),
                              capture_output=True, text=True, timeout=120, cwd=ROOT,
                              env={**os.environ, "SDL_VIDEODRIVER": "offscreen", "HOME": str(tmp_path)})
    finally:
        shut.chmod(0o755)
    said = [line for line in done.stderr.splitlines() if not line.startswith("Config:")]
    assert done.returncode == 1 and len(said) == 1, done.stderr
    assert said[0].startswith(f"companion: Permission denied ({shut / 'cafe'}"), done.stderr


@pytest.mark.parametrize("journalled", [True, False])
def test_ctrl_c_typed_at_the_referee_says_whether_its_game_is_kept(tmp_path: Path, journalled: bool) -> None:
    """"companion: referee stopped (Ctrl-C)" was all it said: was the game a driver had begun kept?"""
    journal = tmp_path / "game journal.sqlite3"
    named = ["--journal", str(journal)] if journalled else []
    with AtTerminal("referee", *named, env=terminal_env(tmp_path)) as referee:
        referee.type('{"cmd": "new", "game": "blackpool", "players": ["red", "blue"]}\n')
        referee.read_until('"ok":true')
        referee.read_until("\n")
        referee.ctrl_c()
        code, _rest, said = referee.finish()
    kept = (f"the game is kept: 'companion referee --journal '{journal}'' resumes it" if journalled else
            "the game was kept in memory only (no --journal was given), so it ends here")  # fmt: skip
    assert code == 130 and said == f"companion: referee stopped (Ctrl-C); {kept}\n", (code, said)
    if journalled:
        assert Journal.for_reading(journal).latest_game().status == "active"


@pytest.mark.parametrize("lines", [1, 3])
def test_ctrl_c_the_referee_heard_only_as_python_s_flag_still_stops_it(tmp_path: Path, lines: int) -> None:
    """A SIGINT landing after Python last looked for signals and before its read began left the referee reading on
    until the next line came (1 in about 90 tries under load). Here every SIGINT lands so (`SIGINT_ELSEWHERE`);
    lines typed in one piece are each answered first."""
    begin = '{"cmd": "new", "game": "blackpool", "players": ["red", "blue"]}'
    requests = [begin, *['{"cmd": "pending"}'] * (lines - 1)]
    with AtTerminal("referee", env=terminal_env(tmp_path), before=SIGINT_ELSEWHERE) as referee:
        referee.type("".join(f"{request}\n" for request in requests))
        answers = [json.loads(referee.read_until('{"ok":')[-6:] + referee.read_until("\n")) for _ in requests]
        referee.ctrl_c()
        code, rest, said = referee.finish()
    assert [answer["ok"] for answer in answers] == [True] * lines and rest == "^C", (answers, rest)  # ^C: the echo
    assert code == 130 and said.startswith("companion: referee stopped (Ctrl-C); "), (code, said)


def test_a_record_of_a_game_that_is_not_there_is_a_refusal_not_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The game is named inside the file, not on the command line: 1, as any refusal of a file's content."""
    session = Session.new("race", ["red", "blue"])
    record = session.export()
    record["game"] = "chess"
    (tmp_path / "game.json").write_text(json.dumps(record))
    assert main(["replay", str(tmp_path / "game.json")]) == 1
    assert "chess" in capsys.readouterr().err


@pytest.mark.parametrize("size", [10, 5000])
def test_export_from_a_text_file_says_it_is_no_journal_whatever_its_length(
    tmp_path: Path, size: int, capsys: pytest.CaptureFixture[str]
) -> None:
    """Past 100 bytes a text file was taken for a journal whose header was damaged, and a mended copy of it tried."""
    notes = tmp_path / "notes.txt"
    notes.write_text(("notes " * size)[:size] + "\n")
    assert main(["export", "-", "--journal", str(notes)]) == 1
    said = capsys.readouterr().err
    assert said == f"companion: {notes} is not a journal but a text file (a game record or notes?), so it is left as " \
                   "it is\n"


@pytest.mark.parametrize(
    ("argv", "usage"),
    [
        (["referee", "--bogus"], "usage: companion referee "),
        (["play", "red"], "usage: companion play "),
        (["data", "which", "ttd", "extra"], "usage: companion data which "),
        (["hw", "bench", "--x"], "usage: companion hw bench "),
        (["--bogus"], "usage: companion "),
    ],
)
def test_a_word_no_command_takes_is_refused_with_the_usage_of_the_command_it_was_typed_to(
    argv: list[str], usage: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """`companion referee --bogus` printed the usage of `companion` and its twelve commands, not of `referee`."""
    with pytest.raises(SystemExit) as ended:
        main(argv)
    said = capsys.readouterr().err
    assert ended.value.code == 2 and said.startswith(usage), said
    assert said.rstrip().endswith(f"error: unrecognized arguments: {argv[-1]}"), said


@pytest.mark.parametrize(("argv", "what"), [
    (["play", "--game", "race", "--players", "red,blue", "--journal", "-"], "--journal"),
    (["referee", "--journal", "-"], "--journal"),
    (["results", "--journal", "-"], "--journal"),
    (["export", "-", "--journal", "-"], "--journal"),
    (["ui", "--journal", "-", "bench"], "--journal"),
    (["data", "template", "ttd", "-"], "dir"),
    (["data", "validate", "-"], "path"),
    (["ui", "screenshots", "-"], "dir"),
    (["vision", "watch", "0", "--save", "-"], "--save"),
])
def test_a_dash_where_no_stream_can_go_is_refused(
    argv: list[str], what: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`-` is stdout to `export` and stdin to `replay`; `play --journal -` made a journal called "-" in the working
    folder (and said `companion play --journal -` resumes it), `data template ttd -` a folder called "-"."""
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as usage:
        main(argv)
    err = capsys.readouterr().err
    assert usage.value.code == 2
    assert f"argument {what}: '-' stands for stdin or stdout, which this cannot be ('./-' names one called -): " in err
    assert list(tmp_path.iterdir()) == []


def test_a_ctrl_c_in_the_commands_own_stopping_still_ends_it_cleanly() -> None:
    """Ctrl-C sent to each thread of `hw play` can come as two interrupts on a loaded machine: the second, raised
    while the first was being handled, left `main` as a traceback (exit -2) instead of the command's "stopped"
    line and status 130, and skipped the quick exit that spares the line reader's stdin lock at shutdown."""
    script = (
        "import queue, sys\n"
        "import companion.cli as cli\n"
        "from companion.terminal import start_reading\n"
        "start_reading(sys.stdin.readline, queue.Queue(), lambda error: None)\n"
        "def interrupted(argv):\n"
        "    raise KeyboardInterrupt\n"
        "cli._run = interrupted\n"
        "sys.exit(cli.main())\n"
    )
    root = Path(__file__).resolve().parents[2]
    with subprocess.Popen([sys.executable, "-c", script], cwd=root, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True) as running:
        try:
            running.wait(timeout=60)  # stdin left open: the line reader still waits on it
        finally:
            running.kill()
        err = running.stderr.read()
    assert running.returncode == 130 and "Traceback" not in err, (running.returncode, err[-500:])
    assert err.strip().splitlines()[-1] == "companion: stopped (Ctrl-C)"
