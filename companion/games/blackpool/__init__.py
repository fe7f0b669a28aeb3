"""Blackpool (seed 002): a ring race against the pull of the water, with riders, coins, charms and curses."""

from companion.games.blackpool.rules import Blackpool

GAME = Blackpool

__all__ = ["GAME", "Blackpool"]
