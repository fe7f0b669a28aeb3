"""Stairway and Ah Kinchil choices that put a pawn where another stands say, as a move does, who goes back.

A move onto a pawn already read "..., sending Red 1 back [RU-12, RU-Q18]"; a stairway trip
onto an occupied stairway (RU-23) and the Ah Kinchil card onto an occupied marker (RU-Q23)
read like any other choice, and the players learnt of the send-back once it was done.
"""

from __future__ import annotations

from typing import Any

from tests.games.temple.fixtures import act, game, pawns_of, rules_of, state, white
from tests.games.temple.test_rules import OPEN_ALL
from tests.games.temple.test_worked_cases import _three_stairs


def _clauses(text: str) -> set[str]:
    return set(text.rsplit("[", 1)[1].rstrip("]").split(", "))


def _at_the_stairway(**pawns: Any) -> Any:
    """Red 1 has just ended a roll on the stairway at [7, 1]; the others are at [13, 7] and [7, 13]."""
    s = state(slots=_three_stairs(), pawns={"red": [[4, 1], "entrance"], **pawns})
    s, _ = act(s, white(3))
    s, _ = act(s, {"type": "move", "pawn": "red1", "to": [7, 1]})
    assert s.phase == "resolve"
    return s


def _offered(s: Any, kind: str) -> dict[str, dict]:
    return {a.get("pawn", "") + str(a.get("to", "")): a for a in game().legal_actions(s) if a["type"] == kind}


def test_a_stairway_onto_a_pawn_says_it_goes_back_with_the_clauses_the_trip_cites() -> None:
    s = _at_the_stairway(blue=[[13, 7], "entrance"])
    offered = _offered(s, "stair")
    onto, free = offered["red1[13, 7]"]["text"], offered["red1[7, 13]"]["text"]
    assert onto.startswith("Red 1 forward to the stairway at [13,7]")
    assert onto.endswith(", sending Blue 1 back [RU-23, RU-Q22]")
    assert "sending" not in free
    after, events = act(s, offered["red1[13, 7]"])
    assert pawns_of(after)["blue"][0] == "entrance"
    assert _clauses(onto) <= rules_of(events)


def test_a_stairway_onto_ones_own_pawn_says_so_too() -> None:
    s = _at_the_stairway(red=[[4, 1], [7, 13]])
    offered = _offered(s, "stair")
    assert offered["red1[7, 13]"]["text"].endswith(", sending Red 2 back [RU-23, RU-Q22]")
    assert "sending" not in offered["red1[13, 7]"]["text"]


def test_the_ah_kinchil_card_onto_an_occupied_marker_says_who_goes_back() -> None:
    # Red's Ah Kinchil marker is the SE corner [13, 13]; blue stands on it.
    s = state(slots=OPEN_ALL, pawns={"blue": [[13, 13], [7, 1]]})
    offered = _offered(s, "ahkinchil")
    onto = offered["red1"]["text"]
    assert onto.startswith("Play the Ah Kinchil card: Red 1 forward to its Ah Kinchil marker [13,13]")
    assert onto.endswith(", sending Blue 1 back [RU-Q23]")
    assert "sending" not in offered["blue2"]["text"]  # blue's own marker [1, 13] is free
    after, events = act(s, offered["red1"])
    assert pawns_of(after)["blue"][0] != [13, 13]
    assert _clauses(onto) <= rules_of(events)


def test_the_ah_kinchil_card_onto_ones_own_pawn_says_so_and_forbid_offers_nothing_to_say() -> None:
    s = state(slots=OPEN_ALL, pawns={"red": [[13, 13], "entrance"]})
    assert _offered(s, "ahkinchil")["red2"]["text"].endswith(", sending Red 1 back [RU-Q23]")
    f = state(slots=OPEN_ALL, pawns={"blue": [[13, 13], "entrance"]}, options={"ak_occupied": "forbid"})
    assert "red1" not in _offered(f, "ahkinchil")
    assert not any("sending" in a["text"] for a in game().legal_actions(f))
