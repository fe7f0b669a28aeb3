"""The registry of games: every package under ``companion.games`` exposing ``INFO`` and ``GAME``.

Discovery keeps adding a game to one new package, with no shared list to edit. A package's ``INFO``
(`companion.game_info`) names the game without its rules, which load when ``GAME`` is first asked for:
home lists the games by `game_infos` alone.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

import companion.games
from companion.data import cafe_signature, load_data
from companion.errors import InvalidData, UnknownGame, quoted
from companion.game import Game
from companion.game_info import GameInfo


@cache
def _packages() -> dict[str, ModuleType]:
    """Each game's package by id: its ``__init__`` alone, not its rules."""
    found: dict[str, ModuleType] = {}
    for info in sorted(pkgutil.iter_modules(companion.games.__path__), key=lambda i: i.name):
        if not info.ispkg:
            continue
        module = importlib.import_module(f"companion.games.{info.name}")
        game_info = getattr(module, "INFO", None)
        if isinstance(game_info, GameInfo):
            found[game_info.id] = module
    return found


@cache
def _discovered() -> dict[str, type[Game]]:
    return {game_id: module.GAME for game_id, module in _packages().items()}


_installed: dict[str, Game] = {}


def install(game: Game) -> None:
    """Register a rules object built outside the package (test fixtures, a designer's prototype)."""
    _installed[game.id] = game


def uninstall(game_id: str) -> None:
    """Take an installed game away again, so a fixture's game does not outlive the tests that asked for it."""
    _installed.pop(game_id, None)


def game_classes() -> dict[str, type[Game]]:
    """Every game by id: the packaged ones, then any installed at run time."""
    return {**_discovered(), **{gid: type(game) for gid, game in _installed.items()}}


def game_infos() -> dict[str, GameInfo]:
    """Every game by id, as `game_classes`, by name, player counts and colours, without loading any game's rules."""
    packaged = {game_id: module.INFO for game_id, module in _packages().items()}
    return {**packaged, **{gid: GameInfo.of(type(game)) for gid, game in _installed.items()}}


def title_of(game_id: str) -> str:
    """A game's name as the table reads it ("Through the Desert", not ``ttd``); the id itself for a game this
    install does not have (an old journal's)."""
    info = game_infos().get(game_id)
    return info.title if info is not None else game_id


def unknown_game(game_id: object, columns: bool = False) -> str:
    """Why ``game_id`` names no game, with every game a table can play by id and by name: a protocol client
    (one line, ``ttd - Through the Desert; ...``) or a terminal (``columns``, one game a line) is told which to send.

    Ids alone ("games: blackpool, desert, ...") left "ttd" and "desert" to be guessed at.
    """
    classes = game_classes()
    if columns:
        listed = "".join(f"\n  {gid:<10} {cls.title}" for gid, cls in classes.items())
    else:
        listed = " " + "; ".join(f"{gid} - {cls.title}" for gid, cls in classes.items())
    return f"no game {quoted(game_id)}; the games are:{listed}"


def game_class(game_id: object) -> type[Game]:
    """The rules class of ``game_id``, loading that game's rules alone (a game started from home loads one)."""
    if isinstance(game_id, str) and game_id in _installed:
        return type(_installed[game_id])
    if not isinstance(game_id, str) or game_id not in _packages():
        raise UnknownGame(unknown_game(game_id))
    return _packages()[game_id].GAME


# Per game and café folder: the stat signature of the café files read, and the game bound to them
# or the problems that refused them.
_instances: dict[tuple[str, str | None], tuple[tuple[Any, ...], Game | list[str]]] = {}


def create(game_id: object, cafe_dir: Path | None = None) -> Game:
    """A rules object bound to the game's data as its files are now.

    Reading, validating and precomputing (board graphs) take a while, so the
    object is kept until a stat of the café files says one changed: a café
    that edits its board on a running table gets the edit with its next new
    game, as it would after a restart, and a broken edit is refused with the
    validator's problems each time until it is mended, never replaced by the
    house file or the previous copy in silence. A game already started holds
    its own object and goes on with the data it began with.
    """
    game_cls = game_class(game_id)
    if game_cls.id in _installed:
        return _installed[game_cls.id]
    key = (game_cls.id, str(cafe_dir) if cafe_dir else None)
    signature = cafe_signature(game_cls, cafe_dir)  # taken before reading, so an edit made meanwhile shows next time
    cached = _instances.get(key)
    if cached is None or cached[0] != signature:
        try:
            bound: Game | list[str] = game_cls(load_data(game_cls, cafe_dir))
        except InvalidData as refusal:
            bound = refusal.problems
        cached = _instances[key] = (signature, bound)
    if isinstance(cached[1], list):
        raise InvalidData(cached[1])
    return cached[1]
