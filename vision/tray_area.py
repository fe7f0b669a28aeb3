"""The part of the picture where dice are rolled: the tray, marked once by the café.

A camera over a café table sees more than the tray: the table round it, cups,
the players' hands and sleeves, people walking past at the edge. With the
whole picture watched, any of them kept the dice from settling ("picture not
still") and a spare die lying beside the tray was read as part of the roll.
Marked, the tray is all the dice readers and their motion gate see; the
temple board's cards are still read over the whole picture, since its markers
lie wherever the board does.

It also brings far dice nearer: the d6 detector looks at what it is given
shrunk to 320 px on its long side, so dice 12 px across in a 640x480 picture
are 6 px to it, under what it learnt, while in a marked tray they keep their
12 px. A tray smaller than that is not enlarged to it but padded
(`TrayReader`): enlarged, a tray marked tightly round one big die pushed the
die past the largest the detector learnt (docs/vision.md, "The tray area").

The area is kept as shares of the upright picture (0..1), so it holds for any
frame size the camera sends; a quarter turn or a mirror of the picture moves
it with the picture (`turned`, `mirrored`), so it stays on the same tray.
"""

from __future__ import annotations

import dataclasses
import math
import numbers
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from vision.orientation import Orientation

LEAST_SIDE = 0.15  # a narrower area is a slip of the finger: no tray of dice is that small in a usable picture
READ_SIDE = 320  # px: a tray's long side is padded to this, the d6 detector's look (d6_reader.DETECTOR_LONG_SIDE)
READ_SHORT_SIDE = 240  # px: and its short side to this, a 640x480 frame's at that look


class TrayAreaRefused(ValueError):
    """An area that is no usable part of the picture, with what is wrong with it."""


def _is_number(value: object) -> bool:
    """A real number, numpy's included; a bool is a yes or no, not a share of the picture."""
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


@dataclass(frozen=True)
class TrayArea:
    """A rectangle of the upright picture as shares of its width and height: left, top, right, bottom."""

    left: float = 0.0
    top: float = 0.0
    right: float = 1.0
    bottom: float = 1.0

    def __post_init__(self) -> None:
        sides = (self.left, self.top, self.right, self.bottom)
        if not all(_is_number(v) for v in sides):
            raise TrayAreaRefused(f"a tray area is four numbers from 0 to 1, not {sides!r}")
        sides = tuple(float(v) for v in sides)  # numpy's numbers too, which the settings file cannot write
        for name, value in zip(("left", "top", "right", "bottom"), sides, strict=True):
            object.__setattr__(self, name, value)
        if not all(0.0 <= v <= 1.0 for v in sides):
            raise TrayAreaRefused(f"a tray area's sides are shares of the picture, each from 0 to 1, "
                                  f"not {_shares(sides)}")
        if self.right - self.left < LEAST_SIDE or self.bottom - self.top < LEAST_SIDE:
            raise TrayAreaRefused(f"a tray area {_shares(sides)} is too small: it must span at least "
                                  f"{LEAST_SIDE:.0%} of the picture each way, left before right and top before bottom")

    @classmethod
    def from_corners(cls, a: tuple[float, float], b: tuple[float, float]) -> TrayArea:
        """The area with two opposite corners at `a` and `b` (shares of the picture), in either order, as a
        finger taps them on the preview; corners tapped just outside the picture are taken at its edge.
        A corner that is no point (NaN, missing) is refused: clamped, NaN became the picture's edge."""
        try:
            (ax, ay), (bx, by) = a, b
        except (TypeError, ValueError):
            ax = ay = bx = by = None
        if not all(_is_number(v) and math.isfinite(v) for v in (ax, ay, bx, by)):
            raise TrayAreaRefused(f"a tray is marked by two corners, each a share across and down, not {a!r}, {b!r}")
        xs = sorted(min(1.0, max(0.0, float(p[0]))) for p in (a, b))
        ys = sorted(min(1.0, max(0.0, float(p[1]))) for p in (a, b))
        return _rounded(xs[0], ys[0], xs[1], ys[1])

    @classmethod
    def from_list(cls, values: Sequence[Any]) -> TrayArea:
        """From the settings' list (left, top, right, bottom); an empty list is the whole picture."""
        if not isinstance(values, list | tuple):  # a hand-edited settings file's null or text
            raise TrayAreaRefused(f"a tray area is a list of four numbers (left, top, right, bottom), not {values!r}")
        if len(values) == 0:
            return WHOLE_PICTURE
        if len(values) != 4:
            raise TrayAreaRefused(f"a tray area is four numbers (left, top, right, bottom), not {len(values)}")
        return cls(*values)

    @classmethod
    def parse(cls, text: str) -> TrayArea:
        """From a command line's "left,top,right,bottom" (shares, or percentages with %); "whole" or "" for all."""
        text = text.strip()
        if text.lower() in ("", "whole", "all"):
            return WHOLE_PICTURE
        parts = [part.strip() for part in text.split(",")]
        try:
            values = [float(p[:-1]) / 100 if p.endswith("%") else float(p) for p in parts]
        except ValueError:
            raise TrayAreaRefused(f"{text!r} is no tray area: give left,top,right,bottom as shares of the picture, "
                                  "e.g. 0.25,0.2,0.75,0.8, or 25%,20%,75%,80%") from None
        return cls.from_list(values)

    def as_list(self) -> list[float]:
        """For the settings file: empty for the whole picture, so a café that never marked a tray sees no numbers."""
        return [] if self.whole else [self.left, self.top, self.right, self.bottom]

    @property
    def whole(self) -> bool:
        return (self.left, self.top, self.right, self.bottom) == (0.0, 0.0, 1.0, 1.0)

    def pixels(self, shape: Sequence[int]) -> tuple[int, int, int, int]:
        """The area in a frame of this shape (rows, columns, ...), as whole pixels x0, y0, x1, y1."""
        h, w = int(shape[0]), int(shape[1])
        x0, x1 = round(self.left * w), round(self.right * w)
        y0, y1 = round(self.top * h), round(self.bottom * h)
        return x0, y0, max(x1, x0 + 1), max(y1, y0 + 1)

    def cut(self, frame: Any) -> tuple[Any, tuple[int, int]]:
        """The tray's part of the frame (a view, no copy) and where its top left corner lies in the frame.

        Anything that is not a picture of two axes or more passes whole, for the
        readers to refuse in their own words (`frames.as_bgr`).
        """
        shape = getattr(frame, "shape", ())
        if self.whole or len(shape) < 2:
            return frame, (0, 0)
        x0, y0, x1, y1 = self.pixels(shape)
        return frame[y0:y1, x0:x1], (x0, y0)

    def turned(self) -> TrayArea:
        """The same tray once the picture is turned a quarter clockwise: a point (x, y) moves to (1 - y, x)."""
        return _rounded(1.0 - self.bottom, self.left, 1.0 - self.top, self.right)

    def mirrored(self) -> TrayArea:
        """The same tray once the picture is mirrored left to right."""
        return _rounded(1.0 - self.right, self.top, 1.0 - self.left, self.bottom)

    def moved(self, before: Orientation, after: Orientation) -> TrayArea:
        """The same tray in the picture put upright `after` instead of `before` (a café pressing Turn or Mirror).

        Taken back to the picture as the camera sends it, then put upright the
        new way: a turn of a mirrored picture turns what is shown the other way.
        """
        area = self.mirrored() if before.mirror else self
        for _ in range((360 - before.turn) % 360 // 90):
            area = area.turned()
        for _ in range(after.turn // 90):
            area = area.turned()
        return area.mirrored() if after.mirror else area

    def shifted(self, across: float, down: float) -> TrayArea | None:
        """The same tray once the picture moved by ``across`` and ``down`` (shares of its width and height: a
        camera knocked, `knock.camera_moved`); None when part of it would then lie outside the picture, where
        no shift can follow it, and the whole picture stays the whole picture."""
        if self.whole:
            return self
        sides = (self.left + across, self.top + down, self.right + across, self.bottom + down)
        if not all(-0.0005 <= v <= 1.0005 for v in sides):
            return None
        return _rounded(*(min(1.0, max(0.0, v)) for v in sides))

    @classmethod
    def around(cls, points: Sequence[tuple[float, float]]) -> TrayArea | None:
        """The upright area round ``points`` (shares of the picture: a marked tray's corners once the camera
        turned or tilted, `knock.followed_tray`); None when one lies outside the picture, where the tray can no
        longer be followed whole."""
        xs, ys = [float(p[0]) for p in points], [float(p[1]) for p in points]
        if not all(-0.0005 <= v <= 1.0005 for v in (*xs, *ys)):
            return None
        return _rounded(*(min(1.0, max(0.0, v)) for v in (min(xs), min(ys), max(xs), max(ys))))

    def words(self) -> str:
        """For a screen or a log: "the whole picture", or "the tray marked at 5-44% across, 0-39% down"."""
        if self.whole:
            return "the whole picture"
        return (f"the tray marked at {self.left * 100:.0f}-{self.right:.0%} across, "
                f"{self.top * 100:.0f}-{self.bottom:.0%} down")


WHOLE_PICTURE = TrayArea()


class TrayReader:
    """A dice reader (d6 or temple die) given a tray's part of the picture, padded so it is never enlarged.

    Both readers look for dice at 320 px on the long side of what they are
    given. A tray cut smaller is padded on its right and bottom with its own
    median colour to 320 by 240 px (`read_shape`), so dice keep their size in
    px; a die found in the padding is none of the tray's. The short side is
    padded too for the temple die's finder, which takes a blob most of the
    picture's short side across for a board or a hand and fits the tray's
    colour along the picture's edges: in trays a quarter of the picture
    round the die, padded on the long side alone, it read no face of 60.
    """

    def __init__(self, reader: Any) -> None:
        self.reader = reader

    def read(self, view: Any) -> list[Any]:
        from vision.frames import as_bgr

        shape = getattr(view, "shape", ())
        if as_bgr(view) is None or read_shape(shape) == tuple(shape):
            # Big enough, or for the reader to refuse in its own words: padded, a 1 px cut became a blank
            # frame full size, and "no dice" was read on it.
            return self.reader.read(view)
        import numpy as np

        h, w = shape[:2]
        padded = np.empty(read_shape(shape), view.dtype)
        padded[...] = np.median(view.reshape(h * w, -1), axis=0).astype(view.dtype).reshape(padded.shape[2:])
        padded[:h, :w] = view
        return [d for d in self.reader.read(padded) if (d.box[0] + d.box[2]) / 2 < w and (d.box[1] + d.box[3]) / 2 < h]


def read_shape(shape: Sequence[int]) -> tuple[int, ...]:
    """The shape a `TrayReader` hands its reader for a tray cut of this shape: its long side padded to
    `READ_SIDE` and its short side to `READ_SHORT_SIDE`. Dice sizes are judged against it
    (`d6_reader.small_dice_size`), as the reader judges them."""
    h, w = int(shape[0]), int(shape[1])
    if w >= h:
        return (max(h, READ_SHORT_SIDE), max(w, READ_SIDE), *shape[2:])
    return (max(h, READ_SIDE), max(w, READ_SHORT_SIDE), *shape[2:])


def placed(dice: Sequence[Any], offset: tuple[int, int]) -> list[Any]:
    """Readings made in a tray's part of the frame, boxed where they lie in the whole frame (`TrayArea.cut`).

    The feed compares boxes from roll to roll and a screen draws them over the
    whole picture, so every box leaves the reader in frame pixels.
    """
    dx, dy = offset
    if not dx and not dy:
        return list(dice)
    return [dataclasses.replace(d, box=(d.box[0] + dx, d.box[1] + dy, d.box[2] + dx, d.box[3] + dy)) for d in dice]


def _rounded(*sides: float) -> TrayArea:
    """Kept to four places, so turning a tray round and back gives the numbers the settings file had."""
    return TrayArea(*(round(v, 4) for v in sides))


def _shares(values: Sequence[float]) -> str:
    return ", ".join(f"{v:g}" if isinstance(v, int | float) else repr(v) for v in values)
