"""How a turn goes on: from the queued effects to the move or the end of the turn, the draw after a
card is used, and the win (RU-16).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.game import Event
from companion.games.temple.move_reach import boxed_in, pawn_moves
from companion.games.temple.state import TempleState
from companion.games.temple.tasks import run_tasks

if TYPE_CHECKING:
    from companion.games.temple.rules import TempleGame


def draw_one(state: TempleState, seat: int, events: list[Event], just_played: bool = False) -> TempleState:
    """The player who used a card draws one; an empty pile is refilled from the discard first."""
    pile, discard = state.pile, state.discard
    if pile == 0 and discard:
        events.append(
            Event("info", "The draw pile is empty: shuffle the discard pile to make a new one.", ("RU-26",))
        )
        pile, discard = len(discard), ()
    hands = list(state.hands)
    if just_played:
        hands[seat] -= 1
    if pile:
        pile -= 1
        hands[seat] += 1
    else:
        events.append(Event("warning", "No card is left to draw; play goes on with a short hand.", ("RU-Q25",)))
    return state.but(pile=pile, discard=discard, hands=tuple(hands))


def to_move(game: TempleGame, state: TempleState, events: list[Event]) -> TempleState:
    """On to the move; a roll of 0, or one no pawn can take, ends the turn at once (RU-Q26) with why."""
    state = state.but(phase="move", tasks=(), after="")
    value = state.roll[0]
    if value == 0:
        events.append(Event("info", "A roll of 0 moves no pawn.", ("RU-10",), (state.current,)))
        return end_turn(game, state, events)
    if not pawn_moves(game, state):
        events.append(boxed_in(game, state))
        return end_turn(game, state, events)
    return state


def resolve(game: TempleGame, state: TempleState, events: list[Event]) -> TempleState:
    """Carry out queued effects until one needs a choice, then go on with the turn."""
    state = run_tasks(game, state, events)
    return state if state.tasks else after_tasks(game, state, events)


def after_tasks(game: TempleGame, state: TempleState, events: list[Event]) -> TempleState:
    """Once the queued effects are done: the move after a card change, the end of the turn after a move."""
    if state.after == "move":
        return to_move(game, state, events)
    return end_turn(game, state, events)


def end_turn(game: TempleGame, state: TempleState, events: list[Event]) -> TempleState:
    """The win when both the player's pawns are in the chamber (RU-16), else the next player clockwise."""
    player = state.current
    if all(n == game.board.chamber for n in state.pawns[state.turn]):
        events.append(
            Event(
                "win",
                f"Both {player} pawns are in the Treasure Chamber: {player.capitalize()} wins!",
                ("RU-16", "RU-1"),
                (player,),
            )
        )
        return state.but(phase="over", winner=player, tasks=(), after="")
    turn = (state.turn + 1) % len(state.players)
    return state.but(phase="roll", turn=turn, roll=None, tasks=(), after="")
