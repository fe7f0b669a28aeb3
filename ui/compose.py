"""The action a player insists on, put together by taps: its kind, then a value for each of its fields.

A café's touchscreen has no keyboard, and typing JSON was the only way to
check an action nobody is offered, which is what a dispute is about: "my
camel may go there", "I rolled a 7". The kinds and their fields are the
game's own (``Game.action_shapes``); each field's values are those the game
and the board already name: the place last tapped on the table's board, the
values offered now or taken before, the game's own short lists (``Game.field_values``: Through the
Desert's camel colours, the race's cards), the dice's faces, the players, and the
numbers 0 to 12 for a number, or those the board has where it has fewer (a
place not among them is tapped on the board). Nothing here judges: the action goes to the same check as a typed
one.
"""

from __future__ import annotations

import json
from collections.abc import Hashable, Iterable
from typing import Any

from companion.field_words import PLAYER_KEYS, value_said
from companion.game import kind_words
from companion.places import PLACE_FIELDS, place_to_json

LEAVE_OUT = "(leave out)"
NUMBERS = range(13)
MOST = 80  # a die "showing 7" or a roll of 9 is what a dispute is about: past the faces, not far past


def kinds(game: Any) -> list[str]:
    return list(getattr(game, "action_shapes", {}))


def fields(game: Any, kind: str) -> list[str]:
    """The keys a kind takes, in a steady order, and ``player`` last: naming who acts is how out of turn is put."""
    ways = getattr(game, "action_shapes", {}).get(kind, ())
    return [*sorted(frozenset().union(*ways)), "player"] if ways else ["player"]


def _players(session: Any) -> list[str]:
    start = getattr(session, "start", None) or {}
    named = list(start.get("players") or [])
    return named or list(getattr(session.game, "colours", ()))


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def values(session: Any, key: str, board_place: Hashable | None = None) -> list[Any]:
    """Every value ``key`` can be given here, each once: the place tapped on the board first, then the players, the
    dice's faces, what is offered now and what was taken lately; numbers in order, those the board has where it has
    fewer than 0 to 12 (``Game.field_numbers``: the temple's slots 1 to 12, Targi's display rows 1 to 3). At most
    ``MOST`` of them: a long game's log named hundreds of hexes, and a place is better tapped on the board."""
    found: dict[str, Any] = {}

    def add(items: Iterable[Any]) -> None:
        for item in items:
            try:
                found.setdefault(json.dumps(item, sort_keys=True), item)
            except (TypeError, ValueError):
                continue

    if key in PLACE_FIELDS and board_place is not None:
        add([place_to_json(board_place)])
    if key in PLAYER_KEYS:
        add(_players(session))
    add(face[key] for die in getattr(session.game, "dice", ()) for face in die.faces if key in face)
    add(a[key] for a in [*session.legal(), *reversed(session.log)] if key in a)
    add(session.game.field_values(session.state, key))  # the game's fixed list, for a field nothing named yet
    shown = list(found.values())
    board = session.game.field_numbers(session.state, key)
    if board is not None or key == "value" or (shown and all(map(_whole, shown))):
        add(NUMBERS if board is None else board)  # the board's own where it has fewer: no slot 0 it lacks
        if all(map(_whole, found.values())):
            return sorted(found.values())[:MOST]
    return list(found.values())[:MOST]


def label(session: Any, key: str, value: Any) -> str:
    """A value as its button reads, in the game's own words (``field_words.value_said``, as a refusal of a field
    left out names the values it may hold): Through the Desert's hex "(5,1)", not "[5, 1]"."""
    return value_said(session.game, session.state, key, value, _players(session))


def kind_label(session: Any, kind: str) -> str:
    """An action's kind as words: "bring out" for "bring_out", the temple's "Ah Kinchil" (``Game.kind_names``), as a
    refusal names it."""
    return kind_words(kind, getattr(session.game, "kind_names", None))


def labels(session: Any, key: str, choices: Iterable[Any]) -> dict[str, Any]:
    """Each value by its label, the first of two alike kept: a row's list and what a tapped label stands for."""
    found: dict[str, Any] = {}
    for value in choices:
        found.setdefault(value if value is LEAVE_OUT else label(session, key, value), value)
    return found


def action_of(kind: str, chosen: dict[str, Any]) -> dict[str, Any]:
    """The action as the game reads it: fields left out are not sent."""
    return {"type": kind, **{k: v for k, v in chosen.items() if v is not LEAVE_OUT}}


def action_words(session: Any, action: dict[str, Any]) -> str:
    """An action in the game's words, for the dispute screen's field: the words the game offers it by when it is
    offered now, else its kind and each field's value as the lists name them ("roll: value 7, player Red"); the
    field showed its JSON, '{"type": "use", "card": 5}', to a table that had never seen JSON."""
    if action.get("text"):
        return str(action["text"])
    bare = {k: v for k, v in action.items() if k != "text"}
    for offered in session.legal():
        if {k: v for k, v in offered.items() if k != "text"} == bare and offered.get("text"):
            return str(offered["text"])
    parts = [f"{key} {label(session, key, value)}" for key, value in bare.items() if key != "type"]
    kind = kind_label(session, str(bare.get("type", "")))
    return f"{kind}: {', '.join(parts)}" if parts else kind
