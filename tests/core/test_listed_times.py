"""Times a person reads are local time, the zone named: `export --list` gave UTC while `results` and the home
screen gave local time, so the game `results` listed as finished at 22:14 in Paris was listed as last moving at
21:14."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from companion.cli import main
from companion.journal import Journal
from companion.session import Session

CENTRAL_EUROPE = "CET-1CEST,M3.5.0,M10.5.0/3"  # a POSIX rule: no time zone database needed
WON = ({"type": "roll", "value": 5}, {"type": "advance"})  # red, at 10 of 12, wins


@pytest.fixture
def paris(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The process in central European time, as a café's Pi in Paris is set."""
    monkeypatch.setenv("TZ", CENTRAL_EUROPE)
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def games_won_at(path: Path, moments: list[datetime]) -> None:
    """A journal of races red won, each begun and played at one of ``moments`` (UTC)."""
    journal = Journal(path)
    for _ in moments:
        session = Session.load("race", {"game": "race", "players": ["red", "blue"], "positions": [10, 0]}, journal)
        for action in WON:
            session.act(action)
    journal.close()
    raw = sqlite3.connect(path)
    for game_id, moment in enumerate(moments, 1):
        raw.execute("UPDATE games SET started = ? WHERE id = ?", (moment.isoformat(), game_id))
        raw.execute("UPDATE steps SET at = ? WHERE game_id = ?", (moment.isoformat(), game_id))
    raw.commit()
    raw.close()


def test_export_list_and_results_give_the_same_local_times_naming_the_zone(
    paris: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "journal.sqlite3"
    now = datetime.now(UTC)
    evening = (now - timedelta(days=1)).replace(hour=21, minute=14, second=0, microsecond=0)  # 22:14 or 23:14
    summer = datetime(now.year - 1, 7, 1, 20, 0, tzinfo=UTC)  # 22:00 CEST
    games_won_at(path, [summer, evening])
    local, zone = evening.astimezone(), datetime.now(UTC).astimezone().tzname()
    assert main(["export", "--list", "--journal", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[2:8] == ["began", f"({zone})", "last", "step", f"({zone})", "steps"]
    summer_said = f"{summer.year}-07-01 22:00" + ("" if zone == "CEST" else " CEST")  # named when not the header's
    assert summer_said in lines[1], lines
    assert f"{local:%Y-%m-%d %H:%M}" in lines[2] and "UTC" not in "\n".join(lines), lines
    assert main(["results", "--journal", str(path), "--days", "2"]) == 0
    out = capsys.readouterr().out
    assert f"05:00 {zone}):" in out.splitlines()[0], out
    assert f"{local:%a %d %b %H:%M}  game 2," in out, out
