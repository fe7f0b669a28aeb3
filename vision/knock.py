"""Dice that lie where they lay: untouched, or moved only because the camera was knocked.

A hand reaching past the dice, or a camera knocked on its mount, ends in a
still picture with the same dice in it; told as a roll, the next player was
given a value nobody threw. Two kinds of evidence tell a knock. The picture
round the dice moved by one shift (`motion.picture_shift`): the table, the
tray's grain and edges. On a plain tray with nothing else in view that says
nothing, and the dice themselves must tell (`moved_together`): all of them,
the same faces turned the same way, moved by one common vector, with nothing
else moving in view on the way. A throw moves the dice apart, turns them,
and brings a hand or a die in over the picture's edge.

A single die is the hard case: thrown again it may land on the same face a
little way off. It is then taken as a knock only when its face is also turned
as it was (within a few degrees), it moved no farther than a knock moves a
picture, and nothing came into view on the way; a roll missed so is said on
the status line ("roll again or enter the value by hand"), which a player
mends with one throw, while a roll nobody threw moves a pawn.

A marked tray that settles with no dice in it is compared too (`knocked_at_rest`):
a knock while the tray is empty, or one that carries the dice out of the marked
area, settles no dice, and left untold the area stayed off the tray, where the
next roll was missed or read in part.

A camera turned or tilted on its mount rather than slid moves each part of the
picture by another amount, so no one shift explains it: where the shift finds
nothing, the picture's own turn is looked for (`picture_turn.picture_turn`),
and the marked tray follows it as it follows a shift (`followed_tray`).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from vision.frames import as_bgr
from vision.motion import MotionGate, picture_shift, picture_stayed
from vision.picture_turn import Turn, picture_turn
from vision.readings import Box, DieReading
from vision.tray_area import TrayArea, placed
from vision.yolo_labels import centre_inside, iou

SAME_PLACE = 0.5  # overlap (IoU) of a die's box with its box before at which it has not moved
KNOCK_FARTHEST = 0.2  # of the picture's long side: a knock moves the picture less; a die thrown may land anywhere
TOGETHER = 0.15  # of a die's side: how far one die may be from where the common vector puts it (box jitter)
LOOK_SAME = 0.95  # correlation of a die's picture with its picture before, moved: the same face turned the same way
LOOK_SEARCH = 0.15  # of a die's side, at least 3 px: how far about its expected place its picture is looked for
FLAT = 3.0  # grey levels: a box whose picture varies less shows nothing to look for (`seen_moved`)

Beyond = Callable[[list[Box]], bool]
"""Whether anything moved in view outside these boxes (frame pixels) since the dice were last read."""


@dataclass(frozen=True)
class Knock:
    """The dice lying as before a knock, how far they moved, and what told it: "picture" or "dice"; ``turn``: how
    the picture turned or tilted, when no one shift explained it (``shift`` is then its middle's)."""

    dice: list[DieReading]
    shift: tuple[float, float]
    told_by: str
    turn: Turn | None = None

    @property
    def distance(self) -> float:
        return math.hypot(*self.shift)

    def moved(self) -> str:
        """What the picture did: "moved 28 px", "turned 4 degrees clockwise and moved 12 px"."""
        return self.turn.words() if self.turn is not None else f"moved {self.distance:.0f} px"

    def carried(self, dice: Sequence[DieReading]) -> list[DieReading]:
        """``dice`` (frame px before the knock) where the picture carried them."""
        return self.turn.placed(dice) if self.turn is not None else placed(dice, self.shift)

    def words(self) -> str:
        """The start of the status line's sentence."""
        if self.told_by == "picture":
            return f"the picture {self.moved()} (the camera was knocked?), but "
        return (f"the dice moved {self.distance:.0f} px all together, each face turned as before (the camera "
                "was knocked?): ")


def gate_beyond(gate: MotionGate, offset: tuple[int, int], shape: tuple[int, ...]) -> Beyond:
    """`Beyond` as ``gate`` saw it, watching a view of ``shape`` whose top left corner lies at ``offset`` in the
    frame (the marked tray; the whole picture at (0, 0))."""
    ox, oy = offset
    return lambda boxes: gate.moved_beyond([(x0 - ox, y0 - oy, x1 - ox, y1 - oy) for x0, y0, x1, y1 in boxes], shape)


def untouched(before: Any, now: Any) -> list[DieReading] | None:
    """The dice of `before` that the dice settled `now` are, each lying where one of them lay; None when a die
    of `now` lies where none of `before` did (a die thrown, or laid in).

    A hand reaching over the tray to move a pawn is motion, and the dice settle
    again once it has gone; read as a new roll, the same die was applied a
    second time. Values are not compared: a die that has not moved has not
    changed its face, so another value is a misread, no roll either. Dice only
    taken away leave the others untouched: a player who set her own die in the
    tray beside the last roll's (two dice: refused) and lifted it out again
    left that die, which never moved, and it was told as her roll.
    """
    if before is None or len(now) > len(before):
        return None
    left = list(before)
    matched = []
    for die in now:
        same = max(left, key=lambda d: iou(d.box, die.box))
        if iou(same.box, die.box) < SAME_PLACE:
            return None
        left.remove(same)
        matched.append(same)
    return matched


def left_lying(lying: Sequence[tuple[DieReading, Any]], now: Sequence[DieReading], now_picture: Any) -> bool:
    """Whether every die of `now` is one of `lying` (each a die with the picture it lay in), read by a reader
    made for another die: its centre within that die's box, and that die's picture unchanged since, so it
    still lies there, unmoved.

    The d6 reader reads a temple d20 left in the tray as a d6 now and then (5
    of 40 rendered d20s, one as a 1 93% sure): the temple game's die, lying
    where it lay as Blackpool began, and the hand that tapped the new game
    passing over it, was Blackpool's first roll. Boxes are not compared, as
    `untouched` compares them: a reader made for another die boxes it its
    own way (a d20's numeral read as a d6's face, a box a quarter of the
    die's). A die thrown onto its place, or that die taken away, changes its
    picture there.
    """
    if not now or not lying:
        return False
    new = as_bgr(now_picture)
    if new is None:
        return False
    grey = cv2.cvtColor(new, cv2.COLOR_BGR2GRAY)
    pictures: dict[int, np.ndarray | None] = {}

    def still(die: DieReading, picture: Any) -> bool:
        if id(picture) not in pictures:
            old = as_bgr(picture)
            pictures[id(picture)] = (cv2.cvtColor(old, cv2.COLOR_BGR2GRAY) if old is not None
                                     and old.shape == new.shape else None)
        old_grey = pictures[id(picture)]
        return old_grey is not None and seen_moved(old_grey, grey, die.box, (0.0, 0.0)) is not None

    return all(any(centre_inside(die.box, other.box) and still(other, picture) for other, picture in lying)
               for die in now)


def camera_moved(before: Any, now: Any, picture: Any, now_picture: Any, beyond: Beyond | None = None,
                 area: Box | None = None) -> Knock | None:
    """The dice of `before` that the dice settled `now` are, when the camera was knocked since `before` lay in
    `picture`: the whole picture moved with them (`motion.picture_shift`), or, where the picture round them
    cannot tell, the dice moved together (`moved_together`), or were carried over the side of the marked tray
    ``area`` (frame pixels, `carried_out`); else None.

    A camera knocked moves every die in the picture: a die some 25 px off its
    place was told as a new roll, and applied to the next player. ``beyond``
    says whether anything else moved in view on the way; without it the dice
    alone do not tell a knock. A die carried half over the marked tray's side
    is read in part, as another face (a 5 as a 6 or a 2), and was applied as a
    roll nobody threw.
    """
    if before is None or picture is None or now_picture is None or not now:
        return None
    moved = picture_moved(picture, now_picture, [d.box for d in (*before, *now)])
    if moved is not None:
        kept = untouched(moved.carried(before), now)
        return None if kept is None else dataclasses.replace(moved, dice=kept)
    if beyond is None:
        return None
    together = moved_together(before, now, picture, now_picture, beyond)
    if together is not None or area is None:
        return together
    return carried_out(before, picture, now_picture, area, beyond)


def moved_together(before: Sequence[DieReading], now: Sequence[DieReading], picture: Any, now_picture: Any,
                   beyond: Beyond) -> Knock | None:
    """The dice of `before`, when every die of `now` is one of them moved by one common vector, showing the
    same face turned the same way, nothing else moved in view, and the picture round them does not show it
    stayed where it was; else None.
    """
    if len(now) != len(before) or not now:
        return None
    old, new = as_bgr(picture), as_bgr(now_picture)
    if old is None or new is None or old.shape != new.shape:
        return None
    pairs = _paired(before, now)
    if pairs is None:
        return None
    moves = np.array([_centre(n.box) - _centre(b.box) for b, n in pairs])
    shift = moves.mean(axis=0)
    farthest = KNOCK_FARTHEST * max(old.shape[:2])
    if not 2.0 <= float(np.hypot(*shift)) <= farthest:
        return None  # unmoved dice are `untouched`'s; a knock moves the picture less far
    for (b, _), move in zip(pairs, moves, strict=True):
        if np.hypot(*(move - shift)) > max(3.0, TOGETHER * _side(b.box)):
            return None  # the dice moved apart: thrown
    dx, dy = float(shift[0]), float(shift[1])
    if beyond([_swept(b.box, n.box) for b, n in pairs]):
        return None  # something came into view, or moved elsewhere in it: a hand, a die thrown
    if picture_stayed(old, new, (dx, dy), [d.box for d in (*before, *now)]):
        return None  # the table round the dice shows it has not moved
    old_grey, new_grey = cv2.cvtColor(old, cv2.COLOR_BGR2GRAY), cv2.cvtColor(new, cv2.COLOR_BGR2GRAY)
    found = [seen_moved(old_grey, new_grey, b.box, (dx, dy)) for b, _ in pairs]
    if any(move is None for move in found):
        return None  # a face turned otherwise: thrown, landing on the same value
    # Measured by each die's whole picture rather than by its box, which the reader draws a few px loose or tight.
    dx, dy = (float(v) for v in np.mean(found, axis=0))
    return Knock([b for b, _ in pairs], (dx, dy), "dice")


def seen_moved(before: np.ndarray, now: np.ndarray, box: Box, shift: tuple[float, float],
               reach: int | None = None) -> tuple[int, int] | None:
    """How far the die boxed ``box`` in grey ``before`` moved, when it is found in grey ``now`` about ``shift``
    away as the same picture: the same face turned the same way (a face turned a few degrees moves its pips
    off their places); else None. ``reach``: how far about that place it is looked for, in px (a few px by
    default; `carried_out` looks as far as a knock moves a picture).

    A box with nothing in it before (a hand over it, a bare tray of one even colour) matches anything, a
    normalised correlation of a flat picture being 1 everywhere: no sign of a die, and None.
    """
    h, w = before.shape[:2]
    x0, y0, x1, y1 = (round(v) for v in box)
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
    if x1 - x0 < 6 or y1 - y0 < 6 or float(before[y0:y1, x0:x1].std()) < FLAT:
        return None
    wide = reach is not None
    reach = reach if reach is not None else max(3, round(LOOK_SEARCH * _side(box)))
    sx0, sy0 = round(x0 + shift[0]) - reach, round(y0 + shift[1]) - reach
    sx1, sy1 = round(x1 + shift[0]) + reach, round(y1 + shift[1]) + reach
    if wide:  # a wide look stops at the picture's edge
        sx0, sy0, sx1, sy1 = max(0, sx0), max(0, sy0), min(w, sx1), min(h, sy1)
        if sx1 - sx0 < x1 - x0 or sy1 - sy0 < y1 - y0:
            return None
    elif sx0 < 0 or sy0 < 0 or sx1 > w or sy1 > h:
        return None  # partly out of the picture: not seen whole
    score = cv2.matchTemplate(now[sy0:sy1, sx0:sx1], before[y0:y1, x0:x1], cv2.TM_CCOEFF_NORMED)
    _, best, _, (bx, by) = cv2.minMaxLoc(np.nan_to_num(score, nan=-1.0))
    return (sx0 + bx - x0, sy0 + by - y0) if best >= LOOK_SAME else None


def _paired(before: Sequence[DieReading], now: Sequence[DieReading]) -> list[tuple[DieReading, DieReading]] | None:
    """Each die of `now` with the die of `before` showing the same face that the first die's move puts nearest
    it; None when a face has no such die."""
    first = now[0]
    best = None
    for start in (b for b in before if _face(b) == _face(first)):
        move = _centre(first.box) - _centre(start.box)
        left, pairs = list(before), []
        for die in now:
            same = [b for b in left if _face(b) == _face(die)]
            if not same:
                break
            near = min(same, key=lambda b: float(np.hypot(*(_centre(b.box) + move - _centre(die.box)))))
            left.remove(near)
            pairs.append((near, die))
        else:
            spread = sum(float(np.hypot(*(_centre(n.box) - _centre(b.box) - move))) for b, n in pairs)
            if best is None or spread < best[0]:
                best = (spread, pairs)
    return None if best is None else best[1]


def _face(die: DieReading) -> tuple[str, str]:
    return str(die.value), die.face or ""


def _centre(box: Box) -> np.ndarray:
    return np.array([(box[0] + box[2]) / 2, (box[1] + box[3]) / 2], np.float64)


def _side(box: Box) -> float:
    return max(1.0, min(box[2] - box[0], box[3] - box[1]))


def _swept(a: Box, b: Box) -> Box:
    """The box round a die's way from ``a`` to ``b``, grown by a quarter of its side (its blur, its shadow)."""
    grow = 0.25 * _side(a)
    return (min(a[0], b[0]) - grow, min(a[1], b[1]) - grow, max(a[2], b[2]) + grow, max(a[3], b[3]) + grow)


def followed_tray(tray: TrayArea, knock: Knock, shape: tuple[int, ...]) -> tuple[TrayArea, str]:
    """A marked tray after ``knock`` in a picture of ``shape``, and what to say of it: moved with the picture
    when the whole picture measured the shift (it is the tray's own); left, with nothing said, when only the
    dice told it (the shift is theirs) or the moved area would leave the picture (`TrayArea.shifted`).

    A picture turned or tilted moves the tray's corners each its own way: the
    area becomes the upright box round them (`TrayArea.around`), which holds
    the whole tray and a little of the table. Turned farther than a nudge
    turns a camera (`Turn.followable`), that box would take in much of the
    table: left, with nothing said, for the café to mark again.
    """
    if tray.whole or knock.told_by != "picture":
        return tray, ""
    if knock.turn is None:
        area = tray.shifted(knock.shift[0] / shape[1], knock.shift[1] / shape[0])
    elif knock.turn.followable:
        x0, y0, x1, y1 = (float(v) for v in tray.pixels(shape))
        corners = knock.turn.points([(x0, y0), (x1, y0), (x1, y1), (x0, y1)])
        area = TrayArea.around([(x / shape[1], y / shape[0]) for x, y in corners])
    else:
        area = None
    if area is None:
        return tray, ""
    return area, f"the marked tray moved with the picture: dice are read in {area.words()}"


REST_CHANGE = 1.0  # grey levels of mean change (64x48, light matched) from the tray's rest picture worth comparing
TINY = (64, 48)


class TableAtRest:
    """The whole picture the marked tray last rested in, read (dice placed, or nothing there), and when a tray
    read empty since is worth comparing with it for a knock (`knocked_at_rest`).

    The first read after motion always is (a knock is motion to the gate where
    the tray's walls or the table's marks move). A knock too smooth for the gate,
    or a camera arm sagging a little at a time, is found at the reads of an idle
    tray (two a second), each first looked at 64x48 px for 0.1 ms: only a
    picture that changed since it rested (a grey level on average, light
    matched) is compared, and after a comparison that found nothing, only once
    it has changed as much again from the picture then compared, so a sunbeam or
    a cup set down without a hand the gate saw is compared once, not twice a
    second all day.
    """

    def __init__(self) -> None:
        self.picture: Any = None
        self._tiny: np.ndarray | None = None
        self._tried: np.ndarray | None = None  # the tiny picture last compared in vain

    def keep(self, picture: Any) -> None:
        """``picture`` (a copy nobody else changes) is the picture the tray rests in now."""
        self.picture, self._tried = picture, None
        self._tiny = _tiny(picture) if picture is not None else None

    def knock(self, now: np.ndarray, lying: Sequence[DieReading] | None, area: Box, beyond: Beyond | None,
              after_motion: bool) -> Knock | None:
        """The knock since the tray last rested, told when it rests again in ``now`` with no dice read in it
        (``after_motion``: on the first read since the gate saw motion); else None."""
        if self.picture is None or self._tiny is None or self.picture.shape != now.shape:
            self.keep(now.copy())
            return None
        if not after_motion:
            tiny = _tiny(now)
            if _changed(self._tiny, tiny) < REST_CHANGE:
                return None
            if self._tried is not None and _changed(self._tried, tiny) < REST_CHANGE:
                return None  # compared in vain already, and no more changed since
            self._tried = tiny
        knock = knocked_at_rest(self.picture, now, lying, area, beyond)
        if knock is not None or after_motion:  # after motion, what lies still now is the table at rest
            self.keep(now.copy())
        return knock


def _tiny(picture: np.ndarray) -> np.ndarray:
    return cv2.resize(picture, TINY, interpolation=cv2.INTER_AREA).astype(np.float32)


def _changed(before: np.ndarray, now: np.ndarray) -> float:
    """Mean change in grey levels between two tiny pictures, ``before`` brought to ``now``'s light as a whole."""
    gain = float(now.sum()) / max(1.0, float(before.sum()))
    return float(np.mean(np.abs(now - before * gain)))


def knocked_at_rest(rest: Any, now: Any, lying: Sequence[DieReading] | None, area: Box,
                    beyond: Beyond | None = None) -> Knock | None:
    """The camera knocked since the still picture ``rest``, told when the marked tray (``area``, frame pixels)
    settles in the still picture ``now`` with no dice in it; ``lying``: the dice last taken as lying there
    (perhaps lifted out since), whose places are no table to compare. None when nothing tells a knock.

    The picture is compared only when the dice settle, so a knock while the tray
    was empty, or one that carried the dice out of the marked area, was measured
    by nothing: the area stayed where it was, off the tray, and the next roll was
    read in the wrong place or missed. The whole picture tells it as for dice
    (`motion.picture_shift`: the table round the tray, its walls, all moved by one
    shift; a hand held still, a cup set down or a lamp dimmed moves no picture).
    Where it cannot (a plain tray filling the view), dice carried out of the area
    are looked for beside it (`carried_out`). Done once a still period, when the
    tray's first read comes back empty, so a tray at rest pays nothing for it.
    """
    if rest is None or now is None:
        return None
    lying = list(lying or ())
    knock = picture_moved(rest, now, [d.box for d in lying], lying)
    if knock is not None or not lying or beyond is None:
        return knock
    return carried_out(lying, rest, now, area, beyond)


def picture_moved(before: Any, now: Any, keep_out: Sequence[Box], dice: Sequence[DieReading] = ()) -> Knock | None:
    """The knock that moved the whole still picture ``before`` to the still picture ``now`` (slid,
    `motion.picture_shift`, or else turned or tilted, `picture_turn.picture_turn`), the ``keep_out`` boxes (frame
    px: dice where they lay and where they lie) left out, as a `Knock` of ``dice``; None when the picture did
    not move as one."""
    shift = picture_shift(before, now, list(keep_out))
    if shift is not None:
        return Knock(list(dice), shift, "picture")
    turn = picture_turn(before, now, keep_out)
    return None if turn is None else Knock(list(dice), turn.shift, "picture", turn)


def thrown_knock(rest: Any, now: Any, before: Sequence[DieReading] | None,
                 thrown: Sequence[DieReading]) -> Knock | None:
    """The camera knocked, turned or tilted while ``thrown`` (a roll, read in the still picture ``now``) was
    thrown: the whole picture moved from ``rest``, the one the marked tray last rested in, with the dice that
    lay there then (``before``) and the dice thrown left out; None when it did not move as one.

    A camera nudged by the hand that threw settles with the dice: the roll is
    read, rightly, but the tray was compared only when dice lay still before
    (`camera_moved`) or it settled empty (`knocked_at_rest`), so the marked
    area stayed where it was, off the tray, and the next rolls were read in
    part or missed. A roll on a camera that stayed put pays one comparison of
    two small pictures, and the dice thrown are never what the picture follows.
    """
    if rest is None or now is None or not thrown:
        return None
    return picture_moved(rest, now, [d.box for d in (*(before or ()), *thrown)])


def carried_out(before: Sequence[DieReading], picture: Any, now_picture: Any, area: Box,
                beyond: Beyond) -> Knock | None:
    """The dice of ``before``, when each is found in ``now_picture`` moved by one common vector, one of them at
    least over the side of the marked ``area`` (frame pixels), the same face turned the same way, nothing else
    moved in view on the way, and the picture round them does not show it stayed; else None (`moved_together`,
    for dice no longer read, or read in part).

    A hand that lifts a die out takes it away, or lays it down turned otherwise,
    and comes in over the tray's edge wider than the die's own way: no knock.
    """
    old, new = as_bgr(picture), as_bgr(now_picture)
    if old is None or new is None or old.shape != new.shape:
        return None
    old_grey, new_grey = cv2.cvtColor(old, cv2.COLOR_BGR2GRAY), cv2.cvtColor(new, cv2.COLOR_BGR2GRAY)
    farthest = KNOCK_FARTHEST * max(old.shape[:2])
    found = [seen_moved(old_grey, new_grey, d.box, (0.0, 0.0), round(farthest)) for d in before]
    if any(move is None for move in found):
        return None  # a die gone (lifted out), or turned: no knock
    moves = np.array(found, np.float64)
    shift = moves.mean(axis=0)
    if not 2.0 <= float(np.hypot(*shift)) <= farthest:
        return None
    if any(np.hypot(*(move - shift)) > max(3.0, TOGETHER * _side(d.box))
           for d, move in zip(before, moves, strict=True)):
        return None  # moved apart: not one picture moved
    dx, dy = float(shift[0]), float(shift[1])
    now = placed(before, (dx, dy))
    x0, y0, x1, y1 = area
    if all(x0 <= d.box[0] and y0 <= d.box[1] and d.box[2] <= x1 and d.box[3] <= y1 for d in now):
        return None  # still wholly in the area: the reader's to read there, not carried out
    if beyond([_swept(b.box, n.box) for b, n in zip(before, now, strict=True)]):
        return None  # a hand came in over the tray's edge
    if picture_stayed(old, new, (dx, dy), [d.box for d in (*before, *now)]):
        return None
    return Knock(list(before), (dx, dy), "dice")


def thrown_words(knock: Knock) -> str:
    """The status line's sentence for `thrown_knock`, before what becomes of the marked tray."""
    return f"the picture {knock.moved()} as the dice were thrown (the camera was knocked?)"


def rest_words(knock: Knock) -> str:
    """The status line's sentence for `knocked_at_rest`, before what becomes of the marked tray."""
    if knock.told_by == "picture":
        return f"the picture {knock.moved()} while no dice were read in the marked tray (the camera was knocked?)"
    return (f"the dice moved {knock.distance:.0f} px all together, out of the marked tray, each face turned as "
            "before (the camera was knocked?)")
