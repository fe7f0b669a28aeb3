"""Rebuild the d6 models shipped in vision/models/ from the shared photo sets plus rendered dice.

Development only: needs PyTorch and onnx (a separate venv, never the app's):

    python3 -m venv /work/train-venv
    /work/train-venv/bin/pip install torch==2.13.0 onnx numpy opencv-python-headless
    /work/train-venv/bin/python tools/train_dice.py --datasets ../shared/datasets

Two small networks, both exported to ONNX for cv2.dnn:
- d6_detector.onnx: a CenterNet-style heatmap of die centres at stride 4 of a half-size frame,
  with sub-cell offset and log box size; its training images are drawn set by set (--set-weights)
  so the 872 d6-roboflow images do not drown the other box conventions;
- d6_classifier.onnx: the top face's value (classes 0..5 = 1..6 pips) or 6 = "not a die",
  from a square crop made by vision.die_crops (--crop-size); --hard-negatives adds what a
  detector wrongly finds on the training images to the "not a die" class.

Both can start from earlier weights (--init-detector, --init-classifier): a network is
fully convolutional up to a global mean, so classifier weights carry over to a new crop size.

Training uses only the `train` splits; the `valid` splits stay unseen for `vision eval-dice`.
d6-byler has no valid split, so every fifth of its images is held out (see `is_byler_holdout`).
"""

from __future__ import annotations

import argparse
import glob
import json
import sys
import time
from pathlib import Path

import cv2
import numpy as np
import torch
import torch.nn.functional as F  # noqa: N812
from torch import nn

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vision.d6_reader import load_onnx  # noqa: E402
from vision.dice_render import render_dice_scene  # noqa: E402
from vision.die_crops import CROP_MARGIN, crop_die  # noqa: E402
from vision.yolo_labels import list_images, parse_labels  # noqa: E402

CROP_SIZE = 32  # set from --crop-size in main(); written to models/d6_models.json for the reader

BACKGROUND_CLASS = 6
STRIDE = 4
DET_SCALE = 0.5  # the detector sees frames at half size
DEGRADE = False  # set from --degrade in main()
SMEAR_CROP = 48  # the crop size the smear lengths were chosen at
SQUASH = 0.0  # set from --squash in main(): the share of images and crops squashed along one axis
SQUASH_RANGE = (0.55, 1.0)  # how far an axis is squashed: a 4:3 photo squeezed square gives 0.75


def squash_factors(rng: np.random.Generator) -> tuple[float, float]:
    """Scale factors (x, y): one axis squashed for a --squash share of draws, else (1, 1).

    Two things make real dice narrower one way than the other: photo sets that
    squeeze a 4:3 phone photo into a square (d6-roboflow's valid dice are, by
    median, 1.3 times as tall as wide, its train dice 1.0), and a camera looking
    at the table at a slant, which foreshortens the top face. Without this the
    nets only ever saw the squeeze of roboflow's own train photos.
    """
    if SQUASH <= 0 or rng.random() >= SQUASH:
        return 1.0, 1.0
    q = float(rng.uniform(*SQUASH_RANGE))
    return (q, 1.0) if rng.random() < 0.5 else (1.0, q)


# Sets whose boxes hold only the top face's pips (their README says so). With --whole-die-sizes the
# detector learns where their dice are from them, but takes the size of a die's box from the other sets.
PIP_BOXED = {"d6-matteop65"}
WHOLE_DIE_SIZES = False  # set from --whole-die-sizes in main()
DET_ZOOM = (0.6, 1.6)  # an image's zoom around DET_SCALE, drawn log-uniform
CLOSER = (0.0, 1.6)  # set from --closer in main(): this share of images drawn zoomed up to this much instead ...
CLOSER_BIGGEST_DIE = 112  # ... but no die drawn bigger than this (px at the detector's input)


def detector_scale(boxes: np.ndarray, rng: np.random.Generator) -> float:
    """How much a training image is shrunk for the detector: DET_SCALE times a log-uniform zoom.

    DET_ZOOM keeps each set's dice near their own size (d6-byler's 30-45 px
    photos give 9-36 px dice), so the big top-down dice of a camera close over
    a tray were only ever renders, boxed by their top face. With --closer a
    share of images is drawn bigger, up to dice of CLOSER_BIGGEST_DIE px, so
    that real dice are seen big too; the near look (128 px) stays the one for
    dice filling the frame.
    """
    share, most = CLOSER
    if share <= 0 or rng.random() >= share:
        return DET_SCALE * float(np.exp(rng.uniform(np.log(DET_ZOOM[0]), np.log(DET_ZOOM[1]))))
    scale = DET_SCALE * float(np.exp(rng.uniform(np.log(DET_ZOOM[1]), np.log(most))))
    if len(boxes):
        biggest = float(np.max(np.maximum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])))
        scale = min(scale, max(DET_SCALE * DET_ZOOM[1], CLOSER_BIGGEST_DIE / max(biggest, 1.0)))
    return scale


def is_byler_holdout(name: str) -> bool:
    """Every fifth d6-byler image (sorted) is kept out of training so it can be measured."""
    return name in BYLER_HOLDOUT


BYLER_HOLDOUT: set[str] = set()


def load_split(split_dir: str, skip: set[str] | None = None) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """(image BGR, boxes x0y0x1y1 in pixels, classes 0..5) for every image of a split with a labelled die.

    Every photo in the shared sets shows dice, so a photo whose label file lists
    none had its labels left out (d6-roboflow/train has two such photos, three
    copies each, one of 15 dice and one of a heap). Kept, they taught the
    detector that those dice are background and gave the classifier's miner of
    hard negatives 69 real dice to learn as "not a die".
    """
    out = []
    # The reader's own listing and parser, so training and `eval-dice` agree on what a set holds.
    for item in list_images(Path(split_dir)):
        if skip and item.image.stem in skip:
            continue
        image = cv2.imread(str(item.image))
        if image is None:
            continue
        h, w = image.shape[:2]
        dice = parse_labels(item.label.read_text(errors="replace"), w, h) if item.label else []
        boxes, classes = [die.box for die in dice], [die.value - 1 for die in dice]
        if not boxes:
            continue
        out.append((image, np.array(boxes, np.float32).reshape(-1, 4), np.array(classes, np.int64)))
    return out


SPECKLED_SEED_OFFSET = 104729  # keeps training tables apart from the seeds the tests draw


def as_sample(img: np.ndarray, boxes: list, values: list[int], top_down: bool, name: str):
    """A rendered scene in the training tuple's form: boxes N x 4, classes = pips minus one."""
    return img, np.array(boxes, np.float32).reshape(-1, 4), np.array(values, np.int64) - 1, top_down, name


def rendered_samples(
    count: int, seed: int, speckled: bool = False
) -> list[tuple[np.ndarray, np.ndarray, np.ndarray, bool, str]]:
    """Rendered dice scenes, on plain tables or (set "speckled") on granite-like ones.

    A speckled table's grains cluster like pips: trained on plain trays only,
    the reader found more than three phantom dice there for every real one. The
    miner of hard negatives takes what the detector finds among the grains as
    "not a die".
    """
    rng = np.random.default_rng(seed + (SPECKLED_SEED_OFFSET if speckled else 0))
    name = "speckled" if speckled else "rendered"
    return [as_sample(*render_dice_scene(rng, 640, 480, count=int(rng.integers(1, 10)), size_range=(24, 90),
                                         speckled=speckled), True, name) for _ in range(count)]


OBLIQUE_SEED_OFFSET = 15485863  # keeps training scenes apart from the seeds the tests draw


def oblique_samples(count: int, seed: int, elevation: tuple[float, float] = (30.0, 80.0), marbled_share: float = 0.0,
                    ) -> list[tuple[np.ndarray, np.ndarray, np.ndarray, bool, str]]:
    """Rendered dice seen at a slant, in heaps and spread out (vision/oblique_dice_render.py).

    The photo sets hold few heaps and few dice colours seen from the side; on
    such renders the reader of session 16 found 85% of the dice, boxing many by
    their top face alone where the photos box the whole die.
    """
    from vision.oblique_dice_render import render_oblique_scene

    rng = np.random.default_rng(seed + OBLIQUE_SEED_OFFSET)
    return [as_sample(*render_oblique_scene(rng, elevation=elevation, marbled_share=marbled_share), False, "oblique")
            for _ in range(count)]


BOARD_SEED_OFFSET = 7919  # keeps training boards apart from the seeds eval-cards and the tests draw


def board_samples(count: int, seed: int) -> list[tuple[np.ndarray, np.ndarray, np.ndarray, bool, str]]:
    """Rendered temple boards with no dice: markers, pawns and path glyphs the reader must not call dice.

    A camera over a table sees game pieces as well as dice; without these the
    reader found a die on nearly every dice-free board photo (ArUco markers and
    the board's stair glyphs look like pip faces at 30 px).
    """
    from vision.board_photos import board_photo
    from vision.card_catalogue import load_temple_board, load_temple_cards

    rng = np.random.default_rng(seed + BOARD_SEED_OFFSET)
    cards, board = load_temple_cards(), load_temple_board()
    none = (np.zeros((0, 4), np.float32), np.zeros(0, np.int64))
    return [(board_photo(rng, cards, board, empty_share=0.3).image, *none, True, "boards") for _ in range(count)]


# ---------------------------------------------------------------- networks


def cbr(cin: int, cout: int, stride: int = 1, dilation: int = 1) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, stride, dilation, dilation=dilation, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    )


class Detector(nn.Module):
    """Tiny U-shaped net: stride 4 output, context from stride 16."""

    def __init__(self) -> None:
        super().__init__()
        self.s2 = cbr(3, 16, 2)
        self.s4 = nn.Sequential(cbr(16, 24, 2), cbr(24, 24))
        self.s8 = nn.Sequential(cbr(24, 48, 2), cbr(48, 48))
        self.s16 = nn.Sequential(cbr(48, 64, 2), cbr(64, 64, dilation=2))
        self.lat8 = nn.Conv2d(64, 48, 1)
        self.lat4 = nn.Conv2d(48, 24, 1)
        self.head = nn.Sequential(cbr(24, 32), nn.Conv2d(32, 5, 1))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        f4 = self.s4(self.s2(x))
        f8 = self.s8(f4)
        f16 = self.s16(f8)
        u8 = f8 + F.interpolate(self.lat8(f16), scale_factor=2.0, mode="nearest")
        u4 = f4 + F.interpolate(self.lat4(u8), scale_factor=2.0, mode="nearest")
        out = self.head(u4)
        return torch.cat([torch.sigmoid(out[:, :1]), out[:, 1:]], 1)


class Classifier(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.body = nn.Sequential(
            cbr(3, 16), cbr(16, 32, 2), cbr(32, 32), cbr(32, 64, 2), cbr(64, 64), cbr(64, 96, 2), cbr(96, 96),
        )
        self.fc = nn.Linear(96, 7)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc(self.body(x).mean((2, 3)))


# ---------------------------------------------------------------- augmentation


def colour_jitter(img: np.ndarray, rng: np.random.Generator, smear_scale: float = 1.0) -> np.ndarray:
    out = img.astype(np.float32)
    if rng.random() < 0.3:
        out = out[:, :, rng.permutation(3)]
    out = out * rng.uniform(0.6, 1.4) + rng.uniform(-40, 40)
    out += rng.uniform(-15, 15, size=3)
    if rng.random() < 0.15:
        out[:] = out.mean(2, keepdims=True)
    if rng.random() < 0.3:
        out += rng.normal(0, rng.uniform(2, 10), out.shape)
    out = np.clip(out, 0, 255).astype(np.uint8)
    if rng.random() < 0.3:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.4, 1.5))
    return degrade(out, rng, smear_scale) if DEGRADE else out


def degrade(img: np.ndarray, rng: np.random.Generator, smear_scale: float = 1.0) -> np.ndarray:
    """Lose resolution, smear and add JPEG blocks the way a cheap camera, a shaky hand or a phone upload does.

    The valid photos' misses are small, soft dice; the training photos alone let
    both nets learn crisp pips they then fail to find on unseen cameras. A 9 px
    smear in any direction took the byler holdout's read accuracy from 0.97 to
    0.61 (`tools/byler_holdout.py --spoil shake`). A classifier crop larger than
    48 px gets a longer smear (smear_scale), so a die is smeared as much of its size.
    """
    h, w = img.shape[:2]
    if rng.random() < 0.15:
        img = smear(img, rng, smear_scale)
    if rng.random() < 0.25 and min(h, w) >= 16:
        f = float(rng.uniform(0.35, 0.8))
        small = cv2.resize(img, (max(4, round(w * f)), max(4, round(h * f))), interpolation=cv2.INTER_AREA)
        img = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    if rng.random() < 0.3:
        ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(25, 86))])
        if ok:
            img = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return img


def smear(img: np.ndarray, rng: np.random.Generator, scale: float = 1.0) -> np.ndarray:
    """Motion blur: a line kernel 3 to 11 px long (times scale) at any angle."""
    length = max(3, round(int(rng.integers(3, 12)) * scale))
    kernel = np.zeros((length, length), np.float32)
    kernel[length // 2, :] = 1
    turn = cv2.getRotationMatrix2D(((length - 1) / 2, (length - 1) / 2), float(rng.uniform(0, 180)), 1.0)
    kernel = cv2.warpAffine(kernel, turn, (length, length))
    return cv2.filter2D(img, -1, kernel / max(float(kernel.sum()), 1e-6))


def rotate90(img: np.ndarray, boxes: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    for _ in range(k):
        h = img.shape[0]
        img = cv2.rotate(img, cv2.ROTATE_90_CLOCKWISE)
        x0, y0, x1, y1 = boxes.T
        boxes = np.stack([h - y1, x0, h - y0, x1], 1)
    return img, boxes


def weighted_picker(samples, set_weights: dict[str, float]):
    """Draw training images set by set with the given weights, so a big set does not drown a small one."""
    names = sorted({sample[4] for sample in samples})
    groups = [[s for s in samples if s[4] == name] for name in names]
    weights = np.array([set_weights.get(name, 1.0) for name in names], np.float64)
    weights /= weights.sum()

    def pick(rng):
        group = groups[int(rng.choice(len(groups), p=weights))]
        return group[int(rng.integers(len(group)))]

    return pick


def detector_batch(pick, rng, batch: int, crop: int):
    imgs = np.zeros((batch, 3, crop, crop), np.float32)
    cells = crop // STRIDE
    heat = np.zeros((batch, 1, cells, cells), np.float32)
    reg = np.zeros((batch, 4, cells, cells), np.float32)
    mask = np.zeros((batch, 2, cells, cells), np.float32)  # where offsets, and where box sizes, are learnt
    ys, xs = np.mgrid[0:cells, 0:cells].astype(np.float32)
    for b in range(batch):
        img, boxes, _, top_down, name = pick(rng)
        sized = not (WHOLE_DIE_SIZES and name in PIP_BOXED)
        scale = detector_scale(boxes, rng)
        qx, qy = squash_factors(rng)
        small = cv2.resize(img, None, fx=scale * qx, fy=scale * qy, interpolation=cv2.INTER_AREA)
        bx = boxes * np.array([scale * qx, scale * qy] * 2, np.float32)
        if rng.random() < 0.5:
            small = small[:, ::-1]
            bx = np.stack([small.shape[1] - bx[:, 2], bx[:, 1], small.shape[1] - bx[:, 0], bx[:, 3]], 1)
        # Oblique photos label only the face on top of the die as seen upright: no quarter turns for them.
        turns = int(rng.integers(4)) if top_down else 0
        small, bx = rotate90(np.ascontiguousarray(small), bx.reshape(-1, 4), turns)
        small = colour_jitter(small, rng)
        h, w = small.shape[:2]
        ox = int(rng.integers(min(0, w - crop), max(0, w - crop) + 1))
        oy = int(rng.integers(min(0, h - crop), max(0, h - crop) + 1))
        canvas = np.empty((crop, crop, 3), np.uint8)
        canvas[:] = small.reshape(-1, 3).mean(0)
        sx0, sy0 = max(0, ox), max(0, oy)
        dx0, dy0 = max(0, -ox), max(0, -oy)
        cw, ch = min(w - sx0, crop - dx0), min(h - sy0, crop - dy0)
        canvas[dy0:dy0 + ch, dx0:dx0 + cw] = small[sy0:sy0 + ch, sx0:sx0 + cw]
        imgs[b] = canvas.transpose(2, 0, 1) / 255.0
        for x0, y0, x1, y1 in bx:
            cx, cy = ((x0 + x1) / 2 - ox) / STRIDE, ((y0 + y1) / 2 - oy) / STRIDE
            bw, bh = (x1 - x0) / STRIDE, (y1 - y0) / STRIDE
            ix, iy = int(cx), int(cy)
            if not (0 <= ix < cells and 0 <= iy < cells):
                continue
            sigma = max(0.5, min(bw, bh) / 6)
            g = np.exp(-((xs - ix) ** 2 + (ys - iy) ** 2) / (2 * sigma**2))
            heat[b, 0] = np.maximum(heat[b, 0], g)
            reg[b, :, iy, ix] = (cx - ix, cy - iy, np.log(max(bw, 0.5)), np.log(max(bh, 0.5)))
            mask[b, 0, iy, ix] = 1
            mask[b, 1, iy, ix] = sized
    return (torch.from_numpy(imgs), torch.from_numpy(heat), torch.from_numpy(reg), torch.from_numpy(mask))


def detector_loss(out, heat, reg, mask):
    pred = out[:, :1].clamp(1e-4, 1 - 1e-4)
    pos = heat.eq(1).float()
    pos_loss = -(torch.log(pred) * (1 - pred) ** 2 * pos).sum()
    neg_loss = -(torch.log(1 - pred) * pred**2 * (1 - heat) ** 4 * (1 - pos)).sum()
    npos = pos.sum().clamp(min=1)
    focal = (pos_loss + neg_loss) / npos
    l1 = F.l1_loss(out[:, 1:], reg, reduction="none")
    offsets = (l1[:, :2] * mask[:, :1]).sum() / (mask[:, :1].sum().clamp(min=1) * 2)
    sizes = (l1[:, 2:] * mask[:, 1:]).sum() / (mask[:, 1:].sum().clamp(min=1) * 2)
    reg_loss = (offsets + sizes) / 2
    return focal + reg_loss


def train_detector(samples, args, rng, checkpoint=None) -> Detector:
    model = Detector()
    weights = dict(item.split("=") for item in args.set_weights.split(",")) if args.set_weights else {}
    pick = weighted_picker(samples, {name: float(w) for name, w in weights.items()})
    if args.init_detector:
        model.load_state_dict(onnx_weights(Path(args.init_detector), model))
        if args.init_detector.endswith(".onnx"):
            with torch.no_grad():
                restore_batch_norms(model, [detector_batch(pick, rng, 32, args.crop)[0] for _ in range(4)])

    def step_loss() -> torch.Tensor:
        imgs, heat, reg, mask = detector_batch(pick, rng, args.batch, args.crop)
        return detector_loss(model(imgs), heat, reg, mask)

    return fit(model, step_loss, args.det_steps, args, "det", rng, checkpoint)


def resume_file(args, name: str) -> Path:
    return Path(args.weights) / f"{name}-resume.pt"


def run_signature(args, steps: int) -> str:
    """What makes two runs the same run: every option but the thread count and how often it saves."""
    options = {key: value for key, value in vars(args).items()
               if key not in ("threads", "checkpoint_every", "resume_every")}
    return json.dumps({**options, "steps": steps}, sort_keys=True, default=str)


def fit(model, step_loss, steps: int, args, name: str, rng, checkpoint=None):
    """One-cycle AdamW over `steps` batches; `checkpoint(model)` every --checkpoint-every steps, in eval mode.

    Every --resume-every steps the run's whole state (weights, optimiser, schedule and both random
    generators) is saved beside the weights, and the same command run again goes on from there, drawing
    the batches it would have drawn: a 7500-step run of the rebuild chain outlives a machine that stops.
    The caller removes the file once the final weights are saved (`resume_file`).
    """
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=args.weight_decay)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, total_steps=steps, pct_start=0.1)
    saved, signature, first = resume_file(args, name), run_signature(args, steps), 0
    if saved.exists():
        state = torch.load(saved, weights_only=False)
        if state["signature"] == signature:
            model.load_state_dict(state["model"])
            opt.load_state_dict(state["optimiser"])
            sched.load_state_dict(state["schedule"])
            rng.bit_generator.state = state["numpy"]
            torch.set_rng_state(state["torch"])
            first = state["step"] + 1
            print(f"{name}: going on from step {first} of {steps} ({saved})", flush=True)
        else:
            print(f"{name}: {saved} was left by a run with other options; starting afresh", flush=True)
    model.train()
    start = time.time()
    for step in range(first, steps):
        loss = step_loss()
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if step % 100 == 0 or step == steps - 1:
            print(f"{name} step {step}/{steps} loss {loss.item():.3f} {time.time() - start:.0f}s", flush=True)
        if checkpoint and step and step % args.checkpoint_every == 0:
            model.eval()
            checkpoint(model)
            model.train()
        if step and step % args.resume_every == 0 and step < steps - 1:
            state = {"signature": signature, "step": step, "model": model.state_dict(), "optimiser": opt.state_dict(),
                     "schedule": sched.state_dict(), "numpy": rng.bit_generator.state, "torch": torch.get_rng_state()}
            torch.save(state, saved.with_suffix(".part"))
            saved.with_suffix(".part").replace(saved)  # a stop while saving leaves the last whole state
    model.eval()
    return model


# ---------------------------------------------------------------- classifier data


def jittered_crop(img, box, rng, size=None, top_down=True):
    """A crop as the reader would make it, shifted, scaled and turned a little.

    Only top-down photos turn freely: in an oblique photo the labelled top face is
    the one at the top of the crop, so turning it would teach the wrong face.
    """
    size = size or CROP_SIZE
    x0, y0, x1, y1 = box
    bw, bh = x1 - x0, y1 - y0
    s = float(np.exp(rng.uniform(np.log(0.85), np.log(1.2))))
    dx, dy = rng.uniform(-0.1, 0.1, 2) * max(bw, bh)
    cx, cy = (x0 + x1) / 2 + dx, (y0 + y1) / 2 + dy
    bw, bh = bw * s * rng.uniform(0.92, 1.08), bh * s * rng.uniform(0.92, 1.08)
    big = crop_die(img, (cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2), size * 2, CROP_MARGIN * 1.5)
    angle = float(rng.uniform(0, 360)) if top_down else float(rng.uniform(-15, 15))
    matrix = cv2.getRotationMatrix2D((size, size), angle, 1.0)
    qx, qy = squash_factors(rng)  # after the turn: the squeeze belongs to the photo, not to the die
    matrix = np.array([[qx], [qy]]) * matrix + np.array([[0, 0, size * (1 - qx)], [0, 0, size * (1 - qy)]])
    rot = cv2.warpAffine(big, matrix, (size * 2, size * 2), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    m = (size * 2 - round(size * 2 / 1.5)) // 2
    centre = rot[m:size * 2 - m, m:size * 2 - m]
    out = cv2.resize(centre, (size, size), interpolation=cv2.INTER_AREA)
    if rng.random() < 0.5:
        out = out[:, ::-1]
    return colour_jitter(np.ascontiguousarray(out), rng, size / SMEAR_CROP)


def background_box(img, boxes, rng):
    """A box-shaped patch that is not a labelled die (it may touch one: partial dice are negatives too)."""
    h, w = img.shape[:2]
    for _ in range(20):
        side = float(rng.uniform(10, 120))
        x0, y0 = rng.uniform(0, w - side), rng.uniform(0, h - side)
        box = np.array([x0, y0, x0 + side, y0 + side])
        if len(boxes) == 0:
            return box
        ix = np.clip(np.minimum(boxes[:, 2], box[2]) - np.maximum(boxes[:, 0], box[0]), 0, None)
        iy = np.clip(np.minimum(boxes[:, 3], box[3]) - np.maximum(boxes[:, 1], box[1]), 0, None)
        inter = ix * iy
        area = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
        if np.all(inter / np.minimum(area, side * side) < 0.3):
            return box
    return None


def mine_hard_negatives(samples, model_dir: Path, threshold: float = 0.3) -> list[tuple[int, np.ndarray]]:
    """Boxes the shipped detector finds where no die is labelled: the "not a die" class's hardest examples.

    Random patches teach the classifier little about what the detector actually
    confuses with a die (side faces, pawns, tray corners, a die found twice), and
    the classifier is what has to reject those.
    """
    from vision.d6_reader import D6Reader
    from vision.yolo_labels import centre_inside, iou

    reader = D6Reader(model_dir=model_dir, detection_threshold=threshold)
    negatives = []
    for index, (img, boxes, *_rest) in enumerate(samples):
        for box, _score in reader.detect(img):
            # A box around a labelled die's middle is that die under another box convention
            # (d6-matteop65 boxes only the pips), not a negative.
            on_die = any(centre_inside(box, tuple(label)) for label in boxes)
            if not on_die and all(iou(box, tuple(label)) < 0.25 for label in boxes):
                negatives.append((index, np.array(box, np.float32)))
    print(f"mined {len(negatives)} hard negatives from {len(samples)} images", flush=True)
    return negatives


def classifier_batch(samples, dice, rng, batch, negatives=()):
    """Crops, their classes, and the name of the set each came from."""
    xs = np.zeros((batch, 3, CROP_SIZE, CROP_SIZE), np.float32)
    ys = np.zeros(batch, np.int64)
    sets = []
    for b in range(batch):
        if negatives and rng.random() < 0.08:
            si, box = negatives[int(rng.integers(len(negatives)))]
            img, _, _, top_down, name = samples[si]
            xs[b] = jittered_crop(img, box, rng, top_down=top_down).transpose(2, 0, 1) / 255.0
            ys[b] = BACKGROUND_CLASS
            sets.append(name)
            continue
        if rng.random() < 0.12:
            img, boxes, _, top_down, name = samples[int(rng.integers(len(samples)))]
            box = background_box(img, boxes, rng)
            if box is not None:
                xs[b] = jittered_crop(img, box, rng, top_down=top_down).transpose(2, 0, 1) / 255.0
                ys[b] = BACKGROUND_CLASS
                sets.append(name)
                continue
        si, di = dice[int(rng.integers(len(dice)))]
        img, boxes, classes, top_down, name = samples[si]
        xs[b] = jittered_crop(img, boxes[di], rng, top_down=top_down).transpose(2, 0, 1) / 255.0
        ys[b] = classes[di]
        sets.append(name)
    return torch.from_numpy(xs), torch.from_numpy(ys), sets


def train_classifier(samples, args, rng, checkpoint=None) -> Classifier:
    dice = [(si, di) for si, sample in enumerate(samples) for di in range(len(sample[1]))]
    negatives = mine_hard_negatives(samples, Path(args.hard_negatives)) if args.hard_negatives else []
    model = Classifier()
    if args.init_classifier:
        model.load_state_dict(onnx_weights(Path(args.init_classifier), model))
        if args.init_classifier.endswith(".onnx"):
            with torch.no_grad():
                restore_batch_norms(model, [classifier_batch(samples, dice, rng, 256)[0] for _ in range(4)])

    anchor = None
    if args.anchor_classifier:
        anchor = Classifier()
        anchor.load_state_dict(onnx_weights(Path(args.anchor_classifier), anchor))
        anchor.eval()
    learnt = set(args.anchor_except.split(","))

    def step_loss() -> torch.Tensor:
        x, y, sets = classifier_batch(samples, dice, rng, args.batch * 4, negatives)
        logits = model(x)
        loss = F.cross_entropy(logits, y, label_smoothing=0.05)
        if anchor is None:
            return loss
        # Learning without forgetting: away from the sets being taught, keep answering as the anchor does.
        kept = torch.tensor([name not in learnt for name in sets])
        if not kept.any():
            return loss
        with torch.no_grad():
            target = F.softmax(anchor(x[kept]), 1)
        drift = F.kl_div(F.log_softmax(logits[kept], 1), target, reduction="batchmean")
        return loss + args.anchor_weight * drift

    return fit(model, step_loss, args.cls_steps, args, "cls", rng, checkpoint)


def onnx_weights(path: Path, model: nn.Module) -> dict[str, torch.Tensor]:
    """PyTorch weights for `model` from a .pt file, or rebuilt from its exported ONNX file (e.g. a shipped one).

    The export folds each batch norm into the convolution before it; unfolding
    puts the folded bias into an identity batch norm, so the rebuilt net answers
    as the ONNX file does in eval mode. To train on from it, `restore_batch_norms`
    next. The ONNX layers are matched to the model's in order, which for these
    straight nets is also the order the graph runs them in.
    """
    if path.suffix != ".onnx":
        return torch.load(path)
    import onnx
    from onnx import numpy_helper

    graph = onnx.load(str(path)).graph
    arrays = {item.name: numpy_helper.to_array(item) for item in graph.initializer}
    nodes = [node for node in graph.node if node.op_type in ("Conv", "Gemm")]
    layers: list[tuple[str, nn.Module, str | None]] = []  # (name, layer, name of the batch norm folded into it)
    for name, module in model.named_modules():
        if isinstance(module, (nn.Conv2d, nn.Linear)):
            layers.append((name, module, None))
        elif isinstance(module, nn.BatchNorm2d):
            layers[-1] = (*layers[-1][:2], name)
    if len(nodes) != len(layers):
        raise ValueError(f"{path} has {len(nodes)} layers with weights, the net {len(layers)}")
    weights = {}
    for node, (name, layer, norm) in zip(nodes, layers, strict=True):
        kernel, bias = arrays[node.input[1]], arrays[node.input[2]]
        if tuple(kernel.shape) != tuple(layer.weight.shape):
            raise ValueError(f"{path}: {node.name} is {kernel.shape}, the net's {name} {tuple(layer.weight.shape)}")
        weights[f"{name}.weight"] = torch.from_numpy(kernel.copy())
        if norm is None:
            weights[f"{name}.bias"] = torch.from_numpy(bias.copy())
            continue
        n = kernel.shape[0]
        weights.update({
            f"{norm}.weight": torch.ones(n), f"{norm}.bias": torch.from_numpy(bias.copy()),
            f"{norm}.running_mean": torch.zeros(n), f"{norm}.running_var": torch.full((n,), 1 - 1e-5),
            f"{norm}.num_batches_tracked": torch.tensor(0),
        })
    return weights


def restore_batch_norms(model: nn.Module, batches: list[torch.Tensor]) -> None:
    """Give unfolded batch norms the statistics of what reaches them, keeping the net's answers.

    Training normalises by each batch's own statistics; an identity batch norm
    (mean 0, variance 1) would then compute something else entirely. Each one
    gets the mean and variance of its input over `batches`, and scale and shift
    that cancel them, so eval mode still answers as the ONNX file did.
    """
    model.eval()
    seen: dict[nn.BatchNorm2d, list[torch.Tensor]] = {}
    norms = [m for m in model.modules() if isinstance(m, nn.BatchNorm2d)]
    hooks = [norm.register_forward_hook(lambda m, inp, out: seen.setdefault(m, []).append(inp[0])) for norm in norms]
    for batch in batches:
        model(batch)
    for hook in hooks:
        hook.remove()
    for norm in norms:
        flat = torch.cat(seen[norm]).transpose(0, 1).flatten(1)
        mean, var = flat.mean(1), flat.var(1)
        norm.bias += mean
        norm.weight.copy_(torch.sqrt(var + norm.eps))
        norm.running_mean.copy_(mean)
        norm.running_var.copy_(var)


def export(model: nn.Module, example: torch.Tensor, path: Path, dynamic: bool) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    kwargs = {}
    if dynamic:
        kwargs["dynamic_axes"] = {"input": {0: "n"}, "output": {0: "n"}}
    else:
        kwargs["dynamic_axes"] = {"input": {2: "h", 3: "w"}, "output": {2: "gh", 3: "gw"}}
    torch.onnx.export(model, example, str(path), input_names=["input"], output_names=["output"], opset_version=13,
                      dynamo=False, **kwargs)
    net = load_onnx(path)
    net.setInput(example.numpy())
    got = net.forward()
    want = model(example).detach().numpy()
    print(f"exported {path} ({path.stat().st_size / 1e6:.2f} MB), max |cv2 - torch| = {np.abs(got - want).max():.2e}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--datasets", default=str(ROOT.parent / "shared" / "datasets"))
    parser.add_argument("--out", default=str(ROOT / "vision" / "models"))
    parser.add_argument("--weights", default="/tmp", help="where PyTorch weights go (to resume; not shipped)")
    parser.add_argument("--det-steps", type=int, default=3000)
    parser.add_argument("--cls-steps", type=int, default=3000)
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--crop", type=int, default=256)
    parser.add_argument("--rendered", type=int, default=300)
    parser.add_argument("--boards", type=int, default=200, help="rendered dice-free temple boards (negatives)")
    parser.add_argument("--speckled", type=int, default=150, help="rendered dice scenes on granite-like tables")
    parser.add_argument("--oblique", type=int, default=0,
                        help="rendered dice seen at a slant, heaps among them (opt-in: see docs/vision-experiments.md)")
    parser.add_argument("--oblique-elevation", type=float, nargs=2, default=(30.0, 80.0), metavar=("LOW", "HIGH"),
                        help="the slanted renders' camera angle above the table, in degrees")
    parser.add_argument("--oblique-marbled", type=float, default=0.0,
                        help="share of the slanted renders' dice drawn marbled, with veins that can look like pips")
    parser.add_argument("--seed", type=int, default=8)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--only", choices=["detector", "classifier"], default=None)
    parser.add_argument("--init-classifier",
                        help="start from these weights (.pt, or an exported .onnx such as the shipped one)")
    parser.add_argument("--anchor-classifier", metavar="MODEL",
                        help="keep the classifier's answers close to this one's (.pt or .onnx) on the sets not taught")
    parser.add_argument("--anchor-except", default="oblique",
                        help="comma-separated sets the anchor leaves free (what the run is meant to teach)")
    parser.add_argument("--anchor-weight", type=float, default=1.0, help="weight of the anchor's term in the loss")
    parser.add_argument("--init-detector",
                        help="start from these weights (.pt, or an exported .onnx such as the shipped one)")
    parser.add_argument("--set-weights",
                        default="d6-roboflow=0.32,d6-matteop65=0.21,d6-byler=0.16,rendered=0.1,boards=0.06,"
                        "speckled=0.05,oblique=0.1",
                        help="share of detector training images drawn from each set")
    parser.add_argument("--hard-negatives", metavar="MODEL_DIR",
                        help="mine 'not a die' crops with the detector in this folder (e.g. vision/models)")
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--weight-decay", type=float, default=1e-4)
    parser.add_argument("--degrade", action="store_true", help="also train on blurred-down and JPEG-coarsened images")
    parser.add_argument("--whole-die-sizes", action="store_true",
                        help="learn the detector's box sizes only from sets that box the whole die")
    parser.add_argument("--squash", type=float, default=0.0,
                        help="share of detector images and classifier crops squashed along one axis (0.55-1)")
    parser.add_argument("--closer", type=float, nargs=2, default=(0.0, 1.6), metavar=("SHARE", "ZOOM"),
                        help="draw SHARE of the detector's images up to ZOOM times bigger than half size (opt-in)")
    parser.add_argument("--checkpoint-every", type=int, default=300, help="export the ONNX file every N steps too")
    parser.add_argument("--resume-every", type=int, default=200,
                        help="save the run's whole state every N steps; the same command run again goes on from it")
    parser.add_argument("--crop-size", type=int, default=40, help="classifier input side in pixels")
    args = parser.parse_args()
    if args.resume_every < 1 or args.checkpoint_every < 1:
        parser.error("--resume-every and --checkpoint-every take a number of steps of 1 or more")
    global CROP_SIZE, DEGRADE, SQUASH, WHOLE_DIE_SIZES, CLOSER
    CLOSER = (args.closer[0], max(DET_ZOOM[1], args.closer[1]))
    CROP_SIZE = args.crop_size
    DEGRADE = args.degrade
    SQUASH = args.squash
    WHOLE_DIE_SIZES = args.whole_die_sizes
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    rng = np.random.default_rng(args.seed)
    base = Path(args.datasets)
    byler = sorted(Path(p).stem for p in glob.glob(str(base / "d6-byler" / "train" / "images" / "*")))
    BYLER_HOLDOUT.update(byler[4::5])
    samples = []
    for split in ("d6-byler/train", "d6-matteop65/train", "d6-roboflow/train"):
        part = load_split(str(base / split), skip=BYLER_HOLDOUT if "byler" in split else None)
        name = split.split("/")[0]
        part = [(*sample, "byler" in split, name) for sample in part]  # byler looks straight down
        print(f"{split}: {len(part)} images, {sum(len(s[1]) for s in part)} dice", flush=True)
        samples += part
    samples += rendered_samples(args.rendered, args.seed)
    samples += rendered_samples(args.speckled, args.seed, speckled=True)
    samples += board_samples(args.boards, args.seed)
    samples += oblique_samples(args.oblique, args.seed, tuple(args.oblique_elevation), args.oblique_marbled)
    print(f"total {len(samples)} images with rendered ones", flush=True)
    out = Path(args.out)
    if args.only in (None, "classifier"):
        def save_classifier(model: nn.Module) -> None:
            export(model, torch.rand(2, 3, CROP_SIZE, CROP_SIZE), out / "d6_classifier.onnx", dynamic=True)
            settings = {"crop_size": CROP_SIZE, "crop_margin": CROP_MARGIN}
            (out / "d6_models.json").write_text(json.dumps(settings, indent=2) + "\n")
            torch.save(model.state_dict(), Path(args.weights) / "d6_classifier.pt")

        save_classifier(train_classifier(samples, args, rng, save_classifier))
        resume_file(args, "cls").unlink(missing_ok=True)
    if args.only in (None, "detector"):
        def save_detector(model: nn.Module) -> None:
            export(model, torch.rand(1, 3, 240, 320), out / "d6_detector.onnx", dynamic=False)
            torch.save(model.state_dict(), Path(args.weights) / "d6_detector.pt")

        save_detector(train_detector(samples, args, rng, save_detector))
        resume_file(args, "det").unlink(missing_ok=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
