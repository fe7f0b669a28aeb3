"""House data is valid and a café's broken copy is caught with every fault named."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest

from companion.data import house_dir, load_data, validate_path
from companion.errors import InvalidData
from companion.games.temple.board import CELL_KINDS
from companion.games.temple.rules import TempleGame
from companion.registry import create, game_classes

HOUSE = house_dir(TempleGame)


def house(kind: str) -> dict:
    return json.loads((HOUSE / f"{kind}.json").read_text(encoding="utf-8"))


def test_house_data_is_valid_and_complete() -> None:
    assert validate_path(HOUSE, game_classes()) == []
    cards = house("cards")["cards"]
    assert len(cards) == 49 and len({c["id"] for c in cards}) == 49
    assert all(kind in CELL_KINDS for c in cards for row in c["cells"] for kind in row)
    die = house("die")["faces"]
    assert len(die) == 20 and {f["colour"] for f in die} == {"red", "white"}
    board = house("board")
    assert len(board["slots"]) == 12 and len(board["loop"]) == 56


def test_metadata_shows_the_house_die_and_every_option() -> None:
    meta = TempleGame.metadata()
    assert meta["dice"][0]["id"] == "d20" and len(meta["dice"][0]["faces"]) == 20
    decisions = {o["decision"] for o in meta["options"]}
    assert decisions == {
        "RU-Q6",
        "RU-Q7",
        "RU-Q8",
        "RU-Q10",
        "RU-Q12",
        "RU-Q13",
        "RU-Q16",
        "RU-Q17",
        "RU-Q21",
        "RU-Q23",
    }
    assert set(meta["profiles"]) == {"standard", "alternatives"}
    game = create("temple")
    for option in meta["options"]:
        assert option["decision"] in game.rulebook


def write_cafe(tmp_path: Path, kind: str, content: dict) -> Path:
    folder = tmp_path / "temple"
    folder.mkdir(exist_ok=True)
    (folder / f"{kind}.json").write_text(json.dumps(content), encoding="utf-8")
    return tmp_path


def test_a_broken_board_names_each_fault(tmp_path: Path) -> None:
    board = house("board")
    board["colours"]["red"]["wall"].append([[2, 0], [5, 5]])
    board["loop"].pop()  # the NW corner's last station disappears
    board["slots"][1]["origin"] = [4, 0]  # slot 2 now overlaps slot 1
    board["corners"][2]["cells"][1][1] = "path"  # no red Ah Kinchil marker any more
    with pytest.raises(InvalidData) as info:
        load_data(TempleGame, write_cafe(tmp_path, "board", board))
    text = " | ".join(info.value.problems)
    assert "overlaps slot 1" in text
    assert "missing from the loop" in text
    assert "exactly one red Ah Kinchil idol marker" in text


def test_a_broken_wall_is_named(tmp_path: Path) -> None:
    board = house("board")
    board["colours"]["red"]["wall"].append([[2, 0], [2, 2]])
    with pytest.raises(InvalidData, match="not side by side"):
        load_data(TempleGame, write_cafe(tmp_path, "board", board))


def test_a_board_without_a_colours_wall_is_refused(tmp_path: Path) -> None:
    """Only the wall makes a pawn go round: without it red's foot is a few steps from its entrance."""
    board = house("board")
    board["colours"]["red"]["wall"] = []
    with pytest.raises(InvalidData) as info:
        load_data(TempleGame, write_cafe(tmp_path, "board", board))
    assert info.value.problems == [
        "board.json: colours.red: the foot of the steps is only 4 steps from the entrance, "
        "so a pawn need not go round the temple; is a wall between them missing?"
    ]


def test_a_die_whose_numbers_are_all_zero_is_refused(tmp_path: Path) -> None:
    """A 0 moves no pawn (RU-10): such a die plays for ever, as a die of only X faces would."""
    die = house("die")
    for face in die["faces"]:
        if face["value"] != "X":
            face["value"] = 0
    with pytest.raises(InvalidData, match="no face shows a number from 1 to 7"):
        load_data(TempleGame, write_cafe(tmp_path, "die", die))


def test_a_die_without_a_red_face_is_refused_and_one_red_face_is_enough(tmp_path: Path) -> None:
    """Only a red roll changes a path card: on an all-white café die a path the opening cards block stays so."""
    die = house("die")
    for face in die["faces"]:
        face["colour"] = "white"
    with pytest.raises(InvalidData, match="no face is red, so no path card is ever changed"):
        load_data(TempleGame, write_cafe(tmp_path, "die", die))
    die["faces"][5]["colour"] = "red"
    assert load_data(TempleGame, write_cafe(tmp_path, "die", die)).files["die"] == die


@pytest.mark.parametrize("value", ["x", "3", 8, 2.5])
def test_a_die_face_that_is_neither_a_number_nor_x_says_what_is_allowed(value: object, tmp_path: Path) -> None:
    """ "expected an integer, found text" misled for "x", where the text "X" is allowed too."""
    die = house("die")
    die["faces"][4]["value"] = value
    problems = validate_path(write_cafe(tmp_path, "die", die), game_classes())
    where = tmp_path / "temple" / "die.json"
    assert problems == [f'{where}: faces[4].value: {value!r} is not a number from 0 to 7 or "X"']


def test_broken_cards_and_die_are_named(tmp_path: Path) -> None:
    cards = house("cards")
    cards["cards"][3]["cells"][1][1] = "lava"
    cards["cards"][4]["id"] = cards["cards"][5]["id"]
    die = house("die")
    die["faces"].pop()
    die["faces"][0]["colour"] = "blue"
    write_cafe(tmp_path, "cards", cards)
    write_cafe(tmp_path, "die", die)
    problems = validate_path(tmp_path, game_classes())
    text = " | ".join(problems)
    assert "'lava' is not one of" in text
    assert "appears twice" in text
    assert "at least 20 entries" in text
    assert "'blue' is not one of" in text


def test_an_ah_kinchil_id_clash_is_caught(tmp_path: Path) -> None:
    cards = house("cards")
    cards["ahKinchil"]["id"] = cards["cards"][0]["id"]
    with pytest.raises(InvalidData, match="Ah Kinchil card id"):
        load_data(TempleGame, write_cafe(tmp_path, "cards", cards))


def test_a_cafe_copy_of_the_house_set_loads(tmp_path: Path) -> None:
    shutil.copytree(HOUSE, tmp_path / "temple")
    data = load_data(TempleGame, tmp_path)
    assert data.sources["board"].endswith("board.json") and not data.sources["board"].startswith("house:")
    game = TempleGame(data)
    assert game.total_cards == 50


def refusals(tmp_path: Path, board: dict) -> list[str]:
    """What ``companion data validate`` says about a café folder holding this board (house files for the rest)."""
    return validate_path(write_cafe(tmp_path, "board", board), game_classes())


SET = "temple set (board given): board.json: "


@pytest.mark.parametrize("lap_start", [1, 2, 14, 53, 55])
def test_a_lap_start_away_from_the_wall_is_refused_with_the_station_it_must_be(lap_start: int, tmp_path: Path) -> None:
    """Progress counts from lapStart: anywhere else "behind" turns round part of the way along the lap."""
    board = house("board")
    board["colours"]["red"]["lapStart"] = lap_start
    problems = refusals(tmp_path, board)
    assert len(problems) == 1
    assert problems[0].startswith(
        f"{SET}colours.red.lapStart is {lap_start}; it must be 0, the first loop station past the red wall"
    )
    with pytest.raises(InvalidData, match=f"colours.red.lapStart is {lap_start}; it must be 0"):
        load_data(TempleGame, tmp_path)


def test_the_lap_start_message_names_the_step_where_the_count_would_jump(tmp_path: Path) -> None:
    board = house("board")
    board["colours"]["blue"]["lapStart"] = 15
    assert refusals(tmp_path, board) == [
        f"{SET}colours.blue.lapStart is 15; it must be 14, the first loop station past the blue wall, where a blue "
        "pawn's lap begins (counted from loop[15], a step from [14, 3] (loop[14]) to [14, 4] (loop[15]) would jump "
        "from the end of the lap to its start, and no blue wall stands there)"
    ]


def test_an_entrance_away_from_its_corner_is_refused(tmp_path: Path) -> None:
    """Red entering on slot 2 would have a card's worth of stations between its circles and its count's start."""
    board = house("board")
    board["colours"]["red"]["entrance"] = {"circle": [7, -1], "entry": [[6, 0], [7, 0], [8, 0]]}
    problems = refusals(tmp_path, board)
    assert problems == [
        f"{SET}colours.red.entrance.entry [{x}, 0] is {x - 3} loop stations past the red wall; entry cells must open "
        "onto the first 3 stations past it, loop[0] to loop[2]"
        for x in (6, 7, 8)
    ]
    with pytest.raises(InvalidData, match="is 3 loop stations past the red wall"):
        load_data(TempleGame, tmp_path)


def test_an_entrance_on_the_far_side_of_the_wall_is_refused(tmp_path: Path) -> None:
    board = house("board")
    board["colours"]["green"]["entrance"] = {"circle": [13, 15], "entry": [[13, 14]]}
    assert refusals(tmp_path, board) == [
        f"{SET}colours.green: the foot of the steps is only 4 steps from the entrance, so a pawn need not go round "
        "the temple; is a wall between them missing?"
    ]


def test_entry_cells_a_little_way_in_on_the_first_card_are_fine(tmp_path: Path) -> None:
    board = house("board")
    board["colours"]["red"]["entrance"]["entry"] = [[4, 0], [5, 0]]
    assert refusals(tmp_path, board) == []


def test_entrance_circles_away_from_their_entry_cells_are_refused(tmp_path: Path) -> None:
    """The circles are only drawn, but drawn far off (or over the ring) they show pawns where they are not."""
    board = house("board")
    board["colours"]["red"]["entrance"]["circle"] = [10, -1]
    board["colours"]["yellow"]["entrance"]["circle"] = [1, 10]
    assert refusals(tmp_path, board) == [
        f"{SET}colours.red.entrance.circle [10, -1] is not beside any of its entry cells ([3, 0], [4, 0], [5, 0]); "
        "it must be just off the board's edge, next to one of them",
        f"{SET}colours.yellow.entrance.circle [1, 10] is not beside any of its entry cells ([0, 11], [0, 10], "
        "[0, 9]); it must be just off the board's edge, next to one of them",
    ]


def swap_stations(board: dict) -> None:
    board["loop"][5], board["loop"][6] = board["loop"][6], board["loop"][5]


def merge_stations(board: dict) -> None:
    board["loop"][4:6] = [board["loop"][4] + board["loop"][5]]


def split_station(board: dict) -> None:
    board["loop"][4:5] = [[cell] for cell in board["loop"][4]]


def reverse_loop(board: dict) -> None:
    board["loop"].reverse()


def open_wall(board: dict) -> None:
    board["colours"]["red"]["wall"].pop(1)


def copy_colour(board: dict) -> None:
    board["colours"]["blue"] = json.loads(json.dumps(board["colours"]["red"]))


def steps_on_the_ring(board: dict) -> None:
    board["colours"]["green"]["steps"]["cells"][0] = [11, 12]


def chamber_off_the_board(board: dict) -> None:
    board["chamber"] = [7, 17]


@pytest.mark.parametrize(
    ("mistake", "said"),
    [
        (swap_stations, "loop[5] [[9, 0], [9, 1], [9, 2]] does not follow loop[4] along the ring"),
        (merge_stations, "loop[4] holds [7, 0] and [8, 0], one after the other along a lane"),
        (split_station, "loop[5] [[7, 1]] does not follow loop[4] along the ring"),
        (reverse_loop, "loop goes round anticlockwise; list its stations clockwise"),
        (open_wall, "colours.red: the foot of the steps is only 4 steps from the entrance"),
        (copy_colour, "colours.blue.steps.foot [2, 2] is red's too; each colour has its own"),
        (steps_on_the_ring, "colours.green.steps.cells [11, 12] must be a cell inside the ring"),
        (chamber_off_the_board, "the chamber [7, 17] is off the 15x15 board"),
    ],
)
def test_other_cafe_slips_in_the_board_are_refused(mistake: object, said: str, tmp_path: Path) -> None:
    """Each of these was accepted before and refereed a different board from the café's, without a word."""
    board = house("board")
    mistake(board)  # type: ignore[operator]
    problems = refusals(tmp_path, board)
    assert any(p.startswith(SET + said) for p in problems), problems


def test_a_duplicated_slot_and_a_card_id_used_twice_are_refused(tmp_path: Path) -> None:
    board = house("board")
    board["slots"][4]["slot"] = 4  # slot 5's entry now also says slot 4
    cards = house("cards")
    cards["cards"][9]["id"] = "P03"
    write_cafe(tmp_path, "cards", cards)
    problems = refusals(tmp_path, board)
    where = tmp_path / "temple"
    assert problems == [
        f"{where / 'board.json'}: slots[4] (slot 4): slot 4 appears twice",
        f"{where / 'cards.json'}: cards[9] (id 'P03'): id 'P03' appears twice",
    ]


def test_a_die_face_or_card_the_temple_does_not_have_cites_what_is_on_the_table() -> None:
    """A sensor's red 21 or an unknown card id is refused with RU-2, the clause that lists the die and deck."""
    from companion.errors import InvalidAction
    from companion.session import Session

    session = Session.new("temple", ["red", "blue"])
    with pytest.raises(InvalidAction) as unknown_card:
        session.act({"type": "draw", "deck": "path", "card": "P99"})
    assert unknown_card.value.rule == "RU-2"
    while session.pending().kind != "roll":
        session.act(session.legal()[0])
    for roll in ({"type": "roll", "value": 21, "face": {"colour": "red"}}, {"type": "roll", "value": 3}):
        with pytest.raises(InvalidAction) as refusal:
            session.act(roll)
        assert refusal.value.rule == "RU-2", refusal.value.message


def test_an_x_breaks_the_first_player_tie_on_a_die_whose_numbers_are_all_one_value(tmp_path: Path) -> None:
    """Thrown again (first_roll_x reroll), an X left every first-player roll on a die of 7s and Xs a tie
    of 7s for ever: 17 of 30 random games never began. There an X counts lowest, as RU-Q6 ranks it."""
    die = house("die")
    for face in die["faces"]:
        if face["value"] != "X":
            face["value"] = 7
    game = create("temple", write_cafe(tmp_path, "die", die))
    state = game.setup(["red", "blue"], game.resolve_options({}, "alternatives"))
    while state.phase == "assembly":
        state, _ = game.apply(state, game.legal_actions(state)[0])
    for value in (7, 7, "X"):  # a tie of 7s, then red's X
        state, events = game.apply(state, {"type": "roll", "value": value, "face": {"colour": "white"}})
    assert "every number on this die is a 7, so only an X can break a tie" in events[0].text
    assert events[0].rules == ("RU-5", "RU-Q6")
    state, _ = game.apply(state, {"type": "roll", "value": 7, "face": {"colour": "white"}})
    assert state.phase == "roll" and state.current == "blue"


def test_an_x_is_still_thrown_again_where_the_die_has_numbers_that_can_break_a_tie(tmp_path: Path) -> None:
    game = create("temple", write_cafe(tmp_path, "die", house("die")))
    state = game.setup(["red", "blue"], game.resolve_options({}, "alternatives"))
    while state.phase == "assembly":
        state, _ = game.apply(state, game.legal_actions(state)[0])
    after, events = game.apply(state, {"type": "roll", "value": "X", "face": {"colour": "white"}})
    assert after == state and "does not count: roll again" in events[0].text


def red_steps(*cells: list[int]) -> object:
    def edit(board: dict) -> None:
        board["colours"]["red"]["steps"]["cells"] = [list(c) for c in cells]

    return edit


def blue_step_on_reds(board: dict) -> None:
    board["colours"]["blue"]["steps"]["cells"] = [[11, 3], [10, 4], [5, 5]]


def hole_under_reds_foot(board: dict) -> None:
    board["corners"][0]["cells"][2][2] = "hole"  # corner NW, origin [0, 0]: the cell [2, 2]


def reds_steps_reversed(board: dict) -> None:
    board["colours"]["red"]["steps"]["cells"].reverse()


STEPS = "colours.red.steps"


@pytest.mark.parametrize(
    ("mistake", "said"),
    [
        (
            red_steps([3, 3], [5, 5], [4, 4]),
            [
                f"{STEPS}.cells [5, 5] (step 2) does not touch step 1 [3, 3]; each step must be next to the one below "
                "it (side or corner): move it, or add the steps between",
                f"{STEPS}.cells [4, 4] (step 3, the top one) is not next to the Treasure Chamber, drawn over [6, 6] "
                "to [8, 8] round [7, 7]; the top step must touch it (side or corner): move it, or add the steps "
                "between",
            ],
        ),
        (
            red_steps([4, 4], [5, 5]),
            [
                f"{STEPS}.cells [4, 4] (step 1) does not touch the foot [2, 2]; each step must be next to the one "
                "below it (side or corner): move it, or add the steps between"
            ],
        ),
        (
            reds_steps_reversed,
            [
                f"{STEPS}.cells are listed from the chamber down ([5, 5] first, [3, 3] beside the foot [2, 2] last); "
                "list them bottom first, from the foot up, as a pawn climbs them"
            ],
        ),
        (
            red_steps([3, 3], [4, 4], [5, 25]),
            [
                f"{STEPS}.cells [5, 25] (step 3) is off the 15x15 board; steps are drawn inside the ring, from the "
                "foot [2, 2] to the Treasure Chamber"
            ],
        ),
        (
            red_steps([3, 3], [4, 4], [5, 5], [6, 6]),
            [
                f"{STEPS}.cells [6, 6] (step 4) lies under the Treasure Chamber, drawn over [6, 6] to [8, 8] round "
                "[7, 7], which would hide it; end the steps on a cell next to the chamber"
            ],
        ),
        (
            red_steps([3, 3], [4, 4], [4, 4], [5, 5]),
            [f"{STEPS}.cells [4, 4] is step 2 and step 3; give each step a cell of its own"],
        ),
        (
            blue_step_on_reds,
            [
                "colours.blue.steps.cells [5, 5] (step 3) is red's step 3 too; two colours' steps cannot share a "
                "cell: give each colour its own"
            ],
        ),
        (
            hole_under_reds_foot,
            [
                f"{STEPS}.foot [2, 2] is a hole (corners[0] (corner NW) cells[2][2]), so a red pawn could never "
                "reach its steps (RU-15); make that cell path, or put the foot on a path cell of the ring's inner lane"
            ],
        ),
    ],
    ids=["gap", "first-step-off-foot", "top-first", "off-board", "under-chamber", "one-cell-twice", "shared", "hole"],
)
def test_final_steps_that_are_not_one_stairway_from_foot_to_chamber_are_refused(
    mistake: object, said: list[str], tmp_path: Path
) -> None:
    """The referee climbs the steps in the order listed; the screen draws them where listed: the two must agree.

    Each of these was valid before: the table then showed steps with gaps, steps running down into the
    ring, a step hidden by the chamber, one cell for two steps, or a foot no pawn could stand on.
    """
    board = house("board")
    mistake(board)  # type: ignore[operator]
    assert refusals(tmp_path, board) == [SET + s for s in said]
    with pytest.raises(InvalidData, match="steps"):
        load_data(TempleGame, tmp_path)


@pytest.mark.parametrize(
    "cells",
    [
        [[3, 3], [4, 3], [5, 4], [5, 5]],  # a bend
        [[3, 3], [4, 3], [5, 3], [5, 4], [5, 5]],  # side by side, round a corner
        [[3, 3], [3, 4], [4, 4], [4, 5], [5, 5], [5, 6]],  # six steps, the top one beside the chamber's edge
        [[3, 3], [4, 4], [5, 5], [6, 5]],  # along the chamber's edge to its top step
    ],
)
def test_odd_but_unbroken_final_steps_are_accepted(cells: list[list[int]], tmp_path: Path) -> None:
    board = house("board")
    board["colours"]["red"]["steps"]["cells"] = cells
    assert refusals(tmp_path, board) == []


def _nw_cut_off_from_slot_1(board: dict) -> dict:
    """The NW corner's column next to slot 1 printed as holes, red's foot moved onto slot 12's inner lane (so
    no foot is on a hole): only red, whose lap ends before the corner, could still finish."""
    board["corners"][0]["cells"] = [["path", "path", "hole"], ["path", "idol:green", "hole"], ["path", "path", "hole"]]
    board["colours"]["red"]["steps"]["foot"] = [2, 3]
    return board


def test_printed_corner_holes_that_cut_the_ring_are_refused_by_data_validate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A corner's printed holes never change (RU-H3), but the lap check walked every cell as path: a café
    board whose NW corner cut the ring validated, and no blue, green or yellow pawn could ever finish."""
    from companion.cli import main

    assert main(["data", "template", "temple", str(tmp_path)]) == 0
    folder = tmp_path / "temple"
    board = _nw_cut_off_from_slot_1(json.loads((folder / "board.json").read_text()))
    (folder / "board.json").write_text(json.dumps(board))
    capsys.readouterr()
    assert main(["data", "validate", str(folder)]) == 1
    out = capsys.readouterr().out
    for colour, foot in (("blue", [12, 2]), ("green", [12, 12]), ("yellow", [2, 12])):
        assert (f"colours.{colour}: the holes printed on corner NW leave a {colour} pawn no way from its entrance "
                f"round to the foot of its steps {foot}, whatever cards lie in the slots (RU-H3)") in out, out
    assert "colours.red:" not in out


def test_printed_corner_holes_beside_the_way_round_are_fine_and_never_walked_on(tmp_path: Path) -> None:
    """A café printing with holes in the outer corner spaces plays: a pawn is refused there with the corner's
    clause, saying the hole is printed (it read as any card's hole, to wait for a card change)."""
    from companion.places import explain_place
    from companion.session import Session

    board = house("board")
    board["corners"][0]["cells"][0][0] = "hole"  # [0, 0]
    board["corners"][1]["cells"][0][2] = "hole"  # [14, 0]
    assert refusals(tmp_path, board) == []
    session = Session.new("temple", ["red", "blue"], cafe_dir=tmp_path)
    rng = random.Random(3)
    while session.state.phase != "move":
        session.act(session.game.sim_choose(session.state, session.legal(), rng))
    ruling = explain_place(session, (14, 0))
    assert not ruling.legal and ruling.rules == ("RU-H3",), ruling
    assert "[14,0] (corner) is a hole printed on the board, never covered by a card" in ruling.text, ruling.text
    assert "RU-H3" in session.game.rulebook  # the clause a referee looks up


def test_an_entry_cell_on_a_printed_hole_is_refused(tmp_path: Path) -> None:
    board = house("board")
    board["corners"][0]["cells"][0][2] = "hole"  # [2, 0], NW corner
    board["colours"]["red"]["entrance"]["entry"] = [[2, 0], [3, 0]]
    said = ("board.json: colours.red.entrance.entry [2, 0] is a hole (corners[0] (corner NW) cells[0][2]), so no "
            "red pawn could ever step onto it from the Entrance Circles (RU-H3); make that cell path, or leave it out")
    assert any(said in problem for problem in refusals(tmp_path, board))
