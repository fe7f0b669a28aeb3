"""The referee as a real subprocess: it survives anything and a SIGKILL loses nothing announced."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.core.referee_process import ROOT, RefereeProcess

STABLE_CODES = {
    "bad_request",
    "unknown_game",
    "invalid_action",
    "illegal_action",
    "invalid_position",
    "nothing_to_undo",
    "no_game",
}
GAMES = {
    "race": ["red", "blue"],
    "blackpool": ["yellow", "red", "green"],
    "desert": ["black", "teal", "pink"],
    "targi": ["white", "black"],
    "temple": ["red", "blue", "green"],
    "ttd": ["red", "black", "orange"],
}


def test_sigkill_mid_game_resumes_the_last_announced_state(tmp_path: Path) -> None:
    """Each game is killed mid-game and resumed; the process that resumed one game plays and is killed in the
    next, so each process start is a resume that is checked (one start per game, not two)."""
    journal = str(tmp_path / "journal.sqlite3")
    rng = random.Random(7)
    referee = RefereeProcess("--journal", journal)
    for game_id, players in GAMES.items():
        assert referee.ask({"cmd": "new", "game": game_id, "players": players})["ok"]
        for _ in range(25):
            legal = referee.ask({"cmd": "legal"})
            if not legal["legal"]:
                break
            assert referee.ask({"cmd": "act", "action": rng.choice(legal["legal"])})["ok"]
        referee.ask({"cmd": "undo"})
        announced = referee.ask({"cmd": "state"})["state"]
        pending = referee.ask({"cmd": "pending"})["pending"]
        referee.kill()

        referee = RefereeProcess("--journal", journal)
        assert referee.ask({"cmd": "state"})["state"] == announced
        assert referee.ask({"cmd": "pending"})["pending"] == pending
        assert referee.ask({"cmd": "redo"})["ok"], "the undo history survives the kill too"
    assert referee.close() == 0


@pytest.fixture(scope="module")
def referees() -> Iterator[dict[str, RefereeProcess]]:
    processes = {game_id: RefereeProcess() for game_id in GAMES}
    for game_id, process in processes.items():
        assert process.ask({"cmd": "new", "game": game_id, "players": GAMES[game_id]})["ok"]
    yield processes
    for process in processes.values():
        assert process.close() == 0


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
raw_lines = st.one_of(
    st.binary(max_size=60).filter(lambda b: b"\n" not in b and b"\r" not in b and b.strip()),
    st.text(max_size=60).filter(lambda t: "\n" not in t and "\r" not in t and t.strip()).map(str.encode),
    json_values.map(lambda v: json.dumps(v).encode()),
    st.fixed_dictionaries(
        {"cmd": st.sampled_from(["act", "check", "legal", "state", "pending", "rules", "games", "dance", 3])},
        optional={"action": json_values, "game": json_values, "clause": json_values},
    ).map(lambda v: json.dumps(v).encode()),
)


FIELDS = ["type", "player", "value", "card", "slot", "deck", "extra"]
mutations = st.lists(st.tuples(st.integers(0, 50), st.booleans(), json_values), min_size=1, max_size=3)


def mutate(legal: list[dict], pick: int, recipe: list[tuple[int, bool, object]]) -> dict:
    """A legal action with fields dropped, retyped or invented: the engine's validation under stress.

    The recipe is drawn independently of the position so hypothesis can replay it.
    """
    action = dict(legal[pick % len(legal)]) if legal else {"type": "roll"}
    action.pop("text", None)
    for which, drop, value in recipe:
        keys = sorted(set(action) | set(FIELDS))
        key = keys[which % len(keys)]
        if drop:
            action.pop(key, None)
        else:
            action[key] = value
    return action


@pytest.mark.parametrize("game_id", sorted(GAMES))
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    cmd=st.sampled_from(["raw", "act", "check"]),
    line=raw_lines,
    pick=st.integers(0, 10_000),
    recipe=mutations,
    advance=st.integers(0, 10_000),
)
def test_every_line_gets_an_answer_and_refusals_change_nothing(
    referees: dict[str, RefereeProcess],
    game_id: str,
    cmd: str,
    line: bytes,
    pick: int,
    recipe: list[tuple[int, bool, object]],
    advance: int,
) -> None:
    referee = referees[game_id]
    legal = referee.ask({"cmd": "legal"})["legal"]
    if not legal:  # the game ended: start another so every example meets a live position
        referee.ask({"cmd": "new", "game": game_id, "players": GAMES[game_id]})
        legal = referee.ask({"cmd": "legal"})["legal"]
    before = referee.ask({"cmd": "state"})["state"]
    if cmd != "raw":
        line = json.dumps({"cmd": cmd, "action": mutate(legal, pick, recipe)}).encode()
    answer = referee.send_raw(line)
    assert isinstance(answer, dict) and isinstance(answer.get("ok"), bool)
    if not answer["ok"]:
        assert answer["error"]["code"] in STABLE_CODES, (line, answer)
        assert answer["error"]["message"]
        assert referee.ask({"cmd": "state"})["state"] == before
    else:
        assert "pending" in answer
        if cmd == "check":
            assert referee.ask({"cmd": "state"})["state"] == before
    if legal and advance % 4 == 0:  # move on now and then, to fuzz many positions
        current = referee.ask({"cmd": "legal"})["legal"]
        if current:
            assert referee.ask({"cmd": "act", "action": current[advance % len(current)]})["ok"]


def test_hostile_lines_leave_the_process_the_game_and_the_journal_as_they_were(tmp_path: Path) -> None:
    """A number of 5000 digits used to end the process; NaN was applied and journalled; a long line echoed whole."""
    journal = str(tmp_path / "journal.sqlite3")
    referee = RefereeProcess("--journal", journal, with_race=False)
    assert referee.ask({"cmd": "new", "game": "blackpool", "players": ["red", "blue"]})["ok"]
    before = referee.ask({"cmd": "state"})["state"]
    hostile = [
        b'{"cmd": "act", "action": {"type": "roll", "value": ' + b"6" * 5000 + b"}}",
        b'{"cmd": "act", "action": {"type": "roll", "value": 6, "note": NaN}}',
        b'{"cmd": "act", "action": {"type": "roll", "value": 6, "note": 1e999}}',
        b'{"cmd": "' + b"x" * 100_000 + b'"}',
        b'{"cmd": "act", "action": {"type": "roll", "value": 6, "note": "' + b"z" * 2_000_000 + b'"}}',
    ]
    for line in hostile:
        assert referee.proc.stdin and referee.proc.stdout
        referee.proc.stdin.write(line + b"\n")
        referee.proc.stdin.flush()
        raw = referee.proc.stdout.readline()
        assert raw, f"the referee died on {line[:60]!r}"
        assert len(raw) < 1000, f"the answer to {line[:60]!r} echoes the input: {raw[:120]!r}..."
        answer = json.loads(raw)
        assert answer["ok"] is False and answer["error"]["code"] == "bad_request", answer
    assert referee.ask({"cmd": "state"})["state"] == before
    assert referee.close() == 0
    restarted = RefereeProcess("--journal", journal, with_race=False)
    assert restarted.ask({"cmd": "state"})["state"] == before
    assert restarted.ask({"cmd": "export"})["record"]["actions"] == [], "a refused line added a journal step"
    assert restarted.close() == 0


def test_a_front_end_that_stops_reading_is_told_on_stderr_whether_the_game_is_kept(tmp_path: Path) -> None:
    """A front end closing its end of stdout (an app quit, a page reloaded) ended the referee with 141 and not a
    word, where Ctrl-C says whether the game is kept; the step whose answer was lost is journalled and resumes."""
    journal = tmp_path / "j.sqlite3"
    proc = subprocess.Popen([sys.executable, "-m", "companion", "referee", "--journal", str(journal)], cwd=ROOT,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.stdin and proc.stdout and proc.stderr
    proc.stdin.write(b'{"cmd": "new", "game": "blackpool", "players": ["red", "blue"]}\n')
    proc.stdin.flush()
    assert json.loads(proc.stdout.readline())["ok"]
    proc.stdout.close()
    proc.stdin.write(b'{"cmd": "act", "action": {"type": "roll", "value": 3}}\n')
    proc.stdin.close()
    assert proc.wait(timeout=30) == 141
    assert proc.stderr.read().decode() == (
        "companion: referee stopped (stdout was closed: the front end stopped reading); the game is kept: "
        f"'companion referee --journal {journal}' resumes it\n")
    resumed = RefereeProcess("--journal", str(journal), with_race=False)
    assert resumed.ask({"cmd": "pending"})["pending"]["player"] == "blue"  # Red's 3 was taken: no move, Blue's turn
    assert resumed.close() == 0
