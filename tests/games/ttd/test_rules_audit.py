"""Audit findings: refusals must cite the clause that actually governs them.

Each test fails on the engine as it was before the matching fix in companion/games/ttd/rules.py.
"""

from __future__ import annotations

import pytest

from companion.errors import IllegalAction
from tests.games.ttd.helpers import act, camel, fill_waterholes, options, patch_game, position
from tests.games.ttd.test_rules import line_board
from tests.games.ttd.test_scoring import BLACK_FAR, PALM_POCKET

R, B = "red", "black"


def refused_rule(game, state, action) -> str:
    with pytest.raises(IllegalAction) as refused:
        act(game, state, action)
    ruling = game.check(state, action)
    assert not ruling.legal and ruling.rules == (refused.value.rule,)
    assert refused.value.rule in game.rulebook
    return refused.value.rule


# -- after the end: the refusal names the reason the game actually ended ------------------------------
def test_after_everyone_passed_refusals_cite_the_passing_clause_not_the_sold_out_colour() -> None:
    """The game stopped because nobody could place (TTD-3f); no colour ran out, so TTD-5 is wrong."""
    game = patch_game(line_board(3))
    state = position(game, [R, B], [(0, 0, R, "pink", True), (2, 0, B, "pink", True)])
    state, _ = act(game, state, {"type": "pass"})
    state, _ = act(game, state, {"type": "pass"})
    assert state.phase == "over" and all(s > 0 for s in state.supply)
    assert refused_rule(game, state, camel("pink", 1, 0)) == "TTD-3f"
    assert refused_rule(game, state, {"type": "pass"}) == "TTD-3f"


def test_after_a_colour_sold_out_refusals_still_cite_the_end_clause() -> None:
    game = patch_game(supply=2)
    state = position(game, [R, B], [(1, 3, R, "pink", True), (2, 3, R, "pink", False), (5, 2, B, "pink", True)])
    state, _ = act(game, state, camel("pink", 2, 2))
    assert state.phase == "over"
    assert refused_rule(game, state, camel("pink", 3, 3)) == "TTD-5"


def test_after_the_last_token_is_taken_refusals_cite_the_option_decision() -> None:
    """With end_when_tokens_gone the end is TD-Q18's optional trigger, not a colour running out (TTD-5)."""
    game = patch_game()
    pieces = [
        (0, 2, R, "pink", True),
        (3, 4, R, "green", True),
        (3, 5, R, "green", False),  # the water hole at (3,5) is already taken
        (5, 1, B, "pink", True),
    ]
    state = position(game, [R, B], pieces, opts={"end_when_tokens_gone": True})
    state, _ = act(game, state, camel("pink", 1, 1))  # takes the last token on the board
    assert state.phase == "over" and state.end == "no water-hole token is left on the board"
    assert all(s > 0 for s in state.supply)
    assert refused_rule(game, state, camel("pink", 1, 2)) == "TD-Q18"


@pytest.mark.parametrize("timing", ["immediate", "end_of_turn"])
def test_the_last_token_ending_is_announced_under_the_option_decision_not_the_sold_out_colour(timing) -> None:
    """TD-Q18's optional trigger ends the game; no colour ran out, so TTD-5 must not be cited.

    The refusals after such an end already cited TD-Q18; the announcement ("The game ends: ...") and,
    under end_of_turn, the warning one camel ahead cited TTD-5, the clause of a colour's last camel.
    """
    game = patch_game()
    pieces = [(0, 2, R, "pink", True), (3, 4, R, "green", True), (3, 5, R, "green", False), (5, 1, B, "pink", True)]
    state = position(game, [R, B], pieces, opts={"end_when_tokens_gone": True, "end_timing": timing})
    state, events = act(game, state, camel("pink", 1, 1))  # takes the last token on the board
    if timing == "end_of_turn":
        warning = next(e for e in events if e.kind == "warning")
        assert warning.text == "The game ends after this turn: no water-hole token is left on the board."
        assert warning.rules == ("TD-Q18",)
        state, events = act(game, state, camel("pink", 1, 2))
    assert state.phase == "over" and all(s > 0 for s in state.supply)
    ending = next(e for e in events if e.text.startswith("The game ends: "))
    assert ending.rules == ("TD-Q18",)
    assert all("TTD-5" not in e.rules for e in events)


# -- leaders: where a leader may stand is TTD-1e, the hexes closed to camels are TTD-3c ----------------
def test_a_leader_on_a_closed_hex_cites_the_leader_clause() -> None:
    game = patch_game()
    state = fill_waterholes(game, game.setup([R, B], options(game)), 1)
    state, _ = act(game, state, {"type": "leader", "colour": "pink", "hex": [0, 0]})
    for hex_ in ([6, 0], [5, 5], [0, 0], [9, 9]):  # mountain, palm, taken, off the board
        assert refused_rule(game, state, {"type": "leader", "colour": "green", "hex": hex_}) == "TTD-1e"
    # The unused strip keeps its own clause, for leaders and camels alike.
    assert refused_rule(game, state, {"type": "leader", "colour": "green", "hex": [6, 4]}) == "TTD-1a"


def test_a_camel_on_a_closed_hex_still_cites_the_camel_clause() -> None:
    game = patch_game()
    state = position(game, [R, B], [(5, 1, R, "pink", True), (1, 3, B, "pink", True)])
    assert refused_rule(game, state, camel("pink", 6, 0)) == "TTD-3c"
    assert refused_rule(game, state, camel("pink", 5, 1)) == "TTD-3c"
    assert refused_rule(game, state, camel("pink", 9, 9)) == "TTD-3c"


# -- simultaneous ends: one camel sells out a colour and takes the last token ---------------------------
def test_the_last_camel_of_a_colour_on_the_last_token_ends_under_the_sold_out_clause_too() -> None:
    """TTD-5 ends the game whenever a colour sells out; the optional last-token end (TD-Q18) must not hide it.

    The end read "no water-hole token is left on the board" under TD-Q18 alone, though the same camel was
    the last pink one and the standard end applied whatever the option said.
    """
    game = patch_game(supply=2)
    pieces = [
        (0, 2, R, "pink", True),
        (1, 2, R, "pink", False),  # one pink camel left in the supply
        (3, 4, R, "green", True),
        (3, 5, R, "green", False),  # the water hole at (3,5) is already taken
        (5, 1, B, "pink", True),
    ]
    state = position(game, [R, B], pieces, opts={"end_when_tokens_gone": True})
    state, events = act(game, state, camel("pink", 1, 1))  # the last pink camel, on the last token
    assert state.phase == "over" and state.supply[0] == 0
    assert state.end == "the last pink camel has been placed and no water-hole token is left on the board"
    ending = next(e for e in events if e.text.startswith("The game ends: "))
    assert ending.rules == ("TTD-5", "TD-Q18")
    assert refused_rule(game, state, camel("green", 2, 5)) == "TTD-5"


# -- the as-written guide is called a guide -------------------------------------------------------------
def test_guides_are_called_guides_when_they_touch_and_when_all_are_out() -> None:
    """With one_guide leaders and leaders kept apart, texts said "Red's guide leader" and "All leaders"."""
    game = patch_game()
    state = fill_waterholes(game, game.setup([R, B], options(game, "as-written", leader_near_leader=False)), 2)
    state, _ = act(game, state, {"type": "leader", "hex": [3, 3]})
    with pytest.raises(IllegalAction) as refused:
        act(game, state, {"type": "leader", "hex": [3, 2]})
    assert refused.value.message == "(3,2) touches Red's guide at (3,3); guides keep apart."
    assert refused.value.rule == "TD-Q7"
    state, events = act(game, state, {"type": "leader", "hex": [0, 0]})
    assert events[-1].text == "All guides are placed. Red begins placing camels, two per turn."


# -- the leader prompt names the colours that may go out now ---------------------------------------------
def test_the_leader_prompt_names_only_the_colours_that_may_be_placed_now() -> None:
    """The first of five players may place only the colour the fifth seat gave back (TD-Q7), and a first-round
    leader only a colour nobody has opened; the prompt listed every leader in hand ("left: green, yellow, blue,
    white"), so the table picked a colour the next tap refused."""
    game = patch_game()
    players = [R, B, "orange", "purple", "brown"]
    state = fill_waterholes(game, game.setup(players, options(game)), 1)

    def offered(state) -> list[str]:
        return sorted({a["colour"] for a in game.legal_actions(state)})

    assert offered(state) == ["white"]
    assert game.pending(state).text == (
        "Red: place the white leader (with five players the first leader is the colour Brown gave back; "
        "in hand: green, yellow, blue, white)."
    )
    state, _ = act(game, state, {"type": "leader", "colour": "white", "hex": [0, 0]})
    assert offered(state) == ["blue", "pink", "yellow"]
    assert game.pending(state).text == (
        "Black: place the pink, yellow or blue leader (first round: a colour nobody has opened yet; "
        "in hand: pink, yellow, blue, white)."
    )
    for colour, hex_ in (("pink", [3, 0]), ("green", [0, 3]), ("yellow", [3, 3]), ("blue", [0, 6])):
        state, _ = act(game, state, {"type": "leader", "colour": colour, "hex": hex_})
    # The second round: every leader in hand may go out, and the prompt lists them as before.
    # "(left: green, ...)" read as a side of the board to a first game; the branch above says "in hand".
    assert game.pending(state).text == "Red: place a leader (in hand: green, yellow, blue)."


def test_the_clause_a_five_player_opening_refusal_cites_says_so() -> None:
    """A first leader of the wrong colour with five players is refused citing TD-Q7, whose summary named the
    returned colours but not that the game's first leader must be the fifth seat's: a table reading the clause
    found no reason for the refusal."""
    game = patch_game()
    state = fill_waterholes(game, game.setup([R, B, "orange", "purple", "brown"], options(game)), 1)
    rule = refused_rule(game, state, {"type": "leader", "colour": "green", "hex": [0, 0]})
    assert rule == "TD-Q7"
    assert "first leader of the game must be the colour the fifth seat returned" in game.rulebook.clause(rule).text


# -- a shared win of three reads as a list ---------------------------------------------------------------
def test_a_three_way_shared_win_is_said_as_a_list() -> None:
    """Equal top totals share the win (TTD-4e, TD-Q25); three winners read "Red and Black and Orange"."""
    game = patch_game()
    pieces = [(0, 0, R, "pink", True), (3, 0, B, "green", True), (0, 4, "orange", "yellow", True)]
    state = position(game, [R, B, "orange"], pieces, phase="over", end="no player can place a camel any more")
    assert game.result(state)["winners"] == [R, B, "orange"]
    said = game.pending(state).text
    assert said.endswith("Final scores: Red 10, Black 10, Orange 10. Shared win: Red, Black and Orange.")


# -- the area clause says which of its conditions are the standard rules' alone ----------------------------
def test_the_area_clause_keeps_palms_out_under_every_profile_as_the_engine_does() -> None:
    """TTD-4c read "In the standard rules the wall must be one single caravan and the patch must not contain a
    palm", so a table playing as written expected its palm pocket to score; no profile lets it (area_oasis)."""
    game = patch_game()
    text = game.rulebook.clause("TTD-4c").text
    for profile in game.profiles:
        assert options(game, profile)["area_oasis"] is False
    assert "palm in it scores nothing under either profile" in text
    assert "strip not in use" in text  # the unused strip walls an area in like the edge (TD-Q16)


# -- the opening reading of TD-Q9 is announced as played --------------------------------------------------
def test_the_start_of_camel_placement_announces_the_single_camel_opening() -> None:
    """With opening first_two_one the first two seats place one camel each in the first round; the start of
    camel placement said "two per turn" to a first player whose turn then ended after one camel."""
    game = patch_game()
    state = fill_waterholes(game, game.setup([R, B], options(game, opening="first_two_one")), 1)
    while state.phase == "leaders":  # each places the first leader offered, wherever the patch leaves room
        state, events = act(game, state, game.legal_actions(state)[0])
    start = events[-1]
    assert start.text == (
        "All leaders are placed. Red begins placing camels: Red and Black place one each this first round, "
        "then every turn places two."
    )
    assert start.rules == ("TTD-3", "TD-Q20", "TD-Q9")
    state, _ = act(game, state, game.legal_actions(state)[0])
    assert state.player == B  # Red's turn ended after one camel, as announced


# -- as written, a begun colour no longer starts beside the guide ------------------------------------------
def test_a_begun_colour_beside_the_guide_is_refused_saying_the_guide_starts_a_colour_once() -> None:
    """TD-Q6: beside the guide only a colour not yet begun may start. A second pink camel beside the guide,
    away from the pink caravan, was refused with "(1,2) does not touch Red's pink caravan." alone, and the
    table, seeing it touch the guide the text allows camels beside, could not tell why."""
    game = patch_game()
    pieces = [(1, 3, R, "guide", True), (2, 3, R, "pink", False), (4, 0, B, "guide", True)]
    state = position(game, [R, B], pieces, profile="as-written")
    with pytest.raises(IllegalAction) as refused:
        act(game, state, camel("pink", 0, 3))
    assert refused.value.message == (
        "(0,3) does not touch Red's pink caravan; the guide starts a colour only once, and the pink caravan is begun."
    )
    assert refused.value.rule == "TTD-3a"
    state, _ = act(game, state, camel("green", 0, 3))  # a colour not begun may still start there


def test_a_token_tapped_off_the_sites_is_told_any_empty_site_takes_it_in_any_order() -> None:
    """Water holes are filled in any order (a draw with a 'hex' goes on any empty site), yet a token on bare
    sand was refused with 'The token to enter now is the one at (2,0).', as if only that site would do."""
    from companion.registry import create

    game = create("ttd")
    state = game.setup([R, B, "orange"], {})
    board = game.board_of(state)
    first, second = board.sites[0], board.sites[1]
    state, _ = act(game, state, {"type": "draw", "deck": "waterholes", "card": "2", "hex": board.hex_json(second)})
    bare = next(h for h in range(board.size) if (board.in_play >> h) & 1 and not (
        (board.site_mask | board.mountain | board.palm_mask) >> h) & 1)
    with pytest.raises(IllegalAction) as refused:
        act(game, state, {"type": "draw", "deck": "waterholes", "card": "1", "hex": board.hex_json(bare)})
    left = len(board.sites) - 1
    assert refused.value.message.endswith(
        f"The token may go on any of the {left} water-hole sites still empty, in any order; "
        f"{board.label(first)} is asked for next."), refused.value.message
    assert "to enter now" not in refused.value.message and refused.value.rule == "TTD-1c"
    for site in board.sites[2:]:  # one site left: named as the one
        card = next(game.token_id_of[v] for v in sorted(game.token_counts) if game.token_left(state, v) > 0)
        state, _ = act(game, state, {"type": "draw", "deck": "waterholes", "card": card, "hex": board.hex_json(site)})
    with pytest.raises(IllegalAction) as last:
        act(game, state, {"type": "draw", "deck": "waterholes", "card": "1", "hex": board.hex_json(bare)})
    assert last.value.message.endswith(f"The one water-hole site still empty is {board.label(first)}.")


# -- what a cited clause says is what the ruling needs ----------------------------------------------------------
def cited_texts(game, rules) -> list[str]:
    return [game.rulebook.clause(rule).text for rule in rules]


def test_a_palm_pocket_scored_under_area_oasis_cites_an_area_clause_that_lets_it_score() -> None:
    """TTD-4c said a patch holding a palm "never scores, whichever rules are played", yet with the area_oasis
    option the engine scores it (its palm hex aside), citing TTD-4c for the points: the clause denied them."""
    game = patch_game()
    state = position(game, [R, B], [*PALM_POCKET, BLACK_FAR], opts={"area_oasis": True})
    assert game.score(state)["scores"][R]["areas"]["points"] == 1
    texts = cited_texts(game, game.score_rules["areas"])
    assert not any("never scores" in text for text in texts)
    assert any("area_oasis" in text for text in texts)


def test_a_guide_taking_a_water_hole_cites_a_clause_saying_a_guide_takes_the_token() -> None:
    """As written a guide may stand on a water hole and takes its token [TTD-3d, TD-Q7, TD-Q13], but TTD-3d
    speaks of a camel, TD-Q7 only of where a leader may stand and TD-Q13 of the token's worth: none of the
    clauses the reward cites said a guide takes it."""
    game = patch_game()
    state = fill_waterholes(game, game.setup([R, B], options(game, "as-written")), 3)
    state, events = act(game, state, {"type": "leader", "hex": [1, 1]})
    reward = next(e for e in events if e.kind == "reward")
    assert reward.text == "Red takes the water hole at (1,1) worth 3 (scoring 1 under flat values)."
    assert any("guide" in text and "token" in text for text in cited_texts(game, reward.rules))


def test_leaders_with_nowhere_to_stand_go_to_the_box_under_a_clause_that_says_so() -> None:
    """A player with leaders in hand and no hex for one is told "the rest go back to the box" [TTD-1d, TTD-1e];
    neither clause said what becomes of leaders that cannot be placed."""
    game = patch_game(line_board(3))
    state = game.setup([R, B], options(game))
    state, _ = act(game, state, {"type": "leader", "colour": "pink", "hex": [0, 0]})
    state, _ = act(game, state, {"type": "leader", "colour": "green", "hex": [2, 0]})
    state, events = act(game, state, {"type": "pass"})
    assert events[0].text == "Red can place no leader anywhere; the rest go back to the box."
    assert any("back in the box" in text for text in cited_texts(game, events[0].rules))


def test_a_leader_beside_a_rivals_leader_of_its_colour_cites_a_clause_about_leaders_placed() -> None:
    """With leader_near_leader on, a pink leader beside another player's pink leader is refused citing TTD-3b,
    which forbade only a camel put beside such a piece (TD-Q11: a leader counts as a camel of that colour)."""
    game = patch_game()
    rules = options(game, leader_near_leader=True, leader_first_round_unique=False)
    state = fill_waterholes(game, game.setup([R, B], rules), 1)
    state, _ = act(game, state, {"type": "leader", "colour": "pink", "hex": [0, 3]})
    assert refused_rule(game, state, {"type": "leader", "colour": "pink", "hex": [1, 3]}) == "TTD-3b"
    assert "camel or leader may be put beside" in game.rulebook.clause("TTD-3b").text


# -- the no-token end when the leaders took the last tokens in set-up ------------------------------------
@pytest.mark.parametrize("timing", ["immediate", "end_of_turn"])
def test_guides_taking_the_last_tokens_in_setup_end_the_game_after_the_first_camel(timing) -> None:
    """With end_when_tokens_gone and leaders allowed on water holes, set-up can empty the board of tokens.

    The end was checked only when a camel took a token, so once the guides had taken the last ones the
    option never fired and the game ran to a sold-out colour. Set-up still never ends the game (TTD-5): the
    table is told when camel placement starts, and the end comes after the first camel (or its turn).
    """
    game = patch_game()
    state = game.setup([R, B], options(game, "as-written", end_when_tokens_gone=True, end_timing=timing))
    state = fill_waterholes(game, state, 2)
    state, _ = act(game, state, {"type": "leader", "hex": [1, 1]})  # a water-hole site: Red's guide takes it
    assert state.phase == "leaders" and not state.end
    state, events = act(game, state, {"type": "leader", "hex": [3, 5]})  # the other site: the last token
    assert state.phase == "camels" and not state.end  # set-up never ends the game (TTD-5, TD-AT09)
    after = "the first turn" if timing == "end_of_turn" else "the first camel placed"
    warning = events[-1]
    assert (warning.kind, warning.rules) == ("warning", ("TD-Q18", "TTD-5"))
    assert warning.text == (
        f"No water-hole token is left on the board (the guides took the last ones): the game ends after {after}."
    )
    state, events = act(game, state, camel("pink", 1, 2))
    if timing == "end_of_turn":
        assert state.phase == "camels"
        assert events[-1].text == "The game ends after this turn: no water-hole token is left on the board."
        state, events = act(game, state, camel("pink", 1, 3))
    assert state.phase == "over" and state.end == "no water-hole token is left on the board"
    ending = next(e for e in events if e.text.startswith("The game ends: "))
    assert ending.rules == ("TD-Q18",)


def test_without_the_option_guides_taking_every_token_change_nothing() -> None:
    game = patch_game()
    state = fill_waterholes(game, game.setup([R, B], options(game, "as-written")), 2)
    state, _ = act(game, state, {"type": "leader", "hex": [1, 1]})
    state, events = act(game, state, {"type": "leader", "hex": [3, 5]})
    assert all(e.kind != "warning" for e in events)
    state, _ = act(game, state, camel("pink", 1, 2))
    assert state.phase == "camels" and not state.end
