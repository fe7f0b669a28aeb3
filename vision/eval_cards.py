"""Scoring the temple card reader on seeded synthetic board photos (the `vision eval-cards` command).

Part of the frames show a board still being assembled (0 to 12 cards laid), because
that is when the reader most needs to tell an empty slot from a card; a score over
full boards alone once hid a reader that called every empty slot a card.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from vision.board_photos import board_photo, random_empty_slots, shadowed, veiled
from vision.card_catalogue import (
    BoardSpec,
    CardSpec,
    catalogue_from_data,
    load_temple_board,
    load_temple_cards,
    synthetic_catalogue,
)
from vision.card_reader import CardReader
from vision.ctrl_c import until_ctrl_c
from vision.slot_tracker import SlotTracker
from vision.teaching import temple_data

SYNTHETIC = "a made-up deck (--synthetic-deck)"


@dataclass(frozen=True)
class ScoredDeck:
    """The cards and board `eval-cards` renders and reads, and where each came from, so a score is never
    taken for another deck's."""

    cards: list[CardSpec]
    board: BoardSpec
    sources: dict[str, str]
    """'cards' and 'board' -> the file (a café's path, or house:temple/<kind>.json) or the made-up deck."""

    def line(self) -> str:
        return f"scored on: cards {self.sources['cards']}, board {self.sources['board']}"


def deck_to_score(
    cafe_dir: Path | None, synthetic: bool = False, warn: Callable[[str], None] | None = None
) -> ScoredDeck:
    """The deck and board the table's camera reads by: the café's own where its folder replaces them.

    `eval-cards` scored the house deck whatever ``--cafe`` named, so a café that
    printed its own cards or board could not check the reader on them, and took
    the house numbers for its own. Broken café files are said through ``warn``
    and the house files scored, as `watch` and `teach-card` do; ``synthetic``
    puts the made-up deck on that board.
    """
    data = temple_data(cafe_dir, warn)
    cards, board = catalogue_from_data(data) if data is not None else (None, None)
    sources = dict(data.sources) if data is not None else {}
    if cards is None:
        cards, sources["cards"] = load_temple_cards(), "house:temple/cards.json"
    if board is None:
        board, sources["board"] = load_temple_board(), "house:temple/board.json"
    if synthetic:
        cards, sources["cards"] = synthetic_catalogue(), SYNTHETIC
    return ScoredDeck(cards, board, {kind: sources[kind] for kind in ("cards", "board")})


@dataclass
class CardScore:
    frames: int = 0
    slots: int = 0
    right: int = 0
    unread_frames: int = 0
    markers_hidden: int = 0
    """Frames whose board was found with a marker hidden (under an arm), from the others (`BoardFinder.hidden`)."""
    sure_wrong: int = 0
    """Slots read wrong surely enough for the tracker to take (`SlotTracker.counts`): what the table would act on."""
    covered: int = 0
    """Slots read as covered (a hand or an arm over them), which the tracker leaves as they were."""
    sure_right: int = 0
    """Slots read right surely enough for the tracker to take, and not covered: a card laid there is taken."""
    seconds: float = 0.0
    by_laid: dict[int, list[int]] = field(default_factory=dict)
    """cards laid on the board -> [right slots, slots] over the frames with that many."""
    stopped: bool = False
    """By Ctrl-C: the frames read so far are scored, the rest not (`vision.ctrl_c`)."""

    def summary(self) -> dict[str, float | int]:
        return {
            "slot_accuracy": round(self.right / self.slots, 4) if self.slots else 0.0,
            "ms_per_frame": round(1000 * self.seconds / self.frames, 2) if self.frames else 0.0,
            "frames": self.frames,
        }

    def accuracy_by_laid(self) -> dict[int, float]:
        return {laid: round(right / slots, 4) for laid, (right, slots) in sorted(self.by_laid.items()) if slots}


def evaluate_cards(
    reader: CardReader,
    cards: list[CardSpec],
    board: BoardSpec,
    frames: int = 200,
    seed: int = 8,
    max_cover: float = 0.15,
    assembling_share: float = 0.5,
    arm: bool = False,
    ink: float = 0.0,
    veil: float = 0.0,
    shadow: float = 0.0,
) -> CardScore:
    """Slots count as right when the read card looks the same as the placed one (same cells).

    A share `assembling_share` of the frames (spread evenly) shows a partly laid board;
    their number of cards steps through 0..12 in turn, so every stage is scored. With
    ``arm`` each photo has an arm held over the board, with ``ink`` it is printed with
    real ink's black (`board_photo`), with ``veil`` seen through a veil (`veiled`), and
    with ``shadow`` a hard shadow's band of that depth lies across it (`shadowed`, drawn
    from a generator of its own, so the photos are the seed's photos without it).
    """
    rng = np.random.default_rng(seed)
    shadows = np.random.default_rng([seed, 1])
    score = CardScore()
    taken = SlotTracker()
    assembling = 0
    with until_ctrl_c(score):
        for index in range(frames):
            empty_slots = None
            if int((index + 1) * assembling_share) > int(index * assembling_share):
                empty_slots = random_empty_slots(rng, board, assembling % (len(board.slots) + 1))
                assembling += 1
            photo = board_photo(rng, cards, board, max_cover=max_cover, empty_slots=empty_slots, arm=arm, ink=ink)
            image = shadowed(photo.image, shadows, shadow) if shadow else photo.image
            image = veiled(image, veil) if veil else image
            start = time.perf_counter()
            reading = reader.read(image)
            score.seconds += time.perf_counter() - start
            score.frames += 1
            score.slots += len(photo.truth)
            laid = score.by_laid.setdefault(sum(card is not None for card in photo.truth.values()), [0, 0])
            laid[1] += len(photo.truth)
            if reading is None:
                score.unread_frames += 1
                continue
            score.markers_hidden += bool(reader.finder.hidden)
            for slot in reading.slots:
                card = photo.truth.get(slot.slot)
                right = slot.card == (reader.groups.get(card, card) if card else None)
                score.right += right
                laid[0] += right
                score.sure_wrong += not right and taken.counts(slot.confidence)
                score.covered += slot.covered
                score.sure_right += right and not slot.covered and taken.counts(slot.confidence)
    return score
