"""A café's day of rolls through the camera path, for `companion vision bench --soak ROLLS`.

A table's camera runs from opening to closing: every frame passes the motion
gate, every roll the reader, the feed's thread, the controller and a
journalled session, game after game. `bench` times each part once; this plays
the whole path many times over, faster than any table, and prints the memory
held after each block of rolls, so that a leak of a few bytes a frame, which no
short run shows, shows as a rising row of numbers.

The tray is scripted (`ScriptedTray`): rendered dice tumble for a few frames,
then lie still while the camera keeps looking, as between two throws at a
table. Every other step of the game (moves, choices) is chosen at random from
the legal ones, as `companion ui bench --soak` does through the app.
"""

from __future__ import annotations

import random
import resource
import tempfile
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from companion.controller import Controller
from companion.journal import Journal
from companion.observations import Touch
from companion.session import Session
from vision.ctrl_c import partial, until_ctrl_c
from vision.d6_reader import D6Reader
from vision.dice_render import render_dice_scene
from vision.feed import CameraFeed
from vision.sources import counted

GAME, PLAYERS = "blackpool", ("red", "blue")  # a game that rolls one d6 at a time
TUMBLE_FRAMES = 10  # a third of a second of dice in motion at 30 fps
STILL_FRAMES = 60  # two seconds of still tray after each throw, read as a camera would see it
SCENES = 24  # different throws, so no two in a row lie where the last one lay


class ScriptedTray:
    """A camera over a tray that the soak throws dice into: `throw` queues the tumble, then the dice at rest
    are shown for `STILL_FRAMES` frames; after that no new frame is ready (None) until the next throw."""

    name = "soak tray"

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._frames: deque[np.ndarray] = deque()
        self._resting: np.ndarray | None = None
        self._still_left = 0  # no frame before the first throw, so every run reads as many
        self.shown = threading.Event()  # the last throw has been seen to its end: the next may come

    def throw(self, tumbling: list[np.ndarray], resting: np.ndarray) -> None:
        with self._lock:
            self._frames.extend(tumbling)
            self._resting, self._still_left = resting, STILL_FRAMES
            self.shown.clear()

    def read(self) -> np.ndarray | None:
        with self._lock:
            if self._frames:
                return self._frames.popleft()
            if self._still_left:
                self._still_left -= 1
                return self._resting
            self.shown.set()
            return None

    def close(self) -> None:
        pass


@dataclass
class SoakReport:
    rolls: int = 0
    right: int = 0  # applied with the value the dice showed
    asked: int = 0  # offered for a tap first (read unsure), then confirmed
    wrong: int = 0  # applied with another value
    missed: int = 0  # not applied: refused, or no reading within the wait
    games: int = 1
    peak_mb: list[float] = field(default_factory=list)
    stopped: bool = False  # by Ctrl-C: the rolls thrown so far are reported (`vision.ctrl_c`)


def peak_mb() -> float:
    """The process's peak resident memory: it rises with any leak, and never falls back to hide one."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux counts in KiB


def _roll_outcome(controller: Controller, value: int, report: SoakReport, wait: float) -> None:
    """Pump the controller until the throw's reading is applied or turned away, and count how it went."""
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        for update in controller.wait_and_pump(0.05):
            if update.kind == "confirm":
                report.asked += 1
                update = controller.handle(Touch("confirm"))
            if update.kind == "step" and (update.action or {}).get("type") == "roll":
                report.right += update.action["value"] == value
                report.wrong += update.action["value"] != value
                return
            if update.kind in ("unapplied", "refused"):
                report.missed += 1
                return
    report.missed += 1


def _to_next_roll(controller: Controller, pick: random.Random, journal: Journal, report: SoakReport) -> None:
    """Play the game's other steps at random until it waits for the die; a finished game makes way for a new."""
    while True:
        session = controller.session
        assert session is not None
        pending = session.pending()
        if pending.is_over:
            controller.set_session(Session.new(GAME, list(PLAYERS), journal=journal))
            report.games += 1
        elif pending.kind == "roll":
            return
        else:
            controller.handle(Touch("act", session.game.sim_choose(session.state, session.legal(), pick)))


def camera_soak(rolls: int, block: int = 100, seed: int = 1, wait: float = 10.0) -> tuple[SoakReport, float, int]:
    """Throw `rolls` dice through the camera path; (report, seconds taken, frames read)."""
    rng = np.random.default_rng(seed)
    resting = [render_dice_scene(rng, 640, 480, count=1, size_range=(50, 60)) for _ in range(SCENES)]
    tumbling = [render_dice_scene(rng, 640, 480, count=1, size_range=(50, 60))[0] for _ in range(TUMBLE_FRAMES)]
    pick = random.Random(seed)
    report = SoakReport()
    tray = ScriptedTray()
    with tempfile.TemporaryDirectory() as tmp:
        journal = Journal(Path(tmp) / "soak.sqlite3")
        controller = Controller(Session.new(GAME, list(PLAYERS), journal=journal))
        feed = CameraFeed(lambda: tray, controller.submit, mode="d6", fps=None, readers={"d6": D6Reader()})
        began = time.perf_counter()
        with feed.start(), until_ctrl_c(report):
            for n in range(rolls):
                _to_next_roll(controller, pick, journal, report)
                image, _, (value,) = resting[n % SCENES]
                tray.throw(tumbling, image)
                _roll_outcome(controller, value, report, wait)
                tray.shown.wait(wait)
                report.rolls += 1
                if report.rolls % block == 0 or report.rolls == rolls:
                    report.peak_mb.append(round(peak_mb(), 1))
        if report.stopped and report.rolls % block:  # the memory after the last rolls thrown, a block cut short
            report.peak_mb.append(round(peak_mb(), 1))
        took = time.perf_counter() - began
        journal.close()
    return report, took, feed.frames


def soak_lines(rolls: int, block: int = 100) -> tuple[list[str], bool]:
    """What `bench --soak` prints, and whether a Ctrl-C stopped it (what was thrown until then is printed)."""
    report, took, frames = camera_soak(rolls, block)
    thrown = partial(report.rolls, rolls, "rolls") if report.stopped else f"{report.rolls} rolls"
    lines = [
        f"camera soak: {thrown} ({frames} frames) in {took:.0f} s through the feed, the controller "
        f"and a journalled {GAME} session ({counted(report.games, 'game')})",
        f"read right {report.right}, wrong {report.wrong}, not applied {report.missed}; "
        f"{report.asked} asked for a tap before they were applied",
        f"peak memory after each {block} rolls (MB): " + " ".join(f"{mb:.0f}" for mb in report.peak_mb),
    ]
    if len(report.peak_mb) > 1:
        per = (report.peak_mb[-1] - report.peak_mb[0]) / (report.rolls - block)
        lines.append(f"after the first {block}: {1000 * per:+.1f} kB a roll")
    return lines, report.stopped
