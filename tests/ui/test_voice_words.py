"""What the table hears: the screen's texts turned into words espeak-ng says the way a player follows them.

The sentences here are the games' own, collected from seeded random games through the app; each test names
what espeak-ng made of it before (`espeak-ng -x` shows the phonemes).
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from companion.controller import Controller
from companion.game import normalize_action
from companion.games.ttd.board import hex_label
from companion.observations import ButtonPressed, DieRead, Touch
from companion.places import place_of
from companion.registry import create, game_classes
from companion.session import Session
from companion.simulate import random_players
from tests.ui.conftest import advance
from ui.voice import spoken_form, spoken_step

pytestmark = pytest.mark.usefixtures("undrawn")  # texts, sizes and states are read, never the window's pixels


def test_clause_ids_are_left_out_of_speech() -> None:
    """A ruling with two reasons cites each: "[TTD-3b]" was said "T T D three b" between them."""
    ruling = (
        "Nothing may be done there. A pink camel on (7,10) would touch Orange's pink piece at (8,10). [TTD-3b] "
        "(7,10) does not touch Black's green caravan. [TTD-3a] The same rule rules out 3 other choices there too: "
        "yellow camel, blue camel and white camel."
    )
    said = spoken_form(ruling)
    assert "TTD" not in said and "[" not in said
    assert "piece at hex 8, 10. Hex 7, 10 does not touch" in said  # the sentences keep their stops, and capitals
    assert spoken_form("Not yet. [BP-C10, BP-6]") == "Not yet."


def test_a_hex_keeps_its_minus_sign() -> None:
    """espeak-ng reads "(-4,12)" as "four twelve": another hex than the one the camel went to."""
    assert spoken_form("Black places a blue camel on (-4,12).") == "Black places a blue camel on hex minus 4, 12."
    assert spoken_form("(4,1): 1 choice; confirm to open") == "Hex 4, 1: 1 choice; confirm to open"


def test_a_temple_cell_is_said_by_column_and_row_as_the_margins_number_them() -> None:
    """ "[11,13] (slot 7)" was "eleven thirteen slot seven r one c zero"."""
    step = "Red 2 moves 3 from [11,13] (slot 7) to [13,13] (corner)."
    assert spoken_form(step) == "Red 2 moves 3 from column 11, row 13 (slot 7) to column 13, row 13 (corner)."


def test_targi_centre_cards_ranges_card_ids_and_points() -> None:
    """ "centre 1-1" was "centre one dash one", "T31" "T thirty-one", "2 VP" "two V P"."""
    step = "Black takes Matriarch (T31, targia, 2 VP, costs 2 dates or 1 gold) from centre 1-1."
    assert spoken_form(step) == (
        "Black takes Matriarch (targhia, 2 victory points, costs 2 dates or 1 gold) from centre 1 1."
    )
    assert spoken_form("Centre 2-1 shows Date Sacks (G04).") == "Centre 2 1 shows Date Sacks."
    assert spoken_form("White takes 1 VP.") == "White takes 1 victory point."
    assert spoken_form("(4-6 keeps it, 1-3 loses it)") == "(4 to 6 keeps it, 1 to 3 loses it)"
    # A card known only by its id keeps it: the temple's path cards have no other name.
    assert spoken_form("P27 goes into slot 1.") == "P27 goes into slot 1."


def test_a_path_card_id_is_said_without_its_leading_zero() -> None:
    """ "P07" was "p zero seven", "P32" "p thirty-two": the ids are said alike, as numbers."""
    assert spoken_form("Red replaces P07 in slot 3 with P44; P07 goes to the discard pile.") == (
        "Red replaces P 7 in slot 3 with P44; P 7 goes to the discard pile.")
    assert spoken_form("Allowed there: Slot 2: P15 out, P02 in; Slot 2: P15 out, P04 in.") == (
        "Allowed there: Slot 2: P15 out, P 2 in; P 4 in.")


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
    assert hex_label(q, r) in app.announcements[0]["text"]
    heard = spoken_now(app)
    assert f"hex minus {-q}, {r}" in heard and hex_label(q, r) not in heard


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


# The forms below were collected from 100 seeded random games (20 of each game) through the controller, each
# announcement as the app builds it (`spoken_step` of the step and the next prompt, then `spoken_form`).

def test_targia_is_said_with_a_hard_g() -> None:
    """espeak-ng said the tribe-card symbol "targia" as "tar-juh" (`espeak-ng -x`: t'A@dZ@)."""
    said = spoken_form("Tribal Expansion turns up Song Keeper (T12, targia, 3 VP, costs 2 dates, 2 pepper or 2 gold).")
    assert said == ("Tribal Expansion turns up Song Keeper (targhia, 3 victory points, costs 2 dates, 2 pepper or 2 "
                    "gold).")
    assert spoken_form("Targia") == "Targhia" and spoken_form("Place the Targi.") == "Place the Targi."


def test_a_prompt_part_the_step_just_said_is_not_said_again() -> None:
    """The stairway's place and the Sand Thief's whole sentence were heard twice, a second apart."""
    step = ("Yellow 1 moves 4 from [1,1] (corner) to [0,4] (slot 12). Yellow 1 ends on the secret stairway at "
            "[0,4] (slot 12): it comes out at one of the 2 others.")
    prompt = "Yellow: Yellow 1 is on the secret stairway at [0,4] (slot 12); pick the stairway it comes out at."
    assert spoken_step(step, prompt) == f"{step} Yellow: pick the stairway it comes out at."
    thief = ("Pink draws Sand Thief. Sand Thief: Grey takes one of Pink's Collection cards without looking; enter the "
             "card taken.")
    asked = "Sand Thief: Grey takes one of Pink's Collection cards unseen; which card was taken?"
    assert spoken_step(thief, asked) == f"{thief} Sand Thief: which card was taken?"
    # An undo names where the pawn was taken from, the prompt where it stands: both are said.
    back = "Taken back: Blue 1 takes the secret stairway from [2,10] (slot 10) to [11,13] (slot 7)."
    stands = "Blue: Blue 1 is on the secret stairway at [2,10] (slot 10); pick the stairway it comes out at."
    assert spoken_step(back, stands) == f"{back} {stands}"
    # What is asked stays even when all of it was said ("Black rolls the die." is no "roll the die").
    assert spoken_step("Black rolls the die.", "Black: roll the die; then move.") == (
        "Black rolls the die. Black: roll the die; then move.")


def test_a_list_of_choices_names_their_shared_place_once() -> None:
    """ "Allowed there:" named the hex, or the slot and the card going out, in every choice."""
    assert spoken_form("Allowed there: Pink leader to (6,7); Green leader to (6,7); White leader to (6,7).") == (
        "Allowed there: Pink leader to hex 6, 7; Green leader; White leader.")
    assert spoken_form("Allowed there: Water hole at (3,10) worth 1; Water hole at (3,10) worth 2.") == (
        "Allowed there: Water hole at hex 3, 10 worth 1; 2.")
    temple = ("Allowed there: Slot 2: P37 out, P02 in, sending Red 1 back; Slot 2: P37 out, P04 in; Slot 2: P37 out, "
              "P08 in, sending Red 1 back and 20 more.")
    assert spoken_form(temple) == (  # a third choice made 29 words: fewer are said (said "P 2", "P 4")
        "Allowed there: Slot 2: P37 out, P 2 in, sending Red 1 back; P 4 in; and 21 more on the screen.")
    assert spoken_form("Allowed: Red 1 to [5,1] (slot 1) in 4; Red 2 to [5,1] (slot 1) in 4.") == (
        "Allowed: Red 1 to column 5, row 1 (slot 1) in 4; Red 2.")
    # The place in the middle, each choice ending apart: it was said twice, "... in 5; Green 2 to column 10, ..."
    assert spoken_form("Allowed there: Green 1 to [10,13] (slot 7) in 5; Green 2 to [10,13] (slot 7) in "
                       "4.") == "Allowed there: Green 1 to column 10, row 13 (slot 7) in 5; Green 2 in 4."


def test_a_long_bracket_is_said_after_its_sentence() -> None:
    """A correction's withdrawn step and a stray die's question were said inside their sentence, 28 to 31 words
    before its stop."""
    correction = ("Correction: the roll entered last (Purple rolls 4: the Guardian's Test needs a 6; Purple stays and "
                  "the turn ends) is withdrawn; enter what the table really shows.")
    assert spoken_form(correction) == (
        "Correction: the roll entered last is withdrawn: Purple rolls 4: the Guardian's Test needs a 6; Purple "
        "stays and the turn ends. Enter what the table really shows.")
    stray = ("A die showing 1 was read, but no roll is expected now (Grey is on Sheer Cliff (needs 5 or more): "
             "attempt it now, or stop here and end the turn?).")
    assert spoken_form(stray) == (
        "A die showing 1 was read, but no roll is expected now. Grey is on Sheer Cliff (needs 5 or more): attempt "
        "it now, or stop here and end the turn?")
    # A withdrawn step of two sentences was cut at the stop inside its bracket: "Correction: the roll entered last
    # (Grey rolls 3: ... space 15." then "Next turn ... or try again) is withdrawn; enter what ...".
    two = ("Correction: the roll entered last (Grey rolls 3: failed attempt 3 of 3 at Sheer Cliff (15). Next turn "
           "Grey may roll as normal and move on, or try again) is withdrawn; enter what the table really shows.")
    assert spoken_form(two) == (
        "Correction: the roll entered last is withdrawn: Grey rolls 3: failed attempt 3 of 3 at Sheer Cliff, space "
        "15. Next turn Grey may roll as normal and move on, or try again. Enter what the table really shows.")
    # A short one holding a sentence too: it was said "now (Black wins.).", the game's end inside the refusal.
    assert spoken_form("A die showing 1 was read, but no roll is expected now (Black wins.).") == (
        "A die showing 1 was read, but no roll is expected now. Black wins.")
    assert spoken_form("A die showing 1 was read, but no roll is expected now (Blue: move a pawn 5.).") == (
        "A die showing 1 was read, but no roll is expected now. Blue: move a pawn 5.")
    # A short bracket, or a list in brackets, stays where it is.
    assert spoken_form("Rocky Ridge is a challenge: roll 4 or more to go on (up to 3 attempts).") == (
        "Rocky Ridge is a challenge: roll 4 or more to go on (up to 3 attempts).")


def test_a_long_sentence_is_cut_where_it_pauses() -> None:
    said = spoken_form("Red 1 cannot reach [0,3] (slot 12) with a roll of 7: no route of 7 steps or fewer over "
                       "path spaces leads there.")
    assert said == ("Red 1 cannot reach column 0, row 3 (slot 12) with a roll of 7. No route of 7 steps or fewer over "
                    "path spaces leads there.")
    listed = spoken_form("Nothing may be done there now: what may be done now happens on border cards, such as: Place "
                         "a Targi on 1 (Noble); Place a Targi on 2 (Palm Grove); Place a Targi on 5 (Salt Pans).")
    assert listed == ("Nothing may be done there now. What may be done now happens on border cards, such as: Place a "
                      "Targi on 1 (Noble); 2 (Palm Grove); 5 (Salt Pans).")  # the examples' shared words said once
    # Not after "Scared!": it was cut there, "... a 6 is Scared!. Loses the Cloak, ...", a sentence without who
    # (240 distinct announcements over 150 seeded games); the semicolon leaves two whole ones.
    scared = ("Black: roll to move from Robbers' Cache (21) (or first: Desert Flask); a 6 lands on Scared!: redeem "
              "the Cloak or lose 2 Lives, back to start.")
    assert spoken_form(scared) == ("Black: roll to move from Robbers' Cache, space 21 (or first: Desert Flask). A 6 "
                                   "lands on Scared!: redeem the Cloak or lose 2 Lives, back to start.")


def test_two_players_alike_are_said_together() -> None:
    step = ("Black places a Targi on card 7 (Spice Stall). White's Targi make no crossing: no tribe marker this "
            "round. Black's Targi make no crossing: no tribe marker this round.")
    assert spoken_form(step) == ("Black places a Targi on card 7 (Spice Stall). White's and Black's Targi make no "
                                 "crossing: no tribe marker this round.")
    # Only whose: "Teal and Black misses this turn" would be wrong; the verb is said for two (`_gapped`).
    missed = "Teal misses this turn (Desert Whisper). Black misses this turn (Desert Whisper)."
    assert spoken_form(missed) == "Teal and Black miss this turn (Desert Whisper)."




def test_random_games_of_every_game_are_heard_plainly() -> None:
    """Seeded games of all five through the controller, with undos, redos, checks, pointing and the button box's
    next: every announcement as the app speaks it keeps to words, one thing said once, sentences a listener
    follows, each opening with a capital."""
    heard: set[str] = set()
    for game_id in game_classes():
        for seed in range(2):
            rng, presses = random.Random(seed), random.Random(seed)  # presses: the games played stay the same
            session = Session.new(game_id, random_players(create(game_id), rng))
            controller = Controller(session)
            tried: list[dict[str, Any]] = []
            for _ in range(400):
                if session.pending().is_over:
                    break
                legal = session.legal()
                roll = rng.random()
                if roll < 0.05 and session.can_undo:
                    updates = [controller.handle(Touch("undo")), controller.handle(Touch("redo"))]
                elif roll < 0.1 and tried:
                    updates = [controller.handle(Touch("check", rng.choice(tried)))]
                elif roll < 0.15 and tried and place_of(rng.choice(tried)) is not None:
                    updates = [controller.handle(Touch("explain", place=place_of(rng.choice(tried))))]
                else:
                    rolled = session.pending().kind == "roll"
                    action = session.game.sim_choose(session.state, legal, rng)
                    tried = [*tried, *({k: v for k, v in a.items() if k != "text"} for a in legal[:3])][-30:]
                    updates = [controller.handle(Touch("act", {k: v for k, v in action.items() if k != "text"}))]
                    if rolled and roll < 0.25:  # a sensor saying its roll again, when no roll is expected
                        updates.append(controller.handle(DieRead(1, source="dice")))
                if presses.random() < 0.1:  # the button box's next: each place or choice it lights is said
                    updates += [controller.handle(ButtonPressed("next")) for _ in range(presses.randint(1, 3))]
                for update in updates:
                    text = update.text
                    if update.kind in ("step", "undo", "redo") and update.pending is not None:
                        text = spoken_step(update.text, update.pending.text, update.pending.is_over)
                    heard.add(spoken_form(text))
    assert len(heard) > 1000
    for said in heard:
        assert not re.search(r"[\[\]/]|\br\d+c\d+\b|->|\d-\d|\btargia\b|\bVP\b|\(-?\d+, ?-?\d+\)", said), said
        assert not GOODS_WITHOUT_AND.search(said), said
        assert not _goods_run_on(said), said
        words = re.findall(r"[a-z0-9']+", said.lower())
        twice = {tuple(words[i:i + 7]) for i in range(len(words) - 6) if
                 any(words[j:j + 7] == words[i:i + 7] for j in range(i + 1, len(words) - 6))}
        # Each piece of a parallel report (every traveller sent back, every pawn off the path) names its own.
        assert not twice or re.search(r"goes back|back to its|off the path|no crossing|cannot reach", said), said
        # a "!" before a small letter ("is Scared! on Cobra Pit") ends no sentence a listener hears
        for sentence in re.split(r"(?<=[.?])\s+|(?<=!)\s+(?![a-z])", said):
            # every sentence heard opens with a capital (or a figure): "hex 7, 0 is already taken" did not
            assert sentence[:1].isupper() or sentence[:1].isdigit(), (sentence, said)
            assert len(re.findall(r"[\w']+", sentence)) <= 25, sentence  # a list says fewer choices



def test_a_desert_space_is_said_by_its_name_and_its_number_on_the_ring() -> None:
    """The desert race's texts give a space's number beside its name, as the ring at 800x480 shows only the
    number: "(12)" was said as a bare "twelve" tacked on. A bracketed number after a lower-case word (a round
    limit) is no space and stays as it was."""
    assert spoken_form("Rolled 3: move to Twin Dunes (11)") == "Rolled 3: move to Twin Dunes, space 11"
    assert spoken_form("Black moves on from Rocky Ridge (5) with a normal roll.") == (
        "Black moves on from Rocky Ridge, space 5, with a normal roll.")
    assert spoken_form("Send Pink to Cobra Pit (27, scared)") == "Send Pink to Cobra Pit, space 27, scared"
    assert spoken_form("Black chooses to go to Scared! (5).") == "Black chooses to go to Scared, space 5."
    # A bracketed number after a lower-case word is no space: said between two pauses, as a space's number is
    # (it was "the round limit thirty is reached", the brackets unheard).
    assert spoken_form("The round limit (30) is reached: the game ends with no winner.") == (
        "The round limit, 30, is reached: the game ends with no winner.")
    assert spoken_form("Moves are counted to the limit (30).") == "Moves are counted to the limit, 30."
    # A bracket saying more than a number stays a bracket.
    assert spoken_form("Black loses 2 Lives (3 left).") == "Black loses 2 Lives (3 left)."


def test_scared_inside_a_sentence_is_no_sentence_end() -> None:
    """The desert race's "Teal is Scared! on Cobra Pit (13): ..." was cut into two sentences at the "!", so the
    27-word question was never cut where it pauses, and a stray die's question in brackets after "no roll is
    expected now (" stayed inside its 38-word sentence; espeak-ng also said "Scared!" as a cry mid-sentence."""
    asked = ("Teal is Scared! on Cobra Pit (13): redeem the Mirage Cloak to ignore the penalty (lose 2 Lives and go"
             " back to Desert Dawn (0))?")
    assert spoken_form(asked) == ("Teal is Scared on Cobra Pit, space 13. Redeem the Mirage Cloak to ignore the"
                                  " penalty (lose 2 Lives and go back to Desert Dawn, space 0)?")
    stray = f"A die showing 4 was read, but no roll is expected now ({asked})."
    assert spoken_form(stray) == (
        "A die showing 4 was read, but no roll is expected now. Teal is Scared on Cobra Pit, space 13. Redeem the"
        " Mirage Cloak to ignore the penalty (lose 2 Lives and go back to Desert Dawn, space 0)?")
    assert spoken_form("Pink redeems the Mirage Cloak: Scared! has no effect.") == (
        "Pink redeems the Mirage Cloak: Scared has no effect.")
    # A "!" that ends a sentence still does.
    assert spoken_form("Scared! Grey loses 2 Lives (0 left).") == "Scared! Grey loses 2 Lives (0 left)."


def test_the_ah_kinchil_card_is_said_by_its_name() -> None:
    """A temple undo puts the card back by its id, "Put card AK back in Green's hand." (espeak-ng: "ay kay"), while
    every other text names it "the Ah Kinchil card"; path cards keep their ids, having no other name."""
    assert spoken_form("Put card AK back in Green's hand.") == "Put the Ah Kinchil card back in Green's hand."
    assert spoken_form("Put card P10 back in slot 12 and card AK back in Red's hand.") == (
        "Put card P10 back in slot 12 and the Ah Kinchil card back in Red's hand.")


def test_a_long_sentence_without_a_colon_is_cut_before_its_but() -> None:
    """ "Blue 1 is on the secret stairway at [10,13] (slot 7), but every other stairway ...: it stays." was
    30 words said in one breath: its colon leaves only "it stays" after it, too short to stand alone."""
    stays = ("Blue 1 is on the secret stairway at [10,13] (slot 7), but every other stairway is more than half a"
             " lap away along its lap, across its wall: it stays.")
    assert spoken_form(stays) == ("Blue 1 is on the secret stairway at column 10, row 13 (slot 7). But every other"
                                  " stairway is more than half a lap away along its lap, across its wall: it stays.")
    short = "Red 1 may move, but not there."
    assert spoken_form(short) == short


def test_a_prompt_saying_the_steps_tail_again_with_more_is_heard_once() -> None:
    """The temple's red roll under the optional card change said its tail twice, a second apart: "Blue rolls red
    7: first replace one path card (or leave the path as it is). Blue: red 7 rolled; first replace one path card
    with one from your hand, or leave the path as it is." The prompt says it with more, and is what is asked: the
    step's tail goes. Played through the controller, as the table hears it."""
    session = Session.new("temple", ["red", "blue"], options={"change_optional": True})
    rng = random.Random(0)
    while not (session.pending().kind == "roll" and "roll the die" in session.pending().text):
        session.act(session.game.sim_choose(session.state, session.legal(), rng))
    red = next(a for a in session.legal() if a.get("face", {}).get("colour") == "red" and a["value"] == 7)
    who = session.pending().text.split(":")[0]
    update = Controller(session).handle(Touch("act", {k: v for k, v in red.items() if k != "text"}))
    assert update.text.endswith("(or leave the path as it is).")  # the screen keeps the game's words
    said = spoken_form(spoken_step(update.text, update.pending.text))
    assert said == (f"{who} rolls red 7. {who}: first replace one path card with one from your hand, or leave the "
                    "path as it is.")
    assert said.count("leave the path") == 1
    # A tail the prompt says word for word, in one run, is dropped from the prompt as before, in its place.
    draw = "Final score Black 17, White 17: a draw (equal points, gold and goods)."
    assert spoken_step(draw, "The game is over: a draw (equal points, gold and goods).", over=True) == (
        f"{draw} The game is over.")
    # A tail the prompt does not say all of stays.
    assert spoken_step("Green rolls red 3: first replace one path card.", "Red roll: Green, replace one path card "
                       "with one from your hand.").startswith("Green rolls red 3: first replace one path card.")


def test_a_prompt_naming_the_place_the_step_just_named_says_only_who() -> None:
    """The desert race named the space twice in a row: "Pink moves 4 spaces forward to Jewel of the Desert (38).
    Pink on Jewel of the Desert (38): agree trades, or end the turn." (26 of 49,424 announcements in 150 seeded
    games)."""
    step = "Pink moves 4 spaces forward to Jewel of the Desert (38)."
    assert spoken_form(spoken_step(step, "Pink on Jewel of the Desert (38): agree trades, or end the turn.")) == (
        "Pink moves 4 spaces forward to Jewel of the Desert, space 38. Pink: agree trades, or end the turn.")
    # Another player on the same space, or a place the step did not name, is still said.
    other = "Brown moves 6 spaces forward to Jewel of the Desert (38)."
    assert spoken_step(other, "Pink on Jewel of the Desert (38): agree trades, or end the turn.").endswith(
        "Pink on Jewel of the Desert (38): agree trades, or end the turn.")
    assert spoken_step(step, "Pink on Oasis of Mirrors (21): agree trades, or end the turn.").endswith(
        "Pink on Oasis of Mirrors (21): agree trades, or end the turn.")


def test_the_temple_red_roll_is_said_once_in_the_standard_game() -> None:
    """Without the optional change the red roll said its roll and its order twice, a second apart: "Blue rolls red
    1: first replace one path card. Blue: red 1 rolled; first replace one path card with one from your hand." (47
    of 54,294 announcements in 150 seeded games, with the optional change's "Blue rolls red 7. Blue: red 7
    rolled; ..."). The step's tail, said word for word inside the prompt's longer order, and the prompt's "red 1
    rolled", the step again, go: who acts and what is asked stay."""
    session = Session.new("temple", ["red", "blue"])
    rng = random.Random(0)
    while not (session.pending().kind == "roll" and "roll the die" in session.pending().text):
        session.act(session.game.sim_choose(session.state, session.legal(), rng))
    red = next(a for a in session.legal() if a.get("face", {}).get("colour") == "red" and a["value"] == 1)
    who = session.pending().text.split(":")[0]
    update = Controller(session).handle(Touch("act", {k: v for k, v in red.items() if k != "text"}))
    assert update.text == f"{who} rolls red 1: first replace one path card."  # the screen keeps the game's words
    assert spoken_form(spoken_step(update.text, update.pending.text)) == (
        f"{who} rolls red 1. {who}: first replace one path card with one from your hand.")
    # A part in other words ("roll the die" is asked, "rolls the die" told), or about someone else, stays.
    assert spoken_step("Black rolls the die.", "Black: roll the die; then move.").endswith("roll the die; then move.")
    assert spoken_step("Blue rolls red 1.", "Green: red 1 rolled; pass.").endswith("Green: red 1 rolled; pass.")


def test_a_list_of_examples_says_what_they_share_once() -> None:
    """A place where nothing may be done names examples of what may: Targi's were "such as: Place a Targi on 2
    (Palm Grove); Place a Targi on 9 (Trader); Place a Targi on 10 (Crossroads Well).", 31 words in a sentence
    saying "Place a Targi on" three times. Examples sharing only a word ("Use ... ; Use ...") keep it."""
    ruling = ("Nothing may be done there now: what may be done now happens on border cards, such as: Place a Targi on 2"
              " (Palm Grove); Place a Targi on 9 (Trader); Place a Targi on 10 (Crossroads Well).")
    assert spoken_form(ruling) == ("Nothing may be done there now. What may be done now happens on border cards, such"
                                   " as: Place a Targi on 2 (Palm Grove); 9 (Trader); 10 (Crossroads Well).")
    uses = ("What may be done now happens on centre cards, such as: Use Date Sacks at centre 1-1; Use Pepper Jars at"
            " centre 1-2.")
    assert spoken_form(uses) == uses.replace("1-1", "1 1").replace("1-2", "1 2")


def test_a_sentence_opening_with_the_name_just_said_says_it_once() -> None:
    """The desert race's events each name their space or card whole, as the screen shows them apart; heard in a
    row they named it twice: "... forward to Rocky Ridge (5). Rocky Ridge (5) is a challenge: ..." (903 of 27,793
    distinct announcements in 150 seeded games). A comma goes on with "It", a colon joins the two sentences."""
    assert spoken_form("Brown moves 2 spaces forward to Rocky Ridge (5). Rocky Ridge (5) is a challenge: roll 4 or "
                       "more to go on (up to 3 attempts).") == (
        "Brown moves 2 spaces forward to Rocky Ridge, space 5. It is a challenge: roll 4 or more to go on (up to 3"
        " attempts).")
    assert spoken_form("Black chooses to go to Date Grove (12). Date Grove (12): Black goes from 6 to 7 Lives.") == (
        "Black chooses to go to Date Grove, space 12: Black goes from 6 to 7 Lives.")
    assert spoken_form("Black draws Camel's Blessing. Camel's Blessing: Black goes from 1 to 2 Lives.") == (
        "Black draws Camel's Blessing: Black goes from 1 to 2 Lives.")
    # A phrase that is no name, a name followed by another name, or a name said later in the sentence, stays.
    for kept in ("Black gains 1 date from a tribe card. A tribe card goes face down on centre 1 1.",
                 "Pink moves to Twin Dunes, space 11. Twin Dunes, Pink and Teal share it.",
                 "Teal reaches Desert Dawn, space 0. Brown is back at Desert Dawn."):
        assert spoken_form(kept) == kept  # (a space's number is said once: `test_a_desert_spaces_number_...`)


def test_the_sand_thief_save_roll_is_asked_once() -> None:
    """The desert race's Sand Thief reaching for the Golden Compass said who rolls to keep it twice in a row:
    "Sand Thief: Black reaches for Pink's Golden Compass; Pink rolls to keep it. Pink rolls to keep the Golden
    Compass from Black (4 to 6 keeps it, 1 to 3 loses it)." The step's last part, which the prompt says again
    with more (opening with the same two words, every word in order), goes; the prompt is what is asked.
    Played through the controller, as the table hears it (seed 4, standard profile)."""
    rng = random.Random(4)
    session = Session.new("desert", random_players(create("desert"), rng), profile="standard")
    controller = Controller(session)
    while True:
        assert not session.pending().is_over
        action = session.game.sim_choose(session.state, session.legal(), rng)
        update = controller.handle(Touch("act", {k: v for k, v in action.items() if k != "text"}))
        if "rolls to keep it" in update.text:
            break
    assert update.text.endswith("; Pink rolls to keep it (4-6 keeps it).")  # the screen keeps the game's words
    said = spoken_form(spoken_step(update.text, update.pending.text))
    assert said == ("Pink draws Sand Thief: Black reaches for Pink's Golden Compass. Pink rolls to keep the Golden"
                    " Compass from Black (4 to 6 keeps it, 1 to 3 loses it).")
    # A last part the prompt does not open with, or does not say all of, stays.
    for prompt in ("Black: roll to keep the Golden Compass.", "Pink rolls the die."):
        assert spoken_step("Sand Thief: Black reaches; Pink rolls to keep it.", prompt).startswith(
            "Sand Thief: Black reaches; Pink rolls to keep it.")


def test_a_long_list_of_choices_says_the_first_three_and_how_many_more() -> None:
    """The temple's "Allowed there:" list of card swaps named five choices and a count (the screen's, whose
    buttons list them all): 25 to 32 words in one sentence, past what a listener holds. A list of more than four
    choices says the first three and how many more the screen shows; the screen keeps its list."""
    swaps = ("Allowed there: Slot 1: P30 out, P01 in; Slot 1: P30 out, P02 in; Slot 1: P30 out, P03 in; Slot 1: P30"
             " out, P04 in, sending Yellow 2 back [RU-17]; Slot 1: P30 out, P09 in, sending Yellow 2 back [RU-17] and"
             " 21 more.")
    assert spoken_form(swaps) == ("Allowed there: Slot 1: P30 out, P 1 in; P 2 in; P 3 in; and 23 more on the"
                                  " screen.")
    five = "Allowed: Red 1 to h1; Red 2 to h2; Red 3 to h3; Red 4 to h4; Red 5 to h5."
    assert spoken_form(five) == "Allowed: Red 1 to h1; Red 2 to h2; Red 3 to h3; and 2 more on the screen."
    # A piece's own count inside a list of pieces' counts too, and is not said in the middle.
    pieces = "Allowed: Red 1 to h1; Red 1 to h2 and 3 more; Red 2 to h2."
    assert spoken_form(pieces) == "Allowed: Red 1 to h1; h2; Red 2 to h2; and 3 more on the screen."
    # Four are said whole, as before.
    four = ("Allowed there: Pink leader to (0,0); Green leader to (0,0); Yellow leader to (0,0); White leader to"
            " (0,0).")
    assert spoken_form(four) == "Allowed there: Pink leader to hex 0, 0; Green leader; Yellow leader; White leader."


def test_a_list_of_choices_past_25_words_says_fewer() -> None:
    """Three temple swaps, one of them a stairway, made 29 to 43 words in one sentence (3 distinct lists over 150
    seeded games): as many choices are said as keep the list's sentence within 25 words, one at least."""
    stairway = ("[8,2] is on the card in slot 2. Allowed there: Slot 2: P42 out, P05 in; Slot 2: P42 out, P07 in, "
                "Red 1 takes the secret stairway at [8,1] (slot 2 r1c2) to one of 3 others [RU-22, RU-Q10]; Slot 2: "
                "P42 out, P09 in, sending Red 1 back [RU-17]; Slot 2: P42 out, P10 in; Slot 2: P42 out, P12 in and 21 "
                "more.")
    assert spoken_form(stairway) == ("Column 8, row 2 is on the card in slot 2. Allowed there: Slot 2: P42 out, P 5 in;"
                                     " and 25 more on the screen.")
    back = ("Allowed there: Slot 2: P29 out, P01 in; Slot 2: P29 out, P02 in, sending Red 2 back [RU-17]; Slot 2: P29 "
            "out, P03 in, sending Red 2 back [RU-17]; Slot 2: P29 out, P04 in and 23 more.")
    said = spoken_form(back)
    assert said == ("Allowed there: Slot 2: P29 out, P 1 in; P 2 in, sending Red 2 back; and 25 more on the screen.")
    assert len(re.findall(r"[\w']+", said)) <= 25
    # A refusal before a "such as:" list is its own sentence once cut at its colon: its words are not the list's.
    examples = ("Nothing may be done there now: what may be done now happens on border cards, such as: Place a Targi "
                "on 1 (Noble); Place a Targi on 2 (Palm Grove); Place a Targi on 3 (Silversmith).")
    assert spoken_form(examples).endswith("such as: Place a Targi on 1 (Noble); 2 (Palm Grove); 3 (Silversmith).")


def test_a_stairway_names_the_place_the_move_ended_on_once() -> None:
    """A temple pawn ending on a stairway named its cell twice in a row, "... to column 0, row 9 (slot 10). Blue 2
    takes the secret stairway from column 0, row 9 (slot 10) to ..." (67 distinct announcements over 150 seeded
    games, 1 after); the second time it is "there". Through the Desert's water hole taken by the camel just
    placed too: "... on hex 8, 2. Brown takes the water hole there worth 3." (430)."""
    taken = ("Blue 2 moves 3 from [1,7] (slot 11 r1c1) to [0,9] (slot 10 r0c2). Blue 2 takes the secret stairway from "
             "[0,9] (slot 10 r0c2) to [10,12] (slot 7 r2c1).")
    assert spoken_form(taken) == ("Blue 2 moves 3 from column 1, row 7 (slot 11) to column 0, row 9 (slot 10). Blue 2 "
                                  "takes the secret stairway from there to column 10, row 12 (slot 7).")
    ends = ("Yellow 1 moves 3 from [13,1] (corner) to [13,4] (slot 4 r1c1). Yellow 1 ends on the secret stairway at "
            "[13,4] (slot 4 r1c1): it comes out at one of the 3 others.")
    assert spoken_form(ends).endswith(". Yellow 1 ends on the secret stairway there: it comes out at one of the 3 "
                                      "others.")
    # named last, not at the end: the new card under a pawn
    card = ("The new card puts Red 2 on the secret stairway at [9,14] (slot 7 r2c1): it takes it if there is another. "
            "Red 2 takes the secret stairway from [9,14] (slot 7 r2c1) to [4,12] (slot 9 r2c1).")
    assert spoken_form(card).endswith("Red 2 takes the secret stairway from there to column 4, row 12 (slot 9).")
    assert spoken_form("Brown places a pink camel on (8,2). Brown takes the water hole at (8,2) worth 3.") == (
        "Brown places a pink camel on hex 8, 2. Brown takes the water hole there worth 3.")
    # another place, or one a row or slot apart, is named
    other = "Blue 1 moves 1 to [2,1] (slot 1 r1c1). Blue 1 takes the secret stairway from [2,12] (slot 9 r0c0) to [1,1]"
    assert "from column 2, row 12 (slot 9)" in spoken_form(other)


GOODS = r"\d+ (?:dates?|salt|pepper|gold|victory points?)"
GOODS_WITHOUT_AND = re.compile(rf"{GOODS}(?:, {GOODS})+(?! and {GOODS})")  # "1 date, 1 gold" with no "and"


def test_targi_goods_and_costs_say_and_before_the_last() -> None:
    """A tribe card's costs were "3 pepper or 1 date, 1 gold", heard as three choices, and a payment "1 salt,
    1 pepper", a list with no end (831 of 27,602 distinct announcements over 150 seeded games, 0 after). The game
    writes them as the undo does ("Give White 1 date and 1 pepper back.")."""
    game = create("targi")
    dancer = spoken_form(f"White has no tribe marker on centre 3-2, which holds {game.cat.tribe_text('T36')}.")
    assert dancer.endswith("Dune Dancer (targhia, 2 victory points, costs 3 pepper or 1 date and 1 gold).")
    paid = game.value_words(game.setup(["white", "black"], {}), "pay", {"salt": 1, "pepper": 1})
    assert paid == "1 salt and 1 pepper"  # as Build lists it
    session = Session.new("targi", ["white", "black"])
    rng = random.Random(3)
    said: list[str] = []
    while not session.pending().is_over:
        step = session.act(session.game.sim_choose(session.state, session.legal(), rng))
        said += [spoken_form(e.text) for e in step.events]
    lists = [s for s in said if re.search(rf"{GOODS}(?:, {GOODS})* and {GOODS}", s)]
    assert lists and not [s for s in said if GOODS_WITHOUT_AND.search(s)], lists


def test_one_report_per_player_says_its_verb_once() -> None:
    """Each player's or piece's report is its own sentence on the screen; heard in a row, the verb and all it
    shares came again for each ("White puts ... Black puts ...", in 179 of 28,128 distinct announcements over
    150 seeded games). Said once, as a person says it, with every fact that differs kept."""
    markers = "Black puts tribe markers on centre 1-1 and centre 1-3. White puts a tribe marker on centre 2-2."
    assert spoken_form(markers) == ("Black puts tribe markers on centre 1 1 and centre 1 3, and White a tribe "
                                    "marker on centre 2 2.")
    both = ("White puts tribe markers on centre 2-2 and centre 2-3. Black puts tribe markers on centre 3-1 and "
            "centre 1-1.")
    assert spoken_form(both) == ("White puts tribe markers on centre 2 2 and centre 2 3, and Black on centre 3 1 "
                                 "and centre 1 1.")
    raid = "White pays the raid: 2 dates, 1 pepper. Black pays the raid: 2 VP. Round 10 begins; White places first."
    assert spoken_form(raid) == ("White pays the raid: 2 dates, 1 pepper; Black, 2 victory points. Round 10 begins; "
                                 "White places first.")
    reset = ("Blue resets Red. Red 2 goes back from d7 (ring 3) to its starting circle in the centre. Red 3 goes back "
             "from d4 (ring 4) to its starting circle in the centre.")
    assert spoken_form(reset) == ("Blue resets Red. Red 2 goes back from d7 (ring 3) to its starting circle in the "
                                  "centre, and Red 3 from d4 (ring 4).")
    blown = ("Red 2 is blown 6 forward from e7 (ring 3) to c3 (ring 3). Red 1 is blown 6 forward from d5 (ring 4) "
             "to g5 (ring 3).")
    assert spoken_form(blown) == ("Red 2 is blown 6 forward from e7 (ring 3) to c3 (ring 3), and Red 1 from d5 "
                                  "(ring 4) to g5 (ring 3).")
    same = "Black pays the raid: 2 VP. White pays the raid: 2 VP."  # each, not 2 between them
    assert spoken_form(same) == "Black and White each pay the raid: 2 victory points."
    home = "Blue 1 goes back to its Entrance Circles. Green 1 goes back to its Entrance Circles."
    assert spoken_form(home) == "Blue 1 and Green 1 go back to their Entrance Circles."
    gains = "White gains 2 VP for unused tribe markers. Black gains 1 gold for unused tribe markers."
    assert spoken_form(gains) == "White gains 2 victory points for unused tribe markers, and Black 1 gold."
    # A third report that would make the sentence longer than a listener follows starts its own.
    three = ("Yellow 1 goes back from g2 (ring 2) to its starting circle in the centre. Yellow 2 goes back from d4 "
             "(ring 4) to its starting circle in the centre. Yellow 3 goes back from f7 (ring 3) to its starting "
             "circle in the centre.")
    assert spoken_form(three) == ("Yellow 1 goes back from g2 (ring 2) to its starting circle in the centre, and "
                                  "Yellow 2 from d4 (ring 4). Yellow 3 goes back from f7 (ring 3) to its starting "
                                  "circle in the centre.")
    # Not joined: one player twice, other verbs, a number right after a piece's ("Red 1 3 forward"), a "!".
    for apart in ("Red rolls 4. Red rolls 5.", "White takes 2 dates. Black gives 1 gold.",
                  "Red 1 is blown 6 forward from a1 (edge) to b2 (ring 2). Red 2 is blown 3 forward from a2 (edge).",
                  "Blue has all three travellers in camp and wins! Red has two."):
        assert spoken_form(apart) == apart


def test_a_pawn_left_on_the_only_stairway_hears_there_once() -> None:
    """A temple pawn ending on the board's only stairway was told "Red 2 is on the secret stairway there, but no
    other stairway is there to reach: it stays.": the voice says the place just named "there", and the game's
    reason said it again (5 distinct announcements over 150 seeded games). The reason now says where no other
    stairway is: on the board. Played through the session (seed 1), as the table hears it."""
    rng = random.Random(1)
    session = Session.new("temple", random_players(create("temple"), rng))
    while True:
        assert not session.pending().is_over
        step = session.act(session.game.sim_choose(session.state, session.legal(), rng))
        if any(e.rules == ("RU-24",) for e in step.events):
            break
    said = spoken_form(" ".join(e.text for e in step.events))
    assert said.endswith("Red 2 is on the secret stairway there, but no other stairway is on the board: it stays.")
    assert all(len(re.findall(r"\bthere\b", s)) <= 1 for s in re.split(r"(?<=[.!?])\s+", said)), said


def _goods_run_on(said: str) -> list[str]:
    """The clauses of ``said`` (between stops, commas and brackets) naming a list of goods with "and" and saying
    "and" again: "White pays 1 salt and 1 pepper and plays ...", one list heard running into the next."""
    return [clause for clause in re.split(r"[.;:,()!?]", said)
            if re.search(rf"{GOODS} and {GOODS}", clause) and clause.count(" and ") > 1]


def test_a_list_of_goods_is_not_followed_by_another_and() -> None:
    """Targi's goods say "and" before the last: "White pays 1 salt and 1 pepper and plays Leather Workshop into
    row 1." and an undone trade's "Black gives back 1 date and gets 1 salt and 1 pepper back." then said "and"
    twice in a row, the next clause heard as one more thing in the list (187 of 4,237 distinct announcements over
    30 seeded games, 0 after). The next clause is said after a comma, with "then"."""
    assert _goods_run_on("White pays 1 salt and 1 pepper and plays Weaver into row 1.")
    rng = random.Random(3)
    session = Session.new("targi", ["white", "black"])
    said: list[str] = []
    while not session.pending().is_over:
        step = session.act(session.game.sim_choose(session.state, session.legal(), rng))
        said += [spoken_form(e.text) for e in step.events]
        if re.match(r"\w+ (pays .* plays|gives .* for)", step.events[0].text):  # undone too, and done again
            said.append(spoken_form(session.undo().note))
            session.redo()
    played = [s for s in said if re.search(rf"pays {GOODS} and {GOODS}, then plays", s)]
    traded = [s for s in said if re.search(rf"gives back {GOODS}, then gets {GOODS}", s)]
    assert played and traded and not [s for s in said if _goods_run_on(s)], (played, traded)


def test_a_marker_is_said_at_its_cell() -> None:
    """The temple's Ah Kinchil card said "Blue 2 moves to its Ah Kinchil marker column 1, row 13 (corner).": the
    cell heard as more of the marker's name (35 distinct announcements over 30 seeded temple games). It is said
    "at" its cell; the screen keeps "marker [1,13] (corner)"."""
    step = "Blue plays the Ah Kinchil card: Blue 2 moves to its Ah Kinchil marker [1,13] (corner)."
    assert spoken_form(step) == ("Blue plays the Ah Kinchil card: Blue 2 moves to its Ah Kinchil marker at column 1, "
                                 "row 13 (corner).")
    taken = "Blue 1 stands on the red Ah Kinchil marker [13,13] (corner), and under this game's rules ..."
    assert spoken_form(taken).startswith("Blue 1 stands on the red Ah Kinchil marker at column 13, row 13 (corner)")
    assert spoken_form("Red 1 goes back to its idol marker at [6,13] (slot 8 r0c0).") == (
        "Red 1 goes back to its idol marker at column 6, row 13 (slot 8).")


def test_a_challenge_reached_is_asked_about_without_naming_it_again() -> None:
    """The desert race's challenge said its space and the roll it needs twice in a row: "Grey moves 6 spaces
    forward to Rocky Ridge, space 5. It is a challenge: roll 4 or more to go on (up to 3 attempts). Grey is on Rocky
    Ridge, space 5, needing 4 or more: attempt it now, or stop here and end the turn?" (320 of 7,260 distinct
    announcements over 30 seeded games). The question says who, and what is asked. Played through the controller
    (seed 0), as the table hears it."""
    rng = random.Random(0)
    session = Session.new("desert", random_players(create("desert"), rng))
    controller = Controller(session)
    while True:
        assert not session.pending().is_over
        action = session.game.sim_choose(session.state, session.legal(), rng)
        update = controller.handle(Touch("act", {k: v for k, v in action.items() if k != "text"}))
        if "is a challenge" in update.text and "needing" in update.pending.text:
            break
    who = update.pending.text.split()[0]
    said = spoken_form(spoken_step(update.text, update.pending.text))
    assert said.endswith(f"to go on (up to 3 attempts). {who}: attempt it now, or stop here and end the turn?"), said
    assert said.count("needing") == 0 and said.count(", space") == 1, said
    # Who did not just move there, or a need the step did not say, is still said in full.
    step = "Brown moves 6 spaces forward to Rocky Ridge (5). Rocky Ridge (5) is a challenge: roll 4 or more to go on."
    asked = "Grey is on Rocky Ridge (5), needing 4 or more: attempt it now, or stop here and end the turn?"
    assert spoken_step(step, asked).endswith(asked)
    stopped = "Black stops at Sheer Cliff (15) without an attempt; the turn ends."
    again = "Black is on Sheer Cliff (15), needing 5 or more: attempt it now, or stop here and end the turn?"
    assert spoken_step(stopped, again).endswith(again)


def test_a_targi_centre_card_named_again_is_there() -> None:
    """An undone Targi take named its centre card in each sentence, "Put Black's tribe marker back on centre 3 2.
    Put Well Keeper back face up on centre 3 2, in place of the face-down goods card." (45 of 4,237 distinct
    announcements over 30 seeded games): the second time it is "there", as a hex or a temple cell is."""
    undone = ("Taken back: Black takes Well Keeper (T20, well, 1 VP, costs 1 date and 1 pepper) from centre 3-2. Put "
              "Black's tribe marker back on centre 3-2. Put Well Keeper back face up on centre 3-2, in place of the "
              "face-down goods card.")
    assert spoken_form(undone).endswith("from centre 3 2. Put Black's tribe marker back there. Put Well Keeper back "
                                        "face up there, in place of the face-down goods card.")
    moved = ("Taken back: White moves a tribe marker from centre 2-3 to 1-3. Move White's tribe marker from centre 1-3 "
             "back to centre 2-3.")
    assert spoken_form(moved).endswith("Move White's tribe marker from there back to centre 2 3.")
    # another card is named
    assert spoken_form("Put it on centre 3-2. Put Salt Block on centre 3-1.") == (
        "Put it on centre 3 2. Put Salt Block on centre 3 1.")


def test_a_raid_just_named_is_not_named_again_by_its_question() -> None:
    """Targi's raid was named three times in one breath: "The robber moves to card 12 (Third Raid). Third Raid: each
    player loses 3 goods or 2 victory points. White: choose how to pay the raid (Third Raid)." (115 of 4,237
    distinct announcements over 30 seeded games, with Fata Morgana's "move a tribe marker (Fata Morgana)" after
    "White uses Fata Morgana"). Played through the session (seed 0), as the table hears it."""
    rng = random.Random(0)
    session = Session.new("targi", ["white", "black"])
    while True:
        assert not session.pending().is_over
        step = session.act(session.game.sim_choose(session.state, session.legal(), rng))
        if "choose how to pay the raid (" in session.pending().text:
            break
    raid = re.search(r"\((\w+ Raid)\)", session.pending().text)[1]
    said = spoken_form(spoken_step(" ".join(e.text for e in step.events), session.pending().text))
    assert said.endswith(": choose how to pay the raid.") and f"{raid}: each player loses" in said, said
    # A name the step did not say stays: the prompt alone, or after another step.
    assert spoken_step("Black rolls 3.", "White: choose how to pay the raid (Third Raid).").endswith("(Third Raid).")


def test_a_desert_space_just_named_is_there() -> None:
    """The desert race named a space in two sentences in a row: an undo's "Put Black's pawn back on Sacred Spring,
    space 34." then "Black: roll the die to move from Sacred Spring, space 34.", "... to Cobra Pit, space 27. Black
    is Scared on Cobra Pit, space 27.", "Black attempts Rocky Ridge, space 5. Black: roll for Rocky Ridge, space 5,
    needing 4 or more ..." (523 of 29,423 distinct announcements over 150 seeded games, 25 after: a win on the
    Secret Passage and an undone failed roll's question). Said "from
    there", "there" and "roll for it", as a hex or a temple cell is; the screen keeps each line whole."""
    assert spoken_form("Put Black's pawn back on Sacred Spring (34). Black: roll the die to move from Sacred Spring "
                       "(34).") == ("Put Black's pawn back on Sacred Spring, space 34. Black: roll the die to move "
                                    "from there.")
    assert spoken_form("Black moves 2 spaces forward to Cobra Pit (27). Black is Scared! on Cobra Pit (27).") == (
        "Black moves 2 spaces forward to Cobra Pit, space 27. Black is Scared there.")
    assert spoken_form("Black attempts Rocky Ridge (5). Black: roll for Rocky Ridge (5), needing 4 or more (attempt 1"
                       " of 3).") == ("Black attempts Rocky Ridge, space 5. Black: roll for it, needing 4 or more "
                                      "(attempt 1 of 3).")
    assert spoken_form("Put Teal's pawn back on Jewel of the Desert (38). Teal: roll to move from Jewel of the Desert "
                       "(38) (or first: Desert Flask).").endswith("from there (or first: Desert Flask).")
    # Another runner's challenge is named: "it" would be the attempt just failed; another space is named too.
    other = ("Brown rolls 1: failed attempt 2 of 3 at Rocky Ridge (5); the turn ends here. Teal: roll for Rocky Ridge"
             " (5), needing 4 or more.")
    assert spoken_form(other).endswith("Teal: roll for Rocky Ridge, needing 4 or more.")  # its number said once
    assert spoken_form("Put Black's pawn back on Date Grove (12). Black: roll to move from Cool Cave (29).").endswith(
        "from Cool Cave, space 29.")


def test_a_targi_card_turned_down_where_one_was_just_taken_is_there() -> None:
    """Targi's take names the centre card it empties and the next event the card laid there face down: "Black
    takes Milk Camel (...) from centre 3 2. A goods card goes face down on centre 3 2.", "Black takes 1 salt (Salt
    Block, centre 3 2). A tribe card goes face down on centre 3 2." (643 of 27,740 distinct announcements over
    150 seeded games, every one a Targi take). The second time it is "there"; the screen keeps each line whole.
    Played through the session (seed 0), as the table hears it."""
    assert spoken_form("Black takes Milk Camel (T07, camel, 1 VP, costs 1 date and 1 pepper) from centre 3-2. A goods "
                       "card goes face down on centre 3-2.").endswith("from centre 3 2. A goods card goes face down "
                                                                     "there.")
    assert spoken_form("Black takes 1 salt (Salt Block, centre 3-2). A tribe card goes face down on centre 3-2.") == (
        "Black takes 1 salt (Salt Block, centre 3 2). A tribe card goes face down there.")
    # A sentence saying "there" for the card lets the next say it so too: the undo put the marker back "there".
    undone = ("Taken back: Black takes 2 salt (Salt Slabs, centre 1-1). Put Black's tribe marker back on centre 1-1. "
              "Put Salt Slabs back face up on centre 1-1, in place of the face-down tribe card.")
    assert spoken_form(undone).endswith("(Salt Slabs, centre 1 1). Put Black's tribe marker back there. Put Salt Slabs"
                                        " back face up there, in place of the face-down tribe card.")
    # Another card is named.
    assert spoken_form("Black takes 1 salt (Salt Block, centre 3-2). A tribe card goes face down on centre 3-1.") == (
        "Black takes 1 salt (Salt Block, centre 3 2). A tribe card goes face down on centre 3 1.")
    rng = random.Random(0)
    session = Session.new("targi", ["white", "black"])
    takes, again = [], re.compile(r"(centre \d \d)\)?(?::[^.]*)?\. A \w+ card goes face down on \1")
    while not session.pending().is_over:
        step = session.act(session.game.sim_choose(session.state, session.legal(), rng))
        said = spoken_form(" ".join(e.text for e in step.events))
        if "goes face down there." in said:
            takes.append(said)
        assert not again.search(said), said  # "Black takes Open Market (centre 2 2): 1 good ..." too
    assert len(takes) > 10, takes


def test_a_desert_spaces_number_is_said_once_in_an_announcement() -> None:
    """A desert space named again in one announcement, for another runner, said its number again: "Pink rolls 2:
    Guardian's Test, space 31, needs a 6; Pink stays and the turn ends. Grey: roll for Guardian's Test, space 31,
    needing exactly 6", the Scared! runback then the next runner's warning "... go back to Desert Dawn, space 0.",
    "Black on Spice Bazaar, space 18: agree trades" after "Black moves ... to Spice Bazaar, space 18." (436 of
    27,740 distinct announcements over 150 seeded games, all the desert race). The number finds the space on the
    ring once; the name, which says whose turn goes where, stays. The screen keeps each line whole."""
    assert spoken_form("Pink rolls 2: Guardian's Test (31) needs a 6; Pink stays and the turn ends. Grey: roll for "
                       "Guardian's Test (31), needing exactly 6 (no attempt limit).") == (
        "Pink rolls 2: Guardian's Test, space 31, needs a 6; Pink stays and the turn ends. Grey: roll for Guardian's "
        "Test, needing exactly 6 (no attempt limit).")
    assert spoken_form("Scared! Grey loses 2 Lives (3 left) and runs back to Desert Dawn (0). Black: roll to move from "
                       "Merchant's Stall (2); a 5 lands on Scared!: lose 2 Lives and go back to Desert Dawn (0).") == (
        "Scared! Grey loses 2 Lives (3 left) and runs back to Desert Dawn, space 0. Black: roll to move from "
        "Merchant's Stall, space 2; a 5 lands on Scared!: lose 2 Lives and go back to Desert Dawn.")
    # The comma the number needed goes with it: "Rocky Ridge is a challenge", "stops at ... without an attempt".
    assert spoken_form("Brown moves 4 spaces forward to Rocky Ridge (5). Black passes Palm Spring (1). Rocky Ridge (5) "
                       "is a challenge.").endswith("Black passes Palm Spring, space 1. Rocky Ridge is a challenge.")
    assert spoken_form("Pink moves to Rocky Ridge (5). Teal rolls 2. Black stops at Rocky Ridge (5) without an "
                       "attempt.").endswith(
        "Black stops at Rocky Ridge without an attempt.")
    # Another space, or the same number of another name, is said whole.
    assert spoken_form("Pink moves to Date Grove (12). Grey: roll to move from Cool Cave (29).").endswith(
        "from Cool Cave, space 29.")
    # Played through the controller (seed 0, 30 moves a game over 5 seeds), as the table hears it: no space's
    # number twice in one announcement.
    for seed in range(5):
        rng = random.Random(seed)
        session = Session.new("desert", random_players(create("desert"), rng))
        controller = Controller(session)
        for _ in range(150):
            if session.pending().is_over:
                break
            action = session.game.sim_choose(session.state, session.legal(), rng)
            update = controller.handle(Touch("act", {k: v for k, v in action.items() if k != "text"}))
            said = spoken_form(spoken_step(update.text, update.pending.text, update.pending.is_over))
            numbers = re.findall(r"([A-Z][\w']*(?: (?:of the )?[A-Z][\w']*)*), space \d+", said)
            assert len(numbers) == len(set(numbers)), said


def test_both_targi_players_markers_are_told_before_what_unused_ones_earn() -> None:
    """Targi's round told a player's gain for unused tribe markers between the two players' markers: "White puts a
    tribe marker on centre 2 3. White gains 1 victory point for unused tribe markers. Black puts a tribe marker on
    centre 1 1.", so the voice, which says reports in a row once ("..., and Black on centre 1 1"), said "puts a
    tribe marker on centre" twice (9 of 27,740 distinct announcements over 150 seeded games, with "Targi make no
    crossing: no tribe marker this round" twice). The markers are told first, on the screen too, then the gains.
    Played through the session (seeds 0-4), as the table hears it."""
    heard = []
    for seed in range(5):
        rng = random.Random(seed)
        session = Session.new("targi", ["white", "black"])
        while not session.pending().is_over:
            step = session.act(session.game.sim_choose(session.state, session.legal(), rng))
            texts = [e.text for e in step.events]
            gains = [i for i, t in enumerate(texts) if t.endswith("for unused tribe markers.")]
            laid = [i for i, t in enumerate(texts) if re.search(r"puts (a )?tribe markers? on|make no crossing", t)]
            assert not gains or not laid or max(laid) < min(gains), texts
            if len(laid) == 2 and gains:
                heard.append(spoken_form(" ".join(texts)))
    both = [s for s in heard if s.count(" puts ") == 1 and ", and " in s]
    assert both and all(s.count(" puts ") <= 1 and s.count("make no crossing") <= 1 for s in heard), heard


def test_a_temple_cell_no_pawn_can_reach_is_named_once() -> None:
    """The temple's answer to a cell touched gives each pawn's reason, each naming the cell, as a refusal alone must:
    heard in a row it said the cell twice, "... so it cannot stop at column 13, row 3 (slot 4). Blue 2 cannot reach
    column 13, row 3 (slot 4) with a roll of 4." (9 of 27,740 distinct announcements over 150 seeded games); 27
    words before the colon, it was cut there too. The second pawn "cannot reach it"; the screen keeps each
    reason whole."""
    answer = ("Nothing may be done there. Blue 1 must use the whole roll of 4: a longer route exists, so it cannot "
              "stop at [13,3] (slot 4). [RU-Q16] Blue 2 cannot reach [13,3] (slot 4) with a roll of 4: no route of 4 "
              "steps or fewer over path spaces leads there. [RU-10]")
    assert spoken_form(answer).endswith("so it cannot stop at column 13, row 3 (slot 4). Blue 2 cannot reach it with a"
                                        " roll of 4: no route of 4 steps or fewer over path spaces leads there.")
    # Another cell, or one the sentence before did not name, is named.
    other = "Blue 1 moves to [2,3] (slot 1). Blue 2 cannot reach [13,3] (slot 4) with a roll of 4."
    assert spoken_form(other).endswith("Blue 2 cannot reach column 13, row 3 (slot 4) with a roll of 4.")


def test_the_mirage_cloak_is_offered_once() -> None:
    """The desert race's Scared! runner holding the Mirage Cloak heard the offer twice in a row: "Grey is Scared
    there: the Mirage Cloak may be redeemed to ignore the penalty. Redeem the Mirage Cloak to ignore the penalty
    (lose 2 Lives and go back to Desert Dawn, space 0)?" (67 of 27,740 distinct announcements over 150 seeded
    games). The step's tail goes, the question stays; the screen keeps the step's line whole."""
    step = ("Grey moves 3 spaces forward to Sandstorm Wall (16). Grey is Scared! on Sandstorm Wall (16): the Mirage "
            "Cloak may be redeemed to ignore the penalty.")
    asked = ("Grey is Scared! on Sandstorm Wall (16): redeem the Mirage Cloak to ignore the penalty (lose 2 Lives and "
             "go back to Desert Dawn (0))?")
    assert spoken_form(spoken_step(step, asked)) == (
        "Grey moves 3 spaces forward to Sandstorm Wall, space 16. Grey is Scared there. Redeem the Mirage Cloak to "
        "ignore the penalty (lose 2 Lives and go back to Desert Dawn, space 0)?")
    # A tail saying what the question does not, or a question opening otherwise, stays.
    other = "Grey is Scared! on Sandstorm Wall (16): the Desert Flask may be drunk first to heal."
    assert spoken_step(other, asked).startswith(other)
    assert spoken_step(step, "Black is Scared! on Sandstorm Wall (16): redeem the Mirage Cloak to ignore the "
                       "penalty?").startswith(step)


def test_a_desert_space_said_there_leaves_no_comma_behind() -> None:
    """The comma that closes "Sheer Cliff, space 15," stayed when the place was said "there": "Black stops there,
    without an attempt", "Black is back there, with 3 Lives" (3 of 10,553 announcements over 30 seeded desert
    games, 0 after). A comma the text itself put before a clause of its own stays ("is there, needing")."""
    stop = ("Black moves 3 spaces forward to Sheer Cliff (15). Black stops at Sheer Cliff (15) without an attempt; the "
            "turn ends.")
    assert spoken_form(stop) == ("Black moves 3 spaces forward to Sheer Cliff, space 15. Black stops there without an "
                                 "attempt; the turn ends.")
    back = ("Teal moves 1 space forward to Cobra Pit (27). Scared! Teal loses 2 Lives (5 left) and runs back to Desert "
            "Dawn (0). Round 7: Black is back at Desert Dawn (0) with 3 Lives and no items.")
    assert spoken_form(back).endswith("Round 7: Black is back there with 3 Lives and no items."), spoken_form(back)
    asked = "Grey moves to Rocky Ridge (5). Grey is on Rocky Ridge (5), needing 4 or more: attempt it now?"
    assert spoken_form(asked).endswith("Grey is there, needing 4 or more: attempt it now?"), spoken_form(asked)


def test_the_roll_for_the_first_turn_names_the_next_roller_once() -> None:
    """The temple's roll-off said its purpose twice each time a player rolled: "Red rolls 4 for the first turn.
    Yellow: roll for the first turn." (65 of 14,376 announcements over 30 seeded temple games, 0 after). Heard:
    "Yellow: roll."; the screen's prompt still says what the roll is for. Played through the controller."""
    heard = []
    for seed in range(3):
        rng = random.Random(seed)
        session = Session.new("temple", random_players(create("temple"), rng))
        controller = Controller(session)
        while not session.pending().is_over and len(heard) < 400:
            action = session.game.sim_choose(session.state, session.legal(), rng)
            update = controller.handle(Touch("act", {k: v for k, v in action.items() if k != "text"}))
            if "for the first turn." in update.text and update.pending.text.endswith(": roll for the first turn."):
                who = update.pending.text.split(":")[0]
                said = spoken_form(spoken_step(update.text, update.pending.text))
                assert said.endswith(f" {who}: roll."), said
                heard.append(said)
            if session.state.phase not in ("assembly", "first_roll"):
                break
    assert heard and not [said for said in heard if said.count("first turn") > 1]
    # A roll named for something else is still asked in full.
    assert spoken_step("Red rolls 4.", "Yellow: roll for the first turn.").endswith("Yellow: roll for the first turn.")
    withdrawn = ("Correction: the roll entered last (Red rolls X for the first turn) is withdrawn; enter what the "
                 "table really shows.")  # asked for again whole
    assert spoken_step(withdrawn, "Red: roll for the first turn.").endswith("shows. Red: roll for the first turn.")
