"""The registry of games: every package under ``companion.games`` exposing ``GAME``.

Discovery keeps adding a game to one new package, with no shared list to edit.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache
from pathlib import Path

import companion.games
from companion.data import load_data
from companion.errors import UnknownGame
from companion.game import Game


@cache
def _discovered() -> dict[str, type[Game]]:
    found: dict[str, type[Game]] = {}
    for info in sorted(pkgutil.iter_modules(companion.games.__path__), key=lambda i: i.name):
        if not info.ispkg:
            continue
        module = importlib.import_module(f"companion.games.{info.name}")
        game_cls = getattr(module, "GAME", None)
        if game_cls is not None:
            found[game_cls.id] = game_cls
    return found


_installed: dict[str, Game] = {}


def install(game: Game) -> None:
    """Register a rules object built outside the package (test fixtures, a designer's prototype)."""
    _installed[game.id] = game


def game_classes() -> dict[str, type[Game]]:
    """Every game by id: the packaged ones, then any installed at run time."""
    return {**_discovered(), **{gid: type(game) for gid, game in _installed.items()}}


def game_class(game_id: object) -> type[Game]:
    classes = game_classes()
    if not isinstance(game_id, str) or game_id not in classes:
        raise UnknownGame(f"no game {game_id!r}; games: {', '.join(classes)}")
    return classes[game_id]


_instances: dict[tuple[str, str | None], Game] = {}


def create(game_id: object, cafe_dir: Path | None = None) -> Game:
    """A rules object bound to its data; cached, since data never changes in a run."""
    game_cls = game_class(game_id)
    if game_cls.id in _installed:
        return _installed[game_cls.id]
    key = (game_cls.id, str(cafe_dir) if cafe_dir else None)
    if key not in _instances:
        _instances[key] = game_cls(load_data(game_cls, cafe_dir))
    return _instances[key]
