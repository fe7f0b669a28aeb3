"""The worked cases TD-AT01..TD-AT10 of DECISIONS.md section 2.3, on the 7 x 7 test patch.

P1 is red and P2 is black; colours pink (K), green (G) and yellow (Y).
"""

from __future__ import annotations

import pytest

from companion.errors import IllegalAction
from tests.games.ttd.helpers import act, camel, fill_waterholes, house_game, options, patch_game, position

P1, P2 = "red", "black"


def test_TD_AT01_same_colour_adjacency() -> None:  # noqa: N802 - named after the worked case
    """A camel touches its own caravan and no other player's piece of its colour (TD-Q10)."""
    game = patch_game()
    # P1's pink leader at h0 = (1,3); P2's pink leader four hexes away at h5 = (5,3).
    state = position(game, [P1, P2], [(1, 3, P1, "pink", True), (5, 3, P2, "pink", True)])
    state, events = act(game, state, camel("pink", 2, 3))
    assert events[0].kind == "move" and "TTD-3a" in events[0].rules
    assert state.player == P1 and state.placed == 1
    # (4,3) touches P2's pink leader at (5,3).
    with pytest.raises(IllegalAction) as refused:
        act(game, state, camel("pink", 4, 3))
    assert refused.value.rule == "TTD-3b"
    assert "Black's pink piece at (5,3)" in refused.value.message
    # (1,0) touches no pink piece of P1's.
    with pytest.raises(IllegalAction) as refused:
        act(game, state, camel("pink", 1, 0))
    assert refused.value.rule == "TTD-3a"
    ruling = game.check(state, camel("pink", 4, 3))
    assert not ruling.legal and ruling.rules == ("TTD-3b",)


def test_TD_AT02_two_colours_in_one_turn() -> None:  # noqa: N802
    game = patch_game()
    state = position(
        game,
        [P1, P2],
        [(1, 3, P1, "pink", True), (1, 5, P1, "green", True), (5, 2, P2, "pink", True)],
    )
    state, _ = act(game, state, camel("pink", 2, 3))
    state, events = act(game, state, camel("green", 2, 5))
    assert [e.kind for e in events] == ["move"]
    assert state.player == P2 and state.placed == 0
    assert game.pending(state).player == P2


@pytest.mark.parametrize(("profile", "points"), [("standard", 3), ("as-written", 1)])
def test_TD_AT03_water_hole(profile: str, points: int) -> None:  # noqa: N802
    game = patch_game()
    head = (1, 3, P1, "pink", True) if profile == "standard" else (1, 3, P1, "guide", True)
    state = position(
        game,
        [P1, P2],
        [head, (5, 2, P2, "pink" if profile == "standard" else "guide", True)],
        profile=profile,
        values={(1, 1): 3},
    )
    state, _ = act(game, state, camel("pink", 1, 2))
    state, events = act(game, state, camel("pink", 1, 1))
    assert state.water[0] == (3,)
    rewards = [e for e in events if e.kind == "reward"]
    assert rewards and "TTD-3d" in rewards[0].rules and "worth 3" in rewards[0].text
    score = game.score(state)
    assert score["provisional"] is True
    assert score["scores"][P1]["water"] == {"points": points, "tokens": [3]}


def leaders_phase(game, profile: str = "standard"):
    state = game.setup([P1, P2], options(game, profile))
    return fill_waterholes(game, state, 2)


def test_TD_AT05_leader_restrictions() -> None:  # noqa: N802
    """A leader, or the guide as written, never stands beside a palm (TD-Q15); a water hole is TD-Q7's."""
    game = patch_game()
    standard = leaders_phase(game)
    assert standard.phase == "leaders"
    # (4,5) touches the palm at (5,5): refused in both profiles.
    with pytest.raises(IllegalAction) as refused:
        act(game, standard, {"type": "leader", "colour": "pink", "hex": [4, 5]})
    assert refused.value.rule == "TTD-1e"
    # On a water hole: refused in the standard profile...
    with pytest.raises(IllegalAction) as refused:
        act(game, standard, {"type": "leader", "colour": "pink", "hex": [3, 5]})
    assert refused.value.rule == "TD-Q7"
    written = leaders_phase(game, "as-written")
    with pytest.raises(IllegalAction) as refused:
        act(game, written, {"type": "leader", "hex": [4, 5]})
    assert refused.value.rule == "TTD-1e"
    # ...but allowed for the guide as written; the guide then takes the token.
    after, events = act(game, written, {"type": "leader", "hex": [3, 5]})
    assert after.water[0] == (2,)
    # TTD-3d is the camel's clause; a leader stands on a water hole only by TD-Q7's option, so that is cited too.
    taken = [e for e in events if e.kind == "reward"]
    assert len(taken) == 1 and taken[0].rules == ("TTD-3d", "TD-Q7", "TD-Q13")


def test_TD_AT09_no_false_end_at_setup() -> None:  # noqa: N802
    game = patch_game()
    state = game.setup([P1, P2], options(game))
    assert state.phase == "waterholes" and game.pending(state).kind == "draw"
    state, _ = act(game, state, {"type": "draw", "deck": "waterholes", "card": "3"})
    state, events = act(game, state, {"type": "draw", "deck": "waterholes", "card": "1"})
    assert state.phase == "leaders"
    pending = game.pending(state)
    assert pending.kind == "choose" and pending.player == P1
    assert not pending.is_over
    assert any("TD-Q18" in e.rules for e in events)
    # The same holds on the house map with every site filled.
    house = house_game()
    state = house.setup([P1, P2], options(house))
    for i in range(len(house.board(2).sites)):
        state, _ = act(house, state, {"type": "draw", "deck": "waterholes", "card": str(1 + i % 3)})
    assert state.phase == "leaders" and not house.pending(state).is_over


def test_TD_AT10_supply_by_player_count() -> None:  # noqa: N802
    game = house_game()
    state = game.setup(["red", "black", "orange"], options(game))
    assert state.supply == (26,) * 5
    assert game.to_document(state)["supply"] == dict.fromkeys(game.colour_ids, 26)
    assert game.setup(["red", "black"], options(game)).supply == (22,) * 5
    assert game.setup(["red", "black", "orange", "purple"], options(game)).supply == (30,) * 5
