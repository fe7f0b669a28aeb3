"""Game records an older companion wrote, put back into a journal as that companion would have left them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.journal import Journal


def journal_of(path: Path, record: dict[str, Any]) -> int:
    """A closed journal at ``path`` holding ``record``'s game in progress, every step journalled; its game id."""
    journal = Journal(path)
    game_id = journal.begin_game(record["game"], record["start"], record["data"])
    for action in record["actions"]:
        journal.append(game_id, "act", action)
    journal.close()
    return game_id
