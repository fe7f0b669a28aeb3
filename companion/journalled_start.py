"""A loaded start read back from a journal or a game record, past the checks added since it was journalled.

The position checks (``Game.from_document``) are for what a referee types now. A game an older companion
journalled on a position it accepted, and that a check added since refuses (Targi's facing rule, Blackpool's
fourth traveller, Through the Desert's missing turn), could no longer be resumed, replayed or exported: its
start is read anew at each of those. Read back here, the loader notes its problems instead of refusing them and
builds the position as far as it reads; what it could not read as journalled is named to the table.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from contextlib import suppress
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any

from companion.errors import CompanionError, InvalidPosition
from companion.game import normalize_action

if TYPE_CHECKING:
    from companion.game import Game, State

_NOTED: ContextVar[list[str] | None] = ContextVar("journalled_start", default=None)


def refuse_position(problems: list[str], rule: str | None = None) -> None:
    """The loader's refusal of a position with ``problems``: raised, or, while a journalled start is read back
    (``read_journalled``), noted so the loader goes on to build the position. A loader calls it where a position
    could still be built; where none can (no players), it raises as ever."""
    noted = _NOTED.get()
    if noted is None:
        raise InvalidPosition(problems, rule)
    noted.extend(problems)


def read_journalled(game: Game, document: Mapping[str, Any]) -> State | None:
    """The position ``document`` holds, read past the loader's checks (their problems are the refusal the caller
    caught); None when no position can be built from it, or one built cannot be asked what comes next, what may
    be done, or shown: a field the loader could not read leaves some positions it builds past the refusal unfit
    to play (a temple option the loader dropped), and such a start stays refused rather than crash the start."""
    noted: list[str] = []
    token = _NOTED.set(noted)
    try:
        state = game.from_document(document)
        game.pending(state)
        game.describe(state)
        game.to_document(state)
        for action in game.legal_actions(state):  # each step offered on it is taken, or refused in words
            with suppress(CompanionError):
                game.apply(state, normalize_action(action, game.turn_rule))
    except Exception:  # a start too broken to build or play stays refused, in the loader's own words
        return None
    finally:
        _NOTED.reset(token)
    return state


def unread_fields(game: Game, document: Mapping[str, Any], state: State) -> list[str]:
    """The journalled document's fields the position read back does not hold as journalled: where the loader put
    its own value for one it could not read (a turn naming nobody playing), or a field it no longer knows."""
    now = json.loads(json.dumps(game.to_document(state)))
    return [key for key, value in document.items() if key != "profile" and (key not in now or now[key] != value)]


def journalled_note(game: Game, document: Mapping[str, Any], state: State, refusal: InvalidPosition) -> str:
    """What the table is told of a game whose start was read back past the loader's checks."""
    note = (f"The game began on a position this version of the companion refuses when it is loaded now"
            f" ({refusal.message}); it is read as it was journalled.")  # fmt: skip
    unread = unread_fields(game, document, state)
    if unread:
        it = "it" if len(unread) == 1 else "them"
        note += (f" Not read as journalled: {', '.join(unread)}, taken as this version reads {it}; check {it}"
                 " against the table.")  # fmt: skip
    return note
