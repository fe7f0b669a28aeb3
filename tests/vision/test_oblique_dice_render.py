"""The slanted dice renderer: real cubes in perspective, labelled the way the photo sets label dice."""

from __future__ import annotations

import numpy as np

from vision.dice_render import draw_face
from vision.oblique_dice_render import Camera, die_corners, die_faces, marbled, render_oblique_scene


def test_a_die_has_the_faces_of_a_real_die() -> None:
    rng = np.random.default_rng(3)
    for top in range(1, 7):
        faces = die_faces(rng, top)
        assert set(faces.values()) <= {1, 2, 3, 4, 5, 6} and faces["top"] == top
        assert len(set(faces.values())) == 5 and 7 - top not in faces.values()
        assert faces["front"] + faces["back"] == 7 and faces["left"] + faces["right"] == 7


def test_the_camera_sees_the_top_above_the_front_and_near_dice_bigger() -> None:
    camera = Camera(elevation=40, distance=12, focal=1.0)
    points, _ = camera.project(die_corners(0, 0, 0))
    top, bottom = points[4:, 1].mean(), points[:4, 1].mean()
    assert top < bottom  # image y grows downwards: the top face is drawn above the die's foot
    near, _ = camera.project(die_corners(0, -4, 0))
    far, _ = camera.project(die_corners(0, 4, 0))
    assert np.ptp(near[:, 0]) > np.ptp(far[:, 0])


def test_scenes_are_seeded_and_their_labels_lie_in_the_frame() -> None:
    first = render_oblique_scene(np.random.default_rng(7), count=8)
    again = render_oblique_scene(np.random.default_rng(7), count=8)
    assert np.array_equal(first[0], again[0]) and first[1] == again[1] and first[2] == again[2]
    rng = np.random.default_rng(8)
    labelled = 0
    for _ in range(10):
        image, boxes, values = render_oblique_scene(rng, width=320, height=240, die_px=(20, 40))
        assert image.shape == (240, 320, 3) and len(boxes) == len(values)
        assert all(1 <= v <= 6 for v in values)
        for x0, y0, x1, y1 in boxes:
            assert 0 <= x0 < x1 <= 320 and 0 <= y0 < y1 <= 240
        labelled += len(values)
    assert labelled >= 10


def test_a_die_hidden_behind_others_is_not_labelled() -> None:
    """In a tight heap seen from low down, the back dice's tops are covered: fewer labels than dice."""
    rng = np.random.default_rng(21)
    counts = [len(render_oblique_scene(rng, count=12, elevation=(25, 30), die_px=(40, 50))[2]) for _ in range(6)]
    assert min(counts) >= 1 and sum(counts) < 6 * 12, counts


def test_a_marbled_face_keeps_its_pips_and_plain_scenes_stay_as_they_were() -> None:
    body, pip = (30, 30, 200), (250, 250, 250)
    face = draw_face(5, 64, body, pip)
    swirled = marbled(face, body, np.random.default_rng(4))
    pips = np.all(face[:, :, :3] == pip, axis=2)
    assert pips.sum() > 100 and np.array_equal(swirled[pips], face[pips])
    assert (np.abs(swirled.astype(int) - face.astype(int)).sum(2) > 30).mean() > 0.1  # veins across the body
    plain = render_oblique_scene(np.random.default_rng(7), count=5)
    unswirled = render_oblique_scene(np.random.default_rng(7), count=5, marbled_share=0.0)
    assert np.array_equal(plain[0], unswirled[0]) and plain[1:] == unswirled[1:]
    swirly = render_oblique_scene(np.random.default_rng(7), count=5, marbled_share=1.0)
    assert not np.array_equal(plain[0], swirly[0])
