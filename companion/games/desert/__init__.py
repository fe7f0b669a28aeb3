"""The desert lap race (Secret Passage / Golden Compass), rule text 000."""

from companion.games.desert.rules import DesertRace

GAME = DesertRace

__all__ = ["GAME", "DesertRace"]
