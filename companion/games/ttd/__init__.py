"""Through the Desert (id ``ttd``): caravans of camels on a hex desert, scored at the end."""

from companion.games.ttd.rules import ThroughTheDesert

GAME = ThroughTheDesert

__all__ = ["GAME", "ThroughTheDesert"]
