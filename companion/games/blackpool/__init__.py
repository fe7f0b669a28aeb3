"""Blackpool (seed 002): a ring race against the pull of the water, with riders, coins, charms and curses."""

from companion.game_info import GameInfo, rules_loader

# Home reads this alone (`companion.game_info`); the rules class takes its id, title, counts and colours from it.
INFO = GameInfo(
    id="blackpool",
    title="Blackpool",
    min_players=2,
    max_players=4,
    colours=("yellow", "red", "green", "blue"),
    rules="companion.games.blackpool.rules:Blackpool",
)

__getattr__ = rules_loader(INFO, __name__)  # GAME and Blackpool, loaded when first asked for

__all__ = ["GAME", "INFO", "Blackpool"]
