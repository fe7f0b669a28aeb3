"""The pair order: which of a colour's two pawns, both sent back by one card change, takes the nearer marker.

Asked only when it matters (RU-Q13); the pawns of later colours wait behind the choice (RU-Q14), and the
question and its choices say where they end.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from companion.game import Action, Event, refuse
from companion.games.temple.clauses import CHANGE_OFF_PATH
from companion.games.temple.places import cell_name, read_pawn
from companion.games.temple.send_back import in_order_sent, send_back, sends_back
from companion.games.temple.state import TempleState, pawn_label, pawn_name
from companion.games.temple.tasks import run_tasks
from companion.games.temple.turns import resolve
from companion.phrases import series

if TYPE_CHECKING:
    from companion.games.temple.rules import TempleGame


def waiting_after(state: TempleState) -> str:
    """What the pair question adds when later colours' pawns wait on their holes behind it (RU-Q14).

    Audit: the question named only the owner's two pawns, so the owner chose not knowing that Blue 1 goes
    back after them, to the markers as the choice leaves them (under bump it may bump the pawn the choice
    just sent there). The choices themselves say where the two go (``order_text``).
    """
    waiting = [pawn_label(t.colour, i) for t in state.tasks[1:] if t.kind == "off" for i in t.pawns]
    if not waiting:
        return ""
    goes = "goes" if len(waiting) == 1 else "go"
    return f" {series(waiting)} {goes} back after this choice [RU-Q14]."


def order_text(game: TempleGame, state: TempleState, colour: str, first: int) -> str:
    """A pair-order choice as it plays out: where each of the two pawns goes, and who else goes back.

    Audit: "Red 1 takes the nearer marker" named no marker, and the table had to work out the two.
    With pawns of later colours waiting behind the choice (RU-Q14) it says where they end (``order_then``).
    """
    said: list[Event] = []
    after = send_back(game, state, [(colour, first), (colour, 1 - first)], said, CHANGE_OFF_PATH)
    then = order_then(game, state, colour, after, said)
    if then:  # said short, with the cells alone: the button still reads in three lines, in two upright
        (a, at_a), (b, at_b) = ((pawn_label(colour, i), cell_name(game, colour, after.pawn_at(colour, i)))
                                for i in (first, 1 - first))
        return f"{a} back to {at_a}, {b} to {at_b}{then}"
    entrance = game.board.colours[colour].entrance
    parts = []
    for i in (first, 1 - first):
        node = after.pawn_at(colour, i)
        place = "its Entrance Circles" if node == entrance else f"its idol marker at {game.where(colour, node)}"
        parts.append(f"{pawn_label(colour, i)} back to {place}")
    bumped = [(c, i) for c, i, n in state.all_pawns() if c != colour and after.pawn_at(c, i) != n]
    return ", ".join(parts) + sends_back(in_order_sent(bumped, said), ("RU-Q12",))


def order_then(
    game: TempleGame, state: TempleState, colour: str, after: TempleState, said: Sequence[Event] = ()
) -> str:
    """What a pair-order choice leads to for the pawns waiting behind it (RU-Q14): where the other colours'
    pawns end, and whose pair question comes next if one does; empty when nobody waits.

    Audit: the choice said "..., sending Blue 2 back [RU-Q12]" and nothing of Blue 1, waiting on its hole to
    go back once the choice is made, to the markers as the choice leaves them: under bump, Red's choice
    took Blue 2 to the blue corner marker and Blue 1 then bumped it on to its Entrance Circles. The question
    named Blue 1 (``waiting_after``); where each pawn ends, only doing it told. The pawns the choice itself
    bumps are said where they end too, so RU-Q12 comes with RU-Q14 when a pawn is bumped on the way.
    The pawns are named in the order they go back (``said``: the choice's own send-backs, then the waiting
    ones), as RU-Q14 takes them, not in seat order.
    """
    if not any(t.kind == "off" for t in state.tasks[1:]):
        return ""
    seen: list[Event] = []
    done = run_tasks(game, after.but(tasks=state.tasks[1:]), seen)
    ends = []
    moved = [(c, i) for c, i, n in state.all_pawns() if c != colour and done.pawn_at(c, i) != n]
    for c, i in in_order_sent(moved, [*said, *seen], by_end=True):
        node = done.pawn_at(c, i)
        home = node == game.board.colours[c].entrance
        ends.append(f"{pawn_label(c, i)} {'at its Entrance Circles' if home else 'on ' + cell_name(game, c, node)}")
    asks = done.tasks[0].colour.capitalize() if done.tasks and done.tasks[0].kind == "back" else ""
    if asks:
        ends.append(f"{asks} picks its own pair's order")
    if not ends:
        return ""
    bumps = any(after.pawn_at(c, i) != n for c, i, n in state.all_pawns() if c != colour)
    bumps = bumps or any("RU-Q12" in e.rules for e in seen)
    return f"; then {', '.join(ends)} [{'RU-Q12, RU-Q14' if bumps else 'RU-Q14'}]"


def apply_order(game: TempleGame, state: TempleState, action: Action, events: list[Event]) -> TempleState:
    task = state.tasks[0]
    colour, i = read_pawn(state, action.get("first"))
    if colour != task.colour:
        raise refuse(f"Choose one of the two {task.colour} pawns.", "RU-19")
    other = 1 - i
    events.append(
        Event(
            "warning",
            f"The new card leaves both {colour} pawns off the path; {pawn_label(colour, i)}"
            " takes the nearer marker.",
            ("RU-17", "RU-19", "RU-Q13"),
            (colour,),
        )
    )
    state = send_back(game, state, [(colour, i), (colour, other)], events, ("RU-17",))
    return resolve(game, state.but(tasks=state.tasks[1:]), events)


def order_actions(game: TempleGame, state: TempleState) -> list[Action]:
    """One choice a pawn of the pair at the head of the tasks: that pawn takes the nearer marker."""
    task = state.tasks[0]
    return [
        {"type": "order", "first": pawn_name(task.colour, i), "text": order_text(game, state, task.colour, i)}
        for i in task.pawns
    ]
