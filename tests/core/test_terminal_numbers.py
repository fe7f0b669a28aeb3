"""A bare number typed in the terminal means what the prompt asks for: the roll or card while one is asked for.

Before, a number the die could not show fell through to the numbered choices:
'8' beside the temple die (X, 1 to 7) entered 'red 4', '7' beside a desert roll
spent the Desert Flask, and '8' while a temple card was drawn entered whichever
card stood eighth in the list (P10 once P05 and P09 were gone). A choice is now
typed '#8' while a roll or draw is asked for; a bare number then never takes one.
"""

from __future__ import annotations

import io
import random
from collections.abc import Callable

from companion.session import Session
from companion.terminal import HELP, Terminal


def run(session: Session, lines: list[str]) -> str:
    out = io.StringIO()
    Terminal(session, lambda: None, out).run(iter([*lines, "q"]))
    return out.getvalue()


def reach(game: str, players: list[str], wanted: Callable[[Session], bool]) -> Session:
    """A game played at random, by the rules, up to the first position ``wanted`` accepts."""
    for seed in range(30):
        session, rng = Session.new(game, players), random.Random(seed)
        for _ in range(600):
            if wanted(session):
                return session
            if session.pending().is_over:
                break
            session.act(rng.choice(session.legal()))
    raise AssertionError(f"no {game} game reached the position wanted")


def taken(action: dict) -> dict:
    return {key: value for key, value in action.items() if key != "text"}


def test_a_number_the_temple_die_cannot_show_takes_no_choice() -> None:
    session = reach("temple", ["red", "blue"], lambda s: s.pending().kind == "roll")
    legal, steps = session.legal(), len(session.log)
    assert legal[7]["value"] != 8  # choice 8 is a face showing another value: 'red 4'
    text = run(session, ["8"])
    assert len(session.log) == steps  # before: 8 entered choice 8, red 4, unasked
    assert "A bare number is the roll; a choice below is '#' and its number" in text
    assert f"   #8. {legal[7]['text']}" in text
    assert (
        "Not understood: 8 is not a value the die can show now (X, 1, 2, 3, 4, 5, 6, 7); "
        f"'#8' takes choice 8 ({legal[7]['text']})." in text
    )
    run(session, ["#8"])
    assert session.log[-1] == taken(legal[7])


def test_a_face_the_temple_die_lacks_is_named_with_the_faces_it_has() -> None:
    """'red 9' and 'white 0' beside the temple die were answered "Not understood. Type 'help' for the commands."."""
    session = reach("temple", ["red", "blue"], lambda s: s.pending().kind == "roll")
    steps = len(session.log)
    text = run(session, ["red 9", "White 0"])
    assert len(session.log) == steps
    faces = "X, red 1, white 1, red 2, white 2, red 3, white 3, red 4, white 4, red 5, white 5, red 6, white 6"
    assert f"Not understood: the die has no face 'red 9'; it shows {faces}, red 7, white 7." in text
    assert "Not understood: the die has no face 'white 0'; it shows X, red 1," in text
    assert "Type 'help' for the commands" not in text


def test_a_bare_number_beside_a_desert_roll_is_the_roll_never_the_flask() -> None:
    def flask_beside_a_roll(s: Session) -> bool:
        return s.pending().kind == "roll" and any(a["type"] != "roll" for a in s.legal())

    session = reach("desert", ["black", "purple"], flask_beside_a_roll)
    legal, steps = session.legal(), len(session.log)
    number = next(i for i, a in enumerate(legal, 1) if a["type"] != "roll")
    assert number == 7 and legal[number - 1]["type"] == "use"  # the six faces, then the card
    text = run(session, ["7"])
    assert len(session.log) == steps  # before: 7 spent the card
    assert "Type what the table shows (1, 2, 3, 4, 5, 6). A bare number is the roll" in text  # the card is no face
    assert "e.g. '#7'" in text and f"   #7. {legal[6]['text']}" in text
    assert f"7 is not a value the die can show now (1, 2, 3, 4, 5, 6); '#7' takes choice 7 ({legal[6]['text']})" in text
    run(session, ["4"])
    assert session.log[-1] == {"type": "roll", "value": 4}


def test_the_flask_beside_a_desert_roll_is_taken_by_its_mark_or_words() -> None:
    session = reach("desert", ["black", "purple"], lambda s: s.pending().kind == "roll" and len(s.legal()) > 6)
    legal = session.legal()
    run(session, ["# 7"])
    assert session.log[-1] == taken(legal[6]) and session.log[-1]["type"] == "use"


def test_a_number_while_a_temple_card_is_drawn_names_the_card_it_looks_like() -> None:
    def p08_not_eighth(s: Session) -> bool:
        cards = [a.get("card") for a in s.legal()]
        return s.pending().kind == "draw" and "P08" in cards and cards[7] != "P08"

    session = reach("temple", ["red", "blue"], p08_not_eighth)
    legal, steps = session.legal(), len(session.log)
    text = run(session, ["8"])
    assert len(session.log) == steps  # before: 8 drew the eighth card listed, not P08
    assert (
        "8 names no card of this draw: type the card as it shows, 'P08'; "
        f"'#8' takes choice 8 ({legal[7]['text']})." in text
    )
    run(session, ["p08"])
    assert session.log[-1]["card"] == "P08"


def test_a_card_whose_name_has_no_number_is_taken_by_its_words_or_mark() -> None:
    session = reach("blackpool", ["yellow", "red"], lambda s: s.pending().kind == "draw" and len(s.legal()) > 1)
    legal, steps = session.legal(), len(session.log)
    text = run(session, ["2", "#9"])
    assert len(session.log) == steps
    assert "2 names no card of this draw: type the card as it shows, its name or id; '#2' takes choice 2" in text
    assert f"no choice #9: the choices are numbered #1 to #{len(legal)}" in text
    run(session, ["#2"])
    assert session.log[-1] == taken(legal[1])


def test_with_no_roll_or_draw_asked_for_a_bare_number_is_still_the_choice() -> None:
    session = reach("blackpool", ["yellow", "red"], lambda s: s.pending().kind == "choose" and len(s.legal()) > 1)
    legal = session.legal()
    text = run(session, ["2"])
    assert session.log[-1] == taken(legal[1])
    listed = text.split("  * ")[0]  # the choices as shown before the step
    assert f"    2. {legal[1]['text']}" in listed and "#2." not in listed
    session.undo()
    run(session, ["#2"])  # the mark takes a choice whatever is asked for
    assert session.log[-1] == taken(legal[1])


def test_marks_without_a_number_and_huge_numbers_are_answered_not_taken() -> None:
    # A turn's roll, where the colour counts; the first-player roll compares numbers only (see below).
    session = reach("temple", ["red", "blue"], lambda s: s.pending().kind == "roll" and s.state.phase == "roll")
    steps = len(session.log)
    text = run(session, ["#", "# red", "#" + "9" * 5000, "-3", "04"])
    assert text.count("Not understood: '#' takes a choice's number, e.g. '#1'.") == 2
    assert "no choice #999999999...: the choices are numbered #1 to #" in text
    assert "-3 is not a value the die can show now" in text
    assert "That fits several faces; say which: 'red 4' or 'white 4'." in text  # 04 is the die's 4
    assert len(session.log) == steps


def test_help_and_the_check_command_know_the_mark() -> None:
    assert "#<number>" in HELP and "a bare number is then the roll, never a choice" in HELP
    session = reach("desert", ["black", "purple"], lambda s: s.pending().kind == "roll" and len(s.legal()) > 6)
    text = run(session, ["check #7"])
    assert "LEGAL:" in text


def test_the_temple_roll_prompt_lists_each_face_as_it_is_typed() -> None:
    """The temple die shows 1 to 7 on red and on white faces, and the prompt said "Type what the table shows
    (X, 1, 2, 3, 4, 5, 6, 7)": each number typed as listed was answered "That fits several faces; say which",
    so every roll of the game took two lines."""
    import re

    session = reach("temple", ["red", "blue"], lambda s: s.pending().kind == "roll")
    text = run(session, [])
    listed = re.search(r"Type what the table shows \((.*?)\)\. ", text)
    assert listed is not None, text[-600:]
    faces = listed.group(1).split(", ")
    assert "red 4" in faces and "white 4" in faces and "X" in faces, faces
    for face in faces:
        again = reach("temple", ["red", "blue"], lambda s: s.pending().kind == "roll")
        steps = len(again.log)
        answer = run(again, [face])
        assert len(again.log) == steps + 1 and "fits several" not in answer, (face, answer[-400:])


def test_each_value_help_gives_as_an_example_is_taken_where_it_is_asked_for() -> None:
    """help's example 'x red' was "Not understood" beside the temple die, whose X is a white face."""
    import re

    examples = re.search(r"type what the table shows \(e\.g\. (.*?)\);", HELP)
    assert examples is not None, HELP
    where = {
        "4": reach("blackpool", ["red", "blue"], lambda s: s.pending().kind == "roll"),
        "gust": reach("blackpool", ["red", "blue"], lambda s: s.pending().kind == "draw"
                      and any(a.get("card") == "gust_of_force" for a in s.legal())),
    }
    for example in examples.group(1).split(", "):
        session = where.get(example) or reach("temple", ["red", "blue"], lambda s: s.pending().kind == "roll")
        steps = len(session.log)
        answer = run(session, [example])
        assert len(session.log) == steps + 1, (example, answer[-300:])


def test_a_face_typed_as_listed_is_the_roll_beside_a_card_naming_a_pawn_alike() -> None:
    """Beside the temple die's 'red 1' stood "Play the Ah Kinchil card: Red 1 forward ...": 'red 1', typed as
    the prompt lists the face, was answered "That fits 2 choices" instead of being the roll."""

    def offered(s: Session) -> bool:
        return s.pending().kind == "roll" and any("Red 1 " in a["text"] for a in s.legal() if a["type"] != "roll")

    session = reach("temple", ["red", "blue"], offered)
    wanted = next(a for a in session.legal() if a.get("value") == 1 and a.get("face") == {"colour": "red"})
    answer = run(session, ["red 1"])
    assert session.log[-1] == taken(wanted), answer[-400:]


def test_a_number_two_faces_show_is_taken_where_their_colour_makes_no_difference() -> None:
    """The temple's first-player roll compares numbers only, yet '5' was answered "That fits several faces;
    say which: 'red 5' or 'white 5'." for every player at the start of every game; on a turn's roll, where
    red changes a card and white does not, the question stays."""
    session = reach("temple", ["red", "blue"], lambda s: s.state.phase == "first_roll")
    steps = len(session.log)
    text = run(session, ["5", "3"])
    assert "fits several" not in text and len(session.log) == steps + 2
    assert "Red rolls 5 for the first turn." in text and "Blue rolls 3 for the first turn." in text
    assert session.state.phase == "roll"
    text = run(session, ["5"])
    assert "That fits several faces; say which: 'red 5' or 'white 5'." in text and len(session.log) == steps + 2
