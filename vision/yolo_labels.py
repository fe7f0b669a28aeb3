"""Reading the photo sets' YOLO layout (``<split>/images``, ``<split>/labels``)."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from vision.readings import Box

IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff"}  # what OpenCV here reads


@dataclass(frozen=True)
class LabelledDie:
    value: int
    box: Box


@dataclass(frozen=True)
class LabelledImage:
    image: Path
    label: Path | None


class LabelUnreadable(ValueError):
    """A label file whose text cannot be taken for YOLO lines; it says why and how to mend it."""


def find_splits(root: Path, tell: Callable[[str], None] | None = None) -> list[Path]:
    """Every folder under root (root included) that holds an ``images`` folder: DIR may be a set or one split.

    Searching a big tree (a whole disk given by mistake) takes minutes, so
    `tell`, if given, hears how far the search has got after every folder.
    Links to folders are not followed, as `Path.rglob` never followed them.
    """
    if (root / "images").is_dir():
        return [root]
    found = []
    for searched, (folder, subfolders, _) in enumerate(os.walk(root), 1):
        if "images" in subfolders:
            found.append(Path(folder))
        if tell:
            tell(f"searched {searched} folders under {root} for <split>/images")
    return sorted(found)


def unreadable_folders(root: Path) -> list[str]:
    """The folders under root (root included) this user may not look into, each with why: a set none of whose
    photos could be listed was said to hold "no images", and the café looked for photos that were there."""
    problems: list[str] = []
    for _ in os.walk(root, onerror=lambda exc: problems.append(f"{exc.filename} ({exc.strerror or exc})")):
        pass
    return problems


def list_images(root: Path, tell: Callable[[str], None] | None = None) -> list[LabelledImage]:
    """Every image of every split with its label file, which mirrors its place under ``labels`` (subfolders of
    ``images`` included, as YOLO's own loaders read them).

    An entry named like an image that is a folder, a link to nothing or a
    pipe is listed too: a reader skips it as unreadable and `eval-dice` names
    it, where leaving it out hid an image a set was thought to hold.
    """
    out = []
    for split in find_splits(root, tell):
        images = split / "images"
        named_so = (p for p in images.rglob("*") if p.suffix.lower() in IMAGE_SUFFIXES)
        for image in sorted(named_so):
            label = (split / "labels" / image.relative_to(images)).with_suffix(".txt")
            out.append(LabelledImage(image, label if label.exists() else None))
    return out


def label_text(path: Path) -> str:
    """A label file's text, as UTF-8 or, with its byte-order mark, UTF-16 (which Windows Notepad saves).

    Read as UTF-8, a UTF-16 file gave a garbled complaint for every line.
    OSError when the file cannot be read (a folder, no permission);
    LabelUnreadable when it holds NUL bytes without telling their encoding.
    """
    if path.exists() and not path.is_file() and not path.is_dir():  # read, a pipe waits for a writer for ever
        raise LabelUnreadable("is a pipe or device, not a file")
    data = path.read_bytes()
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16", errors="replace")
    if b"\0" in data:
        raise LabelUnreadable("holds NUL bytes (saved as UTF-16 without a byte-order mark?); save it as UTF-8")
    return data.decode("utf-8", errors="replace")


def parse_labels(text: str, width: int, height: int, problems: list[str] | None = None) -> list[LabelledDie]:
    """YOLO lines ``class cx cy w h`` (fractions) as pixel boxes.

    A line ``class x1 y1 x2 y2 x3 y3 ...`` (YOLO's outline of a segmented
    object, which sets exported for segmentation hold) counts as the box
    round its outline, as YOLO's own trainers read it: a die labelled by its
    outline is still a die to find.

    A line that is not a d6 die (neither of those, a class outside 0-5, a box
    whose centre is off the image or that is wider or taller than it) is
    skipped rather than scored: a hand-made set's typo must not count as a
    die the reader missed. Each skip is described in `problems`. A box whose
    centre is on the image but that reaches past its edge (a die the photo
    cuts) is clipped to the image: the die is there, only its box overshoots.
    """
    dice = []
    text = text.removeprefix("\ufeff")  # the byte-order mark some Windows editors put before the first line
    for number, line in enumerate(text.splitlines(), 1):
        parts = line.split()
        if not parts:
            continue
        problem = None
        try:
            number_class = float(parts[0])
            values = [float(p) for p in parts[1:]]
            if len(values) == 4:
                cx, cy, w, h = values
            elif len(values) >= 6 and len(values) % 2 == 0:
                xs, ys = values[0::2], values[1::2]
                cx, cy, w, h = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2, max(xs) - min(xs), max(ys) - min(ys)
            else:
                raise ValueError
            if not number_class.is_integer():
                raise ValueError
            cls = int(number_class)
        except ValueError:
            problem = "not 'class cx cy w h' nor 'class' and an outline's corners"
        else:
            box = (max(0.0, cx - w / 2) * width, max(0.0, cy - h / 2) * height,
                   min(1.0, cx + w / 2) * width, min(1.0, cy + h / 2) * height)
            if not 0 <= cls <= 5:
                problem = f"class {cls} is no d6 face (0-5 stand for one to six pips)"
            elif not (0 <= cx <= 1 and 0 <= cy <= 1 and 0 < w <= 1 and 0 < h <= 1):
                problem = "the box is not inside the image (fractions 0-1)"
            elif box[2] <= box[0] or box[3] <= box[1]:  # too thin to tell from nothing in pixels
                problem = "the box has no width or height in the image's pixels"
        if problem:
            if problems is not None:
                problems.append(f"line {number} {line.strip()[:40]!r}: {problem}")
            continue
        dice.append(LabelledDie(cls + 1, box))
    return dice


def format_labels(dice: list[LabelledDie], width: int, height: int) -> str:
    """The YOLO lines `parse_labels` reads back: class = pips minus one, box as fractions of the image."""
    return "".join(
        f"{die.value - 1} {(x0 + x1) / 2 / width:.6f} {(y0 + y1) / 2 / height:.6f} "
        f"{(x1 - x0) / width:.6f} {(y1 - y0) / height:.6f}\n"
        for die in dice for x0, y0, x1, y1 in [die.box]
    )


def iou(a: Box, b: Box) -> float:
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def centre_inside(box: Box, outer: Box) -> bool:
    """Whether box's centre lies in outer: the same die under another box convention (pips only, whole die)."""
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    return outer[0] <= cx <= outer[2] and outer[1] <= cy <= outer[3]
