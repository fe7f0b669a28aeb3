"""Through the Desert decisions of DECISIONS.md 2.2 that no worked case plays through, on the test patch."""

from __future__ import annotations

import pytest

from companion.errors import BadRequest
from companion.registry import create
from tests.games.ttd.helpers import act, camel, patch_game, position

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
