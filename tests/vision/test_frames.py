"""Frames in every layout a capture device hands over reach every reader as 8-bit BGR, or as a clear nothing."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.board_photos import board_photo
from vision.card_catalogue import load_temple_board, load_temple_cards
from vision.card_reader import CardReader
from vision.dice_render import render_dice_scene
from vision.frames import MIN_SIDE, as_bgr
from vision.motion import MotionGate
from vision.temple_die import TempleDieReader
from vision.temple_die_render import render_temple_die


def test_layouts_become_bgr() -> None:
    grey = np.arange(64 * 80, dtype=np.uint8).reshape(64, 80)
    assert np.array_equal(as_bgr(grey[:, :, None]), cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR))
    yuyv = np.stack([grey, np.full_like(grey, 128)], axis=2)  # luma, then alternating chroma
    assert np.array_equal(as_bgr(yuyv)[:, :, 1], grey)
    bgra = np.dstack([np.full((20, 30, 3), 40, np.uint8), np.full((20, 30), 255, np.uint8)])
    assert as_bgr(bgra).shape == (20, 30, 3) and as_bgr(bgra).max() == 40
    deep = np.full((20, 30, 3), 1000, np.uint16)
    deep[0, 0] = 4000
    assert as_bgr(deep)[1, 1, 0] == 63 and as_bgr(deep)[0, 0, 0] == 255
    unit = np.full((20, 30, 3), 0.5, np.float32)
    assert as_bgr(unit)[0, 0, 0] == 127  # 0..1 floats keep their brightness
    frame = np.zeros((20, 30, 3), np.uint8)
    assert as_bgr(frame) is frame  # the common case costs nothing


@pytest.mark.parametrize("frame", [
    None, "a frame", np.array([]), np.zeros((MIN_SIDE - 1, 2000, 3), np.uint8), np.zeros((4, 4, 4, 4), np.uint8),
])
def test_unusable_frames_are_none(frame: object) -> None:
    assert as_bgr(frame) is None


ODD_FRAMES = [
    np.zeros((3, 2000, 3), np.uint8),
    np.full((8, 2000, 3), 90, np.uint8),
    np.full((50, 50, 1), 90, np.uint8),
    np.full((100, 100, 2), 90, np.uint8),
    np.full((33, 47, 4), 90, np.uint8),
    np.full((60, 80, 3), 30000, np.uint16),
    np.full((60, 80, 3), np.nan, np.float32),
    np.ones((60, 80, 3), bool),
    None,
]


@pytest.mark.parametrize("index", range(len(ODD_FRAMES)))
def test_no_reader_raises_on_odd_frames(d6_reader, index: int) -> None:
    frame = ODD_FRAMES[index]
    cards = CardReader(load_temple_cards(), load_temple_board())
    temple = TempleDieReader.from_renders(per_face=1)
    assert cards.read(frame) is None and cards.last_problem
    assert temple.read(frame) == [] and temple.teach(frame, "3", "red") is False
    assert d6_reader.read(frame) == []
    assert len(d6_reader.read_boxes(frame, [(0, 0, 4, 4)])) == (0 if as_bgr(frame) is None else 1)
    assert MotionGate().motion(frame) == 1.0


def test_grey_and_deep_cameras_are_read_like_colour_ones(d6_reader) -> None:
    """A mono camera or a 16-bit one is read, not only survived."""
    img, boxes, values = render_dice_scene(np.random.default_rng(4), 640, 480, count=3, size_range=(50, 70))
    grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    assert [r.value for r in d6_reader.read_boxes(grey[:, :, None], boxes)] == values
    deep = img.astype(np.uint16) * 257
    assert [r.value for r in d6_reader.read_boxes(deep, boxes)] == values

    cards, board = load_temple_cards(), load_temple_board()
    reader = CardReader(cards, board)
    photo = board_photo(np.random.default_rng(2), cards, board, pawns=0)
    expected = reader.read(photo.image).cards()
    assert reader.read(photo.image.astype(np.uint16) * 257).cards() == expected
    assert reader.read(np.dstack([photo.image, np.full(photo.image.shape[:2], 255, np.uint8)])).cards() == expected

    temple = TempleDieReader.from_renders(per_face=2)
    die, _ = render_temple_die(np.random.default_rng(6), "4", "red")
    assert [(r.value, r.face) for r in temple.read(die.astype(np.float32) / 255.0)] == [
        (r.value, r.face) for r in temple.read(die)]
