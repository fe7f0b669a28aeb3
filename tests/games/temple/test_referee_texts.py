"""Texts a picky referee met playing whole temple games at the terminal, each said the way the table needs it."""

from __future__ import annotations

import io
import random

from companion.places import explain_place
from companion.protocol import Referee
from companion.session import Session
from companion.terminal import Terminal
from ui.voice import spoken_form


def _moving() -> Session:
    """A house game a few turns in, a move pending."""
    session = Session.new("temple", ["red", "blue"])
    rng = random.Random(4)
    while session.state.phase != "move" or session.state.pawns == session.game.setup(["red", "blue"], {}).pawns:
        session.act(session.game.sim_choose(session.state, session.legal(), rng))
    return session


def test_why_inside_the_ring_says_it_is_no_cell_of_the_path_without_the_actions_json() -> None:
    """`why 4,8` answered 'Nothing may be done there. "to": [4, 8] is not a space of the temple path.'."""
    session = _moving()
    before = session.document()
    out = io.StringIO()
    Terminal(session, lambda: None, out).run(iter(["why 4,8", "why 3,3", "why 7,0", "q"]))
    answers = [line for line in out.getvalue().splitlines() if "ALLOWED" in line or "Refused" in line]
    assert len(answers) == 3, answers
    assert "Refused: there is no place called '4,8'" in answers[0], answers[0]
    assert "4,8 is inside the ring of path cards, not a cell of the path" in answers[0], answers[0]
    # Red step 1 is drawn on 3,3, and a move may name it so ("to": [3, 3]): it is a place, with its own ruling.
    assert "no place called" not in answers[1] and "red step 1" in answers[1], answers[1]
    assert all('"to"' not in answer for answer in answers[:2])
    assert "no place called" not in answers[2]  # a path cell still gets its ruling
    assert session.document() == before
    referee = Referee()
    referee.session = session
    refused = referee.handle({"cmd": "explain", "place": [4, 8]})
    assert refused["error"]["code"] == "bad_request" and "inside the ring" in refused["error"]["message"]


def test_the_board_says_in_the_chamber_and_on_a_step() -> None:
    """The pawn lines of `board` and `score` read "Red 2 at the Treasure Chamber" and "Red 1 at red step 2"."""
    from tests.games.temple.fixtures import game, state

    lines = game().describe(state(pawns={"red": ["step2", "chamber"], "blue": [[7, 1], "entrance"]}))
    (red,) = [line for line in lines if line.lstrip("* ").startswith("red ")]
    (blue,) = [line for line in lines if line.lstrip("* ").startswith("blue ")]
    assert red.endswith("Red 1 on red step 2; Red 2 in the Treasure Chamber"), red
    assert blue.endswith("Blue 1 at [7,1] (slot 2); Blue 2 at its Entrance Circles"), blue


def test_stopping_early_by_choice_cites_the_option_not_a_dead_end() -> None:
    """With must_use_full = false, "Blue 1 moves 1 from its Entrance Circles to [14,5]" on a 3 cited RU-13,
    the dead-end rule, though a route of 3 lay open."""
    from tests.games.temple.fixtures import act, doc, rules_of, state, white
    from tests.games.temple.test_rules import OPEN_ALL

    s = state(slots=OPEN_ALL, pawns={"red": [[5, 1], "entrance"]}, options={"must_use_full": False})
    s, _ = act(s, white(3))
    _, events = act(s, {"type": "move", "pawn": "red1", "to": [6, 1], "route": [[6, 1]]})
    assert "RU-Q16" in rules_of(events) and "RU-13" not in rules_of(events)
    # A real dead end still cites RU-13: slot 2 starts with a hole two spaces ahead of [3, 1].
    d = state(slots=["COR01", "END", *doc()["slots"][2:]], pawns={"red": [[3, 1], "entrance"]},
              options={"must_use_full": False})
    d, _ = act(d, white(5))
    _, events = act(d, {"type": "move", "pawn": "red1", "to": [5, 1]})
    assert "RU-13" in rules_of(events) and "RU-Q16" not in rules_of(events)


def test_a_bumped_marker_is_named_not_that_marker() -> None:
    """With send_back_occupied = bump the table heard "Blue 1 stood on that marker." after another sentence."""
    from tests.games.temple.fixtures import REST, act, state, white

    b = state(
        slots=["IDR", "IDR2", "COR03", *REST],
        pawns={"red": [[10, 1], "entrance"], "blue": [[8, 1], [5, 1]]},
        turn="blue",
        options={"send_back_occupied": "bump"},
    )
    b, _ = act(b, white(5))
    _, events = act(b, {"type": "move", "pawn": "blue2", "to": [10, 1]})
    assert "Blue 1 stood on the marker at [8,1] (slot 2)." in [e.text for e in events]


def test_the_ah_kinchil_card_says_back_for_an_own_pawn_past_its_marker() -> None:
    """Red's marker is the SE corner [13, 13], half a lap on; Red 2 on slot 8 is past it, and the card offered
    "Red 2 forward to its Ah Kinchil marker"."""
    from tests.games.temple.fixtures import game, state
    from tests.games.temple.test_rules import OPEN_ALL

    s = state(slots=OPEN_ALL, pawns={"red": [[7, 1], [7, 13]]})
    texts = {a["pawn"]: a["text"] for a in game().legal_actions(s) if a["type"] == "ahkinchil"}
    assert texts["red1"] == "Play the Ah Kinchil card: Red 1 forward to its Ah Kinchil marker [13,13] (corner)"
    assert texts["red2"] == "Play the Ah Kinchil card: Red 2 back to its Ah Kinchil marker [13,13] (corner)"


def test_a_lost_move_says_pawn_by_pawn_what_boxes_it_in() -> None:
    """It read "No pawn of Red can take a step: the red wall is in the way" for a pawn behind its wall and one
    at the Entrance Circles facing holes, and the same with the other pawn in the chamber."""
    from tests.games.temple.fixtures import REST, act, state, white

    walled = state(slots=["HOLEMID", "COR02", "COR03", *REST], pawns={"red": [[3, 1], "entrance"]})
    _, events = act(walled, white(2))
    [boxed] = [e for e in events if e.kind == "warning"]
    assert boxed.text == (
        "Red 1 cannot take a step: the red wall is in the way; "
        "Red 2 cannot take a step: every space next to it is a hole; the turn ends."
    )
    assert boxed.rules == ("RU-14", "RU-11", "RU-Q26")
    _, events = act(state(pawns={"red": ["entrance", "chamber"]}), white(2))
    [boxed] = [e for e in events if e.kind == "warning"]
    assert boxed.text == "Red 1 cannot take a step: every space next to it is a hole; the turn ends."
    _, events = act(state(), white(2))
    [boxed] = [e for e in events if e.kind == "warning"]
    assert boxed.text == "Neither Red 1 nor Red 2 can take a step: every space next to them is a hole; the turn ends."


def test_a_roll_of_1_with_the_next_column_closed_does_not_blame_the_wall() -> None:
    """Under roll1_mode = nextColumnAny3 a pawn whose next column is all holes was told its wall was in the way."""
    from tests.games.temple.fixtures import REST, act, state, white

    # [5, 1] on a corridor, slot 2 begins with holes; the way back to [4, 1] is open.
    s = state(slots=["COR01", "END", "COR03", *REST], pawns={"red": [[5, 1], "chamber"]},
              options={"roll1_mode": "nextColumnAny3"})
    _, events = act(s, white(1))
    [boxed] = [e for e in events if e.kind == "warning"]
    assert boxed.text == (
        "Red 1 cannot take a step: none of the three spaces of the next column is open to it; the turn ends."
    )
    assert boxed.rules == ("RU-Q17", "RU-Q26")


def test_the_pair_order_choice_names_where_each_pawn_goes() -> None:
    """pair_order = ownerChooses asked "Red: which pawn takes the nearer marker?" with the choices "Red 1 takes
    the nearer marker" and "Red 2 takes the nearer marker": no marker was named."""
    from tests.games.temple.fixtures import REST, act, game, pawns_of, red, state

    s = state(slots=["IDR", "IDR2", "COR03", *REST], turn="blue", pawns={"red": [[10, 1], [9, 1]]},
              options={"pair_order": "ownerChooses"})
    s, _ = act(s, red(3))
    s, _ = act(s, {"type": "change", "slot": 3, "card": "END"})
    assert game().pending(s).text == (
        "Red: the new card leaves both red pawns off the path; which goes back to the nearer marker?"
    )
    offered = {a["first"]: a for a in game().legal_actions(s)}
    assert offered["red2"]["text"] == (
        "Red 2 back to its idol marker at [8,1] (slot 2), Red 1 back to its idol marker at [3,1] (slot 1)"
    )
    after, _ = act(s, offered["red2"])
    assert pawns_of(after)["red"] == [[3, 1], [8, 1]]


def _changing() -> Session:
    """A house game at a red roll's card change."""
    session = Session.new("temple", ["red", "blue"])
    rng = random.Random(0)
    while session.state.phase != "change":
        session.act(session.game.sim_choose(session.state, session.legal(), rng))
    return session


def test_why_a_corner_during_a_card_change_says_it_is_on_no_slot_and_what_the_change_allows() -> None:
    """`why 0,0` while cards are changed answered "what may be done now happens on slots", as though the corner
    lay on one, citing the send-back clauses of sample changes."""
    session = _changing()
    name = session.state.current.capitalize()
    for cell in ((0, 0), (13, 1)):
        ruling = explain_place(session, cell)
        assert not ruling.legal and ruling.rules == ("RU-2", "RU-7"), ruling
        assert ruling.text == (f"Nothing may be done there now: [{cell[0]},{cell[1]}] is on a corner, on no slot; "
                               f"corners are printed on the board and never change. {name}'s card change takes the "
                               "card out of any slot (1 to 12) and puts one from their hand in its place.")
    assert explain_place(session, (6, 13)).text.startswith("[6,13] is on the card in slot 8. Allowed there")


def test_a_corner_during_a_card_change_names_the_slots_open_by_their_runs() -> None:
    """With a pawn's slot closed to the change (alternatives: no change under one's own pawn) the slots were each
    named: "slot 1, 3, 4, 5, 6, 7, 8, 9, 10, 11 or 12", a 30-word sentence aloud. Runs are said by their ends."""
    session = Session.new("temple", ["red", "blue"], profile="alternatives")
    rng = random.Random(0)
    while session.state.phase != "change" or len({a.get("slot") for a in session.legal()} - {None}) != 11:
        session.act(session.game.sim_choose(session.state, session.legal(), rng))
    text = explain_place(session, (0, 0)).text
    assert text.endswith("Red's card change takes the card out of slot 1 or 3 to 12 and puts one from their hand "
                         "in its place."), text
    assert spoken_form(text).split(". ")[-1] == (
        "Red's card change takes the card out of slot 1 or 3 to 12 and puts one from their hand in its place.")


def test_why_a_slot_during_a_move_is_short_and_cites_where_moves_go() -> None:
    """`why 3` in the move phase said "happens on spaces" with three sample moves and cited up to six clauses
    gathered from them (send-backs, stairways): RU-10 and RU-11 say where a move goes."""
    session = _moving()
    before = session.document()
    roll = session.state.roll[0]
    ruling = explain_place(session, 3)
    assert not ruling.legal and ruling.rules == ("RU-10", "RU-11"), ruling
    assert ruling.text.startswith(f"Nothing may be done at slot 3 now: {session.state.current.capitalize()} moves "
                                  f"a pawn {roll} space"), ruling.text
    assert ruling.text.endswith(", not on a slot.") and ruling.text.count(";") == 0, ruling.text
    assert session.document() == before
