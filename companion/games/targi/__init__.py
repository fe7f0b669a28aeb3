"""Targi: the two-player border-and-centre card game, on house data of our own design."""

from companion.game_info import GameInfo, rules_loader

# Home reads this alone (`companion.game_info`); the rules class takes its id, title, counts and colours from it.
INFO = GameInfo(
    id="targi",
    title="Targi",
    min_players=2,
    max_players=2,
    colours=("white", "black"),
    rules="companion.games.targi.rules:Targi",
)

__getattr__ = rules_loader(INFO, __name__)  # GAME and Targi, loaded when first asked for

__all__ = ["GAME", "INFO", "Targi"]
