"""The desert lap race (Secret Passage / Golden Compass), rule text 000."""

from companion.game_info import GameInfo, rules_loader

# Home reads this alone (`companion.game_info`); the rules class takes its id, title, counts and colours from it.
INFO = GameInfo(
    id="desert",
    title="Desert lap race (Secret Passage)",
    min_players=2,
    max_players=6,
    colours=("black", "purple", "pink", "brown", "grey", "teal"),
    rules="companion.games.desert.rules:DesertRace",
    first_by_roll=True,
)

__getattr__ = rules_loader(INFO, __name__)  # GAME and DesertRace, loaded when first asked for

__all__ = ["GAME", "INFO", "DesertRace"]
