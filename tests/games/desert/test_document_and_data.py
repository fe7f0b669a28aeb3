"""Position documents, the loader's list of problems, and the data files a café may replace."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from companion.data import house_dir, load_data, set_problems, validate_path
from companion.errors import InvalidData, InvalidPosition
from companion.games.desert import DesertRace
from companion.games.desert.board import COLLECTION_CARDS, MYSTERY_CARDS, NAMED_SAFE, SPACE_TYPES
from companion.registry import create, game_classes
from companion.simulate import play_random_game
from tests.conformance import assert_document_round_trips
from tests.games.desert.helpers import A, B, game_b, position

HOUSE = create("desert")


def test_house_board_holds_everything_the_issue_asks_for() -> None:
    spaces = HOUSE.board.spaces
    assert 38 <= len(spaces) <= 42
    assert {s.type for s in spaces} == set(SPACE_TYPES)
    assert {s.name for s in spaces if s.type == "safe"} >= set(NAMED_SAFE)
    challenges = [s.challenge for s in spaces if s.challenge is not None]
    assert len({(c.pred, c.k, c.values) for c in challenges}) >= 5
    assert sum(1 for s in spaces if s.is_guardian) == 1
    assert sum(1 for s in spaces if s.type == "secret_passage") == 1
    cards = HOUSE.data["cards"]
    assert set(cards["collection"]) == set(COLLECTION_CARDS) and set(cards["mystery"]) == set(MYSTERY_CARDS)
    assert all(n > 0 for deck in ("collection", "mystery") for n in cards[deck].values())


def test_house_data_validates() -> None:
    assert validate_path(house_dir(DesertRace), game_classes()) == []


def test_a_cafe_board_without_the_seven_named_safe_spaces_is_warned_of_and_still_plays(tmp_path: Path) -> None:
    """Nothing checked that a café's board names the seven safe spaces of DR-7 (DR-Q33 leaves only where they lie
    to the board): a misspelt "Pharoah's Tomb", or a named space given another type, went unsaid while each landing
    on a safe space cited DR-7. Warned of, not refused: a space plays as its type says, and DECISIONS.md's own test
    board B has safe spaces called only "Safe". The house board, and its names with curly apostrophes, warn of
    nothing."""
    folder = tmp_path / "desert"
    folder.mkdir()
    house = json.loads((house_dir(DesertRace) / "board.json").read_text(encoding="utf-8"))
    for space in house["spaces"]:
        space["name"] = space["name"].replace("'", "\u2019")  # "Pyramid’s Base", as a printed board spells it
    (folder / "board.json").write_text(json.dumps(house), encoding="utf-8")
    warnings: list[str] = []
    assert validate_path(folder, game_classes(), warnings) == [] and warnings == []
    for space in house["spaces"]:
        if space["id"] == "pharaohs_tomb":
            space["name"] = "Pharoah's Tomb"
        if space["id"] == "golden_dune":
            space["type"], space["colour"] = "mystery", "blue"
    (folder / "board.json").write_text(json.dumps(house), encoding="utf-8")
    assert validate_path(folder, game_classes(), warnings) == []  # still valid: a warning refuses nothing
    board = folder / "board.json"
    assert warnings == [
        f"{board}: spaces[9] ('golden_dune'): 'Golden Dune' is one of the seven safe spaces the rules name (DR-7), "
        "but its type is 'mystery'; it plays as that type, and a landing there is not ruled safe",
        f"{board}: no space is named Pharaoh's Tomb, of the seven safe spaces the rules name (DR-7; the board places "
        "them, DR-Q33); its safe spaces named otherwise: \"Pharoah's Tomb\". It plays as its types say, but a landing "
        "on a safe space cites DR-7, which names the seven: name them as the rules do"]
    assert create("desert", tmp_path).data.warnings == tuple(warnings)  # the table's status line says it too
    (folder / "board.json").write_text(json.dumps(game_b().data["board"]), encoding="utf-8")
    warnings.clear()
    assert validate_path(folder, game_classes(), warnings) == [] and len(warnings) == 1
    assert "no space is named Golden Dune, Hidden Oasis, Pyramid's Base, Pharaoh's Tomb, Diamond Oasis or Jewel " \
           "of the Desert" in warnings[0] and "'Safe 8', 'Safe 11', 'Safe 13'" in warnings[0]


def test_document_round_trips_through_random_play() -> None:
    rng = random.Random(3)
    game = HOUSE
    state = game.setup([A, B, "teal"], game.resolve_options({}, "house-variant"))
    for _ in range(300):
        assert_document_round_trips(game, state)
        if game.pending(state).is_over:
            break
        state, _ = game.apply(state, {k: v for k, v in game.sim_choose(state, game.legal_actions(state), rng).items()
                                      if k != "text"})


def test_a_pile_left_out_is_derived_from_the_box() -> None:
    game = game_b()
    state = position(game, {A: {"items": ["golden_compass"]}})
    assert state.collection[COLLECTION_CARDS.index("golden_compass")] == 2


def test_loader_names_every_problem() -> None:
    game = game_b()
    doc = game.to_document(position(game, {}))
    doc["pieces"][A].update(space="nowhere", lives=12, items=["magic_carpet"])
    doc["pieces"][B].update(lives=0)
    doc["options"]["attempts_per_turn"] = 2
    doc["step"] = {"kind": "roll", "mode": "fly"}
    doc["turn"] = "orange"
    with pytest.raises(InvalidPosition) as caught:
        game.from_document(doc)
    problems = " | ".join(caught.value.problems)
    for fragment in ("pieces.black.space", "pieces.black.lives", "pieces.black.items", "options.attempts_per_turn",
                     "step.mode", "turn"):
        assert fragment in problems, fragment
    doc = game.to_document(position(game, {}))
    doc["pieces"][B]["lives"] = 0
    doc["collection"]["pile"]["desert_flask"] = 9
    with pytest.raises(InvalidPosition) as caught:
        game.from_document(doc)
    assert len(caught.value.problems) == 2


def test_impossible_steps_are_named() -> None:
    game = game_b()
    doc = game.to_document(position(game, {A: {"space": 1}}))
    doc["step"] = {"kind": "roll", "mode": "attempt"}
    with pytest.raises(InvalidPosition, match="challenge"):
        game.from_document(doc)
    doc["step"] = {"kind": "cloak"}
    with pytest.raises(InvalidPosition, match="mirage_cloak"):
        game.from_document(doc)


def test_a_step_carrying_a_field_its_kind_never_has_is_refused() -> None:
    """Play leaves each step kind only the fields it reads: an end-of-turn step with an attempt's mode was
    loaded and ruled on as if facing a challenge (a Sunshield there was refused as not working on the
    Guardian's Test), and a Sunshield question's mode accepted any word."""
    game = game_b()
    doc = game.to_document(position(game, {A: {"space": "guardian", "items": ["sunshield_amulet"]}}, {"kind": "end"}))
    cases = {
        "step.mode: an end step has no mode, found 'attempt' (DR-3, DR-11)": {"kind": "end", "mode": "attempt"},
        "step.value: an offer step has no value, found 4 (DR-13, DR-Q4)": {"kind": "offer", "value": 4},
        "step.trading: a roll step has no trading, found true (DR-4, DR-13)":
            {"kind": "roll", "mode": "attempt", "trading": True},
        "step.rolls: a save step has no rolls, found [3] (DR-23)":
            {"kind": "save", "victim": A, "actor": B, "rolls": [3]},
        "step.mode: a shield step's mode is '' or 'doubled', found 'fly' (DR-19)":
            {"kind": "shield", "mode": "fly", "value": 2},
    }
    for problem, step in cases.items():
        doc["step"] = step
        with pytest.raises(InvalidPosition) as caught:
            game.from_document(doc)
        assert problem in caught.value.problems, caught.value.problems
    # The fields a kind reads, and the defaults of those it does not, still load (one attempt made: DR-Q5).
    doc["tried"] = 1
    for step in ({"kind": "end", "trading": True, "mode": "", "value": 0, "rolls": []},
                 {"kind": "shield", "mode": "doubled", "value": 2}):
        doc["step"] = step
        assert game.from_document(doc).step.kind == step["kind"]


def test_attempts_made_this_turn_are_held_to_attempts_per_turn_dr_q5() -> None:
    """A turn makes at most attempts_per_turn attempts (DR-Q5): an attempt roll awaited after the last of them
    was loaded and taken as one attempt more than the turn allows."""
    game = game_b()
    doc = game.to_document(position(game, {A: {"space": "c4", "failures": 1}}, {"kind": "roll", "mode": "attempt"},
                                    options={"attempts_per_turn": 3}))
    doc["tried"] = 3
    with pytest.raises(InvalidPosition) as caught:
        game.from_document(doc)
    assert caught.value.problems == ["tried: 3 attempts made this turn leave no attempt roll to wait for "
                                     "(attempts_per_turn 3, DR-Q5)"]
    doc["tried"] = 4
    doc["step"] = {"kind": "end"}
    with pytest.raises(InvalidPosition) as caught:
        game.from_document(doc)
    assert caught.value.problems == ["tried: 4 attempts made this turn, but a turn has at most 3 "
                                     "(attempts_per_turn, DR-Q5)"]
    doc["tried"] = 2
    doc["step"] = {"kind": "roll", "mode": "attempt"}
    assert game.from_document(doc).tried == 2
    doc["step"] = {"kind": "offer"}
    doc["pieces"][A]["failures"] = 0
    with pytest.raises(InvalidPosition) as caught:
        game.from_document(doc)
    assert caught.value.problems == ["tried: 2, but an offer to attempt comes on landing, before any attempt at this "
                                     "challenge: it must be 0 (DR-13, DR-Q4)"]
    doc["tried"] = 0
    doc["pieces"][A]["items"] = ["sunshield_amulet"]
    doc["collection"]["pile"]["sunshield_amulet"] -= 1
    doc["step"] = {"kind": "shield", "value": 2}
    with pytest.raises(InvalidPosition) as caught:
        game.from_document(doc)
    assert caught.value.problems == ["tried: 0, but a shield step decides an attempt rolled this turn, so at least 1 "
                                     "(DR-Q5)"]
    doc["tried"] = 1
    assert game.from_document(doc).step.kind == "shield"


def _cafe(tmp_path: Path, kind: str, content: object) -> Path:
    folder = tmp_path / "desert"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{kind}.json").write_text(json.dumps(content), encoding="utf-8")
    return tmp_path


def test_broken_board_is_caught(tmp_path: Path) -> None:
    board = json.loads((house_dir(DesertRace) / "board.json").read_text(encoding="utf-8"))
    board["spaces"][5]["challenge"] = {"pred": "gte", "k": 9}
    board["spaces"][7]["type"] = "secret_passage"
    board["spaces"][3]["index"] = 30
    del board["spaces"][11]["challenge"]
    with pytest.raises(InvalidData) as caught:
        load_data(DesertRace, _cafe(tmp_path, "board", board))
    text = " | ".join(caught.value.problems)
    assert "'k' from 1 to 6" in text and "exactly one space of type 'secret_passage'" in text
    assert "index 30" in text and "needs a 'challenge'" in text
    assert validate_path(tmp_path / "desert" / "board.json", game_classes())


def test_a_board_without_a_collection_space_is_refused(tmp_path: Path) -> None:
    """The Golden Compass is drawn only on a red space: without one the race can never be won, and random
    play of such a board ran 20 000 actions without a winner."""
    board = json.loads((house_dir(DesertRace) / "board.json").read_text(encoding="utf-8"))
    for space in board["spaces"]:
        if space["type"] == "collection":
            space["type"] = "mystery"  # a red space transcribed as blue, every time
    cafe = _cafe(tmp_path, "board", board)
    with pytest.raises(InvalidData, match="at least one space of type 'collection'"):
        load_data(DesertRace, cafe)
    assert any("nobody can take a Golden Compass" in p for p in validate_path(cafe, game_classes()))


def test_broken_cards_are_caught(tmp_path: Path) -> None:
    cards = json.loads((house_dir(DesertRace) / "cards.json").read_text(encoding="utf-8"))
    cards["collection"]["golden_compass"] = 0
    del cards["mystery"]["dune_shift"]
    cards["mystery"]["sand_worm"] = 2
    files = dict(load_data(DesertRace).files, cards=cards)
    problems = set_problems(DesertRace, files, {"cards": "cards.json"})
    assert any("sand_worm" in p for p in problems)
    del cards["mystery"]["sand_worm"]
    problems = set_problems(DesertRace, files, {"cards": "cards.json"})
    assert any("dune_shift" in p for p in problems) and any("nobody can ever win" in p for p in problems)


def test_a_cafe_board_replaces_the_house_board(tmp_path: Path) -> None:
    data = load_data(DesertRace, _cafe(tmp_path, "board", game_b().data["board"]))
    assert DesertRace(data).board.size == 16
    assert data.sources["board"].endswith("board.json") and not data.sources["board"].startswith("house:")


@pytest.mark.parametrize("profile", sorted(DesertRace.profiles))
def test_every_profile_plays_to_the_end(profile: str) -> None:
    for seed in range(3):
        run = play_random_game(HOUSE, random.Random(seed), profile=profile, deep_every=1)
        assert run.result is not None


def test_every_clause_named_in_the_code_is_in_the_rulebook() -> None:
    import re

    source = "".join(p.read_text(encoding="utf-8") for p in (house_dir(DesertRace).parent).glob("*.py"))
    cited = set(re.findall(r'"(DR-[A-Z0-9]+)"', source))
    assert cited and all(c in HOUSE.rulebook for c in cited), sorted(c for c in cited if c not in HOUSE.rulebook)
    decisions = {o.decision for o in DesertRace.option_specs}
    assert all(d in HOUSE.rulebook for d in decisions)


def test_a_guardian_that_does_not_demand_a_six_is_refused(tmp_path: Path) -> None:
    """DR-15: only the Guardian's Test escapes the three-try limit, and it is passed only with a 6.

    The engine knows the Guardian by its missing attempt limit, so a challenge with no limit that a 5
    could pass would be a Guardian the rules forbid (and the refusal would read "needs a 5").
    """
    board = json.loads((house_dir(DesertRace) / "board.json").read_text(encoding="utf-8"))
    guardian = next(s for s in board["spaces"] if s["id"] == "guardians_test")
    guardian["challenge"] = {"pred": "gte", "k": 5, "attemptLimit": None}
    cafe = _cafe(tmp_path, "board", board)
    with pytest.raises(InvalidData, match="Guardian's Test") as caught:
        load_data(DesertRace, cafe)
    assert any("guardians_test" in p and "only with a 6" in p for p in caught.value.problems)
    guardian["challenge"] = {"pred": "in", "values": [6], "attemptLimit": None}  # still exactly a 6
    load_data(DesertRace, _cafe(tmp_path, "board", board))


def test_a_space_colour_drawn_like_a_pawn_or_the_screen_is_refused(tmp_path: Path) -> None:
    """A café's ``#rrggbb`` was checked for its spelling only: a teal space hid the teal pawn, a near-black one itself.

    The refusal names the space, both colours and their CIEDE2000 distance; the deep purple of a café's printed
    Mystery spaces (15.2 from the purple pawn) still passes.
    """
    house = json.loads((house_dir(DesertRace) / "board.json").read_text(encoding="utf-8"))
    mystery = next(i for i, s in enumerate(house["spaces"]) if s["type"] == "mystery")
    for colour, said in (
        (
            "#009a9a",
            f"board.json spaces[{mystery}] ('shifting_sands').colour: '#009a9a' is 1.3 from the teal player's pawn "
            "(#009e9e) (CIEDE2000; the screen needs 10 or more): a teal pawn on that space could not be seen; "
            "choose a colour further from teal",
        ),
        (
            "#141414",
            f"board.json spaces[{mystery}] ('shifting_sands').colour: '#141414' is 3.4 from the screen's background "
            "(#121217) (CIEDE2000; the screen needs 10 or more): the space would not show on the drawn loop; "
            "choose a lighter colour",
        ),
    ):
        board = json.loads(json.dumps(house))
        board["spaces"][mystery]["colour"] = colour
        with pytest.raises(InvalidData) as caught:
            load_data(DesertRace, _cafe(tmp_path, "board", board))
        assert said in caught.value.problems
        assert f"desert set (board given): {said}" in validate_path(tmp_path / "desert", game_classes())
    board = json.loads(json.dumps(house))
    board["spaces"][mystery]["colour"] = "#6a1b9a"
    loaded = load_data(DesertRace, _cafe(tmp_path, "board", board))
    assert loaded.files["board"]["spaces"][mystery]["colour"] == "#6a1b9a"


def test_a_roll_off_roll_out_of_range_is_named_by_its_place_in_the_list() -> None:
    """"step.rolls: 9 is outside 1..6" left the referee to find which of the rolls it was."""
    game = create("desert")
    document = json.loads(json.dumps(game.to_document(game.setup(["black", "pink", "teal"], game.resolve_options({})))))
    assert document["step"]["kind"] == "rolloff"
    document["step"]["rolls"] = [4, 9]
    with pytest.raises(InvalidPosition) as bad:
        game.from_document(document)
    assert "step.rolls[1]: 9 is outside 1..6" in bad.value.problems, bad.value.problems


def test_players_and_spaces_are_named_as_the_other_games_name_them() -> None:
    """"players: a colour appears twice" named no colour, and "unknown space 'palm spring'" left the
    referee to find the id: the players are checked as every game checks them, and the id most likely meant is said."""
    game = create("desert")
    document = json.loads(json.dumps(game.to_document(game.setup(["black", "pink"], game.resolve_options({})))))
    twice = {**document, "players": ["black", "black"]}
    with pytest.raises(InvalidPosition) as bad:
        game.from_document(twice)
    assert bad.value.problems == ["players: 'black' is named twice: each player plays a colour of their own"]
    document["pieces"]["pink"]["space"] = "Palm_Spring"
    with pytest.raises(InvalidPosition) as bad:
        game.from_document(document)
    assert ("pieces.pink.space: no space 'Palm_Spring'; is it 'palm_spring'? (spaces are named by id, as in "
            "board.json)") in bad.value.problems, bad.value.problems
