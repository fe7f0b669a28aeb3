"""Hypothesis breaks the actions a game offers, and the game refuses each with a typed, readable refusal.

Positions come from a few random legal steps of each game, played through a
referee writing a real SQLite journal. An offered action is then broken (a
field dropped or added, a value of the wrong type, a huge or negative number,
NaN, a very long or non-ASCII string, nesting, another game's action) and sent
to the session and through the referee's JSON lines. A refusal must be one of
the project's typed errors, read as words rather than Python (no ``None`` for
JSON null, no ``{'`` of a dict), and leave the position and every journal row
as they were. What is accepted is taken back with undo so the next example
starts from the same place.
"""

from __future__ import annotations

import json
import random
import sqlite3
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from companion.game import action_kinds, json_kind
from companion.journal import open_journal
from companion.protocol import Referee
from companion.registry import create
from companion.simulate import random_players

GAMES = ["blackpool", "desert", "targi", "temple", "ttd"]
POSITIONS = 3  # per game, after 0 to 40 random legal steps
PYTHON_WORDS = ("{'", "['", "None", "True", "False", "Traceback", "nan", "inf")
FUZZ = settings(max_examples=120, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])

odd_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.sampled_from([0, -1, -(2**63), 2**63, 10**100]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=20),
    st.sampled_from(["", " ", "x" * 5000, "🎲" * 300, "red\u0000", "ÄÖÜ", "\u202eder"]),
)
odd_values = st.recursive(
    odd_scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6,
)


class Table:
    """A referee at a position, with the journal file it writes."""

    def __init__(self, referee: Referee, path: Path) -> None:
        self.referee = referee
        self.path = path

    def rows(self) -> list[tuple]:
        with closing(sqlite3.connect(self.path)) as db:
            games = db.execute("SELECT * FROM games ORDER BY id").fetchall()
            steps = db.execute("SELECT * FROM steps ORDER BY game_id, seq").fetchall()
        return games + steps


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, list[Table]]]:
    rng = random.Random(56)
    made: dict[str, list[Table]] = {}
    journals = []
    for game_id in GAMES:
        for n in range(POSITIONS):
            path = tmp_path_factory.mktemp(f"{game_id}-{n}") / "journal.sqlite3"
            journal, _ = open_journal(path)
            journals.append(journal)
            referee = Referee(journal)
            players = random_players(create(game_id), rng)
            assert referee.handle({"cmd": "new", "game": game_id, "players": players})["ok"]
            for _ in range(rng.randint(0, 40)):
                legal = referee.handle({"cmd": "legal"})["legal"]
                if not legal:
                    break
                assert referee.handle({"cmd": "act", "action": rng.choice(legal)})["ok"]
            made.setdefault(game_id, []).append(Table(referee, path))
    yield made
    for journal in journals:
        journal.close()


@st.composite
def mangled(draw: st.DrawFn, legal: list[dict], elsewhere: list[dict]) -> object:
    """An offered action broken one to three ways, or something that is no action of this game at all."""
    pick = draw(st.sampled_from(legal)) if legal else {"type": "roll", "value": 1}
    action: dict[str, Any] = {k: v for k, v in pick.items() if k != "text"}
    how = draw(st.sampled_from(["fields", "fields", "fields", "foreign", "whole"]))
    if how == "foreign":
        return {k: v for k, v in draw(st.sampled_from(elsewhere)).items() if k != "text"}
    if how == "whole":
        return draw(odd_values)
    for _ in range(draw(st.integers(1, 3))):
        change = draw(st.sampled_from(["drop", "add", "retype", "retype", "nest"]))
        key = draw(st.sampled_from(sorted(action) or ["type"]))
        if change == "drop":
            action.pop(key, None)
        elif change == "add":
            action[draw(st.sampled_from(["extra", "valeu", "player", "hex", "slot", "card", "to"]))] = draw(odd_values)
        elif change == "retype":
            action[key] = draw(odd_values)
        else:
            action[key] = draw(st.sampled_from([[action.get(key)], {"v": action.get(key)}, [[action.get(key)]]]))
    return action


def assert_readable(error: dict[str, Any]) -> None:
    message = error["message"]
    assert error["code"] in {"bad_request", "invalid_action", "illegal_action"}, error
    assert isinstance(message, str) and message.strip(), error
    assert not any(word in message for word in PYTHON_WORDS), error
    assert len(message) < 600, error


def plain(value: object) -> bool:
    """Whether the value can cross the JSON protocol (strict JSON has no NaN or Infinity)."""
    try:
        json.dumps(value, allow_nan=False)
    except ValueError:
        return False
    return True


@pytest.mark.parametrize("game_id", GAMES)
def test_a_value_of_a_kind_no_offered_action_holds_is_never_taken(game_id: str) -> None:
    """The temple took ``"slot": 1.0`` for slot 1 and announced "slot 1.0"; an X roll kept a list for a face."""
    rng = random.Random(8)
    referee = Referee()
    assert referee.handle({"cmd": "new", "game": game_id, "players": random_players(create(game_id), rng)})["ok"]
    for _ in range(60):
        legal = referee.handle({"cmd": "legal"})["legal"]
        if not legal:
            break
        before, kinds = referee.session.document(), action_kinds(legal)
        for offered in legal[:25]:
            action = {k: v for k, v in offered.items() if k != "text"}
            for key, value in action.items():
                odd = float(value) if type(value) is int else {"v": value} if isinstance(value, list) else [value]
                if key in ("type", "player") or json_kind(odd) in kinds[(action["type"], key)]:
                    continue  # the temple's "to" is a cell or a step's name
                for cmd in ("check", "act"):
                    answer = referee.handle({"cmd": cmd, "action": {**action, key: odd}})
                    assert not answer["ok"] or not answer["ruling"]["legal"], (action, key, answer)
        assert referee.session.document() == before
        assert referee.handle({"cmd": "act", "action": rng.choice(legal)})["ok"]


def test_a_slot_sent_as_a_decimal_is_refused_by_name() -> None:
    referee = Referee()
    assert referee.handle({"cmd": "new", "game": "temple", "players": ["red", "blue"]})["ok"]
    rng = random.Random(4)
    while not any(a["type"] == "change" for a in referee.handle({"cmd": "legal"})["legal"]):
        assert referee.handle({"cmd": "act", "action": rng.choice(referee.handle({"cmd": "legal"})["legal"])})["ok"]
    change = next(a for a in referee.handle({"cmd": "legal"})["legal"] if a["type"] == "change")
    sent = {"type": "change", "slot": float(change["slot"]), "card": change["card"]}
    for cmd in ("check", "act"):
        answer = referee.handle({"cmd": cmd, "action": sent})
        assert answer["error"] == {
            "code": "invalid_action",
            "message": "\"slot\" of a 'change' action must be a whole number, not a number",
        }, answer
