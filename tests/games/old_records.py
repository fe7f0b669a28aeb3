"""Game records an older companion wrote, put back into a journal as that companion would have left them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.journal import Journal


def journal_of(path: Path, record: dict[str, Any], finished: bool = False) -> int:
    """A closed journal at ``path`` holding ``record``'s game, every step journalled; its game id.

    The game is in progress, or with ``finished`` over as of its last step, as the older companion that ended it
    marked it.
    """
    journal = Journal(path)
    game_id = journal.begin_game(record["game"], record["start"], record["data"])
    last = len(record["actions"])
    for number, action in enumerate(record["actions"], 1):
        journal.append(game_id, "act", action, "over" if finished and number == last else None)
    journal.close()
    return game_id
