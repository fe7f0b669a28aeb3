"""The temple die rolled onto the board while a café's tray is marked.

A marked tray is all the dice reader sees (`tray_area`), so a die rolled past
the tray onto the board went unread: the player heard nothing, and the slot
under it read covered. The board holds no markers inside the tray's cut, so
the die's reader cannot remember the board there either. This reader looks at
the whole picture instead, for the die on the board alone: the feed tells it
while the tray's reader sees the die in the tray (`beside`), and it keeps the
board as it looks then, as `TempleDieReader.read` does with the die beside
the board in the whole picture.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from vision.die_on_board import BoardMemory
from vision.frames import as_bgr
from vision.readings import DieReading
from vision.temple_die import TableView, TempleDieReader


class BoardDieReader:
    """The die on the board, over the whole picture; `beside` is the die's radius in frame pixels while the
    tray's reader last read it lying in the tray and nothing moved there since, else None."""

    def __init__(self, reader: TempleDieReader) -> None:
        self.reader = reader
        self.board = BoardMemory()  # its own: the tray reader's cuts show no board to remember
        self.beside: float | None = None

    def follow(self, tray_moving: bool, dice: Sequence[DieReading] = ()) -> None:
        """What the tray's reader made of this frame (``dice``: what its settler settled on, if it did): the die
        read lying in the tray has the board remembered without it from now on, until the tray moves (a hand
        lifting the die)."""
        if tray_moving:
            self.beside = None
        elif dice:
            box = dice[0].box
            self.beside = (box[2] - box[0]) / 2

    def read(self, frame: Any) -> list[DieReading]:
        bgr = as_bgr(frame)
        if bgr is None:
            return []
        view = TableView.of(bgr)
        if self.beside is not None:
            self.board.remember(view.searched, view.quads, self.beside)
            return []
        return self.reader.on_board(view, self.board)
