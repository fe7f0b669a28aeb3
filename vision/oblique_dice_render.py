"""Dice seen at a slant, as a phone or a leaning camera sees them: cubes in perspective.

`dice_render` draws each die as a flat square from straight above; real photos
(d6-roboflow, d6-matteop65) show dice from the side as well, with two or three
faces in view, dice hiding parts of each other in a heap, and the near dice
bigger than the far ones. Here each die is a cube on the table, projected by a
pinhole camera; its visible faces are drawn with their pips, shaded by one
light, far dice first so near ones hide them. A die is labelled, with the value
on top and the box round what of it can be seen (whole dice, sides included,
as d6-roboflow boxes them), when most of its top face is in view.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.dice_render import DIE_COLOURS, background, draw_face, speckled_background

# A unit cube standing on the table, corner i at x = i % 2, y = i // 2 % 2, z = i // 4 (less a half in x and y).
CORNERS = np.array([[x, y, z] for z in (0, 1) for y in (-0.5, 0.5) for x in (-0.5, 0.5)], np.float64)
# Its faces as corner indices, counter-clockwise seen from outside (so edge 0-1 x edge 0-3 points out).
FACES = {
    "top": [4, 5, 7, 6],
    "front": [0, 1, 5, 4],
    "back": [3, 2, 6, 7],
    "left": [2, 0, 4, 6],
    "right": [1, 3, 7, 5],
}
ADJACENT = {v: [u for u in range(1, 7) if u not in (v, 7 - v)] for v in range(1, 7)}
MIN_TOP_SHOWN = 0.6  # a die counts as readable when this share of its top face is in view ...
MIN_TOP_IN_FRAME = 0.5  # ... and at least this share of the face lies inside the frame
TEXTURE = 64


@dataclass(frozen=True)
class Camera:
    """A pinhole camera looking at the table's origin from `elevation` degrees above it."""

    elevation: float
    distance: float
    focal: float

    def rotation(self) -> tuple[np.ndarray, np.ndarray]:
        e = np.deg2rad(self.elevation)
        position = np.array([0.0, -self.distance * np.cos(e), self.distance * np.sin(e)])
        forward = -position / self.distance
        right = np.array([1.0, 0.0, 0.0])
        down = np.cross(forward, right)
        return np.stack([right, down, forward]), position

    def project(self, points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Image coordinates about the optical centre, and each point's depth."""
        rot, position = self.rotation()
        cam = (points - position) @ rot.T
        return self.focal * cam[:, :2] / cam[:, 2:3], cam[:, 2]


def die_corners(x: float, y: float, turn: float) -> np.ndarray:
    c, s = np.cos(turn), np.sin(turn)
    spin = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])
    return CORNERS @ spin.T + np.array([x, y, 0.0])


def die_faces(rng: np.random.Generator, top: int) -> dict[str, int]:
    """Values on a die's five faces that a camera above the table can see; opposite faces sum to seven."""
    front = int(rng.choice(ADJACENT[top]))
    right = int(rng.choice([v for v in ADJACENT[top] if v not in (front, 7 - front)]))
    return {"top": top, "front": front, "back": 7 - front, "right": right, "left": 7 - right}


def place_dice(rng: np.random.Generator, count: int) -> list[tuple[float, float, float]]:
    """Die positions (x, y, turn) in die sides: a heap where they touch, or spread over the table."""
    spread = float(rng.uniform(1.3, 3.0)) if rng.random() < 0.5 else float(rng.uniform(3.0, 6.0))
    radius = spread * np.sqrt(count) / 1.6
    placed: list[tuple[float, float, float]] = []
    for _ in range(count * 40):
        if len(placed) == count:
            break
        x, y = rng.uniform(-radius, radius, 2)
        if all(np.hypot(x - px, y - py) >= 1.45 for px, py, _ in placed):
            placed.append((float(x), float(y), float(rng.uniform(0, np.pi / 2))))
    return placed


def marbled(face: np.ndarray, body: tuple[int, int, int], rng: np.random.Generator) -> np.ndarray:
    """The face's body swirled with veins of another colour, pips left as they are.

    Marbled and swirled dice are common at tables (d6-byler has many); their
    veins can look like pips, which plain renders never teach.
    """
    size = face.shape[0]
    field = cv2.GaussianBlur(rng.random((size, size)).astype(np.float32), (0, 0), size / 8)
    field = (field - field.min()) / max(float(np.ptp(field)), 1e-6)
    bands = np.sin(field * float(rng.uniform(5, 14))) - float(rng.uniform(-0.2, 0.6))
    veins = cv2.GaussianBlur(np.clip(bands * 4, 0, 1).astype(np.float32), (0, 0), 1.5)
    is_body = np.abs(face[:, :, :3].astype(np.int16) - np.array(body, np.int16)).sum(2) < 60
    vein = rng.integers(0, 256, 3) if rng.random() < 0.6 else 255 - np.array(body)
    mix = (veins * is_body * float(rng.uniform(0.5, 0.9)))[:, :, None]
    out = face.copy()
    out[:, :, :3] = (face[:, :, :3] * (1 - mix) + vein * mix).astype(np.uint8)
    return out


def shaded(face: np.ndarray, light: float) -> np.ndarray:
    out = face.copy()
    out[:, :, :3] = np.clip(face[:, :, :3].astype(np.float32) * light, 0, 255).astype(np.uint8)
    return out


def paste_quad(canvas: np.ndarray, sprite: np.ndarray, src: np.ndarray, quad: np.ndarray) -> None:
    """Alpha-blend a BGRA sprite's `src` corners onto `quad` of the canvas, warping only round the quad."""
    x0, y0 = np.floor(quad.min(0)).astype(int)
    x1, y1 = np.ceil(quad.max(0)).astype(int) + 1
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, canvas.shape[1]), min(y1, canvas.shape[0])
    if x1 <= x0 or y1 <= y0:
        return
    warp = cv2.getPerspectiveTransform(src, (quad - [x0, y0]).astype(np.float32))
    patch = cv2.warpPerspective(sprite, warp, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR)
    alpha = patch[:, :, 3:4].astype(np.float32) / 255.0
    region = canvas[y0:y1, x0:x1]
    region[:] = (region * (1 - alpha) + patch[:, :, :3] * alpha).astype(np.uint8)


def readable_box(mine: np.ndarray, top_quad: np.ndarray | None) -> tuple[float, float, float, float] | None:
    """The box round a die's visible pixels (`mine`), or None when too little of its top face shows to read it."""
    if top_quad is None or not mine.any():
        return None
    top_mask = np.zeros(mine.shape, np.uint8)
    cv2.fillConvexPoly(top_mask, np.round(top_quad).astype(np.int32), 1)
    in_frame = int(top_mask.sum())
    whole = abs(float(cv2.contourArea(top_quad)))  # also the part beyond the frame's edge
    if in_frame < MIN_TOP_IN_FRAME * whole or (top_mask.astype(bool) & mine).sum() < MIN_TOP_SHOWN * in_frame:
        return None
    ys, xs = np.nonzero(mine)
    return float(xs.min()), float(ys.min()), float(xs.max() + 1), float(ys.max() + 1)


def render_oblique_scene(
    rng: np.random.Generator, width: int = 640, height: int = 480, count: int | None = None,
    elevation: tuple[float, float] = (30.0, 80.0), die_px: tuple[float, float] = (16.0, 90.0),
    marbled_share: float = 0.0,
) -> tuple[np.ndarray, list[tuple[float, float, float, float]], list[int]]:
    """A slanted photo of dice on a table; returns (image, boxes as x0,y0,x1,y1, values on top).

    `die_px` bounds the median die's width in the image; `elevation` the camera's angle above the table;
    `marbled_share` of the dice are swirled (0 draws nothing from `rng` for it, so older scenes stay as they were).
    """
    count = count or int(rng.integers(1, 13))
    img = (speckled_background if rng.random() < 0.2 else background)(rng, width, height)
    camera = Camera(float(rng.uniform(*elevation)), float(rng.uniform(8, 30)), 1.0)
    dice = place_dice(rng, count)
    light = np.array([rng.uniform(-0.6, 0.6), rng.uniform(-0.6, 0.6), 1.0])
    light /= np.linalg.norm(light)
    _, position = camera.rotation()
    projected = []
    for x, y, turn in dice:
        corners = die_corners(x, y, turn)
        points, depth = camera.project(corners)
        projected.append((corners, points, float(depth.mean())))
    widths = [float(np.ptp(points[:, 0])) for _, points, _ in projected]
    scale = float(rng.uniform(*die_px)) / max(float(np.median(widths)), 1e-6)
    every = np.vstack([points for _, points, _ in projected]) * scale
    span = every.max(0) - every.min(0)
    shift = np.array([rng.uniform(0, max(1.0, width - span[0])), rng.uniform(0, max(1.0, height - span[1]))])
    offset = shift - every.min(0) if span[0] < width and span[1] < height else np.array([width, height]) / 2
    # The shadows fall on the table first, all at once, so near dice are drawn over them.
    shadow = np.zeros((height, width), np.float32)
    for _, points, _ in projected:
        hull = cv2.convexHull((points * scale + offset).astype(np.float32)).reshape(-1, 2)
        cv2.fillConvexPoly(shadow, np.round(hull + np.array([0.12, 0.15]) * scale).astype(np.int32), 1.0)
    shadow = cv2.GaussianBlur(shadow, (0, 0), max(1.0, scale / 8))
    img[:] = (img * (1 - 0.35 * shadow[:, :, None])).astype(np.uint8)
    owner = np.full((height, width), -1, np.int32)
    tops = []
    for index in np.argsort([-depth for _, _, depth in projected]):  # far dice first
        corners, points, _ = projected[index]
        image_points = points * scale + offset
        body, pip = DIE_COLOURS[int(rng.integers(len(DIE_COLOURS)))]
        values = die_faces(rng, int(rng.integers(1, 7)))
        swirl = marbled_share > 0 and rng.random() < marbled_share
        hull = cv2.convexHull(image_points.astype(np.float32)).reshape(-1, 2)
        cv2.fillConvexPoly(img, np.round(hull).astype(np.int32), tuple(int(c * 0.55) for c in body), cv2.LINE_AA)
        cv2.fillConvexPoly(owner, np.round(hull).astype(np.int32), int(index))
        top_quad = None
        for name, ids in FACES.items():
            centre = corners[ids].mean(0)
            world_normal = np.cross(corners[ids[1]] - corners[ids[0]], corners[ids[3]] - corners[ids[0]])
            if np.dot(world_normal, position - centre) <= 0:
                continue
            quad = image_points[ids].astype(np.float32)
            lit = 0.45 + 0.6 * max(0.0, float(np.dot(world_normal / np.linalg.norm(world_normal), light)))
            face = draw_face(values[name], TEXTURE, body, pip)
            texture = shaded(marbled(face, body, rng) if swirl else face, lit)
            turns = int(rng.integers(4))
            src = np.roll(np.array([[0, 0], [TEXTURE, 0], [TEXTURE, TEXTURE], [0, TEXTURE]], np.float32), turns, 0)
            paste_quad(img, texture, src, quad)
            if name == "top":
                top_quad = quad
        tops.append((int(index), top_quad, values["top"]))
    boxes: list[tuple[float, float, float, float]] = []
    shown: list[int] = []
    for index, top_quad, value in sorted(tops):
        box = readable_box(owner == index, top_quad)
        if box is not None:
            boxes.append(box)
            shown.append(value)
    img = cv2.GaussianBlur(img, (0, 0), float(rng.uniform(0.3, 1.2)))
    noisy = img.astype(np.float32) + rng.normal(0, float(rng.uniform(0, 6)), img.shape)
    coded = cv2.imencode(".jpg", np.clip(noisy, 0, 255).astype(np.uint8),
                         [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(55, 96))])[1]
    return cv2.imdecode(coded, cv2.IMREAD_COLOR), boxes, shown
