"""The deck and board the card reader knows, loaded from the temple game's data or made up.

The reader takes any catalogue of cards with a 3x3 grid of cell kinds, so it can
be tested without the game's data (`synthetic_catalogue`) and follows the data
when a café replaces it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

TEMPLE_DATA = Path(__file__).resolve().parent.parent / "companion" / "games" / "temple" / "data"
OUT_VECTORS = {"north": (0, -1), "east": (1, 0), "south": (0, 1), "west": (-1, 0)}
CELL_KINDS = ("path", "hole", "stair", "idol:red", "idol:blue", "idol:green", "idol:yellow")


@dataclass(frozen=True)
class CardSpec:
    id: str
    cells: tuple[tuple[str, ...], ...]
    """Row 0 is the card's curved (outer) edge, read left to right facing out."""


@dataclass(frozen=True)
class SlotSpec:
    slot: int
    origin: tuple[int, int]
    out: str

    def card_to_board(self) -> np.ndarray:
        """3x3 affine matrix: card point (u = column, v = row, in cells) to board point (x, y, in cells)."""
        ox, oy = OUT_VECTORS[self.out]
        row = np.array([-ox, -oy], float)
        col = np.array([-oy, ox], float)
        corner = np.array(self.origin, float) + 0.5 - 0.5 * row - 0.5 * col
        return np.array([[col[0], row[0], corner[0]], [col[1], row[1], corner[1]], [0, 0, 1]])


@dataclass(frozen=True)
class BoardSpec:
    size: int
    slots: tuple[SlotSpec, ...]
    corners: tuple[tuple[tuple[int, int], tuple[tuple[str, ...], ...]], ...] = ()

    def bare_cells(self) -> list[tuple[int, int]]:
        """The board's own cells (x, y) that no slot and no printed corner covers: where only the board shows."""
        covered = {(ox + c, oy + r) for (ox, oy), _ in self.corners for r in range(3) for c in range(3)}
        for slot in self.slots:
            to_board = slot.card_to_board()
            for v in range(3):
                for u in range(3):
                    x, y, _ = to_board @ np.array([u + 0.5, v + 0.5, 1.0])
                    covered.add((int(np.floor(x)), int(np.floor(y))))
        return [(x, y) for y in range(self.size) for x in range(self.size) if (x, y) not in covered]


def cards_from_document(doc: object) -> list[CardSpec]:
    """Cards from the game's cards document (or its bare list); entries without a 3x3 grid are skipped."""
    items = doc.get("cards", []) if isinstance(doc, dict) else doc
    cards = []
    for item in items if isinstance(items, list) else []:
        cells = item.get("cells") if isinstance(item, dict) else None
        if isinstance(cells, list) and len(cells) == 3 and all(isinstance(r, list) and len(r) == 3 for r in cells):
            cards.append(CardSpec(str(item["id"]), tuple(tuple(str(c) for c in row) for row in cells)))
    return cards


def load_temple_cards(data_dir: Path | None = None) -> list[CardSpec]:
    """The house path cards; falls back to the registry's data, then to a synthetic deck if neither is there."""
    path = (data_dir or TEMPLE_DATA) / "cards.json"
    if path.exists():
        cards = cards_from_document(json.loads(path.read_text()))
        if cards:
            return cards
    try:
        from companion.registry import create

        cards = cards_from_document(create("temple").data["cards"])
        if cards:
            return cards
    except Exception:
        pass
    return synthetic_catalogue()


DEFAULT_SLOTS = (
    SlotSpec(1, (3, 0), "north"), SlotSpec(2, (6, 0), "north"), SlotSpec(3, (9, 0), "north"),
    SlotSpec(4, (14, 3), "east"), SlotSpec(5, (14, 6), "east"), SlotSpec(6, (14, 9), "east"),
    SlotSpec(7, (11, 14), "south"), SlotSpec(8, (8, 14), "south"), SlotSpec(9, (5, 14), "south"),
    SlotSpec(10, (0, 11), "west"), SlotSpec(11, (0, 8), "west"), SlotSpec(12, (0, 5), "west"),
)


def load_temple_board(data_dir: Path | None = None) -> BoardSpec:
    path = (data_dir or TEMPLE_DATA) / "board.json"
    try:
        return board_from_document(json.loads(path.read_text()))
    except (OSError, ValueError, KeyError, TypeError):
        return BoardSpec(15, DEFAULT_SLOTS)


def board_from_document(doc: dict) -> BoardSpec:
    """The slots and corner cells of the game's board document; KeyError or ValueError for one that lacks them."""
    slots = tuple(SlotSpec(int(s["slot"]), (int(s["origin"][0]), int(s["origin"][1])), s["out"]) for s in doc["slots"])
    corners = tuple(((int(c["origin"][0]), int(c["origin"][1])), tuple(tuple(r) for r in c["cells"]))
                    for c in doc.get("corners", []))
    return BoardSpec(int(doc.get("size", 15)), slots, corners)


def catalogue_from_data(data: Any) -> tuple[list[CardSpec] | None, BoardSpec | None]:
    """The cards and board of a temple game's data set (house or café), or (None, None) to use the house files.

    A café that replaced the cards or the board with its own printed copy is
    refereed on those, so the camera must read them too, not the house deck.
    The data was validated when the game was made; anything else (another
    game's data, none) falls back to the house files.
    """
    try:
        cards = cards_from_document(data["cards"]) or None
        return cards, board_from_document(data["board"])
    except (KeyError, TypeError, ValueError):
        return None, None


def synthetic_catalogue(count: int = 49, seed: int = 49) -> list[CardSpec]:
    """A made-up deck with the house deck's shape: mostly path, some holes, a few idols and stairs."""
    rng = np.random.default_rng(seed)
    kinds = np.array(CELL_KINDS)
    weights = np.array([0.62, 0.22, 0.04, 0.03, 0.03, 0.03, 0.03])
    seen: set[tuple[tuple[str, ...], ...]] = set()
    cards = []
    while len(cards) < count:
        grid = rng.choice(kinds, size=(3, 3), p=weights)
        cells = tuple(tuple(str(c) for c in row) for row in grid)
        if cells in seen:
            continue
        seen.add(cells)
        cards.append(CardSpec(f"S{len(cards) + 1:02d}", cells))
    return cards


def appearance_groups(cards: list[CardSpec]) -> dict[str, str]:
    """Card id -> the first id with the same cells: such cards look alike, and play alike."""
    first: dict[tuple[tuple[str, ...], ...], str] = {}
    return {card.id: first.setdefault(card.cells, card.id) for card in cards}
