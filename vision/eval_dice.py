"""Scoring the d6 reader on a folder in the photo sets' layout (the `vision eval-dice` command)."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

import numpy as np

from companion.observations import CONFIRM_BELOW
from vision.board_photos import shadowed
from vision.ctrl_c import until_ctrl_c
from vision.d6_reader import D6Reader
from vision.frames import as_bgr, decode_image, too_large
from vision.pip_pattern import pip_pattern_box
from vision.readings import Box
from vision.sources import counted, first_few
from vision.yolo_labels import LabelledImage, LabelUnreadable, centre_inside, iou, label_text, list_images, parse_labels

MATCH_IOU = 0.5
SHADOW_SEED = 7  # of the bands `--shadow` lays (`evaluate_folder`)


def share(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


@dataclass
class DiceScore:
    images: int = 0
    dice: int = 0
    read_right: int = 0
    found_right: int = 0
    detections: int = 0
    images_right: int = 0
    unreadable: int = 0
    unreadable_files: list[str] = field(default_factory=list)  # each with why, so a café can find and fix it
    unlabelled_files: int = 0  # images with no label file beside them: scored as showing no die
    seconds: float = 0.0
    # Where the misses are (printed without --json): labelled dice by face value that were
    # not found right, and why; detections in images whose label file lists no die.
    labelled_by_value: Counter = field(default_factory=Counter)
    missed_by_value: Counter = field(default_factory=Counter)
    wrong_value: int = 0
    box_off: int = 0
    unlabelled_image_detections: int = 0
    by_pips: int = 0  # dice found right whose label fits only the box round their pips
    bad_labels: list[str] = field(default_factory=list)  # label lines skipped, each with its file and why
    # Found dice by what they are ("right", "wrong" value, "unmatched" to any label), and how many of
    # each the table would put to the players for a tap rather than apply (confidence under CONFIRM_BELOW).
    found_by_kind: Counter = field(default_factory=Counter)
    asked_by_kind: Counter = field(default_factory=Counter)
    # Dice whose value the image's readings hold, boxes aside (per image, the values read and labelled in common).
    values_in_common: int = 0
    stopped: bool = False  # by Ctrl-C: the images read so far are scored, the rest not (`vision.ctrl_c`)

    def summary(self) -> dict[str, float | int | None]:
        """The scores; a share with nothing to count (no labelled die, no detection) is None, not 0: photos
        of an empty table, labelled as such, would otherwise look like a reader that fails them all."""
        return {
            "read_accuracy": share(self.read_right, self.dice),
            "precision": share(self.found_right, self.detections),
            "recall": share(self.found_right, self.dice),
            "image_accuracy": share(self.images_right, self.images),
            "ms_per_image": round(1000 * self.seconds / self.images, 2) if self.images else None,
            "images": self.images,
            "dice": self.dice,
        }

    def breakdown(self) -> list[str]:
        """Why recall falls short, in lines a person reads: the --json keys are fixed by the command."""
        lines = []
        if self.dice:
            per_value = ", ".join(
                f"{value}: {self.missed_by_value[value]}/{self.labelled_by_value[value]}"
                for value in sorted(self.labelled_by_value)
            )
            lines.append(f"missed by face (missed/labelled): {per_value}")
            lines.append(
                f"of the missed: {self.wrong_value} found with the wrong value, {self.box_off} found "
                f"but boxed differently (centre inside the label, IoU under {MATCH_IOU}), "
                f"{self.dice - self.found_right - self.wrong_value - self.box_off} not found"
            )
        if self.by_pips:
            lines.append(
                f"{self.by_pips} found right fit their label only with the box round their pips "
                "(sets that box the pip pattern, not the die)"
            )
        if self.dice and self.detections:
            lines.append(self.values_line())
        if self.found_by_kind:
            lines.append(self.asking_line())
        unlabelled = self.unlabelled_image_detections
        if unlabelled:
            lines.append(f"{unlabelled} detections are in images whose label file lists no die "
                         "(they all count against precision)")
            if self.detections > unlabelled:
                elsewhere = self.found_right / (self.detections - unlabelled)
                lines.append(f"  precision over the other images: {elsewhere:.4f}")
            if self.dice:
                # A set whose photos of dice went unlabelled caps precision below 1 for every reader, a perfect one too.
                lines.append(f"  if they are dice the labels left out, a reader finding every labelled die and them "
                             f"scores precision {self.dice / (self.dice + unlabelled):.4f} at most")
        return lines

    def skips(self) -> list[str]:
        """What the scores leave out, in lines a person reads; with --json they go to stderr, its keys being fixed,
        so a set scored by a script still tells what it skipped."""
        lines = []
        if self.bad_labels:
            lines.append(f"skipped {len(self.bad_labels)} label lines that are not d6 dice, e.g.:")
            lines += [f"  {problem}" for problem in self.bad_labels[:5]]
        if self.unlabelled_files:
            lines.append(f"{self.unlabelled_files} images have no label file (scored as showing no die)")
        if self.unreadable:
            lines.append(f"skipped {counted(self.unreadable, 'unreadable image file')}: "
                         f"{first_few(self.unreadable_files)}")
        return lines

    def values_line(self) -> str:
        """Precision and recall of the values alone, image by image, whatever box each die was given.

        The table moves by the values rolled, never by a box; a set labelled with a different box
        convention than the reader's (whole dice seen close up, where the reader boxes the top face)
        shows up as a gap between these and the boxed scores, not as dice the table would get wrong.
        """
        return (f"values alone, boxes aside: precision {self.values_in_common / self.detections:.4f}, "
                f"recall {self.values_in_common / self.dice:.4f} (each image's values read and labelled in common)")

    def asking_line(self) -> str:
        """How often a table with this camera would ask, and how often a wrong reading would slip through.

        A misread die the table asks about costs a tap; one it applies costs the game a wrong move, so a
        café judges a camera by the second number more than by the accuracy alone.
        """
        found, asked = self.found_by_kind, self.asked_by_kind
        parts = [f"{asked[kind]} of {found[kind]} {what}" for kind, what in (
            ("right", "read right"), ("wrong", "read wrong"), ("unmatched", "matching no labelled die"))
            if found[kind]]
        slipped = found["wrong"] - asked["wrong"]
        return (f"a table would ask for a tap (confidence under {CONFIRM_BELOW}) on {', '.join(parts)}"
                + (f"; {slipped} read wrong would be applied unasked" if found["wrong"] else ""))


def overlap(die: Box, pips: Box | None, label: Box) -> float:
    """A label's IoU with a found die: with its box, or with the box round its pips where that fits better."""
    return max(iou(die, label), iou(pips, label) if pips else 0.0)


def match(found: list, labelled: list, pips: list[Box | None] | None = None) -> list[tuple[int, int]]:
    """Greedy matching, best pairs first: (found index, labelled index) pairs with overlap >= MATCH_IOU.

    `pips` holds each found die's pip-pattern box (or None), for sets whose labels box the pips.
    """
    pip_boxes = pips or [None] * len(found)
    pairs = sorted(
        ((overlap(f.box, p, t.box), i, j) for i, (f, p) in enumerate(zip(found, pip_boxes, strict=True))
         for j, t in enumerate(labelled)),
        reverse=True,
    )
    used_f, used_t, matched = set(), set(), []
    for best, i, j in pairs:
        if best < MATCH_IOU:
            break
        if i in used_f or j in used_t:
            continue
        used_f.add(i)
        used_t.add(j)
        matched.append((i, j))
    return matched


def tally_misses(score: DiceScore, found: list, labelled: list, matched: list[tuple[int, int]]) -> None:
    """Sorts each labelled die that was not found right by why, so a low recall can be read at a glance."""
    by_label = {j: i for i, j in matched}
    for j, die in enumerate(labelled):
        score.labelled_by_value[die.value] += 1
        i = by_label.get(j)
        if i is not None and found[i].value == die.value:
            continue
        score.missed_by_value[die.value] += 1
        if i is not None:
            score.wrong_value += 1
        elif any(centre_inside(f.box, die.box) for f in found):
            score.box_off += 1
    if not labelled:
        score.unlabelled_image_detections += len(found)


def tally_asks(score: DiceScore, found: list, labelled: list, matched: list[tuple[int, int]]) -> None:
    """Sorts the found dice by kind and counts those sure enough to be applied without a tap."""
    label_of = dict(matched)
    for i, die in enumerate(found):
        j = label_of.get(i)
        kind = "unmatched" if j is None else "right" if labelled[j].value == die.value else "wrong"
        score.found_by_kind[kind] += 1
        score.asked_by_kind[kind] += die.confidence < CONFIRM_BELOW


def values_in_common(found: list, labelled: list) -> int:
    """How many of an image's labelled values were read, each read value counted against one label only."""
    return sum((Counter(f.value for f in found) & Counter(t.value for t in labelled)).values())


def progress_line(stream: TextIO, every: float = 5.0) -> Callable[[str], None] | None:
    """Where a long run says how far it has got: a line on `stream` at most every `every` seconds, if a person
    watches it (a terminal); None otherwise. DIR given as / searched the whole disk for minutes in silence."""
    if not stream.isatty():
        return None
    last = time.monotonic()

    def tell(message: str) -> None:
        nonlocal last
        if time.monotonic() - last >= every:
            last = time.monotonic()
            print(f"eval-dice: {message} ...", file=stream, flush=True)

    return tell


def jpeg_cut_short(data: bytes) -> bool:
    """Whether a JPEG file's bytes end before its image does (a copy or download cut off).

    OpenCV decodes such a file's first rows and fills the rest in grey, saying
    only "Premature end of JPEG file" about no file in particular, so it was
    scored as a photo whose dice the reader missed. A whole JPEG has its end
    marker (FF D9) after the start of its first scan; a thumbnail's end marker
    in the headers comes before that, and what some cameras append after the
    image (a motion photo's video) after it, so neither fools the check. A file
    whose headers do not parse is left for OpenCV to judge.
    """
    if not data.startswith(b"\xff\xd8"):
        return False
    at = 2
    while at + 4 <= len(data) and data[at] == 0xFF:
        marker = data[at + 1]
        if marker == 0xDA:  # the start of scan: the image's coded data follows
            return data.find(b"\xff\xd9", at) < 0
        if marker == 0xFF:  # a fill byte before a marker
            at += 1
        elif 0xD0 <= marker <= 0xD7 or marker == 0x01:  # markers without a length
            at += 2
        else:
            at += 2 + int.from_bytes(data[at + 2:at + 4], "big")
    return at + 4 > len(data)  # the headers themselves cut off


def read_image(path: Path) -> tuple[np.ndarray | None, str | None]:
    """An entry named like an image, decoded from one read of its bytes, or None and why it cannot be used."""
    if path.is_dir():
        return None, "a folder, not an image"
    if not path.exists():
        return None, "a link to nothing"
    if not path.is_file():
        return None, "not a regular file"
    try:
        data = path.read_bytes()
    except OSError as exc:
        return None, f"cannot be read: {exc.strerror or exc}"
    if jpeg_cut_short(data):
        return None, "a JPEG cut short"
    image = decode_image(data)
    return (image, None) if image is not None else (None, too_large(data) or "not a readable image")


def evaluate_folder(root: Path, reader: D6Reader, tell: Callable[[str], None] | None = None,
                    images: list[LabelledImage] | None = None, shadow: float = 0.0) -> DiceScore:
    """The reader's scores on every labelled image under root (or on `images`, listed from it already).

    An image that cannot be used (unreadable, too small, its label file
    unreadable) is skipped and named in `unreadable_files`, so one bad file
    in a set of thousands costs its own score, not the whole run's. With
    ``shadow`` a hard shadow's band of that depth lies across every image
    (`board_photos.shadowed`, drawn from SHADOW_SEED: the same set, the same bands).
    """
    score = DiceScore()
    shadows = np.random.default_rng(SHADOW_SEED)
    items = list_images(root, tell) if images is None else images
    with until_ctrl_c(score):
        for done, item in enumerate(items):
            if tell:
                tell(f"read {done} of {len(items)} images")
            frame, why = read_image(item.image)
            text = None
            if frame is not None and as_bgr(frame) is None:
                why = f"{frame.shape[1]}x{frame.shape[0]} px, too small"  # no dice at all, unlike its label's
            elif frame is not None and item.label:
                try:
                    text = label_text(item.label)
                except OSError as exc:
                    why = f"its label file {item.label.name} cannot be read: {exc.strerror or exc}"
                except LabelUnreadable as exc:
                    why = f"its label file {item.label.name} {exc}"
            if frame is None or why:
                score.unreadable += 1
                score.unreadable_files.append(f"{item.image.name} ({why or 'not a readable image'})")
                continue
            score.unlabelled_files += item.label is None
            frame = shadowed(as_bgr(frame), shadows, shadow) if shadow else frame
            h, w = frame.shape[:2]
            problems: list[str] = []
            labelled = parse_labels(text, w, h, problems) if text is not None else []
            score.bad_labels += [f"{item.label.name} {problem}" for problem in problems]
            start = time.perf_counter()
            found = reader.read(frame)
            score.seconds += time.perf_counter() - start
            given = reader.read_boxes(frame, [d.box for d in labelled])
            pips = [pip_pattern_box(frame, f.box, f.value) for f in found]
            score.images += 1
            score.dice += len(labelled)
            score.read_right += sum(g.value == t.value for g, t in zip(given, labelled, strict=True))
            matched = match(found, labelled, pips)
            right = sum(found[i].value == labelled[j].value for i, j in matched)
            score.by_pips += sum(
                found[i].value == labelled[j].value and iou(found[i].box, labelled[j].box) < MATCH_IOU
                for i, j in matched
            )
            tally_misses(score, found, labelled, matched)
            tally_asks(score, found, labelled, matched)
            score.values_in_common += values_in_common(found, labelled)
            score.found_right += right
            score.detections += len(found)
            score.images_right += right == len(labelled) == len(found)
    return score
