"""Write rendered dice seen at a slant as a `valid` split that `companion vision eval-dice` scores.

The photo sets hold few heaps of dice and few colours seen from the side; this
set (vision/oblique_dice_render.py) measures the reader on them:

    python tools/oblique_dice_set.py /tmp/oblique && companion vision eval-dice /tmp/oblique

The default seed is none that tools/train_dice.py --oblique trains on.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from vision.oblique_dice_render import render_oblique_scene  # noqa: E402
from vision.yolo_labels import LabelledDie, format_labels  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", type=Path)
    parser.add_argument("--images", type=int, default=120)
    parser.add_argument("--seed", type=int, default=424242)
    parser.add_argument("--elevation", type=float, nargs=2, default=(30.0, 80.0), metavar=("LOW", "HIGH"),
                        help="the camera's angle above the table, in degrees (drawn evenly between the two)")
    args = parser.parse_args()
    (args.out / "images").mkdir(parents=True, exist_ok=True)
    (args.out / "labels").mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(args.seed)
    dice = 0
    for index in range(args.images):
        image, boxes, values = render_oblique_scene(rng, elevation=tuple(args.elevation))
        cv2.imwrite(str(args.out / "images" / f"{index:04d}.png"), image)
        labelled = [LabelledDie(value, box) for value, box in zip(values, boxes, strict=True)]
        (args.out / "labels" / f"{index:04d}.txt").write_text(format_labels(labelled, image.shape[1], image.shape[0]))
        dice += len(labelled)
    print(f"{args.images} slanted scenes, {dice} dice, under {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
