"""Scoring the temple card reader on seeded synthetic board photos (the `vision eval-cards` command)."""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from vision.board_photos import board_photo
from vision.card_catalogue import BoardSpec, CardSpec
from vision.card_reader import CardReader


@dataclass
class CardScore:
    frames: int = 0
    slots: int = 0
    right: int = 0
    unread_frames: int = 0
    seconds: float = 0.0

    def summary(self) -> dict[str, float | int]:
        return {
            "slot_accuracy": round(self.right / self.slots, 4) if self.slots else 0.0,
            "ms_per_frame": round(1000 * self.seconds / self.frames, 2) if self.frames else 0.0,
            "frames": self.frames,
        }


def evaluate_cards(
    reader: CardReader,
    cards: list[CardSpec],
    board: BoardSpec,
    frames: int = 200,
    seed: int = 8,
    max_cover: float = 0.15,
) -> CardScore:
    """Slots count as right when the read card looks the same as the placed one (same cells)."""
    rng = np.random.default_rng(seed)
    score = CardScore()
    for _ in range(frames):
        photo = board_photo(rng, cards, board, max_cover=max_cover)
        start = time.perf_counter()
        reading = reader.read(photo.image)
        score.seconds += time.perf_counter() - start
        score.frames += 1
        score.slots += len(photo.truth)
        if reading is None:
            score.unread_frames += 1
            continue
        got = reading.cards()
        for slot, card in photo.truth.items():
            want = reader.groups.get(card, card) if card else None
            score.right += got.get(slot) == want
    return score
