"""Placement, turn, oasis, pass and end rules on the 7 x 7 test patch."""

from __future__ import annotations

import pytest

from companion.errors import IllegalAction, InvalidAction
from tests.games.ttd.helpers import act, camel, fill_waterholes, options, patch_game, position

R, B = "red", "black"


def two_caravans(game, **kw):
    return position(game, [R, B], [(1, 3, R, "pink", True), (5, 2, B, "pink", True), (1, 5, R, "green", True)], **kw)


def assert_refused(game, state, action, rule: str) -> IllegalAction:
    before = game.to_document(state)
    with pytest.raises(IllegalAction) as refused:
        act(game, state, action)
    assert refused.value.rule == rule, refused.value.message
    assert refused.value.rule in game.rulebook
    assert game.to_document(state) == before
    ruling = game.check(state, action)
    assert not ruling.legal and ruling.rules == (rule,)
    return refused.value


def test_wrong_player_is_refused_with_the_turn_clause() -> None:
    game = patch_game()
    state = two_caravans(game)
    refusal = assert_refused(game, state, camel("pink", 5, 3, player=B), "TTD-T")
    assert "Red's turn" in refusal.message
    with pytest.raises(InvalidAction):
        act(game, state, camel("pink", 2, 3, player="green"))


def test_malformed_actions_are_invalid() -> None:
    game = patch_game()
    state = two_caravans(game)
    for action in (
        {"type": "camel", "colour": "mauve", "hex": [2, 3]},
        {"type": "camel", "colour": "pink", "hex": [2]},
        {"type": "camel", "colour": "pink", "hex": "2,3"},
        {"type": "fly"},
        {"type": "draw", "deck": "waterholes", "card": "7"},
    ):
        with pytest.raises(InvalidAction):
            act(game, state, action)


def test_closed_hexes() -> None:
    """Every hex TD-Q24 closes to a camel: a mountain, a palm, a taken hex, off the map, the unused strip."""
    game = patch_game()
    state = position(game, [R, B], [(5, 1, R, "pink", True), (4, 4, R, "green", True), (1, 3, B, "pink", True)])
    assert_refused(game, state, camel("pink", 6, 0), "TTD-3c")  # mountain
    state2, _ = act(game, state, camel("green", 5, 4))
    assert_refused(game, state2, camel("green", 5, 5), "TTD-3c")  # palm
    assert_refused(game, state2, camel("green", 4, 4), "TTD-3c")  # occupied
    assert_refused(game, state, camel("pink", 9, 9), "TTD-3c")  # off the board
    assert_refused(game, state, camel("green", 6, 4), "TTD-1a")  # region unused with 2 players


def test_legal_actions_are_accepted_verbatim_and_match_check() -> None:
    game = patch_game()
    state = two_caravans(game)
    legal = game.legal_actions(state)
    assert legal and all(a["type"] == "camel" and a["text"] for a in legal)
    offered = {(a["colour"], tuple(a["hex"])) for a in legal}
    assert ("pink", (2, 3)) in offered and ("green", (2, 5)) in offered
    # Nothing next to black's pink leader is offered for pink.
    assert ("pink", (4, 2)) not in offered
    for action in legal:
        game.apply(state, action | {})  # text is stripped by normalize in the protocol; apply ignores it
        assert game.check(state, action).legal
    board = game.board(2)
    for h in range(board.size):
        for colour in ("pink", "green", "yellow"):
            action = camel(colour, *board.coords[h])
            assert game.check(state, action).legal == ((colour, board.coords[h]) in offered)


def test_oasis_scores_once_per_caravan_and_for_each_caravan() -> None:
    game = patch_game()
    state = position(game, [R, B], [(5, 3, R, "pink", True), (3, 6, R, "green", True), (1, 2, B, "pink", True)])
    state, events = act(game, state, camel("pink", 5, 4))  # touches the palm at (5,5)
    assert [e.kind for e in events] == ["move", "reward"] and "TTD-3e" in events[1].rules
    state, events = act(game, state, camel("pink", 4, 5))  # touches it again: no second award
    assert [e.kind for e in events] == ["move"]
    assert state.player == B
    state, _ = act(game, state, camel("pink", 1, 3))
    state, _ = act(game, state, camel("pink", 1, 4))
    state, events = act(game, state, camel("green", 4, 6))  # red's green caravan scores it too (TD-Q27)
    assert any(e.kind == "reward" and "TD-Q14" in e.rules for e in events)
    palm = game.board(2).index[(5, 5)]
    assert state.oases == {(0, 0, palm), (0, 1, palm)}
    oases = game.score(state)["scores"][R]["oases"]
    assert oases["points"] == 10
    assert {entry["caravan"] for entry in oases["reached"]} == {"pink", "green"}


def line_board(length: int) -> dict:
    """A single row of sand hexes: the smallest board where caravans block each other."""
    return {
        "game": "ttd",
        "kind": "board",
        "schema": 1,
        "regions": [{"id": "main", "players": [2, 3, 4, 5]}],
        "cells": [{"q": q, "r": 0, "type": "sand", "region": "main"} for q in range(length)],
    }


def test_pass_is_refused_while_a_camel_fits() -> None:
    game = patch_game()
    assert_refused(game, two_caravans(game), {"type": "pass"}, "TD-Q12")


def test_everyone_passing_in_a_row_ends_the_game() -> None:
    game = patch_game(line_board(3))
    # (1,0) touches both pink leaders, so neither player may use it.
    state = position(game, [R, B], [(0, 0, R, "pink", True), (2, 0, B, "pink", True)])
    assert game.pending(state).text == "Red cannot place any camel: pass."
    assert game.legal_actions(state) == [{"type": "pass", "player": R, "text": "Red passes (no camel can be placed)"}]
    state, events = act(game, state, {"type": "pass"})
    assert state.player == B and state.passes == 1 and "TTD-3f" in events[0].rules
    state, events = act(game, state, {"type": "pass"})
    assert state.phase == "over" and state.end == "no player can place a camel any more"
    assert events[-1].kind == "win" and set(events[-1].players) == {R, B}  # 10 each for... a shared win


def test_a_turn_may_end_after_one_camel() -> None:
    game = patch_game(line_board(4))
    state = position(game, [R, B], [(0, 0, R, "pink", True), (3, 0, B, "pink", True)])
    state, _ = act(game, state, camel("pink", 1, 0))
    assert game.pending(state).text == "Red cannot place a second camel: pass."
    state, _ = act(game, state, {"type": "pass"})
    assert state.player == B and state.passes == 0  # a pass after a camel is not a full pass
    state, _ = act(game, state, {"type": "pass"})
    assert state.passes == 1
    state, _ = act(game, state, {"type": "pass"})
    assert state.phase == "over"
    result = game.pending(state).result
    assert result["longest"]["pink"] == {"length": 2, "holders": [R], "points_each": 10}
    assert result["winner"] == R


def test_end_immediately_when_a_colour_runs_out() -> None:
    game = patch_game(supply=2)
    state = position(game, [R, B], [(1, 3, R, "pink", True), (2, 3, R, "pink", False), (5, 2, B, "pink", True)])
    assert state.supply[0] == 1
    state, events = act(game, state, camel("pink", 2, 2))
    assert state.phase == "over" and state.placed == 1
    assert [e.kind for e in events][-2:] == ["info", "win"]
    assert "TD-Q18" in events[-2].rules
    pending = game.pending(state)
    assert pending.is_over and pending.result["end"] == "the last pink camel has been placed"
    assert set(pending.result["scores"]) == {R, B}
    assert game.legal_actions(state) == []
    assert_refused(game, state, camel("pink", 3, 3), "TTD-5")


def test_end_of_turn_option_lets_the_turn_finish() -> None:
    game = patch_game(supply=2)
    state = position(
        game,
        [R, B],
        [(1, 3, R, "pink", True), (2, 3, R, "pink", False), (5, 2, B, "pink", True), (1, 5, R, "green", True)],
        opts={"end_timing": "end_of_turn"},
    )
    state, events = act(game, state, camel("pink", 2, 2))
    assert state.phase == "camels" and state.end
    assert events[-1].kind == "warning"
    assert_refused(game, state, camel("pink", 3, 2), "TTD-1f")
    state, events = act(game, state, camel("green", 2, 5))
    assert state.phase == "over" and events[-1].kind == "win"


def test_opening_round_first_two_one() -> None:
    game = patch_game()
    state = game.setup([R, B, "orange"], options(game, opening="first_two_one"))
    state = fill_waterholes(game, state, 1)
    while state.phase == "leaders":  # the patch fills up: later leaders pass and go back to the box
        state, _ = act(game, state, game.legal_actions(state)[0])
    assert state.phase == "camels"
    assert "only camel" in game.pending(state).text
    first = game.legal_actions(state)[0]
    state, _ = act(game, state, first)
    assert state.player == B
    state, _ = act(game, state, game.legal_actions(state)[0])
    assert state.player == "orange"
    state, _ = act(game, state, game.legal_actions(state)[0])
    assert state.player == "orange" and state.placed == 1
    state, _ = act(game, state, game.legal_actions(state)[0])
    assert state.player == R and state.round == 1
    state, _ = act(game, state, game.legal_actions(state)[0])
    assert state.player == R  # from the second round on, two camels each


def test_five_player_leaders_open_with_the_colour_the_fifth_player_gave_back() -> None:
    """TD-Q7's five-player rule: seat k gives back the k-th colour, and the game's first leader is the colour
    the fifth seat gave back (white); the rest of the first round keeps every later seat a colour of its own."""
    game = patch_game()
    players = [R, B, "orange", "purple", "brown"]
    state = fill_waterholes(game, game.setup(players, options(game)), 1)
    assert state.leaders_left[0] == (1, 2, 3, 4)  # seat 1 returned pink
    assert {a["colour"] for a in game.legal_actions(state)} == {"white"}
    assert_refused(game, state, {"type": "leader", "colour": "green", "hex": [0, 0]}, "TD-Q7")
    assert (
        "the first leader must be white" in game.check(state, {"type": "leader", "colour": "green", "hex": [0, 0]}).text
    )
    state, _ = act(game, state, {"type": "leader", "colour": "white", "hex": [0, 0]})
    assert_refused(game, state, {"type": "leader", "colour": "green", "hex": [3, 0]}, "TTD-1d")  # black has none
    state, _ = act(game, state, {"type": "leader", "colour": "yellow", "hex": [3, 0]})
    assert_refused(game, state, {"type": "leader", "colour": "white", "hex": [0, 3]}, "TD-Q7")  # opened already
    state, _ = act(game, state, {"type": "leader", "colour": "green", "hex": [0, 3]})
    # Purple gave blue back, so pink is its only unused colour; brown then opens with the blue it kept.
    assert {a["colour"] for a in game.legal_actions(state)} == {"pink"}
    state, _ = act(game, state, {"type": "leader", "colour": "pink", "hex": [3, 3]})
    assert {a["colour"] for a in game.legal_actions(state)} == {"blue"}


def test_leader_restrictions_standard() -> None:
    game = patch_game()
    state = fill_waterholes(game, game.setup([R, B], options(game)), 1)
    state, _ = act(game, state, {"type": "leader", "colour": "pink", "hex": [2, 2]})
    assert_refused(game, state, {"type": "leader", "colour": "green", "hex": [2, 3]}, "TD-Q7")  # touches a leader
    assert_refused(game, state, {"type": "leader", "colour": "pink", "hex": [0, 4]}, "TD-Q7")  # pink already opened
    assert_refused(game, state, {"type": "camel", "colour": "pink", "hex": [0, 4]}, "TTD-1")
    state, _ = act(game, state, {"type": "leader", "colour": "green", "hex": [0, 4]})
    assert_refused(game, state, {"type": "leader", "colour": "pink", "hex": [4, 3]}, "TTD-1d")  # already placed
    state, _ = act(game, state, {"type": "leader", "colour": "green", "hex": [4, 3]})  # later rounds: any colour


def test_as_written_guide_starts_each_colour_once() -> None:
    game = patch_game()
    state = position(game, [R, B], [(3, 3, R, "guide", True), (0, 0, B, "guide", True)], profile="as-written")
    state, events = act(game, state, camel("pink", 4, 3))
    assert "TD-Q6" in events[0].rules and "starting" in events[0].text
    # A second pink group next to the guide but away from the pink caravan: refused.
    assert_refused(game, state, camel("pink", 2, 4), "TTD-3a")
    # Another colour may start next to the guide.
    state, _ = act(game, state, camel("green", 2, 4))
    assert state.player == B
    assert_refused(game, state, camel("yellow", 5, 0), "TD-Q6")
    state, _ = act(game, state, camel("yellow", 1, 0))
    # Black's pink may not touch red's pink camel at (4,3) even as a new caravan by the guide.
    assert game.check(state, camel("pink", 0, 1)).legal


def test_colour_without_a_leader_cannot_be_placed() -> None:
    game = patch_game()
    state = position(game, [R, B], [(1, 3, R, "pink", True), (5, 2, B, "pink", True)])
    refusal = assert_refused(game, state, camel("green", 2, 3), "TTD-3a")
    assert "no green leader" in refusal.message


def test_describe_draws_the_board() -> None:
    game = patch_game()
    state = two_caravans(game)
    lines = game.describe(state)
    assert any("K1" in line for line in lines) and any("^" in line for line in lines)
    assert any(line.startswith("Score so far red") for line in lines)


# -- the clause each pass and each end cites ---------------------------------------------
def test_the_end_by_everyone_passing_cites_the_passing_clause() -> None:
    """TTD-5 is the end by a colour running out; the end when nobody can place rests on TTD-3f."""
    game = patch_game(line_board(3))
    state = position(game, [R, B], [(0, 0, R, "pink", True), (2, 0, B, "pink", True)])
    state, _ = act(game, state, {"type": "pass"})
    state, events = act(game, state, {"type": "pass"})
    assert state.phase == "over"
    end = next(e for e in events if e.text.startswith("The game ends"))
    assert "TTD-3f" in end.rules and "TTD-5" not in end.rules


def test_a_leader_with_nowhere_to_stand_passes_under_the_leader_clauses() -> None:
    """A leader pass rests on where leaders may stand (TTD-1e), not on the camel pass (TTD-3f, TD-Q12)."""
    game = patch_game(line_board(3))
    state = game.setup([R, B], options(game))
    assert state.phase == "leaders"  # no water-hole site on this board
    state, _ = act(game, state, {"type": "leader", "colour": "pink", "hex": [0, 0]})
    state, _ = act(game, state, {"type": "leader", "colour": "green", "hex": [2, 0]})
    assert game.legal_actions(state) == [{"type": "pass", "player": R, "text": "Red passes (no hex for a leader)"}]
    state, events = act(game, state, {"type": "pass"})
    assert state.leaders_left[0] == ()
    assert "TTD-1e" in events[0].rules
    assert not {"TTD-3f", "TD-Q12"} & set(events[0].rules)
    assert all(rule in game.rulebook for e in events for rule in e.rules)


def test_pass_while_water_holes_are_entered_cites_the_setup_order() -> None:
    game = patch_game()
    state = game.setup([R, B], options(game))
    assert state.phase == "waterholes"
    assert_refused(game, state, {"type": "pass"}, "TTD-1")


def test_the_text_board_says_where_each_row_starts_so_a_hex_named_in_a_choice_can_be_found() -> None:
    """The terminal offers "Pink leader to (-1,2)" and "(6,12)", but its drawing numbered only the rows: nothing
    told a player which cell of row 2 was q -1, so no choice could be found on the board."""
    import re

    from companion.session import Session

    session = Session.new("ttd", ["red", "black"])
    while session.state.phase == "waterholes":
        session.act(session.legal()[0])
    legal = session.legal()
    for wanted in (legal[22], legal[len(legal) // 2], legal[-1]):  # (-1,2), the middle, the far corner
        q, r = wanted["hex"]
        here = Session.new("ttd", ["red", "black"])
        for action in session.log:
            here.act(action)
        here.act(wanted)
        lines = here.game.describe(here.state)
        row = next(line for line in lines if re.match(rf"r\s*{r} ", line))
        label = re.match(r"r\s*\d+ q\s*(-?\d+) (.*)$", row)
        assert label is not None, row
        first, cells = int(label.group(1)), label.group(2)
        cells = cells[2:] if r & 1 else cells  # odd rows are drawn half a cell to the right
        letter = here.game.colour_letters[here.game.colour_ids.index(wanted["colour"])]
        assert cells[4 * (q - first) : 4 * (q - first) + 2] == letter + "1", (wanted, row)


def test_the_text_boards_key_names_the_cafes_own_water_hole_values(tmp_path) -> None:
    """A café's tokens worth 1, 2 and 4 were keyed "1-3 water hole" while the board showed 4s."""
    import json

    from companion.data import house_dir, read_json
    from companion.games.ttd.rules import ThroughTheDesert
    from companion.registry import create

    tokens = read_json(house_dir(ThroughTheDesert) / "waterholes.json")
    tokens["tokens"][2]["value"] = 4
    (tmp_path / "ttd").mkdir()
    (tmp_path / "ttd" / "waterholes.json").write_text(json.dumps(tokens), encoding="utf-8")
    game = create("ttd", tmp_path)
    key = next(line for line in game.describe(game.setup(["red", "black"], options(game))) if line.startswith("Key"))
    assert ", 1/2/4 water hole, " in key
