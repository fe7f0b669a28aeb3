"""The charm and curse decks: card catalogue and the effect codes the engine knows.

Cards are data; the effect code says what a card does. A café may add cards
only by reusing these codes (BP-Q22): the engine cannot invent an effect.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

DECKS = ("charm", "curse")
# Whom each deck's cards serve (BP-8), as a coin's button says it before the tap.
DECK_SERVES = {"charm": "for you", "curse": "against a rival"}

# Each effect acts on the player's own side (a charm helps you) or on an
# opponent (a curse hurts someone else), so its deck is fixed (rule 8).
EFFECT_DECK = {
    "gust": "charm",
    "awaken": "charm",
    "step_out": "charm",
    "freeze": "curse",
    "reset": "curse",
    "step_in": "curse",
}


@dataclass(frozen=True)
class Card:
    id: str
    name: str
    deck: str
    effect: str
    count: int
    distance: int = 6


class Catalogue:
    def __init__(self, data: Mapping[str, Any]) -> None:
        self.cards: dict[str, Card] = {}
        for entry in data["cards"]:
            params = entry.get("params", {})
            self.cards[entry["id"]] = Card(
                entry["id"], entry["name"], entry["deck"], entry["effect"], entry["count"], params.get("distance", 6)
            )
        self.order: tuple[str, ...] = tuple(self.cards)
        self.total = sum(c.count for c in self.cards.values())

    def initial_counts(self) -> tuple[tuple[str, int], ...]:
        return tuple((c.id, c.count) for c in self.cards.values())

    def __getitem__(self, card_id: str) -> Card:
        return self.cards[card_id]

    def __contains__(self, card_id: object) -> bool:
        return isinstance(card_id, str) and card_id in self.cards
