"""Board drawings: one module per game, each with ``draw(widget, view)``.

Adding a game's drawing is one new module named after the game id; games
without one get the generic text drawing from ``describe()``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ui.boards import generic


@dataclass(frozen=True)
class BoardView:
    """What a drawing may use: the rules object (for its board data), the position document, describe() lines."""

    game: Any
    document: dict[str, Any]
    lines: list[str] = field(default_factory=list)


Drawer = Callable[[Any, BoardView], None]


def drawer_for(game_id: str) -> Drawer:
    try:
        module = importlib.import_module(f"ui.boards.{game_id}")
    except ModuleNotFoundError as error:
        if error.name != f"ui.boards.{game_id}":
            raise
        return generic.draw
    return module.draw


def has_drawing(game_id: str) -> bool:
    return drawer_for(game_id) is not generic.draw
