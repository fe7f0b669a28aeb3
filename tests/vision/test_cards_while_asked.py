"""Cards laid one after another while the first of them waits for its tap: a recorded video (MJPG, real
OpenCV, the real card reader) through the feed into a real controller and temple session."""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.controller import Controller
from companion.observations import Touch, Update
from companion.session import Session
from tests.vision.test_feed import LOOKS_UNIQUE, board_frame, on_the_table
from vision.card_catalogue import catalogue_from_data
from vision.card_reader import CardReader
from vision.feed import CameraFeed
from vision.readings import BoardReading


class UnsureOf:
    """The card reader, unsure of one slot's card (a glare on it), as sure as ever of the rest."""

    def __init__(self, slot: int) -> None:
        self.reader = CardReader(*catalogue_from_data(None))
        self.slot = slot

    def __getattr__(self, name: str) -> Any:
        return getattr(self.reader, name)

    def read(self, frame: np.ndarray, **known: Any) -> BoardReading | None:
        reading = self.reader.read(frame, **known)
        if reading is None:
            return None
        return BoardReading(tuple(replace(s, confidence=min(s.confidence, 0.6)) if s.slot == self.slot and s.card
                                  else s for s in reading.slots))


def laid_one_by_one(path: Path, layouts: list[dict[int, str | None]]) -> str:
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 30, (640, 480))
    assert writer.isOpened()
    for layout in layouts:
        frame = board_frame(layout)
        hand = frame.copy()
        cv2.ellipse(hand, (560, 300), (70, 150), 30, 0, 360, (120, 160, 215), -1)
        for shot in [hand] * 4 + [frame] * 40:
            writer.write(shot)
    writer.release()
    return str(path)


def test_cards_laid_while_an_unsure_card_waits_are_taken_after_its_tap(tmp_path: Path) -> None:
    """Slot 10's card waited for its tap while slots 11 and 12 were laid: each was answered "P.. was laid in
    slot 11, but the card drawn now goes into slot 10: move it there" (where the card asked about lay), and
    after the tap the game asked for slot 11's card with it lying there, never read again."""
    session = Session.new("temple", ["red", "blue"])
    for _ in range(9):
        session.act(next(a for a in session.legal() if a["type"] == "draw" and a["card"] in LOOKS_UNIQUE))
    laid = on_the_table(session)
    unused = [a["card"] for a in session.legal() if a["type"] == "draw" and a["card"] in LOOKS_UNIQUE]
    ten, eleven, twelve = unused[:3]
    video = laid_one_by_one(tmp_path / "laid.avi", [laid, laid | {10: ten}, laid | {10: ten, 11: eleven},
                                                    laid | {10: ten, 11: eleven, 12: twelve}])
    controller = Controller(session)
    updates: list[Update] = []
    with CameraFeed(video, controller.submit, mode="cards", fps=None, card_interval=0,
                    readers={"cards": UnsureOf(10)}) as feed:
        deadline = time.monotonic() + 60
        while not feed.ended.is_set() and time.monotonic() < deadline:
            updates += controller.wait_and_pump(0.05)
        assert feed.ended.is_set()
    updates += controller.pump()
    assert [u.kind for u in updates if u.kind in ("confirm", "step")] == ["confirm"]
    assert not [u.text for u in updates if "move it there" in u.text]
    assert controller.proposal == {"type": "draw", "deck": "path", "card": ten}
    controller.handle(Touch("confirm"))  # the player taps the card asked about
    controller.pump()
    assert list(session.state.slots[9:]) == [ten, eleven, twelve]
