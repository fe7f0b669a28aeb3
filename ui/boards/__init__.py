"""Board drawings: one module per game, each with ``draw(widget, view)``.

Adding a game's drawing is one new module named after the game id; games
without one get the generic text drawing from ``describe()``. A drawing that
also has ``place_at(widget, view, x, y)`` answers taps with the place under
the finger (a hex, slot, space, numbered card or traveller, as ``companion.places.place_of`` spells it),
and draws ``view.marked``, ``view.focus`` and ``view.asked``: the table then
lets players choose among hundreds of placements by pointing at the map, and
ask why nothing may go on a place.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any

from ui.boards import generic
from ui.reach import Nearby


@dataclass(frozen=True)
class BoardView:
    """What a drawing may use: the rules object (for its board data), the position document, describe() lines."""

    game: Any
    document: dict[str, Any]
    lines: list[str] = field(default_factory=list)
    marked: frozenset[Hashable] = frozenset()  # places where a legal action happens, outlined
    focus: Hashable | None = None  # the place whose actions are listed (a Nearby: several), outlined strongest
    asked: Hashable | None = None  # a place asked "why not here?" about, outlined red
    last: Hashable | None = None  # where the last step happened (the camel just placed), ringed white
    # Places the prompt or the newest refusal or ruling names ("... touches Black at (4,6)"), first named first:
    # a board whose places are named by coordinates (``places_named``) shows each one's name beside it.
    named: tuple[Hashable, ...] = ()


def focused(view: Any) -> frozenset[Hashable]:
    """The places drawn as the one listed: the focus, or each of the places a finger was as near (``Nearby``)."""
    focus = getattr(view, "focus", None)
    if isinstance(focus, Nearby):
        return focus.places
    return frozenset() if focus is None else frozenset({focus})


def provisional_scores(view: BoardView) -> dict[str, Any]:
    """The game's own ``score`` for this position (never re-derived in a drawing); empty if it cannot be had."""
    try:
        game = view.game
        return dict(game.score(game.from_document(view.document)))
    except Exception:  # a score strip must never take the board down with it
        return {}


Drawer = Callable[[Any, BoardView], None]
Placer = Callable[[Any, BoardView, float, float], Hashable | None]
Namer = Callable[[str], list[Hashable]]


def drawer_for(game_id: str) -> Drawer:
    try:
        module = importlib.import_module(f"ui.boards.{game_id}")
    except ModuleNotFoundError as error:
        if error.name != f"ui.boards.{game_id}":
            raise
        return generic.draw
    return module.draw


def has_drawing(game_id: str) -> bool:
    return drawer_for(game_id) is not generic.draw


def placer_for(game_id: str) -> Placer | None:
    """The drawing's tap-to-place function, or None for a board that only shows."""
    module = importlib.import_module(drawer_for(game_id).__module__)
    return getattr(module, "place_at", None)


def namer_for(game_id: str) -> Namer | None:
    """The drawing's ``places_named(text)``: the places a text names, for a board that shows them by their names
    (Through the Desert's hexes "(4,6)"); None for a board whose places a text names as the board shows them."""
    module = importlib.import_module(drawer_for(game_id).__module__)
    return getattr(module, "places_named", None)
