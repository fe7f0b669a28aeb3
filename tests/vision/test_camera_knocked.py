"""A camera knocked while a die lies in the tray: the whole picture moves, the die with it, and that is no roll.

Recorded videos written here (MJPG, real OpenCV), played through the real feed
into a real controller and a journalled Blackpool session, and through
`companion vision watch`.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.controller import Controller
from companion.journal import Journal
from companion.observations import DieRead, LinkChanged
from companion.session import Session
from vision.cli import main
from vision.dice_render import background, draw_face, paste_rotated
from vision.feed import CameraFeed
from vision.motion import picture_shift

WIDTH, HEIGHT = 640, 480
MARGIN = 40  # the table drawn round the camera's view, so a knocked camera sees more of it
SIZE = 56


NOISE_FIELDS = 16  # sensor noise fields a table draws, then takes in turn (`Table.shot`)


class Table:
    """A tray seen from above; `view` is what a camera at ``at`` (its top-left corner on the table) sees."""

    def __init__(self, seed: int = 23) -> None:
        self.table = background(np.random.default_rng(seed), WIDTH + 2 * MARGIN, HEIGHT + 2 * MARGIN)
        self.noise = np.random.default_rng(seed + 1)

    def view(self, die: tuple[int, tuple[float, float], float] | None = None, at: tuple[int, int] = (0, 0),
             light: float = 1.0) -> np.ndarray:
        return self.shot(self.scene(die), at, light)

    def scene(self, die: tuple[int, tuple[float, float], float] | None) -> np.ndarray:
        """The whole table with the die (value, centre in the view, angle) lying on it."""
        img = self.table.copy()
        if die is not None:
            value, (cx, cy), angle = die
            face = draw_face(value, SIZE, (245, 245, 245), (20, 20, 20))
            paste_rotated(img, face, (cx + MARGIN, cy + MARGIN), angle)
        return img

    def shot(self, img: np.ndarray, at: tuple[int, int], light: float = 1.0) -> np.ndarray:
        """What a camera at ``at`` takes of ``img``: its view, a little noise and blur."""
        x, y = MARGIN + at[0], MARGIN + at[1]
        shot = img[y:y + HEIGHT, x:x + WIDTH].astype(np.float32) * light
        shot += self._sensor_noise(shot.shape)
        return np.clip(cv2.GaussianBlur(shot, (0, 0), 0.6), 0, 255).astype(np.uint8)

    def _sensor_noise(self, shape: tuple[int, ...]) -> np.ndarray:
        """The first `NOISE_FIELDS` shots each draw their own noise (as every shot did before), the later ones take
        those fields in turn, so no two shots in a row share theirs: drawing a field took 13 ms of a shot's 20, and
        a video is 100-250 shots."""
        fields = self.__dict__.setdefault("_fields", [])
        taken = self.__dict__.get("_taken", 0)
        self._taken = taken + 1
        if taken < NOISE_FIELDS:
            field = self.noise.normal(0, 2.0, shape)
            fields.append(field.astype(np.float32))
            return field
        return fields[taken % NOISE_FIELDS]

    def throw(self, value: int, centre: tuple[float, float], angle: float, still: int = 45) -> list[np.ndarray]:
        rng = np.random.default_rng(value * 100 + int(centre[0]))
        start = (centre[0] + 150, centre[1] + 40)
        frames = []
        for t in np.linspace(0, 1, 10):
            on_its_way = (start[0] + (centre[0] - start[0]) * t, start[1] + (centre[1] - start[1]) * t)
            frames.append(self.view((int(rng.integers(1, 7)), on_its_way, float(rng.uniform(0, 90)))))
        return frames + [self.view((value, centre, angle)) for _ in range(still)]


def recorded(path: Path, frames: list[np.ndarray]) -> str:
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 30, (WIDTH, HEIGHT))
    assert writer.isOpened()
    for frame in frames:
        writer.write(frame)
    writer.release()
    return str(path)


_RECORDED: dict[str, Path] = {}


def recorded_once(name: str, tmp_path: Path, frames: Callable[[], list[np.ndarray]]) -> str:
    """The video ``name`` of ``frames()``, recorded in the first asking test's folder and hard-linked into each
    later one's: its frames are the same each time (seeded), and drawing them took 5-6 s of CPU a video."""
    path = tmp_path / name
    made = _RECORDED.get(name)
    if made is not None and made.exists():
        os.link(made, path)
        return str(path)
    _RECORDED[name] = Path(recorded(path, frames()))
    return str(path)


def video_name(kind: str, table: Table, *drawn: object) -> str:
    """The file name for `recorded_once` of a video drawn on a fresh ``table`` from ``drawn`` (the camera's moves,
    the dice): its frames are seeded, so the name says all that draws them, and tests asking for the same share it."""
    assert "_taken" not in table.__dict__, "recorded once only from a fresh table: it draws its noise in turn"
    said = b"".join(part.tobytes() if isinstance(part, np.ndarray) else repr(part).encode() for part in drawn)
    digest = hashlib.blake2b(table.table.tobytes() + said, digest_size=6).hexdigest()
    return f"{kind}-{type(table).__name__}-{digest}.avi"


def knocked_video(tmp_path: Path) -> str:
    """A 5 thrown and lying still; the camera knocked 28 px (a few frames of it moving); still again; then
    a real throw elsewhere that shows 5 again."""

    def frames() -> list[np.ndarray]:
        table = Table()
        five = (5, (260.0, 220.0), 20.0)
        frames = [table.view() for _ in range(20)] + table.throw(*five)
        frames += [table.view(five, at=(-8 * k, -5 * k)) for k in (1, 2, 3)]
        frames += [table.view(five, at=(-24, -14)) for _ in range(45)]
        return frames + table.throw(5, (440.0, 330.0), 50.0)  # thrown again: a new roll, the same value

    return recorded_once("knocked.avi", tmp_path, frames)


def play(video: str) -> tuple[Session, list]:
    session = Session.new("blackpool", ["red", "blue"], journal=Journal(Path(video).with_suffix(".sqlite3")))
    controller = Controller(session)
    seen: list = []

    def submit(observation) -> None:
        seen.append(observation)
        controller.submit(observation)

    with CameraFeed(video, submit, mode="d6", fps=None) as feed:
        deadline = time.monotonic() + 60
        while not feed.ended.is_set() and time.monotonic() < deadline:
            controller.wait_and_pump(0.05)
        assert feed.ended.is_set()
    controller.pump()
    return session, seen


def test_a_die_lying_still_while_the_camera_is_knocked_is_not_a_new_roll(tmp_path: Path) -> None:
    """The die moved 28 px with the whole picture: it was told as a roll, and Blue was given Red's 5."""
    session, seen = play(knocked_video(tmp_path))
    assert [o.value for o in seen if isinstance(o, DieRead)] == [5, 5]
    assert [a["value"] for a in session.log] == [5, 5]  # the throw, then the real second throw; no knock between
    notes = [o.detail for o in seen if isinstance(o, LinkChanged) and "lie where they lay" in o.detail]
    assert len(notes) == 1 and notes[0].startswith("the picture moved 28 px (the camera was knocked?)")
    assert notes[0].endswith(": not taken as a roll")  # nobody threw, so nobody is asked to throw again


def test_watch_says_a_knocked_camera_is_no_roll(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`vision watch` judges as the table does: it promised the table would take the knocked die as a roll."""
    assert main(["vision", "watch", knocked_video(tmp_path)]) == 0
    said = [line.split("sure: ", 1)[1] for line in capsys.readouterr().out.splitlines() if "settled" in line]
    assert said == ["the table would take it", "the same dice where they lay: not a new roll",
                    "the table would take it"], said


def test_the_shift_is_found_only_when_the_whole_picture_moved() -> None:
    table = Table()
    five, three = (5, (260.0, 220.0), 20.0), (3, (450.0, 330.0), 60.0)
    lying = table.view(five)
    boxes = [(225.0, 185.0, 295.0, 255.0), (415.0, 295.0, 485.0, 365.0)]
    dx, dy = picture_shift(lying, table.view(five, at=(-24, -14)), boxes[:1]) or (0, 0)
    assert abs(dx - 24) < 1.5 and abs(dy - 14) < 1.5
    assert picture_shift(lying, table.view(three), boxes) is None  # a die thrown elsewhere moves alone
    assert picture_shift(lying, table.view(five, light=0.5), boxes) is None  # a lamp dimmed is no move
    assert picture_shift(lying, table.view(five), boxes) is None
    # A plain tray tells nothing: the die that moved is no camera that moved.
    plain = np.full((HEIGHT, WIDTH, 3), 120, np.uint8)
    moved = plain.copy()
    paste_rotated(plain, draw_face(5, SIZE, (245, 245, 245), (20, 20, 20)), (260, 220), 20)
    paste_rotated(moved, draw_face(5, SIZE, (245, 245, 245), (20, 20, 20)), (300, 250), 20)
    assert picture_shift(plain, moved, [(225.0, 185.0, 295.0, 255.0), (265.0, 215.0, 335.0, 285.0)]) is None
