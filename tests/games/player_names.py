"""Drive a seeded random game through a Session and gather every text the table would read.

Used by the games' name tests: a player id such as ``white`` must never appear as a lower-case word
in a refusal, an announcement or a prompt, because the table reads those texts aloud and every
game writes players as names ("White"). Hand-picked refusals cover only the sentences someone
thought of; a long random game with random illegal probes reaches the rest.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field
from typing import Any

from companion.errors import InvalidAction
from companion.session import Session


@dataclass
class Texts:
    """The texts seen, by where they come from, each once."""

    refusals: set[str] = field(default_factory=set)
    events: set[str] = field(default_factory=set)
    prompts: set[str] = field(default_factory=set)

    def lower_case_names(self, players: list[str]) -> dict[str, list[str]]:
        """Texts per source in which a player id stands as a lower-case word."""
        word = re.compile(r"\b(" + "|".join(map(re.escape, players)) + r")\b")
        found = {
            "refusals": sorted(t for t in self.refusals if word.search(t)),
            "events": sorted(t for t in self.events if word.search(t)),
            "prompts": sorted(t for t in self.prompts if word.search(t)),
        }
        return {k: v for k, v in found.items() if v}


_ENCODE = json.JSONEncoder(sort_keys=True).encode  # json.dumps(..., sort_keys=True) made a new encoder each call


def _key(action: dict[str, Any]) -> str:
    return _ENCODE({k: v for k, v in action.items() if k != "text"})


def _perturb(action: dict[str, Any], rng: random.Random, players: list[str]) -> dict[str, Any]:
    """An action like one offered somewhere, with a field or the player changed at random."""
    out = {k: v for k, v in action.items() if k != "text"}
    roll = rng.random()
    if roll < 0.3:
        out["player"] = rng.choice(players)
        return out
    for key, value in list(out.items()):
        if key == "type" or rng.random() < 0.5:
            continue
        if isinstance(value, bool):
            continue
        if isinstance(value, int):
            out[key] = rng.randint(0, 20)
        elif isinstance(value, dict) and all(isinstance(n, int) for n in value.values()):
            out[key] = {k: rng.randint(0, 5) for k in value}
        elif isinstance(value, list) and value and all(isinstance(n, int) for n in value):
            out[key] = [rng.randint(1, 3) for _ in value]
        elif isinstance(value, str) and value in players:
            out[key] = rng.choice(players)
    return out


def gather(
    session: Session, seed: int, probes: int = 6, max_steps: int = 4000, restart: Any = None
) -> Texts:
    """Play random legal actions and, before each, probe random illegal ones; return what was said.

    The illegal probes are actions offered at some earlier point of the game (so well formed, but
    mostly out of place now), sometimes with a field or the acting player changed. ``restart``
    makes a new Session when a game ends early, so ``max_steps`` steps are always played.
    """
    rng = random.Random(seed)
    players = list(session.start["players"])
    texts = Texts()
    pool: dict[str, dict[str, Any]] = {}
    seen: list[dict[str, Any]] = []  # the pool's actions in the order first offered, grown as the pool grows
    for _ in range(max_steps):
        pending = session.pending()
        texts.prompts.add(pending.text)
        legal = session.legal()
        if pending.is_over or not legal:
            if restart is None:
                break
            session = restart()
            continue
        offered = {_key(action): action for action in legal}  # each key made once: most of the gathering's time
        for key, action in offered.items():
            if key not in pool:
                pool[key] = action
                seen.append(action)
        for _ in range(probes):
            probe = _perturb(rng.choice(seen), rng, players)
            if _key(probe) in offered:
                continue
            try:
                ruling = session.check(probe)
            except InvalidAction:
                continue
            if not ruling.legal:
                texts.refusals.add(ruling.text)
        step = session.act({k: v for k, v in rng.choice(legal).items() if k != "text"})
        texts.events.update(e.text for e in step.events)
    return texts
