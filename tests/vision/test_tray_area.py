"""The tray area: parsed, checked, cut from real frames, and kept on the tray when the picture turns."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from vision.orientation import TURNS, Orientation
from vision.readings import DieReading
from vision.tray_area import WHOLE_PICTURE, TrayArea, TrayAreaRefused, placed


def test_two_corners_in_either_order_make_one_area_clamped_to_the_picture() -> None:
    area = TrayArea.from_corners((0.7, 0.9), (0.2, 0.1))
    assert area == TrayArea(0.2, 0.1, 0.7, 0.9) == TrayArea.from_corners((0.2, 0.9), (0.7, 0.1))
    assert TrayArea.from_corners((-0.05, 1.2), (0.5, 0.4)) == TrayArea(0.0, 0.4, 0.5, 1.0)


@pytest.mark.parametrize("sides, said", [
    ((0.2, 0.2, 0.3, 0.9), "too small"),  # a tap and a slip of the finger beside it
    ((0.6, 0.1, 0.2, 0.9), "too small"),  # right before left
    ((0.1, -0.2, 0.5, 0.9), "shares of the picture"),
    ((0.1, 0.2, 1.5, 0.9), "shares of the picture"),
    ((0.1, True, 0.5, 0.9), "four numbers"),
    ((0.1, "0.2", 0.5, 0.9), "four numbers"),
])
def test_an_area_that_is_no_usable_part_of_the_picture_is_refused_with_why(sides: tuple, said: str) -> None:
    with pytest.raises(TrayAreaRefused, match=said):
        TrayArea(*sides)


@pytest.mark.parametrize("text, area", [
    ("0.25,0.2,0.75,0.8", TrayArea(0.25, 0.2, 0.75, 0.8)),
    (" 25%, 20% ,75%,80% ", TrayArea(0.25, 0.2, 0.75, 0.8)),
    ("whole", WHOLE_PICTURE),
    ("", WHOLE_PICTURE),
])
def test_a_command_line_area_is_shares_or_percentages(text: str, area: TrayArea) -> None:
    assert TrayArea.parse(text) == area


@pytest.mark.parametrize("text, said", [
    ("0.25,0.2,0.75", "four numbers"),
    ("left,top,right,bottom", "no tray area"),
    ("25%,20%,75%,180%", "shares of the picture"),
])
def test_a_command_line_area_that_is_wrong_says_what_is_wanted(text: str, said: str) -> None:
    with pytest.raises(TrayAreaRefused, match=said):
        TrayArea.parse(text)


def test_the_settings_list_round_trips_and_an_unmarked_tray_saves_no_numbers() -> None:
    area = TrayArea(0.1, 0.2, 0.6, 0.7)
    assert TrayArea.from_list(area.as_list()) == area
    assert WHOLE_PICTURE.as_list() == [] and TrayArea.from_list([]) is WHOLE_PICTURE
    with pytest.raises(TrayAreaRefused):
        TrayArea.from_list([0.1, 0.2])


def test_the_cut_is_the_trays_pixels_and_readings_in_it_go_back_to_the_frame() -> None:
    frame = np.zeros((480, 640, 3), np.uint8)
    frame[96:384, 160:480] = 200  # the tray
    view, offset = TrayArea(0.25, 0.2, 0.75, 0.8).cut(frame)
    assert offset == (160, 96) and view.shape == (288, 320, 3) and view.min() == 200
    assert np.shares_memory(view, frame)  # a view, no copy per frame
    die = DieReading(4, None, 0.9, (10.0, 20.0, 40.0, 50.0))
    assert placed([die], offset) == [DieReading(4, None, 0.9, (170.0, 116.0, 200.0, 146.0))]
    whole, at = WHOLE_PICTURE.cut(frame)
    assert whole is frame and at == (0, 0) and placed([die], at) == [die]
    assert TrayArea(0.25, 0.2, 0.75, 0.8).cut(None) == (None, (0, 0))  # for the reader to refuse in its words


def marked_frame(area: TrayArea) -> np.ndarray:
    """A 640x480 camera picture with the area painted white and one red dot near its top left corner."""
    frame = np.zeros((480, 640, 3), np.uint8)
    x0, y0, x1, y1 = area.pixels(frame.shape)
    frame[y0:y1, x0:x1] = 255
    frame[y0 + 4:y0 + 12, x0 + 4:x0 + 12] = (0, 0, 255)
    return frame


@pytest.mark.parametrize("before, after", [
    (Orientation(t, m), Orientation(t2, m2))
    for t, m, t2, m2 in itertools.product(TURNS, (False, True), TURNS, (False, True))
])
def test_a_tray_marked_stays_on_the_tray_when_the_picture_is_turned_or_mirrored(
        before: Orientation, after: Orientation) -> None:
    """Each way up of a real frame: the area moved from one orientation to another cuts the same tray,
    dot and all, from the picture put upright the new way."""
    raw_area = TrayArea(0.1, 0.15, 0.45, 0.7)
    raw = marked_frame(raw_area)
    seen_before = before.apply(raw)
    area_before = raw_area.moved(Orientation(), before)
    tray_before = area_before.cut(seen_before)[0]
    assert tray_before.min() >= 0 and (tray_before.sum(axis=2) >= 255).mean() > 0.97  # all of it the tray
    area_after = area_before.moved(before, after)
    tray_after = area_after.cut(after.apply(raw))[0]
    assert (tray_after.sum(axis=2) >= 255).mean() > 0.97
    assert tray_after.shape[0] * tray_after.shape[1] == pytest.approx(tray_before.shape[0] * tray_before.shape[1],
                                                                      rel=0.02)
    assert (tray_after[:, :, 1] == 0).sum() == 64  # the dot came along
    assert area_after.moved(after, before) == area_before  # and back, to the numbers the settings held


def test_the_words_say_where_the_tray_is() -> None:
    assert WHOLE_PICTURE.words() == "the whole picture"
    assert TrayArea(0.05, 0.0, 0.4375, 0.3854).words() == "the tray marked at 5-44% across, 0-39% down"


def test_a_tray_marked_tightly_round_a_big_die_is_padded_not_enlarged(d6_reader) -> None:
    """A tray a sixth of the picture round a die 60-75 px across: enlarged to the detector's 320 px, the die
    was past the biggest it learnt (7 of 20 such trays read right); padded, it keeps its size (17 of 20; the
    others lose a corner of the die to the tray's edge)."""
    from vision.dice_render import render_dice_scene
    from vision.tray_area import TrayReader, read_shape

    reader = TrayReader(d6_reader)
    rng = np.random.default_rng(5)
    right = 0
    for _ in range(20):
        image, boxes, values = render_dice_scene(rng, 640, 480, count=1, size_range=(60, 75))
        x0, y0, x1, y1 = boxes[0]
        cx, cy = min(max((x0 + x1) / 1280, 0.08), 0.92), min(max((y0 + y1) / 960, 0.08), 0.92)
        view = TrayArea.from_corners((cx - 0.08, cy - 0.08), (cx + 0.08, cy + 0.08)).cut(image)[0]
        assert read_shape(view.shape) == (240, 320, 3)  # about 77x102 px, padded to a 640x480 frame's look
        right += [d.value for d in reader.read(view)] == values
    assert right >= 15


def test_a_die_found_in_the_padding_is_none_of_the_trays(d6_reader) -> None:
    from vision.dice_render import render_dice_scene
    from vision.tray_area import TrayReader

    image, boxes, _ = render_dice_scene(np.random.default_rng(2), 200, 150, values=[5], size_range=(40, 44))
    reader = TrayReader(d6_reader)
    assert [d.value for d in reader.read(image)] == [5]
    x0 = int(boxes[0][0])
    assert reader.read(image[:, :x0 + 8]) == []  # only a sliver of the die is in the tray
    assert reader.read(np.zeros((0, 0, 3), np.uint8)) == [] and reader.read(None) == []


def test_a_temple_die_in_a_tight_tray_is_found_and_read() -> None:
    """The temple die's finder takes a blob most of the picture's short side across for a board, and fits the
    tray's colour along the picture's edges: a tray padded on its long side alone read none of these."""
    from vision.temple_die import TempleDieReader, die_faces
    from vision.temple_die_render import render_temple_die
    from vision.tray_area import TrayReader

    reader = TempleDieReader.from_renders(per_face=1)
    rng = np.random.default_rng(4)
    right = 0
    for value, colour in sorted(die_faces())[:10]:
        image, _ = render_temple_die(rng, value, colour)
        (x0, y0, x1, y1) = reader.read(image)[0].box
        cx = min(max((x0 + x1) / 2 / image.shape[1], 0.12), 0.88)
        cy = min(max((y0 + y1) / 2 / image.shape[0], 0.12), 0.88)
        view = TrayArea.from_corners((cx - 0.12, cy - 0.12), (cx + 0.12, cy + 0.12)).cut(image)[0]
        dice = TrayReader(reader).read(view)
        right += len(dice) == 1 and (str(dice[0].value), dice[0].face) == (value, colour)
    assert right >= 9
