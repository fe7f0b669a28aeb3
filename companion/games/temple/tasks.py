"""The queue of effects a card change or a move leaves (state.tasks): stairway trips and send-backs.

Run until one needs a player's choice (a stairway pick, a pair order), so that choices come in RU-Q14's
order: the colours one by one from the player whose turn it is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.game import Event
from companion.games.temple.clauses import CHANGE_OFF_PATH
from companion.games.temple.places import stairway
from companion.games.temple.send_back import order_matters, send_back
from companion.games.temple.stairways import stair_destinations, stairs_too_far, teleport
from companion.games.temple.state import Task, TempleState, pawn_label

if TYPE_CHECKING:
    from companion.games.temple.rules import TempleGame


def run_tasks(game: TempleGame, state: TempleState, events: list[Event]) -> TempleState:
    """Carry out queued effects until one needs a choice (phase resolve, tasks left) or none is left."""
    while state.tasks:
        task = state.tasks[0]
        if task.kind == "back":
            return state.but(phase="resolve")
        if task.kind == "off":
            state = run_off(game, state, task, events)
            if state.tasks and state.tasks[0].kind == "back":
                return state.but(phase="resolve")
            continue
        i = task.pawns[0]
        if state.pawn_at(task.colour, i) != task.node:
            state = state.but(tasks=state.tasks[1:])
            continue
        dests = stair_destinations(game, state, task.colour, task.node)
        if len(dests) > 1:
            return state.but(phase="resolve")
        if not dests:
            far = stairs_too_far(game, state, task.node)
            why = (
                "every other stairway is more than half a lap away along its lap, across its wall"
                if far
                else "no other stairway is on the board"
            )
            where = f"{pawn_label(task.colour, i)} on {stairway(game, task.colour, task.node)}"
            # Right after the card change's "The new card puts Red 1 on the secret stairway at [13,7] (slot 5):
            # ...", naming the pawn and the stairway again said eleven words twice in a row.
            just_said = bool(events) and events[-1].text.startswith(f"The new card puts {where}:")
            events.append(
                Event(
                    "info",
                    f"It stays there: {why}." if just_said else f"{pawn_label(task.colour, i)} is on "
                    f"{stairway(game, task.colour, task.node)}, but {why}: it stays.",
                    ("RU-24", "RU-Q21") if far else ("RU-24",),
                    (task.colour,),
                )
            )
        else:
            state = teleport(game, state, task, dests[0], events)
        state = state.but(tasks=state.tasks[1:])
    return state


def run_off(game: TempleGame, state: TempleState, task: Task, events: list[Event]) -> TempleState:
    """A colour's send-back that waited behind an earlier colour's choice, carried out now (RU-Q14).

    Its pair choice, if any, is judged only now: the send-backs before it may have changed which markers
    are taken. Returns the state with the task done, or turned into the owner's choice at the head of tasks.
    """
    layout = game.layout(state)
    board = game.board
    colour = task.colour
    off = [i for i in task.pawns if board.is_cell(n := state.pawn_at(colour, i)) and not layout.walkable[n]]
    rest = state.tasks[1:]
    if len(off) == 2 and state.option["pair_order"] == "ownerChooses" and order_matters(game, state, colour):
        return state.but(tasks=(Task("back", colour, (0, 1), -1, colour), *rest))
    state = state.but(tasks=rest)
    if off:  # announced with the change (``card_change.waits_behind``); each pawn's send-back cites RU-Q14 as well
        state = send_back(game, state, [(colour, i) for i in off], events, (*CHANGE_OFF_PATH, "RU-Q14"))
    return state
