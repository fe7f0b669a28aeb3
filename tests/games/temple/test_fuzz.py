"""Junk actions are refused with a typed error, never a crash, in every phase."""

from __future__ import annotations

import contextlib
import random

from companion.errors import CompanionError
from companion.game import normalize_action
from companion.registry import create

JUNK = [
    None,
    1,
    -3,
    2.5,
    True,
    "",
    "x",
    "red1",
    "chamber",
    "step9",
    [],
    [1],
    [1, 2, 3],
    [99, 99],
    ["a", "b"],
    {},
    {"colour": 3},
    [[1, 1]],
    [[3, 1], "z"],
]
KEYS = ["value", "face", "card", "deck", "slot", "pawn", "to", "route", "first", "player"]
TYPES = ["draw", "roll", "ahkinchil", "change", "skip_change", "move", "stair", "order", "dance"]


def test_junk_actions_raise_typed_errors_only() -> None:
    game = create("temple")
    rng = random.Random(7)
    state = game.setup(["red", "blue", "green"], game.resolve_options({}, "alternatives"))
    seen_phases = set()
    for _ in range(400):
        if game.pending(state).is_over:
            break
        seen_phases.add(state.phase)
        for _ in range(8):
            action = {"type": rng.choice(TYPES)}
            for key in rng.sample(KEYS, rng.randint(0, 4)):
                action[key] = rng.choice(JUNK)
            with contextlib.suppress(CompanionError):
                game.apply(state, normalize_action(action))
            with contextlib.suppress(CompanionError):
                game.check(state, action)
        state, _ = game.apply(state, normalize_action(game.sim_choose(state, game.legal_actions(state), rng)))
    assert {"assembly", "first_roll", "roll", "move"} <= seen_phases
