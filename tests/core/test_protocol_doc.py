"""docs/protocol.md and the dice-sensor lines of docs/hardware.md, read as a client author reads them.

Front ends are written from these pages, so every request form, answer key, pending and event kind and
error code they list is fed to the real referee (or the real line parser) here: a page that drifts from
the code fails a test instead of misleading the next client.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from companion import errors
from companion.game import EVENT_KINDS, PENDING_KINDS
from companion.journal import Journal
from companion.protocol import Referee
from hardware.dice_protocol import BadLine, DieSettled, Ident, RollStart, SensorFault, SlotReport, decode, encode
from tests.core.test_finished import won_game

DOCS = Path(__file__).resolve().parents[2] / "docs"
PROTOCOL = (DOCS / "protocol.md").read_text(encoding="utf-8")
HARDWARE = (DOCS / "hardware.md").read_text(encoding="utf-8")

# What a reader would put where the page writes a placeholder, on a Blackpool game of Red and Blue.
FILL = {
    "ID": '"blackpool"',
    "[...]": '["red", "blue"]',
    "{...}": "{}",
    "NAME": '"standard"',
    "ACTION": '{"type": "roll", "value": 4}',
    "PLACE": '"red-1"',
}


def _command_rows() -> list[tuple[list[str], list[str]]]:
    """Each row of the command table: its request templates and the answer keys it says success adds."""
    section = PROTOCOL.split("## Commands", 1)[1].split("Every success answer", 1)[0]
    rows = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 2 or not cells[0].startswith("`{"):
            continue
        requests = re.findall(r"`(\{.*?\})`", cells[0])
        adds = re.findall(r"`(\w+)`", cells[1].split(":")[0]) if cells[1] != "nothing more" else []
        rows.append((requests, adds))
    return rows


def _request(template: str, referee: Referee) -> dict:
    text = template
    if '"clause": ID' in text:
        text = text.replace('"clause": ID', '"clause": "BP-3"')
    if "DOCUMENT" in text:
        text = text.replace("DOCUMENT", json.dumps(referee.handle({"cmd": "state"})["state"]))
    for placeholder, value in FILL.items():
        text = text.replace(placeholder, value)
    return json.loads(text)


ROWS = _command_rows()


def test_the_command_table_lists_every_command_the_referee_has() -> None:
    listed = {re.search(r'"cmd": "(\w+)"', t).group(1) for requests, _ in ROWS for t in requests}
    assert listed == set(Referee()._commands)


@pytest.mark.parametrize(("requests", "adds"), ROWS, ids=[r[0][0][:30] for r in ROWS])
def test_each_documented_request_succeeds_and_adds_what_the_table_says(
    requests: list[str], adds: list[str], tmp_path: Path
) -> None:
    for template in requests:
        if '"reopen"' in template:  # there must be a finished last game to go back into
            referee = Referee(Journal(won_game(tmp_path / "won.sqlite3")))
            answer = referee.handle(_request(template, referee))
            assert answer["ok"] is True and all(key in answer for key in adds), (template, answer)
            continue
        referee = Referee()
        assert referee.handle({"cmd": "new", "game": "blackpool", "players": ["red", "blue"]})["ok"]
        if '"redo"' in template:
            referee.handle({"cmd": "act", "action": {"type": "roll", "value": 4}})
            referee.handle({"cmd": "undo"})
        elif '"undo"' in template:
            referee.handle({"cmd": "act", "action": {"type": "roll", "value": 4}})
        answer = referee.handle(_request(template, referee))
        assert answer["ok"] is True, (template, answer)
        assert "pending" in answer  # every success answer carries it
        if adds:  # a row naming alternatives ("`rules`, `clause` or `clauses`") gets one of them
            assert any(key in answer for key in adds), (template, adds, sorted(answer))


def test_the_rules_row_alternatives_each_answer() -> None:
    referee = Referee()
    assert set(referee.handle({"cmd": "rules", "game": "blackpool"})) >= {"rules"}
    assert set(referee.handle({"cmd": "rules", "game": "blackpool", "clause": "BP-3"})) >= {"clause"}
    assert set(referee.handle({"cmd": "rules", "game": "blackpool", "search": "six"})) >= {"clauses"}


def test_pending_and_event_kinds_are_the_ones_listed() -> None:
    pending = re.search(r'`\{"kind": (".*?")\s*,\s*\n?\s*"player"', PROTOCOL, re.S)
    assert pending is not None
    assert set(re.findall(r'"(\w+)"', pending.group(1))) == PENDING_KINDS
    events = re.search(r'are `\{"kind": ("[^,]*?)\s*,', PROTOCOL.replace("\n", " "))
    assert events is not None
    assert set(re.findall(r'"?(\w+)"?', events.group(1))) == EVENT_KINDS


SEATS = {"blackpool": ["red", "blue"], "desert": ["black", "pink"], "targi": ["white", "black"],
         "temple": ["red", "blue"], "ttd": ["red", "black"]}
PENDING_EXTRA = {"roll": {"die"}, "draw": {"deck"}, "choose": set(), "over": {"result"}}


@pytest.mark.parametrize("game_id", sorted(SEATS))
def test_a_seeded_game_played_as_the_page_says_answers_in_its_shapes(game_id: str) -> None:
    """One seeded game of each, a client using only what this page says: ``pending`` as described (``player`` null
    only for a card the table turns up for no one and the end), every legal action with ``text``, events in their
    shape, a step sent for another player refused with its clause and nothing changed, and an undo and redo that
    give back the step's events. The desert's end named its winner as ``player``, and Targi took White's Caravan
    card in Black's name, each unlike the other four games."""
    rng = random.Random(7)
    referee = Referee()
    answer = referee.handle({"cmd": "new", "game": game_id, "players": SEATS[game_id]})
    for step in range(250):
        pending = answer["pending"]
        assert set(pending) == {"kind", "player", "text"} | PENDING_EXTRA[pending["kind"]], pending
        assert pending["player"] is not None or pending["kind"] in ("draw", "over"), pending
        if pending["kind"] == "over":
            assert pending["player"] is None and "winner" in pending["result"]
            break
        legal = referee.handle({"cmd": "legal"})["legal"]
        assert legal and all(isinstance(a.pop("text"), str) for a in legal)
        action = rng.choice(legal)
        if pending["player"] is not None:
            before = referee.handle({"cmd": "state"})["state"]
            other = next(p for p in SEATS[game_id] if p != pending["player"])
            refused = referee.handle({"cmd": "act", "action": {**action, "player": other}})
            assert refused["ok"] is False and refused["error"]["rule"], refused
            assert referee.handle({"cmd": "state"})["state"] == before
        answer = referee.handle({"cmd": "act", "action": action})
        assert answer["ok"] and answer["action"] == action and "text" not in answer["action"], answer
        for event in answer["events"]:
            assert set(event) == {"kind", "players", "text", "rules"} and event["kind"] in EVENT_KINDS
        if step % 25 == 24:
            assert referee.handle({"cmd": "undo"})["ok"]
            assert referee.handle({"cmd": "redo"})["events"] == answer["events"]


def test_every_error_code_the_referee_can_answer_is_listed() -> None:
    failures = PROTOCOL.split("Failures are", 1)[1].split("## A session", 1)[0]
    listed = set(re.findall(r"`([a-z]+(?:_[a-z]+)+)`", failures))
    codes = {cls.code for cls in vars(errors).values()
             if isinstance(cls, type) and issubclass(cls, errors.CompanionError) and cls is not errors.CompanionError}
    assert codes | {"internal_error"} <= listed | {"bad_request"}, sorted(codes - listed)


# -- the serial dice sensor (docs/hardware.md) ------------------------------------------------------------

def test_the_example_sensor_lines_are_framed_right_and_read_as_documented() -> None:
    examples = re.search(r"Examples: (.*?)\(`hardware", HARDWARE, re.S)
    assert examples is not None
    lines = re.findall(r"`(\$[^`]*)`", examples.group(1))
    assert len(lines) >= 4
    for line in lines:
        body = line[1 : line.rindex("*")]
        assert encode(*body.split(",")) == (line + "\n").encode("ascii"), line  # the documented checksum is right
        assert not isinstance(decode(line.encode("ascii")), BadLine), line
    assert decode(b"$ROLL*1D") == RollStart()
    assert decode(b"$DIE,d6,4,100*33") == DieSettled("d6", 4, 1.0)
    assert decode(b"$DIE,d20,3,100,red*5F") == DieSettled("d20", 3, 1.0, "red")
    assert decode(b"$SLOT,3,04A1B2*33") == SlotReport(3, "04A1B2")


def test_each_device_line_of_the_table_reads_as_its_message() -> None:
    """The table's forms, filled in as a firmware author would, with the defaults the page promises."""
    table = {
        ("ID", "TowerOne", "1.2", "SN42"): Ident("TowerOne", "1.2", "SN42"),
        ("ROLL",): RollStart(),
        ("DIE", "d6", "X", "80"): DieSettled("d6", "X", 0.8),
        ("DIE", "d6", "5"): DieSettled("d6", 5, 1.0),  # confidence defaults to 100
        ("ERR", "cocked", "a die leans on the wall"): SensorFault("cocked", "a die leans on the wall"),
        ("SLOT", "3", "04A1"): SlotReport(3, "04A1"),
        ("SLOT", "3", "-"): SlotReport(3, None),
        ("die", "D20", "7", "100", "RED"): DieSettled("d20", 7, 1.0, "red"),  # names read in any case
    }
    for fields, message in table.items():
        assert decode(encode(*fields).rstrip(b"\n")) == message, fields
        assert decode(encode(*fields).replace(b"\n", b"\r\n")) == message  # \r\n accepted
    for documented_form in re.findall(r"^\| `(\$[A-Z]+[^`]*)` \| device → host", HARDWARE, re.M):
        assert documented_form.split(",")[0].split("*")[0][1:] in {"ID", "ROLL", "DIE", "ERR", "SLOT"}


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        (b"$DIE,d6,4,100*34", "checksum mismatch"),  # the page: a failing checksum is dropped
        (b"DIE,d6,4,100*33", "no start marker"),
        (b"$DIE,d6,4,100", "no checksum"),
        (b"$" + b"A" * 170 + b"*00", "line too long"),  # longer than 160 bytes
    ],
)
def test_lines_the_page_says_are_dropped_are_bad_lines(raw: bytes, reason: str) -> None:
    read = decode(raw)
    assert isinstance(read, BadLine) and read.reason == reason


def test_broken_cafe_data_is_answered_as_documented(tmp_path: Path) -> None:
    """`invalid_data` with every fault in `problems`; the game on the table and the other games go on."""
    (tmp_path / "blackpool").mkdir()
    (tmp_path / "blackpool" / "board.json").write_text('{"game": "blackpool", "kind": "board"', encoding="utf-8")
    referee = Referee(cafe_dir=tmp_path)
    assert referee.handle({"cmd": "new", "game": "desert", "players": ["black", "pink"]})["ok"]
    before = referee.handle({"cmd": "state"})["state"]
    error = referee.handle({"cmd": "new", "game": "blackpool", "players": ["red", "blue"]})["error"]
    assert error["code"] == "invalid_data" and "board.json" in error["problems"][0]
    assert referee.handle({"cmd": "state"})["state"] == before
    listed = {g["id"]: g for g in referee.handle({"cmd": "games"})["games"]}
    assert listed["blackpool"]["data"] is None and listed["blackpool"]["problems"]
    assert listed["desert"]["data"]


SCORE_KEYS = {"scores", "totals", "winners", "provisional"}


@pytest.mark.parametrize("game_id", sorted(SEATS))
def test_score_answers_in_the_one_shape_the_page_gives_for_every_game(game_id: str) -> None:
    """``score`` is null in the races and, in the games that score, ``scores`` per player and part with each
    ``total``, ``totals``, ``winners`` and ``provisional``, at the start and after 150 seeded steps. Targi answered
    its per-player breakdown bare while Through the Desert wrapped it in ``scores``."""
    rng = random.Random(3)
    referee = Referee()
    referee.handle({"cmd": "new", "game": game_id, "players": SEATS[game_id]})
    for step in range(151):
        if step in (0, 150):
            score = referee.handle({"cmd": "score"})["score"]
            if game_id in ("blackpool", "desert", "temple"):
                assert score is None
                continue
            assert set(score) >= SCORE_KEYS, score
            assert set(score["scores"]) == set(score["totals"]) == set(SEATS[game_id]), score
            assert all(score["scores"][p]["total"] == score["totals"][p] for p in SEATS[game_id])
            assert score["winners"] and set(score["winners"]) <= set(SEATS[game_id])
            assert score["provisional"] is True
        legal = referee.handle({"cmd": "legal"})["legal"]
        if not legal:
            break
        action = rng.choice(legal)
        action.pop("text")
        referee.handle({"cmd": "act", "action": action})
    assert "`scores`" in PROTOCOL and "`winners`" in PROTOCOL and "`provisional`" in PROTOCOL
