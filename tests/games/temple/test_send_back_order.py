"""A card change that sends pawns of several colours back while one owner picks the pair order (RU-Q14).

RU-Q14 takes the colours one by one from the active player, clockwise. With pair_order = ownerChooses the
later colours' pawns went back at once, before the owner's choice; with send_back_occupied = bump two blue pawns
heading for the blue Ah Kinchil marker then ended the other way round.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.errors import IllegalAction, InvalidPosition
from companion.session import Session, replay_record
from tests.games.temple.fixtures import act, game, pawns_of, red, state
from tests.games.temple.test_rules import OPEN_ALL

BUMP_AND_ASK = {"pair_order": "ownerChooses", "send_back_occupied": "bump"}


def _red_changes_slot_2(players: list[str], pawns: dict, slot_1: str = "IDR") -> tuple:
    """Red rolls red and puts HOLES into slot 2 (x 6-8 on the top edge), under the pawns standing there."""
    s = state(players=players, slots=[slot_1, *OPEN_ALL[1:]], pawns=pawns, options=BUMP_AND_ASK)
    s, _ = act(s, red(3))
    return act(s, {"type": "change", "slot": 2, "card": "HOLES"})


def test_the_other_colours_send_backs_wait_for_the_active_players_pair_choice() -> None:
    """Both red pawns and Blue 1 fall into slot 2; Blue 2 stands on the red marker [3,1] (IDR, slot 1).

    Red goes first (RU-Q14): the red pawn taking [3,1] bumps Blue 2 to the blue Ah Kinchil marker [1,13], and
    then Blue 1, going back after it, takes [1,13] and bumps Blue 2 home. Sent back before Red's choice, Blue 1
    took [1,13] first and Blue 2, bumped later, took it from Blue 1.
    """
    after, events = _red_changes_slot_2(["red", "blue"], {"red": [[7, 1], [8, 1]], "blue": [[6, 1], [3, 1]]})
    assert after.phase == "resolve"
    assert pawns_of(after)["blue"] == [[6, 1], [3, 1]]  # Blue 1 waits on its hole for Red's choice
    waits = next(e for e in events if "off the path too" in e.text)
    assert waits.text == ("The new card leaves Blue 1 off the path too; it goes back once Red has chosen, as"
                          " send-backs go colour by colour from the player whose turn it is.")  # fmt: skip
    assert waits.rules == ("RU-17", "RU-Q14")
    assert game().to_document(after)["tasks"] == [
        {"kind": "back", "pawns": ["red1", "red2"], "chooser": "red"},
        {"kind": "off", "pawns": ["blue1"], "chooser": "blue"},
    ]
    done, events = act(after, {"type": "order", "first": "red1"})
    assert pawns_of(done)["red"] == [[3, 1], "entrance"]
    assert pawns_of(done)["blue"] == [[1, 13], "entrance"]
    blue1 = next(e for e in events if e.text.startswith("Blue 1 goes back"))
    assert "RU-Q14" in blue1.rules and "RU-17" in blue1.rules
    # Blue 1 goes back after Red's pawns and Blue 2's bump, not before them.
    texts = [e.text for e in events]
    assert texts.index(blue1.text) > texts.index("Red 2 goes back to its Entrance Circles.")
    assert texts.index(blue1.text) > texts.index("Blue 2 goes back to its idol marker at [1,13] (corner).")
    assert texts[-2:] == ["Blue 2 stood on the marker at [1,13] (corner).", "Blue 2 goes back to its Entrance Circles."]
    assert done.phase == "move"


def test_the_pair_question_says_which_pawns_of_later_colours_go_back_after_it() -> None:
    """Red is asked which red pawn takes the nearer marker while Blue 1 waits on its hole: the question said
    nothing of Blue 1, so Red chose not knowing that Blue 1 goes back after the red pawns, to the markers as Red's
    choice leaves them (here it bumps Blue 2, which Red's choice put there). It names the waiting pawns and the
    clause; with none waiting it reads as before (tests/games/temple/test_referee_texts.py)."""
    after, _ = _red_changes_slot_2(["red", "blue"], {"red": [[7, 1], [8, 1]], "blue": [[6, 1], [3, 1]]})
    assert game().pending(after).text == (
        "Red: the new card leaves both red pawns off the path; which goes back to the nearer marker?"
        " Blue 1 goes back after this choice [RU-Q14]."
    )
    both, _ = _red_changes_slot_2(["red", "blue"], {"red": [[7, 1], [8, 1]], "blue": [[6, 1], [6, 0]]})
    assert game().pending(both).text.endswith(" Blue 1 and Blue 2 go back after this choice [RU-Q14].")
    asked, _ = act(both, {"type": "order", "first": "red2"})  # Blue's own question, with nobody after it
    assert game().pending(asked).text == (
        "Blue: the new card leaves both blue pawns off the path; which goes back to the nearer marker?"
    )


def pair_order_with_blue_waiting() -> tuple:
    """Red's pair question with Blue 1 waiting on its hole and Blue 2 on the red marker [3,1] (under bump)."""
    return _red_changes_slot_2(["red", "blue"], {"red": [[7, 1], [8, 1]], "blue": [[6, 1], [3, 1]]})[0]


def test_each_pair_order_choice_says_where_the_waiting_pawns_end_up() -> None:
    """The choices said "..., sending Blue 2 back [RU-Q12]" and nothing of Blue 1, which goes back after the
    choice and then bumps Blue 2 home from the blue corner marker: only doing it told the table. Each choice now
    ends with where the other colours' pawns end, as the choice leads to it, with the clauses that take them."""
    after = pair_order_with_blue_waiting()
    choices = [a for a in game().legal_actions(after) if a["type"] == "order"]
    assert [a["text"] for a in choices] == [
        f"Red {first} back to [3,1], Red {3 - first} to its Entrance Circles; then Blue 1 on [1,13], Blue 2 at its"
        " Entrance Circles [RU-Q12, RU-Q14]"
        for first in (1, 2)
    ]
    for choice in choices:  # as said, so done
        done, _ = act(after, {"type": "order", "first": choice["first"]})
        assert pawns_of(done)["blue"] == [[1, 13], "entrance"]


def test_a_pair_order_choice_says_whose_question_comes_next_or_where_a_later_colour_goes() -> None:
    both, _ = _red_changes_slot_2(["red", "blue"], {"red": [[7, 1], [8, 1]], "blue": [[6, 1], [6, 0]]})
    texts = [a["text"] for a in game().legal_actions(both)]
    assert texts and all(t.endswith("; then Blue picks its own pair's order [RU-Q14]") for t in texts), texts
    assert texts[0].startswith("Red 1 back to [3,1], Red 2 to its Entrance Circles;")
    blue_asks, _ = _red_changes_slot_2(
        ["red", "blue", "green"],
        {"red": [[6, 1], "entrance"], "blue": [[7, 1], [8, 1]], "green": [[6, 0], "entrance"]},
        slot_1="IDB",
    )
    texts = [a["text"] for a in game().legal_actions(blue_asks)]
    assert texts == ["Blue 1 back to [3,1], Blue 2 to [1,13]; then Green 1 on [1,1] [RU-Q14]",
                     "Blue 2 back to [3,1], Blue 1 to [1,13]; then Green 1 on [1,1] [RU-Q14]"], texts
    alone = state(players=["red", "blue"], slots=["IDR", *OPEN_ALL[1:]], options=BUMP_AND_ASK,
                  pawns={"red": [[7, 1], [8, 1]], "blue": ["entrance", "entrance"]})  # fmt: skip
    alone, _ = act(alone, red(3))
    alone, _ = act(alone, {"type": "change", "slot": 2, "card": "HOLES"})
    alone_texts = [a["text"] for a in game().legal_actions(alone)]  # nobody waits: as before
    assert alone_texts == ["Red 1 back to its idol marker at [3,1] (slot 1), Red 2 back to its Entrance Circles",
                           "Red 2 back to its idol marker at [3,1] (slot 1), Red 1 back to its Entrance Circles"]


def test_the_pawns_waiting_behind_a_pair_choice_are_named_in_the_order_they_then_go() -> None:
    """Seats Green, Red, Blue on Red's turn: after Red's choice Blue 1 goes back, then Green 1 (RU-Q14, clockwise
    from Red). The choices said "then Green 1 on [1,1], Blue 1 on [1,13]", in seat order, and the question
    already named them as they go ("Blue 1 and Green 1 go back after this choice")."""
    s = state(players=["green", "red", "blue"], turn="red", slots=["IDR", *OPEN_ALL[1:]], options=BUMP_AND_ASK,
              pawns={"red": [[7, 1], [8, 1]], "blue": [[6, 1], "entrance"], "green": [[6, 0], "entrance"]})
    s, _ = act(s, red(3))
    offered = next(a for a in game().legal_actions(s) if a.get("slot") == 2 and a.get("card") == "HOLES")
    assert ", sending Red 1, Red 2, Blue 1 and Green 1 back [" in offered["text"], offered["text"]
    s, _ = act(s, {"type": "change", "slot": 2, "card": "HOLES"})
    assert game().pending(s).text.endswith(" Blue 1 and Green 1 go back after this choice [RU-Q14].")
    texts = [a["text"] for a in game().legal_actions(s)]
    assert texts == [f"Red {first} back to [3,1], Red {3 - first} to its Entrance Circles; then Blue 1 on [1,13],"
                     " Green 1 on [1,1] [RU-Q14]" for first in (1, 2)], texts  # fmt: skip
    _, events = act(s, {"type": "order", "first": "red1"})
    assert [e.text for e in events][-2:] == ["Blue 1 goes back to its idol marker at [1,13] (corner).",
                                             "Green 1 goes back to its idol marker at [1,1] (corner)."]  # fmt: skip


def test_the_change_choice_names_the_waiting_pawn_and_cites_rq14() -> None:
    s = state(players=["red", "blue"], slots=["IDR", *OPEN_ALL[1:]], options=BUMP_AND_ASK,
              pawns={"red": [[7, 1], [8, 1]], "blue": [[6, 1], [3, 1]]})  # fmt: skip
    s, _ = act(s, red(3))
    offered = next(a for a in game().legal_actions(s) if a.get("slot") == 2 and a.get("card") == "HOLES")
    assert "Blue 1" in offered["text"] and "Red 1" in offered["text"] and "Red 2" in offered["text"]
    assert "RU-Q14" in offered["text"].rsplit("[", 1)[1]


def test_a_later_colour_waits_behind_a_non_active_owners_choice_while_an_earlier_one_goes_at_once() -> None:
    """Red (active) first, then Blue's pair choice, then Green: Green 1 no longer goes before Blue chooses."""
    after, _ = _red_changes_slot_2(
        ["red", "blue", "green"],
        {"red": [[6, 1], "entrance"], "blue": [[7, 1], [8, 1]], "green": [[6, 0], "entrance"]},
        slot_1="IDB",  # a blue marker at [3,1] behind the blue pawns: which one takes it matters
    )
    assert pawns_of(after)["red"][0] == "entrance"  # Red's own send-back comes first and asks nothing
    assert [(t.kind, t.colour) for t in after.tasks] == [("back", "blue"), ("off", "green")]
    assert pawns_of(after)["green"][0] == [6, 0]
    assert game().pending(after).player == "blue"
    done, events = act(after, {"type": "order", "first": "blue2"})
    assert pawns_of(done)["blue"] == [[1, 13], [3, 1]]
    assert pawns_of(done)["green"][0] == [1, 1]  # the green Ah Kinchil marker, once Blue has chosen
    assert "RU-Q14" in next(e for e in events if e.text.startswith("Green 1 goes back")).rules
    assert not done.tasks  # red's pawns are boxed in at the entrance: the turn then ends (RU-Q26)


def test_a_waiting_send_back_survives_the_position_document() -> None:
    after, _ = _red_changes_slot_2(["red", "blue"], {"red": [[7, 1], [8, 1]], "blue": [[6, 1], [3, 1]]})
    document = game().to_document(after)
    assert game().from_document(document) == after
    # Alone, an "off" task would leave the table in phase resolve with nothing asked.
    document["tasks"] = document["tasks"][1:]
    with pytest.raises(InvalidPosition) as info:
        game().from_document(document)
    assert any('"off" send-back waits behind a choice' in p for p in info.value.problems)


def _record(name: str) -> dict:
    """Game records exported by the companion before the change queued the later colours' send-backs.

    Both start from a loaded house-data position (red pawns at [6,1] and [7,1], Blue 1 at [8,1]) with
    send_back_occupied = bump and pair_order = ownerChooses; Red puts P02 into slot 2, chooses Red 1 for the
    marker [3,1], moves, and Blue moves a pawn with a white 2. In "competing" Blue 2 stood on [3,1].
    """
    return json.loads((Path(__file__).parent / "records_before_rq14_queue.json").read_text(encoding="utf-8"))[name]


def test_an_older_record_with_the_pair_choice_and_a_waiting_colour_still_replays() -> None:
    """The order only changes where pawns go when two of them head for one marker; otherwise older records,
    made while the other colours went back before the choice, replay to their recorded end."""
    record = _record("apart")
    assert replay_record(record).document() == record["final"]


def test_an_older_record_where_two_pawns_competed_for_one_marker_replays() -> None:
    """Journalled before RU-Q14's order, Blue 1 went back ahead of Red's choice and Blue 2, bumped later, took the
    blue marker from it; Blue then moved Blue 1 from its Entrance Circles, a move that does not fit the pawns as
    they stand now. Read from the record, it is taken with the pawns as the older companion left them."""
    record = _record("competing")
    assert replay_record(record).document() == record["final"]


def test_the_older_step_is_taken_only_from_the_journal_and_says_where_the_pawns_stood() -> None:
    record = _record("competing")
    session = Session.from_start("temple", record["start"])
    for action in record["actions"][:5]:
        session.act(action)
    assert session.document()["pawns"]["blue"] == [[1, 13], "entrance"]  # as RU-Q14 has them
    move = record["actions"][5]
    with pytest.raises(IllegalAction, match="Blue 1 cannot reach"):
        session.act(move)  # typed at the table: refused, the pawns stand as this companion put them
    step = session.act(move, journalled=True)
    assert [(e.text, e.rules) for e in step.events] == [
        ("The companion this game was journalled on left Blue 1 at its Entrance Circles and Blue 2 at [1,13]"
         " (corner): it sent Blue 1 back as soon as the card was changed, before Red chose which pawn takes the"
         " nearer marker (this one has it wait for the choice).", ("RU-17", "RU-Q14")),
        ("Blue 1 moves 2 from its Entrance Circles to [14,5] (slot 4).", ("RU-10", "RU-Q19", "RU-11")),
    ]  # fmt: skip
    assert session.document() == record["final"]
    session.undo()
    session.redo()
    assert session.document() == record["final"] and session.log == record["actions"]


def test_an_older_step_that_fits_neither_order_stays_refused() -> None:
    record = _record("competing")
    session = Session.from_start("temple", record["start"])
    for action in record["actions"][:5]:
        session.act(action)
    for pawn in ("blue1", "blue2"):
        with pytest.raises(IllegalAction, match="cannot reach"):
            session.act({"type": "move", "pawn": pawn, "to": [1, 9]}, journalled=True)
    assert session.log == record["actions"][:5]


def test_a_refused_step_in_a_game_without_a_waiting_colour_is_not_replayed_the_older_way() -> None:
    """Only a change that made a colour wait (RU-Q14) is made the older way; elsewhere a refusal stands as it is."""
    record = _record("apart")
    session = Session.from_start("temple", record["start"])
    session.act(record["actions"][0])
    with pytest.raises(IllegalAction, match="Not now"):
        session.act({"type": "move", "pawn": "red1", "to": [4, 1]}, journalled=True)


def test_a_waiting_colour_with_both_pawns_off_is_asked_its_order_when_its_turn_comes() -> None:
    """Red's pair choice first; Blue's two pawns (both on slot 2 too) wait, then Blue chooses as the markers stand."""
    after, _ = _red_changes_slot_2(["red", "blue"], {"red": [[7, 1], [8, 1]], "blue": [[6, 1], [6, 0]]})
    assert [(t.kind, t.colour, t.pawns) for t in after.tasks] == [("back", "red", (0, 1)), ("off", "blue", (0, 1))]
    asked, _ = act(after, {"type": "order", "first": "red2"})
    assert asked.phase == "resolve" and game().pending(asked).player == "blue"
    assert pawns_of(asked)["blue"] == [[6, 1], [6, 0]]
    done, _ = act(asked, {"type": "order", "first": "blue2"})
    assert pawns_of(done)["red"] == ["entrance", [3, 1]]
    assert pawns_of(done)["blue"] == ["entrance", [1, 13]]
    assert done.phase == "move"


def test_undo_and_redo_step_over_the_choice_and_the_waiting_send_back() -> None:
    record = _record("competing")
    session = Session.from_start("temple", record["start"])
    for action in record["actions"][:2]:
        session.act(action)
    waiting = session.document()
    assert [t["kind"] for t in waiting["tasks"]] == ["back", "off"]
    session.act(record["actions"][2])
    chosen = session.document()
    assert chosen["pawns"]["blue"] == [[1, 13], "entrance"] and chosen["tasks"] == []
    session.undo()
    assert session.document() == waiting
    session.redo()
    assert session.document() == chosen
