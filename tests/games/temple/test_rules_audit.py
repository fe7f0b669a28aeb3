"""Audit of the temple engine against the rule text as settled by DECISIONS.md: each test failed before its fix."""

from __future__ import annotations

import pytest

from companion.errors import IllegalAction, InvalidPosition
from tests.games.temple.fixtures import act, doc, game, state, white

OPEN_ALL = [f"OPEN{i:02d}" for i in range(1, 13)]


def refused(s, action, rule: str) -> str:
    with pytest.raises(IllegalAction) as info:
        act(s, action)
    assert info.value.rule == rule, (info.value.rule, info.value.message)
    ruling = game().check(s, action)
    assert not ruling.legal and ruling.rules == (rule,)
    return info.value.message


def test_a_route_that_stops_short_cites_the_whole_roll_decision() -> None:
    """Stopping early while a full-length route exists breaks RU-Q16, with or without a route given."""
    corridor, _ = act(state(pawns={"red": [[4, 1], "entrance"]}), white(3))
    refused(corridor, {"type": "move", "pawn": "red1", "to": [5, 1]}, "RU-Q16")
    # On open cards [5, 1] is a legal end in three steps, but a one-step route to it stops short.
    s, _ = act(state(slots=OPEN_ALL, pawns={"red": [[4, 1], "entrance"]}), white(3))
    assert game().check(s, {"type": "move", "pawn": "red1", "to": [5, 1]}).legal
    message = refused(s, {"type": "move", "pawn": "red1", "to": [5, 1], "route": [[5, 1]]}, "RU-Q16")
    assert "it uses 1 step where 3 are possible" in message


def test_a_route_longer_than_the_roll_cites_the_count() -> None:
    """A pawn moves exactly the number rolled (RU-10); a four-step route on a 2 breaks that, not how it steps."""
    s, _ = act(state(slots=OPEN_ALL, pawns={"red": [[4, 1], "entrance"]}), white(2))
    route = [[4, 0], [5, 0], [6, 0], [6, 1]]
    refused(s, {"type": "move", "pawn": "red1", "to": [6, 1], "route": route}, "RU-10")


def test_a_roll_of_one_walked_in_two_steps_cites_the_next_column_option() -> None:
    s, _ = act(
        state(slots=OPEN_ALL, pawns={"red": [[4, 1], "entrance"]}, options={"roll1_mode": "nextColumnAny3"}), white(1)
    )
    refused(s, {"type": "move", "pawn": "red1", "to": [5, 0], "route": [[4, 0], [5, 0]]}, "RU-Q17")


def test_moving_back_onto_the_entrance_circles_is_not_called_a_hole() -> None:
    """Nobody lands on the Entrance Circles (RU-Q32); the refusal used to say the circles were a hole (RU-11)."""
    s, _ = act(state(slots=OPEN_ALL, pawns={"red": [[4, 1], "entrance"]}), white(1))
    message = refused(s, {"type": "move", "pawn": "red1", "to": "entrance"}, "RU-Q32")
    assert "hole" not in message


def test_two_pawns_of_a_colour_cannot_share_a_final_step() -> None:
    """A step is a space: two pawns never end on one (RU-12, RU-Q20), so such a document is refused."""
    g = game()
    with pytest.raises(InvalidPosition) as info:
        g.from_document(doc(pawns={"red": ["step2", "step2"]}))
    assert any("share" in p for p in info.value.problems)
    ok = state(pawns={"red": ["step2", "step3"]})
    assert g.invariants(ok) == []
    assert any("share" in p for p in g.invariants(ok._replace(pawns=((ok.pawns[0][0],) * 2, ok.pawns[1]))))
