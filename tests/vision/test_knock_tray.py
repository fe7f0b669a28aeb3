"""A marked tray (`--tray`, the camera screen's Mark tray) when the camera is knocked: it follows the picture
when the picture measured the shift, else the café is asked to mark it again.

Videos written here (MJPG, real OpenCV), played through the real feed into a
real controller and a journalled Blackpool session.
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pytest

from companion.controller import Controller
from companion.journal import Journal
from companion.observations import DieRead, LinkChanged
from companion.session import Session
from tests.vision.test_camera_knocked import HEIGHT, WIDTH, Table, recorded_once
from tests.vision.test_knock_plain_tray import FIVE, PlainTray
from vision import knock
from vision.cli import main
from vision.feed import CameraFeed
from vision.tray_area import WHOLE_PICTURE, TrayArea

MARKED = TrayArea(0.15, 0.2, 0.7, 0.8)  # round the 5 at (260, 220)
KNOCK = (24, 14)  # px the picture moves: the camera's view slides up and left on the table


def knocked(kind: type[Table], tmp_path: Path) -> str:
    """The 5 thrown into the tray (a ``kind`` of table, `Table` or `PlainTray`) and lying still; the camera
    knocked; still again; then a 3 thrown."""

    def frames() -> list[np.ndarray]:
        table = kind()
        at = (-KNOCK[0], -KNOCK[1])
        frames = [table.view() for _ in range(20)] + table.throw(*FIVE)
        frames += [table.view(FIVE, at=(at[0] * k // 3, at[1] * k // 3)) for k in (1, 2)]
        frames += [table.view(FIVE, at=at) for _ in range(45)]
        # The 3 thrown from beside the tray, seen by the knocked camera; the 5 taken out first.
        frames += [table.view(at=at) for _ in range(10)]
        for k in range(10):
            frames.append(table.view((3, (480.0 - 15 * k, 330.0 - 3 * k), 9.0 * k), at=at))
        return frames + [table.view((3, (330.0, 300.0), 81.0), at=at) for _ in range(45)]

    return recorded_once(f"{kind.__name__}.avi", tmp_path, frames)


def knocked_tray() -> list[float]:
    """The marked area moved by the knock, as shares of the picture."""
    moved = MARKED.shifted(KNOCK[0] / WIDTH, KNOCK[1] / HEIGHT)
    assert moved is not None
    return moved.as_list()


def near(area: list[float], wanted: list[float]) -> bool:
    """Within a pixel of a 640x480 picture: the shift is measured to a fraction of one."""
    return len(area) == len(wanted) == 4 and all(abs(a - b) <= 0.002 for a, b in zip(area, wanted, strict=True))


def play(video: str, tray: TrayArea) -> tuple[Session, list, list[TrayArea], TrayArea]:
    session = Session.new("blackpool", ["red", "blue"], journal=Journal(Path(video).with_suffix(".sqlite3")))
    controller = Controller(session)
    seen: list = []
    kept: list[TrayArea] = []

    def submit(observation) -> None:
        seen.append(observation)
        controller.submit(observation)

    with CameraFeed(video, submit, mode="d6", fps=None, tray=tray, on_tray=kept.append) as feed:
        deadline = time.monotonic() + 60
        while not feed.ended.is_set() and time.monotonic() < deadline:
            controller.wait_and_pump(0.05)
        assert feed.ended.is_set()
        final = feed.tray
    controller.pump()
    return session, seen, kept, final


def test_a_marked_tray_moves_with_the_picture_of_a_knocked_camera(tmp_path: Path, monkeypatch) -> None:
    """The picture measured the knock as one shift (`motion.picture_shift`): the marked area moves with it, is
    handed to the front end to keep, and the table is told where dice are read now; the next throw is read as
    before. The turn search (`picture_turn`) finds the same slide as a turn of nothing, so it is watched: it
    must never be what measured this knock, or the test would pass with the shift switched off."""
    turns: list = []
    look_for_turn = knock.picture_turn
    monkeypatch.setattr(knock, "picture_turn", lambda *a: turns.append(look_for_turn(*a)) or turns[-1])
    session, seen, kept, final = play(knocked(Table, tmp_path), MARKED)
    assert turns and not any(turns), turns  # looked for (the 3 thrown on a still camera), never found
    assert near(final.as_list(), knocked_tray()) and kept == [final]
    notes = [o.detail for o in seen if isinstance(o, LinkChanged) and "lie where they lay" in o.detail]
    assert len(notes) == 1, notes  # the tray moving on the picture is no motion that settles the dice again
    assert notes[0].startswith("the picture moved 28 px")
    assert notes[0].endswith(f"The marked tray moved with the picture: dice are read in {final.words()}")
    # The players read it without pixels or the tray's setting (`LinkChanged.table`); the owner's is the detail.
    assert [o.table for o in seen if isinstance(o, LinkChanged) and "lie where they lay" in o.detail] == [
        "The camera was knocked, but the dice lie where they lay: no roll is taken."]
    assert [o.value for o in seen if isinstance(o, DieRead)] == [5, 3]
    assert [a["value"] for a in session.log] == [5, 3]


def test_a_camera_slid_is_measured_as_one_shift_not_as_a_turn() -> None:
    """A slide is `picture_shift`'s: measured to a fraction of a pixel and said as "moved", with no turn fitted
    (the turn search, costlier, is only for what no one shift explains)."""
    table = Table()
    lying = table.view(FIVE)
    boxes = [(225.0, 185.0, 295.0, 255.0), (249.0, 199.0, 319.0, 269.0)]  # the 5 where it lay, where it lies
    moved = knock.picture_moved(lying, table.view(FIVE, at=(-KNOCK[0], -KNOCK[1])), boxes)
    assert moved is not None and moved.turn is None and moved.told_by == "picture"
    assert abs(moved.shift[0] - KNOCK[0]) < 0.5 and abs(moved.shift[1] - KNOCK[1]) < 0.5, moved.shift
    assert moved.moved() == "moved 28 px"
    assert knock.picture_moved(lying, table.view(FIVE), boxes[:1]) is None  # a camera that stayed moved nothing


def test_a_marked_tray_is_asked_again_when_only_the_dice_told_the_knock(tmp_path: Path) -> None:
    """On a plain tray only the dice measured the knock: the area is left as it was, and the café asked."""
    session, seen, kept, final = play(knocked(PlainTray, tmp_path), MARKED)
    assert final == MARKED and kept == []
    notes = [o.detail for o in seen if isinstance(o, LinkChanged) and "lie where they lay" in o.detail]
    assert len(notes) == 1 and notes[0].startswith("the dice moved 28 px all together"), notes
    assert notes[0].endswith("Check the marked tray: if it no longer lies on the tray, mark the tray again")
    assert [o.table for o in seen if isinstance(o, LinkChanged) and "lie where they lay" in o.detail] == [
        "The camera was knocked, but the dice lie where they lay: no roll is taken (owner: mark the tray again on "
        "the camera screen)."]
    assert [a["value"] for a in session.log] == [5, 3]


def test_the_marked_area_follows_a_shift_only_while_it_stays_in_the_picture() -> None:
    assert MARKED.shifted(0.1, -0.05) == TrayArea(0.25, 0.15, 0.8, 0.75)
    assert MARKED.shifted(0.31, 0.0) is None  # its right side would lie past the picture's edge
    assert MARKED.shifted(0.0, -0.21) is None
    assert WHOLE_PICTURE.shifted(0.1, 0.1) == WHOLE_PICTURE


def test_watch_follows_the_marked_tray_too(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`vision watch --tray` says what the feed does, and reads the next throw in the moved tray."""
    assert main(["vision", "watch", knocked(Table, tmp_path), "--tray", "0.15,0.2,0.7,0.8"]) == 0
    out = capsys.readouterr().out
    said = [line.split("sure: ", 1)[1] for line in out.splitlines() if "settled" in line]
    assert said == ["the table would take it", "the same dice where they lay: not a new roll",
                    "the table would take it"], said
    moved = TrayArea(*knocked_tray())
    assert f"the marked tray moved with the picture: dice are read in {moved.words()}" in out
