"""What an action holds, read from its fields, and every way to make a number of goods.

A malformed field is bad input (``InvalidAction``), never a refusal: the table mistyped, the rules said nothing.
"""

from __future__ import annotations

from typing import Any

from companion.errors import InvalidAction, quoted
from companion.game import Event, kind_words
from companion.games.targi.cards import Bundle, bundle
from companion.games.targi.state import slot_index
from companion.phrases import series
from companion.schema import likely

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


# What each counted field's goods are, as its refusal says them: "how much salt is paid".
_DONE = {"pay": "paid", "give": "given", "get": "received", "take": "taken", "return": "returned"}


def as_bundle(a: Action, field: str, allowed: tuple[str, ...]) -> Bundle:
    """Read the goods an action counts in ``field`` ("pay": {"salt": 2}); a malformed one is an invalid action,
    said in words as any field's refusal is (``field_words.say_which``): "pay: say how much salt is paid (0 or
    more)", where ``{"pay": {"salt": null}}`` was '"pay".salt must be a whole number of at least 0' and a good
    misspelt '"pay" names 'Salt'; allowed: dates, salt, pepper, gold, vp'. None of the types counting goods has
    a name of its own (``KIND_NAMES``), so its id is its name."""
    value, kind = a.get(field), str(a.get("type"))
    done = _DONE.get(field) or _DONE.get(kind, "counted")
    names = [_good(k) for k in allowed]
    if not isinstance(value, dict):
        given = f", not {quoted(value)}" if value is not None else ""
        raise InvalidAction(f"{kind_words(kind)}: say how many {series(names, 'or')} are {done}{given}")
    for key, n in value.items():
        if key not in allowed:
            meant = likely(key, allowed) if isinstance(key, str) else None
            hint = f" (is it {quoted(meant)}?)" if meant else ""
            raise InvalidAction(f"{kind_words(kind)}: {quoted(key)} is not among what may be {done}{hint}; say how "
                                f"many {series(names, 'or')} are {done}")
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            much = "many" if key in ("dates", "vp") else "much"
            given = f", not {quoted(n)}" if n is not None else ""
            raise InvalidAction(f"{kind_words(kind)}: say how {much} {_good(key)} {'are' if much == 'many' else 'is'} "
                                f"{done} (0 or more){given}")
    return bundle(value)


def _good(key: str) -> str:
    """A good as the table says it: "VP" for victory points, the others by their names."""
    return "VP" if key == "vp" else key


def as_slot(value: Any) -> int:
    ok = isinstance(value, list | tuple) and len(value) == 2 and all(isinstance(v, int) and 1 <= v <= 3 for v in value)
    if not ok:
        raise InvalidAction('a central slot is [row, column] with both from 1 to 3, e.g. "slot": [2, 3]')
    return slot_index(value[0], value[1])


def slot_list(index: int) -> list[int]:
    return [index // 3 + 1, index % 3 + 1]
