"""Scoring the temple die reader on seeded rendered faces (the `vision eval-temple-die` command).

There is no photo set of this die, so the renders are the measure: every face of
the die's data in turn, at tray camera and close-up sizes, on dark, red and light
trays under uneven light. The reader is taught from renders of other seeds, as it
is before a café teaches its own die.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from companion.observations import CONFIRM_BELOW
from vision.board_die import BoardDieReader
from vision.board_photos import shadowed
from vision.ctrl_c import until_ctrl_c
from vision.readings import DieReading
from vision.temple_die import TempleDieReader, die_faces
from vision.temple_die_render import render_temple_die
from vision.temple_table_render import MARKED_TRAY, RolledDie, in_tray_place, on_board_place, temple_table
from vision.tray_area import TrayReader, placed


@dataclass
class TempleDieScore:
    frames: int = 0
    value_right: int = 0
    colour_right: int = 0
    unread: int = 0
    seconds: float = 0.0
    applied_wrong: int = 0
    """Faces read wrong (value or colour) surely enough to be applied without the confirm tap (CONFIRM_BELOW)."""
    asked_right: int = 0
    """Faces read right but not surely enough to be applied: each costs the players a tap."""
    confusions: Counter[tuple[str, str]] = field(default_factory=Counter)
    """(shown value, read value) -> frames, for the values read wrong (read value "-" when no die was found)."""
    stopped: bool = False
    """By Ctrl-C: the faces read so far are scored, the rest not (`vision.ctrl_c`)."""

    def summary(self) -> dict[str, float | int]:
        def share(n: int) -> float:
            return round(n / self.frames, 4) if self.frames else 0.0

        return {
            "value_accuracy": share(self.value_right),
            "colour_accuracy": share(self.colour_right),
            "ms_per_frame": round(1000 * self.seconds / self.frames, 2) if self.frames else 0.0,
            "frames": self.frames,
        }


def evaluate_temple_die(reader: TempleDieReader, frames: int = 320, seed: int = 11,
                        shadow: float = 0.0) -> TempleDieScore:
    """Half the frames 320x240 with the die 45-60 px across its top, half 640x480 at twice that; with ``shadow``, a
    hard shadow's band of that depth across each (`board_photos.shadowed`, drawn from a generator of its own, so the
    renders are the seed's)."""
    rng = np.random.default_rng(seed)
    shadows = np.random.default_rng([seed, 1])
    faces = sorted(die_faces())
    score = TempleDieScore()
    with until_ctrl_c(score):
        for index in range(frames):
            value, colour = faces[index % len(faces)]
            close = (index // len(faces)) % 2 == 1
            size = (640, 480) if close else (320, 240)
            edge = float(rng.uniform(45, 60)) * (2 if close else 1)
            image, _ = render_temple_die(rng, value, colour, size=size, edge=edge)
            image = shadowed(image, shadows, shadow) if shadow else image
            start = time.perf_counter()
            readings = reader.read(image)
            score.seconds += time.perf_counter() - start
            score.frames += 1
            if not readings:
                score.unread += 1
                score.confusions[(value, "-")] += 1
                continue
            got = readings[0]
            if str(got.value) == value:
                score.value_right += 1
            else:
                score.confusions[(value, str(got.value))] += 1
            score.colour_right += got.face == colour
            right = str(got.value) == value and got.face == colour
            score.applied_wrong += not right and got.confidence >= CONFIRM_BELOW
            score.asked_right += right and got.confidence < CONFIRM_BELOW
    return score


@dataclass
class OnBoardScore:
    """The temple die rolled onto the board (`die_on_board`), on a drawn table (`temple_table_render`)."""

    rolled: int = 0  # throws that came to rest on the board
    right: int = 0  # of them, read right (value and colour)
    wrong: int = 0  # of them, read wrong (every reading on the board is sure enough to be applied)
    moves: int = 0  # still tables after only pawns moved, the die left beside the board
    phantoms: int = 0  # of them, a die read on the board all the same
    seconds: float = 0.0
    stopped: bool = False  # by Ctrl-C: the turns read so far are scored, the rest not (`vision.ctrl_c`)

    def summary(self) -> dict[str, float | int]:
        frames = self.rolled + self.moves
        return {
            "on_board_read": round(self.right / self.rolled, 4) if self.rolled else 0.0,
            "on_board_wrong": self.wrong,
            "phantoms": self.phantoms,
            "ms_per_frame": round(1000 * self.seconds / frames, 2) if frames else 0.0,
            "frames": frames,
        }


class MarkedTrayReader:
    """The die read as the table's feed reads it with the drawn table's tray marked: in the tray's cut alone, and
    on the board over the whole picture (`board_die`). A frame with no die in the tray is taken as the tray having
    moved (the die lifted out of it), which the feed's motion gate tells it."""

    def __init__(self, reader: TempleDieReader) -> None:
        self.in_tray = TrayReader(reader)
        self.on_board = BoardDieReader(reader)

    def read(self, frame: np.ndarray) -> list[DieReading]:
        cut, offset = MARKED_TRAY.cut(frame)
        dice = self.in_tray.read(cut)
        self.on_board.follow(not dice, dice)
        on_board = self.on_board.read(frame)  # with the die in the tray, the board is remembered without it
        return placed(dice, offset) if dice else on_board


def evaluate_on_board(reader: Any, frames: int = 200, seed: int = 11, pawn_radius: float = 14.0) -> OnBoardScore:
    """Turns of the temple game under one camera: the die read beside the board (the board remembered without it),
    then either rolled onto the board or left beside it while one or two of the pawns move; every other frame is
    each. A reading after the pawns alone moved is a phantom roll. ``reader``: a `TempleDieReader`, or one as a
    marked tray has it read (`MarkedTrayReader`)."""
    rng = np.random.default_rng(seed)
    faces = sorted(die_faces())
    idols = ("red", "blue", "green", "yellow")
    score = OnBoardScore()
    with until_ctrl_c(score):
        for index in range(frames):
            edge = float(rng.uniform(50, 60))
            pawns = [(on_board_place(rng, pawn_radius), idols[k % 4]) for k in range(int(rng.integers(2, 8)))]
            beside = RolledDie("1", "white", in_tray_place(rng, edge), edge, float(rng.uniform(0, 360)))
            reader.read(temple_table(rng, beside, tuple(pawns), pawn_radius=pawn_radius))
            for _ in range(int(rng.integers(0 if index % 2 == 0 else 1, 3))):
                moved = int(rng.integers(len(pawns)))
                pawns[moved] = (on_board_place(rng, pawn_radius), pawns[moved][1])
            value, colour = faces[(index // 2) % len(faces)]
            rolled = RolledDie(value, colour, on_board_place(rng, edge), edge, float(rng.uniform(0, 360)))
            after = temple_table(rng, rolled if index % 2 == 0 else None, tuple(pawns), pawn_radius=pawn_radius)
            start = time.perf_counter()
            readings = reader.read(after)
            score.seconds += time.perf_counter() - start
            if index % 2:
                score.moves += 1
                score.phantoms += bool(readings)
                continue
            score.rolled += 1
            if readings:
                got = readings[0]
                is_right = str(got.value) == value and got.face == colour
                score.right += is_right
                score.wrong += not is_right
    return score
