"""Every text about a secret stairway says which one, by its place, and where it leads.

With several stairways on the board the table read "The new card puts Red 1 on a
secret stairway", "Red: pick the stairway Red 1 takes", "Blue 1 was on that stairway"
and, in a change choice, "Red 1 takes a secret stairway", and could not tell which;
a move ending on a stairway said nothing of the trip it would make. The stairways
are named as every other place is, "[7,1] (slot 2)", so the screen, the
terminal and the voice ("column 7, row 1 (slot 2)") say the same.
"""

from __future__ import annotations

from typing import Any

from tests.games.temple.fixtures import act, doc, game, pawns_of, red, rules_of, state, white
from tests.games.temple.test_worked_cases import _three_stairs

STA, STB, STC = "[7,1] (slot 2)", "[13,7] (slot 5)", "[7,13] (slot 8)"


def _texts(s: Any, kind: str) -> dict[str, str]:
    return {a.get("pawn", "") + str(a.get("to", "")): a["text"] for a in game().legal_actions(s) if a["type"] == kind}


def _clauses(text: str) -> list[str]:
    return [c for part in text.split("[")[1:] for c in part.split("]")[0].split(", ") if c.startswith("RU-")]


def _on_the_first_stairway(**pawns: Any) -> Any:
    """Red 1 has ended a roll on the stairway at [7, 1]; the others are at [13, 7] and [7, 13]."""
    s = state(slots=_three_stairs(), pawns={"red": [[4, 1], "entrance"], **pawns})
    s, _ = act(s, white(3))
    s, _ = act(s, {"type": "move", "pawn": "red1", "to": [7, 1]})
    assert s.phase == "resolve"
    return s


def test_the_stairway_question_names_the_stairway_the_pawn_stands_on() -> None:
    s = _on_the_first_stairway()
    asked = game().pending(s).text
    assert asked == f"Red: Red 1 is on the secret stairway at {STA}; pick the stairway it comes out at."


def test_each_stairway_choice_says_whether_it_leads_forward_or_back_furthest_forward_first() -> None:
    # Red's lap runs clockwise from slot 1: [13, 7] (slot 5) and [7, 13] (slot 8) both lie ahead of [7, 1].
    s = _on_the_first_stairway()
    assert [a["text"] for a in game().legal_actions(s)] == [
        f"Red 1 forward to the stairway at {STC}",
        f"Red 1 forward to the stairway at {STB}",
    ]
    # Blue's lap starts at slot 4, so from [7, 13] the stairway at [7, 1] is ahead and [13, 7] behind.
    b = state(slots=_three_stairs(), turn="blue", pawns={"blue": [[6, 13], "entrance"]})
    b, _ = act(b, white(1))
    b, _ = act(b, {"type": "move", "pawn": "blue1", "to": [7, 13]})
    assert [a["text"] for a in game().legal_actions(b)] == [
        f"Blue 1 forward to the stairway at {STA}",
        f"Blue 1 back to the stairway at {STB}",
    ]


def test_a_move_ending_on_a_stairway_says_where_the_stairway_leads() -> None:
    s = state(slots=_three_stairs(), pawns={"red": [[4, 1], "entrance"]})
    s, _ = act(s, white(3))
    many = _texts(s, "move")["red1[7, 1]"]
    assert many == f"Red 1 to {STA} in 3, then up the secret stairway there to one of 2 others [RU-22]"
    # One other stairway, with Blue 1 on it: the trip is made at once and Blue 1 goes back.
    slots = doc()["slots"]
    slots[1], slots[4] = "STA", "STB"
    one = state(slots=slots, pawns={"red": [[4, 1], "entrance"], "blue": [[13, 7], "entrance"]})
    one, _ = act(one, white(3))
    text = _texts(one, "move")["red1[7, 1]"]
    assert text == (
        f"Red 1 to {STA} in 3, then up the secret stairway there forward to {STB} [RU-22, RU-Q21],"
        " sending Blue 1 back [RU-23, RU-Q22]"
    )
    after, events = act(one, {"type": "move", "pawn": "red1", "to": [7, 1]})
    assert pawns_of(after)["red"][0] == [13, 7] and pawns_of(after)["blue"][0] == "entrance"
    assert set(_clauses(text)) <= rules_of(events)


def test_a_move_onto_the_only_stairway_says_the_pawn_stays() -> None:
    slots = doc()["slots"]
    slots[1] = "STA"
    s = state(slots=slots, pawns={"red": [[4, 1], "entrance"]})
    s, _ = act(s, white(3))
    text = _texts(s, "move")["red1[7, 1]"]
    assert text == f"Red 1 to {STA} in 3, on a secret stairway with no other to reach: it stays [RU-24]"
    after, events = act(s, {"type": "move", "pawn": "red1", "to": [7, 1]})
    assert pawns_of(after)["red"][0] == [7, 1] and set(_clauses(text)) <= rules_of(events)
    (stays,) = [e.text for e in events if "RU-24" in e.rules]
    assert stays == f"Red 1 is on the secret stairway at {STA}, but no other stairway is on the board: it stays."


def test_a_move_from_one_stairway_to_another_does_not_send_the_mover_back() -> None:
    # Red 1 steps off the stairway at [7, 1] and comes back to the one at [13, 7]: its trip leads to
    # [7, 1], the space it has just left, where nobody stands any more.
    slots = doc()["slots"]
    slots[1], slots[4] = "STA", "STB"
    s = state(slots=slots, pawns={"red": [[7, 1], "entrance"]})
    s, _ = act(s, white(1))
    s = s.but(pawns=((game().board.node(13, 6), s.pawns[0][1]), *s.pawns[1:]))
    text = _texts(s, "move")["red1[13, 7]"]
    assert text == f"Red 1 to {STB} in 1, then up the secret stairway there back to {STA} [RU-22, RU-Q21]"


def test_a_change_choice_names_the_stairway_and_where_it_leads() -> None:
    slots = _three_stairs()
    slots[4] = "OPEN12"
    s = state(slots=slots, turn="blue", pawns={"red": [[13, 7], "entrance"]})
    s, _ = act(s, red(3))
    assert dict(((a["slot"], a["card"]), a["text"]) for a in game().legal_actions(s))[(5, "STB")] == (
        f"Slot 5: OPEN12 out, STB in, Red 1 takes the secret stairway at {STB} to one of 2 others [RU-22, RU-Q10]"
    )
    s, events = act(s, {"type": "change", "slot": 5, "card": "STB"})
    said = [e.text for e in events if e.rules == ("RU-22", "RU-Q10")]
    assert said == [f"The new card puts Red 1 on the secret stairway at {STB}: it takes it if there is another."]


def test_a_pawn_a_change_puts_on_a_lone_stairway_is_not_named_again() -> None:
    """The change's sentence names the pawn and the stairway; the next said "Red 1 is on the secret stairway at
    [13,7] (slot 5), but no other stairway is there to reach: it stays.", the same eleven words again."""
    slots = _three_stairs()
    slots[1], slots[4], slots[7] = "OPEN13", "OPEN12", "OPEN11"  # the stairway the change lays is the only one
    s = state(slots=slots, turn="blue", pawns={"red": [[13, 7], "entrance"]})
    s, _ = act(s, red(3))
    s, events = act(s, {"type": "change", "slot": 5, "card": "STB"})
    assert [e.text for e in events][1:] == [
        f"The new card puts Red 1 on the secret stairway at {STB}: it takes it if there is another.",
        "It stays there: no other stairway is on the board.",
    ]
    assert pawns_of(s)["red"][0] == [13, 7]


def test_an_automatic_trip_after_a_change_names_where_it_lands_and_who_stood_there() -> None:
    slots = _three_stairs()
    slots[4], slots[7] = "OPEN12", "OPEN13"
    s = state(slots=slots, turn="blue", pawns={"red": [[13, 7], "entrance"], "blue": [[7, 1], "entrance"]})
    s, _ = act(s, red(3))
    text = dict(((a["slot"], a["card"]), a["text"]) for a in game().legal_actions(s))[(5, "STB")]
    assert text.endswith(
        f", sending Blue 1 back [RU-23, RU-Q22], Red 1 takes the secret stairway at {STB} back to {STA}"
        " [RU-22, RU-Q10, RU-Q21]"
    )
    _, events = act(s, {"type": "change", "slot": 5, "card": "STB"})
    assert "Blue 1 was on the stairway at [7,1] (slot 2)." in [e.text for e in events]


def test_refusals_about_stairways_name_them() -> None:
    s = _on_the_first_stairway()
    g = game()
    same = g.check(s, {"type": "stair", "pawn": "red1", "to": [7, 1]})
    assert same.text == f"Red 1 is on the secret stairway at {STA}; it must go to another stairway."
    assert same.rules == ("RU-22",)
    wrong = g.check(_on_the_first_stairway(red=[[4, 1], [1, 1]]), {"type": "stair", "pawn": "red2", "to": [7, 13]})
    assert wrong.text == f"Red 1 is the pawn taking the secret stairway at {STA} now." and wrong.rules == ("RU-22",)


def test_a_stairway_across_the_wall_is_named_in_the_refusal() -> None:
    slots = doc()["slots"]
    slots[1], slots[4], slots[10] = "STA", "STB", "STC"  # [7, 1], [13, 7] and slot 11 r1c1 = [1, 7]
    s = state(
        slots=slots,
        phase="resolve",
        roll={"value": 3, "colour": "white"},
        pawns={"red": [[7, 1], "entrance"]},
        options={"stairs_respect_walls": True},
        tasks=[{"kind": "stair", "pawns": ["red1"], "at": [7, 1], "chooser": "red"}],
        after="end",
    )
    far = game().check(s, {"type": "stair", "pawn": "red1", "to": [1, 7]})
    assert far.text == (
        "The stairway at [1,7] (slot 11) is more than half a lap away from Red 1, across its own wall."
    )
    assert far.rules == ("RU-Q21",)


def test_every_move_choice_cites_only_clauses_its_ruling_cites() -> None:
    """A move ending on a stairway with several others read "..., then up the secret stairway there to one of
    2 others [RU-22]", and the ruling on it (the dispute screen, `check`) said only that the pawn moved."""
    import random

    from companion.registry import create

    house = create("temple")
    rng = random.Random(8)
    seen = 0
    for game_no in range(4):
        profile = sorted(house.profiles)[game_no % 2]
        s = house.setup(["red", "blue", "green"], house.resolve_options({}, profile))
        for _ in range(1500):
            if house.pending(s).is_over:
                break
            legal = house.legal_actions(s)
            for action in legal:
                if action["type"] in ("move", "stair", "change") and "stairway" in action["text"]:
                    _, events = house.apply(s, {k: v for k, v in action.items() if k != "text"})
                    assert set(_clauses(action["text"])) <= rules_of(events), action["text"]
                    seen += 1
            s, _ = house.apply(s, house.sim_choose(s, legal, rng))
    assert seen > 50, seen


def test_why_at_a_cell_with_no_stairway_names_the_ways_out() -> None:
    """`why 3,13` during a stairway choice answered only "There is no secret stairway at [3,13] (...)"."""
    s = _on_the_first_stairway()
    ruling = game().check(s, {"type": "stair", "pawn": "red1", "to": [3, 13]})
    assert ruling.text == (
        f"There is no secret stairway at [3,13] (slot 9); Red 1 comes out at {STB} or {STC}."
    )
    assert ruling.rules == ("RU-22",)
