"""A lens out of focus and a tray nearly dark are told; a good picture, or dice merely small, are not."""

from __future__ import annotations

import cv2
import numpy as np

from vision.d6_reader import D6Reader
from vision.dice_render import render_dice_scene, render_far_dice_scene
from vision.view_check import (
    BLURRED_BELOW,
    DARK_BELOW,
    SMALL_SLOT,
    blurred_dice,
    brightest,
    sharpness,
    small_slots,
    small_temple_die,
    too_dark,
)


def scene(seed: int = 0):
    return render_dice_scene(np.random.default_rng(seed), 640, 480, count=2, size_range=(50, 60))


def test_dice_out_of_focus_are_told_and_focused_ones_are_not() -> None:
    for seed in range(6):
        image, boxes, _ = scene(seed)
        assert blurred_dice(image, boxes) is None
        level = blurred_dice(cv2.GaussianBlur(image, (0, 0), 9), boxes)
        assert level is not None and level < BLURRED_BELOW


def test_sharpness_is_the_edges_not_the_light() -> None:
    """A dimmer or paler picture of the same dice is as sharp: only blur lowers it."""
    image, boxes, _ = scene(3)
    x0, y0, x1, y1 = (round(v) for v in boxes[0])
    crop = image[y0:y1, x0:x1]
    dim = (crop * 0.4).astype(np.uint8)
    assert abs(sharpness(dim) - sharpness(crop)) < 0.15 * sharpness(crop)
    assert sharpness(cv2.GaussianBlur(crop, (0, 0), 3)) < 0.6 * sharpness(crop)


def test_small_dice_are_asked_closer_not_focused() -> None:
    image, _values = render_far_dice_scene(np.random.default_rng(4), tray=True)
    boxes = [die.box for die in D6Reader().read(image)]
    assert len(boxes) >= 6 and blurred_dice(cv2.GaussianBlur(image, (0, 0), 3), boxes) is None
    assert blurred_dice(image, []) is None


def test_a_dark_tray_is_told_and_a_dim_one_is_not() -> None:
    image, _, _ = scene(0)
    assert too_dark(image) is None
    level = too_dark((image * 0.1).astype(np.uint8))
    assert level is not None and level < DARK_BELOW
    assert too_dark(cv2.cvtColor((image * 0.1).astype(np.uint8), cv2.COLOR_BGR2GRAY)) == level
    assert brightest(image) > 2 * DARK_BELOW


def far_board(side: int = 180) -> np.ndarray:
    """The tests' board seen from farther away: `side` px across in the 640x480 frame instead of 460."""
    from tests.vision.test_feed import BY_ID, board_frame

    near = board_frame({3: sorted(BY_ID)[4]})
    frame = np.full_like(near, 90)
    top, left = (480 - side) // 2, (640 - side) // 2
    frame[top:top + side, left:left + side] = cv2.resize(near[10:470, 90:550], (side, side),
                                                         interpolation=cv2.INTER_AREA)
    return frame


def test_a_board_far_from_the_camera_has_its_slots_measured() -> None:
    from tests.vision.test_feed import BY_ID, board_frame
    from vision.card_catalogue import load_temple_board, load_temple_cards
    from vision.card_reader import CardReader

    reader = CardReader(load_temple_cards(), load_temple_board())
    reader.read(board_frame({3: sorted(BY_ID)[4]}))
    assert len(reader.last_outlines) == 12 and small_slots(reader.last_outlines) is None
    reader.read(far_board())
    across = small_slots(reader.last_outlines)
    assert across is not None and 20 <= across < SMALL_SLOT
    assert small_slots(None) is None and small_slots({}) is None


def test_a_temple_die_far_from_the_camera_is_measured() -> None:
    from vision.temple_die import TempleDieReader
    from vision.temple_die_render import render_temple_die

    reader = TempleDieReader.from_renders(per_face=1)
    rng = np.random.default_rng(5)
    near, _ = render_temple_die(rng, "3", "red", edge=60)
    far, _ = render_temple_die(rng, "3", "red", edge=22)
    assert small_temple_die([die.box for die in reader.read(near)], near.shape) is None
    [die] = reader.read(far)
    across, wanted = small_temple_die([die.box], far.shape)
    assert 40 < across < 64 and wanted == 80
    assert small_temple_die([], far.shape) is None


def test_the_advice_for_a_restless_picture_follows_what_moves_it() -> None:
    from vision.view_check import IN_TERMINAL, ON_SCREEN, restless_advice

    assert restless_advice(False, 0, ON_SCREEN, 30) == (
        "steady the camera's mount, keep people and moving shadows out of its view (or mark the tray, so that only "
        "the tray is watched), and if a lamp flickers, set Mains to 50 or 60 Hz")
    assert restless_advice(False, 0, IN_TERMINAL, 30, tray_marked=True) == (  # a tray marked: its edge moves
        "steady the camera's mount, keep people and moving shadows out of its view, and if a lamp flickers, "
        "give --mains 50 or 60 Hz")
    assert restless_advice(True, 0, ON_SCREEN) == (
        "a flickering lamp rolls bands through it: set Mains to the mains frequency here, 50 or 60 Hz")
    assert restless_advice(True, 0, IN_TERMINAL, 30) == (
        "a lamp on 50 Hz mains rolls bands through it (at 30 frames a second only those roll): give --mains 50 Hz")
    assert restless_advice(True, 50, ON_SCREEN, 25).endswith("set Mains to 60 Hz")  # the wrong one was set
    assert restless_advice(True, 60, ON_SCREEN, 25) == (
        "a lamp rolls bands through it even at 60 Hz mains, which this camera cannot avoid: light the tray with a "
        "lamp that does not flicker")
    assert restless_advice(True, 50, ON_SCREEN, 20) == (  # at 20 frames a second neither rolls: no telling
        "a lamp rolls bands through it even at 50 Hz mains: if the mains here is 60 Hz, set Mains to 60, else light "
        "the tray with a lamp that does not flicker")
