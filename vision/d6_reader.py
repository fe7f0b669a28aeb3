"""Six-sided pip dice: find every die in a frame and read its top face.

Two small networks run through cv2.dnn (trained by tools/train_dice.py):
a heatmap detector on a frame shrunk to 320 px on its long side, then a face
classifier on a small square crop of each die, which also rejects things that are
not dice. The split keeps the detector cheap (it never needs to count pips)
and lets `read_boxes` read dice whose boxes someone else found. When the fine
look's answer looks like a die held close to the camera (nothing, big pieces,
pips read as ones), a second look at 128 px finds it whole; when the dice it
finds are small (a camera far from the table), the part of the frame round them
is looked at again at 640 px, where they and their smaller neighbours are in the
detector's range. When many of a frame's dice (or its lone die) leave the
classifier unsure, a second classifier, taught dice seen from low down, reads
them again; when it is the surer of the two, the frame is taken for one seen
from low down and read again by a detector and that classifier taught such
frames; otherwise each unsure die takes that classifier's answer where it
alone is sure. When three or more dice found are, by median, boxed taller
than wide (or wider than tall), the image may have been squeezed along one
axis, as photo sets squeeze photos into squares: it is read again stretched
back, and that reading kept if it finds as many dice and is as sure of them.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from pathlib import Path

import cv2
import numpy as np

from vision.die_crops import CROP_MARGIN, CROP_SIZE, crop_die, crops_to_blob
from vision.frames import as_bgr, lifted, quietened
from vision.readings import Box, DieReading
from vision.shadow_band import band_lifted
from vision.yolo_labels import centre_inside, iou

MODEL_DIR = Path(__file__).resolve().parent / "models"
DETECTOR_FILE = "d6_detector.onnx"
CLASSIFIER_FILE = "d6_classifier.onnx"
# Optional: without the classifier no frame is read again as seen from low down; without the detector, such a
# frame keeps the dice the detector found, read by the low-view classifier.
LOW_CLASSIFIER_FILE = "d6_low_classifier.onnx"
LOW_DETECTOR_FILE = "d6_low_detector.onnx"
SETTINGS_FILE = "d6_models.json"  # the classifier's crop size and margin, written by the training script
DETECTOR_LONG_SIDE = 320
NEAR_LONG_SIDE = 128  # a second, coarse look for dice held close to the camera
# A near-look box this share of the long side or more is a close die. Past the 320 px look's range is a die a
# quarter of the frame, but the near look boxes a real one by its top face, 0.6-0.8 of that (docs/vision.md).
NEAR_DIE_SHARE = 0.17
NEAR_THRESHOLD = 0.5  # 19 in 20 close dice score above it
NEAR_SURE_BACKGROUND = 0.1  # a close die counts only if "not a die" is below this ...
NEAR_SURE_FACE = 0.8  # ... and one face has this share
NEAR_HINT = 0.2  # a fine box this share of the long side may be part of a close die
FAR_LONG_SIDE = 640  # a second, finer look for dice far from the camera ...
FAR_HINT = 14 / DETECTOR_LONG_SIDE  # ... taken when the dice found are, by median, under this share of the long side
FAR_PEAK = 0.2  # fine-look peaks this strong, though too weak to be dice, mark where small dice may lie ...
FAR_MARGIN = 0.2  # ... and the far look covers them and the dice found, this share of the long side around
# A frame of a webcam's own size (1280x720, 1920x1080) with small dice in it: the fine look shrinks it four to six
# times, so a heap of dice 30-45 px across comes back as one blob the classifier refuses, and the far look at
# 640 px still sees them under 14 px. A frame HEAP_FRAME times the far look's side or longer whose fine look keeps
# no die looks far round what it refused and its weak peaks; and where the far look's dice are still small at
# its size, a frame FINER_FROM times its side or longer is looked at again at FINER_SCALE times it (capped at the
# frame's own size), round the same places and those dice ("Frames bigger than the photo sets" in docs/vision.md).
HEAP_FRAME = 2.0
FINER_FROM = 1.5
FINER_SCALE = 2
# A heap the fine look keeps as one big die (a blob the classifier lets pass, unsurely) is looked at far too, unless
# the near look found a close die: one HEAP_DIE_SHARE of the long side or bigger (a twentieth, a die's size under
# a camera mounted as the README asks) whose likeliest class is under HEAP_UNSURE. In 30 rendered 1920x1080 heaps of
# eight dice 26-34 px, 11 came back as one or two wrong dice, 2 after ("Heaps kept as one big die" in
# docs/vision-experiments.md).
HEAP_DIE_SHARE = 0.05
HEAP_UNSURE = 0.8
DETECTOR_STRIDE = 4
# An underexposed picture (a dim room, a camera whose exposure cannot go long enough): the nets learnt dice from
# photos whose 95th-percentile grey is 60 or more, and found few in darker ones. d6-matteop65/valid at a quarter
# of its exposure read / P / R 0.988 / 0.964 / 0.843, at an eighth 0.937 / 0.380 / 0.106. A picture darker than
# DIM_BELOW is `frames.lifted` by one gain towards DIM_TARGET, so long as its brightest half percent stays under
# `frames.UNCLIPPED` (a white die on black felt is never washed out): a quarter 0.988 / 0.984 / 0.984, an eighth
# 0.992 / 0.977 / 0.980, a quarter with noise of 6 levels 0.957 / 0.983 / 0.922 (0.973 / 0.945 / 0.804 before).
# The photo sets themselves are never lifted. Session 24 found that a stretch for every picture loses on dark
# tables (docs/vision-experiments.md). The bar was 56, under the darkest photo of all the sets' splits (60, one
# of roboflow's augmented training copies); but 2 of their 1,556 photos lie under 80 and none of the valid
# splits' under 105, so a picture at 56-80 was one the nets never saw, and at a third of its exposure with a
# little grain (95th percentile 48-60) the sets lost up to a sixth of their dice: since session 59 a picture
# that needs a gain of two or more (under DIM_TARGET / 2) is lifted. Read / P / R before -> after: d6-roboflow/valid
# so 0.910 / 0.838 / 0.672 -> 0.937 / 0.819 / 0.805, the byler holdout 0.953 / 0.949 / 0.942 -> 0.964 / 0.967 /
# 0.967 ("Photos the reader has never seen" in docs/vision-experiments.md).
DIM_BELOW = 80
DIM_TARGET = 160.0
# A noisy picture (a dim room's, lifted or not, or a cheap sensor's): dice went unfound and pips misread in the
# grain. Noise of NOISY grey levels or more (`frames.noise_level`) is blurred by NOISY_BLUR px first. No photo of
# the three sets reaches it (d6-matteop65 1.4 at most, the byler photos 0.9, d6-roboflow's train split, whose
# augmented copies carry noise of their own, 9.4). Read / P / R: d6-matteop65/valid at a quarter of its exposure
# with noise of 6 levels in each colour (14 in grey once lifted) 0.957 / 0.983 / 0.922 -> 0.992 / 0.976 / 0.969,
# at full exposure with noise of 20 (14) 0.977 / 0.976 / 0.961 -> 0.992 / 0.984 / 0.984; the byler holdout at a
# fifth of its exposure with noise of 6 (16) 0.912 / 0.918 / 0.894 -> 0.953 / 0.914 / 0.931. Its noise of 3 (9)
# is left as it is: a blur there gained a die and lost one elsewhere.
NOISY = 11.0
NOISY_BLUR = 1.0
GRID = 16  # the detector's coarsest stride: its input's sides are multiples of it
BACKGROUND_CLASS = 6
# A frame whose dice are seen from low down: LOW_VIEW_SHARE of them with no face over LOW_VIEW_UNSURE (the
# table's confirm line), and the low-view classifier by mean LOW_VIEW_MARGIN surer of them.
LOW_VIEW_SHARE = 0.4
LOW_VIEW_UNSURE = 0.8
LOW_VIEW_MARGIN = 0.05
# In a frame that is no low view, a die read under LOW_VIEW_UNSURE takes the low-view classifier's answer
# where that one is this sure of it.
LOW_VIEW_SURE = 0.9
# A frame squeezed along one axis: at least SQUEEZED_DICE dice whose boxes are, by median, this many times as
# tall as wide (or as wide as tall): GIVEN_SQUEEZE for boxes given to read_boxes (a label's box has the die's
# shape), FOUND_SQUEEZE for the detector's, which rounds boxes off (it boxes dice squeezed to half their width
# about 1.4 times as tall as wide), so a found lean is squared to stretch the frame back, up to FOUND_STRETCH.
GIVEN_SQUEEZE = 1.3
FOUND_SQUEEZE = 1.12
FOUND_STRETCH = 1.7  # the most a found lean is squared to; a lean over it is stretched by itself
SQUEEZED_DICE = 3
MAX_STRETCH = 2.5


def prepared(frame: np.ndarray) -> np.ndarray:
    """A BGR frame as the nets are shown it: a hard shadow's band lifted off (a spotlight past the camera's arm,
    `shadow_band`), a dim picture lifted, a grainy one blurred."""
    return quietened(lifted(band_lifted(frame), DIM_BELOW, DIM_TARGET), NOISY, NOISY_BLUR)


def side(box: Box) -> float:
    return max(box[2] - box[0], box[3] - box[1])


def face_shares(p: np.ndarray) -> np.ndarray:
    """The six faces' probabilities with the "not a die" share set aside, summing to one."""
    return p[:6] / max(float(p[:6].sum()), 1e-9)


def best_face_shares(probs: np.ndarray) -> np.ndarray:
    """For each row of class probabilities, the likeliest face's share of the six (`face_shares`, row by row)."""
    faces = probs[:, :6]
    return faces.max(axis=1) / np.maximum(faces.sum(axis=1), 1e-9)


def kept_dice(candidates: list[tuple[Box, float]], probs: np.ndarray,
              keep: list[bool]) -> tuple[list[Box], np.ndarray, np.ndarray]:
    """The candidates taken for dice: their boxes, detector scores and class probabilities."""
    kept = np.array(keep, bool)
    boxes = [box for (box, _), k in zip(candidates, kept, strict=True) if k]
    return boxes, np.array([score for (_, score), k in zip(candidates, kept, strict=True) if k]), probs[kept]


def lean(boxes: list[Box]) -> float | None:
    """How much taller than wide (over 1) or wider than tall (under 1) three or more dice are boxed, by median.

    A cube's box is at most about 1.4 times as tall as wide, seen from 45
    degrees with a face turned to the camera, and dice lying every which way
    give a median well under that. A photo squeezed into a square (as photo
    sets store them) makes all its dice tall or flat by the same factor,
    which the median of three or more measures; one or two dice may just
    stand that way.
    """
    if len(boxes) < SQUEEZED_DICE:
        return None
    return float(np.median([(b[3] - b[1]) / max(b[2] - b[0], 1e-6) for b in boxes]))


def stretch_along(aspect: float, by: float) -> tuple[float, float]:
    """Factors for a frame's width and height that stretch it `by` along the axis its dice are squeezed on."""
    by = min(by, MAX_STRETCH)
    return (by, 1.0) if aspect > 1 else (1.0, by)


def unsqueeze_given(boxes: list[Box]) -> tuple[float, float] | None:
    """The stretch that undoes a squeeze shown by boxes with the dice's own shape (labels), or None."""
    aspect = lean(boxes)
    if aspect is None or 1 / GIVEN_SQUEEZE < aspect < GIVEN_SQUEEZE:
        return None
    return stretch_along(aspect, max(aspect, 1 / aspect))


def unsqueeze_found(boxes: list[Box], shape: tuple[int, ...]) -> tuple[float, float] | None:
    """The stretch to try on a frame of this shape whose found dice lean one way, or None.

    The detector boxes a squeezed die rounder than it is, about as the
    square root of its lean; dice a camera sees at a slant lean a little
    too, so a stretch is only tried, and kept by `read` if it reads better.
    Dice small enough for the far look are boxed too coarsely to show a lean.
    """
    aspect = lean(boxes)
    if aspect is None or 1 / FOUND_SQUEEZE < aspect < FOUND_SQUEEZE or dice_look_small(boxes, shape):
        return None
    by = max(aspect, 1 / aspect)
    return stretch_along(aspect, max(by, min(by * by, FOUND_STRETCH)))


def stretched(frame: np.ndarray, factors: tuple[float, float]) -> np.ndarray:
    h, w = frame.shape[:2]
    return cv2.resize(frame, (round(w * factors[0]), round(h * factors[1])), interpolation=cv2.INTER_LINEAR)


def scaled(box: Box, fx: float, fy: float) -> Box:
    return (box[0] * fx, box[1] * fy, box[2] * fx, box[3] * fy)


def mean_confidence(readings: list[DieReading]) -> float:
    return float(np.mean([r.confidence for r in readings])) if readings else 0.0


def close_together(a: Box, b: Box) -> bool:
    """Two boxes as near as two pips of one face (centres within three box sides)."""
    reach = 1.5 * (side(a) + side(b))
    return abs(a[0] + a[2] - b[0] - b[2]) / 2 < reach and abs(a[1] + a[3] - b[1] - b[3]) / 2 < reach


def same_die(a: Box, b: Box) -> bool:
    """Two looks' boxes of one die: they overlap well, or one's centre lies in the other."""
    return iou(a, b) > 0.3 or centre_inside(a, b) or centre_inside(b, a)


class ModelMissing(FileNotFoundError):
    """The shipped ONNX files are absent: rebuild them with tools/train_dice.py."""


class ModelUnusable(ModelMissing):
    """The model files are there but cannot be used (settings unreadable, a net cut short or in the wrong file).

    A kind of ModelMissing, so every command and screen that already copes with
    missing models says this one's reason too instead of crashing.
    """


class BoxRefused(ValueError):
    """A box given to `read_boxes` that no die in the frame can fill; it names the box and why."""


def checked_box(box: object, shape: tuple[int, ...]) -> Box:
    """The box as four floats, or BoxRefused when no die of the frame can be in it.

    A corner that is no finite number, a box with no width or height (or its
    corners the wrong way round) and a box wholly off the frame crashed the
    crop or stretched the whole frame to read them; a reading for such a box
    would be a guess passed off as a die.
    """
    try:
        if isinstance(box, (str, bytes)):
            raise TypeError
        values = tuple(float(v) for v in box)  # numpy rows and scalars as well as tuples
    except (TypeError, ValueError):
        raise BoxRefused(f"box {box!r} is not 4 numbers (x0, y0, x1, y1)") from None
    shown = "(" + ", ".join(f"{v:g}" for v in values) + ")"
    if len(values) != 4:
        raise BoxRefused(f"box {shown} is not 4 numbers (x0, y0, x1, y1)")
    if not all(math.isfinite(v) for v in values):
        raise BoxRefused(f"box {shown} has a corner that is not a finite number")
    x0, y0, x1, y1 = values
    if x1 <= x0 or y1 <= y0:
        raise BoxRefused(f"box {shown} has no width or no height (x1 must be past x0, y1 past y0)")
    h, w = shape[:2]
    if x1 <= 0 or y1 <= 0 or x0 >= w or y0 >= h:
        raise BoxRefused(f"box {shown} lies wholly outside the {w}x{h} frame")
    return x0, y0, x1, y1


def usable_boxes(boxes: Iterable[object], shape: tuple[int, ...]) -> list[Box]:
    """The boxes `checked_box` takes, the others left out: for looks that only need to know where to look."""
    try:
        given = list(boxes)
    except TypeError:  # not even a list
        return []
    usable = []
    for box in given:
        try:
            usable.append(checked_box(box, shape))
        except BoxRefused:
            continue
    return usable


def dice_look_small(boxes: list[Box], shape: tuple[int, ...]) -> bool:
    """Whether dice boxed so are, by median, small enough in a frame of this shape that the reader looks again
    at 640 px: a camera too far from the tray, which `vision watch` tells a café setting one up."""
    sides = [side(box) for box in boxes]
    return bool(sides) and float(np.median(sides)) < FAR_HINT * max(shape[:2])


def small_dice_size(boxes: list[Box], shape: tuple[int, ...]) -> tuple[int, int] | None:
    """For dice that look small (`dice_look_small`): how many px across they are by median, and how many a die
    should be in this frame (a twentieth of its long side, 32 px at 640, as the README asks); None otherwise.
    What `vision watch` and the app's camera screen tell a café setting a camera up."""
    if not dice_look_small(boxes, shape):
        return None
    return round(float(np.median([side(box) for box in boxes]))), max(shape[:2]) // 20


def heap_blobs(candidates: list[tuple[Box, float]], probs: np.ndarray, keep: list[bool],
               shape: tuple[int, ...]) -> list[Box]:
    """The fine look's dice that may be a heap of small dice shrunk into one blob, which the classifier let pass.

    Such a blob is bigger than a die mounted as the README asks (HEAP_DIE_SHARE
    of the long side) and read unsurely: its likeliest class, "not a die"
    included, under HEAP_UNSURE. Real dice that big are read surer than that
    (0.85 at the least of 216 rendered ones in 1920x1080 frames), and are too
    big for the far look, which finds their pips as dice of their own.
    """
    big = HEAP_DIE_SHARE * max(shape[:2])
    return [box for (box, _), p, kept in zip(candidates, probs, keep, strict=True)
            if kept and side(box) >= big and float(p.max()) < HEAP_UNSURE]


def on_grid(low: float, high: float, size: int) -> tuple[int, int]:
    """The span low..high widened to the detector's grid and kept inside 0..size.

    A part of an image cut on the grid is seen by the detector as the whole
    image sees it there (away from the part's edges).
    """
    return max(0, int(low) // GRID * GRID), min(size, int(np.ceil(high / GRID)) * GRID)


def load_onnx(path: Path) -> cv2.dnn.Net:
    """An ONNX model on OpenCV's classic dnn engine where there is a choice.

    OpenCV 5 defaults to its new graph engine, which ran the whole reader 13 to
    24% slower than the classic one on this project's bench machine (see
    "Speed" in docs/vision-experiments.md); OpenCV 4 has only the classic one.
    """
    classic = getattr(cv2.dnn, "ENGINE_CLASSIC", None)
    if classic is None:
        return cv2.dnn.readNetFromONNX(str(path))
    return cv2.dnn.readNetFromONNX(str(path), engine=classic)


def load_settings(folder: Path) -> tuple[int, float]:
    """The classifier's crop size and margin from the folder's d6_models.json (the defaults without one).

    A settings file edited by hand or cut short stopped a command with a
    traceback, or worse read every crop at a size the classifier never saw.
    """
    path = folder / SETTINGS_FILE
    if not path.exists():
        return CROP_SIZE, CROP_MARGIN

    def unusable(why: str) -> ModelUnusable:
        return ModelUnusable(f"cannot load the d6 models in {folder}: {SETTINGS_FILE} {why}")

    try:
        settings = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise unusable(f"cannot be read ({getattr(exc, 'strerror', None) or exc})") from None
    except json.JSONDecodeError as exc:
        raise unusable(f"is not JSON ({exc})") from None
    if not isinstance(settings, dict):
        raise unusable('is not a JSON object like {"crop_size": 48, "crop_margin": 1.25}')
    size, margin = settings.get("crop_size", CROP_SIZE), settings.get("crop_margin", CROP_MARGIN)
    if isinstance(size, bool) or not isinstance(size, int) or size < 1:
        raise unusable(f"gives crop_size {size!r}; it must be a whole number of pixels above 0")
    if isinstance(margin, bool) or not isinstance(margin, (int, float)) or not 0 < margin < math.inf:
        raise unusable(f"gives crop_margin {margin!r}; it must be a number above 0 (the box's share of the crop)")
    return size, float(margin)


def load_checked(folder: Path, name: str, crop_size: int) -> cv2.dnn.Net:
    """The net in folder/name, tried once on a blank input so a file that is no such net is named at load.

    A file cut short failed inside OpenCV, and a detector and classifier swapped
    failed at the first frame with an error naming neither; a classifier must
    give 7 values per crop of crop_size px, a detector its 5 maps.
    """
    path = folder / name
    detector = name in (DETECTOR_FILE, LOW_DETECTOR_FILE)
    wanted = "the detector's 5 maps" if detector else f"7 class values for a {crop_size} px crop"
    try:
        net = load_onnx(path)
    except cv2.error as exc:
        raise ModelUnusable(f"cannot load the d6 models in {folder}: {name} is cut short or no ONNX model "
                            f"({str(exc).strip().splitlines()[-1]})") from None
    side = 2 * GRID if detector else crop_size
    try:
        net.setInput(np.zeros((1, 3, side, side), np.float32))
        out = net.forward()
    except cv2.error:
        out = None
    fits = out is not None and (out.ndim == 4 and out.shape[1] == 5 if detector else out.size == 7)
    if not fits:
        got = "an error" if out is None else f"shape {tuple(out.shape)}"
        raise ModelUnusable(f"cannot load the d6 models in {folder}: {name} does not give {wanted} (it gave {got}; "
                            "are the detector and classifier files swapped, or crop_size wrong?)")
    return net


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
        near_side: int | None = NEAR_LONG_SIDE,
        far_side: int | None = FAR_LONG_SIDE,
    ) -> None:
        # A look at 0 px divided by zero on the first frame; refused here, where the number was given.
        if not (isinstance(long_side, (int, np.integer)) and long_side > 0):
            raise ValueError(f"long_side must be a whole number of pixels above 0, not {long_side!r}")
        for name, look in (("near_side", near_side), ("far_side", far_side)):
            if not (look is None or (isinstance(look, (int, np.integer)) and look >= 0)):
                raise ValueError(f"{name} must be a whole number of pixels (0 or None turns that look off), "
                                 f"not {look!r}")
        folder = model_dir or MODEL_DIR
        for name in (DETECTOR_FILE, CLASSIFIER_FILE):
            if not (folder / name).exists():
                raise ModelMissing(f"{folder / name} is missing; rebuild it with tools/train_dice.py")
        self.crop_size, self.crop_margin = load_settings(folder)
        self.detector = load_checked(folder, DETECTOR_FILE, self.crop_size)
        # Each look has its own copy of the net, so none makes cv2.dnn re-plan for a new input size each frame.
        self.near_detector = load_onnx(folder / DETECTOR_FILE) if near_side else None
        self.near_side = near_side or 0  # 0 (or None) turns the near look off
        self.far_detector = load_onnx(folder / DETECTOR_FILE) if far_side else None
        self.far_side = far_side or 0  # 0 (or None) turns the far look off
        self.classifier = load_checked(folder, CLASSIFIER_FILE, self.crop_size)
        low_classifier, low_detector = folder / LOW_CLASSIFIER_FILE, folder / LOW_DETECTOR_FILE
        self.low_classifier = (load_checked(folder, LOW_CLASSIFIER_FILE, self.crop_size)
                               if low_classifier.exists() else None)
        self.low_detector = (load_checked(folder, LOW_DETECTOR_FILE, self.crop_size)
                             if self.low_classifier and low_detector.exists() else None)
        self.detection_threshold = detection_threshold
        self.background_threshold = background_threshold
        self.long_side = long_side
        self.mirror_below = mirror_below  # a crop whose best class is below this is also read mirrored

    def detect(self, frame: np.ndarray) -> list[tuple[Box, float]]:
        """Candidate die boxes with the detector's score, before the classifier vets them."""
        frame = as_bgr(frame)
        if frame is None:
            return []
        return self._look(self.detector, frame, self.long_side, self.detection_threshold)

    def detect_near(self, frame: np.ndarray) -> list[tuple[Box, float]]:
        """Boxes of dice a quarter of the frame or bigger, from a second, coarse look.

        The detector learnt dice of 10 to 80 px at its 320 px input. A die held
        much closer to the camera than a tray's is missed there, or found as a
        handful of "dice" that are its pips; at 128 px it is back in range.
        """
        frame = as_bgr(frame)
        if frame is None or self.near_detector is None:
            return []
        big = max(frame.shape[:2]) * NEAR_DIE_SHARE
        found = self._look(self.near_detector, frame, self.near_side, self.detection_threshold)
        return [(box, score) for box, score in found if score >= NEAR_THRESHOLD and side(box) >= big]

    def detect_far(self, frame: np.ndarray, around: list[Box] | None = None) -> list[tuple[Box, float]]:
        """Candidate boxes from a second look at 640 px, for dice under about 28 px there.

        With `around`, only the part of the frame round those boxes is looked
        at: the look costs what its area costs, and a far camera's dice lie
        together in a tray. The part is cut from the frame as shrunk for the
        whole look, on the detector's 16 px grid, so a die inside it gets the
        answer the whole look would give. Boxes that mark no place in the frame
        (`checked_box`) are left out; with none left there is nowhere to look.
        """
        frame = as_bgr(frame)
        if frame is None or self.far_detector is None:
            return []
        if around is not None:
            around = usable_boxes(around, frame.shape)  # a box off the frame, or not finite, marks no place
            if not around:
                return []
        return self._look(self.far_detector, frame, self.far_side, self.detection_threshold, around)

    def _look(self, net: cv2.dnn.Net, frame: np.ndarray, long_side: int, threshold: float,
              around: list[Box] | None = None) -> list[tuple[Box, float]]:
        """The detector's peaks over `threshold` on the frame shrunk to `long_side`, in frame pixels, strongest first.

        `around` limits the look to the boxes' surroundings (FAR_MARGIN of the long side).
        """
        h, w = frame.shape[:2]
        scale = long_side / max(h, w)
        small = cv2.resize(frame, (max(1, round(w * scale)), max(1, round(h * scale))), interpolation=cv2.INTER_AREA)
        left = top = 0
        if around:
            margin = FAR_MARGIN * long_side
            left, right = on_grid(min(b[0] for b in around) * scale - margin,
                                  max(b[2] for b in around) * scale + margin, small.shape[1])
            top, bottom = on_grid(min(b[1] for b in around) * scale - margin,
                                  max(b[3] for b in around) * scale + margin, small.shape[0])
            small = small[top:bottom, left:right]
            if small.size == 0:
                return []
        sh, sw = small.shape[:2]
        ph, pw = -sh % GRID, -sw % GRID
        if ph or pw:
            small = cv2.copyMakeBorder(small, 0, ph, 0, pw, cv2.BORDER_REPLICATE)
        net.setInput(cv2.dnn.blobFromImage(small, 1 / 255.0))
        out = net.forward()[0]
        heat = out[0]
        peaks = (heat >= cv2.dilate(heat, np.ones((3, 3), np.uint8))) & (heat > threshold)
        ys, xs = np.nonzero(peaks)
        order = np.argsort(-heat[ys, xs])
        found: list[tuple[Box, float]] = []
        unit = DETECTOR_STRIDE / scale
        for i in order:
            y, x = ys[i], xs[i]
            cx = (x + out[1, y, x]) * unit + left / scale
            cy = (y + out[2, y, x]) * unit + top / scale
            bw = float(np.exp(np.clip(out[3, y, x], -3, 6))) * unit
            bh = float(np.exp(np.clip(out[4, y, x], -3, 6))) * unit
            box = (float(cx - bw / 2), float(cy - bh / 2), float(cx + bw / 2), float(cy + bh / 2))
            if cx >= w or cy >= h or any(iou(box, kept) > 0.5 for kept, _ in found):
                continue
            found.append((box, float(heat[y, x])))
        return found

    def classify(self, frame: np.ndarray, boxes: list[Box], net: cv2.dnn.Net | None = None) -> np.ndarray:
        """Class probabilities (N x 7: one to six pips, then "not a die") for each box, by `net` or the classifier.

        A crop the classifier is unsure of is read again mirrored and the two
        answers averaged: a mirror keeps "up" (which oblique photos need) and
        mends misreads that hang on a single view, and asking only for unsure
        crops keeps the common case at one pass.
        """
        frame = as_bgr(frame)
        if not boxes or frame is None:
            return np.zeros((0, 7), np.float32)
        net = net or self.classifier
        crops = [crop_die(frame, box, self.crop_size, self.crop_margin) for box in boxes]
        probs = self._forward(net, crops)
        unsure = np.nonzero(probs.max(axis=1) < self.mirror_below)[0]
        if len(unsure):
            mirrored = self._forward(net, [np.ascontiguousarray(crops[i][:, ::-1]) for i in unsure])
            probs[unsure] = (probs[unsure] + mirrored) / 2
        return probs

    @staticmethod
    def _forward(net: cv2.dnn.Net, crops: list[np.ndarray]) -> np.ndarray:
        net.setInput(crops_to_blob(crops))
        return softmax(net.forward().reshape(len(crops), -1))

    def _seen_from_low(self, frame: np.ndarray, boxes: list[Box],
                       probs: np.ndarray) -> tuple[np.ndarray | None, np.ndarray | None]:
        """The low-view classifier's answers for the dice if the frame looks seen from low down, and its answers
        whenever it was asked (None where it was not): (taken, asked).

        From low over the table a die's top face is a thin band above the side
        turned to the camera, which the classifier reads instead, mostly unsure
        of it. A classifier taught such dice reads them far better but misreads
        marbled dice seen from above, so it is asked only when many of a frame's
        dice are unsure (a view is the frame's, a marbled die is one die's), and
        its answers are taken only when it is, by mean, the surer of the two.
        Where they are not taken, `_second_opinions` picks the unsure dice's from
        them instead of asking the net about those dice a second time.
        """
        if self.low_classifier is None or not boxes:
            return None, None
        sure = best_face_shares(probs)
        if np.mean(sure < LOW_VIEW_UNSURE) < LOW_VIEW_SHARE:
            return None, None
        low = self.classify(frame, boxes, self.low_classifier)
        return (low if best_face_shares(low).mean() - sure.mean() >= LOW_VIEW_MARGIN else None), low

    def _second_opinions(self, frame: np.ndarray, boxes: list[Box], probs: np.ndarray,
                         asked: np.ndarray | None = None) -> np.ndarray:
        """The dice's probabilities, the low-view classifier's taken for the unsure dice it is sure of.

        A frame that is no low view as a whole (`_seen_from_low`) may still
        hold a die or two seen at a slant, whose side face turned to the camera
        the classifier half reads. The low-view classifier, asked about those
        dice alone, reads them; where it is less than sure it is asked in vain
        (marbled dice seen from above), and sure dice never pay for asking.
        `asked` is its answer for every die when `_seen_from_low` has asked it
        already: a crop's answer does not hang on the other crops of its batch
        (checked to the bit), so the unsure dice's rows are those it would give
        now, and a squeezed or slanted frame no longer pays for them twice.
        """
        if self.low_classifier is None or not boxes:
            return probs
        unsure = np.nonzero(best_face_shares(probs) < LOW_VIEW_UNSURE)[0]
        if not len(unsure):
            return probs
        low = (self.classify(frame, [boxes[i] for i in unsure], self.low_classifier) if asked is None
               else asked[unsure])
        sure = best_face_shares(low) >= LOW_VIEW_SURE
        probs = probs.copy()
        probs[unsure[sure]] = low[sure]
        return probs

    def _low_look(self, frame: np.ndarray) -> tuple[list[Box], np.ndarray, np.ndarray]:
        """The dice of a frame seen from low down, found by the low-view detector and vetted by its classifier.

        Seen from low down, dice hide behind one another and show their sides
        as much as their tops; the detector taught such frames finds more of
        them and boxes each whole (boxes, detector scores, probabilities).
        """
        found = self._look(self.low_detector, frame, self.long_side, self.detection_threshold)
        return kept_dice(found, *self._vet(frame, found, self.low_classifier))

    def read_boxes(self, frame: np.ndarray, boxes: list[Box] | np.ndarray) -> list[DieReading]:
        """Read dice whose boxes are already known: one reading per box, never "not a die".

        A frame that is not a usable image gives no readings at all. Boxes that
        all lean one way (`unsqueeze_given`) are read in the frame stretched back.
        A box no die of the frame can fill (`checked_box`) is refused with
        BoxRefused before anything is read: one reading per box means a caller
        never learns which of its boxes was a guess.
        """
        try:
            if boxes is None or isinstance(boxes, (str, bytes)):
                raise TypeError
            given = list(boxes)  # an N x 4 numpy array gives its rows
        except TypeError:
            raise BoxRefused(f"boxes {boxes!r} are not a list of (x0, y0, x1, y1) boxes") from None
        frame = as_bgr(frame)
        if frame is None:
            return []
        frame = prepared(frame)
        boxes = [checked_box(box, frame.shape) for box in given]
        looked_at, looked_boxes = frame, boxes
        factors = unsqueeze_given(boxes)
        if factors is not None:  # a squeezed photo's dice are read as they were before the squeeze
            looked_at, looked_boxes = stretched(frame, factors), [scaled(box, *factors) for box in boxes]
        probs = self.classify(looked_at, looked_boxes)
        low, asked = self._seen_from_low(looked_at, looked_boxes, probs)
        probs = self._second_opinions(looked_at, looked_boxes, probs, asked) if low is None else low
        return [DieReading(int(np.argmax(p[:6])) + 1, None, float(sure), tuple(box))
                for box, p, sure in zip(boxes, probs, best_face_shares(probs), strict=True)]

    def read(self, frame: np.ndarray) -> list[DieReading]:
        """Every die in the frame, left to right; an empty or unreadable frame gives no dice."""
        frame = as_bgr(frame)
        if frame is None:
            return []
        frame = prepared(frame)
        readings = self._read_as_it_is(frame)
        factors = unsqueeze_found([r.box for r in readings], frame.shape)
        if factors is not None:
            # Stretched back, a squeezed photo's dice are the shapes the nets learnt. The stretched reading must
            # find as many dice and be as sure of them: dice that merely lean the same way are read as they were.
            fx, fy = factors
            again = [DieReading(r.value, r.face, r.confidence, scaled(r.box, 1 / fx, 1 / fy))
                     for r in self._read_as_it_is(stretched(frame, factors))]
            if len(again) >= len(readings) and mean_confidence(again) >= mean_confidence(readings):
                readings = again
        return sorted(readings, key=lambda r: (r.box[0], r.box[1]))

    def _read_as_it_is(self, frame: np.ndarray) -> list[DieReading]:
        """The dice of a BGR frame, in no particular order, squeeze or none."""
        # One look gives the dice and the weaker peaks that tell the far look where to look.
        peaks = self._look(self.detector, frame, self.long_side, min(FAR_PEAK, self.detection_threshold))
        candidates = [(box, score) for box, score in peaks if score > self.detection_threshold]
        probs, keep = self._vet(frame, candidates)
        dice = [box for (box, _), kept in zip(candidates, keep, strict=True) if kept]
        weak = [box for box, score in peaks if score <= self.detection_threshold]
        looked_far = self._dice_look_far(frame, dice, weak)
        if not looked_far and not dice and self._may_hide_a_heap(frame):
            # A heap of small dice in a big frame is one blob at 320 px: refused, or a weak peak of a die's size.
            weak = weak + [box for (box, _), kept in zip(candidates, keep, strict=True) if not kept]
            looked_far = bool(weak)
        if looked_far:
            candidates, probs, keep = self._with_far_look(frame, dice + weak, candidates, probs, keep)
        close = False
        if (not looked_far or not any(keep)) and self._may_hide_close_die(frame, candidates, probs, keep):
            near = self.detect_near(frame)
            near_probs = self.classify(frame, [box for box, _ in near])
            for (box, score), p in zip(near, near_probs, strict=True):
                # Only a close die the classifier is sure of counts: a whole board can pass for one.
                if p[BACKGROUND_CLASS] < NEAR_SURE_BACKGROUND and face_shares(p).max() >= NEAR_SURE_FACE:
                    # It takes the place of what the fine look found inside it (pips, a corner).
                    keep = [k and not centre_inside(inner, box) for k, (inner, _) in zip(keep, candidates, strict=True)]
                    candidates.append((box, score))
                    probs = np.vstack([probs, p])
                    keep.append(True)
                    close = True
        if not looked_far and not close and self._may_hide_a_heap(frame):
            # A heap the fine look kept as one big die, read unsurely, and no close die found in its place: the far
            # look round it finds the heap's dice, which take the blob's place as a finer look's boxes do.
            blobs = heap_blobs(candidates, probs, keep, frame.shape)
            if blobs:
                candidates, probs, keep = self._with_far_look(frame, blobs, candidates, probs, keep)
        dice, scores, probs = kept_dice(candidates, probs, keep)
        low, asked = self._seen_from_low(frame, dice, probs)
        if low is None:
            probs = self._second_opinions(frame, dice, probs, asked)
        elif self.low_detector is None:
            probs = low
        else:
            # The low-view look must find as many dice as the fine one kept: where it finds fewer (a die close to
            # the camera, past its range), the frame was no low view after all and is read as it was.
            looked = self._low_look(frame)
            if len(looked[0]) >= len(dice):
                dice, scores, probs = looked
        # A faint find is a doubtful die: a detector score under 0.5 lowers the confidence.
        sure = best_face_shares(probs) * np.minimum(1.0, scores / 0.5)
        return [DieReading(int(np.argmax(p[:6])) + 1, None, float(c), box)
                for box, p, c in zip(dice, probs, sure, strict=True)]

    def _vet(self, frame: np.ndarray, candidates: list[tuple[Box, float]],
             net: cv2.dnn.Net | None = None) -> tuple[np.ndarray, list[bool]]:
        """The classifier's (or `net`'s) answer for each candidate, and which of them it takes for dice."""
        probs = self.classify(frame, [box for box, _ in candidates], net)
        return probs, list(probs[:, BACKGROUND_CLASS] < self.background_threshold)

    def _with_far_look(self, frame: np.ndarray, around: list[Box], candidates: list[tuple[Box, float]],
                       probs: np.ndarray, keep: list[bool]) -> tuple[list[tuple[Box, float]], np.ndarray, list[bool]]:
        """The candidates with the far look's round `around` added (finer where its dice are still small), vetted.

        A die both looks found keeps the finer look's box; the fine look's other dice stay.
        """
        far = self._finer_if_small(frame, around, self.detect_far(frame, around))
        far_probs, far_keep = self._vet(frame, far)
        far_dice = [box for (box, _), kept in zip(far, far_keep, strict=True) if kept]
        keep = [k and not any(same_die(box, other) for other in far_dice)
                for k, (box, _) in zip(keep, candidates, strict=True)]
        return candidates + far, np.vstack([probs, far_probs]), keep + far_keep

    def _dice_look_far(self, frame: np.ndarray, dice: list[Box], weak: list[Box]) -> bool:
        """Whether the dice found are so small that others as small were likely missed.

        The detector learnt dice of 10 px and more at its input; a camera far
        from the table gives dice at the bottom of that range, and the ones
        under it are not found at all. With no die found, small weak peaks
        stand for them: a lone far die, the games' usual roll, often scores
        under the threshold at 320 px. A tray camera set up as the docs say
        never triggers this, so its rolls do not pay for the finer look.
        """
        return self.far_detector is not None and dice_look_small(dice or weak, frame.shape)

    def _may_hide_a_heap(self, frame: np.ndarray) -> bool:
        """Whether the frame is big enough (HEAP_FRAME times the far look's side) that its fine look, keeping no
        die, may have shrunk a heap of small dice into a blob; a 640x480 camera's frames never are."""
        return self.far_detector is not None and max(frame.shape[:2]) >= HEAP_FRAME * self.far_side

    def _finer_if_small(self, frame: np.ndarray, around: list[Box],
                        far: list[tuple[Box, float]]) -> list[tuple[Box, float]]:
        """The far look's candidates, or, when its dice are still small at its size and the frame has the pixels
        (FINER_FROM times the far look's side), a look at FINER_SCALE times that size round the same places.

        A 640x480 frame never pays for it: the far look already sees it whole.
        """
        finer = min(max(frame.shape[:2]), FINER_SCALE * self.far_side)
        if not far or finer < FINER_FROM * self.far_side:
            return far
        # Small at the far look's size as the fine look's dice are small at its own: under 14 px of its input.
        as_if = tuple(round(n * self.long_side / self.far_side) for n in frame.shape[:2])
        if not dice_look_small([box for box, _ in far], as_if):
            return far
        return self._look(self.far_detector, frame, finer, self.detection_threshold, around + [b for b, _ in far])

    def _may_hide_close_die(self, frame: np.ndarray, candidates: list[tuple[Box, float]], probs: np.ndarray,
                            keep: list[bool]) -> bool:
        """Whether the fine look's answer is one a die close to the camera gives.

        Such a die comes back as nothing, as big fragments, or as its pips, each
        read as a one or refused as not a die (alone, or two side by side). Most
        tray rolls skip the near look and its cost.
        """
        if self.near_detector is None:
            return False
        if not any(keep):
            return True
        big = max(frame.shape[:2]) * NEAR_HINT
        pips = []  # what a close die's pips come back as: ones, or refused as not a die
        for (box, _), p, kept in zip(candidates, probs, keep, strict=True):
            if kept and side(box) >= big:
                return True
            if not kept or int(np.argmax(p[:6])) == 0:
                pips.append(box)
        if len(pips) == 1 and len(candidates) == 1:
            return True  # a lone one may be a close die's only pip the fine look found
        return any(close_together(a, b) for i, a in enumerate(pips) for b in pips[i + 1:])
