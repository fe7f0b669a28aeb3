"""How long from a sensor's line arriving on the port to the action being applied and announced.

Measured over the real path (pty, pyserial reader thread, parser, controller
queue, session act with its durable journal commit, output fan-out), because
that is the delay a player feels between the die stopping and the referee
speaking; the engine alone is measured by ``companion bench``.
"""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from companion.controller import Controller
from companion.journal import Journal
from companion.observations import Update
from companion.registry import game_class
from companion.session import Session
from hardware.dice_link import DiceLink
from hardware.dice_sim import SimulatedSensor


def _wait_for(controller: Controller, kind: str, timeout: float = 10.0) -> Update:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        for update in controller.wait_and_pump(0.5):
            if update.kind == kind:
                return update
    raise TimeoutError(f"no {kind!r} update within {timeout} s")


def _to_a_roll(session: Session, rng: random.Random, new: Any) -> Session:
    """Play on with the simulator's choices until the game waits for a roll (a new game if it ends)."""
    for _ in range(10_000):
        pending = session.pending()
        if pending.kind == "roll":
            return session
        if pending.is_over:
            session = new()
            continue
        session.act(session.game.sim_choose(session.state, session.legal(), rng))
    raise RuntimeError("no roll came up")


def bench_sensor(game_id: str = "blackpool", rolls: int = 200, journal: bool = True, seed: int = 1) -> dict[str, Any]:
    """The latencies of ``rolls`` rolls; after a Ctrl-C, those measured so far (``stopped`` True), if any."""
    game_cls = game_class(game_id)
    players = list(game_cls.colours[: game_cls.min_players]) or ["a", "b"]
    rng = random.Random(seed)
    latencies: list[float] = []
    applied: list[float] = []
    stopped = False
    with tempfile.TemporaryDirectory() as folder:
        book = Journal(Path(folder) / "bench.sqlite3") if journal else None

        def new() -> Session:
            return Session.new(game_id, players, journal=book)

        controller = Controller(new())
        controller.add_output(lambda u: applied.append(time.perf_counter()) if u.kind == "step" else None)
        try:
            _measure(controller, new, rng, rolls, latencies, applied)
        except KeyboardInterrupt:  # the rolls measured so far are the figures asked for, only fewer
            if not latencies:
                raise
            stopped = True
        if book is not None:
            book.close()
    ordered = sorted(latencies)
    return {
        "game": game_id,
        "rolls": len(latencies),
        "journal": journal,
        "median_ms": round(statistics.median(ordered), 3),
        "p99_ms": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))], 3),
        "max_ms": round(ordered[-1], 3),
        "stopped": stopped,
    }


def _measure(controller: Controller, new: Any, rng: random.Random, rolls: int, latencies: list[float],
             applied: list[float]) -> None:
    """Roll ``rolls`` times through a simulated sensor, adding each line-to-step latency (ms) to ``latencies``."""
    with SimulatedSensor() as sensor, DiceLink(sensor.path, controller.submit, source="bench"):
        _wait_for(controller, "link")
        for _ in range(rolls):
            session = _to_a_roll(controller.session, rng, new)
            if session is not controller.session:
                controller.set_session(session)
            roll = rng.choice([a for a in session.legal() if a["type"] == "roll"])
            sensor.send("ROLL")
            _wait_for(controller, "info")
            colour = (roll.get("face") or {}).get("colour")
            fields: list[object] = ["DIE", session.pending().die or "d6", roll["value"], 100]
            if colour:
                fields.append(colour)
            started = time.perf_counter()
            sensor.send(*fields)
            _wait_for(controller, "step")
            latencies.append((applied[-1] - started) * 1000)
