"""Audit of the temple engine against the rule text as settled by DECISIONS.md: each test failed before its fix."""

from __future__ import annotations

import pytest

from companion.errors import IllegalAction, InvalidPosition
from tests.games.temple.fixtures import act, doc, game, pawns_of, red, state, white
from ui.voice import spoken_form

OPEN_ALL = [f"OPEN{i:02d}" for i in range(1, 13)]
REST_8 = [f"OPEN{i:02d}" for i in range(1, 9)]


def refused(s, action, rule: str) -> str:
    with pytest.raises(IllegalAction) as info:
        act(s, action)
    assert info.value.rule == rule, (info.value.rule, info.value.message)
    ruling = game().check(s, action)
    assert not ruling.legal and ruling.rules == (rule,)
    return info.value.message


def test_a_route_that_stops_short_cites_the_whole_roll_decision() -> None:
    """Stopping early while a full-length route exists breaks RU-Q16, with or without a route given."""
    corridor, _ = act(state(pawns={"red": [[4, 1], "entrance"]}), white(3))
    refused(corridor, {"type": "move", "pawn": "red1", "to": [5, 1]}, "RU-Q16")
    # On open cards [5, 1] is a legal end in three steps, but a one-step route to it stops short.
    s, _ = act(state(slots=OPEN_ALL, pawns={"red": [[4, 1], "entrance"]}), white(3))
    assert game().check(s, {"type": "move", "pawn": "red1", "to": [5, 1]}).legal
    message = refused(s, {"type": "move", "pawn": "red1", "to": [5, 1], "route": [[5, 1]]}, "RU-Q16")
    assert "it uses 1 step where 3 are possible" in message


def test_a_route_longer_than_the_roll_cites_the_count() -> None:
    """A pawn moves exactly the number rolled (RU-10); a four-step route on a 2 breaks that, not how it steps."""
    s, _ = act(state(slots=OPEN_ALL, pawns={"red": [[4, 1], "entrance"]}), white(2))
    route = [[4, 0], [5, 0], [6, 0], [6, 1]]
    refused(s, {"type": "move", "pawn": "red1", "to": [6, 1], "route": route}, "RU-10")


def test_a_roll_of_one_walked_in_two_steps_cites_the_next_column_option() -> None:
    s, _ = act(
        state(slots=OPEN_ALL, pawns={"red": [[4, 1], "entrance"]}, options={"roll1_mode": "nextColumnAny3"}), white(1)
    )
    refused(s, {"type": "move", "pawn": "red1", "to": [5, 0], "route": [[4, 0], [5, 0]]}, "RU-Q17")


def test_moving_back_onto_the_entrance_circles_is_not_called_a_hole() -> None:
    """Nobody lands on the Entrance Circles (RU-Q32); the refusal used to say the circles were a hole (RU-11)."""
    s, _ = act(state(slots=OPEN_ALL, pawns={"red": [[4, 1], "entrance"]}), white(1))
    message = refused(s, {"type": "move", "pawn": "red1", "to": "entrance"}, "RU-Q32")
    assert "hole" not in message


def test_two_pawns_of_a_colour_cannot_share_a_final_step() -> None:
    """A step is a space: two pawns never end on one (RU-12, RU-Q20), so such a document is refused."""
    g = game()
    with pytest.raises(InvalidPosition) as info:
        g.from_document(doc(pawns={"red": ["step2", "step2"]}))
    assert any("share" in p for p in info.value.problems)
    ok = state(pawns={"red": ["step2", "step3"]})
    assert g.invariants(ok) == []
    assert any("share" in p for p in g.invariants(ok._replace(pawns=((ok.pawns[0][0],) * 2, ok.pawns[1]))))


def _move_and_rules(s, pawn: str, to) -> tuple[str, set[str], list]:
    """The offered move's text, the clauses its ruling cites, and its events."""
    action = next(a for a in game().legal_actions(s) if a["pawn"] == pawn and a["to"] == to)
    ruling = game().check(s, action)
    assert ruling.legal
    _, events = act(s, action)
    return action["text"], set(ruling.rules), events


def test_landing_on_a_pawn_on_a_stairway_cites_the_stairway_clauses() -> None:
    """A move ending on a stairway where a pawn stands is RU-23's case (and RU-Q22's), not only RU-12's."""
    slots = ["COR01", "STA", "COR03", "STB", *REST_8]
    s, _ = act(state(slots=slots, pawns={"red": [[4, 1], "entrance"], "blue": [[7, 1], "entrance"]}), white(3))
    text, rules, events = _move_and_rules(s, "red1", [7, 1])
    assert "sending Blue 1 back [RU-12, RU-23, RU-Q22]" in text
    assert {"RU-12", "RU-23", "RU-Q22"} <= rules
    landing = next(e for e in events if "lands on" in e.text)
    assert landing.rules == ("RU-12", "RU-23", "RU-Q22")


def test_landing_on_the_own_pawn_on_the_steps_cites_the_steps_decision() -> None:
    """Finishing on the own other pawn on the final steps is RU-Q20's case; it is sent back from beyond the ring
    (RU-Q15)."""
    s, _ = act(state(slots=OPEN_ALL, pawns={"red": ["step1", [2, 1]]}), white(2))
    text, rules, events = _move_and_rules(s, "red2", "step1")
    assert text.endswith("sending Red 1 back [RU-12, RU-Q18, RU-Q20]")
    assert {"RU-Q18", "RU-Q20", "RU-Q15"} <= rules
    back = next(e for e in events if "goes back" in e.text)
    assert "RU-Q15" in back.rules and "RU-Q33" not in back.rules


def test_a_pawn_sent_back_off_its_own_marker_cites_that_decision() -> None:
    """A pawn on one of its own markers goes to the one before (RU-Q33): a card's marker or the corner's."""
    slots = ["COR01", "IDR", "COR03", *REST_8, "OPEN12"]
    s, _ = act(state(slots=slots, turn="blue", pawns={"red": [[6, 1], "entrance"], "blue": [[8, 1], "entrance"]}),
               white(2))  # fmt: skip
    _, rules, events = _move_and_rules(s, "blue1", [6, 1])
    back = next(e for e in events if "goes back" in e.text)
    assert back.text == "Red 1 goes back to its Entrance Circles." and "RU-Q33" in back.rules and "RU-Q33" in rules
    # Red's Ah Kinchil marker, the SE corner's middle: a pawn there goes back to the card's marker behind it.
    s, _ = act(state(slots=slots, turn="blue", pawns={"red": [[13, 13], "entrance"], "blue": [[13, 11], "entrance"]}),
               white(2))  # fmt: skip
    _, _, events = _move_and_rules(s, "blue1", [13, 13])
    back = next(e for e in events if "goes back" in e.text)
    assert "idol marker at [6,1]" in back.text and "RU-Q33" in back.rules
    # Off a hole the marker under it is gone: not RU-Q33's case.
    s, _ = act(state(slots=OPEN_ALL, turn="blue", pawns={"red": [[6, 1], "entrance"], "blue": [[8, 1], "entrance"]}),
               white(2))  # fmt: skip
    _, _, events = _move_and_rules(s, "blue1", [6, 1])
    assert "RU-Q33" not in next(e for e in events if "goes back" in e.text).rules


def test_a_diagonal_one_under_the_next_column_option_cites_the_option_not_the_no_diagonal_clause() -> None:
    """RU-11 forbids diagonal steps; a diagonal 1 is allowed only by RU-Q17's option, and the ruling says so."""
    s, _ = act(
        state(slots=OPEN_ALL, pawns={"red": [[4, 1], "entrance"]}, options={"roll1_mode": "nextColumnAny3"}), white(1)
    )
    diagonal = game().check(s, {"type": "move", "pawn": "red1", "to": [5, 0]})
    assert diagonal.legal and "RU-Q17" in diagonal.rules and "RU-11" not in diagonal.rules
    straight = game().check(s, {"type": "move", "pawn": "red1", "to": [5, 1]})
    assert straight.legal and {"RU-11", "RU-27", "RU-Q17"} <= set(straight.rules)
    # The default reading of a 1 is the ordinary step: no option to cite.
    s, _ = act(state(slots=OPEN_ALL, pawns={"red": [[4, 1], "entrance"]}), white(1))
    plain = game().check(s, {"type": "move", "pawn": "red1", "to": [5, 1]})
    assert plain.rules == ("RU-10", "RU-11", "RU-27")


def test_a_move_off_the_entrance_circles_cites_the_entry_step() -> None:
    """The step from the circles onto the entry row is one of the count (RU-Q19)."""
    s, _ = act(state(slots=OPEN_ALL), white(3))
    ruling = game().check(s, next(a for a in game().legal_actions(s) if a["pawn"] == "red1"))
    assert ruling.legal and "RU-Q19" in ruling.rules
    s, _ = act(state(slots=OPEN_ALL, pawns={"red": [[4, 1], "entrance"]}), white(3))
    ruling = game().check(s, next(a for a in game().legal_actions(s) if a["pawn"] == "red1"))
    assert "RU-Q19" not in ruling.rules


def test_an_optional_change_is_not_announced_as_compulsory() -> None:
    """With change_optional the red roll's question and log offer leaving the path (RU-Q7), as legal does."""
    s, events = act(state(slots=OPEN_ALL, options={"change_optional": True}), red(3))
    assert game().pending(s).text.endswith("or leave the path as it is.")
    assert "or leave the path as it is" in events[0].text
    assert any(a["type"] == "skip_change" for a in game().legal_actions(s))
    s, events = act(state(slots=OPEN_ALL), red(3))
    assert "leave" not in game().pending(s).text and "leave" not in events[0].text


def test_the_ah_kinchil_card_is_not_offered_when_it_can_move_no_pawn() -> None:
    """Red 1 in the chamber, Red 2 on its marker, Blue's pawns not past theirs: every play would be refused."""
    s = state(slots=OPEN_ALL, pawns={"red": ["chamber", [13, 13]], "blue": [[1, 13], [13, 4]]})
    assert not [a for a in game().legal_actions(s) if a["type"] == "ahkinchil"]
    assert game().pending(s).text == "Red: roll the die."
    s = state(slots=OPEN_ALL, pawns={"red": ["chamber", [4, 1]], "blue": [[1, 13], [13, 4]]})
    assert game().pending(s).text == "Red: roll the die (or play the Ah Kinchil card)."


def test_a_taken_ah_kinchil_marker_is_named_when_the_card_is_refused() -> None:
    """With ak_occupied = forbid the refusal says whose marker, where, and why (it read "stands on that marker")."""
    s = state(slots=OPEN_ALL, pawns={"red": [[4, 1], "entrance"], "blue": [[13, 13], "entrance"]},
              options={"ak_occupied": "forbid"})  # fmt: skip
    message = refused(s, {"type": "ahkinchil", "pawn": "red1"}, "RU-Q23")
    assert message.startswith("Blue 1 stands on the red Ah Kinchil marker [13,13] (corner)")
    assert "that marker" not in message and "cannot move Red 1" in message


def test_a_space_beside_the_pawn_but_not_in_the_next_column_is_not_blamed_on_the_wall() -> None:
    """Under nextColumnAny3 a 1 goes to the next column (RU-Q17); [4,0] beside [4,1] was refused as walled off
    (RU-14), with the red wall nowhere near."""
    s, _ = act(
        state(slots=OPEN_ALL, pawns={"red": [[4, 1], "entrance"]}, options={"roll1_mode": "nextColumnAny3"}), white(1)
    )
    for to in ([4, 0], [3, 1], [4, 2]):
        message = refused(s, {"type": "move", "pawn": "red1", "to": to}, "RU-Q17")
        assert "wall" not in message
        assert message.endswith("it goes to one of [5,0] (slot 1), [5,1] (slot 1) or [5,2] (slot 1).")
    # Aloud each part is a sentence: "... diagonals included, and [4,2] (slot 1) is not one." was 27 words
    # in one breath, with no colon or semicolon before it to pause at.
    assert spoken_form(message) == (
        "With a roll of 1, Red 1 moves to a space of the next column clockwise, diagonals included. Column 4, row 2"
        " (slot 1) is not one. It goes to one of column 5, row 0 (slot 1), column 5, row 1 (slot 1) or column 5,"
        " row 2 (slot 1).")


def test_the_owner_is_not_asked_which_pawn_goes_first_when_it_changes_nothing() -> None:
    """pair_order = ownerChooses with no marker behind either pawn: both go home whichever goes first, so the
    question ("which goes back to the nearer marker?", two choices reading alike) is not asked (RU-19, RU-Q13)."""
    s = state(slots=OPEN_ALL, pawns={"red": [[4, 1], [5, 1]]}, options={"pair_order": "ownerChooses"})
    s, _ = act(s, red(3))
    after, events = act(s, {"type": "change", "slot": 1, "card": "HOLES"})
    assert after.phase != "resolve"
    assert pawns_of(after)["red"] == ["entrance", "entrance"]
    assert [e.text for e in events if "goes back" in e.text] == [
        "Red 2 goes back to its Entrance Circles.", "Red 1 goes back to its Entrance Circles."]  # fmt: skip
    # With a red marker behind them (IDR's in slot 1 at [3,1]) it matters which pawn takes it: the owner chooses.
    s = state(slots=["IDR", *OPEN_ALL[1:]], pawns={"red": [[7, 1], [8, 1]]},
              options={"pair_order": "ownerChooses"})  # fmt: skip
    s, _ = act(s, red(3))
    after, _ = act(s, {"type": "change", "slot": 2, "card": "HOLES"})
    assert after.phase == "resolve"


def test_a_position_with_a_finished_player_but_no_winner_is_refused() -> None:
    """Both pawns in the chamber is a win at once (RU-16); such a document with play going on used to load, and
    the player's next turn ended in an empty warning before the win was seen."""
    with pytest.raises(InvalidPosition) as info:
        game().from_document(doc(slots=OPEN_ALL, turn="blue", pawns={"red": ["chamber", "chamber"]}))
    assert any("red has both pawns in the Treasure Chamber" in p and "RU-16" in p for p in info.value.problems)
    won = doc(slots=OPEN_ALL, phase="over", winner="red", pawns={"red": ["chamber", "chamber"]})
    assert game().from_document(won).winner == "red"


def test_a_stairway_kept_out_of_reach_by_the_wall_option_says_so() -> None:
    """With stairs_respect_walls the other stairway ([4,13], 31 stations on along Red's lap of 56) is out of reach
    (RU-Q21); the choice and the log said "no other stairway" (RU-24) with one in plain sight."""
    slots = list(OPEN_ALL)
    slots[1], slots[8] = "STA", "STB"  # stairways at [7,1] and [4,13]
    s, _ = act(state(slots=slots, pawns={"red": [[4, 1], "entrance"]}, options={"stairs_respect_walls": True}),
               white(3))  # fmt: skip
    action = next(a for a in game().legal_actions(s) if a["pawn"] == "red1" and a["to"] == [7, 1])
    assert action["text"].endswith("whose others are all more than half a lap away: it stays [RU-24, RU-Q21]")
    after, events = act(s, action)
    stays = next(e for e in events if "it stays" in e.text)
    assert "more than half a lap away" in stays.text and stays.rules == ("RU-24", "RU-Q21")
    assert pawns_of(after)["red"][0] == [7, 1]
    # A lone stairway is still RU-24 alone.
    slots[8] = "OPEN09"
    s, _ = act(state(slots=slots, pawns={"red": [[4, 1], "entrance"]}, options={"stairs_respect_walls": True}),
               white(3))  # fmt: skip
    action = next(a for a in game().legal_actions(s) if a["pawn"] == "red1" and a["to"] == [7, 1])
    assert action["text"].endswith("with no other to reach: it stays [RU-24]")


def test_a_space_only_across_the_own_wall_within_the_roll_is_refused_by_the_wall() -> None:
    """[2,1] is one step from [3,1], across the red wall; with a roll of 2 it was refused as 'cannot reach ... without
    entering a space twice' [RU-11], a rule no route broke. Allowed to stop early, the one step is exactly the move
    the wall forbids (as it was already told); made to use the whole roll, no route of 2 ends there either, and the
    refusal says both."""
    move = {"type": "move", "pawn": "red1", "to": [2, 1]}
    whole, _ = act(state(slots=OPEN_ALL, pawns={"red": [[3, 1], "entrance"]}), white(2))
    assert refused(whole, move, "RU-14") == (
        "The red wall blocks every route from [3,1] (slot 1) to [2,1] (corner) shorter than the roll of 2, "
        "and no route of all 2 steps ends there.")
    early, _ = act(state(slots=OPEN_ALL, pawns={"red": [[3, 1], "entrance"]}, options={"must_use_full": False}),
                   white(2))
    assert refused(early, move, "RU-14") == (
        "The red wall blocks every route from [3,1] (slot 1) to [2,1] (corner).")
    blue, _ = act(state(slots=OPEN_ALL, pawns={"blue": [[3, 1], "entrance"]}, turn="blue",
                        options={"must_use_full": False}), white(2))
    assert game().check(blue, {"type": "move", "pawn": "blue1", "to": [2, 1]}).legal  # another colour's wall
