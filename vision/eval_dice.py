"""Scoring the d6 reader on a folder in the photo sets' layout (the `vision eval-dice` command)."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import cv2

from vision.d6_reader import D6Reader
from vision.yolo_labels import iou, list_images, parse_labels

MATCH_IOU = 0.5


@dataclass
class DiceScore:
    images: int = 0
    dice: int = 0
    read_right: int = 0
    found_right: int = 0
    detections: int = 0
    images_right: int = 0
    unreadable: int = 0
    seconds: float = 0.0

    def summary(self) -> dict[str, float | int]:
        return {
            "read_accuracy": round(self.read_right / self.dice, 4) if self.dice else 0.0,
            "precision": round(self.found_right / self.detections, 4) if self.detections else 0.0,
            "recall": round(self.found_right / self.dice, 4) if self.dice else 0.0,
            "image_accuracy": round(self.images_right / self.images, 4) if self.images else 0.0,
            "ms_per_image": round(1000 * self.seconds / self.images, 2) if self.images else 0.0,
            "images": self.images,
            "dice": self.dice,
        }


def match_right(found: list, labelled: list) -> int:
    """Greedy IoU matching, best pairs first; a pair counts only if the value is right too."""
    pairs = sorted(
        ((iou(f.box, t.box), i, j) for i, f in enumerate(found) for j, t in enumerate(labelled)),
        reverse=True,
    )
    used_f, used_t, right = set(), set(), 0
    for overlap, i, j in pairs:
        if overlap < MATCH_IOU:
            break
        if i in used_f or j in used_t:
            continue
        used_f.add(i)
        used_t.add(j)
        right += found[i].value == labelled[j].value
    return right


def evaluate_folder(root: Path, reader: D6Reader) -> DiceScore:
    score = DiceScore()
    for item in list_images(root):
        frame = cv2.imread(str(item.image))
        if frame is None:
            score.unreadable += 1
            continue
        h, w = frame.shape[:2]
        labelled = parse_labels(item.label.read_text(errors="replace"), w, h) if item.label else []
        start = time.perf_counter()
        found = reader.read(frame)
        score.seconds += time.perf_counter() - start
        given = reader.read_boxes(frame, [d.box for d in labelled])
        score.images += 1
        score.dice += len(labelled)
        score.read_right += sum(g.value == t.value for g, t in zip(given, labelled, strict=True))
        right = match_right(found, labelled)
        score.found_right += right
        score.detections += len(found)
        score.images_right += right == len(labelled) == len(found)
    return score
