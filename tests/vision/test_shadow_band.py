"""A hard shadow's band across a dice tray is lifted off before the dice are looked for; a frame without one, and
stripes that are no shadow, are left as they are."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.vision.test_temple_die_shadow import under_band
from vision.board_photos import shadowed
from vision.d6_reader import prepared
from vision.dice_render import render_dice_scene
from vision.eval_dice import evaluate_folder
from vision.shadow_band import band_lifted, find_band
from vision.view_check import shadow_kept


def in_band(image: np.ndarray, shadow: np.ndarray) -> np.ndarray:
    """The pixels the band darkened by more than a few levels."""
    return (image.astype(np.int16) - shadow.astype(np.int16)).max(axis=2) > 10


@pytest.mark.parametrize(("seed", "depth"), [(1, 0.5), (2, 0.75), (3, 0.85), (4, 0.75), (5, 0.6)])
def test_a_band_across_the_tray_is_lifted_to_the_light_round_it(seed: int, depth: float) -> None:
    """A spotlight past the camera's arm: inside the band the lifted tray lies within a few levels of the tray as
    lit, where the band had taken half or more of its level away."""
    rng = np.random.default_rng(seed)
    tray = render_dice_scene(rng, 640, 480, count=4)[0]
    dark = shadowed(tray, rng, depth)
    band = in_band(tray, dark)
    found = find_band(dark)
    assert found is not None
    lifted = band_lifted(dark)
    before = np.abs(dark.astype(np.int16) - tray)[band].mean()
    after = np.abs(lifted.astype(np.int16) - tray)[band].mean()
    assert before > 25 and after < 5, (before, after)
    # What the band kept of the light, in light: the band's own depth.
    assert found.gains == pytest.approx(np.full(3, 1 / (1 - depth)), rel=0.08)


def test_the_nets_are_shown_the_tray_lifted() -> None:
    """`prepared` is what the d6 reader reads (and `read_boxes`): the band is gone from it."""
    rng = np.random.default_rng(9)
    tray = render_dice_scene(rng, 640, 480, count=3)[0]
    dark = under_band(tray, (320, 240), 150, 0.8, turn=0.7)
    band = in_band(tray, dark)
    assert np.abs(prepared(dark).astype(np.int16) - tray)[band].mean() < 5


@pytest.mark.parametrize("speckled", [False, True])
def test_a_tray_without_a_shadow_is_read_as_it_is(speckled: bool) -> None:
    for seed in range(6):
        tray = render_dice_scene(np.random.default_rng(seed), 640, 480, count=5, speckled=speckled)[0]
        assert band_lifted(tray) is tray


def test_an_evenly_lit_empty_tray_and_tiny_frames_have_nothing_to_search() -> None:
    """An empty tray with nothing changing anywhere in it made the search's first version fail (no pixel to look
    across); a strip too thin for a band and a die is not searched, nor one so long that shrunk for the search it
    would be under a pixel across."""
    grain = np.random.default_rng(2).integers(0, 256, (48, 10000, 3), dtype=np.uint8)
    for frame in (np.full((480, 640, 3), 128, np.uint8), np.zeros((30, 640, 3), np.uint8),
                  np.zeros((640, 1, 3), np.uint8), np.full((48, 48, 3), 200, np.uint8), grain,
                  np.ascontiguousarray(grain.transpose(1, 0, 2))):
        assert band_lifted(frame) is frame


def paper_with_stripe(stripe: tuple[int, int, int], paper: tuple[int, int, int] = (235, 235, 235)) -> np.ndarray:
    frame = np.empty((480, 640, 3), np.uint8)
    frame[:] = paper
    frame[:, 250:390] = stripe
    return cv2.GaussianBlur(frame, (0, 0), 1.5)


def test_a_coloured_stripe_across_the_tray_is_no_shadow() -> None:
    """Green felt across a grey table darkens one colour far more than the others: a shadow darkens all alike."""
    frame = paper_with_stripe((60, 150, 40))
    assert band_lifted(frame) is frame


def test_a_grey_stripe_is_lifted_like_a_shadow() -> None:
    """What a picture cannot tell apart: a grey stripe as dark in every colour is lifted as a shadow would be."""
    frame = paper_with_stripe((118, 118, 118))
    assert find_band(frame) is not None
    assert band_lifted(frame)[:, 300:340].mean() == pytest.approx(235, abs=6)


def test_a_lift_that_would_wash_out_the_inside_of_a_band_is_not_made() -> None:
    """Between two edges that step alike lies a white sheet: lifting the band by its edges' step would clip it, as
    it clipped a tray's floor between its rims (taken for a band) to white. Nothing is lifted."""
    frame = paper_with_stripe((110, 110, 110))
    frame[40:440, 265:375] = 225  # the sheet, away from the band's edges
    assert find_band(frame) is not None
    assert band_lifted(frame) is frame


def test_dice_under_a_shadow_are_found_again(datasets, d6_reader) -> None:
    """d6-matteop65/valid with a band taking three quarters of the light across every photo: found and read right
    before 0.945 / 0.882 (precision / recall), lifted 0.980 / 0.980; 0.988 / 0.988 without a shadow."""
    score = evaluate_folder(datasets / "d6-matteop65" / "valid", d6_reader, shadow=0.75)
    found = score.summary()
    assert found["precision"] >= 0.97 and found["recall"] >= 0.97, found


def test_a_lifted_shadow_is_told_with_the_light_it_keeps() -> None:
    """A café learns that a lamp's shadow lies across the picture (`view_check.shadow_kept`): a quarter of the light
    kept, lifted; nothing said of a clear picture, nor of a stripe that is not lifted."""
    tray = render_dice_scene(np.random.default_rng(2), 640, 480, count=4)[0]
    assert shadow_kept(tray) is None
    assert shadow_kept(shadowed(tray, np.random.default_rng(2), 0.75)) == pytest.approx(0.25, abs=0.03)
    sheet = paper_with_stripe((110, 110, 110))
    sheet[40:440, 265:375] = 225
    assert shadow_kept(sheet) is None


def test_watch_tells_a_shadow_once(tmp_path, capsys) -> None:
    from companion.cli import main as companion_main

    folder = tmp_path / "frames"
    folder.mkdir()
    tray = render_dice_scene(np.random.default_rng(4), 640, 480, count=2, size_range=(50, 60))[0]
    for index, frame in enumerate([tray, *[shadowed(tray, np.random.default_rng(4), 0.75)] * 3, tray]):
        cv2.imwrite(str(folder / f"{index}.png"), frame)
    assert companion_main(["vision", "watch", str(folder), "--every-frame"]) == 0
    out = capsys.readouterr().out
    assert out.count("a lamp's shadow lies across the picture (a band keeping 2") == 1, out
    assert "no shadow's band lies across the picture now" in out


def test_cards_under_a_deep_band_are_read_as_lit() -> None:
    """24 board photos (seed 21) with a band keeping a twentieth of the light: the card reader found the board and
    read 233 of 288 slots right, 28 covered; with the band lifted before the board is found, every slot."""
    from vision.card_reader import CardReader
    from vision.eval_cards import deck_to_score, evaluate_cards

    deck = deck_to_score(None)
    score = evaluate_cards(CardReader(deck.cards, deck.board), deck.cards, deck.board, frames=24, seed=21,
                           shadow=0.95)
    assert score.right >= 285 and score.covered <= 2 and score.sure_wrong == 0, (score.right, score.covered)


def test_the_colours_are_averaged_and_looked_up_as_numpy_did_to_the_bit() -> None:
    """The fits' light along an edge is the mean of its three colours, looked up through the log-light table by
    OpenCV (session 65, for speed): the same float32 numbers numpy's indexing and ``mean(axis=2)`` gave, so every band
    is found, fitted and lifted as before."""
    from vision.shadow_band import _LOG_LIGHT, _colours_mean, _sampled

    rng = np.random.default_rng(65)
    levels = rng.integers(0, 256, (500, 35, 3), dtype=np.uint8)
    light = _LOG_LIGHT[levels]
    assert np.array_equal(_colours_mean(light), light.mean(axis=2))
    assert _colours_mean(light).dtype == np.float32
    dark = shadowed(render_dice_scene(rng, 640, 480, count=4)[0], rng, 0.75)
    points = np.stack([np.linspace(40, 600, 200), np.linspace(40, 440, 200)], axis=1)
    normal, reach = np.array([0.6, 0.8]), np.arange(-17.0, 18.0)
    sampled = _sampled(dark, points, normal, reach)
    map_x = (points[:, :1] + reach[None, :] * normal[0]).astype(np.float32)
    map_y = (points[:, 1:] + reach[None, :] * normal[1]).astype(np.float32)
    assert np.array_equal(sampled, _LOG_LIGHT[cv2.remap(dark, map_x, map_y, cv2.INTER_LINEAR,
                                                        borderMode=cv2.BORDER_REPLICATE)])
    assert np.array_equal(_colours_mean(sampled), sampled.mean(axis=2))


def test_a_band_is_lifted_as_its_formula_writes_it_to_the_bit() -> None:
    """The lift works in place and counts the clipped pixels (session 65, for speed): the same ramp, blend and clip
    rule as written out here, so the nets and the card reader are shown the same pixels."""
    from vision.frames import to_levels, to_light
    from vision.shadow_band import CLIPS_MORE

    for seed, depth in ((1, 0.5), (2, 0.75), (3, 0.85)):  # as the first test's trays and bands
        rng = np.random.default_rng(seed)
        dark = shadowed(render_dice_scene(rng, 640, 480, count=4)[0], rng, depth)
        band = find_band(dark)
        assert band is not None

        def past(edge) -> np.ndarray:
            across = np.add.outer(np.arange(480, dtype=np.float32) * np.float32(edge.normal[1]),
                                  np.arange(640, dtype=np.float32) * np.float32(edge.normal[0]))
            return np.clip((across - np.float32(edge.offset)) / np.float32(2.5 * edge.softness) + 0.5, 0.0, 1.0)

        inside = past(band.into) * (1.0 - past(band.out))
        assert np.array_equal(band.inside(dark.shape), inside)
        planes = []
        for plane, gain in zip(cv2.split(dark), band.gains, strict=True):
            whole = cv2.LUT(plane, to_levels(to_light(np.arange(256)) * float(gain)))
            planes.append(cv2.convertScaleAbs(plane + inside * cv2.subtract(whole, plane, dtype=cv2.CV_32F)))
        written = cv2.merge(planes)
        clipped = cv2.inRange(written, (0, 0, 0), (253, 253, 253)) == 0
        kept = clipped[inside > 0.9].mean() <= clipped[inside < 0.1].mean() + CLIPS_MORE
        lifted = band.lifted(dark)
        assert kept == (lifted is not None)
        assert lifted is None or np.array_equal(lifted, written)
