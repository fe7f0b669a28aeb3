"""Places and pawns as the table says them: cells, corners, steps, stairways, and a pawn named in an action.

Every ruling, choice and refusal names its place through these, so one place reads the same everywhere.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.errors import InvalidAction
from companion.games.temple import document
from companion.games.temple.state import TempleState

if TYPE_CHECKING:
    from companion.games.temple.rules import TempleGame


def place_name(game: TempleGame, colour: str, node: int) -> str:
    """``TempleGame.where`` worked out afresh; the game keeps the answers for cells, asked over and over."""
    board = game.board
    if node == board.colours[colour].entrance:
        return "its Entrance Circles"
    if node == board.chamber:
        return "the Treasure Chamber"
    step = board.step_colour(node)
    if step:
        return f"{step[0]} step {step[1]}"
    x, y = board.xy(node)
    slot = board.slot_of.get(node)
    if slot is None:
        return f"[{x},{y}] (corner)"
    # The slot, not the cell's row and column on its card as well: "(slot 2)" was a programmer's shorthand
    # to a first-time table (counted from 0, and the same cell the margins' "[8,0]" already names).
    return f"[{x},{y}] (slot {board.slot_numbers[slot]})"


def cell_name(game: TempleGame, colour: str, node: int) -> str:
    """A place said shortest: a cell by its coordinates alone ("[3,1]", not "[3,1] (slot 1)")."""
    return game.where(colour, node).split(" (", 1)[0]


def stairway(game: TempleGame, colour: str, node: int) -> str:
    """A secret stairway as a player finds it on the table: "the secret stairway at [7,1] (slot 2)".

    Audit: "Red 1 takes a secret stairway", "pick the stairway Red 1 takes" and "was on that
    stairway" left a table with several stairways on the board asking which one.
    """
    return f"the secret stairway at {game.where(colour, node)}"


def stair_way(game: TempleGame, colour: str, start: int, dest: int) -> str:
    """Where a trip from the stairway at ``start`` to the one at ``dest`` takes the pawn: forward or back
    along its own lap, as the Ah Kinchil card's choices say it ("forward to its Ah Kinchil marker")."""
    progress = game.board.progress[colour]
    if progress[dest] > progress[start]:
        return "forward"
    return "back" if progress[dest] < progress[start] else "across"


def read_pawn(state: TempleState, value: Any) -> tuple[str, int]:
    """The pawn an action names ("red1"); a name no pawn in play has is bad input, not a refusal."""
    try:
        return document.parse_pawn(state, value)
    except ValueError as exc:
        raise InvalidAction(str(exc)) from None
