"""How a card image looks to the card reader, and the references it is held against.

A slot's colours normalised for the light (`normalise`, `seen_lab`), how plain or marked it is (`plain_look`),
the lines printed between a card's cells (`grid_lines`), a taught photo evened out (`taught_reference`), and the
drawings and photos of the deck as `References`, the drawings toned to the camera's ink (`frames.toned`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.card_catalogue import CardSpec, appearance_groups
from vision.card_cover import mend_covered
from vision.card_render import render_card
from vision.frames import toned

MATCH_SIZE = 30
CHROMA_WEIGHT = 2.0
LOCAL_BRIGHT = 190.0
# A slot pixel this bright in all three colours is glare off a glossy card or sleeve, which the camera clipped: it
# tells nothing of the card under it. It costs every reference alike (`seen_lab`) and leaves the slot's gain alone
# (`normalise`). On 100 of `eval-cards`' photos (seed 8) with two glare spots each (about 15 px across, up to 30),
# 1,158 of 1,188 slots read right and 7 wrong cards were sure enough for the tracker to count; now 1,171 and none.
CLIPPED_AT = 245
# A print whose paper the camera clips in one or two colours but not all three (a pale print under a bright lamp: a
# mint card's green at 255 while its red and blue are not) is stored with another hue than it has; taught so, it was
# held against every later photo, and the deck's cards read as others surely enough to be taken. A slot with more
# than CLIPPED_COLOUR_SHARE of it so clipped (CLIPPED_COLOUR_AT or more in a colour, under CLIPPED_AT in another) is
# refused by the teach step (`clipped_colour_share`). A mint deck of 49 cards taught from camera views under a lamp
# 1.25 times the usual light, then read on 20 eval-cards photos (240 slots): 0.52 right, 55 wrong surely enough to be
# taken; refused and taught again with the lamp dimmed, 0.98 and 2. The house print so taught: 0.94 and 9. In
# eval-cards' own light 2 of 240 house slots and 34 of 240 mint ones pass the bar (docs/vision.md).
CLIPPED_COLOUR_AT = 250
CLIPPED_COLOUR_SHARE = 0.3
# A pixel is marked when its grey differs from the slot's middle grey by this share of it or more (`plain_look`;
# how that tells a bare slot from a print: card_reader's BARE_* thresholds).
PLAIN_STEP = 0.15
# A print in the bare slot's own grey with one or two holes is no more marked than a bare slot under a pawn,
# and was refused one time in three: what it has besides is the edge every path cell is printed with, on the
# lines between the card's cells, which no pawn lies along (`grid_lines`). They are looked for on the slot
# warped at LINE_SIZE, rows that cross anything coloured (a pawn, an idol, a stair) by LINE_COLOURED over the
# slot's own middle chroma, grown by LINE_CLEAR pixels, left out; a line with fewer than LINE_ROWS clear rows
# is passed over, and each direction's pair of lines is taken at the shift of up to a pixel that shows them
# best (the markers place a slot about that well). A slot shows printed lines when their mean darkness, as a
# share of the slot's middle grey, is LINES_DARK more than the bare-slot reference's and LINES_SURE times its
# standard error. On 3,600 bare slots of 300 seeded eval-cards photos (up to 12 pawns a board) the darkness
# reached 0.031 and the sureness 3.8, never both past their bars; on 456 grey prints with one or two holes or
# idols (three greys, eval-cards' light and pawns) they were 0.045 and 7.8 at the least (docs/vision.md).
LINE_SIZE = MATCH_SIZE * 2
LINE_COLOURED = 0.25
LINE_CLEAR = 5
LINE_ROWS = 12
LINES_DARK = 0.025
LINES_SURE = 5.0
# A taught photo is one frame: it keeps that frame's sensor noise and the slope of the light across its slot (a lamp
# to one side), where the drawings have neither, and `normalise` takes only the slot's level away. Against every
# query a noisy photo costs more than a clean one, and a slope more than a cell, so in a grey deck, whose holes are
# only twice as dark as its paper and whose cells differ in lightness alone, one card's photo drew another's slots
# (P47 read as P46, P08 as P17). A taught photo is made a reference (`taught_reference`) at TAUGHT_SIZE, denoised
# (OpenCV's non-local means, strength DENOISE) and evened out (`even_light`): the light is fitted as a slope over the
# middles of its plain cells (EVEN_MARGIN of a cell left at each side), a cell lying off it by more than EVEN_OFF (a
# pawn) is left out once, and a photo with fewer than EVEN_CELLS plain cells keeps its slope. The photo stored stays
# as the camera saw it.
TAUGHT_SIZE = MATCH_SIZE * 2
DENOISE = 6.0
EVEN_MARGIN = 0.2
EVEN_OFF = 0.1
EVEN_CELLS = 4
# A card printed plain all over: `plain_look`'s marked share under this (card_reader's PLAIN_LINES_* say what such
# a card's slot must show).
PLAIN_CARD = 0.05
# How far off their place, and turned how far, a slot's printed lines are looked for (`lines_laid_askew`).
LINE_REACH = 6
LINE_TURNS = (0.0, -6.0, 6.0)


def normalise(card: np.ndarray, white: np.ndarray | None = None) -> np.ndarray:
    """Lab of the card as if lit by white light: divided by the paper white measured near it."""
    img = card.astype(np.float32)
    if white is not None:
        img *= 255.0 / white.reshape(1, 1, 3)
    # Light is uneven across the board, so the slot's own brighter pixels (mostly path) set its gain too.
    # Glare the camera clipped is no paper: it is left out of that, while a quarter of the slot is left.
    grey = img.mean(2).ravel()
    unclipped = grey[card.min(2).ravel() < CLIPPED_AT]
    if unclipped.size >= grey.size // 4:
        grey = unclipped
    k = int(grey.size * 0.75)
    img *= LOCAL_BRIGHT / max(float(np.partition(grey, k)[k]), 8.0)
    img = cv2.GaussianBlur(np.clip(img, 0, 255), (3, 3), 0.8) / 255.0
    lab = cv2.cvtColor(img, cv2.COLOR_BGR2LAB)
    lab[:, :, 1:] *= CHROMA_WEIGHT
    return lab


def clipped_colour_share(card: np.ndarray, at: int = CLIPPED_COLOUR_AT) -> float:
    """The share of a slot image (BGR, uint8, as the camera saw it) clipped in some colours but not all (``at`` or
    more in one, under `CLIPPED_AT` in another): its hue lost, where glare clipped in all three is white only."""
    some = card.max(2) >= at
    return float((some & (card.min(2) < CLIPPED_AT)).mean()) if card.size else 0.0


# Until session 57 the teach step clipped a stored photo at 255 right after dividing it by the board's white
# (`card_reader.taught_image`), and the photos stay so on disk. A photo stored since is lowered until at most 1% of
# it passes 250, so no more than 1% of it can lie at 255 (0.3% at most on 36 photos of the house, mint and grey decks
# taught under a lamp, in uneven light and in bright light); of the same photos stored the old way, mint ones held
# 0.2 to 0.65 of their pixels at 255 in one colour and under CLIPPED_AT in another, and 6 of the 12 were read wrong
# surely, or drew their look-alikes' slots, on 8 board photos read again: all of them at 0.31 or more
# (docs/vision.md). A photo with more than STORED_CLIPPED_SHARE so clipped is named as one to teach again.
STORED_CLIPPED_SHARE = 0.1


def stored_clipped(photo: np.ndarray) -> bool:
    """Whether a taught photo (BGR, as stored) was clipped by the teach step before session 57's fix, its hue lost."""
    return clipped_colour_share(photo, 255) > STORED_CLIPPED_SHARE


def seen_lab(card: np.ndarray, white: np.ndarray | None) -> np.ndarray:
    """A slot image `normalise`d, with the pixels the camera clipped (glare) and their rims as NaN, so that they
    say nothing of the card (`CardReader._distances`)."""
    lab = normalise(card, white)
    clipped = card.min(2) >= CLIPPED_AT
    if clipped.any():
        clipped = cv2.dilate(clipped.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
        lab[clipped] = np.nan
    return lab


def plain_look(card: np.ndarray) -> tuple[float, float]:
    """(brightness, marked share) of a card image in the references' colours: what tells a print from a bare slot.

    `normalise` sets every slot to the same brightness, so a café's card printed
    in pale mint matched the grey bare slot better than any sand card and was
    refused as an empty slot. A print always has what a bare slot has not: paper
    brighter than the board, or marks on it (holes, cell edges, idols). The
    brightness is the 75th percentile of grey, the paper's even on a card that
    is mostly holes; the marked share is that of pixels whose grey differs from
    the middle grey by PLAIN_STEP of it or more, which a pawn on a bare slot
    reaches only over the little it covers.
    """
    grey = cv2.GaussianBlur(card.astype(np.float32).mean(2), (5, 5), 1.2)  # sensor noise is no mark
    middle = max(float(np.median(grey)), 8.0)
    bright = max(float(np.percentile(grey, 75)), 1.0)
    return bright, float((np.abs(grey - middle) > PLAIN_STEP * middle).mean())


def grid_lines(card: np.ndarray, reach: int = 1) -> tuple[float, float]:
    """(darkness, sureness) of the lines between a card image's 3 x 3 cells: what every print has and no bare slot.

    A café's card printed in the bare slot's own grey with one or two holes has
    no more marked pixels than a bare slot under a pawn (`plain_look`), but
    each path cell is printed with an edge, so the two lines across the card
    each way are darker than the paper beside them. Per row crossing a line:
    the paper 4-5 pixels either side less the line (weights 1, 2, 1), as a
    share of the slot's middle grey; rows that cross anything coloured (pawns,
    idols, stairs) are left out. Darkness is the mean over the lines seen,
    sureness that mean over its standard error (neighbouring rows counted as
    one, they share the camera's blur). Both 0.0 when no line can be seen. The
    lines are looked for up to ``reach`` pixels (of LINE_SIZE) off their place,
    both lines of a direction shifted alike, as a card laid askew shifts them.
    """
    img = card.astype(np.float32)
    if img.shape[:2] != (LINE_SIZE, LINE_SIZE):
        img = cv2.resize(img, (LINE_SIZE, LINE_SIZE), interpolation=cv2.INTER_AREA)
    b, g, r = img[:, :, 0], img[:, :, 1], img[:, :, 2]  # numpy's reductions over the last 3 are slow
    grey = (b + g + r) / 3
    grey /= max(float(np.median(grey)), 8.0)
    top = np.maximum(np.maximum(b, g), r)
    chroma = (top - np.minimum(np.minimum(b, g), r)) / np.maximum(top, 8.0)
    grow = np.ones((2 * LINE_CLEAR + 1, 2 * LINE_CLEAR + 1), np.uint8)
    coloured = cv2.dilate((chroma > float(np.median(chroma)) + LINE_COLOURED).astype(np.uint8), grow) > 0
    third = LINE_SIZE // 3
    # Both lines at each shift, all at once (the reader looks at many slots of a grey deck): the shifts of the
    # first line, then of the second.
    shifts = np.arange(-reach, reach + 1)
    ks = np.concatenate([third + shifts, 2 * third + shifts])
    n = len(shifts)
    total, variance, lines = 0.0, 0.0, 0
    for rows, skip in ((grey, coloured), (grey.T, coloured.T)):  # the lines down the card, then across
        # A row is clear of a line at k when nothing coloured lies within 6 pixels of it (a running count along it).
        counts = np.zeros((skip.shape[0], skip.shape[1] + 1), np.int32)
        np.cumsum(skip, axis=1, out=counts[:, 1:])
        clear = counts[:, ks + 7] == counts[:, ks - 6]
        line = (rows[:, ks - 1] + 2 * rows[:, ks] + rows[:, ks + 1]) / 4
        paper = (rows[:, ks - 5] + rows[:, ks - 4] + rows[:, ks + 4] + rows[:, ks + 5]) / 4
        darker = (paper - line).astype(np.float64)
        seen_rows = clear.sum(0)
        rows_of = np.maximum(seen_rows, 1)
        mean = (darker * clear).sum(0) / rows_of
        var = (((darker - mean) ** 2) * clear).sum(0) / rows_of * 2.0 / rows_of
        usable = (seen_rows >= LINE_ROWS).tolist()
        means, vars_ = mean.tolist(), var.tolist()
        best: tuple[float, float, int] | None = None
        for shift in range(n):
            pair = [j for j in (shift, shift + n) if usable[j]]
            if not pair:
                continue
            dark, var_sum = sum(means[j] for j in pair), sum(vars_[j] for j in pair)
            if best is None or dark / np.sqrt(var_sum + 1e-9) > best[0] / np.sqrt(best[1] + 1e-9):
                best = (dark, var_sum, len(pair))
        if best is not None:
            total, variance, lines = total + best[0], variance + best[1], lines + best[2]
    if not lines:
        return 0.0, 0.0
    return total / lines, total / float(np.sqrt(variance + 1e-9))


def lines_laid_askew(card: np.ndarray, enough: Callable[[float, float], bool]) -> tuple[float, float]:
    """`grid_lines` of a card image as a hand may have laid the card: its lines up to LINE_REACH pixels off their
    place and turned as LINE_TURNS says. The first turn whose (darkness, sureness) is ``enough``, else
    the surest: each turn costs a `grid_lines`, and a card laid true needs one."""
    img = card.astype(np.float32)
    if img.shape[:2] != (LINE_SIZE, LINE_SIZE):
        img = cv2.resize(img, (LINE_SIZE, LINE_SIZE), interpolation=cv2.INTER_AREA)
    middle = (LINE_SIZE / 2, LINE_SIZE / 2)
    best = (0.0, 0.0)
    for turn in LINE_TURNS:
        turned = img if not turn else cv2.warpAffine(img, cv2.getRotationMatrix2D(middle, turn, 1.0),
                                                     (LINE_SIZE, LINE_SIZE), borderMode=cv2.BORDER_REPLICATE)
        found = grid_lines(turned, LINE_REACH)
        if enough(*found):
            return found
        best = max(best, found, key=lambda pair: pair[1])
    return best


def lines_printed(dark: float, sure: float, bare_dark: float) -> bool:
    """Whether `grid_lines`' (darkness, sureness) show printed lines beside a bare-slot reference's darkness."""
    return dark >= bare_dark + LINES_DARK and sure >= LINES_SURE


def even_light(card: np.ndarray, cells: tuple[tuple[str, ...], ...] | None) -> np.ndarray:
    """A taught photo of a card with ``cells`` (None: a bare slot) with the slope of the light across it taken out.

    The light's level at each plain ("path") cell is the median grey of its
    middle; a slope (log-linear in the cell's column and row) fitted to them,
    the one cell furthest off it left out when it lies more than EVEN_OFF
    off (a pawn, a glare), is divided out, kept at 1 in the card's middle so
    the photo's own brightness stays. A photo with fewer than EVEN_CELLS plain
    cells, or none usable, is returned as it is.
    """
    img = card.astype(np.float32)
    height, width = img.shape[:2]
    grey = img.sum(2) / 3
    columns, rows, levels = [], [], []
    for r in range(3):
        for c in range(3):
            if cells is not None and cells[r][c] != "path":
                continue
            y0, y1 = round(height * (r + EVEN_MARGIN) / 3), round(height * (r + 1 - EVEN_MARGIN) / 3)
            x0, x1 = round(width * (c + EVEN_MARGIN) / 3), round(width * (c + 1 - EVEN_MARGIN) / 3)
            level = float(np.median(grey[y0:y1, x0:x1])) if y1 > y0 and x1 > x0 else 0.0
            if level >= 8.0:
                columns.append(c - 1.0)
                rows.append(r - 1.0)
                levels.append(np.log(level))
    if len(levels) < EVEN_CELLS:
        return card
    fit = np.column_stack([np.ones(len(levels)), columns, rows])
    logs = np.array(levels)
    slope = np.linalg.lstsq(fit, logs, rcond=None)[0]
    off = np.abs(fit @ slope - logs)
    if len(levels) > EVEN_CELLS and off.max() > EVEN_OFF:
        keep = np.arange(len(levels)) != int(off.argmax())
        slope = np.linalg.lstsq(fit[keep], logs[keep], rcond=None)[0]
    u = (np.arange(width, dtype=np.float32) + 0.5) * 3 / width - 1.5  # a pixel's column, in cells from the middle
    v = (np.arange(height, dtype=np.float32) + 0.5) * 3 / height - 1.5
    light = np.exp(slope[1] * u[None, :] + slope[2] * v[:, None]).astype(np.float32)
    return np.clip(img / light[:, :, None], 0, 255).astype(card.dtype)


def taught_reference(photo: np.ndarray, cells: tuple[tuple[str, ...], ...] | None) -> np.ndarray:
    """A taught photo (BGR, uint8) of a card with ``cells`` (None: a bare slot) as the reader matches it: at
    TAUGHT_SIZE, what lies on its plain and hole cells painted out (`mend_covered`), its sensor noise and the
    slope of the light across it taken out (`even_light`)."""
    if photo.shape[:2] != (TAUGHT_SIZE, TAUGHT_SIZE):
        photo = cv2.resize(photo, (TAUGHT_SIZE, TAUGHT_SIZE), interpolation=cv2.INTER_AREA)
    photo = mend_covered(photo, cells)  # a pawn's edge left in a photo taught (or stored before the teach step refused)
    return even_light(cv2.fastNlMeansDenoisingColored(photo, None, DENOISE, DENOISE, 5, 7), cells)


@dataclass
class References:
    """Reference images per card id (rendered ones first, taught photos added or replacing)."""

    ids: list[str | None] = field(default_factory=list)  # None: the bare slot, which no card id can be taken for
    images: list[np.ndarray] = field(default_factory=list)
    # `plain_look` of each image before `normalise` takes its brightness away, and for a bare slot's the darkness
    # of its `grid_lines` (0.0 for a card's): what a slot is held against before a card is refused as lying in an
    # empty slot.
    looks: list[tuple[float, float, float]] = field(default_factory=list)
    # For a card printed plain all over (`plain_look`'s marked share under PLAIN_CARD), the sureness of its
    # `grid_lines`, which the slot it is read in must show a share of (`CardReader._lines_hidden`); 0.0 for others.
    lines_sure: list[float] = field(default_factory=list)
    # Each drawing as drawn (MATCH_SIZE), None for a taught photo: drawings are `frames.toned` to the camera's ink.
    drawings: list[np.ndarray | None] = field(default_factory=list)

    def add(self, card_id: str | None, card_image: np.ndarray, drawn: bool = False) -> None:
        small = cv2.resize(card_image, (MATCH_SIZE, MATCH_SIZE), interpolation=cv2.INTER_AREA)
        self.ids.append(card_id)
        self.images.append(normalise(small))
        self.drawings.append(small if drawn else None)
        look = plain_look(small)
        dark, sure = grid_lines(card_image) if card_id is None or look[1] < PLAIN_CARD else (0.0, 0.0)
        self.looks.append((*look, dark if card_id is None else 0.0))
        self.lines_sure.append(sure if card_id is not None else 0.0)

    def replace(self, card_id: str | None, card_image: np.ndarray) -> None:
        keep = [i for i, cid in enumerate(self.ids) if cid != card_id]
        self.ids = [self.ids[i] for i in keep]
        self.images = [self.images[i] for i in keep]
        self.looks = [self.looks[i] for i in keep]
        self.lines_sure = [self.lines_sure[i] for i in keep]
        self.drawings = [self.drawings[i] for i in keep]
        self.add(card_id, card_image)

    def bare_looks(self) -> list[tuple[float, float, float]]:
        """(brightness, marked share, line darkness) of every bare-slot reference: the rendered one, or the photos
        a café taught (`plain_look`, `grid_lines`)."""
        return [look for cid, look in zip(self.ids, self.looks, strict=True) if cid is None]

    def stack(self, ink: float = 0.0) -> np.ndarray:
        """The references as rows, the drawings among them `toned` to ``ink`` (taught photos are as seen)."""
        images = [image if drawing is None or ink <= 0.0 else normalise(toned(drawing, ink))
                  for image, drawing in zip(self.images, self.drawings, strict=True)]
        return np.stack(images).reshape(len(images), -1).astype(np.float32)


def rendered_references(cards: list[CardSpec], with_empty: bool = True) -> References:
    refs = References()
    groups = appearance_groups(cards)
    for card in cards:
        if groups[card.id] == card.id:
            refs.add(card.id, render_card(card, MATCH_SIZE * 2), drawn=True)
    if with_empty:
        refs.add(None, render_card(None, MATCH_SIZE * 2), drawn=True)
    return refs
