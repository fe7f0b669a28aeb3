"""Motion gate and voting on real frames."""

from __future__ import annotations

import numpy as np
import pytest

from vision.dice_render import render_dice_scene
from vision.motion import MotionGate
from vision.readings import DieReading
from vision.settle import Settler, dice_key


def test_gate_sees_a_moving_die_and_ignores_noise() -> None:
    rng = np.random.default_rng(0)
    scene, _, _ = render_dice_scene(rng, 320, 240, count=2)
    gate = MotionGate()
    assert not gate.is_still(scene)  # first frame: nothing to compare with
    noisy = np.clip(scene + rng.normal(0, 3, scene.shape), 0, 255).astype(np.uint8)
    assert gate.is_still(noisy)
    moved = np.roll(scene, 12, axis=1)
    assert not gate.is_still(moved)


def test_settler_votes_once_per_still_period() -> None:
    readings = iter([[1], [2], [2], [2], [2], [5]])

    def read(frame):
        return [DieReading(v, None, 0.9, (0, 0, 1, 1)) for v in next(readings)]

    settler = Settler(read, dice_key, lambda rs: min(r.confidence for r in rs), votes=3, window=5)
    frame = np.zeros((60, 80, 3), np.uint8)
    results = [settler.feed(frame) for _ in range(5)]
    settled = [r for r in results if r is not None]
    assert len(settled) == 1
    assert [d.value for d in settled[0].reading] == [2]
    assert settled[0].votes == 3 and settled[0].frames == 4
    assert settled[0].needs_confirm is True  # 3 of 4 agree: 0.9 * 0.75 < 0.8
    moved = np.full((60, 80, 3), 255, np.uint8)
    assert settler.feed(moved) is None and settler.history == []


def test_settler_survives_missing_frames() -> None:
    settler = Settler(lambda f: [], dice_key, lambda rs: 1.0)
    assert settler.feed(None) is None
    assert settler.feed(np.zeros((0, 0, 3), np.uint8)) is None


def test_an_empty_still_tray_is_read_seldom_and_a_die_appearing_is_still_found() -> None:
    """An empty tray at 30 frames a second was read on every frame all day; now two frames a second."""
    die = [DieReading(5, None, 0.95, (10, 10, 30, 30))]
    shown: list = []
    settler = Settler(lambda f: list(shown), dice_key, lambda rs: min(r.confidence for r in rs), idle_every=15)
    frame = np.full((120, 160, 3), 80, np.uint8)
    for _ in range(300):  # ten seconds of a still, empty tray
        assert settler.feed(frame) is None
    assert settler.reads <= 5 + 300 // 15 + 1
    shown.extend(die)  # a die set down so gently that the gate saw no motion
    settled = [r for r in (settler.feed(frame) for _ in range(60)) if r is not None]
    assert [r.reading[0].value for r in settled] == [5]
    settler.feed(np.full((120, 160, 3), 200, np.uint8))  # a hand over the tray: full rate again
    before = settler.reads
    shown.clear()
    for _ in range(5):
        settler.feed(frame)
    assert settler.reads - before >= 4


def flickering(scene: np.ndarray, frames: int, depth: float) -> list[np.ndarray]:
    """A lamp on 50 Hz mains seen at 30 frames a second: each frame a little brighter or darker as a whole."""
    gains = 1 + depth * np.sin(2 * np.pi * 100 / 30 * np.arange(frames) + 0.3)
    return [np.clip(scene * gain, 0, 255).astype(np.uint8) for gain in gains]


def test_a_flickering_lamp_is_no_motion_but_a_die_moving_under_it_is() -> None:
    """Under a lamp flickering by a tenth, a still tray counted as moving on two frames in three, and the
    dice on it were read seldom or never."""
    scene, _, _ = render_dice_scene(np.random.default_rng(1), 640, 480, values=[6], size_range=(50, 60))
    gate = MotionGate()
    still = [gate.is_still(frame) for frame in flickering(scene.astype(np.float32), 30, 0.1)]
    assert still[1:] == [True] * 29
    moved = flickering(np.roll(scene, 15, axis=1).astype(np.float32), 2, 0.1)[1]
    assert not gate.is_still(moved)
    gate.is_still(moved)
    assert not gate.is_still(np.clip(moved * 1.6, 0, 255).astype(np.uint8))  # the lights switched on: a change


def test_a_die_under_a_flickering_lamp_settles(d6_reader) -> None:
    scene, _, _ = render_dice_scene(np.random.default_rng(1), 640, 480, values=[6], size_range=(50, 60))
    settler = Settler(d6_reader.read, dice_key, lambda rs: min(r.confidence for r in rs))
    settled = [s for s in map(settler.feed, flickering(scene.astype(np.float32), 30, 0.12)) if s is not None]
    assert [[d.value for d in s.reading] for s in settled] == [[6]]


def test_the_gate_counts_how_long_the_picture_has_moved_on_frames_not_on_the_wall_clock() -> None:
    """A picture that never holds still is told after a while; a camera that paused sent no motion meanwhile."""
    scene, _, _ = render_dice_scene(np.random.default_rng(1), 320, 240, values=[6], size_range=(30, 40))
    now = [0.0]
    gate = MotionGate(clock=lambda: now[0])
    for step in range(20):  # shaking: two pixels one way, then the other, ten frames a second
        now[0] = step * 0.1
        gate.is_still(np.roll(scene, 2 if step % 2 else -2, axis=1))
    assert gate.moving_for == pytest.approx(1.9)
    now[0] = 5.0  # three seconds without a frame, then the same shaking again
    assert not gate.is_still(np.roll(scene, -2, axis=1)) and gate.moving_for == 0.0
    now[0] = 5.2
    assert not gate.is_still(np.roll(scene, 2, axis=1)) and gate.moving_for == pytest.approx(0.2)
    now[0] = 5.3
    assert gate.is_still(np.roll(scene, 2, axis=1)) and gate.moving_for == 0.0  # held still
    gate.reset()
    assert gate.moving_for == 0.0


def test_a_lamps_bands_are_told_from_a_shaking_mount_a_shadow_and_an_arm() -> None:
    """A picture that never holds still is mended by the mains frequency only when bands are what move it."""
    from tests.vision.test_feed import rolling_bands, shaking

    scene = render_dice_scene(np.random.default_rng(1), 640, 480, values=[6, 3], size_range=(50, 60))[0]

    def shadow(frames: int) -> list[np.ndarray]:  # a fan's shadow sweeping over the tray
        out = []
        for index in range(frames):
            frame = scene.astype(np.float32)
            frame[100:300, 100 + 8 * index:250 + 8 * index] *= 0.6
            out.append(frame.astype(np.uint8))
        return out

    def arm(frames: int) -> list[np.ndarray]:  # a sleeve across the whole picture, a stretch of rows at a time
        out = []
        for index in range(frames):
            frame = scene.astype(np.float32)
            top = (20 * index) % 400
            frame[top:top + 80] = frame[top:top + 80] * 0.3 + np.array([180, 120, 100], np.float32) * 0.7
            out.append(frame.astype(np.uint8))
        return out

    def banded_after(frames: list[np.ndarray]) -> tuple[bool, int]:
        gate = MotionGate()
        still = sum(gate.is_still(frame) for frame in frames)
        return gate.banded, still

    def dimmed_led(frames: int) -> list[np.ndarray]:  # a dimmed LED's light: hard-edged bands, 80% darker
        rows = np.arange(scene.shape[0])[:, None, None]
        return [(scene * np.where((rows + 37 * index) % 100 < 50, 1.0, 0.2)).astype(np.uint8)
                for index in range(frames)]

    for depth, period in [(0.08, 160), (0.2, 160), (0.08, 400), (0.6, 160)]:
        banded, still = banded_after(rolling_bands(scene, 40, depth, period))
        assert banded and still < 30, (depth, period)  # the bands keep it moving, and are told as bands
    assert banded_after(dimmed_led(40)) == (True, 0)
    for frames in (shaking(scene, 40), shadow(40), arm(40)):
        assert banded_after(frames) == (False, 0)
    now = [0.0]
    gate = MotionGate(clock=lambda: now[0])
    for frame in rolling_bands(scene, 40, 0.2):
        now[0] += 1 / 30
        gate.is_still(frame)
    assert gate.banded and gate.frame_rate == pytest.approx(30)  # the rate that tells 50 Hz mains' bands
    gate.reset()
    assert not gate.banded and gate.frame_rate is None  # a new camera, or one opened again, is judged afresh


def test_the_gate_knows_where_the_last_motion_passed() -> None:
    """A hand reaching past the dice to a pawn is motion, but it did not touch the dice (`CameraFeed` asks)."""
    gate = MotionGate()
    plain = np.full((480, 640, 3), 90, np.uint8)
    dice = [(500.0, 300.0, 560.0, 360.0)]
    assert gate.moved_over(dice, plain.shape)  # nothing compared yet: anything may have moved
    hand = plain.copy()
    hand[0:200, 0:250] = 200
    for frame in (plain, plain, hand, hand, plain, plain):
        gate.is_still(frame)
    assert not gate.moved_over(dice, plain.shape) and gate.moved_over([(100.0, 100.0, 140.0, 140.0)], plain.shape)
    over = plain.copy()
    over[250:400, 450:600] = 200  # the next motion, over the dice: the hand's is kept until what lies is read
    for frame in (over, plain, plain):
        gate.is_still(frame)
    assert gate.moved_over(dice, plain.shape) and gate.moved_over([(100.0, 100.0, 140.0, 140.0)], plain.shape)
    gate.forget_moves()  # the dice read where they lie: motion counts from here
    for frame in (hand, plain, plain):
        gate.is_still(frame)
    assert not gate.moved_over(dice, plain.shape) and gate.moved_over([(100.0, 100.0, 140.0, 140.0)], plain.shape)
