"""Positions from random games with one field changed: the loader refuses them, or play goes on without fault.

A saved position that no play reaches made the referee misbehave after loading (a Targi Noble decided twice
crashed it, a temple roll-off listing a player twice asked nobody, a Through the Desert setup with every
water hole entered offered nothing to enter). Seeded, so a failure here names a mutation to replay.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from companion.errors import CompanionError, InvalidPosition
from companion.game import Game, normalize_action
from companion.registry import create
from companion.session import Session
from companion.simulate import random_players

MUTATIONS = 150
PLAY_ON = 40


def _leaves(node: Any, path: tuple = ()) -> Iterator[tuple[tuple, Any]]:
    yield path, node
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _leaves(value, (*path, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _leaves(value, (*path, i))


def mutate(document: dict[str, Any], rng: random.Random) -> tuple[dict[str, Any], str] | None:
    """One field changed as a hand-edited or misread position might change it: a count off by one, a name
    swapped for another of the document's, a list entry dropped or doubled, a key left out."""
    document = copy.deepcopy(document)
    found = [(p, v) for p, v in _leaves(document) if p and p[0] not in ("game", "profile")]
    if rng.random() < 0.6:
        found = [(p, v) for p, v in found if len(p) <= 2] or found
    ints = sorted({v for _, v in found if isinstance(v, int) and not isinstance(v, bool)}) or [1]
    words = sorted({v for _, v in found if isinstance(v, str) and len(v) < 30}) or ["x"]
    path, value = rng.choice(found)
    if isinstance(value, bool):
        new: Any = not value
    elif isinstance(value, int):
        new = rng.choice([value + 1, value - 1, 0, value + rng.randint(2, 6), rng.choice(ints)])
    elif isinstance(value, str):
        new = rng.choice(words)
    elif value is None:
        new = rng.choice([rng.choice(words), 1, True])
    elif isinstance(value, list):
        new = list(value)
        how = rng.choice(["drop", "double", "empty"])
        if how == "drop" and new:
            new.pop(rng.randrange(len(new)))
        elif how == "double" and new:
            new.append(copy.deepcopy(rng.choice(new)))
        else:
            new = []
    elif isinstance(value, dict) and value:
        new = dict(value)
        new.pop(rng.choice(list(new)))
    else:
        return None
    if new == value:
        return None
    parent: Any = document
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = new
    return document, f"{'/'.join(map(str, path))}: {json.dumps(value)[:40]} -> {json.dumps(new)[:40]}"


def positions(game: Game, rng: random.Random, wanted: int) -> list[Any]:
    out: list[Any] = []
    while len(out) < wanted:
        state = game.setup(random_players(game, rng), game.resolve_options({}, rng.choice(sorted(game.profiles))))
        seen = [state]
        while not game.pending(state).is_over:
            state, _ = game.apply(state, normalize_action(game.sim_choose(state, game.legal_actions(state), rng)))
            seen.append(state)
        out.extend(rng.sample(seen, min(len(seen), 15)))
    return out


def play_on(game: Game, state: Any, rng: random.Random) -> str | None:
    """What went wrong playing on from a loaded position, or None."""
    problems = game.invariants(state)
    if problems:
        return f"loaded but breaks the game's invariants: {problems[0]}"
    game.describe(state)
    game.score(state)
    for _ in range(PLAY_ON):
        pending = game.pending(state)
        if pending.is_over:
            return None
        legal = game.legal_actions(state)
        if not legal:
            return f"stuck: {pending.text!r} offers nothing to do"
        action = normalize_action(game.sim_choose(state, legal, rng))
        try:
            state, events = game.apply(state, action)
        except CompanionError as exc:
            return f"the offered {action} was refused: {exc.message}"
        if any(not event.rules for event in events):
            return "an event cites no clause"
        problems = game.invariants(state)
        if problems:
            return f"play broke the game's invariants: {problems[0]}"
    return None


@pytest.mark.parametrize("game_id", ["blackpool", "desert", "targi", "temple", "ttd"])
def test_a_position_with_one_field_changed_is_refused_clearly_or_plays_on(game_id: str) -> None:
    game = create(game_id)
    rng = random.Random(60)
    pool = positions(game, rng, 60)
    faults = []
    refused = 0
    for _ in range(MUTATIONS):
        changed = mutate(game.to_document(rng.choice(pool)), rng)
        if changed is None:
            continue
        document, what = changed
        try:
            state = game.from_document(json.loads(json.dumps(document)))
        except InvalidPosition as exc:
            refused += 1
            assert exc.problems and all(isinstance(p, str) and p for p in exc.problems), what
            continue
        try:
            fault = play_on(game, state, random.Random(rng.random()))
        except Exception as exc:  # any crash after loading is the finding
            fault = f"crashed: {type(exc).__name__}: {exc}"
        if fault:
            faults.append(f"{what}: {fault}")
    assert not faults, faults
    assert refused  # the mutations do reach the loader's checks


@pytest.mark.parametrize(("game_id", "players"), [("blackpool", ["red", "blue"]), ("temple", ["red", "blue"]),
                                                  ("ttd", ["red", "black"])])
def test_a_turn_left_out_says_no_player_is_named(game_id: str, players: list[str]) -> None:
    """A position without its "turn" was refused as "turn: null is not playing", naming a player called null."""
    session = Session.new(game_id, players)
    document = session.game.to_document(session.state)
    del document["turn"]
    with pytest.raises(CompanionError) as refused:
        session.game.from_document(document)
    problems = getattr(refused.value, "problems", [str(refused.value)])
    assert f"turn: no player is named; players: {', '.join(players)}" in problems, problems
    assert not any("null" in p for p in problems), problems
