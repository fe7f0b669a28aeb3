"""Through the Desert decisions of DECISIONS.md 2.2 that no worked case plays through, on the test patch."""

from __future__ import annotations

import pytest

from companion.errors import BadRequest, IllegalAction
from companion.registry import create
from tests.games.ttd.helpers import act, camel, patch_board, patch_game, position

R, B = "red", "black"


def test_td_q12_the_second_camel_may_extend_the_first() -> None:
    game = patch_game()
    state = position(game, [R, B], [(1, 3, R, "pink", True), (5, 1, B, "pink", True)])
    state, _ = act(game, state, camel("pink", 2, 3))
    state, _ = act(game, state, camel("pink", 3, 3))  # touches only the camel just placed
    assert state.player == B


def test_td_q3_two_to_five_players() -> None:
    game = create("ttd")
    seats = ["red", "black", "orange", "purple", "brown"]
    for players in (seats[:1], [*seats, "red"]):
        with pytest.raises(BadRequest, match="2 to 5 players") as refused:
            game.setup(players, game.resolve_options({}))
        assert refused.value.rule == "TD-Q3"
    for count in (2, 5):
        assert len(game.setup(seats[:count], game.resolve_options({})).players) == count


def test_td_q25_a_tie_for_the_most_points_is_a_shared_win() -> None:
    game = patch_game(supply=2)
    """Red's pink caravan and Black's green one are each the longest of their colour: 10 points each."""
    state = position(game, [R, B], [(1, 3, R, "pink", True), (2, 3, R, "pink", False), (5, 1, B, "pink", True),
                                    (1, 5, B, "green", True), (2, 5, B, "green", False)], turn=R)
    state, _ = act(game, state, camel("pink", 2, 2))  # the last pink camel: the game ends at once
    result = game.pending(state).result
    assert result["totals"][R] == result["totals"][B]
    assert result["winners"] == [R, B] and result["winner"] is None


@pytest.mark.parametrize(
    ("profile", "seats", "rounds"),
    [("standard", ["red", "black", "orange"], 5), ("standard", ["purple", "red", "black", "orange", "brown"], 4),
     ("as-written", ["red", "black", "orange"], 1)],
)
def test_td_q8_leaders_go_out_one_per_player_per_pass(profile: str, seats: list[str], rounds: int) -> None:
    """Five leaders each (four with five players, TD-Q7), or one guide each as written: always a full pass
    round the table before anyone places a second, and the first seat opens the camels (TD-Q20)."""
    from companion.session import Session

    session = Session.new("ttd", seats, profile=profile)
    while session.state.phase == "waterholes":
        session.act(session.legal()[0])
    placed = []
    while session.state.phase == "leaders":
        placed.append(session.pending().player)
        later = next(p for p in seats if p != placed[-1])
        ruling = session.check({**{k: v for k, v in session.legal()[0].items() if k != "text"}, "player": later})
        assert not ruling.legal  # nobody jumps the pass
        session.act(session.legal()[0])
    assert placed == seats * rounds
    assert session.state.phase == "camels" and session.pending().player == seats[0]


def test_td_q19_leaders_never_come_out_of_the_supply() -> None:
    """Every leader placed leaves the supply whole; only camels count down, and a colour ends on its camels."""
    game = patch_game(supply=2)
    state = game.setup([R, B], game.resolve_options({}))
    assert state.supply == (2,) * 5
    state = position(game, [R, B], [(1, 3, R, "pink", True), (5, 1, B, "pink", True), (1, 5, R, "green", True)])
    assert state.supply == (2,) * 5  # three leaders out, no camel
    state, _ = act(game, state, camel("pink", 2, 3))
    assert state.supply[0] == 1 and state.phase == "camels"
    state, events = act(game, state, camel("pink", 3, 3))  # the second pink camel: the colour is sold out
    assert state.phase == "over"
    assert any("TD-Q18" in e.rules for e in events)


def test_td_q22_an_oasis_site_without_its_palm_at_this_count_is_a_water_hole() -> None:
    """(5,5) bears a palm with four or five players only; with two it is a water-hole site and open (TD-Q21's
    small region stays shut with two and opens with four)."""
    board = patch_board()
    for cell in board["cells"]:
        if (cell["q"], cell["r"]) == (5, 5):
            cell["oasis"] = [4, 5]
            cell["waterhole"] = True
    game = patch_game(board)
    two, four = game.board(2), game.board(4)
    h = two.index[(5, 5)]
    assert h in two.sites and h not in two.palms
    assert h in four.palms and h not in four.sites
    seats = [R, B, "orange", "purple"]
    state = position(game, seats, [(4, 4, R, "green", True), (6, 2, B, "pink", True)])
    ruling = game.check(state, camel("green", 5, 5))
    assert not ruling.legal and ruling.rules == ("TTD-3c",)  # the palm's hex with four players
    assert game.check(state, camel("green", 5, 4)).legal  # next to the palm
    state = position(game, [R, B], [(4, 4, R, "green", True), (6, 2, B, "pink", True)], values={(5, 5): 3})
    state, _ = act(game, state, camel("green", 5, 4))
    state, events = act(game, state, camel("green", 5, 5))  # with two players a token lies there
    assert state.water[0] == (3,) and not state.oases
    assert all("TD-Q14" not in e.rules for e in events)
    # The small region (q 6, rows 3-6): shut with two players, open with four.
    state = position(game, [R, B], [(5, 3, R, "pink", True)])
    assert game.check(state, camel("pink", 6, 3)).rules == ("TTD-1a",)
    state = position(game, seats, [(5, 3, R, "pink", True)])
    assert game.check(state, camel("pink", 6, 3)).legal


def test_td_q1_the_engine_says_water_hole_and_oasis_not_the_garbled_names() -> None:
    """The text's 'oasis token' is a water hole and its 'palm tree' an oasis: every event says the real names."""
    game = patch_game()
    state = position(game, [R, B], [(4, 4, R, "green", True), (1, 3, B, "pink", True)], values={(3, 5): 2})
    state, events = act(game, state, camel("green", 4, 5))  # touches the palm at (5,5)
    state, more = act(game, state, camel("green", 3, 5))  # takes the token
    texts = " ".join(e.text for e in events + more).lower()
    assert "oasis at (5,5)" in texts and "water hole at (3,5)" in texts
    assert "palm" not in texts and "oasis token" not in texts


def test_td_q5_camels_per_colour_follow_the_player_count() -> None:
    """22, 26, 30 and 30 camels of each colour for two to five players (house table, TTD-1f)."""
    game = create("ttd")
    seats = ["red", "black", "orange", "purple", "brown"]
    for count, camels in ((2, 22), (3, 26), (4, 30), (5, 30)):
        state = game.setup(seats[:count], game.resolve_options({}))
        assert state.supply == (camels,) * len(game.colour_ids), count


def test_td_q23_the_table_enters_each_water_holes_value_and_the_app_invents_none() -> None:
    """Set-up asks for the token on each site in turn, offers only values still in the box (15 of each in the
    house box), cites TD-Q23 with each entry, and refuses a value the box no longer holds."""
    game = create("ttd")
    state = game.setup([R, B], game.resolve_options({}))
    board = game.board(2)
    assert game.pending(state).text == f"Water hole 1 of {len(board.sites)} at (2,0): enter the value of the token " \
                                       "lying there."
    for n in range(15):
        assert sorted(a["card"] for a in game.legal_actions(state)) == ["1", "2", "3"]
        state, events = game.apply(state, {"type": "draw", "deck": "waterholes", "card": "3"})
        assert events[0].rules == ("TTD-1c", "TD-Q23") and events[0].text.endswith("a token worth 3."), n
    assert sorted(a["card"] for a in game.legal_actions(state)) == ["1", "2"]  # every 3 is out of the box
    before = game.to_document(state)
    with pytest.raises(IllegalAction, match="No water-hole token worth 3 is left in the box") as refused:
        game.apply(state, {"type": "draw", "deck": "waterholes", "card": "3"})
    assert refused.value.rule == "TTD-1c" and game.to_document(state) == before
    while state.phase == "waterholes":
        state, _ = game.apply(state, {"type": "draw", "deck": "waterholes", "card": "2"})
    assert [state.values[h] for h in board.sites] == [3] * 15 + [2] * (len(board.sites) - 15)  # as entered
