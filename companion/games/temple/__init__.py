"""The temple path-card race (published as Ruin): race two explorers round the temple and up into the chamber."""

from companion.games.temple.rules import TempleGame

GAME = TempleGame

__all__ = ["GAME", "TempleGame"]
