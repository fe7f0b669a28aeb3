"""Temple card reader: which card lies in each of the 12 slots.

The markers give a homography; each slot is warped straight out of the frame
into a small upright card image (curved edge up) and compared with every
reference image. The comparison is a truncated per-pixel distance after
normalising brightness, so a pawn standing on a card costs a bounded amount
and the visible rest of the card still decides. Where a card and a bare slot
score alike (a café's deck printed in the bare slot's grey), the slot's look
says which it is (`CardReader.slot_look`). A `slot_tracker.SlotTracker`
then changes a slot only after several steady frames.
"""

from __future__ import annotations

import contextlib
import fnmatch
import os
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.card_catalogue import BoardSpec, CardSpec, appearance_groups, load_temple_board, load_temple_cards
from vision.card_cover import READ_COVERED, covered_cell, unexplained_share
from vision.card_looks import (
    CLIPPED_COLOUR_SHARE,
    LINE_SIZE,
    LINES_SURE,
    MATCH_SIZE,
    clipped_colour_share,
    grid_lines,
    lines_laid_askew,
    lines_printed,
    plain_look,
    rendered_references,
    seen_lab,
    stored_clipped,
    taught_reference,
)
from vision.card_render import EMPTY_SLOT, SAND
from vision.card_shadow import RIM_AROUND, ShadowEdge, drawing_bgr, edge_goes_on, shadow_edges, unshadowed
from vision.frames import as_bgr, image_file, toned
from vision.marker_places import load_places
from vision.markers import BoardFinder, ink_seen
from vision.readings import BoardReading, SlotReading
from vision.shadow_band import band_lifted
from vision.sources import first_few
from vision.taught import write_whole

TRUNCATE = 25.0
EMPTY = "<empty>"  # how a taught photo of a bare slot is named; inside, a bare slot's reference is keyed None
CORNER_CELL_PX = 6
MIN_CORNER_PIXELS = 32
# The least difference between the corners' path and the board's bare middle (summed over B, G and R, as a
# share of the path's own sum) for a board to be taken as lying between the markers: rendered boards show
# 0.57 or more in any light, a plain surface under 0.01 (docs/vision.md).
BOARD_CONTRAST = 0.2
# A dim room: the camera turns its gain up and its noise with it, and after each slot's gain (`normalise`) the
# noise alone put pixels far from every reference and hid cards' printed lines, so right readings were taken for a
# hand over the slot. On 40 `eval-cards`-like photos at a quarter of the exposure with noise of 6 levels (24 at the
# usual exposure), every slot but one was read right, 45 of 480 as covered. The noise is measured where the board
# shows only itself (`CardReader.noise`: the spread of its bare cells' middles about their 3x3 mean, robustly, as a
# share of the corner path's brightness): 0.007-0.023 on such photos without noise added, 0.024-0.039 with noise of
# 10 levels (no slot covered), 0.032-0.051 with 14 (4 covered), 0.054-0.08 in the dim room. Over NOISY the frame
# is blurred by NOISY_BLUR px before it is read: none covered with 14 levels, 5 in the dim room, where 477 are
# right and 1 wrong surely enough to be taken (none before).
NOISY = 0.035
NOISY_BLUR = 0.8
NO_BOARD = ("board markers seen, but no board between them: stick each marker at its own corner of the board, "
            "as the marker sheet shows")
# How sure the reader must be that a slot is bare before teaching a card from it is refused: the
# tracker's own bar for accepting a reading, so a card a café printed in its own colours still teaches.
EMPTY_REFUSED_FROM = 0.25
# How a bare slot is told from a print by what a print always has and a bare slot has not (`plain_look`,
# docs/vision.md): paper brighter than the bare slot, or printed marks. A slot is bare-like when its
# brightness lies within BARE_DARKER..BARE_BRIGHTER of a bare-slot reference's and no more than BARE_BUSY of
# its pixels more than the reference's own are marked (differ from its middle grey by `card_looks.PLAIN_STEP`).
# On 900 of eval-cards' board photos (seeds 8, 5, 21: light up to twice as bright on one side, casts, blur,
# noise, pawns) bare slots lie at 0.70..1.45 of the rendered reference's brightness, 0.16 marked at most
# without a pawn and 0.32 with two (2 of 3,700 above 0.3); cards printed in pale mint or white at 1.64 or more.
# The teach step takes the look on the slot warped at LINE_SIZE and shrunk, as the references are: the 3,037 bare
# slots of those photos then lie at 0.71..1.39 and 0.27 marked at most (0.30 warped small), mint prints at 1.65.
BARE_BRIGHTER = 1.55
BARE_DARKER = 0.6
BARE_BUSY = 0.3
# A card taught from a slot whose colours match the bare slot's with no more marks than a bare slot's and this,
# and no printed lines (a bare slot paler than the reference; a pale card of nine path cells drew it too before
# its lines were looked for), was told from a bare slot by its brightness alone: `taught_unmarked` lets the teach
# step say so.
UNMARKED = 0.05
# A café's deck printed in the bare slot's own grey matches a bare slot by its colours about as well as its own
# photos, which share the camera's noise, blur and rim with a bare slot as the clean drawing of one does not: with all
# 48 grey cards taught, 28 to 110 of 360 bare slots of fresh board photos read as a card (mostly the one of nine path
# cells), a phantom card for the game. Where the best card and the best bare-slot reference score within LOOK_NEAR of
# each other (their difference as a share of the larger), the slot is looked at (`slot_look`): bare when it looks bare
# (`looks_bare`), the best card when it shows the lines between cells that every print has, and as scored when neither
# (a bare slot under many pawns, a board's own pale bare slot before its photo is taught). Grey bare slots read as a
# card lay up to 0.34 apart (0.27 with `taught_reference`), grey cards read as bare 0.03; on eval-cards' photos (seeds
# 8, 5, 21; 7,200 slots) the house deck's lay 0.38 apart at the least and 2 slots were looked at, 10 of 2,376 with 12
# pawns, each read as before. A slot read bare by its look is given at least BARE_LOOK_SURE: the tracker counts it,
# and the table asks before acting on it (companion.observations.CONFIRM_BELOW).
LOOK_NEAR = 0.4
BARE_LOOK_SURE = 0.5
# A card laid by hand lies off its slot: on `eval-cards`' photos (seed 8, 100 boards) with every card up to 0.3
# cells (a tenth of a card) off each way and turned up to 8 degrees, 0.962 of the slots read right, against 0.998
# laid true. A card read less than ASKEW_RETRY surely is looked for again ASKEW_STEP pixels (of MATCH_SIZE; 0.2
# cells) beside its slot each way (eight places); a place whose best card scores ASKEW_BETTER of the slot's own
# best card or less gives the reading. Places chosen so scored 0.80 to 0.885 of the slot's own where they mended a
# reading, and 0.993 and 0.995 where, laid true, they spoilt one.
ASKEW_RETRY = 0.5
ASKEW_STEP = 2
ASKEW_BETTER = 0.95
ASKEW_AMONG = 8
ASKEW_PLACES = [(ASKEW_STEP + x * ASKEW_STEP, ASKEW_STEP + y * ASKEW_STEP)
                for x in (-1, 0, 1) for y in (-1, 0, 1) if (x, y) != (0, 0)]  # top-left corners in the rimmed slot
# A hand over a slot, skin lit to the path's sand, matches a card printed as nine path cells as well as that card
# does (`unexplained_share` finds nothing): only the lines between its cells tell them apart. On the arm photos
# (`card_cover`'s READ_COVERED) a card so read showed `grid_lines` 30.6 sure or more without the arm (a pawn on
# it), 20.7 at most where a hand hid half of it or more; the drawing's own show 32.9. A card printed plain
# (`card_looks.PLAIN_CARD`) with lines PLAIN_LINES_SEEN sure at least in its reference must show PLAIN_LINES_KEPT of
# that, or PLAIN_LINES_ENOUGH, its lines looked for off their place and turned (`card_looks.lines_laid_askew`), as a
# hand lays a card: cards laid up to 8 degrees off read alike with turns of 4 and 8 degrees each way, which cost a
# third more under an arm.
PLAIN_LINES_SEEN = 2 * LINES_SURE
PLAIN_LINES_KEPT = 0.5
PLAIN_LINES_ENOUGH = 20.0
BESIDE_COVERED = 0.0
# The drawings are toned again (`_tone_to`, about 10 ms) once the markers' ink moves by this much: eval-cards with
# a veil (`--ink 0.05 --veil 0.3`) read the same slots with steps of 0.01 and 0.04.
INK_STEP = 0.02
# A hard shadow's edge across a slot (`card_shadow`) is looked for where the slot is read less than SHADOW_RETRY
# surely, or its card leaves it unexplained, against the SHADOW_AMONG references it matched best and the best bare
# slot's (a bare slot in deep shadow matched dark cards better), each fit tried in turn. On `eval-cards --shadow
# 0.85` (a band of shadow leaving a sixth of the light across each photo; seeds 21 and 33, 100 photos each) 245 of
# 2,400 slots were read covered and 1,679 right surely enough for the tracker, 1 wrong so surely; now 53 and 2,211,
# none (2,374 and 3 covered without the shadow, either way). eval-cards' own photos lift no slot, with or without
# ink and a veil; with an arm over the board, 2 of 2,400.
SHADOW_RETRY = 0.5
SHADOW_AMONG = 8
# What a taught photo must be to be taken for a card (`unfit_photo`). Teaching writes squares of LINE_SIZE (60 px,
# 20 a cell of the card's 3 x 3) of the slot as the camera saw it. A photo of the house P42 shrunk to 6 px (two
# pixels a cell) still read right, shrunk to 4 or 5 px it read as P08; a café's own crop is about square, and one
# squeezed to 3:1 still read right, since it is stretched back to a square. A bare slot's photo, the flattest that
# teaching writes, spreads 13 levels or more in each colour between its 1st and 99th percentile; one colour
# filled flat by hand spreads none.
PHOTO_SMALLEST = 6
PHOTO_LONGEST = 4.0
PHOTO_FLAT = 2
# A taught photo is stored divided by the board's white (`taught_image`) and lowered as a whole where more than
# 100 - TAUGHT_TOP percent of its pixels would pass TAUGHT_HEADROOM in their brightest colour. Clipped at 255 instead,
# a mint deck (paper green 235) taught whole in `eval-cards`-like uneven light stored up to 72% of a photo at 255,
# and read on 40 board photos: 0.833 of 480 slots right, 51 wrong surely enough to be taken (untaught 0.846, none);
# so lowered, 0.973 and 2. The house, terracotta and night-blue decks read as before (0.996, 0.996, 0.988).
TAUGHT_TOP = 99.0
TAUGHT_HEADROOM = 250.0


def taught_image(large: np.ndarray, white: np.ndarray) -> np.ndarray:
    """A slot photo as the teach step stores it: divided by the board's white, as a slot read is (`normalise`), and
    lowered as a whole where its brightest colours would pass TAUGHT_HEADROOM, so that none is clipped.

    A read slot's level is set before anything is clipped (`normalise`), so a
    pale print keeps its hue however brightly its slot is lit; the photo was
    clipped at 255 straight after the division, and the mint paper's green lost
    its lead over red wherever the slot was lit more brightly than the board's
    corners, whose path gives the white. The level lowered costs nothing: the
    reader sets every reference's level again (`References.add`).
    """
    seen = large.astype(np.float32) * (255.0 / np.asarray(white, np.float32).reshape(1, 1, 3))
    top = float(np.percentile(seen.max(2), TAUGHT_TOP)) if seen.size else 0.0
    if top > TAUGHT_HEADROOM:
        seen *= TAUGHT_HEADROOM / top
    return np.clip(seen, 0, 255).astype(np.uint8)


def slots_beside(board: BoardSpec) -> list[set[int]]:
    """For each slot (by index in ``board.slots``), the slots whose cards lie beside it: middles at most a card
    and a half apart."""
    middles = np.array([(slot.card_to_board() @ [1.5, 1.5, 1.0])[:2] for slot in board.slots])
    apart = np.linalg.norm(middles[:, None] - middles[None], axis=2)
    return [set(np.flatnonzero((row > 0) & (row <= 4.5)).tolist()) for row in apart]


def out_of_view(outlines: dict[int, tuple[tuple[float, float], ...]], shape: tuple[int, ...]) -> set[int]:
    """The slots (by index in `outlines`' order) reaching past the frame's edge: with a marker hidden the board
    is found from the others (`BoardFinder.homography`), and the corner it hides may lie out of view, its
    slots' missing part filled with the frame's edge pixels, which read as any card."""
    height, width = shape[:2]
    return {index for index, corners in enumerate(outlines.values())
            if any(not (0.0 <= x <= width - 1 and 0.0 <= y <= height - 1) for x, y in corners)}


def clipped_words(folder: Path | None, names: list[str]) -> str:
    """Which cards to teach again, their photos named ``names`` stored clipped (`stored_clipped`) in ``folder``
    (left unsaid for None: the camera screen's owner has no use for a path): the one sentence `watch`, the teach
    steps, the table's status line and the camera screen say."""
    cards = sorted({name.removesuffix(".png").rsplit("__", 1)[0] for name in names})
    where = f" in {folder}" if folder is not None else ""
    return (f"teach {first_few(cards, 10)} again: {'their photos' if len(names) != 1 else 'its photo'} "
            f"({first_few(names)}){where} {'were' if len(names) != 1 else 'was'} stored by an older version with "
            "part of the colours cut off, and pale cards so stored are misread; each is set aside as its card "
            "is taught again")


def clipped_photos(folder: Path) -> list[str]:
    """The names of the card photos in ``folder`` stored clipped (`stored_clipped`), without making a reader (which
    renders the deck's drawings first): for the camera screen, on entering. A folder or photo that cannot be read
    is passed over here; the reader says why where it reads them."""
    try:
        with os.scandir(folder) as entries:
            names = sorted(entry.name for entry in entries if fnmatch.fnmatchcase(entry.name, "*__*.png"))
    except (OSError, ValueError):
        return []
    clipped = []
    for name in names:
        image = image_file(folder / name)
        if image is not None and unfit_photo(image) is None and stored_clipped(image):
            clipped.append(name)
    return clipped


def unfit_photo(image: np.ndarray) -> str | None:
    """Why a taught photo (BGR, as `frames.image_file` reads it) cannot be a card's photo as teaching writes
    one, or None (PHOTO_SMALLEST, PHOTO_LONGEST and PHOTO_FLAT say why each line lies where it does)."""
    height, width = image.shape[:2]
    size = f"{width} x {height} pixels"
    if min(height, width) < PHOTO_SMALLEST:
        return f"{size}, too small to hold the card's 3 x 3 cells"
    if max(height, width) > PHOTO_LONGEST * min(height, width):
        return f"{size}, far from the square a card is"
    low, high = np.percentile(image.reshape(-1, 3), (1, 99), axis=0)
    if float(np.max(high - low)) <= PHOTO_FLAT:
        return "one flat colour, no card printed on it"
    return None


class CardCovered(ValueError):
    """A teach photo refused for what lies on the card (`covered_cell`), or for another card lying there."""


@dataclass(frozen=True, eq=False)
class TeachView:
    """One teach photo's board as `CardReader.teach` found it, kept for the next slot taught from the same photo.

    A café (or `eval-cards`) teaches up to 12 slots from one photo, and each `teach` searched the photo for the
    board again, lifted its shadow band, warped it flat and cut out every slot: the same work twelve times over,
    about half of what teaching a board cost. What depends on the photo alone is kept here; what depends on the
    reader's state (the ink the drawings are toned to, the white it gives) is worked out again each time.
    """

    photo: np.ndarray  # the frame as given (`as_bgr`), to tell the same photo by
    lifted: np.ndarray  # `band_lifted`, whose markers' ink the drawings are toned to
    homography: np.ndarray  # the finder's, kept as `BoardFinder.last_homography`
    frame: np.ndarray  # `_quietened`
    flat: np.ndarray
    outlines: dict[int, tuple[tuple[float, float], ...]]
    images: list[np.ndarray]  # every slot at MATCH_SIZE
    large: list[np.ndarray]  # and at twice that, what is stored

    def shows(self, frame: np.ndarray, finder: BoardFinder) -> bool:
        """Whether ``frame`` is this photo and the finder has searched no other since (its state, which a board
        with a marker hidden is found by, is as this search left it)."""
        return (finder.last_homography is self.homography and frame.shape == self.photo.shape
                and frame.dtype == self.photo.dtype and np.array_equal(frame, self.photo))


class CardReader:
    """Reads all slots of one frame. Cards that look alike (same cells) are reported by the first one's id."""

    def __init__(
        self,
        cards: list[CardSpec] | None = None,
        board: BoardSpec | None = None,
        taught_dir: Path | None = None,
    ) -> None:
        self.cards = cards if cards is not None else load_temple_cards()
        self.board = board or load_temple_board()
        self.groups = appearance_groups(self.cards)
        # The ids a reading stands for beside itself: the reader names a group by its first card.
        self.twins = {
            first: tuple(c for c, g in self.groups.items() if g == first and c != first)
            for first in set(self.groups.values())
            if sum(g == first for g in self.groups.values()) > 1
        }
        self.refs = rendered_references(self.cards)
        self._ink = 0.0  # the ink's light the drawings are `toned` to: the camera's, as last measured
        self.finder = BoardFinder(self.board.size)
        self.beside = slots_beside(self.board)
        cell = CORNER_CELL_PX  # the middles of the board's bare cells on `flat_board` (`noise`)
        self._bare_middles = np.zeros((self.board.size * cell, self.board.size * cell), bool)
        for x, y in self.board.bare_cells():
            self._bare_middles[y * cell + 1:(y + 1) * cell - 1, x * cell + 1:(x + 1) * cell - 1] = True
        self.last_problem: str | None = None
        self.taught_unmarked = False  # the last `teach` took its slot for a card by its brightness alone
        self._teach_view: TeachView | None = None  # the last teach photo's board (`TeachView`)
        # Where each slot lay in the last frame whose markers were all found: its corners in frame pixels.
        self.last_outlines: dict[int, tuple[tuple[float, float], ...]] | None = None
        # The markers' black against their paper where the board was last seen (`InkSeen.share`), for
        # `view_check.washed_out`.
        self.last_ink_share: float | None = None
        self.taught_cards: list[str] = []  # the card of each taught photo read in, and the photos passed over
        self.taught_skipped: list[str] = []
        # Those of them that cannot be a card's photo (`unfit_photo`), said to the table as well as by `watch`.
        self.taught_unfit: list[str] = []
        self.photos_problem: str | None = None
        # The photos read in that an older teach step stored clipped (`stored_clipped`): read still, but to be taught
        # again, which `clipped_problem` says.
        self.taught_clipped: list[str] = []
        self.clipped_problem: str | None = None
        # Why the taught folder could not be read at all (the cards are then read by their drawings), or None.
        self.taught_problem: str | None = None
        # Where the board's markers lie on it, as the table's camera last kept them (`vision.marker_places`), and
        # why a file of them there could not be used.
        self.finder.marker_cells, self.places_problem = load_places(taught_dir, self.board.size)
        if taught_dir is not None:
            self.load_taught(taught_dir)
        self._restack()

    def _restack(self) -> None:
        """The references as one matrix for `score_many`, and which of its rows are bare-slot references."""
        self._matrix = self.refs.stack(self._ink)
        self._bare = np.array([cid is None for cid in self.refs.ids], bool)
        self._ids = np.array(self.refs.ids, object)
        self._drawings_bgr = [drawing_bgr(row, MATCH_SIZE) for row in self._matrix]

    def slot_images(self, frame: np.ndarray, homography: np.ndarray, size: int = MATCH_SIZE) -> list[np.ndarray]:
        """Each slot warped out of the frame as an upright size x size card image (curved edge at the top)."""
        return [self.slot_image(frame, homography, index, size) for index in range(len(self.board.slots))]

    def slot_image(self, frame: np.ndarray, homography: np.ndarray, index: int, size: int = MATCH_SIZE,
                   around: int = 0) -> np.ndarray:
        """The board's `index`-th slot (in `board.slots` order) alone, as `slot_images` warps each; with
        ``around`` pixels more of what lies beside it on every side (at the same scale)."""
        px_to_cells = np.diag([3.0 / size, 3.0 / size, 1.0])
        px_to_cells[:2, 2] = -around * 3.0 / size
        to_frame = homography @ self.board.slots[index].card_to_board() @ px_to_cells
        flags = cv2.INTER_AREA | cv2.WARP_INVERSE_MAP
        side = size + 2 * around
        return cv2.warpPerspective(frame, to_frame, (side, side), flags=flags, borderMode=cv2.BORDER_REPLICATE)

    def slot_outlines(self, homography: np.ndarray) -> dict[int, tuple[tuple[float, float], ...]]:
        """Each slot's four corners in frame pixels, so a screen can show where the reader looks for cards."""
        corners = np.array([[0, 0, 1], [3, 0, 1], [3, 3, 1], [0, 3, 1]], float).T  # a card is 3 x 3 cells
        outlines = {}
        for slot in self.board.slots:
            points = homography @ slot.card_to_board() @ corners
            points = points[:2] / points[2]
            outlines[slot.slot] = tuple((float(x), float(y)) for x, y in points.T)
        return outlines

    def flat_board(self, frame: np.ndarray, homography: np.ndarray) -> np.ndarray:
        """The whole board warped flat and upright, CORNER_CELL_PX pixels to a cell."""
        cell = CORNER_CELL_PX
        to_frame = homography @ np.diag([1.0 / cell, 1.0 / cell, 1.0])
        side = self.board.size * cell
        return cv2.warpPerspective(frame, to_frame, (side, side), flags=cv2.INTER_AREA | cv2.WARP_INVERSE_MAP,
                                   borderMode=cv2.BORDER_REPLICATE)

    @staticmethod
    def cell_middle(flat: np.ndarray, x: int, y: int) -> np.ndarray:
        """The middle of one cell of `flat_board` (N x 3): a cell's rim blurs into its neighbours."""
        cell = CORNER_CELL_PX
        return flat[y * cell + 1:(y + 1) * cell - 1, x * cell + 1:(x + 1) * cell - 1].reshape(-1, 3)

    def corner_path_pixels(self, flat: np.ndarray) -> np.ndarray:
        """Pixels from the middle of the path cells printed in the board's corners (N x 3, BGR).

        These are always on the board, whether or not any card has been laid yet, so
        they show the light's colour at every stage of the assembly.
        """
        pixels = [self.cell_middle(flat, ox + c, oy + r)
                  for (ox, oy), cells in self.board.corners
                  for r, row in enumerate(cells) for c, kind in enumerate(row) if kind == "path"]
        if not pixels:
            return np.empty((0, 3), np.float32)
        return np.concatenate(pixels).astype(np.float32)

    def noise(self, flat: np.ndarray) -> float:
        """The camera's noise on `flat_board`, as a share of the corner path's brightness (NOISY); 0.0 for a board
        whose data names no bare cell or corner path."""
        path = self.corner_path_pixels(flat)
        if len(path) < MIN_CORNER_PIXELS or not self._bare_middles.any():
            return 0.0
        grey = cv2.cvtColor(flat, cv2.COLOR_BGR2GRAY).astype(np.float32)
        spread = np.abs(grey - cv2.blur(grey, (3, 3)))[self._bare_middles]
        return 1.48 * float(np.median(spread)) / max(float(np.median(path.mean(1))), 8.0)

    def _tone_to(self, frame: np.ndarray) -> None:
        """Tone the drawings to the ink the markers show in ``frame``, once it differs by INK_STEP or more; keep
        how bright that ink shows (`last_ink_share`)."""
        seen = ink_seen(frame, self.finder.last_markers or {})
        self.last_ink_share = None if seen is None else seen.share
        if seen is not None and abs(seen.light - self._ink) >= INK_STEP:
            self._ink = seen.light
            self._restack()

    def _quietened(self, frame: np.ndarray, homography: np.ndarray, flat: np.ndarray
                   ) -> tuple[np.ndarray, np.ndarray]:
        """The frame and its `flat_board`, blurred by NOISY_BLUR where its noise is over NOISY."""
        if self.noise(flat) <= NOISY:
            return frame, flat
        frame = cv2.GaussianBlur(frame, (0, 0), NOISY_BLUR)
        return frame, self.flat_board(frame, homography)

    def board_seen(self, flat: np.ndarray) -> bool:
        """Whether a board lies between the markers: its printed corner path stands out from its bare middle.

        Four markers on a bare table are found as well as on a board, and the
        white taken from the "corner path" then turns any plain surface into
        path colour, which reads as a slot full of path, surely. A board whose
        data names no corner path or leaves no cell bare cannot be told so and
        is taken as seen.
        """
        path = self.corner_path_pixels(flat)
        bare = self.board.bare_cells()
        if len(path) < MIN_CORNER_PIXELS or not bare:
            return True
        ground = np.concatenate([self.cell_middle(flat, x, y) for x, y in bare]).astype(np.float32)
        path_colour = np.median(path, axis=0)
        difference = float(np.abs(path_colour - np.median(ground, axis=0)).sum())
        return difference >= BOARD_CONTRAST * max(float(path_colour.sum()), 1.0)

    @staticmethod
    def slot_white(slot_images: list[np.ndarray], ink: float = 0.0) -> np.ndarray:
        """A white from the slots alone, for a board whose data has no corner cards.

        A slot's bright pixels are either path or bare slot, and under a moderate
        colour cast those two stay far apart in hue (sand against grey), so each slot
        is matched to the nearer of the two by chromaticity and votes for the light
        that turns that known colour into what is seen; the median vote wins. This
        works at any fill level, but a strong cast could tip grey towards sand, which
        the corner path cannot be fooled by.
        """
        known = toned(np.array([SAND, EMPTY_SLOT], np.float32), ink).astype(np.float32)
        known_chroma = known / known.sum(1, keepdims=True)
        votes = []
        for img in slot_images:
            pixels = img.reshape(-1, 3).astype(np.float32)
            bright = pixels.sum(1)
            seen = np.maximum(np.median(pixels[bright >= np.median(bright)], axis=0), 8.0)
            nearest = int(np.argmin(np.abs(known_chroma - seen / seen.sum()).sum(1)))
            votes.append(seen * 255.0 / known[nearest])
        return np.median(np.array(votes), axis=0)

    def light_white(self, flat: np.ndarray, slot_images: list[np.ndarray]) -> np.ndarray:
        """The white to divide by, so that path looks like the reference path under any light.

        It comes from the board's printed corner path, not from the slots: with few
        cards laid the slots are mostly bare board, and a white taken from them made
        empty slots look like path. The markers' paper would be the obvious white, but
        cameras often clip it, which hides the colour of the light.
        """
        pixels = self.corner_path_pixels(flat)
        if len(pixels) < MIN_CORNER_PIXELS:
            return self.slot_white(slot_images, self._ink)
        # The median shrugs off a pawn or a glare spot on one corner.
        observed = np.maximum(np.median(pixels, axis=0), 8.0)
        return observed * 255.0 / toned(np.array(SAND, np.float32), self._ink).astype(np.float32)

    def slot_light(self, flat: np.ndarray) -> list[float]:
        """How brightly each slot is lit against the board as a whole (`light_white`'s light), 1.0 where unknown.

        The white is one for the whole board, but a lamp to one side lights the
        near slots up to twice as brightly as the far ones, and a bare slot near
        it was then as bright as a dark print far from it. Each corner's printed
        path shows the light at that corner; a slot takes the corners' lights
        weighted by nearness (inverse square distance).
        """
        levels, centres = [], []
        for (ox, oy), cells in self.board.corners:
            pixels = [self.cell_middle(flat, ox + c, oy + r)
                      for r, row in enumerate(cells) for c, kind in enumerate(row) if kind == "path"]
            if pixels:
                levels.append(float(np.median(np.concatenate(pixels).astype(np.float32).mean(1))))
                centres.append((ox + 1.5, oy + 1.5))
        if len(levels) < 2:
            return [1.0] * len(self.board.slots)
        level = np.maximum(np.array(levels), 8.0)
        where = np.array(centres)
        overall = float(np.median(level))
        lights = []
        for slot in self.board.slots:
            x, y, _ = slot.card_to_board() @ np.array([1.5, 1.5, 1.0])
            weights = 1.0 / np.maximum(((where - (x, y)) ** 2).sum(1), 0.25)
            lights.append(float((weights * level).sum() / weights.sum()) / overall)
        return lights

    def looks_bare(self, card_image: np.ndarray, white: np.ndarray, light: float = 1.0) -> bool:
        """Whether a slot image is as plain and as bright as a bare slot and shows no printed lines between cells
        (`plain_look` and `grid_lines` against the bare-slot references, rendered or taught), under the white and
        the slot's own `slot_light`. Best given the slot warped at LINE_SIZE (taught photos' size), where the
        lines show; a smaller image is enlarged for them.

        Its colours alone cannot say: a café's card printed far from the house
        colours matched the bare slot best and could not be taught at all; one
        printed in the bare slot's own grey shows no more marked pixels than a
        bare slot under a pawn. A reader without a bare-slot reference cannot
        tell, and says no.
        """
        return self.slot_look(card_image, white, light) is True

    def unmarked(self, card_image: np.ndarray, white: np.ndarray, light: float = 1.0) -> bool:
        """Whether a slot image shows no more marks than a bare-slot reference (within UNMARKED) and no printed
        lines between cells: told from a bare slot, if at all, by its brightness alone, which a board with bare
        slots paler than the reference's has too.
        """
        seen = self._seen(card_image, white, light)
        marked = self._plain(seen)[1]
        dark, sure = grid_lines(seen)
        return any(marked <= bare_marked + UNMARKED and not lines_printed(dark, sure, bare_dark)
                   for _, bare_marked, bare_dark in self.refs.bare_looks())

    def slot_look(self, card_image: np.ndarray, white: np.ndarray, light: float = 1.0) -> bool | None:
        """True when a slot image looks bare (as plain and as bright as a bare-slot reference, without its lines:
        `looks_bare`), False when it shows the lines between cells that every print has and no bare-slot reference
        (`grid_lines`), None when it does neither: a bare slot under many pawns (too marked to look bare), a board's
        own pale bare slot before a photo of one is taught (too bright), a card mostly holes (few lines between path
        cells).
        """
        seen = self._seen(card_image, white, light)
        bright, marked = self._plain(seen)
        looks = self.refs.bare_looks()
        darkest = max((bare_dark for _, _, bare_dark in looks), default=0.0)
        dark, sure = lines_laid_askew(seen, lambda dark, sure: lines_printed(dark, sure, darkest))
        lined = [lines_printed(dark, sure, bare_dark) for _, _, bare_dark in looks]
        if any(BARE_DARKER <= bright / bare_bright <= BARE_BRIGHTER and marked <= bare_marked + BARE_BUSY and not line
               for (bare_bright, bare_marked, _), line in zip(looks, lined, strict=True)):
            return True
        return False if all(lined) else None

    @staticmethod
    def _seen(card_image: np.ndarray, white: np.ndarray, light: float) -> np.ndarray:
        """A slot image in the references' colours: divided by the white and the slot's light."""
        seen = card_image.astype(np.float32) * (255.0 / np.asarray(white, np.float32).reshape(1, 1, 3))
        return seen / max(light, 0.05)

    @staticmethod
    def _plain(seen: np.ndarray) -> tuple[float, float]:
        """`plain_look` of a slot image at MATCH_SIZE, shrunk to it as the references are (`References.add`)."""
        if seen.shape[:2] != (MATCH_SIZE, MATCH_SIZE):
            seen = cv2.resize(seen, (MATCH_SIZE, MATCH_SIZE), interpolation=cv2.INTER_AREA)
        return plain_look(seen)

    def match(self, card_image: np.ndarray) -> tuple[str | None, float]:
        """Best card for one slot image and a confidence from how clearly it beats the runner-up."""
        return self.match_many([card_image])[0]

    def match_many(self, card_images: list[np.ndarray], whites: list[np.ndarray] | None = None
                   ) -> list[tuple[str | None, float]]:
        """All slots against all references in one array operation (it is most of the reader's time), by their
        scores alone (`read` looks at a slot too where a card and a bare slot score alike)."""
        return [self._best(row) for row in self.score_many(card_images, whites)]

    def score_many(self, card_images: list[np.ndarray], whites: list[np.ndarray] | None = None) -> np.ndarray:
        """The distance of every slot image to every reference (slots x references): the lower, the likelier."""
        return self._distances(self._queries(card_images, whites), self._matrix)

    @staticmethod
    def _queries(card_images: list[np.ndarray], whites: list[np.ndarray] | None = None) -> np.ndarray:
        """Slot images as `_distances` holds them against the references: `seen_lab`, one row each."""
        whites = whites or [None] * len(card_images)
        return np.stack([seen_lab(img, white).ravel() for img, white in zip(card_images, whites, strict=True)])

    @staticmethod
    def _distances(queries: np.ndarray, references: np.ndarray) -> np.ndarray:
        """Truncated distances of normalised slot images (rows) to references (rows): queries x references."""
        # In place, into one buffer: this is most of the reader's time.
        buffer = np.subtract(references[None, :, :], queries[:, None, :])
        np.abs(buffer, out=buffer)
        np.fmin(buffer, TRUNCATE, out=buffer)  # a pixel the camera clipped (NaN) costs every reference alike
        return buffer.sum(2)

    def _best(self, row: np.ndarray, among: np.ndarray | None = None) -> tuple[str | None, float]:
        """The best reference of one slot's scores (of those `among` marks, when given) and a confidence from how
        clearly it beats the runner-up of another id."""
        order = np.argsort(row)
        if among is not None:
            order = order[among[order]]
        best_id = self.refs.ids[order[0]]
        runner = next((row[i] for i in order[1:] if self.refs.ids[i] != best_id), row[order[0]] * 2 + 1)
        confidence = float(np.clip((runner - row[order[0]]) / max(float(runner), 1e-6) * 4.0, 0.0, 1.0))
        return best_id, confidence

    def _told_by_look(self, scores: np.ndarray, matches: list[tuple[str | None, float]],
                      look: Callable[[int], bool | None]) -> list[tuple[str | None, float]]:
        """`matches` with each slot whose best card and best bare-slot reference score within LOOK_NEAR of each
        other told by its look (`look(index)`: `slot_look`) instead: bare when it looks bare, the best card when
        it shows the lines of a print; one that does neither keeps its match.

        A café's deck printed in the bare slot's own grey has no colour a bare slot lacks, and its taught
        photos matched bare slots better than the drawn bare slot did: a phantom card for the game. What a
        print has and a bare slot has not is the lines between its cells.
        """
        if self._bare.all() or not self._bare.any():
            return matches
        out = list(matches)
        bare_scores = scores[:, self._bare].min(1)
        card_scores = scores[:, ~self._bare].min(1)
        near = np.abs(bare_scores - card_scores) < LOOK_NEAR * np.maximum(bare_scores, card_scores)
        for index in np.flatnonzero(near):
            card, sure = matches[index]
            bare = look(int(index))
            if bare:
                out[index] = (None, max(sure, BARE_LOOK_SURE) if card is None else BARE_LOOK_SURE)
            elif bare is not None:
                out[index] = self._best(scores[index], ~self._bare)
        return out

    def _shadow_lifted(self, frame: np.ndarray, homography: np.ndarray, images: list[np.ndarray],
                       white: np.ndarray, scores: np.ndarray, matches: list[tuple[str | None, float]],
                       queries: np.ndarray, explained: list[bool]) -> list[tuple[str | None, float]]:
        """`matches` with each slot read less than SHADOW_RETRY surely, or left unexplained by its card (``explained``,
        for each slot: not `_unexplained`), read again with a shadow's edge lifted off it (`card_shadow`), where one
        fitted against the SHADOW_AMONG references it matched best and the best bare slot's goes on beside the slot,
        and the lifted slot lies no farther from that reference than the slot did from its best one, and that
        reference's card explains it. Each lifted slot's row in ``queries`` and ``scores`` is replaced."""
        out = list(matches)
        for index, (_, sure) in enumerate(matches):
            if sure >= SHADOW_RETRY and explained[index]:
                continue
            among = self._shadow_among(scores[index])
            for edge in self._shadows_across(frame, homography, index, images[index], among):
                query = seen_lab(unshadowed(images[index], edge.light(MATCH_SIZE)), white).ravel()
                row = self._distances(query[None], self._matrix)[0]
                fitted = among[edge.drawing]
                if row[fitted] <= scores[index].min() and not self._unexplained(query, self._ids[fitted]):
                    out[index] = self._best(row)
                    queries[index], scores[index] = query, row
                    break
        return out

    def _shadow_among(self, scores: np.ndarray) -> np.ndarray:
        """The references a slot (``scores``: its row) is fitted against for a shadow: the SHADOW_AMONG it matched
        best and the best bare slot's."""
        among = np.argsort(scores)[:SHADOW_AMONG]
        bare = np.flatnonzero(self._bare)
        return np.union1d(among, bare[np.argmin(scores[bare])]) if bare.size else among

    def _shadows_across(self, frame: np.ndarray, homography: np.ndarray, index: int, seen: np.ndarray,
                        rows: np.ndarray) -> Iterator[ShadowEdge]:
        """The shadow edges across slot ``index`` (``seen``: its image) against the references ``rows``
        (`card_shadow.shadow_edges`, best first) that go on beside the slot (`edge_goes_on`)."""
        rimmed = None
        for edge in shadow_edges(seen, [self._drawings_bgr[row] for row in rows]):
            if rimmed is None:
                rimmed = self.slot_image(frame, homography, index, MATCH_SIZE, RIM_AROUND)
            if edge_goes_on(rimmed, edge):
                yield edge

    def _rows_of(self, card: str | None) -> np.ndarray:
        """The rows of `_matrix` that are references of ``card`` (None: the bare slot's)."""
        return np.flatnonzero(self._bare if card is None else self._ids == card)

    def _unexplained(self, query: np.ndarray, card: str | None) -> bool:
        """Whether more than READ_COVERED of a slot (``query``: a `_queries` row) lies far from every reference of
        ``card`` at its own place (`unexplained_share`): a hand over it, or a shadow's edge across it."""
        rows = self._rows_of(card)
        return rows.size > 0 and unexplained_share(query, self._matrix[rows], MATCH_SIZE, 0)[0] > READ_COVERED

    def _laid_askew(self, frame: np.ndarray, homography: np.ndarray, white: np.ndarray, scores: np.ndarray,
                    matches: list[tuple[str | None, float]], queries: np.ndarray) -> list[tuple[str | None, float]]:
        """`matches` with each card read less than ASKEW_RETRY surely looked for again ASKEW_STEP beside its slot
        each way: the card as a hand laid it, when a place there matches a card ASKEW_BETTER better than the slot
        itself did; that place's image replaces the slot's in ``queries``. Each such slot is warped once with a rim
        and the places cut from it, held against the ASKEW_AMONG cards it matched best: the whole deck for all
        eight places cost 17 ms a frame of askew cards."""
        unsure = [i for i, (card, sure) in enumerate(matches) if card is not None and sure < ASKEW_RETRY]
        if not unsure or self._bare.all():
            return matches
        cards = np.flatnonzero(~self._bare)
        out = list(matches)
        for index in unsure:
            places = self._askew_places(frame, homography, index, white)
            among = cards[np.argsort(scores[index, cards])[:ASKEW_AMONG]]
            nearest = self._distances(places, self._matrix[among]).min(1)
            place = int(np.argmin(nearest))
            if nearest[place] <= ASKEW_BETTER * scores[index, cards].min():
                row = self._distances(places[place : place + 1], self._matrix)[0]
                out[index] = self._best(row, ~self._bare)
                queries[index] = places[place]
        return out

    def _askew_places(self, frame: np.ndarray, homography: np.ndarray, index: int, white: np.ndarray) -> np.ndarray:
        """The slot's image at each of ASKEW_PLACES beside it, one row each as `_queries` gives: where a hand may
        have laid its card. The slot is warped once with a rim and the places cut from it."""
        wide = seen_lab(self.slot_image(frame, homography, index, MATCH_SIZE, ASKEW_STEP), white)
        return np.stack([wide[y : y + MATCH_SIZE, x : x + MATCH_SIZE].ravel() for x, y in ASKEW_PLACES])

    def _covered_slots(self, queries: np.ndarray, matches: list[tuple[str | None, float]],
                       places: Callable[[int], np.ndarray], lines_hidden: Callable[[int, float], bool],
                       unexplained: Callable[[int, str | None], bool]) -> set[int]:
        """The slots something covers (a hand, an arm reaching across): most of the slot's pixels lie far from
        every reference of the card it read as (`unexplained_share`), at its place (``unexplained(index, card)``:
        `_unexplained`) and at each of ``places(index)``
        beside it (a card laid askew lies off its drawing's holes), or it read as a card printed plain whose lines
        it does not show (``lines_hidden(index, reference sureness)``)."""
        covered = set()
        for index, (card, _) in enumerate(matches):
            rows = self._rows_of(card)
            if rows.size == 0:
                continue
            # Where the slot's own place leaves little unexplained, no place within reach leaves more.
            if unexplained(index, card) and unexplained_share(
                np.vstack([queries[index], places(index)]), self._matrix[rows], MATCH_SIZE
            ).min() > READ_COVERED:
                covered.add(index)
                continue
            sure = max(self.refs.lines_sure[i] for i in rows)
            if card is not None and sure >= PLAIN_LINES_SEEN and lines_hidden(index, sure):
                covered.add(index)
        return covered

    def _lines_hidden(self, frame: np.ndarray, homography: np.ndarray, index: int, white: np.ndarray, light: float,
                      reference_sure: float) -> bool:
        """Whether a slot fails to show the lines between cells of a card printed plain, at its place or a little
        beside it: PLAIN_LINES_KEPT of the reference's sureness (``reference_sure``), or PLAIN_LINES_ENOUGH."""
        need = min(PLAIN_LINES_ENOUGH, PLAIN_LINES_KEPT * reference_sure)
        seen = self._seen(self.slot_image(frame, homography, index, LINE_SIZE), white, light)
        return lines_laid_askew(seen, lambda _, sure: sure >= need)[1] < need

    def read(self, frame: np.ndarray, resting_on: Collection[int] = ()) -> BoardReading | None:
        """Every slot of the board, or None (with `last_problem`) when the markers are not all visible.

        ``resting_on``: slots (by number) where something known and small lies, the temple die read there
        (`covered_notice.slots_under`). Such a slot reads covered as under a hand, but the slots beside it do
        not wait with it: an arm over a slot hides a little of its neighbours, a die does not, and a path card
        changed beside the die just rolled went untaken until the die was lifted.
        """
        frame = as_bgr(frame)
        if frame is None:
            self.last_problem = "no usable frame (empty, too small or not an image)"
            return None
        frame = band_lifted(frame)  # a spotlight's shadow across the board, lifted off before anything is found
        homography = self.finder.homography(frame)
        flat = None if homography is None else self.flat_board(frame, homography)
        if flat is None or not self.board_seen(flat):
            self.last_problem = self.finder.last_problem or NO_BOARD
            self.last_outlines = self.last_ink_share = None
            return None
        self._tone_to(frame)
        frame, flat = self._quietened(frame, homography, flat)
        self.last_problem = None
        self.last_outlines = self.slot_outlines(homography)
        unseen = out_of_view(self.last_outlines, frame.shape)
        images = self.slot_images(frame, homography)
        white = self.light_white(flat, images)
        queries = self._queries(images, [white] * len(images))
        scores = self._distances(queries, self._matrix)
        lights: list[float] | None = None  # measured only when a slot is looked at: seldom, for the house deck

        def light(index: int) -> float:
            nonlocal lights
            if lights is None:
                lights = self.slot_light(flat)
            return lights[index]

        def look(index: int) -> bool | None:
            return self.slot_look(self.slot_image(frame, homography, index, LINE_SIZE), white, light(index))

        def lines_hidden(index: int, sure: float) -> bool:
            return self._lines_hidden(frame, homography, index, white, light(index), sure)

        first = [self._best(row) for row in scores]
        # Whether each slot's first card explains it, asked before a shadow is looked for and again before a slot is
        # taken as covered: measured once, and again only for a slot whose card or image changed in between.
        first_queries = queries.copy()
        explained = [not self._unexplained(query, card) for query, (card, _) in zip(queries, first, strict=True)]

        def unexplained(index: int, card: str | None) -> bool:
            if card == first[index][0] and np.array_equal(queries[index], first_queries[index], equal_nan=True):
                return not explained[index]
            return self._unexplained(queries[index], card)

        matches = self._shadow_lifted(frame, homography, images, white, scores, first, queries, explained)
        matches = self._told_by_look(scores, matches, look)
        matches = self._laid_askew(frame, homography, white, scores, matches, queries)
        covered = self._covered_slots(queries, matches, lambda i: self._askew_places(frame, homography, i, white),
                                      lines_hidden, unexplained)
        # An arm over one slot hides a little of the slots beside it, too little to be seen, enough to mislead.
        resting = {index for index, slot in enumerate(self.board.slots) if slot.slot in resting_on}
        waiting = {j for i in covered - resting for j in self.beside[i]} - covered
        covered |= unseen
        slots = [SlotReading(slot.slot, card, 0.0, covered=True) if index in covered
                 else SlotReading(slot.slot, card, min(confidence, BESIDE_COVERED), beside_covered=True)
                 if index in waiting else SlotReading(slot.slot, card, confidence)
                 for index, (slot, (card, confidence)) in enumerate(zip(self.board.slots, matches, strict=True))]
        return BoardReading(tuple(slots))

    # ---------------------------------------------------------------- teach

    def not_taught_as(self, slot_number: int, card_id: str) -> str | None:
        """Why no photo could teach `card_id` from `slot_number` (a card the deck has not, a slot not on the
        board), or None: a mistake in what was named, told apart from what the picture refuses."""
        if card_id not in self.groups and card_id != EMPTY:
            return f"unknown card {card_id!r}; the deck has {', '.join(sorted(self.groups))}"
        slots = [s.slot for s in self.board.slots]
        if slot_number not in slots:
            return f"slot {slot_number} is not on the board; its slots are {', '.join(map(str, slots))}"
        return None

    def teach(self, frame: np.ndarray, slot_number: int, card_id: str, replace: bool = True,
              as_printed: bool = False) -> np.ndarray:
        """Learn a café's own card from a photo with it in `slot_number`; returns the cropped card image.

        ``as_printed``: the café says what `_covered` would refuse as lying on the card (a mark of its own print
        on one cell, which no rule can tell from a pawn) is printed there; the photo is taken as it is.
        """
        named = self.not_taught_as(slot_number, card_id)
        if named:
            raise ValueError(named)
        frame = as_bgr(frame)
        if frame is None:
            raise ValueError("no usable frame (empty, too small or not an image)")
        view = self._teach_view_of(frame)
        self._tone_to(view.lifted)
        frame, homography, flat, images = view.frame, view.homography, view.flat, view.images
        index = [s.slot for s in self.board.slots].index(slot_number)
        if index in out_of_view(view.outlines, frame.shape):  # found without a marker
            raise ValueError(f"slot {slot_number} lies partly out of the picture: turn the camera so that the "
                             "whole board is in view")
        white = self.light_white(flat, images)
        large = view.large[index]  # what is stored, and LINE_SIZE
        self.taught_unmarked = False
        if self._reference_of(card_id) is not None:
            # A bare slot taught as a card makes that card the reading of every empty slot. Its colours alone
            # do not say so: a card printed in pale mint matches the bare slot's best and is no bare slot.
            seen, sure = self.match_many([images[index]], [white])[0]
            if seen is None and sure >= EMPTY_REFUSED_FROM:
                light = self.slot_light(flat)[index]
                if self.looks_bare(large, white, light):
                    raise ValueError(f"slot {slot_number} looks empty: lay {card_id} in slot {slot_number}, "
                                     "or give the slot it lies in")
                self.taught_unmarked = self.unmarked(large, white, light)
        clipped = clipped_colour_share(large)
        if clipped > CLIPPED_COLOUR_SHARE:  # its hue lost: taught so, the deck's cards read as others, surely
            raise ValueError(f"slot {slot_number} is too brightly lit in this view: the camera clips {clipped:.0%} of "
                             "the card at full brightness in some of its colours, so the photo would not show the "
                             "print's own colours: dim the lamp over the board or lower the camera's exposure, then "
                             "teach the card again")
        image = taught_image(large, white)
        target = self._reference_of(card_id)
        edge = next(self._shadows_across(frame, homography, index, images[index], self._rows_of(target)), None)
        if edge is not None:
            raise ValueError(f"a shadow's edge crosses slot {slot_number} (its dark side {edge.darker:.0%} as "
                             "light as the rest), and a photo taught so would keep it: turn the lamp or move what "
                             "casts it so the light falls evenly on the board, then teach the card again")
        cells = self._cells_of(target)
        covered = None if as_printed else self._covered(image, slot_number, card_id, cells)
        if covered:
            raise CardCovered(covered)
        reference = taught_reference(image, cells)
        if replace:
            self.refs.replace(target, reference)
        else:
            self.refs.add(target, reference)
        self._restack()
        return image

    def _teach_view_of(self, frame: np.ndarray) -> TeachView:
        """The board of a teach photo (`TeachView`): the last one's when ``frame`` is that photo again, else found
        (raising ValueError when no board is)."""
        view = self._teach_view
        if view is not None and view.shows(frame, self.finder):
            return view
        self._teach_view = None
        lifted = band_lifted(frame)  # taught as read
        homography = self.finder.homography(lifted)
        if homography is None:
            raise ValueError(self.finder.last_problem or "board not found")
        flat = self.flat_board(lifted, homography)
        if not self.board_seen(flat):
            raise ValueError(NO_BOARD)
        quiet, flat = self._quietened(lifted, homography, flat)
        large = self.slot_images(quiet, homography, MATCH_SIZE * 2)
        view = TeachView(frame.copy(), lifted, homography, quiet, flat, self.slot_outlines(homography),
                         self.slot_images(quiet, homography), large)
        for array in (view.photo, flat, *view.images, *large):  # not ``lifted``: it may be the caller's frame
            array.flags.writeable = False  # kept for the next slot: nothing may change it in place
        self._teach_view = view
        return view

    def rules_out(self, image: np.ndarray, slot_number: int, card_id: str) -> bool:
        """Whether a slot's photo (as `teach` returns it) shows colour where ``card_id`` prints plain path or a
        hole, much as `teach` refuses a card named for it: that card is not the one lying there."""
        return self._covered(image, slot_number, card_id, self._cells_of(self._reference_of(card_id))) is not None

    @staticmethod
    def _covered(image: np.ndarray, slot_number: int, card_id: str,
                 cells: tuple[tuple[str, ...], ...] | None) -> str | None:
        """Why a photo of ``card_id`` (whose reference has ``cells``) is refused for what lies on it
        (`covered_cell`), None when nothing much does.

        The cell named is one the card prints plain or as a hole, so another colour over much of it is a pawn, a
        finger or a die, or the card lying there is not the one named (its idol or stairs where these are plain).
        """
        covered = covered_cell(image, cells)
        if covered is None:
            return None
        row, column, share = covered
        spot = f"{share:.0%} of the cell in row {row}, column {column}"
        if cells is None:
            return (f"something lies in bare slot {slot_number}: {spot} shows another colour than the bare slot "
                    f"(a pawn?); lift it off and teach again")
        kind = "a hole" if cells[row - 1][column - 1] == "hole" else "plain"
        return (f"something lies on the card in slot {slot_number}: {spot}, {kind} on {card_id}, shows another "
                f"colour (a pawn?), and every reading of {card_id} would be held against it; lift it off and teach "
                f"again, or check that {card_id} is the card lying there")

    def _reference_of(self, card_id: str) -> str | None:
        """The reference a taught card joins: its look-alike group's first id, or None for a bare slot.

        The bare slot was keyed "<empty>" among the cards, so a café's card of that id read as no card at all
        in every slot it lay in; only a deck without such a card takes the name for the bare slot.
        """
        if card_id == EMPTY and card_id not in self.groups:
            return None
        return self.groups.get(card_id, card_id)

    def _cells_of(self, reference: str | None) -> tuple[tuple[str, ...], ...] | None:
        """The cells of a reference's card (`_reference_of`), None for a bare slot's."""
        return next((card.cells for card in self.cards if card.id == reference), None)

    def save_taught(self, folder: Path, card_id: str, image: np.ndarray) -> Path:
        """Store a taught photo as the first free `<card id>__<n>.png`; raises OSError when it cannot be written.

        The first free number, not the count of photos: after a café deletes
        `P07__0.png`, counting would name the next photo `P07__1.png` and write
        over the one it kept. Written whole or not at all (`write_whole`).
        """
        folder.mkdir(parents=True, exist_ok=True)
        n = 0
        # A name held by a link, even to nothing, is taken: the move would replace the link.
        while (path := folder / f"{card_id}__{n}.png").exists() or path.is_symlink():
            n += 1
        encoded, png = cv2.imencode(".png", image)
        if not encoded:
            raise OSError(f"cannot encode the photo for {path}")
        write_whole(path, png.tobytes())
        return path

    def taught_photos(self, folder: Path) -> list[Path]:
        """The photos named `<card id>__<n>.png` in ``folder``, none when nothing was taught there yet; sets
        `taught_problem` when the folder cannot be read, so its reason is told.

        The glob raised OSError for a folder name past the file system's limit,
        and the feed and `watch` make their reader from `$COMPANION_TAUGHT_DIR`:
        the table's card reader did not start. It also passed over a folder it
        may not look into, or a file where the folder should be, in silence,
        leaving a café sure its teaching was used.
        """
        folder = Path(folder)
        try:
            with os.scandir(folder) as entries:
                names = [entry.name for entry in entries if fnmatch.fnmatchcase(entry.name, "*__*.png")]
        except FileNotFoundError:  # nothing taught yet, unless the folder is a link to a drive not plugged in
            with contextlib.suppress(OSError):
                self.taught_problem = (f"the taught folder {folder} is a link to {os.readlink(folder)}, which is not "
                                       "there (a drive not plugged in?); the cards are read by their drawings")
            return []
        except (OSError, ValueError) as error:  # ValueError: a NUL in the name
            why = getattr(error, "strerror", None) or str(error)
            self.taught_problem = (f"the taught folder {folder} cannot be read ({why}); "
                                   "the cards are read by their drawings")
            return []
        return [folder / name for name in sorted(names)]

    def load_taught(self, folder: Path) -> int:
        """Taught photos named `<card id>__<n>.png`: the first of a card replaces its rendering, more add to it.

        The photos it passes over are kept in `taught_skipped` (name and why): a
        photo of a card the deck does not have, or one that is no image, would
        otherwise leave the café sure the card was taught. A folder that cannot
        be read is no error (`taught_photos`): the reader reads by the drawings
        and `taught_problem` says why.
        """
        count = 0
        replaced: set[str | None] = set()
        for path in self.taught_photos(folder):
            # Split at the last "__": a café's card "P__2" is taught as "P__2__0.png", and split at the first
            # its photo was passed over as a card "P" the deck has not.
            card_id = path.stem.rsplit("__", 1)[0]
            if card_id not in self.groups and card_id != EMPTY:
                self.taught_skipped.append(f"{path.name} (no card {card_id} in the deck)")
                continue
            image = image_file(path)
            if image is None:
                self.taught_skipped.append(f"{path.name} (not a readable image)")
                continue
            unfit = unfit_photo(image)
            if unfit:  # a hand edit or a copy gone wrong replaced the card's drawing, and the card read wrong
                self.taught_skipped.append(f"{path.name} ({unfit})")
                self.taught_unfit.append(f"{path.name} ({unfit})")
                continue
            self.taught_cards.append(card_id)
            if stored_clipped(image):
                self.taught_clipped.append(path.name)
            target = self._reference_of(card_id)
            image = taught_reference(image, self._cells_of(target))
            if target in replaced:
                self.refs.add(target, image)
            else:
                self.refs.replace(target, image)
                replaced.add(target)
            count += 1
        self._restack()
        if self.taught_unfit:  # the card is read by its drawing, or its other photos
            self.photos_problem = (f"taught photos in {folder} that cannot be a card's are passed over: "
                                   f"{first_few(self.taught_unfit)}; teach those cards again")
        if self.taught_clipped:
            self.clipped_problem = clipped_words(Path(folder), self.taught_clipped)
        return count
