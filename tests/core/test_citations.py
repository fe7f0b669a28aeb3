"""Every ruling, announcement and refusal cites a clause its game's rulebook holds.

The brief asks that each refusal about the rules carries the id of the clause
it comes from, and the rulebook screen turns that id back into words; an id it
does not hold, or none at all, leaves a player with a bare "no". Random
complete games are walked; at each position the offered actions are ruled on
(a legal ruling names the clauses its announcements rest on) and well-formed
actions that are wrong now are tried: actions offered elsewhere in the game, an
offered action with one value moved, and an offered action in another player's
name. Which clause is the *right* one was judged by hand (spot checks in the
rulebook and DECISIONS.md); this test keeps every cited id real.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from companion.errors import CompanionError, IllegalAction
from companion.game import Action, Game, normalize_action
from companion.registry import create, game_classes
from companion.simulate import random_players

GAMES = 4
TRIES = 4  # wrong actions tried at each position


def nudged(action: Action, rng: random.Random, players: list[str]) -> Action:
    """The offered action with one value moved a little: a neighbouring number, square, player or flag."""
    action = {k: v for k, v in action.items() if k != "text"}
    key = rng.choice(sorted(k for k in action if k != "type") or ["player"])
    value = action.get(key)
    if key == "player" or value is None:
        action[key] = rng.choice(players)
    elif isinstance(value, bool):
        action[key] = not value
    elif isinstance(value, int):
        action[key] = value + rng.choice((-2, -1, 1, 2))
    elif isinstance(value, list) and value and all(isinstance(x, int) for x in value):
        moved = list(value)
        moved[rng.randrange(len(moved))] += rng.choice((-1, 1))
        action[key] = moved
    elif isinstance(value, dict) and value:
        inner = dict(value)
        name = rng.choice(sorted(inner))
        if isinstance(inner[name], int) and not isinstance(inner[name], bool):
            inner[name] += rng.choice((-1, 1))
        action[key] = inner
    else:
        del action[key]
    return action


def assert_ruling_cites(game: Game, state: Any, action: Action, legal: bool) -> None:
    ruling = game.check(state, action)
    assert ruling.legal is legal, (action, ruling)
    assert ruling.rules, f"{game.id}: the ruling on {action} cites no clause: {ruling.text!r}"
    unknown = [r for r in ruling.rules if r not in game.rulebook]
    assert not unknown, f"{game.id}: the ruling on {action} cites {unknown}, not in the rulebook"
    assert "Allowed. Allowed." not in ruling.text, ruling.text


def try_wrong(game: Game, state: Any, action: Action, cited: Counter[str]) -> None:
    """Apply an action that may be wrong now: a refusal about the rules must cite a real clause."""
    try:
        game.apply(state, normalize_action(action))
    except IllegalAction as refusal:
        assert refusal.rule, f"{game.id}: {action} refused without a clause: {refusal.message!r}"
        assert refusal.rule in game.rulebook, f"{game.id}: {action} refused citing unknown {refusal.rule!r}"
        assert refusal.message and refusal.rule not in ("", None)
        ruling = game.check(state, action)
        assert not ruling.legal and ruling.rules == (refusal.rule,), (action, ruling, refusal.message)
        cited[refusal.rule] += 1
    except CompanionError as refusal:  # malformed for this game: a clause is optional, but must be real
        assert refusal.rule is None or refusal.rule in game.rulebook, (action, refusal.to_dict())


@pytest.mark.parametrize("game_id", sorted(game_classes()))
def test_every_ruling_and_refusal_cites_a_clause_of_the_rulebook(game_id: str) -> None:
    game = create(game_id)
    rng = random.Random(20260512)
    cited: Counter[str] = Counter()
    seen: list[Action] = []
    for _ in range(GAMES):
        players = random_players(game, rng)
        state = game.setup(players, game.resolve_options({}, rng.choice(sorted(game.profiles))))
        for _step in range(game.sim_max_steps):
            if game.pending(state).is_over:
                break
            legal = game.legal_actions(state)
            before = game.to_document(state)
            for offered in rng.sample(legal, min(3, len(legal))):
                assert_ruling_cites(game, state, offered, legal=True)
            for _try in range(TRIES):
                try_wrong(game, state, nudged(rng.choice(legal), rng, players), cited)
                if seen:
                    try_wrong(game, state, rng.choice(seen), cited)
            assert game.to_document(state) == before, "a refused or ruled-on action changed the position"
            seen = [*seen[-300:], *rng.sample(legal, min(2, len(legal)))]
            state, _ = game.apply(state, normalize_action(game.sim_choose(state, legal, rng)))
        assert game.pending(state).is_over
        for action in seen[-20:]:  # after the end every action is refused, with the clause that ended it
            try_wrong(game, state, action, cited)
    # The walk must really reach refusals of many kinds, or it proves nothing.
    assert sum(cited.values()) >= 300 and len(cited) >= 10, cited


def test_a_ruling_on_an_action_that_announces_nothing_says_allowed_once() -> None:
    """The verdict once read "Allowed. Allowed." when the action announced nothing (the desert's Sneakers question)."""
    from tests.core.race_game import Race

    class Quiet(Race):
        def apply(self, state: Any, action: Action) -> tuple[Any, list]:
            return super().apply(state, action)[0], []

    game = Quiet()
    state = game.setup(["red", "blue"], game.resolve_options())
    assert game.check(state, {"type": "roll", "value": 3}).text == "Allowed."
