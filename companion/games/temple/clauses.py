"""Clause ids that several parts of the temple rules cite together, and the clauses of a landing or route.

Kept apart so that a move, a stairway trip, the Ah Kinchil card and a card change cite one send-back the
same way, whichever module rules it.
"""

from __future__ import annotations

STAIR_ONTO_PAWN = ("RU-23", "RU-Q22")  # a stairway trip ends where a pawn stands (own pawn included)
AK_ONTO_PAWN = ("RU-Q23",)  # the Ah Kinchil card moves a pawn onto a taken marker (ak_occupied = bump)
CHANGE_OFF_PATH = ("RU-17",)  # a changed card puts a hole under a pawn
CHANGE_ONTO_STAIR = ("RU-22", "RU-Q10")  # a changed card puts a stairway under a pawn, which must take it


def landing_rules(colour: str, occupant: tuple[str, int], stair: bool = False, step: bool = False) -> tuple[str, ...]:
    """The clauses of a move ending on a pawn: RU-Q18 too when that pawn is the mover's own.

    Audit: a move ending on a pawn that stood on a secret stairway cited only RU-12, though the
    rules give that case a clause of its own (RU-23: the pawn there goes back, then the mover takes
    the stairway; RU-Q22: even your own); a pawn finishing on its own other pawn on the final steps
    is RU-Q20's case.
    """
    rules = ["RU-12"]
    if stair:
        rules += STAIR_ONTO_PAWN
    if occupant[0] == colour:
        rules.append("RU-Q18")
        if step:
            rules.append("RU-Q20")
    return tuple(rules)


def route_rule(problem: str) -> str:
    """The clause a refused route breaks.

    Audit: every route fault used to cite RU-11 (wall aside), so a route that stops short while a
    full-length one exists cited the stepping rule where the same refusal without a route cites
    RU-Q16; a route longer than the roll breaks the count (RU-10), and a roll of 1 read as the next
    column is the RU-Q17 option.
    """
    if "wall" in problem:
        return "RU-14"
    if "are possible" in problem:  # "uses 1 step where 3 are possible"
        return "RU-Q16"
    if "longer than the roll" in problem:
        return "RU-10"
    if "roll of 1" in problem:
        return "RU-Q17"
    return "RU-11"

