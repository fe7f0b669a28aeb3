"""tools/byler_holdout.py's closer windows: the set that showed the close-dice gap must label its dice right.

A window's labels that drifted or kept a die cut in half would score the
reader against dice that are not there, which is how a measuring tool lies.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.yolo_labels import LabelledDie, format_labels, parse_labels

TOOL = Path(__file__).resolve().parents[2] / "tools" / "byler_holdout.py"
W, H = 640, 480
# Three dice for windows to centre on, and a fourth that the window round B cuts through.
DICE = [
    LabelledDie(2, (100, 100, 140, 140)),  # A
    LabelledDie(5, (300, 240, 340, 280)),  # B
    LabelledDie(3, (120, 150, 160, 190)),  # C
    LabelledDie(6, (420, 200, 460, 240)),  # D: 17% of it inside B's window
]


def byler_set(root: Path) -> Path:
    """Five photos, so the held-out fifth is the last one; only that one needs dice drawn."""
    split = root / "d6-byler" / "train"
    (split / "images").mkdir(parents=True)
    (split / "labels").mkdir()
    for n in range(5):
        img = np.full((H, W, 3), 200, np.uint8)
        for die in DICE:
            x0, y0, x1, y1 = die.box
            cv2.rectangle(img, (x0, y0), (x1, y1), (30, 30, 160), -1)
        cv2.imwrite(str(split / "images" / f"p{n}.jpg"), img)
        (split / "labels" / f"p{n}.txt").write_text(format_labels(DICE, W, H))
    return root


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(TOOL), *args], capture_output=True, text=True, timeout=60)


def test_closer_windows_hold_whole_dice_enlarged_and_skip_a_cut_one(tmp_path: Path) -> None:
    datasets = byler_set(tmp_path / "sets")
    out = tmp_path / "closer3"
    done = run(str(out), "--datasets", str(datasets), "--closer", "3")
    assert done.returncode == 0, done.stderr
    assert "2 windows of 1 held-out" in done.stdout
    # The window round B cuts D, so only A's and C's are written.
    assert sorted(p.name for p in (out / "images").iterdir()) == ["p4_0.jpg", "p4_2.jpg"]
    img = cv2.imread(str(out / "images" / "p4_0.jpg"))
    assert img.shape[:2] == (H, W)
    dice = parse_labels((out / "labels" / "p4_0.txt").read_text(), W, H)
    # A's window is 213x160 from (13.3, 40): A and C lie in it, three times bigger.
    assert [d.value for d in dice] == [2, 3]
    assert dice[0].box == pytest.approx((260, 180, 380, 300), abs=0.1)
    assert dice[1].box == pytest.approx((320, 330, 440, 450), abs=0.1)
    # The enlarged picture shows the die where its label says.
    x0, y0, x1, y1 = (round(v) for v in dice[0].box)
    assert img[y0 + 10:y1 - 10, x0 + 10:x1 - 10].mean(axis=(0, 1))[2] > 120
    assert img[5:150, 5:200].mean() > 180


def test_closer_goes_alone_and_not_below_one(tmp_path: Path) -> None:
    datasets = byler_set(tmp_path / "sets")
    both = run(str(tmp_path / "o"), "--datasets", str(datasets), "--closer", "2", "--farther", "2")
    assert both.returncode == 2 and "--closer goes alone" in both.stderr
    low = run(str(tmp_path / "o"), "--datasets", str(datasets), "--closer", "0.5")
    assert low.returncode == 2 and "--closer must be 1 or more" in low.stderr
