"""The button box in a long list: next walks places, confirm opens one, and its actions follow."""

from __future__ import annotations

import random
import re
from typing import Any

from companion.choice_walk import ChoiceWalk, place_label
from companion.controller import Controller
from companion.observations import ButtonPressed
from companion.places import LONG_LIST, place_of
from companion.session import Session


def placements(hexes: int, colours: int) -> list[dict[str, Any]]:
    return [
        {"type": "camel", "colour": f"c{c}", "hex": [q, 0], "text": f"c{c} to ({q},0)"}
        for q in range(hexes)
        for c in range(colours)
    ]


def test_a_short_list_is_not_walked_by_place() -> None:
    assert not ChoiceWalk.by_place(placements(4, 2))
    assert not ChoiceWalk.by_place([{"type": "pass", "text": "pass"}] * (LONG_LIST + 1))
    assert ChoiceWalk.by_place(placements(20, 2))


def test_next_walks_places_confirm_opens_one_and_its_actions_lead_on_to_the_next_place() -> None:
    legal = [*placements(20, 2), {"type": "pass", "text": "Pass"}]
    walk = ChoiceWalk()
    first = walk.confirm(legal)  # nothing picked: confirm shows the first place rather than act unseen
    assert first is not None and first.place == (0, 0) and first.action is None and not first.take
    assert first.text == "(0,0): 2 choices; confirm to open"
    assert [walk.next(legal).place for _ in range(2)] == [(1, 0), (2, 0)]
    opened = walk.confirm(legal)
    assert opened.action == legal[4] and not opened.take  # (2,0) opened: its first camel shown
    assert walk.next(legal).action == legal[5]
    taken = walk.confirm(legal)
    assert taken.take and taken.action == legal[5]
    assert walk.next(legal).place == (3, 0)  # past the opened hex's last camel: the following hex
    for _ in range(16):
        walk.next(legal)
    last = walk.next(legal)
    assert last.action == {"type": "pass", "text": "Pass"} and walk.confirm(legal).take  # placeless ones after
    assert walk.next(legal).place == (0, 0)  # round again
    walk.reset()
    assert walk.next(legal).place == (0, 0)


def test_place_labels_use_the_games_own_field() -> None:
    assert place_label([{"hex": [5, 5]}], (5, 5)) == "(5,5)"
    assert place_label([{"slot": 3, "card": "P01"}], 3) == "slot 3"
    assert place_label([{"space": "dawn"}], "dawn") == "space dawn"
    assert place_label([{"space": "dawn"}], "dawn", {"dawn": "Desert Dawn"}.get) == "Desert Dawn"


def test_the_walk_names_a_desert_space_as_the_board_prints_it() -> None:
    """Desert Vortex sends a player to any of 39 spaces, walked place by place: the box lit, and the voice said,
    "space merchants_stall: 1 choice", the space's id, where the board prints Merchant's Stall."""
    session = Session.new("desert", ["black", "purple", "pink"])
    rng = random.Random(1)
    while not ChoiceWalk.by_place(session.legal()):
        session.act(session.game.sim_choose(session.state, session.legal(), rng))
    controller = Controller(session)
    said = [controller.handle(ButtonPressed("next")).text for _ in range(len(session.legal()))]
    assert said[0] == "Desert Dawn (0): 1 choice; confirm to open"
    assert "Merchant's Stall (2): 1 choice; confirm to open" in said
    assert not any("_" in text or text.startswith("space ") for text in said), said


def test_the_button_box_reaches_any_placement_of_hundreds_in_few_presses() -> None:
    """Through the Desert's leader placement: the last placement took len(legal) presses of next before."""
    session = Session.new("ttd", ["red", "black", "orange", "purple"])  # five open with one colour (TD-Q7)
    rng = random.Random(3)
    while len(session.legal()) <= LONG_LIST:
        session.act(rng.choice(session.legal()))
    legal = session.legal()
    controller = Controller(session)
    wanted = legal[-1]
    places = list(dict.fromkeys(map(place_of, legal)))
    presses = 0
    update = None
    while update is None or update.detail.get("place") != list(place_of(wanted)):
        update = controller.handle(ButtonPressed("next"))
        presses += 1
    update = controller.handle(ButtonPressed("confirm"))
    while update.action != wanted:
        update = controller.handle(ButtonPressed("next"))
        presses += 1
    steps = len(session.log)
    controller.handle(ButtonPressed("confirm"))
    assert session.log[-1] == {k: v for k, v in wanted.items() if k != "text"} and len(session.log) == steps + 1
    here = sum(place_of(a) == place_of(wanted) for a in legal)
    assert presses <= len(places) + here and presses < len(legal) // 3


def test_the_temple_walk_names_its_places_as_its_moves_do() -> None:
    """The walk's place is a sentence of its own on the status line and aloud: it lit "slot 1: 12 choices" and
    "to (9, 12): 1 choice", a move's end in Python's spelling ("to nine twelve" aloud), where the moves say
    "[9,12]" (said "column 9, row 12")."""
    session, rng = Session.new("temple", ["red", "green", "blue"]), random.Random(1)
    labels: set[str] = set()
    while not session.pending().is_over and len(session.log) < 60:
        legal = session.legal()
        if ChoiceWalk.by_place(legal):
            controller = Controller(session)
            labels.update(controller.handle(ButtonPressed("next")).text.split(":")[0] for _ in range(3))
        session.act(session.game.sim_choose(session.state, legal, rng))
    assert any(label.startswith("Slot ") for label in labels), sorted(labels)
    assert any(re.fullmatch(r"\[\d+,\d+\]", label) for label in labels), sorted(labels)
    assert all(label[:1].isupper() or label[:1] == "[" for label in labels), sorted(labels)
    assert not any("(" in label or label.startswith("to ") for label in labels), sorted(labels)
