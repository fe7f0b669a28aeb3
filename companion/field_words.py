"""An action's fields and values in the game's own words, for the refusal of a field left out, null or mistyped.

A field sent as null, left out or of the wrong kind was refused as JSON: "the oracle shows 1 to 6, not null",
"unknown camel colour null", '"hex" must be [q, r], two integers (axial coordinates)'. 25 of the five games' 43
action kinds answered so, over the protocol and on the dispute screen, where a referee builds an action by taps
and reads the answer. One refusal for all five games (``say_which``) names the action as the table says it,
what it needs said and what may be said now, in the words the game's buttons use: "roll: say which number the
oracle shows (1 to 6)", "camel: say which camel colour (pink, green or white)". The clause stays the game's
(``Session._cite``). The dispute screen's Build names each value the same way (``value_said``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from companion.errors import quoted
from companion.game import Game, State, json_kind, kind_words
from companion.phrases import number_runs, series
from companion.places import PLACE_FIELDS, WAY_FIELDS, place_of

# What a refusal asks to be said for each field ("say which traveller"), where a game says nothing closer
# (``Game.field_words``, by field or by "kind.field").
FIELD_WORDS = {
    "value": "what the die shows",
    "face": "which face the die shows",
    "traveller": "which traveller",
    "travellers": "the order of the travellers",
    "deck": "which deck",
    "card": "which card",
    "square": "which square",
    "opponent": "which opponent",
    "space": "which space",
    "with": "who the trade is with",
    "give": "what is given",
    "get": "what is received",
    "pay": "what is paid",
    "slot": "which slot",
    "goods": "which goods",
    "row": "which row",
    "from": "where from",
    "to": "where to",
    "pawn": "which pawn",
    "route": "which way the pawn goes",
    "colour": "which colour",
    "hex": "which hex",
    "first": "who goes first",
}
# The fields naming a player: who acts, Blackpool's Reset's "opponent", the desert race's trade partner "with".
PLAYER_KEYS = frozenset({"player", "opponent", "with"})
SHOWN_VALUES = 6  # values a refusal lists before "and N more": a hex list ran to a hundred


def value_said(game: Game, state: State, key: str, value: Any, players: Iterable[str] = ()) -> str:
    """A value as the game's buttons say it: a place as its texts name it (Through the Desert's hex "(5,1)", not
    "[5, 1]"), any other value as the game says it (``Game.value_words``: a temple face "red", not
    '{"colour": "red"}'), a deck as its texts name it ("Collection pile", ``Game.deck_names``), a player as its
    texts name them ("Red", ``Game.player_words``); words and numbers the game leaves alone bare; JSON only for
    what it never names."""
    if key in PLAYER_KEYS and isinstance(value, str) and value in {*players, *game.colours}:
        return str(game.player_words(value))
    words = game.deck_names.get(value) if key == "deck" and isinstance(value, str) else None
    if key in PLACE_FIELDS:
        place = place_of({key: value})
        words = game.place_words(state, place) if place is not None else None
    words = words or game.value_words(state, key, value)
    if words:
        return str(words)
    if isinstance(value, str) and value.strip():
        return value
    return json.dumps(value)  # an empty name typed shows as "", not as a blank button


def field_asked(game: Game, kind: str, key: str) -> str:
    """What a field of a kind of action says, as a refusal asks for it: "which number the oracle shows"."""
    own: Mapping[str, str] = game.field_words
    return own.get(f"{kind}.{key}") or own.get(key) or FIELD_WORDS.get(key) or f"the {key.replace('_', ' ')}"


def allowed_words(game: Game, state: State, key: str, values: Sequence[Any], players: Iterable[str] = ()) -> str:
    """The values a field may hold now, as a sentence lists them: "1 to 6", "Yellow 1 or Yellow 2", the first
    ``SHOWN_VALUES`` and a count of the rest; names before numbers ("X or 1 to 7"). A way (a temple move's route,
    cell by cell) is not listed: its end says it."""
    if key in WAY_FIELDS:
        return ""
    numbers = sorted({v for v in values if type(v) is int})
    said = list(dict.fromkeys(value_said(game, state, key, v, players) for v in values if type(v) is not int))
    if numbers:
        said.append(number_runs(numbers))
    if len(said) > SHOWN_VALUES:
        return f"{', '.join(said[:SHOWN_VALUES])} and {len(said) - SHOWN_VALUES} more"
    return series(said, "or") if said else ""


def say_which(game: Game, state: State, kind: str, keys: Sequence[str], offered: Sequence[Mapping[str, Any]],
              sent: Mapping[str, Any], players: Iterable[str] = (), either: bool = False) -> str:
    """The refusal of ``sent``'s field left out, null or of a kind none of the ``offered`` actions of its kind holds
    there, in the game's words: "bring out: say which traveller (Yellow 1 or Yellow 2)", and what was sent when it
    was a value of the wrong kind (", not 'x'"). ``keys``: the field, or the fields left out, each to be said
    ("draw: say which pile (draw pile) and which card (...)"), or with ``either`` one of them ("use: say which
    border card (2 or 9), or which centre card (centre 3-2)"). With nothing of the kind offered now, no list."""
    asked = []
    for key in keys:
        allowed = allowed_words(game, state, key, [a[key] for a in offered if key in a], players)
        asked.append(field_asked(game, kind, key) + (f" ({allowed})" if allowed else ""))
    text = f"{kind_words(kind, game.kind_names)}: say {(', or ' if either else ' and ').join(asked)}"
    if len(keys) == 1 and sent.get(keys[0]) is not None:
        text += f", not {quoted(sent[keys[0]])}"
    return text


def odd_field(game: Game, kind: str, sent: Mapping[str, Any], offered: Sequence[Mapping[str, Any]],
              kinds: Mapping[tuple[str, str], frozenset[str]]) -> tuple[list[str], bool]:
    """The first field of ``sent`` null or (while its kind is offered) of a JSON kind no offered action holds there,
    else every field left out where its kind needs it; with none of a kind's fields sent where it takes one of
    several (Targi's use: a border card or a centre card), each of them, and True: one is to be said. Empty if
    none is, or ``sent`` carries a key its kind never takes (that key's refusal, with its "is it 'value'?", says
    more). Every field left out is named: the game may do without one (the temple's draw pile), not the other."""
    ways = game.action_shapes.get(kind, ())
    takes = frozenset().union(*ways) if ways else frozenset()
    keys = [k for k in dict.fromkeys([*(k for a in offered for k in a), *sorted(takes)])
            if k not in ("type", "player", "text")]
    if not keys or set(sent) - {"type", "player"} - set(keys):
        return [], False
    said = set(sent) - {"type", "player"}
    held = {k for a in offered for k in a} if offered else takes  # a key of the kind none offered now has: its own
    for key in keys:  # refusal says more ("a 'target' action takes 'traveller' and 'square', or 'opponent'")
        if key in sent and key in held and (sent[key] is None or _null_inside(sent[key]) or
                            json_kind(sent[key]) not in kinds.get((kind, key), {json_kind(sent[key])})):
            return [key], False
    # Needed by every offered action of the kind, and by each way it is taken that holds what was sent: Blackpool's
    # target names a traveller and square, or an opponent; a Targi use a card, or a slot.
    left_out = [key for key in keys if key not in sent and all(key in a for a in offered)
                and all(key in way for way in ways if said <= way)]
    if left_out:
        return left_out, False
    if not said and ways and all(len(way) == 1 for way in ways):
        return [key for key in keys if any(key in way for way in ways) and any(key in a for a in offered)], True
    return [], False


def _null_inside(value: Any) -> bool:
    """Whether a list (a place, a way, an order) holds a null at any depth: '"hex" must be [q, r], two integers
    (axial coordinates)' for Through the Desert's ``[12, null]``, '"to": [0, null] is not a location ...' for
    the temple's, 'a central slot is [row, column] ...' for Targi's. A count inside an object is the game's to
    word (Targi's "pay: say how much salt is paid")."""
    return isinstance(value, list) and any(v is None or _null_inside(v) for v in value)
