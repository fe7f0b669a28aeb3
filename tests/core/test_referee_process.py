"""The referee as a real subprocess: it survives anything and a SIGKILL loses nothing announced."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.core.referee_process import RefereeProcess

STABLE_CODES = {
    "bad_request",
    "unknown_game",
    "invalid_action",
    "illegal_action",
    "invalid_position",
    "nothing_to_undo",
    "no_game",
}
GAMES = {"race": ["red", "blue"]}


def test_sigkill_mid_game_resumes_the_last_announced_state(tmp_path: Path) -> None:
    journal = str(tmp_path / "journal.sqlite3")
    rng = random.Random(7)
    for game_id, players in GAMES.items():
        referee = RefereeProcess("--journal", journal)
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

        restarted = RefereeProcess("--journal", journal)
        assert restarted.ask({"cmd": "state"})["state"] == announced
        assert restarted.ask({"cmd": "pending"})["pending"] == pending
        assert restarted.ask({"cmd": "redo"})["ok"], "the undo history survives the kill too"
        assert restarted.close() == 0


@pytest.fixture(scope="module")
def referee() -> Iterator[RefereeProcess]:
    process = RefereeProcess()
    yield process
    assert process.close() == 0


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
action_like = st.fixed_dictionaries(
    {"type": st.sampled_from(["roll", "draw", "advance", "hold", "move", "six", "card", "place", 7, None])},
    optional={
        "value": json_values,
        "card": json_values,
        "traveller": json_values,
        "deck": json_values,
        "player": json_values,
        "to": json_values,
    },
)
requests = st.one_of(
    st.binary(max_size=60).filter(lambda b: b"\n" not in b and b"\r" not in b and b.strip()),
    st.text(max_size=60).filter(lambda t: "\n" not in t and "\r" not in t and t.strip()).map(str.encode),
    json_values.map(lambda v: json.dumps(v).encode()),
    st.fixed_dictionaries(
        {"cmd": st.sampled_from(["act", "check", "legal", "state", "pending", "rules", "games", "dance", 3])},
        optional={"action": st.one_of(action_like, json_values), "game": json_values, "clause": json_values},
    ).map(lambda v: json.dumps(v).encode()),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(line=requests)
def test_every_line_gets_an_answer_and_refusals_change_nothing(referee: RefereeProcess, line: bytes) -> None:
    for game_id, players in GAMES.items():
        if referee.ask({"cmd": "state"}).get("state", {}).get("game") != game_id:
            referee.ask({"cmd": "new", "game": game_id, "players": players})
        before = referee.ask({"cmd": "state"})["state"]
        answer = referee.send_raw(line)
        assert isinstance(answer, dict) and isinstance(answer.get("ok"), bool)
        if not answer["ok"]:
            assert answer["error"]["code"] in STABLE_CODES, answer
            assert answer["error"]["message"]
            assert referee.ask({"cmd": "state"})["state"] == before
        else:
            assert "pending" in answer
