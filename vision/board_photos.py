"""Seeded synthetic photos of the temple board for `eval-cards` and the tests.

Each photo: the rendered board with random cards in the slots, seen through a
random perspective, with blur, sensor noise, uneven light and pawns standing on
cards (each pawn hides at most `max_cover` of one card). Slots are left empty
at random (`empty_share`) or exactly as asked (`empty_slots`), so a board can be
shown at any stage of being filled; the cards can be printed in a café's own
colours (`palette`).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

import cv2
import numpy as np

from vision.card_catalogue import BoardSpec, CardSpec
from vision.card_render import IDOL_COLOURS, render_board
from vision.frames import to_levels, to_light, toned


@dataclass(frozen=True)
class BoardPhoto:
    image: np.ndarray
    truth: dict[int, str | None]
    """slot -> card id placed there (None: left empty)."""
    pawned: frozenset[int] = frozenset()
    """The slots a pawn stands on (its middle; a large one may lean over the next slot's edge)."""
    under_arm: frozenset[int] = frozenset()
    """The slots an arm held over the board hides half of or more (`add_arm`)."""


def random_layout(rng: np.random.Generator, cards: list[CardSpec], board: BoardSpec, empty_share: float,
                  empty_slots: Collection[int] | None = None) -> dict:
    """Random cards; with `empty_slots` given exactly those slots stay empty (and no others)."""
    chosen = rng.choice(len(cards), size=len(board.slots), replace=len(cards) < len(board.slots))
    layout: dict[int, CardSpec | None] = {}
    for slot, index in zip(board.slots, chosen, strict=True):
        empty = rng.random() < empty_share if empty_slots is None else slot.slot in empty_slots
        layout[slot.slot] = None if empty else cards[int(index)]
    return layout


def random_empty_slots(rng: np.random.Generator, board: BoardSpec, filled: int) -> frozenset[int]:
    """The slots left empty when only `filled` of them hold a card (as during the temple's assembly)."""
    numbers = [slot.slot for slot in board.slots]
    keep = rng.choice(len(numbers), size=min(max(filled, 0), len(numbers)), replace=False)
    return frozenset(numbers) - {numbers[int(i)] for i in keep}


def add_pawns(img: np.ndarray, to_img: np.ndarray, board: BoardSpec, rng: np.random.Generator,
              count: int, max_cover: float) -> frozenset[int]:
    """Pawns as shaded discs over random slots; area at most max_cover of a card (9 cells). Returns their slots."""
    cell = to_img[0, 0]
    pawned = set()
    for _ in range(count):
        slot = board.slots[int(rng.integers(len(board.slots)))]
        pawned.add(slot.slot)
        u, v = rng.uniform(0.4, 2.6, 2)
        bx, by, _ = slot.card_to_board() @ np.array([u, v, 1.0])
        x, y = to_img[0, 0] * bx + to_img[0, 2], to_img[1, 1] * by + to_img[1, 2]
        area = rng.uniform(0.3, 1.0) * max_cover * 9 * cell * cell
        radius = float(np.sqrt(area / np.pi))
        colour = list(IDOL_COLOURS.values())[int(rng.integers(4))]
        centre = (round(x), round(y))
        cv2.circle(img, centre, round(radius), tuple(int(c * 0.6) for c in colour), -1, cv2.LINE_AA)
        cv2.circle(img, centre, round(radius * 0.7), colour, -1, cv2.LINE_AA)
        cv2.circle(img, (round(x - radius * 0.25), round(y - radius * 0.25)), max(1, round(radius * 0.2)),
                   tuple(min(255, c + 80) for c in colour), -1, cv2.LINE_AA)
    return frozenset(pawned)


def add_glare(image: np.ndarray, near: np.ndarray, rng: np.random.Generator, cell: float) -> None:
    """Glare off a glossy card or sleeve near each of the points ``near`` (frame pixels; ``cell``: a board cell's
    size there), in place: a soft oval up to about two cells long, white to the camera's limit in its middle."""
    height, width = image.shape[:2]
    for x, y in near:
        x, y = x + rng.normal(0, cell * 0.6), y + rng.normal(0, cell * 0.6)
        across = cell * rng.uniform(0.3, 0.7)
        stretch, turn = rng.uniform(1.0, 2.0), rng.uniform(0, np.pi)
        reach = 3.5 * across * stretch  # past it the shine is under 1/256 of white
        x0, x1 = max(0, int(x - reach)), min(width, int(x + reach) + 1)
        y0, y1 = max(0, int(y - reach)), min(height, int(y + reach) + 1)
        if x0 >= x1 or y0 >= y1:
            continue
        ys, xs = np.mgrid[y0:y1, x0:x1].astype(np.float32)
        u = ((xs - x) * np.cos(turn) + (ys - y) * np.sin(turn)) / (across * stretch)
        v = (-(xs - x) * np.sin(turn) + (ys - y) * np.cos(turn)) / across
        shine = np.clip(1.6 * np.exp(-(u * u + v * v)), 0.0, 1.0)[:, :, None]
        spot = image[y0:y1, x0:x1]
        spot *= 1.0 - shine
        spot += 300.0 * shine  # past white: the camera clips it


def veiled(image: np.ndarray, veil: float) -> np.ndarray:
    """The photo seen through a veil of scattered light (a smeared lens, a lamp shining into it): each pixel's light
    mixed with the picture's own light blurred by 25 px, ``veil`` of it."""
    light = to_light(image)
    return to_levels(light * (1.0 - veil) + cv2.GaussianBlur(light, (0, 0), 25) * veil)


def shadowed(image: np.ndarray, rng: np.random.Generator, depth: float) -> np.ndarray:
    """The photo with a hard shadow's band across it (the camera's arm, or a player's, under a spotlight): a straight
    band an eighth to over a quarter of the frame's height wide, at any angle, through the middle part of the frame,
    its edges blurred by 2 px; inside it the light is ``depth`` less (0.85: a sixth of the light is left)."""
    return shaded(image, *band_drawn(rng, image.shape), depth)


def band_drawn(rng: np.random.Generator, shape: tuple[int, ...]) -> tuple[float, np.ndarray, float]:
    """Where `shadowed` lays its band in a picture of ``shape``: (the turn of its normal, its middle, its width)."""
    height, width = shape[:2]
    turn = rng.uniform(0.0, np.pi)
    middle = np.array([width, height]) / 2.0 + rng.uniform(-0.16, 0.16, 2) * width
    return turn, middle, rng.uniform(0.125, 0.3) * height


def shaded(image: np.ndarray, turn: float, middle: np.ndarray | tuple[float, float], across: float, depth: float,
           one_edge: bool = False) -> np.ndarray:
    """The photo with its light ``depth`` less in a straight band ``across`` px wide through ``middle``, its normal
    ``turn`` from the x axis, edges blurred by 2 px; with ``one_edge``, from the band's first edge to the picture's
    end (a shadow with one edge in view)."""
    height, width = image.shape[:2]
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    along = (xs - middle[0]) * np.cos(turn) + (ys - middle[1]) * np.sin(turn)
    inside = along > -across / 2 if one_edge else np.abs(along) < across / 2
    dark = cv2.GaussianBlur(inside.astype(np.float32), (0, 0), 2)
    return to_levels(to_light(image) * (1.0 - depth * dark)[:, :, None])


def add_arm(image: np.ndarray, slots: list[np.ndarray], rng: np.random.Generator) -> frozenset[int]:
    """An arm reaching in from an edge of the frame to lay or straighten a card, drawn in place: a skin-coloured
    band about a card wide, from a random point of a frame edge to a hand over a random slot (``slots``: each
    slot's four corners in frame pixels, in board order). Returns the indices of the slots it hides half of or
    more."""
    height, width = image.shape[:2]
    side = float(np.mean([np.linalg.norm(quad[1] - quad[0]) for quad in slots]))
    hand = slots[int(rng.integers(len(slots)))].mean(0) + rng.normal(0, side * 0.3, 2)
    along = rng.uniform(0.2, 0.8)
    edge = [(along * width, 0.0), (float(width), along * height), (along * width, float(height)),
            (0.0, along * height)][int(rng.integers(4))]
    shoulder = np.array(edge) + (np.array(edge) - hand) * 0.2  # the arm goes on past the frame's edge
    across = side * rng.uniform(0.7, 1.2)
    mask = np.zeros((height, width), np.float32)
    cv2.line(mask, tuple(int(v) for v in shoulder), tuple(int(v) for v in hand), 1.0, max(1, int(across)))
    cv2.circle(mask, tuple(int(v) for v in hand), int(across * 0.75), 1.0, -1)
    mask = cv2.GaussianBlur(mask, (0, 0), 2)[:, :, None]
    skin = np.array([rng.uniform(90, 150), rng.uniform(120, 175), rng.uniform(170, 235)], np.float32)
    shade = cv2.GaussianBlur(rng.normal(1, 0.15, (height, width)).astype(np.float32), (0, 0), 8)[:, :, None]
    image[:] = np.clip(image * (1 - mask) + skin * shade * mask, 0, 255)
    hidden = set()
    for index, quad in enumerate(slots):
        inside = np.zeros((height, width), np.uint8)
        cv2.fillConvexPoly(inside, quad.astype(np.int32), 1)
        if (mask[:, :, 0][inside > 0] > 0.5).mean() >= 0.5:
            hidden.add(index)
    return frozenset(hidden)


def board_photo(
    rng: np.random.Generator,
    cards: list[CardSpec],
    board: BoardSpec,
    size: tuple[int, int] = (640, 480),
    pawns: int = 4,
    max_cover: float = 0.15,
    empty_share: float = 0.05,
    empty_slots: Collection[int] | None = None,
    palette: dict[tuple[int, int, int], tuple[int, int, int]] | None = None,
    askew: tuple[float, float] = (0.0, 0.0),
    glare: int = 0,
    arm: bool = False,
    moved: tuple[float, float, float] = (0.0, 0.0, 0.0),
    ink: float = 0.0,
) -> BoardPhoto:
    """``palette``: the cards printed in a café's own colours (`render_board`); the same seed gives the same
    photo with or without it, but for the cards' colours. ``askew``: each card laid by hand, up to so many cells
    off its slot each way and turned up to so many degrees (`render_board`); (0, 0) draws nothing for it, so a
    seed's photos stay as they were. ``glare``: so many spots of a lamp's glare off glossy cards, each on a random
    slot (`add_glare`); none draws nothing, as for ``askew``. ``arm``: an arm held still over the board
    (`add_arm`), drawn before the light, blur and noise fall on the photo. ``moved``: the board slid so many
    cells east and south and turned so many degrees clockwise about its middle on the table once the camera was
    placed, which stays where it was (the same seed and ``moved`` (0, 0, 0) give the unmoved photo). ``ink``: the
    board, cards and markers printed with black reflecting that share of the paper's light (`frames.toned`), as
    real ink does (about 0.05) where the drawings draw it at 0; 0 draws as before."""
    width, height = size
    layout = random_layout(rng, cards, board, empty_share, empty_slots)
    cell_px = 24
    laid = (
        {slot.slot: (*rng.uniform(-askew[0], askew[0], 2), rng.uniform(-askew[1], askew[1])) for slot in board.slots}
        if askew != (0.0, 0.0)
        else None
    )
    flat, to_img = render_board(board, layout, cell_px, palette=palette, askew=laid)
    if ink:
        flat = toned(flat, ink)
    pawned = add_pawns(flat, to_img, board, rng, int(rng.integers(0, pawns + 1)), max_cover)
    side = flat.shape[0]
    # Camera: turned a little, slightly oblique, as large as the frame allows with the markers in view.
    angle = rng.uniform(-12, 12) + 90 * int(rng.integers(4))
    rad = np.deg2rad(angle)
    rot = np.array([[np.cos(rad), -np.sin(rad)], [np.sin(rad), np.cos(rad)]])
    corners = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], float) @ rot.T + rng.normal(0, 0.04, (4, 2))
    src = np.array([[0, 0], [side, 0], [side, side], [0, side]], np.float32)
    # Outer corners of the markers, in canvas pixels: they must stay inside the frame.
    lo = to_img[0, 2] - 3.0 * cell_px
    hi = to_img[0, 2] + (board.size + 3.0) * cell_px
    markers = np.array([[lo, lo], [hi, lo], [hi, hi], [lo, hi]], np.float32).reshape(-1, 1, 2)
    scale = 1.0
    for _ in range(30):
        quad = corners * (height / 2) * scale * rng.uniform(0.97, 1.0) + np.array([width / 2, height / 2])
        warp = cv2.getPerspectiveTransform(src, quad.astype(np.float32))
        seen = cv2.perspectiveTransform(markers, warp).reshape(-1, 2)
        if seen.min() >= 6 and seen[:, 0].max() <= width - 6 and seen[:, 1].max() <= height - 6:
            break
        scale *= 0.96
    if moved != (0.0, 0.0, 0.0):
        middle = to_img[0, 2] + board.size * cell_px / 2
        slide = cv2.getRotationMatrix2D((middle, middle), -moved[2], 1.0)
        slide[:, 2] += np.array(moved[:2]) * cell_px
        warp = warp @ np.vstack([slide, [0.0, 0.0, 1.0]])
    table = np.empty((height, width, 3), np.uint8)
    table[:] = rng.integers(60, 160, 3)
    img = cv2.warpPerspective(flat, warp, (width, height), dst=table, borderMode=cv2.BORDER_TRANSPARENT,
                              flags=cv2.INTER_AREA)
    under_arm: frozenset[int] = frozenset()
    if arm:
        cell = np.array([[0, 0, 1], [3, 0, 1], [3, 3, 1], [0, 3, 1]], float).T
        quads = [cv2.perspectiveTransform((to_img @ slot.card_to_board() @ cell)[:2].T[None].astype(np.float32),
                                          warp)[0] for slot in board.slots]
        hidden = add_arm(img, quads, rng)
        under_arm = frozenset(board.slots[i].slot for i in hidden)
    # Uneven light: a smooth gain field; colour cast; blur; noise.
    gain = cv2.resize(rng.uniform(0.6, 1.25, (3, 3)).astype(np.float32), (width, height),
                      interpolation=cv2.INTER_CUBIC)
    out = img.astype(np.float32) * gain[:, :, None] * rng.uniform(0.9, 1.1, 3)
    out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.3, 1.3))
    out += rng.normal(0, rng.uniform(2, 7), out.shape)
    if glare:
        middles = np.array([[to_img @ slot.card_to_board() @ [1.5, 1.5, 1.0]] for slot in board.slots], np.float32)
        spots = cv2.perspectiveTransform(middles[:, :, :2], warp).reshape(-1, 2)
        add_glare(out, spots[rng.integers(len(spots), size=glare)], rng, cell_px * scale * height / side)
    truth = {slot: (card.id if card else None) for slot, card in layout.items()}
    return BoardPhoto(np.clip(out, 0, 255).astype(np.uint8), truth, pawned, under_arm)
