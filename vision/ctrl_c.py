"""Ctrl-C in a long measurement (`vision eval-*`, `vision bench`): what was measured so far is the answer.

An evaluation of a few hundred photos runs minutes; stopped with Ctrl-C it
said only "stopped", and the minutes were lost. The loops run inside
`until_ctrl_c`, which ends the loop quietly and marks the score stopped; the
command prints the score so far as partial ("37 of 120 images (stopped by
Ctrl-C)") and exits 130, as `simulate` and `hw bench` do.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


@contextmanager
def until_ctrl_c(score: Any) -> Iterator[None]:
    """Run the block; a Ctrl-C in it ends it and sets ``score.stopped``, so what was counted is kept."""
    try:
        yield
    except KeyboardInterrupt:
        score.stopped = True


def partial(done: int, total: int, what: str) -> str:
    """The words a stopped measurement's figures are marked with."""
    return f"{done} of {total} {what} (stopped by Ctrl-C)"
