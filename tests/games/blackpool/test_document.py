"""Position documents: round trips, the loader naming every problem, malformed actions, the text view."""

from __future__ import annotations

import json
import random

import pytest

from companion.errors import IllegalAction, InvalidAction, InvalidPosition
from companion.simulate import play_random_game
from tests.conformance import assert_document_round_trips
from tests.games.blackpool.helpers import GAME, Y, act, play, position, roll


def test_setup_document_round_trips_and_starts_in_the_centre() -> None:
    state = GAME.setup(["green", "yellow", "blue"], GAME.resolve_options({}))
    doc = GAME.to_document(state)
    assert list(doc)[:3] == ["game", "players", "options"]
    assert doc["turn"] == "green" and doc["phase"] == "roll"
    assert all(t["at"] == "centre" for t in doc["travellers"].values())
    assert doc["coins"] == {"green": 3, "yellow": 3, "blue": 3}
    assert doc["decks"]["charm"] == {"gust_of_force": 1, "awaken": 1, "diagonal_step_up": 1}
    assert_document_round_trips(GAME, state)


def test_round_trip_in_every_phase() -> None:
    state = position({"yellow-1": Y(25), "red-1": {"at": Y(25), "on": "yellow-1"}})
    seen = set()
    for step in (roll(6), {"type": "coin", "deck": "curse"}, {"type": "draw", "deck": "curse", "card": "freeze"}):
        state, _ = act(state, step)
        seen.add(state.phase)
        assert_document_round_trips(GAME, state)
    assert seen == {"six", "draw", "target"}


def test_round_trip_through_random_games() -> None:
    rng = random.Random(7)
    for _ in range(3):
        run = play_random_game(GAME, rng, deep_every=1)
        assert run.result and run.result["winner"] in run.players


def test_example_document_in_the_docs_loads() -> None:
    doc = {
        "game": "blackpool",
        "players": ["yellow", "red"],
        "options": {},
        "turn": "yellow",
        "phase": "move",
        "roll": 3,
        "travellers": {
            "yellow-1": {"at": "b4"},
            "yellow-2": {"at": "e6"},
            "yellow-3": {"at": "c3"},
            "red-1": {"at": "c2", "on": None, "frozen": False},
            "red-2": {"at": "centre"},
            "red-3": {"at": "camp"},
        },
    }
    state = GAME.from_document(doc)
    assert state.coins == (3, 3) and state.remaining["reset"] == 1
    assert [a["traveller"] for a in GAME.legal_actions(state)] == ["yellow-1"]


def test_loader_names_every_problem() -> None:
    doc = GAME.to_document(position({"yellow-1": Y(25)}))
    doc["turn"] = "purple"
    doc["phase"] = "dance"
    doc["coins"]["red"] = 9
    doc["travellers"]["yellow-2"] = {"at": "z9"}
    doc["travellers"]["red-1"] = {"at": Y(25), "on": "red-2"}
    doc["travellers"]["blue-1"] = {"at": "centre"}
    del doc["travellers"]["red-3"]
    doc["decks"]["curse"]["awaken"] = 1
    with pytest.raises(InvalidPosition) as err:
        GAME.from_document(json.loads(json.dumps(doc)))
    problems = err.value.problems
    text = "\n".join(problems)
    for fragment in (
        "turn: 'purple' is not playing; players: yellow, red",
        '"phase"',
        "coins of red",
        "z9",
        "red-1 rides on red-2 but they are on different squares",
        "blue-1",
        "red-3 is missing",
        "awaken belongs to the charm deck",
    ):
        assert fragment in text, (fragment, problems)
    assert len(problems) >= 8


def test_loader_checks_riding_and_squares() -> None:
    doc = GAME.to_document(position({}))
    doc["travellers"]["yellow-1"] = {"at": Y(25)}
    doc["travellers"]["red-1"] = {"at": Y(25)}
    doc["travellers"]["yellow-2"] = {"at": "i9"}
    doc["travellers"]["red-2"] = {"at": "centre", "on": "yellow-3"}
    with pytest.raises(InvalidPosition) as err:
        GAME.from_document(doc)
    text = "\n".join(err.value.problems)
    assert "none rides on the other" in text
    assert 'write "camp" or "centre"' in text
    assert "where nobody rides" in text


def test_a_square_or_traveller_typed_in_another_case_says_the_one_meant() -> None:
    """"traveller yellow-1 is at 'C2', which is not a square" left the referee to see that squares are written in
    lower case; a rider on "Red-1" the same."""
    doc = GAME.to_document(position({}))
    doc["travellers"]["yellow-1"] = {"at": "C2"}
    doc["travellers"]["red-1"] = {"at": "c2", "on": "Yellow-2"}
    with pytest.raises(InvalidPosition) as err:
        GAME.from_document(doc)
    assert ("traveller yellow-1 is at 'C2', which is not a square, \"centre\" or \"camp\"; is it 'c2'?"
            in err.value.problems), err.value.problems
    assert ("red-1 rides on 'Yellow-2', which is not a traveller in this game; is it 'yellow-2'?"
            in err.value.problems), err.value.problems


def test_loader_checks_phase_needs_and_coins() -> None:
    doc = GAME.to_document(position({}))
    doc["phase"] = "six"
    doc["coins"]["yellow"] = 2
    with pytest.raises(InvalidPosition) as err:
        GAME.from_document(doc)
    text = "\n".join(err.value.problems)
    assert 'needs "roll": 6' in text
    assert "each card costs one coin" in text


def test_loader_checks_the_finish() -> None:
    doc = GAME.to_document(position({}))
    for n in (1, 2, 3):
        doc["travellers"][f"yellow-{n}"] = {"at": "camp"}
    with pytest.raises(InvalidPosition) as err:
        GAME.from_document(doc)
    assert any("not listed as finished" in p for p in err.value.problems)


def test_loader_rejects_bad_players() -> None:
    with pytest.raises(InvalidPosition):
        GAME.from_document({"game": "blackpool", "players": ["yellow", "mauve"], "travellers": {}})
    with pytest.raises(InvalidPosition):
        GAME.from_document([])


@pytest.mark.parametrize(
    "action",
    [
        {"type": "jump"},
        {"type": "roll", "value": 7},
        {"type": "roll", "value": "3"},
        {"type": "roll", "value": True},
        {"no": "type"},
    ],
)
def test_malformed_actions(action: dict) -> None:
    state = position({"yellow-1": Y(25)})
    with pytest.raises(InvalidAction):
        act(state, action)


def test_malformed_move_actions() -> None:
    state, _ = act(position({"yellow-1": Y(25)}), roll(3))
    for action in ({"type": "move"}, {"type": "move", "traveller": "yellow-9"}, {"type": "move", "traveller": 3}):
        with pytest.raises(InvalidAction):
            act(state, action)


def test_refusals_leave_state_unchanged_and_check_agrees() -> None:
    state, _ = act(position({"yellow-1": Y(25)}), roll(3))
    before = GAME.to_document(state)
    cases = [
        (roll(4), "BP-6"),
        ({"type": "move", "traveller": "red-1"}, "BP-6"),
        ({"type": "coin", "deck": "charm"}, "BP-Q21"),  # a coin only with a six
        ({"type": "draw", "deck": "charm", "card": "awaken"}, "BP-6"),
        ({"type": "reroll"}, "BP-C7"),  # only a six rolls again
    ]
    for action, rule in cases:
        with pytest.raises(IllegalAction) as refusal:
            act(state, action)
        assert refusal.value.rule == rule, action
        ruling = GAME.check(state, action)
        assert not ruling.legal and ruling.rules == (rule,)
        assert GAME.to_document(state) == before


def test_check_on_a_legal_action_explains_it() -> None:
    state, _ = act(position({"yellow-1": Y(25)}), roll(3))
    ruling = GAME.check(state, {"type": "move", "traveller": "yellow-1", "text": "Yellow 1: forward 3"})
    assert ruling.legal and "BP-5" in ruling.rules and "forward 3" in ruling.text


def test_describe_shows_grid_players_and_decks() -> None:
    state = position(
        {"yellow-1": Y(25), "red-1": {"at": Y(25), "on": "yellow-1"}, "red-2": {"at": Y(30), "frozen": True}},
        coins={"yellow": 3, "red": 2},
        decks={"curse": {"freeze": 0}},
    )
    lines = GAME.describe(state)
    text = "\n".join(lines)
    assert "Y1+R1" in text and "R2*" in text
    assert len([ln for ln in lines if ln[:2].strip().isdigit()]) == 9
    assert "Yellow (to play): coins 3" in text
    assert "carrying Red 1" in text and "frozen" in text
    assert "curse 2 left (Reset, Diagonal Step Down)" in text
    assert text.splitlines()[-1].startswith("Decks: ") and "Now:" not in text  # the prompt under it says it


def test_pending_texts_for_each_phase() -> None:
    state = position({"yellow-1": Y(25)})
    state, _ = play(state, roll(6))
    assert "six" in GAME.pending(state).text
    state, _ = act(state, {"type": "coin", "deck": "charm"})
    assert GAME.pending(state).kind == "draw"
    state, _ = act(state, {"type": "draw", "deck": "charm", "card": "diagonal_step_up"})
    assert "Diagonal Step Up" in GAME.pending(state).text


def test_loader_refuses_a_move_phase_with_nothing_to_move() -> None:
    doc = GAME.to_document(position({"yellow-1": Y(9)}))
    doc["phase"], doc["roll"] = "move", 3
    with pytest.raises(InvalidPosition) as err:
        GAME.from_document(doc)
    assert "nothing of yellow's can move with a 3" in err.value.problems[0]


def test_a_carrier_with_two_riders_may_land_on_a_lone_traveller_without_the_arriving_stack_counted() -> None:
    """`simulate --game blackpool --games 1000 --seed 1` (README) found it: Green 1 carrying Red 2 carrying
    Yellow 1 moved onto Blue 3, and the position it made was called impossible ("b8 holds 4 travellers")."""
    from companion.session import Session

    travellers = {
        "yellow-1": {"at": "d8", "on": "red-2"}, "yellow-2": {"at": "e3"}, "yellow-3": {"at": "b7"},
        "blue-1": {"at": "c6", "frozen": True}, "blue-2": {"at": "e3", "on": "yellow-2"}, "blue-3": {"at": "b8"},
        "red-1": {"at": "c4"}, "red-2": {"at": "d8", "on": "green-1"}, "red-3": {"at": "f5"},
        "green-1": {"at": "d8"}, "green-2": {"at": "centre"}, "green-3": {"at": "centre"},
    }
    doc = {
        "game": "blackpool", "players": ["yellow", "blue", "red", "green"], "turn": "green", "phase": "move",
        "roll": 4, "options": {"capacity.countsArrivingStack": False, "edge.landing": "coexist"},
        "coins": {"yellow": 2, "blue": 2, "red": 2, "green": 0}, "travellers": travellers,
        "decks": {"charm": {"gust_of_force": 0, "awaken": 0, "diagonal_step_up": 0},
                  "curse": {"freeze": 0, "reset": 0, "diagonal_step_down": 0}},  # six cards for six coins
    }
    session = Session.load("blackpool", doc)
    session.act({"type": "move", "traveller": "green-1"})
    after = session.document()
    assert {t for t, v in after["travellers"].items() if v["at"] == "b8"} == {"green-1", "red-2", "yellow-1", "blue-3"}
    assert session.game.invariants(session.state) == []
    assert Session.load("blackpool", after).document() == after  # the position it made loads again
