"""Blackpool on a café's own decks: counts the house decks never reach (two Freezes) still make a game that ends."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from companion.data import house_dir, read_json
from companion.game import normalize_action
from companion.games.blackpool.rules import Blackpool
from companion.registry import create


def cafe_game(tmp_path: Path, **counts: int) -> Any:
    """The game on a café folder whose cards.json sets the given card counts."""
    cards = read_json(house_dir(Blackpool) / "cards.json")
    for card in cards["cards"]:
        card["count"] = counts.get(card["id"], card["count"])
    (tmp_path / "blackpool").mkdir()
    (tmp_path / "blackpool" / "cards.json").write_text(json.dumps(cards), encoding="utf-8")
    return create("blackpool", tmp_path)


def position(game: Any, coins: dict[str, int], decks: dict[str, dict[str, int]]) -> Any:
    """Yellow and red each with two travellers home and the third frozen on its path; yellow to roll."""
    travellers = {}
    for colour in ("yellow", "red"):
        travellers[f"{colour}-1"] = {"at": "camp"}
        travellers[f"{colour}-2"] = {"at": "camp"}
        travellers[f"{colour}-3"] = {"at": game.board.paths[colour][30], "frozen": True}
    return game.from_document(
        {
            "game": "blackpool",
            "players": ["yellow", "red"],
            "turn": "yellow",
            "phase": "roll",
            "travellers": travellers,
            "coins": coins,
            "decks": decks,
        }
    )


EMPTY = {
    "charm": {"gust_of_force": 0, "awaken": 0, "diagonal_step_up": 0},
    "curse": {"freeze": 0, "reset": 0, "diagonal_step_down": 0},
}


def test_a_game_where_no_one_can_finish_ends_without_a_winner(tmp_path: Path) -> None:
    game = cafe_game(tmp_path, freeze=2)  # both Freezes played, the one Awaken spent: nothing left to thaw
    state = position(game, {"yellow": 0, "red": 0}, {**EMPTY, "charm": {**EMPTY["charm"], "gust_of_force": 1}})
    state, events = game.apply(state, normalize_action({"type": "roll", "value": 3}))
    pending = game.pending(state)
    assert pending.is_over
    assert pending.result == {"winner": None, "reason": "no player still racing can finish"}
    assert "Yellow 3, Red 3 are frozen" in pending.text and "Nobody wins" in pending.text
    assert events[-1].rules == ("BP-Q30", "BP-Q26", "BP-Q21")
    assert game.from_document(json.loads(json.dumps(game.to_document(state)))) == state  # the journal resumes it


def test_an_awaken_someone_can_still_draw_keeps_the_game_going(tmp_path: Path) -> None:
    game = cafe_game(tmp_path, freeze=2)
    decks = {**EMPTY, "charm": {**EMPTY["charm"], "gust_of_force": 1, "awaken": 1}}
    state = position(game, {"yellow": 0, "red": 1}, decks)  # red's coin may still bring red its Awaken
    state, _ = game.apply(state, normalize_action({"type": "roll", "value": 3}))
    assert not game.pending(state).is_over and state.turn == "red"


def test_with_placings_the_places_taken_stand_when_the_rest_are_stranded(tmp_path: Path) -> None:
    game = cafe_game(tmp_path, freeze=2)
    state = position(game, {"yellow": 0, "red": 0}, {**EMPTY, "charm": {**EMPTY["charm"], "gust_of_force": 1}})
    document = game.to_document(state)
    document["players"] = ["yellow", "red", "blue"]
    document["options"] = {"continueForPlacings": True}
    document["travellers"].update({f"blue-{n}": {"at": "camp"} for n in (1, 2, 3)})
    document["finished"] = ["blue"]
    state = game.from_document(document)
    state, _ = game.apply(state, normalize_action({"type": "roll", "value": 2}))
    pending = game.pending(state)
    assert pending.result == {"winner": "blue", "placings": ["blue"], "reason": "no player still racing can finish"}
    assert pending.text.endswith("Blue wins; the places already taken stand.")


def yellow_in_the_centre(exit_square: str, green_3: dict[str, Any]) -> dict[str, Any]:
    """Yellow 3 waits in the centre with three coins, Red 3 lies frozen on the square a six brings it out to,
    and Green 3 is wherever the test puts it; the rest are at camp, and Green is to roll."""
    travellers: dict[str, Any] = {f"{c}-{n}": {"at": "camp"} for c in ("yellow", "red", "green") for n in (1, 2)}
    travellers.update({"yellow-3": {"at": "centre"}, "red-3": {"at": exit_square, "frozen": True}, "green-3": green_3})
    return {
        "game": "blackpool",
        "players": ["yellow", "red", "green"],
        "turn": "green",
        "phase": "roll",
        "travellers": travellers,
        "coins": {"yellow": 3, "red": 0, "green": 0},
        "decks": {**EMPTY, "charm": {**EMPTY["charm"], "gust_of_force": 1}},
    }


def test_a_centre_exit_shut_by_two_frozen_travellers_strands_the_one_waiting_there(tmp_path: Path) -> None:
    """Yellow 3 waits in the centre; d6, where a six brings it out, holds Red 3 carrying Green 3, both
    frozen for good. Only the frozen travellers were counted as stranded, so yellow rolled for ever."""
    game = cafe_game(tmp_path, freeze=2)
    exit_square = game.board.step("yellow", "centre", 6)
    state = game.from_document(yellow_in_the_centre(exit_square, {"at": exit_square, "on": "red-3", "frozen": True}))
    state, events = game.apply(state, normalize_action({"type": "roll", "value": 2}))
    pending = game.pending(state)
    assert pending.is_over and pending.result == {"winner": None, "reason": "no player still racing can finish"}
    shut = "Yellow 3 can never leave the centre: d6 (ring 4), where it would come out, is held by frozen travellers"
    assert shut in pending.text
    assert events[-1].rules == ("BP-Q30", "BP-Q26", "BP-Q21", "BP-Q20", "BP-7")
    assert game.from_document(json.loads(json.dumps(game.to_document(state)))) == state


def test_a_centre_exit_one_frozen_traveller_holds_is_still_open(tmp_path: Path) -> None:
    """With one frozen traveller on the exit square Yellow 3 can still come out and ride it (BP-7)."""
    game = cafe_game(tmp_path, freeze=2)
    exit_square = game.board.step("yellow", "centre", 6)
    state = game.from_document(yellow_in_the_centre(exit_square, {"at": game.board.paths["green"][20], "frozen": True}))
    state, _ = game.apply(state, normalize_action({"type": "roll", "value": 2}))
    assert not game.pending(state).is_over and state.turn == "yellow"


def test_a_coin_that_can_never_be_spent_thaws_nobody(tmp_path: Path) -> None:
    """Without six.noMoveCoinAllowed a coin is spent only on a six that gives a move (BP-Q18). Red's last
    traveller waits in the centre behind Red 1, frozen on red's exit square: red never moves again, so its
    coin never draws the Reset that could thaw Green 2, and the two rolled for ever (1 of 200 random games
    on a café deck of four Freezes)."""
    game = cafe_game(tmp_path, freeze=4)
    document = {
        "game": "blackpool",
        "players": ["red", "green"],
        "options": {**dict(game.profiles["alternatives"])},
        "turn": "green",
        "phase": "roll",
        "travellers": {
            "red-1": {"at": game.board.step("red", "centre", 6), "frozen": True},
            "red-2": {"at": "camp"},
            "red-3": {"at": "centre"},
            "green-1": {"at": "camp"},
            "green-2": {"at": "f7", "frozen": True},
            "green-3": {"at": "camp"},
        },
        "coins": {"red": 1, "green": 0},
        "decks": {
            "charm": {"gust_of_force": 1, "awaken": 0, "diagonal_step_up": 0},
            "curse": {"freeze": 1, "reset": 1, "diagonal_step_down": 1},
        },
    }
    state = game.from_document(document)
    state, events = game.apply(state, normalize_action({"type": "roll", "value": 3}))
    assert game.pending(state).is_over and "Green 2" in events[-1].text and "Nobody wins" in events[-1].text
    document["options"]["six.noMoveCoinAllowed"] = True  # red may spend it on a six, and draw the Reset
    state, _ = game.apply(game.from_document(document), normalize_action({"type": "roll", "value": 3}))
    assert not game.pending(state).is_over
