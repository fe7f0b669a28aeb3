"""What an action holds, read from its fields, and every way to make a number of goods.

A malformed field is bad input (``InvalidAction``), never a refusal: the table mistyped, the rules said nothing.
"""

from __future__ import annotations

from typing import Any

from companion.errors import InvalidAction, quoted
from companion.game import Event
from companion.games.targi.cards import Bundle, bundle
from companion.games.targi.state import slot_index

Events = list[Event]
Action = dict[str, Any]


def goods_combos(n: int, have: tuple[int, int, int] | None = None) -> list[Bundle]:
    """Every distinct way to make n goods (within ``have`` when given)."""
    out = []
    for d in range(n + 1):
        for s in range(n + 1 - d):
            p = n - d - s
            if have is None or (d <= have[0] and s <= have[1] and p <= have[2]):
                out.append(bundle({"dates": d, "salt": s, "pepper": p}))
    return out


def as_bundle(value: Any, allowed: tuple[str, ...], field: str) -> Bundle:
    """Parse a resource object from an action; a malformed one is an invalid action."""
    if not isinstance(value, dict):
        raise InvalidAction(f'"{field}" must be an object of resource counts, e.g. {{"salt": 2}}')
    for key, n in value.items():
        if key not in allowed:
            raise InvalidAction(f'"{field}" names {quoted(key)}; allowed: {", ".join(allowed)}')
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise InvalidAction(f'"{field}".{key} must be a whole number of at least 0')
    return bundle(value)


def as_slot(value: Any) -> int:
    ok = isinstance(value, list | tuple) and len(value) == 2 and all(isinstance(v, int) and 1 <= v <= 3 for v in value)
    if not ok:
        raise InvalidAction('a central slot is [row, column] with both from 1 to 3, e.g. "slot": [2, 3]')
    return slot_index(value[0], value[1])


def slot_list(index: int) -> list[int]:
    return [index // 3 + 1, index % 3 + 1]
