"""Targi: the two-player border-and-centre card game, on house data of our own design."""

from companion.games.targi.rules import Targi

GAME = Targi

__all__ = ["GAME", "Targi"]
