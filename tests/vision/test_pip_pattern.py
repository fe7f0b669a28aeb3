"""The pip-pattern box on rendered dice, and eval-dice counting a one whose label boxes only its pip."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision.dice_render import render_dice_scene
from vision.eval_dice import evaluate_folder
from vision.pip_pattern import pip_pattern_box
from vision.yolo_labels import iou


def centre(box) -> tuple[float, float]:
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2


def pip_box_of_one(die_box, size: int):
    """The box a set like d6-matteop65 draws round a one: its pip (0.24 of the face) and a little margin."""
    cx, cy = centre(die_box)
    half = size * 0.12 * 1.4
    return (cx - half, cy - half, cx + half, cy + half)


def test_a_one_gives_the_box_round_its_single_pip() -> None:
    rng = np.random.default_rng(3)
    for _ in range(8):
        size = int(rng.integers(40, 80))
        img, boxes, _ = render_dice_scene(rng, 640, 480, values=[1], size_range=(size, size))
        found = pip_pattern_box(img, boxes[0], 1)
        assert found is not None
        assert iou(found, pip_box_of_one(boxes[0], size)) >= 0.5
        assert iou(found, boxes[0]) < 0.3  # the reason the die's own box misses such a label


def test_a_six_gives_a_box_over_most_of_its_face() -> None:
    img, boxes, _ = render_dice_scene(np.random.default_rng(4), 640, 480, values=[6], size_range=(60, 60))
    found = pip_pattern_box(img, boxes[0], 6)
    assert found is not None
    assert iou(found, boxes[0]) >= 0.3
    cx, cy = centre(found)
    dx, dy = centre(boxes[0])
    assert abs(cx - dx) < 6 and abs(cy - dy) < 6


def test_no_pip_no_box() -> None:
    blank = np.full((100, 100, 3), 180, np.uint8)
    assert pip_pattern_box(blank, (20, 20, 80, 80), 1) is None
    assert pip_pattern_box(blank, (20, 20, 23, 23), 1) is None  # too small to hold pips
    assert pip_pattern_box(blank, (200, 200, 300, 300), 1) is None  # off the frame
    assert pip_pattern_box(blank, (20, 20, 80, 80), 9) is None  # no such face


def test_eval_counts_a_one_labelled_by_its_pip(d6_reader, tmp_path: Path) -> None:
    """Without the pip-pattern box, every one here would count as missed and as a false detection."""
    split = tmp_path / "valid"
    (split / "images").mkdir(parents=True)
    (split / "labels").mkdir()
    rng = np.random.default_rng(8)
    for i in range(4):
        img, boxes, _ = render_dice_scene(rng, 640, 480, values=[1, 1], size_range=(55, 55))
        cv2.imwrite(str(split / "images" / f"one{i}.png"), img)
        lines = []
        for box in boxes:
            x0, y0, x1, y1 = pip_box_of_one(box, 55)
            lines.append(f"0 {(x0 + x1) / 1280:.5f} {(y0 + y1) / 960:.5f} {(x1 - x0) / 640:.5f} {(y1 - y0) / 480:.5f}")
        (split / "labels" / f"one{i}.txt").write_text("\n".join(lines) + "\n")
    score = evaluate_folder(tmp_path, d6_reader)
    summary = score.summary()
    assert summary["dice"] == 8
    assert summary["recall"] >= 0.75 and summary["precision"] >= 0.75, summary
    assert score.by_pips >= 6
    assert any("only with the box round their pips" in line for line in score.breakdown())
