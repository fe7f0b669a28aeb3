"""Random complete games through the same code path the table uses.

The driver is the only place that invents chance: it answers the engine's
roll and draw requests with random values drawn from ``legal``, exactly as a
table would enter them. Every step is checked against the contract, so a
thousand random games find rule bugs no hand-written test does.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.errors import CompanionError
from companion.game import Game, normalize_action


class SimulationError(AssertionError):
    """A contract or rule invariant broke during random play."""


@dataclass
class GameRun:
    players: list[str]
    profile: str
    steps: int = 0
    result: dict[str, Any] | None = None
    log: list[dict[str, Any]] = field(default_factory=list)


def outcome(result: dict[str, Any] | None) -> str:
    """How a finished game ended, in words for the simulate report.

    Printed as ``str(result.get("winner"))`` a desert race stopped at its round
    limit counted under "None", and a tie under a Python list.
    """
    result = result or {}
    winner = result.get("winner")
    if isinstance(winner, str):
        return winner
    winners = [str(w) for w in result.get("winners") or []]
    if len(winners) > 1:
        return f"tie: {', '.join(winners[:-1])} and {winners[-1]}"
    if winners:
        return winners[0]
    if result.get("draw"):
        return "draw"
    reason = result.get("reason")
    return f"no winner ({reason})" if reason else "no winner"


def random_players(game: Game, rng: random.Random) -> list[str]:
    count = rng.randint(game.min_players, game.max_players)
    if game.colours:
        return rng.sample(list(game.colours), count)
    return [f"p{i + 1}" for i in range(count)]


def _fail(run: GameRun, message: str) -> SimulationError:
    tail = json.dumps(run.log[-5:])
    return SimulationError(
        f"{message} (players {run.players}, profile {run.profile}, step {run.steps}; last actions {tail})"
    )


def check_step(
    game: Game, before: Any, action: dict[str, Any], after: Any, events: list, run: GameRun, deep: bool
) -> None:
    for event in events:
        missing = [r for r in event.rules if r not in game.rulebook]
        if missing:
            raise _fail(run, f"event {event.text!r} cites unknown clauses {missing}")
        if not event.rules:
            raise _fail(run, f"event {event.text!r} cites no clause")
    problems = game.invariants(after)
    if problems:
        raise _fail(run, f"invariants broken after {action}: {problems}")
    if deep:
        document = game.to_document(after)
        json.dumps(document)
        if game.from_document(json.loads(json.dumps(document))) != after:
            raise _fail(run, "the position document does not round-trip")
        ruling = game.check(before, action)
        if not ruling.legal:
            raise _fail(run, f"check refused the legal action {action}: {ruling.text}")


def play_random_game(
    game: Game,
    rng: random.Random,
    players: Sequence[str] | None = None,
    profile: str | None = None,
    deep_every: int = 7,
) -> GameRun:
    """Play one game to its end; raise ``SimulationError`` on any broken contract."""
    profile = profile or rng.choice(sorted(game.profiles))
    run = GameRun(list(players) if players else random_players(game, rng), profile)
    options = game.resolve_options({}, profile)
    state = game.setup(run.players, options)
    for run.steps in range(game.sim_max_steps):
        pending = game.pending(state)
        if pending.is_over:
            run.result = dict(pending.result or {})
            return run
        legal = game.legal_actions(state)
        if not legal:
            raise _fail(run, f"pending {pending.to_dict()} offers no legal action")
        for offered in legal:
            if not isinstance(offered.get("text"), str) or not offered["text"]:
                raise _fail(run, f"legal action without text: {offered}")
        action = normalize_action(game.sim_choose(state, legal, rng))
        run.log.append(action)
        before_doc = game.to_document(state) if run.steps % deep_every == 0 else None
        try:
            after, events = game.apply(state, action)
        except CompanionError as exc:
            raise _fail(run, f"a legal action was refused: {action}: {exc.message}") from exc
        if before_doc is not None and game.to_document(state) != before_doc:
            raise _fail(run, f"apply changed the state it was given ({action})")
        check_step(game, state, action, after, events, run, deep=before_doc is not None)
        state = after
    raise _fail(run, f"the game did not end within {game.sim_max_steps} actions")


def simulate(game: Game, games: int, seed: int, profile: str | None = None) -> list[GameRun]:
    rng = random.Random(seed)
    return [play_random_game(game, rng, profile=profile) for _ in range(games)]
