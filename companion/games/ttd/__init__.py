"""Through the Desert (id ``ttd``): caravans of camels on a hex desert, scored at the end."""

from companion.game_info import GameInfo, rules_loader

# Home reads this alone (`companion.game_info`); the rules class takes its id, title, counts and colours from it.
INFO = GameInfo(
    id="ttd",
    title="Through the Desert",
    min_players=2,
    max_players=5,
    colours=("red", "black", "orange", "purple", "brown"),
    rules="companion.games.ttd.rules:ThroughTheDesert",
)

__getattr__ = rules_loader(INFO, __name__)  # GAME and ThroughTheDesert, loaded when first asked for

__all__ = ["GAME", "INFO", "ThroughTheDesert"]
