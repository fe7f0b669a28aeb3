"""Final scoring: every TD-Q16 area option, TD-Q17 ties, the breakdown's shape, the recount and speed."""

from __future__ import annotations

import json
import random
import time
from dataclasses import replace

import pytest

from companion.errors import InvalidPosition
from companion.game import normalize_action
from companion.games.ttd.options import OPTION_SPECS
from companion.games.ttd.recount import recount, recount_problems
from companion.games.ttd.state import GUIDE
from tests.games.ttd.helpers import (
    act,
    camel,
    fill_waterholes,
    house_game,
    options,
    patch_board,
    patch_game,
    position,
)

R, B = "red", "black"
BLACK_FAR = (0, 6, B, "pink", True)

# A corner pocket: (0,0) has only (1,0) and (0,1) on the board.
CORNER = [(1, 0, R, "pink", True), (0, 1, R, "pink", False), BLACK_FAR]
# An inner pocket: a closed ring of red pink around (3,3).
RING = [(4, 3, R, "pink", True)] + [(q, r, R, "pink", False) for q, r in ((4, 2), (3, 2), (2, 3), (2, 4), (3, 4))]
# A ring around the water-hole site (3,5); the leader stands at (3,4), beside the site.
WATER_RING = [(3, 4, R, "pink", True)] + [(q, r, R, "pink", False) for q, r in ((4, 4), (4, 5), (2, 5), (2, 6), (3, 6))]
# A pocket holding the palm (5,5) and (5,6), closed by the unused strip, the edge and red pink.
PALM_POCKET = [(5, 3, R, "pink", True)] + [(q, r, R, "pink", False) for q, r in ((5, 4), (4, 5), (4, 6))]
# A wall down column q == 4 cuts the patch in two; the west part (28 hexes) has no palm.
WALL = [(4, 0, R, "pink", True)] + [(4, r, R, "pink", False) for r in range(1, 7)]


def areas(game, state, player=R):
    entry = game.score(state)["scores"][player]["areas"]
    return entry["points"], entry["list"]


def agree(game, state) -> None:
    """The engine's breakdown equals the independent recount."""
    assert recount_problems(game, state) == []


def test_corner_pocket_scores_for_the_single_caravan() -> None:
    game = patch_game()
    state = position(game, [R, B], CORNER)
    points, found = areas(game, state)
    assert points == 1
    assert found == [{"hexes": [[0, 0]], "caravan": "pink", "points": 1}]
    agree(game, state)


def test_area_by_caravan_or_by_player() -> None:
    game = patch_game()
    mixed = [(1, 0, R, "pink", True), (0, 2, R, "green", True), (0, 1, R, "green", False), BLACK_FAR]
    assert areas(game, position(game, [R, B], mixed))[0] == 0
    state = position(game, [R, B], mixed, opts={"area_by": "player"})
    points, found = areas(game, state)
    assert points == 1 and found[0]["caravan"] == "several caravans"
    agree(game, state)


def test_an_opponent_piece_on_the_border_spoils_the_area() -> None:
    game = patch_game()
    state = position(game, [R, B], [(1, 0, R, "pink", True), (0, 2, B, "green", True), (0, 1, B, "green", False)])
    assert areas(game, state)[0] == 0 and areas(game, state, B)[0] == 0


@pytest.mark.parametrize(
    ("walls", "corner", "ring"), [("edges_and_mountains", 1, 1), ("mountains_only", 0, 1), ("none", 0, 1)]
)
def test_area_walls(walls: str, corner: int, ring: int) -> None:
    game = patch_game()
    state = position(game, [R, B], CORNER, opts={"area_walls": walls})
    assert areas(game, state)[0] == corner
    agree(game, state)
    state = position(game, [R, B], [*RING, BLACK_FAR], opts={"area_walls": walls})
    assert areas(game, state)[0] == ring
    agree(game, state)


def test_mountain_as_a_wall() -> None:
    game = patch_game()
    # (5,0) lies between the mountain (6,0), the top edge and red's pieces.
    pieces = [(4, 1, R, "pink", True), (4, 0, R, "pink", False), (5, 1, R, "pink", False), BLACK_FAR]
    assert areas(game, position(game, [R, B], pieces))[0] == 1
    assert areas(game, position(game, [R, B], pieces, opts={"area_walls": "none"}))[0] == 0


@pytest.mark.parametrize(("allowed", "points"), [(False, 0), (True, 1)])
def test_area_with_an_oasis(allowed: bool, points: int) -> None:
    game = patch_game()
    state = position(game, [R, B], [*PALM_POCKET, BLACK_FAR], opts={"area_oasis": allowed})
    assert areas(game, state)[0] == points  # the palm hex itself never scores
    assert game.score(state)["scores"][R]["oases"]["points"] == 5
    agree(game, state)


@pytest.mark.parametrize(("counts", "points"), [(True, 1), (False, 0)])
def test_water_hole_inside_an_area(counts: bool, points: int) -> None:
    game = patch_game()
    state = position(game, [R, B], [*WATER_RING, BLACK_FAR], opts={"area_waterholes": counts}, values={(3, 5): 3})
    assert areas(game, state)[0] == points
    assert game.score(state)["scores"][R]["water"]["points"] == 0  # a token inside an area is not taken
    agree(game, state)


@pytest.mark.parametrize(("limit", "points"), [("none", 28), ("half", 0)])
def test_area_size_limit(limit: str, points: int) -> None:
    game = patch_game()
    state = position(game, [R, B], WALL, opts={"area_max": limit})
    assert areas(game, state)[0] == points
    agree(game, state)


def test_immediate_areas_are_claimed_and_kept() -> None:
    game = patch_game()
    ring = [p for p in RING if (p[0], p[1]) != (3, 4)]
    state = position(game, [R, B], [*ring, BLACK_FAR], opts={"area_timing": "immediate"})
    assert areas(game, state)[0] == 0
    state, events = act(game, state, camel("pink", 3, 4))
    reward = [e for e in events if e.kind == "reward"]
    assert reward and reward[0].rules == ("TTD-4c", "TD-Q16")
    assert areas(game, state)[0] == 1
    state, _ = act(game, state, camel("pink", 3, 3))  # red fills its own area: the claim stands
    assert areas(game, state)[0] == 1
    doc = json.loads(json.dumps(game.to_document(state)))
    assert doc["claimed_areas"] == [{"player": R, "caravan": "pink", "hexes": [[3, 3]]}]
    assert game.from_document(doc) == state
    agree(game, state)
    # Under end timing the same filled hex scores nothing.
    end_state = position(game, [R, B], [*RING, (3, 3, R, "pink", False), BLACK_FAR])
    assert areas(game, end_state)[0] == 0


def longest_position(game, **opts):
    pieces = [(0, 0, R, "pink", True), (1, 0, R, "pink", False), (4, 0, B, "pink", True), (5, 0, B, "pink", False)]
    pieces.append((0, 4, B, "green", True))
    return position(game, [R, B], pieces, opts=opts)


@pytest.mark.parametrize(("tie", "each"), [("5each", 5), ("10each", 10), ("none", 0), ("split", 5)])
def test_longest_caravan_ties(tie: str, each: int) -> None:
    game = patch_game()
    state = longest_position(game, longest_tie=tie)
    result = game.score(state)
    assert result["longest"]["pink"] == {"length": 2, "holders": [R, B], "points_each": each}
    assert result["longest"]["green"] == {"length": 1, "holders": [B], "points_each": 10}
    assert result["scores"][R]["longest"]["list"] == [
        {"colour": "pink", "length": 2, "points": each, "shared_with": [B]}
    ]
    agree(game, state)


def test_longest_caravan_without_leaders() -> None:
    game = patch_game()
    state = longest_position(game, longest_counts_leader=False)
    result = game.score(state)
    assert result["longest"]["pink"]["length"] == 1
    assert result["longest"]["green"] == {"length": 0, "holders": [], "points_each": 0}
    agree(game, state)


def test_breakdown_totals_and_winner() -> None:
    game = patch_game()
    state = position(game, [R, B], [*CORNER, (3, 2, R, "green", True)], values={(1, 1): 2})
    result = game.score(state)
    for entry in result["scores"].values():
        assert entry["total"] == sum(entry[k]["points"] for k in ("water", "oases", "areas", "longest"))
    assert result["totals"] == {p: result["scores"][p]["total"] for p in (R, B)}
    assert result["winner"] == R and result["winners"] == [R]
    json.dumps(result)


def play_out(game, state, rng):
    while not game.pending(state).is_over:
        state, _ = game.apply(state, normalize_action(game.sim_choose(state, game.legal_actions(state), rng)))
    return state


AREA_KEYS = [o for o in OPTION_SPECS if o.key.startswith(("area_", "longest_", "waterhole_value"))]


def test_random_games_with_random_scoring_options_agree_with_the_recount() -> None:
    game = house_game()
    rng = random.Random(7)
    for _ in range(16):
        profile = rng.choice(["standard", "as-written"])
        extra = {o.key: rng.choice(o.choices) for o in AREA_KEYS}
        players = rng.sample(list(game.colours), rng.randint(2, 5))
        state = play_out(game, game.setup(players, options(game, profile, **extra)), rng)
        assert game.invariants(state) == []
        again = recount(game, json.loads(json.dumps(game.to_document(state))))
        result = game.pending(state).result
        for player in players:
            assert sum(again[player].values()) == result["totals"][player]


def test_recount_notices_a_wrong_engine_score(monkeypatch) -> None:
    game = patch_game()
    state = position(game, [R, B], CORNER)
    from companion.games.ttd import rules as rules_module

    real = rules_module.scoring.breakdown

    def off_by_one(*args, **kwargs):
        out = real(*args, **kwargs)
        out["scores"][R]["areas"]["points"] += 1
        return out

    monkeypatch.setattr(rules_module.scoring, "breakdown", off_by_one)
    assert recount_problems(game, state) == ["recount: red areas 1, engine says 2"]


def test_final_scoring_is_fast_on_a_full_board() -> None:
    game = house_game()
    rng = random.Random(3)
    worst = 0.0
    for players in (["red", "black"], ["red", "black", "orange", "purple", "brown"]):
        for profile in ("standard", "as-written"):
            state = play_out(game, game.setup(players, options(game, profile)), rng)
            times = []
            for _ in range(7):
                start = time.perf_counter()
                game.pending(state)
                times.append(time.perf_counter() - start)
            worst = max(worst, sorted(times)[3])  # the median: robust to a busy machine's hiccups
    assert worst < 0.020


def pocket_board() -> dict:
    """The test patch with a mountain at (0,1): the corner (0,0) then has (1,0) as its only open neighbour,
    so one piece on (1,0) closes it (a café map can have such a pocket; the house map has none)."""
    board = patch_board()
    for cell in board["cells"]:
        if (cell["q"], cell["r"]) == (0, 1):
            cell["type"] = "mountain"
    return board


@pytest.mark.parametrize("timing", ["end", "immediate"])
@pytest.mark.parametrize(("profile", "caravan"), [("standard", "pink"), ("as-written", "guide")])
def test_a_leader_alone_closing_an_area_scores_under_both_timings(timing: str, profile: str, caravan: str) -> None:
    """A leader heads its caravan (TD-Q6), so with the edge and a mountain as walls it closes a pocket alone
    (TTD-4c, TD-Q16): the pocket is its owner's under either timing, claimed at once when areas are immediate."""
    game = patch_game(pocket_board())
    state = fill_waterholes(game, game.setup([R, B], options(game, profile, area_timing=timing)), 1)
    leader = {"type": "leader", "hex": [1, 0]} | ({"colour": "pink"} if profile == "standard" else {})
    state, events = act(game, state, leader)
    expected = [{"hexes": [[0, 0]], "caravan": caravan, "points": 1}]
    assert areas(game, state) == (1, expected)
    assert areas(game, state, B)[0] == 0
    rewards = [e for e in events if e.kind == "reward"]
    if timing == "immediate":
        assert [(e.players, e.rules) for e in rewards] == [((R,), ("TTD-4c", "TD-Q16", "TD-Q6"))]
        assert all(rule in game.rulebook for rule in rewards[0].rules)
        doc = json.loads(json.dumps(game.to_document(state)))
        assert doc["claimed_areas"] == [{"player": R, "caravan": caravan, "hexes": [[0, 0]]}]
        assert game.from_document(doc) == state
    else:
        assert rewards == []
    # Black's leader elsewhere changes nothing, and the pocket still scores once play has moved on.
    black = {"type": "leader", "hex": [4, 3]} | ({"colour": "green"} if profile == "standard" else {})
    state, _ = act(game, state, black)
    assert areas(game, state) == (1, expected)
    agree(game, state)


def test_recount_notices_an_enclosed_area_never_claimed_under_immediate_timing() -> None:
    """Under immediate timing every enclosed area must have been claimed when it closed (TD-Q16): a pocket
    that scores but sits in no claim means a placement forgot to look for areas."""
    game = patch_game()
    claimed = position(
        game,
        [R, B],
        CORNER,
        opts={"area_timing": "immediate"},
        claimed_areas=[{"player": R, "caravan": "pink", "hexes": [[0, 0]]}],
    )
    agree(game, claimed)
    state = replace(claimed, claimed=())
    assert recount_problems(game, state) == ["recount: red's area at (0,0) is enclosed but was never claimed"]
    # Nor does the loader take such a position: the referee would never score the area.
    with pytest.raises(InvalidPosition) as bad:
        position(game, [R, B], CORNER, opts={"area_timing": "immediate"})
    assert bad.value.problems == [
        "claimed_areas: red's area at (0,0) is enclosed but was never claimed; under area_timing immediate an area "
        "is claimed as its wall closes (TD-Q16)"
    ]


def test_a_guide_claim_is_read_only_where_there_is_a_guide() -> None:
    """A claim walled by the guide alone is stored with caravan "guide" (TD-Q6); with a leader per colour no
    piece is a guide, so such a claim cannot come from play and the loader refuses it."""
    game = patch_game(pocket_board())
    claim = {"player": R, "caravan": "guide", "hexes": [[0, 0]]}
    guide = [(1, 0, R, "guide", True), (4, 3, B, "guide", True)]
    state = position(
        game, [R, B], guide, profile="as-written", opts={"area_timing": "immediate"}, claimed_areas=[claim]
    )
    assert state.claimed == ((0, GUIDE, frozenset({game.board(2).index[(0, 0)]})),)
    with pytest.raises(InvalidPosition) as bad:
        position(
            game, [R, B], [(1, 0, R, "pink", True), BLACK_FAR], opts={"area_timing": "immediate"}, claimed_areas=[claim]
        )
    assert bad.value.problems == [
        "claimed_areas[0].caravan: unknown colour 'guide'; colours: pink, green, yellow, blue, white, or null for a "
        "wall of several colours"
    ]
