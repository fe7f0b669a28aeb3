"""Make a symlinked `valid` split of d6-byler's held-out images (every fifth, sorted by name).

tools/train_dice.py never trains on these, so `vision eval-dice OUT_DIR` measures
the reader on byler's coloured and marbled dice too:

    python tools/byler_holdout.py /tmp/byler-holdout && companion vision eval-dice /tmp/byler-holdout

With `--farther F` each image is instead written in the middle of a canvas F
times its size (filled with the image's median colour) and shrunk back, so its
dice are F times smaller against the frame: a camera further from the table.
"""

from __future__ import annotations

import argparse
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def write_farther(image: Path, label: Path, out: Path, factor: float) -> None:
    import cv2
    import numpy as np

    img = cv2.imread(str(image))
    h, w = img.shape[:2]
    big_h, big_w = round(h * factor), round(w * factor)
    top, left = (big_h - h) // 2, (big_w - w) // 2
    fill = [int(v) for v in np.median(img.reshape(-1, 3), axis=0)]
    canvas = cv2.copyMakeBorder(img, top, big_h - h - top, left, big_w - w - left, cv2.BORDER_CONSTANT, value=fill)
    cv2.imwrite(str(out / "images" / image.name), cv2.resize(canvas, (w, h), interpolation=cv2.INTER_AREA))
    lines = []
    for line in label.read_text().splitlines() if label.exists() else []:
        parts = line.split()
        if len(parts) == 5:
            cx, cy, bw, bh = (float(v) for v in parts[1:])
            lines.append(f"{parts[0]} {(cx * w + left) / big_w:.6f} {(cy * h + top) / big_h:.6f} "
                         f"{bw * w / big_w:.6f} {bh * h / big_h:.6f}")
    (out / "labels" / label.name).write_text("".join(line + "\n" for line in lines))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", type=Path)
    parser.add_argument("--datasets", type=Path, default=ROOT.parent / "shared" / "datasets")
    parser.add_argument("--farther", type=float, default=1.0, metavar="F", help="shrink the dice F times (F >= 1)")
    args = parser.parse_args()
    if args.farther < 1:
        parser.error("--farther must be 1 or more")
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
        if args.farther > 1:
            write_farther(image, label, args.out, args.farther)
            continue
        for src, dst in ((image, args.out / "images" / image.name), (label, args.out / "labels" / label.name)):
            if not dst.exists() and src.exists():
                dst.symlink_to(src)
    how = f"written {args.farther}x farther" if args.farther > 1 else "linked"
    print(f"{len(held)} held-out d6-byler images {how} under {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
