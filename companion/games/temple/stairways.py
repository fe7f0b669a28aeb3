"""Secret stairways: where one leads, what a choice ending on one says, and the trip itself (RU-22 to RU-24)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.game import Event
from companion.games.temple.clauses import STAIR_ONTO_PAWN
from companion.games.temple.places import stair_way
from companion.games.temple.send_back import occupied_spaces, send_back_occupant, sends_back
from companion.games.temple.state import Task, TempleState, pawn_label

if TYPE_CHECKING:
    from companion.games.temple.rules import TempleGame


def stair_leads(game: TempleGame, state: TempleState, colour: str, node: int, mover: tuple[str, int]) -> str:
    """What a move ending on the stairway at ``node`` adds to its text: where the stairway leads.

    One other stairway: the trip is made at once, so the text names the destination and the
    pawn standing there, who goes back (not ``mover``, which has left its space). Several: how
    many there are to pick from. None: the pawn stays (RU-24).
    """
    dests = stair_destinations(game, state, colour, node)
    if not dests:
        if stairs_too_far(game, state, node):
            return ", on a secret stairway whose others are all more than half a lap away: it stays [RU-24, RU-Q21]"
        return ", on a secret stairway with no other to reach: it stays [RU-24]"
    if len(dests) > 1:
        return f", then up the secret stairway there to one of {len(dests)} others [RU-22]"
    occupant = occupied_spaces(game, state).get(dests[0])
    return (
        f", then up the secret stairway there {stair_way(game, colour, node, dests[0])} to"
        f" {game.where(colour, dests[0])} [RU-22, RU-Q21]"
        f"{sends_back([None if occupant == mover else occupant], STAIR_ONTO_PAWN)}"
    )


def stair_destinations(game: TempleGame, state: TempleState, colour: str, node: int) -> list[int]:
    layout = game.layout(state)
    out = [s for s in layout.stairs if s != node]
    if state.option["stairs_respect_walls"]:
        prog = game.board.progress[colour]
        half = game.board.lap_length // 2
        out = [s for s in out if abs(prog[s] - prog[node]) <= half]
    return out


def stairs_too_far(game: TempleGame, state: TempleState, node: int) -> bool:
    """Whether other stairways lie on the board but ``stairs_respect_walls`` puts them all out of reach.

    Audit: the pawn was said to have "no other stairway there to reach" [RU-24], the lone-stairway
    clause, with another stairway in plain sight on the board; what kept it there is the RU-Q21 option.
    """
    return any(s != node for s in game.layout(state).stairs)


def teleport(game: TempleGame, state: TempleState, task: Task, dest: int, events: list[Event]) -> TempleState:
    colour, i = task.colour, task.pawns[0]
    label = pawn_label(colour, i)
    events.append(
        Event(
            "move",
            f"{label} takes the secret stairway from {game.where(colour, task.node)} "
            f"to {game.where(colour, dest)}.",
            ("RU-22", "RU-Q21"),
            (colour,),
        )
    )
    occupant = occupied_spaces(game, state).get(dest)
    state = state.with_pawn(colour, i, dest)
    if occupant is not None:
        said = f"{pawn_label(*occupant)} was on the stairway at {game.where(occupant[0], dest)}."
        state = send_back_occupant(game, state, occupant, events, said, STAIR_ONTO_PAWN, ("RU-23",))
    return state
