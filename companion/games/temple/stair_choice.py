"""The stairway pick: where a pawn on a secret stairway comes out when there are several others (RU-22)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.errors import InvalidAction
from companion.game import Action, Event, refuse
from companion.games.temple import document
from companion.games.temple.clauses import STAIR_ONTO_PAWN
from companion.games.temple.places import read_pawn, stair_way, stairway
from companion.games.temple.send_back import occupied_spaces, sends_back
from companion.games.temple.stairways import stair_destinations, teleport
from companion.games.temple.state import TempleState, pawn_label, pawn_name
from companion.games.temple.turns import resolve

if TYPE_CHECKING:
    from companion.games.temple.rules import TempleGame


def apply_stair(game: TempleGame, state: TempleState, action: Action, events: list[Event]) -> TempleState:
    task = state.tasks[0]
    colour, i = read_pawn(state, action.get("pawn"))
    if (colour, i) != (task.colour, task.pawns[0]):
        raise refuse(
            f"{pawn_label(task.colour, task.pawns[0])} is the pawn taking"
            f" {stairway(game, task.colour, task.node)} now.",
            "RU-22",
        )
    try:
        dest = document.parse_location(game.board, colour, action.get("to"))
    except ValueError as exc:
        raise InvalidAction(f'"to": {exc}') from None
    if dest not in stair_destinations(game, state, colour, task.node):
        if dest == task.node:
            raise refuse(
                f"{pawn_label(colour, i)} is on {stairway(game, colour, dest)}; it must go to another stairway.",
                "RU-22",
            )
        if game.layout(state).kind(dest) == "stair":
            raise refuse(
                f"The stairway at {game.where(colour, dest)} is more than half a lap away from"
                f" {pawn_label(colour, i)}, across its own wall.",
                "RU-Q21",
            )
        # The way out is named too: `why` on a cell answered only what is not there.
        dests = [game.where(colour, s) for s in stair_destinations(game, state, colour, task.node)]
        ways = f"{', '.join(dests[:-1])} or {dests[-1]}" if len(dests) > 1 else "".join(dests)
        out = f"; {pawn_label(colour, i)} comes out at {ways}" if ways else ""
        raise refuse(f"There is no secret stairway at {game.where(colour, dest)}{out}.", "RU-22")
    state = teleport(game, state, task, dest, events)
    return resolve(game, state.but(tasks=state.tasks[1:]), events)


def stair_actions(game: TempleGame, state: TempleState) -> list[Action]:
    """The stairways the pawn of the first task may come out at, each saying where it leads and who goes back."""
    task = state.tasks[0]
    i = task.pawns[0]
    occupied = occupied_spaces(game, state)
    progress = game.board.progress[task.colour]
    return [
        {
            "type": "stair",
            "pawn": pawn_name(task.colour, i),
            "to": list(game.board.xy(s)),
            "text": f"{pawn_label(task.colour, i)} {stair_way(game, task.colour, task.node, s)} to the"
            f" stairway at {game.where(task.colour, s)}{sends_back([occupied.get(s)], STAIR_ONTO_PAWN)}",
        }
        # Furthest along the pawn's lap first: in board order ([5,1], [7,2], [14,4], [1,6], ...) the
        # list jumped about the temple.
        for s in sorted(
            stair_destinations(game, state, task.colour, task.node), key=lambda s: -progress[s]
        )
    ]
