"""A hard shadow's edge across a slot, told from a hand over it and lifted off.

A lamp behind the camera's arm, or a spotlight past a player's shoulder, casts
a shadow with sharp, straight edges across the board. A slot's gain is one
number (`card_looks.normalise`), so where an edge crosses a card, part of it
stays far darker than its drawing, as a hand would leave it, and the slot was
read covered for as long as the lamp stayed: a card laid there was never taken.
What a shadow does that a hand does not is keep the card's print: each side of
its edge is the drawing times its own light, in every colour alike. And the
edge goes on past the slot: the board beside the slot is as dark on its
shadowed side. So a slot the reader is unsure of, or that its card leaves
unexplained, is fitted with two lights split by a straight line
(`shadow_edges`); where that edge also darkens the board round the slot
(`edge_goes_on`), the darker side is lifted to the lighter one's light
(`ShadowEdge.light`) and the slot is read again from that. (A band narrow
enough to lay both its edges across one slot was fitted too, as two parallel
lines: no slot more of 2,400 under shadow was read right, for 30 times the
work, so it was left out.)
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import cv2
import numpy as np

from vision.card_looks import CHROMA_WEIGHT

# The lines tried, in the slot's own pixels: SPLIT_TURNS directions round a half turn, each at offsets SPLIT_STEP
# pixels apart through the slot; a side with fewer than SPLIT_LEAST of the slot's pixels is no side.
SPLIT_TURNS = 24
SPLIT_STEP = 1.0
SPLIT_LEAST = 0.15
# Edges within GRID_TURN degrees of the card's own and GRID_NEAR pixels of its edges or the lines between its cells
# are not tried: there the print itself steps from path to hole, or the slot to the board's edge beside it, which a
# fit takes for a shadow's edge (a bare slot lifted to a card of holes along one side).
GRID_TURN = 8.0
GRID_NEAR = 1.5
# A shadow worth lifting: its side between SHADOW_DEEPEST and SHADOW_DARKER as light as the other, and the two
# lights explaining the slot's grey at least SHADOW_FITS times better (in squared error) than one light does.
SHADOW_DARKER = 0.7
SHADOW_DEEPEST = 0.2
SHADOW_FITS = 2.0
# The three colours' own lights on the shadowed side must agree within this share of their mean: a shadow darkens every
# colour alike (near enough), where a hand or a sleeve over the card brings a colour of its own.
SHADOW_GREY = 0.25
# Beside the slot (RIM_AROUND of its pixels each way), the pixels within RIM_NEAR..RIM_FAR of the edge's line on its
# shadowed side must be, by their median, no lighter than halfway between the fitted darkness and the lit side's.
RIM_AROUND = 8
RIM_NEAR = 1.5
RIM_FAR = 5.0
RIM_LEAST = 12


@functools.cache
def _splits(side: int) -> tuple[np.ndarray, np.ndarray]:
    """Every line tried: a mask (1.0, 0.0) of the pixels below it, (lines, side * side), float32 for the product
    that tries them all at once, and each line's (turn, offset from the slot's middle). Lines along the card's
    grid (GRID_TURN, GRID_NEAR) are left out."""
    ys, xs = np.mgrid[0:side, 0:side].astype(np.float32) - (side - 1) / 2.0
    masks, lines = [], []
    reach = side / np.sqrt(2.0)
    cell_lines = np.arange(4) * side / 3.0 - side / 2.0  # the card's edges and the lines between its cells
    for turn in np.linspace(0.0, np.pi, SPLIT_TURNS, endpoint=False):
        along = xs * np.cos(turn) + ys * np.sin(turn)
        squared = min(abs(np.sin(turn)), abs(np.cos(turn))) < np.sin(np.radians(GRID_TURN))
        for offset in np.arange(-reach, reach, SPLIT_STEP):
            if squared and np.abs(abs(offset) - np.abs(cell_lines)).min() < GRID_NEAR:
                continue
            mask = (along < offset).ravel()
            if SPLIT_LEAST <= mask.mean() <= 1.0 - SPLIT_LEAST:
                masks.append(mask)
                lines.append((turn, offset))
    return np.array(masks, np.float32), np.array(lines, np.float64)


def drawing_bgr(reference: np.ndarray, side: int) -> np.ndarray:
    """A reference row (`normalise`d Lab, chroma weighted) back in BGR, 0..1."""
    lab = reference.reshape(side, side, 3).copy()
    lab[:, :, 1:] /= CHROMA_WEIGHT
    return cv2.cvtColor(lab.astype(np.float32), cv2.COLOR_LAB2BGR)


@dataclass(frozen=True)
class ShadowEdge:
    """A straight shadow edge across a slot of ``side`` pixels: the points with (x, y) . (cos turn, sin turn) below
    ``offset`` (from the slot's middle) lie on the dark side when ``dark_below``, on the lit one when not."""

    drawing: int  # which of the drawings it was fitted against
    turn: float
    offset: float
    dark_below: bool
    darker: float  # the shadowed side's light as a share of the lit side's
    side: int

    def along(self, side: int, around: int = 0) -> np.ndarray:
        """Each pixel's distance past the line, negative on the shadowed side, on a slot warped at ``side`` pixels
        with ``around`` more each way, in this edge's pixels."""
        scale = self.side / side
        grid = (np.mgrid[0 : side + 2 * around, 0 : side + 2 * around].astype(np.float32) - around + 0.5) * scale - 0.5
        ys, xs = grid - (self.side - 1) / 2.0
        distance = xs * np.cos(self.turn) + ys * np.sin(self.turn) - self.offset
        return distance if self.dark_below else -distance

    def light(self, side: int) -> np.ndarray:
        """The light on each pixel of a slot warped at ``side`` pixels: ``darker`` in the shadow, 1.0 outside."""
        return np.where(self.along(side) < 0, np.float32(self.darker), np.float32(1.0))


def shadow_edges(seen: np.ndarray, drawings: list[np.ndarray]) -> list[ShadowEdge]:
    """The shadow edges that explain ``seen`` (BGR, the slot as the camera saw it) against each of ``drawings``
    (BGR, the cards the slot may show), best first; none where no edge explains it against any of them.

    Each line splits the slot in two, and each side's light is the least-squares gain taking a drawing's grey to
    the slot's; for each drawing the line leaving the least error is its edge, and the drawings' edges that pass
    for a shadow's are ordered by that error.
    """
    side = seen.shape[0]
    masks, lines = _splits(side)
    q = seen.astype(np.float32).mean(2).ravel()
    r = np.stack([drawing.astype(np.float32).mean(2).ravel() for drawing in drawings], 1)  # pixels x drawings
    qr, rr, qq = q[:, None] * r, r * r, float((q * q).sum())
    # OpenCV's product, not numpy's: numpy hands it to a BLAS that spreads even this small one over every core, and
    # with another reader busy on them the frame took twice as long.
    qr_in, rr_in = cv2.gemm(masks, qr, 1.0, None, 0.0), cv2.gemm(masks, rr, 1.0, None, 0.0)  # lines x drawings
    qr_out, rr_out = qr.sum(0) - qr_in, rr.sum(0) - rr_in
    with np.errstate(divide="ignore", invalid="ignore"):
        explained = np.nan_to_num(qr_in ** 2 / rr_in + qr_out ** 2 / rr_out, nan=-np.inf)
        best = np.argmax(explained, 0)
        each = np.arange(len(drawings))
        two_lights = qq - explained[best, each]
        one_light = qq - qr.sum(0) ** 2 / np.maximum(rr.sum(0), 1e-9)
        lights = np.stack([qr_in[best, each] / rr_in[best, each], qr_out[best, each] / rr_out[best, each]])
        darker = lights.min(0) / lights.max(0)
    fits = np.isfinite(two_lights) & (two_lights * SHADOW_FITS <= one_light) & (lights.min(0) > 0)
    fits &= (darker >= SHADOW_DEEPEST) & (darker <= SHADOW_DARKER)
    edges = []
    for index in sorted(np.flatnonzero(fits), key=lambda i: two_lights[i]):
        turn, offset = lines[best[index]]
        edge = ShadowEdge(int(index), float(turn), float(offset), bool(lights[0, index] < lights[1, index]),
                          float(darker[index]), side)
        if not _tinted(seen, drawings[index], edge.along(side).ravel() < 0):
            edges.append(edge)
    return edges


def _tinted(seen: np.ndarray, drawing: np.ndarray, dark: np.ndarray) -> bool:
    """Whether the darker side of the slot changed its colours unevenly (SHADOW_GREY): a hand, not a shadow."""
    gains = []
    for pixels in (dark, ~dark):
        qs = seen.reshape(-1, 3)[pixels].astype(np.float32)
        rs = drawing.reshape(-1, 3)[pixels].astype(np.float32)
        gains.append((qs * rs).sum(0) / np.maximum((rs * rs).sum(0), 1e-9))
    tint = gains[0] / np.maximum(gains[1], 1e-9)
    return bool(np.ptp(tint) > SHADOW_GREY * float(tint.mean()))


def edge_goes_on(rimmed: np.ndarray, edge: ShadowEdge) -> bool:
    """Whether the board beside the slot (``rimmed``: the slot warped at ``edge.side`` with RIM_AROUND pixels more
    each way) is darker along the edge's shadowed side, as a shadow's is and a fit to the slot alone need not be."""
    side, around = edge.side, RIM_AROUND
    along = edge.along(side, around)
    grey = rimmed.astype(np.float32).mean(2)
    outside = np.ones(along.shape, bool)
    outside[around : around + side, around : around + side] = False
    near = outside & (np.abs(along) >= RIM_NEAR) & (np.abs(along) <= RIM_FAR)
    dark, lit = grey[near & (along < 0)], grey[near & (along > 0)]
    if dark.size < RIM_LEAST or lit.size < RIM_LEAST:
        return False
    return bool(np.median(dark) <= np.median(lit) * (1.0 + edge.darker) / 2.0)


def unshadowed(seen: np.ndarray, light: np.ndarray) -> np.ndarray:
    """``seen`` with a shadow's ``light`` (`ShadowEdge.light`) taken off."""
    return np.clip(seen.astype(np.float32) / light[:, :, None], 0, 255)
