"""Make a symlinked `valid` split of d6-byler's held-out images (every fifth, sorted by name).

tools/train_dice.py never trains on these, so `vision eval-dice OUT_DIR` measures
the reader on byler's coloured and marbled dice too:

    python tools/byler_holdout.py /tmp/byler-holdout && companion vision eval-dice /tmp/byler-holdout

With `--farther F` each image is instead written in the middle of a canvas F
times its size (filled with the image's median colour) and shrunk back, so its
dice are F times smaller against the frame: a camera further from the table.
With `--closer Z` it works the other way: up to three windows of each image, 1/Z of
its size and centred on one of its first three dice, are enlarged back to the
image's size, so its dice are Z times bigger (a camera close over the tray, or
a phone photo of a few dice); a window that cuts a die is left out.
With `--tilt T` the camera leans back from straight down (the frame's far edge
T of its width narrower). With `--spoil KIND` each image is written spoilt the
way a poor camera or room would (see SPOILS), to see which of them the reader
copes with; the labels stay.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vision.yolo_labels import LabelledDie, format_labels, parse_labels  # noqa: E402


def _scaled(img, factor: float):
    import numpy as np

    return np.clip(img.astype(np.float32) * factor, 0, 255).astype(np.uint8)


def _jpeg(img, quality: int):
    import cv2

    return cv2.imdecode(cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, quality])[1], cv2.IMREAD_COLOR)


def _noisy(img, sigma: float):
    import numpy as np

    noise = np.random.default_rng(0).normal(0, sigma, img.shape)
    return np.clip(img.astype(np.float32) + noise, 0, 255).astype(np.uint8)


def _smeared(img, length: int):
    import cv2
    import numpy as np

    return cv2.filter2D(img, -1, np.full((1, length), 1 / length, np.float32))


def _squeezed(img, x: float, y: float):
    """The photo squeezed along one axis: the labels, fractions of the frame, still fit."""
    import cv2

    h, w = img.shape[:2]
    return cv2.resize(img, (round(w * x), round(h * y)), interpolation=cv2.INTER_AREA)


def _grey(img):
    import cv2

    return cv2.cvtColor(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)


SPOILS = {
    "dark": lambda img: _scaled(img, 0.45),
    "bright": lambda img: _scaled(img, 1.6),
    "warm": lambda img: _scaled(img, (0.7, 0.95, 1.25)),  # BGR: a tungsten lamp
    "grey": _grey,
    "noise": lambda img: _noisy(img, 12),
    "jpeg": lambda img: _jpeg(img, 20),
    "shake": lambda img: _smeared(img, 9),  # a die still rolling, or a hand-held phone: 9 px smear
    # A photo squeezed into another shape, as photo sets squeeze phone photos into squares: 0.7 of the width
    # or of the height (a 4:3 photo made square is squeezed to 0.75).
    "narrow": lambda img: _squeezed(img, 0.7, 1.0),
    "flat": lambda img: _squeezed(img, 1.0, 0.7),
}


def write_changed(image: Path, label: Path, out: Path, factor: float, spoil=None, tilt: float = 0.0) -> None:
    """Write the image `factor` times farther (1: as far as it was), tilted, then spoilt, with its labels to match."""
    import cv2
    import numpy as np

    img = cv2.imread(str(image))
    h, w = img.shape[:2]
    big_h, big_w = round(h * factor), round(w * factor)
    top, left = (big_h - h) // 2, (big_w - w) // 2
    fill = [int(v) for v in np.median(img.reshape(-1, 3), axis=0)]
    canvas = cv2.copyMakeBorder(img, top, big_h - h - top, left, big_w - w - left, cv2.BORDER_CONSTANT, value=fill)
    img = cv2.resize(canvas, (w, h), interpolation=cv2.INTER_AREA)
    sx, sy = w / big_w, h / big_h
    # (value, x0, y0, x1, y1) in output pixels
    boxes = [(die.value, (x0 + left) * sx, (y0 + top) * sy, (x1 + left) * sx, (y1 + top) * sy)
             for die in _labelled(label, w, h) for x0, y0, x1, y1 in [die.box]]
    if tilt:
        # The far (top) edge drawn `tilt` of the width narrower: a camera leaning back from straight down.
        corners = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
        leaned = np.float32([[w * tilt / 2, 0], [w * (1 - tilt / 2), 0], [w, h], [0, h]])
        matrix = cv2.getPerspectiveTransform(corners, leaned)
        img = cv2.warpPerspective(img, matrix, (w, h), borderMode=cv2.BORDER_REPLICATE)
        moved = []
        for value, x0, y0, x1, y1 in boxes:
            points = np.float32([[x0, y0], [x1, y0], [x1, y1], [x0, y1]]).reshape(-1, 1, 2)
            seen = cv2.perspectiveTransform(points, matrix).reshape(-1, 2)
            moved.append((value, *seen.min(0), *seen.max(0)))
        boxes = moved
    cv2.imwrite(str(out / "images" / image.name), spoil(img) if spoil else img)
    dice = [LabelledDie(value, (x0, y0, x1, y1)) for value, x0, y0, x1, y1 in boxes]
    (out / "labels" / label.name).write_text(format_labels(dice, w, h))


def _labelled(label: Path, w: int, h: int) -> list[LabelledDie]:
    """The label file's dice in pixels; a photo without one shows none."""
    return parse_labels(label.read_text(), w, h) if label.exists() else []


def write_closer(image: Path, label: Path, out: Path, zoom: float) -> int:
    """Write up to three windows of the image enlarged `zoom` times, each centred on one of its first three dice;
    how many were written. A window that cuts a die (5-95% of it inside) is skipped, since whether the cut die
    should be found has no one answer."""
    import cv2

    img = cv2.imread(str(image))
    h, w = img.shape[:2]
    dice = _labelled(label, w, h)
    cw, ch = w / zoom, h / zoom
    written = 0
    for n, (x0, y0, x1, y1) in enumerate(die.box for die in dice[:3]):
        left = min(max(0.0, (x0 + x1) / 2 - cw / 2), w - cw)
        top = min(max(0.0, (y0 + y1) / 2 - ch / 2), h - ch)
        inside = []
        for die in dice:
            bx0, by0, bx1, by1 = die.box
            ix0, iy0, ix1, iy1 = max(bx0, left), max(by0, top), min(bx1, left + cw), min(by1, top + ch)
            share = max(0.0, ix1 - ix0) * max(0.0, iy1 - iy0) / max(1e-9, (bx1 - bx0) * (by1 - by0))
            if 0.05 < share < 0.95:
                break
            if share >= 0.95:
                inside.append(LabelledDie(die.value, ((ix0 - left) * zoom, (iy0 - top) * zoom,
                                                      (ix1 - left) * zoom, (iy1 - top) * zoom)))
        else:
            window = img[round(top):round(top + ch), round(left):round(left + cw)]
            name = f"{image.stem}_{n}"
            cv2.imwrite(str(out / "images" / f"{name}.jpg"), cv2.resize(window, (w, h), interpolation=cv2.INTER_CUBIC))
            (out / "labels" / f"{name}.txt").write_text(format_labels(inside, w, h))
            written += 1
    return written


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", type=Path)
    parser.add_argument("--datasets", type=Path, default=ROOT.parent / "shared" / "datasets")
    parser.add_argument("--farther", type=float, default=1.0, metavar="F", help="shrink the dice F times (F >= 1)")
    parser.add_argument("--closer", type=float, default=1.0, metavar="Z",
                        help="enlarge windows round the dice Z times (Z > 1; not with the other changes)")
    parser.add_argument("--spoil", choices=sorted(SPOILS), help="write each image spoilt this way")
    parser.add_argument("--tilt", type=float, default=0.0, metavar="T",
                        help="lean the camera back: the far edge T of the width narrower (0 <= T < 1)")
    args = parser.parse_args()
    if args.farther < 1:
        parser.error("--farther must be 1 or more")
    if not 0 <= args.tilt < 1:
        parser.error("--tilt must be at least 0 and under 1")
    if args.closer < 1:
        parser.error("--closer must be 1 or more")
    if args.closer > 1 and (args.farther > 1 or args.spoil or args.tilt):
        parser.error("--closer goes alone: not with --farther, --spoil or --tilt")
    split = args.datasets / "d6-byler" / "train"
    images = sorted((split / "images").glob("*.jpg"))
    if not images:
        print(f"no d6-byler images under {split}")
        return 2
    (args.out / "images").mkdir(parents=True, exist_ok=True)
    (args.out / "labels").mkdir(parents=True, exist_ok=True)
    held = images[4::5]
    if args.closer > 1:
        windows = sum(write_closer(image, split / "labels" / (image.stem + ".txt"), args.out, args.closer)
                      for image in held)
        print(f"{windows} windows of {len(held)} held-out d6-byler images, {args.closer}x closer, under {args.out}")
        return 0
    for image in held:
        label = split / "labels" / (image.stem + ".txt")
        if args.farther > 1 or args.spoil or args.tilt:
            write_changed(image, label, args.out, args.farther, SPOILS.get(args.spoil), args.tilt)
            continue
        for src, dst in ((image, args.out / "images" / image.name), (label, args.out / "labels" / label.name)):
            if not dst.exists() and src.exists():
                dst.symlink_to(src)
    changes = [f"{args.farther}x farther"] if args.farther > 1 else []
    changes += [f"tilted {args.tilt}"] if args.tilt else []
    changes += [args.spoil] if args.spoil else []
    how = "written " + ", ".join(changes) if changes else "linked"
    print(f"{len(held)} held-out d6-byler images {how} under {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
