"""A traveller's move buttons read alike whatever the roll: "Yellow 1: forward 5 to ..." after a 5, and after a
six "Yellow 1: 6 forward to ..., roll again", the number and the direction swapped on the one roll a
first-time table has to think about most (it may roll again, or the turn ends)."""

from __future__ import annotations

import re

from tests.games.blackpool.helpers import GAME, Y, act, position, roll

MOVE = re.compile(r"^Yellow 1: forward (\d) to .+")


def moves_after(value: int, **options: object) -> list[str]:
    state, _ = act(position({"yellow-1": Y(25)}, options=options or None), roll(value))
    return [a["text"] for a in GAME.legal_actions(state) if a["type"] == "move"]


def test_a_six_reads_as_any_other_roll_forward() -> None:
    five, six = moves_after(5), moves_after(6)
    assert len(five) == 1 and MOVE.match(five[0]) and MOVE.match(five[0])[1] == "5"
    assert len(six) == 1 and MOVE.match(six[0]) and MOVE.match(six[0])[1] == "6", six
    assert six[0].endswith(", roll again")
    last = moves_after(6, **{"six.maxChain": 1})
    assert MOVE.match(last[0]) and last[0].endswith(", then the turn ends"), last
