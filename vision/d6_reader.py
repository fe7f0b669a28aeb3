"""Six-sided pip dice: find every die in a frame and read its top face.

Two small networks run through cv2.dnn (trained by tools/train_dice.py):
a heatmap detector on a frame shrunk to 320 px on its long side, then a face
classifier on a small square crop of each die, which also rejects things that are
not dice. The split keeps the detector cheap (it never needs to count pips)
and lets `read_boxes` read dice whose boxes someone else found.
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np

from vision.die_crops import CROP_MARGIN, CROP_SIZE, crop_die, crops_to_blob
from vision.frames import as_bgr
from vision.readings import Box, DieReading
from vision.yolo_labels import iou

MODEL_DIR = Path(__file__).resolve().parent / "models"
DETECTOR_FILE = "d6_detector.onnx"
CLASSIFIER_FILE = "d6_classifier.onnx"
SETTINGS_FILE = "d6_models.json"  # the classifier's crop size and margin, written by the training script
DETECTOR_LONG_SIDE = 320
DETECTOR_STRIDE = 4
BACKGROUND_CLASS = 6


class ModelMissing(FileNotFoundError):
    """The shipped ONNX files are absent: rebuild them with tools/train_dice.py."""


def load_onnx(path: Path) -> cv2.dnn.Net:
    """An ONNX model on OpenCV's classic dnn engine where there is a choice.

    OpenCV 5 defaults to its new graph engine, which ran the whole reader 13 to
    19% slower than the classic one on this project's bench machine (see
    docs/vision.md); OpenCV 4 has only the classic one.
    """
    classic = getattr(cv2.dnn, "ENGINE_CLASSIC", None)
    if classic is None:
        return cv2.dnn.readNetFromONNX(str(path))
    return cv2.dnn.readNetFromONNX(str(path), engine=classic)


def softmax(logits: np.ndarray) -> np.ndarray:
    z = logits - logits.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


class D6Reader:
    """Reads pip dice from BGR frames of any size; not thread-safe (one per camera loop).

    The default thresholds were chosen on the held-out d6-byler images (tools/byler_holdout.py),
    not on the valid splits the targets are quoted on.
    """

    def __init__(
        self,
        model_dir: Path | None = None,
        detection_threshold: float = 0.4,
        background_threshold: float = 0.3,
        long_side: int = DETECTOR_LONG_SIDE,
        mirror_below: float = 0.6,
    ) -> None:
        folder = model_dir or MODEL_DIR
        for name in (DETECTOR_FILE, CLASSIFIER_FILE):
            if not (folder / name).exists():
                raise ModelMissing(f"{folder / name} is missing; rebuild it with tools/train_dice.py")
        settings_file = folder / SETTINGS_FILE
        settings = json.loads(settings_file.read_text()) if settings_file.exists() else {}
        self.crop_size = int(settings.get("crop_size", CROP_SIZE))
        self.crop_margin = float(settings.get("crop_margin", CROP_MARGIN))
        self.detector = load_onnx(folder / DETECTOR_FILE)
        self.classifier = load_onnx(folder / CLASSIFIER_FILE)
        self.detection_threshold = detection_threshold
        self.background_threshold = background_threshold
        self.long_side = long_side
        self.mirror_below = mirror_below  # a crop whose best class is below this is also read mirrored

    def detect(self, frame: np.ndarray) -> list[tuple[Box, float]]:
        """Candidate die boxes with the detector's score, before the classifier vets them."""
        frame = as_bgr(frame)
        if frame is None:
            return []
        h, w = frame.shape[:2]
        scale = self.long_side / max(h, w)
        small = cv2.resize(frame, (max(1, round(w * scale)), max(1, round(h * scale))), interpolation=cv2.INTER_AREA)
        sh, sw = small.shape[:2]
        ph, pw = -sh % 16, -sw % 16
        if ph or pw:
            small = cv2.copyMakeBorder(small, 0, ph, 0, pw, cv2.BORDER_REPLICATE)
        blob = cv2.dnn.blobFromImage(small, 1 / 255.0)
        self.detector.setInput(blob)
        out = self.detector.forward()[0]
        heat = out[0]
        peaks = (heat >= cv2.dilate(heat, np.ones((3, 3), np.uint8))) & (heat > self.detection_threshold)
        ys, xs = np.nonzero(peaks)
        order = np.argsort(-heat[ys, xs])
        found: list[tuple[Box, float]] = []
        unit = DETECTOR_STRIDE / scale
        for i in order:
            y, x = ys[i], xs[i]
            cx = (x + out[1, y, x]) * unit
            cy = (y + out[2, y, x]) * unit
            bw = float(np.exp(np.clip(out[3, y, x], -3, 6))) * unit
            bh = float(np.exp(np.clip(out[4, y, x], -3, 6))) * unit
            box = (float(cx - bw / 2), float(cy - bh / 2), float(cx + bw / 2), float(cy + bh / 2))
            if cx >= w or cy >= h or any(iou(box, kept) > 0.5 for kept, _ in found):
                continue
            found.append((box, float(heat[y, x])))
        return found

    def classify(self, frame: np.ndarray, boxes: list[Box]) -> np.ndarray:
        """Class probabilities (N x 7: one to six pips, then "not a die") for each box.

        A crop the classifier is unsure of is read again mirrored and the two
        answers averaged: a mirror keeps "up" (which oblique photos need) and
        mends misreads that hang on a single view, and asking only for unsure
        crops keeps the common case at one pass.
        """
        frame = as_bgr(frame)
        if not boxes or frame is None:
            return np.zeros((0, 7), np.float32)
        crops = [crop_die(frame, box, self.crop_size, self.crop_margin) for box in boxes]
        probs = self._forward(crops)
        unsure = np.nonzero(probs.max(axis=1) < self.mirror_below)[0]
        if len(unsure):
            mirrored = self._forward([np.ascontiguousarray(crops[i][:, ::-1]) for i in unsure])
            probs[unsure] = (probs[unsure] + mirrored) / 2
        return probs

    def _forward(self, crops: list[np.ndarray]) -> np.ndarray:
        self.classifier.setInput(crops_to_blob(crops))
        return softmax(self.classifier.forward().reshape(len(crops), -1))

    def read_boxes(self, frame: np.ndarray, boxes: list[Box]) -> list[DieReading]:
        """Read dice whose boxes are already known: one reading per box, never "not a die".

        A frame that is not a usable image gives no readings at all.
        """
        frame = as_bgr(frame)
        if frame is None:
            return []
        probs = self.classify(frame, boxes)
        readings = []
        for box, p in zip(boxes, probs, strict=True):
            faces = p[:6] / max(float(p[:6].sum()), 1e-9)
            value = int(np.argmax(faces))
            readings.append(DieReading(value + 1, None, float(faces[value]), tuple(box)))
        return readings

    def read(self, frame: np.ndarray) -> list[DieReading]:
        """Every die in the frame, left to right; an empty or unreadable frame gives no dice."""
        frame = as_bgr(frame)
        if frame is None:
            return []
        candidates = self.detect(frame)
        probs = self.classify(frame, [box for box, _ in candidates])
        readings = []
        for (box, score), p in zip(candidates, probs, strict=True):
            if p[BACKGROUND_CLASS] >= self.background_threshold:
                continue
            value = int(np.argmax(p[:6]))
            confidence = float(p[value] / max(float(p[:6].sum()), 1e-9)) * min(1.0, score / 0.5)
            readings.append(DieReading(value + 1, None, confidence, box))
        return sorted(readings, key=lambda r: (r.box[0], r.box[1]))
