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

Lines typed at `companion play` are fuzzed at the same positions: command
words, words of the choices, odd numbers and marks, JSON. Each is answered,
and the position changes only by an offered action, or by an undo or redo
typed alone.
"""

from __future__ import annotations

import io
import json
import random
import re
import sqlite3
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.errors import CompanionError, quoted
from companion.game import action_kinds, json_kind
from companion.journal import open_journal
from companion.protocol import Referee
from companion.registry import create
from companion.session import Session
from companion.simulate import random_players
from companion.terminal import Terminal

GAMES = ["blackpool", "desert", "targi", "temple", "ttd"]
POSITIONS = 3  # per game, after 0 to 40 random legal steps
# Python's spelling of what came as JSON, outside the quotes around what was sent ("None of" is English).
PYTHON_WORDS = re.compile(r"\bNone\b(?! of)|\bTrue\b|\bFalse\b|Traceback|\bnan\b|\binf\b")
# JSON's word for a field left out or null, and an action's id where the table has words for its kind ("bring
# out"), outside the quotes around what was sent or is to be written: "the oracle shows 1 to 6, not null",
# "unknown camel colour null", "types: roll, move, bring_out".
JSON_WORDS = re.compile(r"\bnull\b|\b(?:bring_out|move_marker|skip_change|ahkinchil)\b")
# A list or object quoted back as sent ("not [null]"), or cut short, innermost first.
SHOWN = re.compile(r"[\[{][^\[\]{}]*(?:[\]}]|\.\.\.)")
PYTHON_MAPS = re.compile(r"(?<![\w'])[\[{]'")  # {'a': 1} or ['a'], not a quoted '{'
# A quoted value, or one cut short ("'0\x1f...": its "..." ends it, or the match ran on to the quote opening
# "('bring_out')" and left bring_out bare).
SENT = re.compile(r"'[^']*?(?:'|\.\.\.)|\"[^\"]*?(?:\"|\.\.\.)")
FUZZ = settings(max_examples=120, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])

odd_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.sampled_from([0, -1, -(2**63), 2**63, 10**100, 10**400]),
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
        change = draw(st.sampled_from(["drop", "add", "retype", "retype", "nest", "inside"]))
        key = draw(st.sampled_from(sorted(action) or ["type"]))
        if change == "drop":
            action.pop(key, None)
        elif change == "add":
            action[draw(st.sampled_from(["extra", "valeu", "player", "hex", "slot", "card", "to"]))] = draw(odd_values)
        elif change == "retype":
            action[key] = draw(odd_values)
        elif change == "inside" and isinstance(action.get(key), (dict, list)) and action[key]:
            # Inside a trade's "give", a payment or a hex: {"give": {"items": [null]}}, {"hex": [2, -1e300]}.
            inner = action[key] = json.loads(json.dumps(action[key]))
            spot = draw(st.sampled_from(sorted(inner) if isinstance(inner, dict) else range(len(inner))))
            if isinstance(inner[spot], list) and inner[spot] and draw(st.booleans()):
                inner[spot][draw(st.integers(0, len(inner[spot]) - 1))] = draw(odd_values)
            else:
                inner[spot] = draw(odd_values)
        else:
            action[key] = draw(st.sampled_from([[action.get(key)], {"v": action.get(key)}, [[action.get(key)]]]))
    return action


def python_spelling(message: str) -> bool:
    return bool(PYTHON_MAPS.search(message) or PYTHON_WORDS.search(SENT.sub("", message)))


def json_spelling(message: str) -> bool:
    """Whether a refusal of an action says null or an action's id where the table has words, outside what it quotes
    back as sent."""
    unquoted = SENT.sub("", message)
    while SHOWN.search(unquoted):
        unquoted = SHOWN.sub("", unquoted)
    return bool(JSON_WORDS.search(unquoted))


def assert_readable(error: dict[str, Any]) -> None:
    message = error["message"]
    assert error["code"] in {"bad_request", "invalid_action", "illegal_action"}, error
    assert isinstance(message, str) and message.strip(), error
    assert not python_spelling(message), error
    assert error["code"] == "bad_request" or not json_spelling(message), error  # a request's 'action' may be null
    assert len(message) < 600, error


def plain(value: object) -> bool:
    """Whether the value can cross the JSON protocol (strict JSON has no NaN or Infinity)."""
    try:
        json.dumps(value, allow_nan=False)
    except ValueError:
        return False
    return True


@pytest.mark.parametrize("game_id", GAMES)
def test_broken_actions_are_refused_readably_and_change_nothing(game_id: str, tables: dict[str, list[Table]]) -> None:
    others = [t for g, ts in tables.items() if g != game_id for t in ts]
    elsewhere = [a for t in others for a in t.referee.handle({"cmd": "legal"})["legal"]]

    @FUZZ
    @given(data=st.data())
    def run(data: st.DataObject) -> None:
        table = data.draw(st.sampled_from(tables[game_id]))
        referee = table.referee
        legal = referee.handle({"cmd": "legal"})["legal"]
        action = data.draw(mangled(legal, elsewhere))
        before, rows = referee.session.document(), table.rows()
        try:
            ruling = referee.session.check(action)
        except CompanionError as refusal:
            assert_readable(refusal.to_dict())
        else:
            assert ruling.legal or not python_spelling(ruling.text), ruling
        answers = [referee.handle({"cmd": "act", "action": action})]
        if not answers[0]["ok"] and plain(action):
            line = json.dumps({"cmd": "act", "action": action})
            answers.append(referee.handle_line(line))
        for answer in answers:
            if answer["ok"]:
                assert plain(answer["action"]), answer
                assert referee.handle({"cmd": "undo"})["ok"]
                assert referee.session.document() == before
                return
            assert_readable(answer["error"])
            assert referee.session.document() == before
            assert table.rows() == rows

    run()


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
            "message": "change: say which slot (1 to 12), not 1.0",
            "rule": "RU-7",  # the change's own clause: every refusal names one
        }, answer


def test_a_refusal_quotes_what_was_sent_in_json_and_cut_short() -> None:
    """A client that sent null was told "not None", and a 5000-digit number could not be quoted at all."""
    referee = Referee()
    assert referee.handle({"cmd": "new", "game": "blackpool", "players": ["red", "blue"]})["ok"]
    answer = referee.handle({"cmd": "act", "action": {"type": "roll", "value": None}})
    assert answer["error"]["message"] == "roll: say which number the oracle shows (1 to 6)"
    answer = referee.handle({"cmd": "act", "action": {"type": "roll", "value": [{"v": True}]}})
    assert answer["error"]["message"] == 'roll: say which number the oracle shows (1 to 6), not [{"v": true}]'
    assert quoted(10**5000) == "a number of about 5000 digits"
    assert quoted("x" * 100) == "'" + "x" * 36 + "..."


# Typed at `companion play`: the terminal's words, words of the choices, numbers and marks, JSON, junk.
COMMAND_WORDS = ["u", "undo", "redo", "check", "do", "why", "rules", "rule", "all", "score", "help", "?", "board",
                 "press"]
ODD_WORDS = ["#", "#0", "#-1", "#" + "9" * 30, "0", "-1", "007", "³", "½", "1e3", "NaN", "{", "}", "[1]", "null",
             '{"type":', "5,5", "(3,0)", "c2", "dawn", "noble", "red-1", "x" * 5000, "9" * 5000, "🎲", "\u202e",
             "\x00", "ß", "İ", "confirm", "menu"]
STEPS_BACK = {"u", "undo", "redo", "press undo"}  # the lines that may take a step back or put one back


@st.composite
def typed_lines(draw: st.DrawFn, legal: list[dict]) -> str:
    """A line as fingers or a paste might give it: a command word, then choice words, odd words or JSON."""
    choice_words = [w for a in legal[:40] for w in a["text"].split()] or ["roll"]
    word = st.one_of(st.sampled_from(COMMAND_WORDS), st.sampled_from(ODD_WORDS), st.sampled_from(choice_words),
                     st.integers(-5, 300).map(str), st.text(min_size=1, max_size=8))
    words = draw(st.lists(word, min_size=1, max_size=5))
    if legal and draw(st.integers(0, 4)) == 0:  # an offered action as JSON, one value broken
        action = {k: v for k, v in draw(st.sampled_from(legal)).items() if k != "text"}
        action[draw(st.sampled_from(sorted(action)))] = draw(odd_scalars)
        words.append(json.dumps(action, default=str))
    return " ".join(words)


@pytest.mark.parametrize("game_id", GAMES)
def test_typed_lines_are_answered_and_change_the_game_only_as_offered(game_id: str,
                                                                     tables: dict[str, list[Table]]) -> None:
    """Every typed line is answered, never raised; the position changes only by an offered action, or by an
    undo or redo typed alone ('u 2 to [0,12]' took the last step back, its words unread)."""

    @FUZZ
    @given(data=st.data())
    def run(data: st.DataObject) -> None:
        table = data.draw(st.sampled_from(tables[game_id]))
        session = table.referee.session
        legal = session.legal()
        line = data.draw(typed_lines(legal))
        out = io.StringIO()
        terminal = Terminal(session, lambda: None, out)
        terminal.start(session)
        before, rows, steps = session.document(), table.rows(), list(session.log)
        try:
            assert terminal._line(line, legal)
            terminal.pump()
            assert terminal.session is session
            assert out.getvalue().strip() or line.split()[0].lower() == "board", line
            assert "Traceback" not in out.getvalue()
            if session.log == steps and session.document() == before:
                assert table.rows() == rows, line
            elif len(session.log) > len(steps):
                offered = [{k: v for k, v in a.items() if k != "text"} for a in legal]
                assert session.log[-1] in offered, line
            else:
                assert " ".join(line.lower().split()) in STEPS_BACK, line
        finally:  # back to the position the example began at, so the next one (or its replay) starts there too
            while len(session.log) > len(steps):
                session.undo()
            while len(session.log) < len(steps):
                session.redo()
        assert session.document() == before

    run()


@pytest.mark.parametrize("game_id", GAMES)
def test_a_value_json_cannot_carry_is_refused_not_raised_while_journalling(game_id: str, tmp_path: Path) -> None:
    """A temple X roll with ``"face": b"roll"`` (a Python caller's) was ruled legal, the game reading no face
    for an X, then raised TypeError as the journal wrote it. Each offered field holding bytes, a set or an
    object is refused with the clause, and the journal keeps what it had."""
    rng = random.Random(3)
    journal, _ = open_journal(tmp_path / "journal.sqlite3")
    session = Session.new(game_id, random_players(create(game_id), rng), journal=journal)
    table = Table(Referee(), tmp_path / "journal.sqlite3")
    for _ in range(60):
        legal = session.legal()
        if not legal:
            break
        before, rows = session.document(), table.rows()
        for n, offered in enumerate(legal[:30]):
            for key in [k for k in offered if k not in ("type", "text")]:
                odd = (b"x", {1, 2}, object(), {"v": {3}})[n % 4]
                action = {**{k: v for k, v in offered.items() if k != "text"}, key: odd}
                for op in (session.check, session.act):
                    with pytest.raises(CompanionError) as refused:
                        op(action)
                    assert refused.value.rule in session.game.rulebook, (action, refused.value.message)
        assert session.document() == before and table.rows() == rows
        session.act(rng.choice(legal))
    journal.close()
