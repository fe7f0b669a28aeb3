"""Game records an older companion wrote, put back into a journal as that companion would have left them."""

from __future__ import annotations

import json
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


def temple_step_that_no_longer_fits() -> dict[str, Any]:
    """A temple record whose last step fits neither this companion nor the one that journalled it.

    It stands for a step an update no longer takes, for the table's resuming from the step before: the record
    of tests/games/temple/test_send_back_order.py whose last move (which older steps let replay now, through
    ``Game.old_step``) is put to a cell no pawn of Blue's reaches with its 2.
    """
    path = Path(__file__).parent / "temple" / "records_before_rq14_queue.json"
    record = json.loads(path.read_text(encoding="utf-8"))["competing"]
    moves = [*record["actions"][:5], {"type": "move", "pawn": "blue1", "to": [1, 9]}]
    return {**record, "actions": moves, "final": None}
