"""Per-call latency of the rules and random-game throughput, for every game.

Latencies are measured on the engine calls a referee answer is made of, at
positions drawn from seeded random games, so the numbers are repeatable and
cover early, middle and late positions alike.
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

from companion.game import Game, normalize_action
from companion.simulate import play_random_game, random_players


def _summary(samples_s: list[float]) -> dict[str, float]:
    ordered = sorted(samples_s)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return {
        "median_ms": round(statistics.median(ordered) * 1000, 4),
        "p99_ms": round(p99 * 1000, 4),
        "max_ms": round(ordered[-1] * 1000, 4),
        "calls": len(ordered),
    }


def measure_calls(game: Game, games: int, seed: int) -> dict[str, dict[str, float]]:
    rng = random.Random(seed)
    timings: dict[str, list[float]] = {"legal": [], "act": [], "check": []}
    final_scores: list[float] = []
    clock = time.perf_counter
    for _ in range(games):
        players = random_players(game, rng)
        profile = rng.choice(sorted(game.profiles))
        state = game.setup(players, game.resolve_options({}, profile))
        for _step in range(game.sim_max_steps):
            if game.pending(state).is_over:
                break
            t0 = clock()
            legal = game.legal_actions(state)
            t1 = clock()
            action = normalize_action(game.sim_choose(state, legal, rng))
            probe = normalize_action(rng.choice(legal))
            t2 = clock()
            game.check(state, probe)
            t3 = clock()
            state, _ = game.apply(state, action)
            t4 = clock()
            timings["legal"].append(t1 - t0)
            timings["check"].append(t3 - t2)
            timings["act"].append(t4 - t3)
        t0 = clock()
        scored = game.score(state)
        if scored is not None:  # games that score: the full count on the final, fullest board
            final_scores.append(clock() - t0)
    summary = {name: _summary(samples) for name, samples in timings.items()}
    if final_scores:
        summary["final_score"] = _summary(final_scores)
    return summary


def games_per_second(game: Game, seconds: float, seed: int) -> float:
    rng = random.Random(seed)
    played = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or played == 0:
        play_random_game(game, rng, deep_every=10**9)
        played += 1
    return round(played / (time.perf_counter() - start), 2)


def bench_game(game: Game, games: int = 30, seed: int = 1, seconds: float = 1.0) -> dict[str, Any]:
    result: dict[str, Any] = dict(measure_calls(game, games, seed))
    result["games_per_s"] = games_per_second(game, seconds, seed)
    return result
