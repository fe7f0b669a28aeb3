"""Position documents round-trip, and the loader names every fault of an impossible one."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from companion.data import house_dir, load_data
from companion.errors import InvalidPosition
from companion.games.temple.rules import TempleGame
from companion.registry import create
from companion.simulate import play_random_game
from tests.conformance import assert_document_round_trips
from tests.games.temple.fixtures import act, doc, game, red, state, white


def test_round_trip_in_every_phase() -> None:
    g = game()
    s = g.setup(["red", "blue", "green"], g.resolve_options({}))
    assert_document_round_trips(g, s)
    s, _ = act(s, {"type": "draw", "deck": "path", "card": "COR01"})
    assert_document_round_trips(g, s)
    assert_document_round_trips(g, state(phase="first_roll", first_roll={"contenders": ["red"], "rolls": []}))
    moving, _ = act(state(pawns={"red": [[4, 1], "entrance"]}), white(3))
    assert_document_round_trips(g, moving)
    changing, _ = act(state(), red(3))
    assert_document_round_trips(g, changing)


@pytest.mark.parametrize("profile", ["standard", "alternatives"])
def test_random_positions_round_trip_through_json(profile: str) -> None:
    g = create("temple")
    for seed in (11, 12):
        run = play_random_game(g, random.Random(seed), profile=profile, deep_every=1)
        assert run.result and run.result["winner"] in run.players


def test_the_document_is_readable() -> None:
    d = game().to_document(state(pawns={"red": [[4, 1], "step2"]}))
    assert list(d)[:3] == ["game", "players", "options"]
    assert d["pawns"]["red"] == [[4, 1], "step2"]
    assert d["hands"] == {"red": 3, "blue": 3}
    json.dumps(d)


def test_the_loader_lists_every_problem() -> None:
    bad = doc()
    bad["slots"] = ["COR01", "COR01", "AK", *bad["slots"][3:]]
    bad["pawns"] = {"red": [[4, 0], [4, 0]], "blue": [[0, 14], "step9"]}
    bad["phase"] = "dancing"
    bad["turn"] = "purple"
    bad["hands"] = {"red": 5, "blue": 3}
    bad["roll"] = {"value": 9, "colour": "red"}
    bad["winner"] = "green"
    bad["options"] = {"roll1_mode": "sideways"}
    with pytest.raises(InvalidPosition) as info:
        game().from_document(bad)
    problems = " | ".join(info.value.problems)
    for fragment in (
        "phase 'dancing'",
        "turn: 'purple' is not playing; players: red, blue",
        "card COR01 is in slot 1 and slot 2",
        "slot 3 holds the Ah Kinchil card",
        "red1 stands on a hole",
        "red2 and red1 share the space",
        "step9",
        "hands.red",
        "roll",
        "winner: 'green' is not playing; players: red, blue",
        "options",
    ):
        assert fragment in problems, fragment
    assert len(info.value.problems) >= 11


def test_the_loader_checks_card_totals_and_phase_coherence() -> None:
    bad = doc()
    bad["pile"] += 1
    with pytest.raises(InvalidPosition, match="cards do not add up"):
        game().from_document(bad)
    moving = doc(phase="move")
    with pytest.raises(InvalidPosition, match="needs this turn's roll"):
        game().from_document(moving)
    resolve = doc(phase="resolve", roll={"value": 3, "colour": "white"})
    with pytest.raises(InvalidPosition, match="tasks are pending exactly in phase resolve"):
        game().from_document(resolve)
    stuck = doc(phase="move", roll={"value": 3, "colour": "white"})
    with pytest.raises(InvalidPosition, match="no pawn of red can move"):
        game().from_document(stuck)
    over = doc(phase="over", winner="red")
    with pytest.raises(InvalidPosition, match="without both pawns"):
        game().from_document(over)


def test_the_loader_holds_the_roll_for_the_first_turn_to_what_rolling_leaves() -> None:
    """Each contender rolls once a round, in the order listed, and the last roll settles it (RU-5, RU-Q6): a
    contender listed twice crashed the referee (StopIteration) once the others had rolled, as did rolls from
    every contender; rolls out of order or a roll-off kept past the first player were loaded without a word."""
    three = ["red", "blue", "green"]
    cases = {
        "first_roll.contenders[3]: 'blue' is listed twice; each player rolls once a round (RU-5)":
            doc(players=three, phase="first_roll", first_roll={"contenders": [*three, "blue"], "rolls": []}),
        "first_roll.rolls: the contenders roll one each in the order listed (red, blue, green), so the rolls so "
        "far cannot be blue (RU-5)": doc(players=three, phase="first_roll",
                                         first_roll={"contenders": three, "rolls": [["blue", 4]]}),
        "first_roll.rolls: every contender has rolled, so the first player is known or a tie rolls again with "
        "the rolls cleared (RU-5, RU-Q6)": doc(phase="first_roll",
                                              first_roll={"contenders": ["red", "blue"],
                                                          "rolls": [["red", 4], ["blue", 2]]}),
        "first_roll: empty outside phase first_roll (phase roll), as the first player is known or not yet "
        "rolled for (RU-5)": doc(first_roll={"contenders": ["red", "blue"], "rolls": [["red", 4]]}),
    }
    for problem, document in cases.items():
        with pytest.raises(InvalidPosition) as info:
            game().from_document(document)
        assert info.value.problems == [problem]
    s = state(players=three, phase="first_roll", first_roll={"contenders": three, "rolls": [["red", 4]]})
    assert game().pending(s).player == "blue"


def test_describe_draws_the_board() -> None:
    lines = game().describe(state(pawns={"red": [[4, 1], "entrance"]}))
    assert any("R" in line for line in lines[1:16])
    assert any(line.lstrip("* ").startswith("red") for line in lines)
    assert not any(line.startswith("next:") for line in lines)  # the prompt under the board tells the player


def test_the_terminal_key_counts_the_steps_of_the_board_in_play(tmp_path: Path) -> None:
    """A café board with 4 red and 6 blue steps: the key said "1-3 final steps" whatever the board."""
    assert "1-3 final steps  C chamber" in game().describe(state())[16]
    board = json.loads((house_dir(TempleGame) / "board.json").read_text(encoding="utf-8"))
    board["colours"]["red"]["steps"]["cells"] = [[3, 3], [4, 3], [5, 4], [5, 5]]
    board["colours"]["blue"]["steps"]["cells"] = [[11, 3], [11, 4], [10, 4], [10, 5], [9, 5], [9, 6]]
    (tmp_path / "temple").mkdir()
    (tmp_path / "temple" / "board.json").write_text(json.dumps(board), encoding="utf-8")
    cafe = TempleGame(load_data(TempleGame, tmp_path))
    lines = cafe.describe(cafe.setup(["red", "blue"], cafe.resolve_options({})))
    assert "1-6 final steps (red 4, blue 6, green 3, yellow 3)  C chamber" in lines[16]
    assert lines[5][4:] == "###  3    32###"  # red's third step at [5, 4], blue's third and second at [10, 4], [11, 4]


def test_an_unknown_card_or_roll_says_what_it_could_be() -> None:
    """"slot 1 holds unknown card 'p01'" and "roll ... is not a face of the die" left the referee to look up the
    ids and the die's faces: the card most likely meant and every face are said."""
    g = game()
    bad = doc(phase="move", roll={"value": 9, "colour": "red"})
    card = bad["slots"][0]
    bad["slots"][0] = card.lower()
    bad["discard"] = [*bad.get("discard", []), "Q1"]
    with pytest.raises(InvalidPosition) as info:
        g.from_document(bad)
    problems = info.value.problems
    assert f"slot 1 holds '{card.lower()}', which is no card id; is it '{card}'?" in problems, problems
    assert "discard holds 'Q1', which is no card id" in problems, problems
    faces = ", ".join(f"{v} {c}" for v, c in g.outcomes)
    assert ('roll {"value": 9, "colour": "red"} is not a face of the die, {"value": v, "colour": c}; '
            f"faces: {faces}") in problems, problems
