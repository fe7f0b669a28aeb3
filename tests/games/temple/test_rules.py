"""Temple rules beyond the worked cases: first roll, the Ah Kinchil card, changes, send-backs, options."""

from __future__ import annotations

import random

import pytest

from companion.errors import IllegalAction, InvalidAction
from tests.games.temple.fixtures import REST, act, doc, game, pawns_of, red, rules_of, state, white

OPEN_ALL = [f"OPEN{i:02d}" for i in range(1, 13)]


def refused(s, action, rule: str) -> IllegalAction:
    before = game().to_document(s)
    with pytest.raises(IllegalAction) as info:
        act(s, action)
    assert info.value.rule == rule, info.value.message
    assert game().to_document(s) == before
    ruling = game().check(s, action)
    assert not ruling.legal and ruling.rules == (rule,)
    return info.value


# -- first player ---------------------------------------------------------------


def first_roll_state(**options):
    return state(phase="first_roll", first_roll={"contenders": ["red", "blue"], "rolls": []}, options=options)


def test_x_is_lowest_in_the_first_roll_and_highest_starts() -> None:
    g = game()
    s = first_roll_state()
    assert g.pending(s).player == "red"
    s, _ = act(s, {"type": "roll", "value": "X", "face": {"colour": "white"}})
    assert g.pending(s).player == "blue"
    s, events = act(s, white(1))
    assert s.phase == "roll" and s.current == "blue"
    assert "RU-5" in rules_of(events)


def test_a_tie_for_the_top_rolls_again() -> None:
    g = game()
    s, _ = act(first_roll_state(), white(4))
    s, events = act(s, red(4))
    assert s.phase == "first_roll" and s.contenders == ("red", "blue") and s.first_rolls == ()
    assert "RU-Q6" in rules_of(events)
    s, _ = act(s, white(2))
    s, _ = act(s, white(6))
    assert s.current == "blue" and g.pending(s).kind == "roll"


def test_reroll_option_makes_x_not_count() -> None:
    s, _events = act(first_roll_state(first_roll_x="reroll"), {"type": "roll", "value": "X"})
    assert s.first_rolls == () and game().pending(s).player == "red"


# -- the die --------------------------------------------------------------------


def test_roll_actions_are_the_distinct_faces_and_sim_follows_the_face_table() -> None:
    g = game()
    s = state()
    rolls = [a for a in g.legal_actions(s) if a["type"] == "roll"]
    assert len(rolls) == len({(a["value"], a["face"]["colour"]) for a in rolls}) == len(g.outcomes)
    assert len(g.metadata()["dice"][0]["faces"]) == 20
    rng = random.Random(5)
    no_ak = state(discard=["AK"])
    legal = g.legal_actions(no_ak)
    picks = [g.sim_choose(no_ak, legal, rng)["value"] for _ in range(4000)]
    share_x = picks.count("X") / len(picks)
    assert 0.07 < share_x < 0.13  # two X faces of twenty


def test_a_face_the_die_lacks_is_malformed() -> None:
    with pytest.raises(InvalidAction):
        act(state(), red(0))
    with pytest.raises(InvalidAction):
        act(state(), {"type": "roll", "value": 3})
    with pytest.raises(InvalidAction):
        act(state(), {"type": "roll", "value": "seven", "face": {"colour": "red"}})


@pytest.mark.parametrize("face", [{"colour": "white", "note": "x"}, {"colour": "red", "zzz": float("nan")}])
def test_a_face_holding_more_than_its_colour_is_malformed(face: dict) -> None:
    """It was taken, and the roll journalled with whatever else the face held (a NaN too, from Python)."""
    with pytest.raises(InvalidAction, match=r'"face" holds only its "colour", not \'(note|zzz)\''):
        act(state(), {"type": "roll", "value": 3, "face": face})


def test_only_the_pending_player_may_act() -> None:
    refused(state(), {**white(3), "player": "blue"}, "RU-28")


def test_a_player_who_is_not_in_the_game_is_malformed_not_a_turn_question() -> None:
    """Naming a colour nobody plays is a typing slip, not "it is not green's turn" (RU-28 says who acts)."""
    s = state()
    with pytest.raises(InvalidAction, match="not playing") as caught:
        act(s, {**white(3), "player": "green"})
    assert caught.value.rule == "RU-28"
    with pytest.raises(InvalidAction, match='"player" names a player'):  # no name at all: refused as the key
        act(s, {**white(3), "player": ["red"]})


# -- the Ah Kinchil card ---------------------------------------------------------


def test_ak_moves_an_own_pawn_to_its_marker_even_from_the_entrance() -> None:
    g = game()
    s = state()
    offered = [a for a in g.legal_actions(s) if a["type"] == "ahkinchil"]
    assert {a["pawn"] for a in offered} == {"red1", "red2"}
    s, events = act(s, {"type": "ahkinchil", "pawn": "red1"})
    assert pawns_of(s)["red"][0] == [13, 13]  # red's Ah Kinchil marker, SE corner
    assert s.discard == ("AK",) and s.hands == (3, 3)
    assert s.current == "blue" and "RU-25" in rules_of(events)
    assert not [a for a in g.legal_actions(s) if a["type"] == "ahkinchil"]
    refused(s, {"type": "ahkinchil", "pawn": "blue1"}, "RU-25")


def test_ak_sends_an_opponent_back_only_when_it_is_past_its_marker() -> None:
    g = game()
    # Blue's marker is in the SW corner [1, 13]; blue at [7, 1] is past it, blue at [14, 4] is not.
    s = state(slots=OPEN_ALL, pawns={"blue": [[7, 1], [14, 4]]})
    targets = {a["pawn"] for a in g.legal_actions(s) if a["type"] == "ahkinchil"}
    assert "blue1" in targets and "blue2" not in targets
    refused(s, {"type": "ahkinchil", "pawn": "blue2"}, "RU-Q23")
    s, _events = act(s, {"type": "ahkinchil", "pawn": "blue1"})
    assert pawns_of(s)["blue"][0] == [1, 13]


def test_ak_cannot_touch_the_chamber_but_can_reach_the_steps() -> None:
    g = game()
    s = state(pawns={"blue": ["chamber", "step1"]})
    targets = {a["pawn"] for a in g.legal_actions(s) if a["type"] == "ahkinchil"}
    assert targets == {"red1", "red2", "blue2"}
    refused(s, {"type": "ahkinchil", "pawn": "blue1"}, "RU-25")


def test_ak_on_an_occupied_marker_bumps_or_is_forbidden() -> None:
    s = state(slots=OPEN_ALL, pawns={"blue": [[13, 13], "entrance"]})
    after, _events = act(s, {"type": "ahkinchil", "pawn": "red1"})
    assert pawns_of(after)["red"][0] == [13, 13]
    assert pawns_of(after)["blue"][0] == "entrance"
    f = state(slots=OPEN_ALL, pawns={"blue": [[13, 13], "entrance"]}, options={"ak_occupied": "forbid"})
    refused(f, {"type": "ahkinchil", "pawn": "red1"}, "RU-Q23")


def test_ak_cannot_be_played_after_rolling() -> None:
    s, _ = act(state(), red(3))
    refused(s, {"type": "ahkinchil", "pawn": "red1"}, "RU-Q27")


# -- changing the path ------------------------------------------------------------


def test_change_refusals_name_their_clause() -> None:
    s, _ = act(state(discard=["OPEN12"]), red(3))
    refused(s, {"type": "change", "slot": 4, "card": "AK"}, "RU-Q24")
    refused(s, {"type": "change", "slot": 4, "card": "COR02"}, "RU-7")
    refused(s, {"type": "change", "slot": 4, "card": "OPEN12"}, "RU-26")
    refused(s, {"type": "skip_change"}, "RU-Q7")
    refused(s, {"type": "move", "pawn": "red1", "to": [4, 0]}, "RU-7")
    with pytest.raises(InvalidAction):
        act(s, {"type": "change", "slot": 13, "card": "OPEN13"})
    with pytest.raises(InvalidAction):
        act(s, {"type": "change", "slot": 4, "card": "P99"})
    offered = game().legal_actions(s)
    assert all(a["card"] not in ("OPEN12", "AK", "COR01") for a in offered)
    assert len(offered) == 12 * (game().total_cards - 1 - 12 - 1)


def test_optional_change_and_protected_own_slots() -> None:
    s, _ = act(state(options={"change_optional": True}), red(3))
    assert {"type": "skip_change", "text": "Leave the path as it is"} in game().legal_actions(s)
    s, _ = act(s, {"type": "skip_change"})
    assert s.phase == "roll" and s.current == "blue"  # both pawns home, nothing enterable from a corridor
    p = state(options={"change_under_own_pawn": False}, pawns={"red": [[4, 1], "entrance"]})
    p, _ = act(p, red(3))
    assert all(a["slot"] != 1 for a in game().legal_actions(p))
    refused(p, {"type": "change", "slot": 1, "card": "OPEN12"}, "RU-Q8")


def test_an_empty_pile_is_refilled_from_the_discard() -> None:
    g = game()
    d = doc(discard=["OPEN12", "OPEN13"])
    d["hands"] = {"red": 3, "blue": 3}
    total = g.total_cards
    d["pile"] = 0
    d["discard"] = [c for c in g.board.card_order if c not in d["slots"]][: total - 12 - 6]
    s = g.from_document(d)
    s, _ = act(s, red(3))
    card = next(c for c in g.board.card_order if c not in s.slots and c not in s.discard)
    s, events = act(s, {"type": "change", "slot": 6, "card": card})
    assert "RU-26" in rules_of(events)
    assert s.discard == () and s.hands[0] == 3
    assert s.pile + sum(s.hands) + 12 == total


def test_a_change_that_makes_a_stairway_under_a_pawn_sends_it_through() -> None:
    slots = doc()["slots"]
    slots[4] = "STB"  # the only other stairway: [13, 7]
    s = state(slots=slots, turn="blue", pawns={"red": [[7, 1], "entrance"]})
    s, _ = act(s, red(3))
    s, events = act(s, {"type": "change", "slot": 2, "card": "STA"})
    assert pawns_of(s)["red"][0] == [13, 7]
    assert "RU-22" in rules_of(events)
    assert s.phase == "move" and s.current == "blue"


def test_the_changer_picks_the_stairway_when_owners_do_not() -> None:
    slots = doc()["slots"]
    slots[4], slots[7] = "STB", "STC"
    for owner_chooses, chooser in ((True, "red"), (False, "blue")):
        s = state(
            slots=slots,
            turn="blue",
            pawns={"red": [[7, 1], "entrance"]},
            options={"stair_owner_chooses": owner_chooses},
        )
        s, _ = act(s, red(3))
        s, _ = act(s, {"type": "change", "slot": 2, "card": "STA"})
        assert s.phase == "resolve" and game().pending(s).player == chooser
        s, _ = act(s, {"type": "stair", "pawn": "red1", "to": [7, 13], "player": chooser})
        assert pawns_of(s)["red"][0] == [7, 13] and s.phase == "move"


# -- sending back ------------------------------------------------------------------


def pair_state(**options):
    # Red idols at [3, 1] (IDR in slot 1) and [8, 1] (IDR2 in slot 2); both red pawns in slot 3.
    return state(slots=["IDR", "IDR2", "COR03", *REST], turn="blue", options=options, pawns={"red": [[9, 1], [11, 1]]})


def test_two_pawns_sent_back_together_further_ahead_first() -> None:
    s, _ = act(pair_state(), red(3))
    s, events = act(s, {"type": "change", "slot": 3, "card": "HOLES"})
    assert pawns_of(s)["red"] == [[3, 1], [8, 1]]
    assert {"RU-19", "RU-Q13"} <= rules_of(events)


def test_two_pawns_sent_back_together_owner_chooses() -> None:
    g = game()
    s, _ = act(pair_state(pair_order="ownerChooses"), red(3))
    s, _ = act(s, {"type": "change", "slot": 3, "card": "HOLES"})
    assert s.phase == "resolve" and g.pending(s).player == "red"
    assert g.to_document(s)["tasks"] == [{"kind": "back", "pawns": ["red1", "red2"], "chooser": "red"}]
    assert g.from_document(g.to_document(s)) == s
    refused(s, {"type": "order", "first": "blue1"}, "RU-19")
    s, _ = act(s, {"type": "order", "first": "red1"})
    assert pawns_of(s)["red"] == [[8, 1], [3, 1]]
    assert s.phase == "move" and s.current == "blue"


def test_an_occupied_marker_is_skipped_or_its_occupant_bumped() -> None:
    # Red idols at [3, 1] and [8, 1]; blue1 stands on [8, 1] when blue2 lands on red at [10, 1].
    start = {
        "slots": ["IDR", "IDR2", "COR03", *REST],
        "pawns": {"red": [[10, 1], "entrance"], "blue": [[8, 1], [5, 1]]},
    }
    s = state(**start, turn="blue")
    s, _ = act(s, white(5))
    s, events = act(s, {"type": "move", "pawn": "blue2", "to": [10, 1]})
    assert pawns_of(s)["red"][0] == [3, 1] and "RU-Q12" in rules_of(events)  # [8, 1] is taken: skip
    b = state(**start, turn="blue", options={"send_back_occupied": "bump"})
    b, _ = act(b, white(5))
    b, events = act(b, {"type": "move", "pawn": "blue2", "to": [10, 1]})
    after = pawns_of(b)
    assert after["red"][0] == [8, 1]
    assert after["blue"][0] == [1, 13]  # bumped to blue's Ah Kinchil marker
    assert after["blue"][1] == [10, 1]


def test_landing_on_your_own_pawn_on_the_steps_sends_it_down_the_lap() -> None:
    s = state(slots=["IDR", *doc()["slots"][1:]], pawns={"red": ["step1", [2, 2]]})
    s, _ = act(s, white(1))
    s, events = act(s, {"type": "move", "pawn": "red2", "to": "step1"})
    # The nearest red marker behind the steps is red's Ah Kinchil marker, half a lap back.
    assert pawns_of(s)["red"] == [[13, 13], "step1"]
    assert "RU-21" in rules_of(events)


def test_a_pawn_on_a_marker_goes_to_the_one_before() -> None:
    s = state(
        slots=["IDR", "IDR2", "COR03", *REST],
        turn="blue",
        pawns={"red": [[8, 1], "entrance"], "blue": [[5, 1], "entrance"]},
    )
    s, _ = act(s, white(3))
    s, _ = act(s, {"type": "move", "pawn": "blue1", "to": [8, 1]})
    assert pawns_of(s)["red"][0] == [3, 1]


# -- moving -------------------------------------------------------------------------


def test_routes_are_offered_checked_and_optional() -> None:
    g = game()
    s, _ = act(state(slots=OPEN_ALL, pawns={"red": [[4, 1], "entrance"]}), white(2))
    legal = [a for a in g.legal_actions(s) if a["pawn"] == "red1"]
    ends = sorted(a["to"] for a in legal)
    assert [6, 1] in ends and [4, 1] not in ends and [2, 1] not in ends
    ok, _ = act(s, {"type": "move", "pawn": "red1", "to": [5, 2], "route": [[4, 2], [5, 2]]})
    assert pawns_of(ok)["red"][0] == [5, 2]
    c, _ = act(state(pawns={"red": [[4, 1], "entrance"]}), white(2))
    with pytest.raises(IllegalAction, match="hole"):
        act(c, {"type": "move", "pawn": "red1", "to": [6, 1], "route": [[4, 0], [6, 1]]})
    refused(s, {"type": "move", "pawn": "red1", "to": [5, 0], "route": [[4, 0], [4, 1], [5, 0]]}, "RU-11")
    refused(s, {"type": "move", "pawn": "red1", "to": [4, 1]}, "RU-11")
    refused(s, {"type": "move", "pawn": "blue1", "to": [14, 4]}, "RU-10")
    w, _ = act(state(slots=OPEN_ALL, pawns={"red": [[3, 1], "entrance"]}), white(2))
    refused(w, {"type": "move", "pawn": "red1", "to": [1, 1]}, "RU-14")
    refused(w, {"type": "move", "pawn": "red1", "to": [1, 1], "route": [[2, 1], [1, 1]]}, "RU-14")


def test_the_whole_roll_must_be_used_unless_the_option_says_otherwise() -> None:
    g = game()
    s, _ = act(state(pawns={"red": [[4, 1], "entrance"]}), white(3))
    refused(s, {"type": "move", "pawn": "red1", "to": [5, 1]}, "RU-Q16")
    loose, _ = act(state(pawns={"red": [[4, 1], "entrance"]}, options={"must_use_full": False}), white(3))
    assert sorted(a["to"] for a in g.legal_actions(loose)) == [[3, 1], [5, 1], [6, 1], [7, 1]]


def test_a_roll_of_one_in_both_readings() -> None:
    g = game()
    s, _ = act(state(slots=OPEN_ALL, pawns={"red": [[4, 1], "entrance"]}), white(1))
    assert sorted(a["to"] for a in g.legal_actions(s) if a["pawn"] == "red1") == [[3, 1], [4, 0], [4, 2], [5, 1]]
    n, _ = act(
        state(slots=OPEN_ALL, pawns={"red": [[4, 1], "entrance"]}, options={"roll1_mode": "nextColumnAny3"}), white(1)
    )
    assert sorted(a["to"] for a in g.legal_actions(n) if a["pawn"] == "red1") == [[5, 0], [5, 1], [5, 2]]
    _ok, events = act(n, {"type": "move", "pawn": "red1", "to": [5, 2]})
    assert "RU-27" in rules_of(events)


def test_entering_from_the_circles_costs_one_step() -> None:
    g = game()
    s, _ = act(state(slots=OPEN_ALL), white(1))
    assert sorted(a["to"] for a in g.legal_actions(s) if a["pawn"] == "red1") == [[3, 0], [4, 0], [5, 0]]


def test_no_possible_move_ends_the_turn() -> None:
    s, events = act(state(), white(4))  # both red pawns home, entry cells are corridor holes
    assert s.current == "blue" and "RU-Q26" in rules_of(events)


def test_a_lone_stairway_waiting_pawn_uses_it_only_after_stepping_off() -> None:
    slots = doc()["slots"]
    slots[1], slots[4] = "STA", "STB"
    s = state(slots=slots, pawns={"red": [[7, 1], "entrance"]})
    s, _ = act(s, white(2))
    s, _ = act(s, {"type": "move", "pawn": "red1", "to": [9, 1]})
    assert pawns_of(s)["red"][0] == [9, 1]


def test_stairs_respecting_walls_keep_within_half_a_lap() -> None:
    slots = doc()["slots"]
    slots[1], slots[4], slots[10] = "STA", "STB", "STC"  # [7, 1], [13, 7] and slot 11 r1c1 = [1, 7]
    base = {"slots": slots, "pawns": {"red": [[4, 1], "entrance"]}}
    s, _ = act(state(**base), white(3))
    s, _ = act(s, {"type": "move", "pawn": "red1", "to": [7, 1]})
    assert s.phase == "resolve"
    r, _ = act(state(**base, options={"stairs_respect_walls": True}), white(3))
    r, _events = act(r, {"type": "move", "pawn": "red1", "to": [7, 1]})
    # [1, 7] lies across the red wall, more than half a lap back: only [13, 7] is left, so no choice.
    assert pawns_of(r)["red"][0] == [13, 7]


def test_a_bumped_occupant_cannot_bump_back_the_pawn_that_displaced_it() -> None:
    """Red stands on green's marker and green on red's: a send-back of red used to bounce forever."""
    opened = [f"OPEN{i:02d}" for i in range(1, 13)]  # no card idols: only the corner markers count
    s = state(
        players=["blue", "red", "green"],
        slots=opened,
        options={"send_back_occupied": "bump"},
        pawns={"blue": [[1, 4], "entrance"], "red": [[1, 1], "entrance"], "green": [[13, 13], "entrance"]},
    )
    s, _ = act(s, white(3))
    s, events = act(s, {"type": "move", "pawn": "blue1", "to": [1, 1]})
    assert pawns_of(s) == {"blue": [[1, 13], "entrance"], "red": [[13, 13], "entrance"], "green": [[1, 1], "entrance"]}
    assert "RU-Q12" in rules_of(events)


def test_a_turn_with_no_step_to_take_says_what_boxes_the_pawns_in() -> None:
    """Holes all round cite the step rule, the own wall its clause; both lose the move (RU-Q26)."""
    _, events = act(state(), white(2))  # both red pawns at the Entrance Circles; the corridor's top row is holes
    [boxed] = [e for e in events if e.kind == "warning"]
    assert "every space next to them is a hole" in boxed.text and boxed.rules == ("RU-11", "RU-Q26")
    walled = state(slots=["HOLEMID", "COR02", "COR03", *REST], pawns={"red": [[3, 1], "entrance"]})
    _, events = act(walled, white(2))  # [3, 1] has holes on three sides and the red wall on the fourth
    [boxed] = [e for e in events if e.kind == "warning"]
    assert "red wall is in the way" in boxed.text and boxed.rules == ("RU-14", "RU-11", "RU-Q26")  # Red 2: holes
