"""The temple path-card race (published as Ruin): race two explorers round the temple and up into the chamber."""

from companion.game_info import GameInfo, rules_loader

# Home reads this alone (`companion.game_info`); the rules class takes its id, title, counts and colours from it.
INFO = GameInfo(
    id="temple",
    title="Temple path-card race (Ruin)",
    min_players=2,
    max_players=4,
    colours=("red", "blue", "green", "yellow"),
    rules="companion.games.temple.rules:TempleGame",
    first_by_roll=True,
)

__getattr__ = rules_loader(INFO, __name__)  # GAME and TempleGame, loaded when first asked for

__all__ = ["GAME", "INFO", "TempleGame"]
