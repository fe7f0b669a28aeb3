"""What the table hears: the screen's texts turned into words espeak-ng says the way a player follows them.

The sentences here are the games' own, collected from seeded random games through the app; each test names
what espeak-ng made of it before (`espeak-ng -x` shows the phonemes).
"""

from __future__ import annotations

import random
from typing import Any

from companion.game import normalize_action
from companion.session import Session
from tests.ui.conftest import advance
from ui.voice import spoken_form, spoken_step


def test_clause_ids_are_left_out_of_speech() -> None:
    """A ruling with two reasons cites each: "[TTD-3b]" was said "T T D three b" between them."""
    ruling = (
        "Nothing may be done there. A pink camel on (7,10) would touch Orange's pink piece at (8,10). [TTD-3b] "
        "(7,10) does not touch Black's green caravan. [TTD-3a] The same rule rules out 3 other choices there too: "
        "yellow camel, blue camel and white camel."
    )
    said = spoken_form(ruling)
    assert "TTD" not in said and "[" not in said
    assert "piece at hex 8, 10. hex 7, 10 does not touch" in said  # the sentences keep their stops
    assert spoken_form("Not yet. [BP-C10, BP-6]") == "Not yet."


def test_a_hex_keeps_its_minus_sign() -> None:
    """espeak-ng reads "(-4,12)" as "four twelve": another hex than the one the camel went to."""
    assert spoken_form("Black places a blue camel on (-4,12).") == "Black places a blue camel on hex minus 4, 12."
    assert spoken_form("(4,1): 1 choice; confirm to open") == "hex 4, 1: 1 choice; confirm to open"


def test_a_temple_cell_is_said_by_column_and_row_as_the_margins_number_them() -> None:
    """ "[11,13] (slot 7 r1c0)" was "eleven thirteen slot seven r one c zero"."""
    step = "Red 2 moves 3 from [11,13] (slot 7 r1c0) to [13,13] (corner)."
    assert spoken_form(step) == "Red 2 moves 3 from column 11, row 13 (slot 7) to column 13, row 13 (corner)."


def test_targi_centre_cards_ranges_card_ids_and_points() -> None:
    """ "centre 1-1" was "centre one dash one", "T31" "T thirty-one", "2 VP" "two V P"."""
    step = "Black takes Matriarch (T31, targia, 2 VP, costs 2 dates or 1 gold) from centre 1-1."
    assert spoken_form(step) == (
        "Black takes Matriarch (targia, 2 victory points, costs 2 dates or 1 gold) from centre 1 1."
    )
    assert spoken_form("Centre 2-1 shows Date Sacks (G04).") == "Centre 2 1 shows Date Sacks."
    assert spoken_form("White takes 1 VP.") == "White takes 1 victory point."
    assert spoken_form("(4-6 keeps it, 1-3 loses it)") == "(4 to 6 keeps it, 1 to 3 loses it)"
    # A card known only by its id keeps it: the temple's path cards have no other name.
    assert spoken_form("P27 goes into slot 1.") == "P27 goes into slot 1."


def test_the_prompt_does_not_repeat_the_step() -> None:
    assert spoken_step("Green rolls 1.", "Green rolled 1: choose the traveller to move.") == (
        "Green rolls 1. Choose the traveller to move."
    )
    end = "The game ends: the last blue camel has been placed. Final scores: Red 50, Black 51. Black wins."
    over = "The game is over: the last blue camel has been placed. Final scores: Red 50, Black 51. Black wins."
    assert spoken_step(f"Black places a blue camel on (8,2). {end}", over).endswith(f"{end} The game is over.")
    won = "Green has all three travellers in camp and wins!"
    assert spoken_step(won, "Green has all three travellers in camp and wins.") == won


def test_who_acts_next_is_never_left_out() -> None:
    """Only words just said are dropped: a player's name, a short opening and a new order stay."""
    assert spoken_step("Black rolls the die.", "Black: roll the die.") == "Black rolls the die. Black: roll the die."
    assert spoken_step("Red rolls 4. Nothing of Red's can move with a 4: the turn passes.", "Green: roll the oracle.") \
        == "Red rolls 4. Nothing of Red's can move with a 4: the turn passes. Green: roll the oracle."
    red_roll = "Red roll: Green, replace one path card with one from your hand."
    assert spoken_step("Green rolls red 3: first replace one path card.", red_roll).endswith(red_roll)
    assert spoken_step("", "Black: roll for Sheer Cliff.") == "Black: roll for Sheer Cliff."  # a redo of nothing said


def spoken_now(app: Any) -> str:
    app.voice.wait()
    return str(app.spoken.lines[-1])


def test_the_app_speaks_the_spoken_form_and_shows_the_text(start: Any) -> None:
    """A Blackpool roll and a camel on a hex west of the map's first column, through the app."""
    blackpool = Session.new("blackpool", ["yellow", "red"])
    rng = random.Random(2)
    while True:  # on to a roll of 3 that leaves a traveller to choose
        legal = blackpool.legal()
        three = next((a for a in legal if a.get("type") == "roll" and a.get("value") == 3), None)
        if three is not None:
            after, _ = blackpool.game.apply(blackpool.state, normalize_action(three))
            if "rolled 3: choose" in blackpool.game.pending(after).text:
                break
        blackpool.act(blackpool.game.sim_choose(blackpool.state, legal, rng))
    app = start(blackpool)
    app.show("table")
    advance(2)
    app.act(three)
    who = app.announcements[0]["text"].split()[0]
    assert app.announcements[0]["text"] == f"{who} rolls 3."  # the screen keeps the game's words
    assert app.prompt.startswith(f"{who} rolled 3: choose")
    heard = spoken_now(app)
    assert heard == f"{who} rolls 3. Choose the traveller to move." == app.last_spoken

    session = Session.new("ttd", ["red", "black", "orange"])
    rng = random.Random(1)
    west = None
    while west is None and not session.pending().is_over:
        legal = session.legal()
        west = next((a for a in legal if a.get("type") == "camel" and a["hex"][0] < 0), None)
        if west is None:
            session.act(session.game.sim_choose(session.state, legal, rng))
    assert west is not None
    app.new_game("blackpool", ["yellow", "red"])  # any game: the seeded Desert is put on the table next
    app.controller.set_session(session)
    advance(2)
    app.act(west)
    q, r = west["hex"]
    assert f"({q},{r})" in app.announcements[0]["text"]
    heard = spoken_now(app)
    assert f"hex minus {-q}, {r}" in heard and f"({q},{r})" not in heard


def test_the_last_step_names_the_winner_once(start: Any) -> None:
    session = Session.new("ttd", ["red", "black", "orange"])
    rng = random.Random(0)
    while True:
        action = session.game.sim_choose(session.state, session.legal(), rng)
        after, _ = session.game.apply(session.state, normalize_action(action))
        if session.game.pending(after).is_over:
            break
        session.act(action)
    app = start(session)
    app.show("table")
    advance(2)
    app.act(action)
    assert app.game_over
    heard = spoken_now(app)
    assert heard.count("wins") == 1 and heard.endswith("The game is over.")


def test_a_tribe_marker_moved_between_centre_cards_is_not_heard_as_a_range() -> None:
    """Fata Morgana's "from centre 3-2 to 3-1" names the second card without "centre": it was said "from
    centre 3 2 to 3 to 1", the destination heard as a range of die faces."""
    step = "Black moves a tribe marker from centre 3-2 to 3-1."
    assert spoken_form(step) == "Black moves a tribe marker from centre 3 2 to centre 3 1."
    assert spoken_form("Move the marker from centre 2-2 to 1-2") == "Move the marker from centre 2 2 to centre 1 2"
    assert spoken_form("Sand Thief: Black rolls to keep it (4-6 keeps it).").endswith("(4 to 6 keeps it).")
