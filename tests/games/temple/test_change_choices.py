"""A card change that moves pawns says so where it is offered, as a move onto a pawn does.

A red roll's change choices read "Slot 3: COR03 out, HOLEMID in" whatever the new card
did to the pawns standing in the slot: a hole under a pawn sent it back (RU-17), a
stairway made it travel (RU-Q10), and the players learnt it only once the change was made.
"""

from __future__ import annotations

import random
import re
from typing import Any

from tests.games.temple.fixtures import act, doc, game, pawns_of, red, rules_of, state
from tests.games.temple.test_worked_cases import _three_stairs


def _changes(s: Any) -> dict[tuple[int, str], str]:
    return {(a["slot"], a["card"]): a["text"] for a in game().legal_actions(s) if a["type"] == "change"}


def _clauses(text: str) -> set[str]:
    return set(text.rsplit("[", 1)[1].rstrip("]").split(", "))


def test_a_card_putting_a_hole_under_a_pawn_says_it_sends_it_back() -> None:
    # RU-AT04's position: Red 1 at [10, 1], card r1c1 of slot 3; HOLEMID has a hole there, OPEN12 does not.
    s = state(slots=["COR01", "IDR", "COR03", *doc()["slots"][3:]], turn="blue", pawns={"red": [[10, 1], "entrance"]})
    s, _ = act(s, red(3))
    offered = _changes(s)
    hole = offered[(3, "HOLEMID")]
    assert hole == "Slot 3: COR03 out, HOLEMID in, sending Red 1 back [RU-17]"
    assert offered[(3, "END")].endswith(", sending Red 1 back [RU-17]")
    assert offered[(3, "OPEN12")] == "Slot 3: COR03 out, OPEN12 in"
    assert not any("sending" in text for (slot, _), text in offered.items() if slot != 3)
    after, events = act(s, {"type": "change", "slot": 3, "card": "HOLEMID"})
    assert pawns_of(after)["red"][0] == [6, 1]
    assert _clauses(hole) <= rules_of(events)


def test_both_pawns_of_a_colour_on_new_holes_are_named_with_the_pair_clauses() -> None:
    for pair_order in ("furtherAheadFirst", "ownerChooses"):
        s = state(turn="blue", pawns={"red": [[10, 1], [9, 1]]}, options={"pair_order": pair_order})
        s, _ = act(s, red(3))
        text = _changes(s)[(3, "END")]
        assert text.endswith(", sending Red 1 and Red 2 back [RU-17, RU-19, RU-Q13]"), text


def test_the_players_own_pawn_is_named_too() -> None:
    s = state(pawns={"red": [[10, 1], "entrance"]})
    s, _ = act(s, red(3))
    assert _changes(s)[(3, "HOLEMID")].endswith(", sending Red 1 back [RU-17]")


def test_a_card_putting_a_stairway_under_a_pawn_says_it_must_take_it() -> None:
    # Red 1 on [13, 7], card r1c1 of slot 5; stairways stand at [7, 1] and [7, 13]: Red picks one.
    slots = _three_stairs()
    slots[4] = "OPEN12"
    s = state(slots=slots, turn="blue", pawns={"red": [[13, 7], "entrance"]})
    s, _ = act(s, red(3))
    text = _changes(s)[(5, "STB")]
    assert text == (
        "Slot 5: OPEN12 out, STB in, Red 1 takes the secret stairway at [13,7] (slot 5) to one of 2 others"
        " [RU-22, RU-Q10]"
    )
    after, _ = act(s, {"type": "change", "slot": 5, "card": "STB"})
    assert after.phase == "resolve" and after.tasks[0].kind == "stair"


def test_a_stairway_trip_onto_a_pawn_names_both() -> None:
    # One other stairway, at [7, 1], where Blue 1 stands: the trip is made at once and Blue 1 goes back.
    slots = _three_stairs()
    slots[4], slots[7] = "OPEN12", "OPEN13"
    s = state(slots=slots, turn="blue", pawns={"red": [[13, 7], "entrance"], "blue": [[7, 1], "entrance"]})
    s, _ = act(s, red(3))
    text = _changes(s)[(5, "STB")]
    assert text.endswith(
        ", sending Blue 1 back [RU-23, RU-Q22], Red 1 takes the secret stairway at [13,7] (slot 5) back to"
        " [7,1] (slot 2) [RU-22, RU-Q10, RU-Q21]"
    )
    after, events = act(s, {"type": "change", "slot": 5, "card": "STB"})
    assert pawns_of(after)["red"][0] == [7, 1] and pawns_of(after)["blue"][0] != [7, 1]
    assert _clauses(text) <= rules_of(events)


def _named(text: str) -> set[str]:
    """The pawns a change choice names ("Red 1", ...), sent back or taking a stairway."""
    names = set()
    for part in re.sub(r" \[[^]]*\]", "", text).split(", ")[2:]:
        for who in part.replace("sending ", "").split(" back")[0].split(" takes")[0].split(" take ")[0].split(" and "):
            names.add(who.strip())
    return names


def test_every_change_choice_names_exactly_the_pawns_the_change_moves() -> None:
    """Random games on the house data, every profile: each offered change, made, moves just the pawns it names."""
    from companion.registry import create

    house = create("temple")
    rng = random.Random(3)
    checked = said = 0
    for game_no in range(6):
        profile = sorted(house.profiles)[game_no % 2]
        s = house.setup(["red", "blue", "green", "yellow"], house.resolve_options({}, profile))
        for _ in range(3000):
            if house.pending(s).is_over or checked > 4000:
                break
            legal = house.legal_actions(s)
            if s.phase == "change":
                before = {(c, i): n for c, i, n in s.all_pawns()}
                for action in legal:
                    if action["type"] != "change":
                        continue
                    after, _ = house.apply(s, {k: v for k, v in action.items() if k != "text"})
                    moved = {f"{c.capitalize()} {i + 1}" for c, i, n in after.all_pawns() if before[(c, i)] != n}
                    waiting = {f"{t.colour.capitalize()} {i + 1}" for t in after.tasks for i in t.pawns}
                    named = _named(action["text"]) if action["text"].count(",") > 1 else set()
                    assert named == moved | waiting, (action["text"], moved, waiting)
                    checked += 1
                    said += bool(named)
            s, _ = house.apply(s, house.sim_choose(s, legal, rng))
    assert said > 20, said


def test_a_layout_built_from_another_with_one_card_changed_is_the_layout_built_whole() -> None:
    """The change choices are played out on layouts built from the position's by one slot; they must not differ."""
    from companion.games.temple.board import Layout
    from companion.registry import create

    board = create("temple").board
    rng = random.Random(5)
    for _ in range(200):
        slots = tuple(rng.sample(board.card_order, 12))
        index = rng.randrange(12)
        card = rng.choice([c for c in board.card_order if c not in slots])
        made = board.layout(slots).swapped(index, card, (*slots[:index], card, *slots[index + 1 :]))
        whole = Layout(board, made.slots)
        assert (made.kinds, made.walkable, made.stairs, made.idols) == (
            whole.kinds,
            whole.walkable,
            whole.stairs,
            whole.idols,
        )
        assert made.idols_by_progress == whole.idols_by_progress


def test_three_pawns_sent_back_by_one_change_are_listed_as_a_sentence_lists_them() -> None:
    """Three colours on one changed card read "sending Red 1 and Blue 1 and Green 1 back"."""
    s = state(players=["red", "blue", "green"], turn="blue",
              pawns={"red": [[9, 1], "entrance"], "blue": [[10, 1], "entrance"], "green": [[11, 1], "entrance"]})
    s, _ = act(s, red(3))
    text = _changes(s)[(3, "END")]
    assert ", sending Blue 1, Green 1 and Red 1 back [RU-17]" in text, text  # Blue's turn: Blue first (RU-Q14)


def test_a_change_names_the_pawns_it_sends_back_in_the_order_they_go() -> None:
    """RU-Q14 takes the colours one by one from the player whose turn it is. On Blue's turn the choice read
    "sending Red 1, Blue 1 and Green 1 back" (seat order) while the change then sent Blue 1, Green 1 and Red 1
    back, in that order: a referee reading the choice saw it the other way round from what happened."""
    pawns = {"red": [[9, 1], "entrance"], "blue": [[10, 1], "entrance"], "green": [[11, 1], "entrance"]}
    for turn, names in (("green", "Green 1, Red 1 and Blue 1"), ("red", "Red 1, Blue 1 and Green 1")):
        s = state(players=["red", "blue", "green"], turn=turn, pawns=pawns)
        s, _ = act(s, red(3))
        text = _changes(s)[(3, "END")]
        assert f", sending {names} back [RU-17]" in text, text
        _, events = act(s, {"type": "change", "slot": 3, "card": "END"})
        gone = [e.text.split(" goes back")[0] for e in events if " goes back " in e.text]
        assert ", ".join(gone[:-1]) + " and " + gone[-1] == names  # as said, so done


def test_a_first_roll_tie_of_three_is_listed_as_a_sentence_lists_it() -> None:
    """RU-5: three players tied on X read "Red and Blue and Green tie: they roll again."."""
    s = game().from_document({**doc(players=["red", "blue", "green"]), "phase": "first_roll", "turn": "red",
                              "first_roll": {"contenders": ["red", "blue", "green"], "rolls": []}})
    events = []
    for _ in range(3):
        s, more = act(s, {"type": "roll", "value": "X", "face": {"colour": "white"}})
        events += more
    assert "Red, Blue and Green tie: they roll again." in [e.text for e in events]
