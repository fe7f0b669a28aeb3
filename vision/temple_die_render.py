"""Top-down photos of the temple die, drawn with OpenCV.

No photo set of this die exists, so the reader is taught from these renders
until a café teaches it its own die, and the tests and `eval-temple-die` read
them. The die is drawn as a d20 seen from above: a shaded hexagon of
neighbouring faces round a triangular top face carrying the value.
"""

from __future__ import annotations

import cv2
import numpy as np

FACE_COLOURS = {"red": (40, 40, 190), "white": (225, 228, 230)}
SILHOUETTE = 0.95  # the drawn die's radius round its middle, in edges of its top face
GLYPH_COLOURS = {"red": (245, 245, 245), "white": (25, 25, 25)}


def render_temple_die(
    rng: np.random.Generator,
    value: str,
    colour: str,
    size: tuple[int, int] = (640, 480),
    edge: float | None = None,
    angle: float | None = None,
    tray: tuple[float, float, float] | None = None,
    slope: float | None = None,
) -> tuple[np.ndarray, tuple[float, float, float]]:
    """A top-down photo of the die on a tray; returns (image, (cx, cy, radius)).

    `tray` (BGR) and `slope` (how much brighter one side of the frame is than the
    middle, 0..0.25) are drawn at random unless given.
    """
    width, height = size
    edge = edge or float(rng.uniform(60, 90))
    angle = float(rng.uniform(0, 360)) if angle is None else angle  # drawn first: a seed's renders stay as they were
    img = np.empty((height, width, 3), np.float32)
    img[:] = tray_colour(rng) if tray is None else tray
    img += rng.normal(0, 4, img.shape)
    radius = edge * SILHOUETTE
    cx = float(rng.uniform(radius + 5, width - radius - 5))
    cy = float(rng.uniform(radius + 5, height - radius - 5))
    draw_die(img, rng, value, colour, (cx, cy), edge, angle)
    img *= light_falloff(rng, width, height, slope)
    img = cv2.GaussianBlur(img, (0, 0), float(rng.uniform(0.3, 1.0))) + rng.normal(0, 3, img.shape)
    return np.clip(img, 0, 255).astype(np.uint8), (cx, cy, radius)


def draw_die(img: np.ndarray, rng: np.random.Generator, value: str, colour: str, centre: tuple[float, float],
             edge: float, angle: float) -> None:
    """The die drawn onto a float BGR picture (a tray, or a board it was rolled onto), its top face's edge ``edge``
    px long and turned ``angle`` degrees; its sides' shades are drawn from ``rng``."""
    cx, cy = centre
    radius = edge * SILHOUETTE
    rad = np.deg2rad(angle)
    # Silhouette: a hexagon of neighbouring faces, shaded, each red or white.
    hexagon = [(cx + radius * np.cos(rad + k * np.pi / 3), cy + radius * np.sin(rad + k * np.pi / 3)) for k in range(6)]
    for k in range(6):
        tri = np.array([(cx, cy), hexagon[k], hexagon[(k + 1) % 6]], np.int32)
        side = FACE_COLOURS["red" if rng.random() < 0.5 else "white"]
        cv2.fillConvexPoly(img, tri, tuple(float(c) * rng.uniform(0.45, 0.7) for c in side), cv2.LINE_AA)
    top_r = edge / np.sqrt(3)
    top = np.array([(cx + top_r * np.cos(rad + np.pi / 2 + k * 2 * np.pi / 3),
                     cy + top_r * np.sin(rad + np.pi / 2 + k * 2 * np.pi / 3)) for k in range(3)], np.int32)
    cv2.fillConvexPoly(img, top, FACE_COLOURS[colour], cv2.LINE_AA)
    glyph = draw_glyph(value, colour, int(edge * 0.42))
    paste_glyph(img, glyph, (cx, cy), angle)
    return radius


def tray_colour(rng: np.random.Generator) -> np.ndarray:
    """Mostly dark felt, but also trays close to the die's own colours: a dark red one, a light grey one."""
    kind = rng.random()
    if kind < 0.5:
        return rng.integers(30, 110, 3).astype(np.float32)
    if kind < 0.75:
        return np.array([rng.uniform(25, 60), rng.uniform(25, 60), rng.uniform(90, 150)], np.float32)
    return np.full(3, rng.uniform(140, 180), np.float32) + rng.normal(0, 6, 3).astype(np.float32)


def light_falloff(rng: np.random.Generator, width: int, height: int, slope: float | None = None) -> np.ndarray:
    """Overall exposure times a gradient across the frame, as a lamp off to one side gives."""
    direction = rng.uniform(0, 2 * np.pi)
    slope = float(rng.uniform(0, 0.25)) if slope is None else slope
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    ramp = (xx / width - 0.5) * np.cos(direction) + (yy / height - 0.5) * np.sin(direction)
    gain = rng.uniform(0.8, 1.15) * (1 + 2 * slope * ramp)
    return gain[:, :, None]


def draw_glyph(value: str, colour: str, size: int) -> np.ndarray:
    """The printed value as a BGRA sprite, size pixels tall."""
    canvas = np.zeros((size * 2, size * 2, 4), np.uint8)
    scale = size / 22.0
    thick = max(2, round(size / 8))
    (tw, th), _ = cv2.getTextSize(value, cv2.FONT_HERSHEY_SIMPLEX, scale, thick)
    org = (size - tw // 2, size + th // 2)
    cv2.putText(canvas, value, org, cv2.FONT_HERSHEY_SIMPLEX, scale, (*GLYPH_COLOURS[colour], 255), thick, cv2.LINE_AA)
    if value in ("6",):  # an underline tells 6 from 9 on real dice; harmless here
        cv2.line(canvas, (size - tw // 2, size + th // 2 + thick * 2), (size + tw // 2, size + th // 2 + thick * 2),
                 (*GLYPH_COLOURS[colour], 255), max(1, thick // 2))
    return canvas


def paste_glyph(img: np.ndarray, sprite: np.ndarray, centre: tuple[float, float], angle: float) -> None:
    """Alpha-blend a BGRA sprite onto a float BGR picture, turned ``angle`` degrees about its middle at ``centre``.

    Blended only where the turned sprite lies (its alpha's bounding box): elsewhere the blend gave each float back
    as it was (times 1, plus 0), over the whole picture, about a sixth of a 640x480 render's work."""
    h, w = sprite.shape[:2]
    matrix = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
    matrix[0, 2] += centre[0] - w / 2
    matrix[1, 2] += centre[1] - h / 2
    warped = cv2.warpAffine(sprite, matrix, (img.shape[1], img.shape[0]))
    x, y, box_w, box_h = cv2.boundingRect(np.ascontiguousarray(warped[:, :, 3]))
    spot, warped = img[y:y + box_h, x:x + box_w], warped[y:y + box_h, x:x + box_w].astype(np.float32)
    alpha = warped[:, :, 3:4] / 255.0
    spot[:] = spot * (1 - alpha) + warped[:, :, :3] * alpha
