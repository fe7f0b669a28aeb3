"""Typed lines, protocol requests and command lines at their edges: each gets a clear answer, the game stays."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest

from companion.cli import main
from companion.errors import BadRequest
from companion.journal import Journal
from companion.places import explain_place, place_from_text
from companion.protocol import Referee
from companion.session import Session
from companion.terminal import Terminal


def run(session: Session, lines: list[str]) -> str:
    out = io.StringIO()
    Terminal(session, lambda: None, out).run(iter([*lines, "q"]))
    return out.getvalue()


def finished(game_id: str) -> Session:
    session = Session.new(game_id, ["red", "black" if game_id == "ttd" else "blue"])
    rng = random.Random(0)
    while not session.pending().is_over:  # the game's own random play: uniform choices took 7272 temple steps
        session.act(session.game.sim_choose(session.state, session.legal(), rng))
    return session


def test_why_with_a_number_thousands_of_digits_long_is_refused_in_words() -> None:
    """`int` refuses such a number with a message telling the player to call sys.set_int_max_str_digits."""
    with pytest.raises(BadRequest, match="far too long to be a place"):
        place_from_text("9" * 5000)
    session = Session.new("ttd", ["red", "black"])
    before = session.document()
    text = run(session, ["why " + "9" * 5000, "why 1," + "9" * 5000])
    assert text.count("Refused: that number is far too long to be a place on any board") == 2
    assert "set_int_max_str_digits" not in text and "Exceeds the limit" not in text
    assert session.document() == before and session.log == []


@pytest.mark.parametrize(("game_id", "clause", "place"),
                         [("blackpool", "BP-Q30", "red-1"), ("temple", "RU-16", 3), ("ttd", "TTD-5", [5, 5])])
def test_why_after_the_game_has_ended_says_so_with_the_clause(game_id: str, clause: str, place: object) -> None:
    """It said 'Nothing is placed on the board at this point of the game', naming neither the end nor a rule."""
    session = finished(game_id)
    steps = len(session.log)
    ruling = explain_place(session, (5, 5))
    assert not ruling.legal and ruling.rules == (clause,)
    assert "The game is over" in ruling.text and "No place is chosen" not in ruling.text
    referee = Referee()
    referee.session = session
    answer = referee.handle({"cmd": "explain", "place": place})  # a place of this board: "red-1" is Blackpool's
    assert answer["ruling"]["rules"] == [clause] and "The game is over" in answer["ruling"]["text"]
    assert len(session.log) == steps


def test_refusals_citing_no_clause_are_not_called_the_same_rule() -> None:
    """A place the game cannot name (a hex of strings) was refused without a clause, and 'the same rule' named
    none; it now cites the clause that allows camels to be placed, and still says it rules out every choice."""
    session = Session.new("ttd", ["red", "black"])
    rng = random.Random(1)
    while session.legal()[0]["type"] != "camel":
        session.act(rng.choice(session.legal()))
    ruling = explain_place(session, ("1", "2"))
    assert not ruling.legal and ruling.rules == ("TTD-3",)
    assert "The same rule" not in ruling.text and "That rules out all 5 choices there" in ruling.text


def test_a_value_several_faces_show_is_answered_with_words_that_tell_them_apart() -> None:
    """The hint was any one key of the first face in set order: often '1' again, for a typed '1'."""
    session = Session.new("temple", ["red", "blue"])
    rng = random.Random(0)
    while session.state.phase != "roll":  # a turn's roll: in the first-player roll only the number counts
        session.act(rng.choice(session.legal()))
    steps = len(session.log)
    text = run(session, ["1"])
    assert "That fits several faces; say which: 'red 1' or 'white 1'." in text
    assert len(session.log) == steps
    run(session, ["1 white"])
    assert session.log[-1] == {"type": "roll", "value": 1, "face": {"colour": "white"}}


def test_an_unknown_clause_id_is_echoed_short() -> None:
    """A pasted id a megabyte long came back whole from the terminal and the referee."""
    long_id = "x" * 100_000
    referee = Referee()
    answer = referee.handle({"cmd": "rules", "game": "blackpool", "clause": long_id})
    assert answer["error"]["code"] == "bad_request" and len(json.dumps(answer)) < 300
    assert answer["error"]["message"].startswith("Blackpool has no rule clause 'xxx")
    session = Session.new("blackpool", ["red", "blue"])
    text = run(session, ["rule " + long_id])
    assert "Not understood: Blackpool has no rule clause 'xxx" in text and len(text) < 20_000


def test_an_unknown_clause_names_the_game_by_its_title() -> None:
    """"ttd has no rule clause 'X'" named the game by the id only a protocol client types."""
    answer = Referee().handle({"cmd": "rules", "game": "ttd", "clause": "TTD-99"})
    assert answer["error"]["message"] == "Through the Desert has no rule clause 'TTD-99'", answer


@pytest.mark.parametrize("request_", [
    {"cmd": "new", "game": "x" * 100_000, "players": ["red", "blue"]},
    {"cmd": "new", "game": "blackpool", "players": ["red", "blue"], "profile": "x" * 100_000},
])
def test_an_unknown_game_or_profile_is_echoed_short(request_: dict) -> None:
    answer = Referee().handle(request_)
    assert answer["ok"] is False and "'xxx" in answer["error"]["message"] and len(json.dumps(answer)) < 400


def test_rules_search_that_finds_nothing_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    """It printed nothing and succeeded, as if the rulebook were empty."""
    assert main(["rules", "blackpool", "--search", "zzzq"]) == 1
    assert "no Blackpool clause mentions 'zzzq'" in capsys.readouterr().err
    assert main(["rules", "blackpool", "--search", "oracle"]) == 0


def test_players_on_the_command_line_may_be_written_as_at_the_question(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--players "red, blue"` was split on commas alone and ' blue' refused as no colour."""
    journal = tmp_path / "j.sqlite3"
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    assert main(["play", "--game", "blackpool", "--players", "red, blue", "--new", "--journal", str(journal)]) == 0
    out = capsys.readouterr().out
    assert "unknown colour" not in out and "Red: roll the oracle." in out
    entry = Journal(journal).latest_game()
    assert entry is not None and entry.start["players"] == ["red", "blue"]


def test_replaying_a_record_without_a_final_position_does_not_claim_it_matched(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A record exported from steps that no longer replayed has no end; the replay vouched for one."""
    session = Session.new("race", ["red", "blue"])
    session.act({"type": "roll", "value": 3})
    record = session.export()
    record["final"] = None
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "the record has no final position to confirm" in out and "matches the record" not in out


def test_a_journal_id_past_sqlites_integers_is_refused_at_parsing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """It ended in an OverflowError traceback from SQLite."""
    journal = tmp_path / "j.sqlite3"
    Session.new("race", ["red", "blue"], journal=Journal(journal))
    with pytest.raises(SystemExit):
        main(["export", "-", "--journal", str(journal), "--id", "9" * 20])
    assert "is not a game id this journal could hold" in capsys.readouterr().err
    assert main(["export", "-", "--journal", str(journal), "--id", "7"]) == 1
    assert "The journal holds no game 7 (--list names the games it holds)." in capsys.readouterr().err


def test_a_record_nested_thousands_deep_is_refused_in_words(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Python's JSON reader recurses once per level: a RecursionError traceback named no file and no fault."""
    path = tmp_path / "game.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    assert main(["replay", str(path)]) == 1
    assert f"{path}: lists or objects nested too deeply" in capsys.readouterr().err


def test_cafe_data_nested_thousands_deep_is_named_not_an_internal_error(tmp_path: Path) -> None:
    """The referee answered internal_error (a RecursionError) to every new game and to `games`."""
    board = tmp_path / "blackpool" / "board.json"
    board.parent.mkdir()
    board.write_text("[" * 100_000 + "]" * 100_000)
    referee = Referee(cafe_dir=tmp_path)
    answer = referee.handle({"cmd": "new", "game": "blackpool", "players": ["red", "blue"]})
    assert answer["ok"] is False and answer["error"]["code"] != "internal_error", answer
    assert "nested too deeply" in answer["error"]["message"]
    games = referee.handle({"cmd": "games"})
    assert games["ok"] and any("nested too deeply" in " ".join(g.get("problems", [])) for g in games["games"])
