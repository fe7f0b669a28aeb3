"""Laying the path (RU-3, RU-4): one drawn card for each slot in turn, then the hands dealt."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.errors import InvalidAction, quoted
from companion.game import Action, Event, refuse
from companion.games.temple.state import TempleState

if TYPE_CHECKING:
    from companion.games.temple.rules import TempleGame


DECK_ID = "path"
HAND_SIZE = 3


def next_slot(state: TempleState) -> int:
    return state.slots.index(None) + 1


def read_draw(game: TempleGame, action: Action) -> str:
    """The card a draw names, or the refusal of a deck or card the temple does not have (RU-2). Read before
    asking whether a draw is due: a card no deck holds was answered "Not now" while the pawns moved."""
    if action.get("deck", DECK_ID) != DECK_ID:
        raise InvalidAction(f"the temple has one deck, {quoted(DECK_ID)}, not {quoted(action.get('deck'))}", "RU-2")
    card = action.get("card")
    if not isinstance(card, str):
        raise InvalidAction('a draw needs "card": a card id')  # the clause of the draw asked for (`Session._cite`)
    if card != game.board.ak_card and card not in game.board.cards:
        raise InvalidAction(f"no path card {quoted(card)} in the temple deck", "RU-2")
    return card


def apply_draw(game: TempleGame, state: TempleState, action: Action, events: list[Event]) -> TempleState:
    card = read_draw(game, action)
    slot = next_slot(state)
    if card == game.board.ak_card:
        events.append(
            Event("info", f"The Ah Kinchil card goes back into the deck; draw again for slot {slot}.", ("RU-3",))
        )
        return state
    if card in state.slots:
        raise refuse(f"{card} is already in slot {state.slots.index(card) + 1}.", "RU-3")
    slots = list(state.slots)
    slots[slot - 1] = card
    state = state.but(slots=tuple(slots), pile=state.pile - 1)
    events.append(Event("info", f"{card} goes into slot {slot}.", ("RU-3",)))
    if None in state.slots:
        return state
    n = len(state.players)
    events.append(Event("info", f"The path is laid. Deal {HAND_SIZE} cards face down to each player.", ("RU-4",)))
    return state.but(
        phase="first_roll",
        hands=(HAND_SIZE,) * n,
        pile=state.pile - HAND_SIZE * n,
        contenders=state.players,
        first_rolls=(),
    )
