"""Make a symlinked `valid` split of d6-byler's held-out images (every fifth, sorted by name).

tools/train_dice.py never trains on these, so `vision eval-dice OUT_DIR` measures
the reader on byler's coloured and marbled dice too:

    python tools/byler_holdout.py /tmp/byler-holdout && companion vision eval-dice /tmp/byler-holdout
"""

from __future__ import annotations

import argparse
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", type=Path)
    parser.add_argument("--datasets", type=Path, default=ROOT.parent / "shared" / "datasets")
    args = parser.parse_args()
    split = args.datasets / "d6-byler" / "train"
    images = sorted((split / "images").glob("*.jpg"))
    if not images:
        print(f"no d6-byler images under {split}")
        return 2
    (args.out / "images").mkdir(parents=True, exist_ok=True)
    (args.out / "labels").mkdir(parents=True, exist_ok=True)
    held = images[4::5]
    for image in held:
        label = split / "labels" / (image.stem + ".txt")
        for src, dst in ((image, args.out / "images" / image.name), (label, args.out / "labels" / label.name)):
            if not dst.exists() and src.exists():
                dst.symlink_to(src)
    print(f"{len(held)} held-out d6-byler images linked under {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
