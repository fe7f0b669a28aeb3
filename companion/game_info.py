"""What a game is called and who may play it, known without loading its rules.

Home lists every game by name with its colours and player counts; importing
five games' rules for that loaded 43 modules before the first screen. Each
game package (``companion/games/<id>/__init__.py``) holds its ``INFO`` and
loads its rules class, ``GAME``, only when first asked for (`rules_loader`);
the rules class takes its id, title, player counts and colours from ``INFO``,
so they are written once.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class GameInfo:
    """A game's id, title, player counts, colours (empty: players go by name) and where its rules class is
    (``"module:Class"``)."""

    id: str
    title: str
    min_players: int
    max_players: int
    colours: tuple[str, ...]
    rules: str = ""
    # Whether the game's own opening roll picks who starts (the desert race's DR-3, the temple's RU-5): the
    # players are then tapped in seat order, and home says so rather than "turn order", which the roll undoes.
    first_by_roll: bool = False

    @classmethod
    def of(cls, game_cls: Any) -> GameInfo:
        """The info of a rules class built outside the packages (`companion.registry.install`)."""
        return cls(game_cls.id, game_cls.title, game_cls.min_players, game_cls.max_players, tuple(game_cls.colours),
                   first_by_roll=bool(getattr(game_cls, "first_by_roll", False)))


def rules_loader(info: GameInfo, package: str) -> Callable[[str], Any]:
    """A game package's module ``__getattr__``: ``GAME``, and the rules class by its own name, imported the first
    time either is asked for (``from companion.games.targi import Targi`` reads as it always did)."""
    module_name, class_name = info.rules.split(":")

    def attribute(name: str) -> Any:
        if name in ("GAME", class_name):
            return getattr(importlib.import_module(module_name), class_name)
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return attribute
