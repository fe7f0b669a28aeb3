"""Position documents, the loader's problem list, data validation and the rulebook."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from companion.data import load_data, set_problems, validate_path
from companion.errors import InvalidData, InvalidPosition
from companion.game import normalize_action
from companion.games.ttd.rules import ThroughTheDesert
from companion.registry import create, game_classes
from tests.conformance import assert_document_round_trips
from tests.games.ttd.helpers import doc, house_game, options, patch_game, position

R, B = "red", "black"
ROOT = Path(__file__).resolve().parents[3]


def test_round_trip_in_every_phase() -> None:
    game = house_game()
    rng = random.Random(11)
    for profile in ("standard", "as-written"):
        state = game.setup([R, B, "orange"], options(game, profile))
        seen = set()
        while True:
            seen.add(state.phase)
            assert_document_round_trips(game, state)
            if game.pending(state).is_over:
                break
            state, _ = game.apply(state, normalize_action(game.sim_choose(state, game.legal_actions(state), rng)))
        assert seen == {"waterholes", "leaders", "camels", "over"}
        assert game.to_document(state)["profile"] == profile


def test_document_shape() -> None:
    game = patch_game()
    state = position(game, [R, B], [(1, 3, R, "pink", True), (5, 2, B, "pink", True)], values={(1, 1): 3})
    document = game.to_document(state)
    assert list(document)[:3] == ["game", "players", "options"]
    assert document["pieces"][0] == {"hex": [5, 2], "player": B, "colour": "pink", "leader": True}
    assert {"hex": [1, 1], "value": 3} in document["waterholes"]
    assert document["turn"] == R and document["phase"] == "camels"
    json.dumps(document)


def test_loader_lists_every_problem() -> None:
    game = patch_game()
    pieces = [
        (6, 0, R, "pink", True),  # on the mountain
        (1, 3, R, "green", True),
        (1, 3, B, "green", True),  # same hex twice
        (3, 3, "green", "pink", False),  # unknown player
        (2, 2, R, "yellow", False),  # yellow camel without a yellow leader
        (4, 4, R, "pink", False),  # pink caravan split from its leader
        (0, 5, R, "blue", True),
        (0, 6, B, "blue", True),  # touches red's blue leader
        (5, 4, R, "mauve", False),  # unknown colour
    ]
    document = doc(game, [R, B], pieces, phase="dancing", water={R: [3]})
    with pytest.raises(InvalidPosition) as bad:
        game.from_document(document)
    text = " | ".join(bad.value.problems)
    for fragment in (
        "phase: 'dancing'",
        "(6,0) is a mountain",
        "(1,3) already holds another piece",
        "pieces[3].player: 'green' is not playing; players: red, black",
        "yellow camels but no yellow leader",
        "pink camels form more than one caravan",
        "red's and black's blue pieces touch",
        "pieces[8].colour: unknown colour 'mauve'; colours: pink, green, yellow, blue, white",
        "water.red",
    ):
        assert fragment in text, fragment
    assert len(bad.value.problems) >= 9


def test_loader_rejects_positions_that_cannot_happen() -> None:
    game = patch_game()
    cases = {
        "every leader is in hand": doc(game, [R, B], [], phase="waterholes", leaders_in_hand={R: [], B: []}),
        "no value for": doc(game, [R, B], [(1, 3, R, "pink", True)], values={(1, 1): None}),
        "camel on the board before": doc(
            game,
            [R, B],
            [(1, 3, R, "pink", True), (2, 3, R, "pink", False)],
            phase="leaders",
            leaders_in_hand={R: ["green"], B: ["pink"]},
        ),
        "stands next to an oasis": doc(game, [R, B], [(4, 5, R, "pink", True)]),
        "is not listed": doc(game, [R, B], [(5, 3, R, "pink", True), (5, 4, R, "pink", False)], oases=[]),
        "a guide exists only": doc(game, [R, B], [(1, 3, R, "guide", True)]),
        "must say why": doc(game, [R, B], [(1, 3, R, "pink", True)], phase="over"),
        "not one of red's leaders": doc(game, [R, B], [], phase="leaders", leaders_in_hand={R: ["ochre"], B: []}),
        "turn: 'green' is not playing; players: red, black": doc(game, [R, B], [], turn="green"),
    }
    for fragment, document in cases.items():
        with pytest.raises(InvalidPosition) as bad:
            game.from_document(document)
        assert any(fragment in p for p in bad.value.problems), (fragment, bad.value.problems)


def test_loader_rejects_bad_players_and_options() -> None:
    game = patch_game()
    with pytest.raises(InvalidPosition):
        game.from_document({"game": "ttd", "players": ["red"]})
    document = doc(game, [R, B], [])
    document["options"]["area_by"] = "nobody"
    document["game"] = "ttt"
    with pytest.raises(InvalidPosition) as bad:
        game.from_document(document)
    assert any("area_by" in p for p in bad.value.problems) and any("game" in p for p in bad.value.problems)


def test_hand_written_position_may_leave_out_derived_fields() -> None:
    game = patch_game()
    document = doc(game, [R, B], [(5, 3, R, "pink", True), (5, 4, R, "pink", False)], values={(1, 1): 2})
    for key in ("leaders_in_hand",):
        document.pop(key)
    state = game.from_document(document)
    assert state.oases == {(0, 0, game.board(2).index[(5, 5)])}
    assert state.supply[0] == 21


def write(folder: Path, kind: str, content: dict) -> Path:
    path = folder / "ttd" / f"{kind}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(content), encoding="utf-8")
    return path


def test_house_data_validates() -> None:
    game_cls = game_classes()["ttd"]
    data = load_data(game_cls)
    assert set_problems(game_cls, data.files, data.sources) == []
    assert validate_path(ROOT / "companion" / "games" / "ttd" / "data", game_classes()) == []


def test_broken_cafe_board_is_reported(tmp_path: Path) -> None:
    board = json.loads((ROOT / "companion/games/ttd/data/board.json").read_text())
    board["cells"][0]["type"] = "mountain"
    board["cells"][0]["waterhole"] = True
    board["cells"][1] = dict(board["cells"][2])
    board["cells"][3]["region"] = "atlantis"
    board["cells"][4]["type"] = "lava"
    path = write(tmp_path, "board", board)
    with pytest.raises(InvalidData) as bad:
        load_data(ThroughTheDesert, tmp_path)
    assert any("lava" in p for p in bad.value.problems)
    board["cells"][4]["type"] = "sand"
    path = write(tmp_path, "board", board)
    with pytest.raises(InvalidData) as bad:
        load_data(ThroughTheDesert, tmp_path)
    text = " | ".join(bad.value.problems)
    assert "mountain cannot hold a water hole" in text
    assert "cells[2] (q 2, r 0): the same hex as cells[1]" in text
    assert "unknown region 'atlantis'" in text
    assert validate_path(path, game_classes())


def test_cross_file_problems(tmp_path: Path) -> None:
    write(
        tmp_path,
        "waterholes",
        {"game": "ttd", "kind": "waterholes", "schema": 1, "tokens": [{"id": "1", "value": 1, "count": 3}]},
    )
    camels = json.loads((ROOT / "companion/games/ttd/data/camels.json").read_text())
    del camels["supply_by_players"]["5"]
    write(tmp_path, "camels", camels)
    with pytest.raises(InvalidData) as bad:
        load_data(ThroughTheDesert, tmp_path)
    text = " | ".join(bad.value.problems)
    assert "water-hole sites with 2 players but only 3 tokens" in text
    assert "no entry for 5 players" in text


def test_every_cited_clause_exists_and_decisions_are_clauses() -> None:
    game = create("ttd")
    source = "\n".join(p.read_text() for p in (ROOT / "companion/games/ttd").glob("*.py"))
    cited = set(re.findall(r'"((?:TTD|TD)-[A-Za-z0-9]+)"', source))
    missing = sorted(c for c in cited if c not in game.rulebook)
    assert missing == []
    for spec in game.option_specs:
        assert spec.decision in game.rulebook


def test_rulebook_does_not_copy_the_rule_text() -> None:
    text_path = Path("/work/shared/rules/001_48280275fc6bc7ac.txt")
    if not text_path.exists():
        pytest.skip("the shared rule text is not on this machine")
    words = re.findall(r"[a-z0-9']+", text_path.read_text().lower())
    runs = {" ".join(words[i : i + 12]) for i in range(len(words) - 11)}
    game = create("ttd")
    for clause in game.rulebook.clauses:
        mine = re.findall(r"[a-z0-9']+", clause.text.lower())
        for i in range(len(mine) - 11):
            assert " ".join(mine[i : i + 12]) not in runs, clause.id


def test_a_cafe_names_the_colour_its_camels_are_drawn_in(tmp_path: Path) -> None:
    """A camel colour of the café's own box may say how to draw it; a slip in it is refused by name."""
    camels = json.loads((ROOT / "companion/games/ttd/data/camels.json").read_text())
    camels["colours"][0] = {"id": "lilac", "name": "lilac", "letter": "L", "colour": "#B57EDC"}
    path = write(tmp_path, "camels", camels)
    assert validate_path(path, game_classes()) == []
    assert load_data(ThroughTheDesert, tmp_path).files["camels"]["colours"][0]["colour"] == "#B57EDC"
    for bad_value, said in (
        ("lilac", "camels.json: colours[0] (id 'lilac').colour: 'lilac' is not a colour written #rrggbb"),
        ("#b57ed", "'#b57ed' is not a colour written #rrggbb"),
        ("#b57edg", "'#b57edg' is not a colour written #rrggbb"),
        (200, "colour: expected a colour written #rrggbb, found integer"),
    ):
        camels["colours"][0]["colour"] = bad_value
        write(tmp_path, "camels", camels)
        with pytest.raises(InvalidData) as bad:
            load_data(ThroughTheDesert, tmp_path)
        assert any(said in p for p in bad.value.problems), bad.value.problems
    camels["colours"][0]["colour"] = "#b57edc"
    camels["colours"][1]["colour"] = "#B57EDC"
    write(tmp_path, "camels", camels)
    with pytest.raises(InvalidData) as bad:
        load_data(ThroughTheDesert, tmp_path)
    assert "camels.json colours: 'lilac' (#b57edc) and 'green' (#b57edc) are drawn 0.0 apart" in " | ".join(
        bad.value.problems
    )


def test_a_camel_colour_drawn_like_a_rider_the_sand_or_another_camel_is_refused(tmp_path: Path) -> None:
    """Names were checked, drawing colours not: a camel #e02828 passed beside the red rider's #e62626.

    Each refusal names the file, the entry, both colours and their CIEDE2000 distance; nearby colours a
    café may really have (a lilac 14.4 from the purple rider) still pass.
    """
    house = json.loads((ROOT / "companion/games/ttd/data/camels.json").read_text())
    for colour, said in (
        (
            "#e02828",
            "camels.json: colours[0] (id 'rose').colour: '#e02828' is 1.2 from the red player's riders (#e62626) "
            "(CIEDE2000; the screen needs 10 or more): a red rider on such a camel, and such a camel among red's, "
            "cannot be told apart (TTD-1d, TTD-3b); choose another colour",
        ),
        ("#8c5a33", "'#8c5a33' is 0.5 from the brown player's riders (#8c5933)"),
        ("#1c1c1c", "'#1c1c1c' is 0.8 from the black player's riders (#1a1a1a)"),
        (
            "#b89a62",
            "camels.json: colours[0] (id 'rose').colour: '#b89a62' is 0.3 from the sand (#b89961) the camels "
            "stand on (CIEDE2000; the screen needs 10 or more): the camels would hardly show on the board",
        ),
        ("#f5f5f5", "'rose' (#f5f5f5) and 'white' (#fafafa) are drawn 1.0 apart"),
    ):
        camels = json.loads(json.dumps(house))
        camels["colours"][0] = {"id": "rose", "name": "rose", "letter": "R", "colour": colour}
        path = write(tmp_path, "camels", camels)
        with pytest.raises(InvalidData) as bad:
            load_data(ThroughTheDesert, tmp_path)
        assert any(said in p for p in bad.value.problems), bad.value.problems
        assert any(said in p for p in validate_path(path, game_classes())), colour
    camels = json.loads(json.dumps(house))
    camels["colours"][0] = {"id": "crimson", "name": "crimson", "letter": "C"}  # no colour: drawn the unknown grey
    camels["colours"][1] = {"id": "scarlet", "name": "scarlet", "letter": "S"}
    write(tmp_path, "camels", camels)
    with pytest.raises(InvalidData) as bad:
        load_data(ThroughTheDesert, tmp_path)
    assert bad.value.problems == [
        "camels.json colours: 'crimson' (#b2b2b2) and 'scarlet' (#b2b2b2) are drawn 0.0 apart (CIEDE2000; the "
        'screen needs 10 or more): the screen could not tell their caravans apart; give one a "colour" written '
        "#rrggbb further from the other"
    ]
    camels["colours"][0]["colour"] = "#b57edc"  # lilac: 14.4 from the purple rider, clearly another colour
    write(tmp_path, "camels", camels)
    assert load_data(ThroughTheDesert, tmp_path).files["camels"]["colours"][0]["colour"] == "#b57edc"


def test_each_camel_colour_shows_a_letter_of_its_own_on_the_text_board(tmp_path: Path) -> None:
    """A café's "plum" without a letter showed as P beside "pink" given none either; "l" passed beside "L"."""
    house = json.loads((ROOT / "companion/games/ttd/data/camels.json").read_text())
    for colours, said in (
        (
            [{"id": "pink", "name": "pink"}, {"id": "plum", "name": "plum"}],
            "camels.json colours: 'pink' and 'plum' both show as P on the text board",
        ),
        (
            [{"id": "lilac", "name": "lilac", "letter": "l"}, {"id": "lime", "name": "lime", "letter": "L"}],
            "camels.json colours: 'lilac' and 'lime' both show as L on the text board",
        ),
        (
            [{"id": "lilac", "name": "lilac", "letter": "LL"}, {"id": "lime", "name": "lime", "letter": "M"}],
            "camels.json: colours[0] (id 'lilac').letter: 'LL' must be one letter",
        ),
        (
            [{"id": "lilac", "name": "lilac", "letter": "ß"}, {"id": "lime", "name": "lime", "letter": "M"}],
            "camels.json: colours[0] (id 'lilac').letter: 'ß' must be one letter",
        ),
    ):
        camels = {**house, "colours": colours + house["colours"][2:]}
        write(tmp_path, "camels", camels)
        with pytest.raises(InvalidData) as bad:
            load_data(ThroughTheDesert, tmp_path)
        assert any(said in p for p in bad.value.problems), bad.value.problems
    camels = {**house, "colours": [{"id": "pink", "name": "pink"}, {"id": "plum", "name": "plum", "letter": "V"}]}
    camels["colours"] += house["colours"][2:]
    write(tmp_path, "camels", camels)
    assert validate_path(tmp_path, game_classes()) == []


def test_a_camel_colour_called_by_a_players_colour_is_refused_naming_file_camel_and_colour(tmp_path: Path) -> None:
    """A café's orange camels beside the Orange player: the owner's orange dot vanished on its orange camel."""
    house = json.loads((ROOT / "companion/games/ttd/data/camels.json").read_text())
    camels = {**house, "colours": [*house["colours"][:2], {"id": "orange", "name": "orange", "letter": "O"}]}
    camels["colours"] += [{"id": "sky", "name": "Purple", "letter": "P"}, house["colours"][4]]
    path = write(tmp_path, "camels", camels)
    found = validate_path(tmp_path, game_classes())
    rules = "(TTD-1d, TTD-3b); players are red, black, orange, purple, brown: call the camels by another colour"
    assert found == [
        f"ttd set (camels given): camels.json: colours[2] (id 'orange').id: 'orange' is also a player's (rider)"
        f" colour, and camel colours and player colours must stay apart on the board and in its texts {rules}",
        f"ttd set (camels given): camels.json: colours[3] (id 'sky').name: 'Purple' is also a player's (rider)"
        f" colour, and camel colours and player colours must stay apart on the board and in its texts {rules}",
    ], path
    with pytest.raises(InvalidData) as refused:  # and the table will not start the game on it either
        load_data(ThroughTheDesert, tmp_path)
    assert "colours[2] (id 'orange').id: 'orange' is also a player's (rider) colour" in refused.value.problems[0]


def test_loader_holds_a_turn_to_what_its_camels_and_passes_can_be() -> None:
    """A single-camel opening turn with its camel placed, passes beside a placed camel, or more camels than the
    opening round has placed, cannot come from play: loaded, the first asked for the "only camel" again and
    took two, the second ended the game before every seat had passed (TD-Q9, TTD-3f)."""
    game = patch_game()
    one = {"opening": "first_two_one"}
    red_camel = [(5, 3, R, "pink", True), (5, 4, R, "pink", False), (1, 3, B, "green", True)]
    cases = {
        "placed_this_turn: red places a single camel in the opening round (opening: first_two_one, TD-Q9), "
        "so with it placed the turn has passed to black": doc(game, [R, B], red_camel, placed=1, round=0, opts=one),
        "passes: 1, but red has placed a camel this turn, which ends a run of passes: it must be 0 (TTD-3f)": doc(
            game, [R, B], red_camel, placed=1, round=3, passes=1
        ),
        "round: 0 is the opening round, where the turns so far place at most 1 camels, but 2 are on the board "
        "(opening: first_two_one, TD-Q9)": doc(
            game, [R, B], [*red_camel, (5, 2, R, "pink", False)], turn=B, round=0, opts=one
        ),
    }
    for problem, document in cases.items():
        with pytest.raises(InvalidPosition) as bad:
            game.from_document(document)
        assert problem in bad.value.problems, bad.value.problems
    # What play does leave loads: red's opening camel placed and black to place one, or red's first of two.
    state = game.from_document(doc(game, [R, B], red_camel, turn=B, round=0, opts=one))
    assert game.pending(state).text.endswith("place your only camel this turn (opening round).")
    state = game.from_document(doc(game, [R, B], red_camel, placed=1, round=0))
    assert game.pending(state).text.endswith("place camel 2 of 2 this turn.")


def test_loader_refuses_water_hole_setup_with_every_value_entered_or_a_value_of_true() -> None:
    """Play ends the water-hole setup with its last value (TTD-1c): loaded with every site entered and the
    phase still "waterholes", the referee asked for a water hole past the last and offered nothing to enter.
    A value of JSON true was read as a token worth 1."""
    game = patch_game()
    document = doc(game, [R, B], [], phase="waterholes", leaders_in_hand=None)
    for i, site in enumerate(document["waterholes"]):
        site["value"] = 1 + i % 3
    with pytest.raises(InvalidPosition) as bad:
        game.from_document(document)
    assert bad.value.problems == [
        "phase: every water hole has its value, so setup is over and leader placement has begun "
        "(phase 'leaders', TTD-1c)"
    ]
    document["waterholes"][-1]["value"] = None
    state = game.from_document(document)
    assert game.legal_actions(state)
    document["waterholes"][0]["value"] = True
    with pytest.raises(InvalidPosition) as bad:
        game.from_document(document)
    assert [p for p in bad.value.problems if "waterholes[0]: value true is not a token value" in p]


def test_a_position_without_a_turn_is_refused_not_read_as_the_first_players() -> None:
    """Left out, "turn" was the first player's, whoever's turn it was at the table: the game went on with the
    wrong player, without a word. Blackpool and the temple refused it already; the fields that may be left out
    are those derived from the pieces, and the counts that start at 0."""
    game = patch_game()
    document = doc(game, [R, B], [(1, 3, R, "pink", True), (5, 2, B, "pink", True)], turn=B)
    assert game.from_document(document).player == B
    del document["turn"]
    with pytest.raises(InvalidPosition) as bad:
        game.from_document(document)
    assert bad.value.problems == ["turn: no player is named; players: red, black"]


def test_a_hex_is_named_by_its_field_and_a_missing_first_leader_says_what_to_write() -> None:
    """"pieces[0]: (6,9) is not on the board" named the piece, not its field; an oasis's hex was "oases[0]"; and
    "first_leaders.red: red has leaders on the board, so a first one" left the referee to guess the rest."""
    game = patch_game()
    document = doc(game, [R, B], [(9, 9, R, "pink", True), (5, 2, B, "pink", True)], first_leaders={R: None, B: "pink"},
                   oases=[{"player": R, "caravan": "pink", "oasis": [1.5, 5]}])
    with pytest.raises(InvalidPosition) as bad:
        game.from_document(document)
    for said in ("pieces[0].hex: (9,9) is not on the board",
                 "oases[0].oasis: expected [q, r], two whole numbers, found [1.5, 5]"):
        assert said in bad.value.problems, bad.value.problems
    document = doc(game, [R, B], [(1, 3, R, "pink", True), (5, 2, B, "pink", True)], first_leaders={R: None, B: "pink"})
    with pytest.raises(InvalidPosition) as bad:
        game.from_document(document)
    assert bad.value.problems == [
        "first_leaders.red: null, but red has leaders on the board, so one of them was placed first: name its colour"
    ]
