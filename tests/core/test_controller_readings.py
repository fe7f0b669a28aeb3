"""Camera and sensor readings that are odd, late or unsure, through the controller into real journalled games.

Each test plays a real game (Blackpool, Desert, the temple) on a real SQLite
journal file, and checks that the journal resumes to what the table was told.
"""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from companion.controller import Controller
from companion.journal import Journal
from companion.observations import ButtonPressed, CardsSeen, DieRead, LinkChanged, RollStarted, Touch, Update
from companion.session import Session
from tests.core.test_controller import temple_setup_draws

PLAYERS = {"blackpool": ["yellow", "red"], "desert": ["purple", "pink"], "temple": ["red", "blue"]}


def table(tmp_path: Path, game: str = "blackpool") -> tuple[Controller, list[Update]]:
    heard: list[Update] = []
    journal = Journal(tmp_path / "journal.sqlite3")
    return Controller(Session.new(game, PLAYERS[game], journal=journal), [heard.append]), heard


def journalled(tmp_path: Path) -> list[dict[str, Any]]:
    """The steps the journal file holds for its game in progress, read by a fresh connection."""
    session = Session.resume(Journal(tmp_path / "journal.sqlite3"))
    assert session is not None
    return session.log


def at_first_draw_of_temple(tmp_path: Path) -> tuple[Controller, list[dict[str, Any]]]:
    controller, _ = table(tmp_path, "temple")
    _, draws = temple_setup_draws()  # the same opening: the temple's setup draws are the deck's order
    return controller, draws


def journal_refuses_writes(path: Path, refuse: bool) -> None:
    """Make every step the journal file is asked to keep fail in SQLite itself, or stop that.

    A trigger gives the failure a full or read-only card would give, at once: a
    lock held by another connection would also do, after SQLite's 5 s wait.
    """
    with sqlite3.connect(path, isolation_level=None) as other:
        if refuse:
            other.execute("CREATE TRIGGER refuse BEFORE INSERT ON steps BEGIN SELECT RAISE(ABORT, 'disk I/O'); END")
        else:
            other.execute("DROP TRIGGER refuse")
    other.close()


def test_a_die_read_for_the_old_game_is_not_the_new_games_first_roll(tmp_path: Path) -> None:
    """The terminal asks a new game's questions without pumping: Blackpool's 6 became "Purple rolls 6."."""
    controller, _ = table(tmp_path)
    controller.submit(RollStarted("camera"))
    controller.submit(DieRead(6, "camera", 0.95))
    controller.submit(LinkChanged("serial", False, "cable out"))
    desert = Session.new("desert", PLAYERS["desert"], journal=Journal(tmp_path / "journal.sqlite3"))
    controller.set_session(desert)
    assert [u.kind for u in controller.pump()] == ["link"]  # what a sensor reported about itself is kept
    assert controller.links == {"serial": False}
    assert desert.log == [] and journalled(tmp_path) == []


def blackpool_at_second_roll(tmp_path: Path) -> Controller:
    controller, _ = table(tmp_path)
    session = controller.session
    assert session is not None
    controller.handle(Touch("act", {"type": "roll", "value": 6}))
    rng = random.Random(5)
    while session.pending().kind != "roll":
        controller.handle(Touch("act", session.game.sim_choose(session.state, session.legal(), rng)))
    return controller


def test_undo_first_drops_a_waiting_reading_then_takes_back_a_step(tmp_path: Path) -> None:
    """The button box has no reject: undo dropped the unsure 4 and took back the card played before it."""
    controller = blackpool_at_second_roll(tmp_path)
    played = list(controller.session.log)
    assert controller.handle(DieRead(4, "camera", 0.5)).kind == "confirm"
    dropped = controller.handle(ButtonPressed("undo"))
    assert dropped.kind == "info" and dropped.text.startswith("Reading dropped; nothing was taken back.")
    assert controller.proposal is None and controller.session.log == played == journalled(tmp_path)
    assert controller.handle(ButtonPressed("undo")).kind == "undo"
    assert controller.session.log == played[:-1] == journalled(tmp_path)


def test_a_refused_correction_leaves_the_reading_waiting(tmp_path: Path) -> None:
    controller, _ = table(tmp_path)
    asked = controller.handle(DieRead(3, "camera", 0.5)).text
    refused = controller.handle(Touch("act", {"type": "roll", "value": 9}))  # a correction mistyped
    assert refused.kind == "refused" and refused.rules == ("BP-Q5",)
    # a stop of its own before what still waits: "not 9 Still waiting:" read (and was said) as one sentence
    assert refused.text == f"the oracle shows 1 to 6, not 9. Still waiting: {asked}"
    assert controller.handle(Touch("confirm")).kind == "step"
    assert journalled(tmp_path) == [{"type": "roll", "value": 3}]


def test_a_refused_correction_keeps_the_cards_read_with_the_waiting_one(tmp_path: Path) -> None:
    controller, draws = at_first_draw_of_temple(tmp_path)
    assert controller.handle(CardsSeen({1: draws[0]["card"], 2: draws[1]["card"]}, "camera", 0.3)).kind == "confirm"
    assert controller.handle(Touch("act", {"type": "draw", "deck": "path", "card": "P99"})).kind == "refused"
    assert controller.handle(Touch("confirm")).kind == "step"
    assert [u.kind for u in controller.pump()] == ["confirm"]  # the second card, still there, asks its own tap
    assert controller.handle(Touch("confirm")).kind == "step"
    assert journalled(tmp_path) == draws[:2]


def test_a_die_refused_while_a_reading_waits_repeats_the_question(tmp_path: Path) -> None:
    """The status line showed the 7's refusal alone, and the 3 waiting for its tap looked dropped."""
    controller, _ = table(tmp_path)
    asked = controller.handle(DieRead(3, "camera", 0.5)).text
    controller.handle(RollStarted("camera"))
    update = controller.handle(DieRead(7, "camera", 0.95))
    assert update.kind == "unapplied"
    assert update.text == f"The die reads 7: the Oracle (d6) shows 1 to 6; not applied. Still waiting: {asked}"
    assert controller.handle(ButtonPressed("confirm")).kind == "step"
    assert journalled(tmp_path) == [{"type": "roll", "value": 3}]


@pytest.mark.parametrize("confidence", [float("nan"), float("inf"), 95, 1.5, -0.2])
def test_a_confidence_that_is_no_number_from_0_to_1_is_asked(tmp_path: Path, confidence: float) -> None:
    """NaN compares as neither low nor high, and a reader's percent (95) is above any threshold: both were sure."""
    controller, _ = table(tmp_path)
    assert controller.handle(DieRead(3, "camera", confidence)).kind == "confirm"
    assert journalled(tmp_path) == []

    controller, draws = at_first_draw_of_temple(tmp_path / "temple")
    assert controller.handle(CardsSeen({1: draws[0]["card"]}, "camera", confidence)).kind == "confirm"
    assert journalled(tmp_path / "temple") == []


MALFORMED = [
    ("temple", CardsSeen({"1": "P01"}, "camera", 0.95), "names slot '1'; a slot is a whole number"),
    ("temple", CardsSeen({1.0: "P01"}, "camera", 0.95), "names slot 1.0"),
    ("temple", CardsSeen({True: "P01"}, "camera", 0.95), "names slot true"),
    ("temple", CardsSeen({1: "P01", "2": "P02"}, "camera", 0.95), "names slot '2'"),
    ("temple", CardsSeen({1: 7}, "camera", 0.95), "has 7 in slot 1; a card is named by its id"),
    ("temple", CardsSeen({1: "P01"}, "camera", None), "has confidence null; it must be a number"),
    ("temple", CardsSeen({1: "P01"}, "camera", 0.9, twins=None), "has twins null"),
    # Spelt as the JSON the rest of the project quotes (null, true), not Python's None and True; a key JSON cannot
    # hold raised TypeError out of the quoting itself.
    ("temple", CardsSeen({1: "P01"}, "camera", 0.9, twins={("P01",): 5}), "has twins {('P01',): 5}"),
    ("temple", CardsSeen({1: "P01"}, "camera", 0.9, twins={"P01": [None]}), 'has twins {"P01": [null]}'),
    ("temple", CardsSeen({1: "P01"}, "camera", 0.9, first_seen=None), "names null as slots seen first"),
    ("temple", CardsSeen({1: "P01"}, "camera", 0.9, first_seen=frozenset({"1"})), "as slots seen first; it must be"),
    ("blackpool", DieRead(3, "camera", None), "a die reading from camera has confidence null"),
    ("blackpool", DieRead(3, "camera", "0.9"), "has confidence '0.9'"),
    ("blackpool", DieRead(3, "camera", 0.9, "blue"), "has face 'blue'; it must name its data"),
    ("blackpool", DieRead(3, "camera", 0.9, dice=None), "counts null dice"),
    ("blackpool", DieRead(3, "serial", 0.9, die=6), "names its die 6"),
    ("blackpool", DieRead(3, 7, 0.9), "an input must be named, not 7"),
    ("blackpool", DieRead(3, "camera", 0.9, thrown_at=float("nan")), "says its throw began at NaN"),
    ("blackpool", DieRead(3, "camera", 0.9, thrown_at="now"), "says its throw began at 'now'"),
    ("blackpool", Touch("act", "roll 3"), "an action must be a JSON object"),
    ("blackpool", Touch("check", "3"), "an action must be a JSON object"),
    ("blackpool", ButtonPressed(None), "an intent must be a word"),
    ("blackpool", "roll 3", "not an observation: 'roll 3'"),
    ("blackpool", {"value": 3}, 'not an observation: {"value": 3}'),
    ("blackpool", Update("step", "x"), "not an observation: Update"),
]


@pytest.mark.parametrize(("game", "observation", "said"), MALFORMED, ids=[repr(m[1])[:60] for m in MALFORMED])
def test_a_malformed_observation_is_refused_by_name_and_the_game_goes_on(
    tmp_path: Path, game: str, observation: Any, said: str
) -> None:
    """Each of these raised out of pump (TypeError, AttributeError, ValueError) and ended `companion play`."""
    controller, heard = table(tmp_path, game)
    session = controller.session
    assert session is not None
    before = session.document()
    controller.submit(observation)
    good = DieRead(4, "camera", 0.95) if game == "blackpool" else CardsSeen({1: session.legal()[0]["card"]}, "camera")
    controller.submit(good)
    refused, step = controller.pump()
    assert refused.kind == "refused" and said in refused.text, refused.text
    assert heard[0] is refused
    assert step.kind == "step"  # the loop went on, and the refused one changed nothing before it
    assert journalled(tmp_path) == [step.action] and session.document() != before


def test_a_roll_the_journal_refused_is_not_remembered_as_seen(tmp_path: Path) -> None:
    """The same 5 reported again was "Same dice as before; waiting for a new roll." with nothing rolled."""
    controller, _ = table(tmp_path)
    journal_refuses_writes(tmp_path / "journal.sqlite3", True)
    refused = controller.handle(DieRead(5, "camera", 0.95))
    assert refused.kind == "refused" and refused.text.startswith("Not saved")
    journal_refuses_writes(tmp_path / "journal.sqlite3", False)
    assert controller.handle(DieRead(5, "camera", 0.95)).kind == "step"
    assert journalled(tmp_path) == [{"type": "roll", "value": 5}]


def test_a_confirm_the_journal_refused_can_be_given_again(tmp_path: Path) -> None:
    controller, _ = table(tmp_path)
    controller.handle(DieRead(3, "camera", 0.5))
    journal_refuses_writes(tmp_path / "journal.sqlite3", True)
    refused = controller.handle(ButtonPressed("confirm"))
    assert refused.kind == "refused" and "Still waiting: The die looks like 3." in refused.text
    journal_refuses_writes(tmp_path / "journal.sqlite3", False)
    assert controller.handle(ButtonPressed("confirm")).kind == "step"
    assert journalled(tmp_path) == [{"type": "roll", "value": 3}]


@pytest.mark.parametrize("value", [3.0, True])
def test_a_die_read_as_a_value_the_game_refuses_typed_is_refused_the_same(tmp_path: Path, value: Any) -> None:
    """3.0 and True equal 3 and 1, so the reading matched the offered roll: the camera rolled what no one may type."""
    controller, _ = table(tmp_path)
    typed = controller.handle(Touch("act", {"type": "roll", "value": value}))
    read = controller.handle(DieRead(value, "camera", 0.95))
    assert typed.kind == "refused" and read.kind == "unapplied"
    assert read.text == f"The die reads {value}: the Oracle (d6) shows 1 to 6; not applied."
    assert read.rules == typed.rules == ("BP-Q5",)
    assert journalled(tmp_path) == []


@pytest.mark.parametrize("value", [0, 7, "X", 4.5])
def test_a_desert_die_read_off_its_faces_is_said_in_the_tables_words(tmp_path: Path, value: Any) -> None:
    """The table heard the action's spelling: "a roll needs a whole 'value' from 1 to 6 (the die is a
    six-sided die)", then what a typist is told: "The die reads X, not applied: roll: say which number the die
    shows (1 to 6), not 'X'". A die that read wrong is told what the die shows, with the die's clause."""
    controller, _ = table(tmp_path, "desert")
    read = controller.handle(DieRead(value, "dice sensor", die="d6"))
    assert read.kind == "unapplied" and read.rules == ("DR-Q28",) and journalled(tmp_path) == []
    assert read.text == f"The die reads {value}: the six-sided die shows 1 to 6; not applied."


@pytest.mark.parametrize(("value", "face"), [("Y", None), (9, None), (9, {"colour": "red"}), ("x", None)])
def test_a_temple_die_read_off_its_faces_is_told_its_faces_not_asked_its_colour(
        tmp_path: Path, value: Any, face: Any) -> None:
    """A reading no face of the die shows was asked for the colour it came without ("The die reads Y, but its
    colour (red or white) was not read"), as if a colour would make a Y a face."""
    controller, _ = table(tmp_path, "temple")
    session = controller.session
    assert session is not None
    rng = random.Random(1)
    while session.pending().kind != "roll":
        controller.handle(Touch("act", session.game.sim_choose(session.state, session.legal(), rng)))
    before = session.log
    read = controller.handle(DieRead(value, "camera", face=face))
    shown = f"{value} red" if face else f"{value}"
    assert read.text == f"The die reads {shown}: the 20-sided temple die shows X or 1 to 7; not applied."
    assert read.kind == "unapplied" and read.rules == ("RU-2",) and session.log == before


class ChangingSlots(dict):
    """A reader's own dict handed on, which its thread changes while the controller reads it."""

    def items(self) -> Any:
        self.reads = getattr(self, "reads", 0) + 1
        if self.reads > 1:
            raise RuntimeError("dictionary changed size during iteration")
        return super().items()


def test_a_reading_that_fails_in_a_way_nobody_checked_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    controller, draws = at_first_draw_of_temple(tmp_path)
    refused = controller.handle(CardsSeen(ChangingSlots({1: draws[0]["card"]}), "camera"))
    assert refused.kind == "refused"
    assert refused.text == (
        "this CardsSeen could not be handled (RuntimeError: dictionary changed size during iteration); "
        "nothing was changed"
    )
    assert controller.proposal is None and journalled(tmp_path) == []
    assert controller.handle(CardsSeen({1: draws[0]["card"]}, "camera")).kind == "step"
    assert journalled(tmp_path) == draws[:1]


# ---------------------------------------------------------------- taps made before the screen showed a change


def test_a_confirm_tapped_as_a_re_roll_was_read_does_not_take_the_new_reading(tmp_path: Path) -> None:
    """The 4 waited for its tap; the dice were rolled again and read as a 5 just as the player tapped confirm.
    Both reached the controller in one pump, so the tap given to the 4 took the 5, which nobody had seen."""
    controller, heard = table(tmp_path)
    controller.handle(DieRead(4, "camera", 0.5))
    controller.submit(RollStarted("camera"))
    controller.submit(DieRead(5, "camera", 0.5))
    controller.submit(Touch("confirm"))
    *_, asked, tap = controller.pump()
    assert asked.kind == "confirm" and tap.kind == "refused"
    assert tap.text == ("This tap was not taken: a new reading came just before it, and the screen had not shown "
                        "that yet. Look again, then tap again if it is still meant. Still waiting: The die looks "
                        "like 5. Tap to confirm or correct it.")
    assert journalled(tmp_path) == [] and heard[-1] is tap
    assert controller.handle(Touch("confirm")).kind == "step"  # now seen: the next tap takes it
    assert journalled(tmp_path) == [{"type": "roll", "value": 5}]


def test_a_roll_entered_by_hand_as_the_camera_applied_it_is_not_applied_twice(tmp_path: Path) -> None:
    """Yellow's 3 was read by the camera and typed on the screen at once: Red's turn got the same 3."""
    controller, _ = table(tmp_path)
    controller.submit(RollStarted("camera"))
    controller.submit(DieRead(3, "camera", 0.95))
    controller.submit(Touch("act", {"type": "roll", "value": 3}))
    *_, step, tap = controller.pump()
    assert step.kind == "step" and tap.kind == "refused"
    assert tap.text.startswith(f"This tap was not taken: the game changed just before it ({step.text}), ")
    assert journalled(tmp_path) == [{"type": "roll", "value": 3}]
    session = controller.session
    assert session is not None and session.pending().text.startswith("Red")


@pytest.mark.parametrize("tap", [Touch("undo"), ButtonPressed("undo"), ButtonPressed("confirm"), Touch("reject")])
def test_an_undo_or_confirm_queued_behind_a_reading_waits_to_be_given_again(tmp_path: Path, tap: Any) -> None:
    """An undo pressed as the camera's 6 arrived took back the 6 (or the step before it, dropping the question)."""
    controller = blackpool_at_second_roll(tmp_path)
    played = list(controller.session.log)
    controller.submit(DieRead(6, "camera", 0.5))
    controller.submit(tap)
    asked, answer = controller.pump()
    assert asked.kind == "confirm" and answer.kind == "refused" and "was not taken" in answer.text
    assert controller.proposal == {"type": "roll", "value": 6} and journalled(tmp_path) == played


def test_what_changes_nothing_is_still_answered_in_the_same_pump(tmp_path: Path) -> None:
    """A question, a check or "next" cannot act on a game the screen did not show: they are answered as ever."""
    controller, _ = table(tmp_path)
    controller.submit(DieRead(3, "camera", 0.95))
    controller.submit(Touch("check", {"type": "roll", "value": 9}))
    controller.submit(ButtonPressed("next"))
    controller.submit(LinkChanged("camera", True, "focus"))
    step, ruling, nxt, link = controller.pump()
    assert step.kind == "step" and ruling.rules == ("BP-Q5",) and ruling.text == "the oracle shows 1 to 6, not 9"
    assert nxt.kind in ("select", "info") and link.kind == "link"


def test_taps_in_turn_each_see_the_game_the_last_one_left(tmp_path: Path) -> None:
    """One tap a pump, as the app sends them: every one is taken."""
    controller, _ = table(tmp_path)
    controller.handle(DieRead(4, "camera", 0.5))
    for tap in (Touch("confirm"), Touch("undo"), Touch("redo")):
        controller.submit(tap)
        (answer,) = controller.pump()
        assert answer.kind in ("step", "undo", "redo"), answer.text
    assert journalled(tmp_path) == [{"type": "roll", "value": 4}]


# ---------------------------------------------------------------- a confirm after the game moved on


@pytest.mark.parametrize("moved_on", ["entered by hand", "undo", "new game"])
def test_a_confirm_after_the_game_moved_on_says_so_and_changes_nothing(tmp_path: Path, moved_on: str) -> None:
    """It said "nothing to do for 'confirm'", and the player could not tell whether the roll went in."""
    controller, _ = table(tmp_path)
    controller.handle(DieRead(4, "camera", 0.5))
    if moved_on == "entered by hand":
        controller.handle(Touch("act", {"type": "roll", "value": 5}))
    elif moved_on == "undo":
        controller.handle(Touch("undo"))
    else:
        controller.set_session(Session.new("desert", PLAYERS["desert"], journal=Journal(tmp_path / "journal.sqlite3")))
    session = controller.session
    assert session is not None
    before = list(session.log)
    for intent, done in (("confirm", "confirmed"), ("reject", "rejected")):
        answer = controller.handle(Touch(intent))
        assert answer.kind == "refused"
        assert answer.text.startswith(f"No reading waits for a tap, so nothing was {done}: ")
        assert answer.text.endswith(f"Now: {session.pending().text}")
    assert session.log == before == journalled(tmp_path)


@pytest.mark.parametrize(("game", "players"), [("ttd", ["red", "black"]), ("targi", ["white", "black"])])
def test_a_die_read_in_a_game_without_dice_is_not_promised_a_roll(tmp_path: Path, game: str, players: list) -> None:
    """"no roll is expected now" in a game that never rolls told the table to wait for one."""
    controller = Controller(Session.new(game, players, journal=Journal(tmp_path / "journal.sqlite3")))
    answer = controller.handle(DieRead(3, "camera", 0.95))
    assert answer.kind == "unapplied"
    assert answer.text.startswith("A die showing 3 was read, but this game rolls no dice: take it away (")
    assert journalled(tmp_path) == []


# ---------------------------------------------------------------- a throw entered by hand, then read late


class Clock:
    """The readers' clock, set by the test: the order of a throw and a hand entry is what is judged."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def blackpool_on_a_clock(tmp_path: Path) -> tuple[Controller, Clock]:
    controller, _ = table(tmp_path)
    clock = Clock()
    controller.clock = clock
    return controller, clock


def to_next_roll(controller: Controller) -> None:
    session = controller.session
    assert session is not None
    rng = random.Random(5)
    while session.pending().kind != "roll":
        controller.handle(Touch("act", session.game.sim_choose(session.state, session.legal(), rng)))


def test_a_camera_reading_of_a_throw_entered_by_hand_is_not_the_next_roll(tmp_path: Path) -> None:
    """A hand over the tray held the camera back while the roll was tapped in: its late 6 was the next
    player's roll, so one throw moved two players."""
    controller, clock = blackpool_on_a_clock(tmp_path)
    controller.handle(Touch("act", {"type": "roll", "value": 6}))  # at 100; the throw began at 99
    to_next_roll(controller)
    steps = journalled(tmp_path)
    same = controller.handle(DieRead(6, "camera", 0.95, thrown_at=99.0))
    assert same.kind == "info" and same.text == "The die reads 6, as this throw was entered by hand."
    other = controller.handle(DieRead(4, "camera", 0.95, thrown_at=99.5))
    assert other.kind == "unapplied"
    assert "this throw was entered by hand as 6 before it was read" in other.text
    assert "If 6 was wrong, undo it and enter 4." in other.text
    assert journalled(tmp_path) == steps and controller.session.pending().kind == "roll"
    clock.now = 105.0
    thrown_after = controller.handle(DieRead(4, "camera", 0.95, thrown_at=101.0))  # the next player's throw
    assert thrown_after.kind == "step" and journalled(tmp_path) == [*steps, {"type": "roll", "value": 4}]


def test_a_sensor_throw_that_began_before_the_hand_entry_is_that_throw(tmp_path: Path) -> None:
    """A dice tower says when a throw begins and reads no start time into its reading."""
    controller, clock = blackpool_on_a_clock(tmp_path)
    controller.handle(RollStarted("tower"))  # at 100
    clock.now = 101.0
    controller.handle(Touch("act", {"type": "roll", "value": 5}))
    to_next_roll(controller)
    steps = journalled(tmp_path)
    assert controller.handle(DieRead(5, "tower", 0.95)).kind == "info"
    assert journalled(tmp_path) == steps
    clock.now = 102.0
    controller.handle(RollStarted("tower"))
    assert controller.handle(DieRead(5, "tower", 0.95)).kind == "step"


def test_a_roll_entered_by_hand_and_taken_back_takes_its_late_reading(tmp_path: Path) -> None:
    """Undone, the hand entry is no longer the throw's roll: the camera's reading of that throw is."""
    controller, _ = blackpool_on_a_clock(tmp_path)
    controller.handle(Touch("act", {"type": "roll", "value": 6}))
    assert controller.handle(Touch("undo")).kind == "undo"
    update = controller.handle(DieRead(3, "camera", 0.95, thrown_at=99.0))
    assert update.kind == "step" and journalled(tmp_path) == [{"type": "roll", "value": 3}]


def test_a_throw_in_the_air_while_the_roll_before_it_is_taken_back_is_not_that_roll(tmp_path: Path) -> None:
    """Red's sensor roll was taken back while Blue's die was still rolling: Blue's throw became Red's roll."""
    controller, clock = blackpool_on_a_clock(tmp_path)
    controller.handle(RollStarted("tower"))
    controller.handle(DieRead(3, "tower"))  # at 100: Red rolls 3, nothing can move, Blue to roll
    clock.now = 101.0
    controller.handle(RollStarted("tower"))  # Blue throws
    clock.now = 102.0
    assert controller.handle(ButtonPressed("undo")).kind == "undo"  # Red takes back the 3, Blue's die in the air
    clock.now = 103.0
    late = controller.handle(DieRead(5, "tower"))
    assert late.kind == "unapplied" and journalled(tmp_path) == []
    assert late.text.startswith("The die reads 5, but that throw began before the undo")
    assert "Throw again, or enter the roll by hand (Yellow: roll the oracle.)" in late.text
    controller.handle(RollStarted("tower"))  # thrown after the undo: that is the roll
    assert controller.handle(DieRead(5, "tower")).kind == "step" and journalled(tmp_path) == [
        {"type": "roll", "value": 5}]


def test_a_throw_in_the_air_through_an_undo_and_its_redo_is_the_roll_it_was_thrown_for(tmp_path: Path) -> None:
    """Undone by a slip and put back at once: the game is again the one the throw was made for."""
    controller, clock = blackpool_on_a_clock(tmp_path)
    controller.handle(RollStarted("tower"))
    controller.handle(DieRead(3, "tower"))  # at 100: Yellow rolls 3, Red to roll
    clock.now = 101.0
    controller.handle(RollStarted("tower"))  # Red throws
    clock.now = 102.0
    assert controller.handle(Touch("undo")).kind == "undo"
    assert controller.handle(Touch("redo")).kind == "redo"
    clock.now = 103.0
    assert controller.handle(DieRead(5, "tower")).kind == "step"
    assert journalled(tmp_path) == [{"type": "roll", "value": 3}, {"type": "roll", "value": 5}]


def test_a_roll_the_camera_applied_is_not_one_entered_by_hand(tmp_path: Path) -> None:
    """Only a hand entry makes a late reading the same throw: a reading applied is its own throw's."""
    controller, clock = blackpool_on_a_clock(tmp_path)
    controller.handle(Touch("act", {"type": "roll", "value": 6}))
    to_next_roll(controller)
    clock.now = 105.0
    assert controller.handle(DieRead(2, "camera", 0.95, thrown_at=104.0)).kind == "step"
    to_next_roll(controller)
    # The hand entry no longer holds a reading back once a reading was applied after it.
    assert controller.handle(DieRead(4, "camera", 0.95, thrown_at=99.0)).kind == "step"


def test_an_unknown_intent_pasted_long_is_quoted_back_cut_short(tmp_path: Path) -> None:
    """A button or touch intent no one knows came back whole in the refusal, however long it was."""
    controller, _ = table(tmp_path)
    for observation in (ButtonPressed("x" * 100_000), Touch("y" * 100_000)):
        refused = controller.handle(observation)
        assert refused.kind == "refused" and len(refused.text) < 200, refused.text[:300]
    assert journalled(tmp_path) == []


@pytest.mark.parametrize("before", ["a game", "no game"])
def test_a_confirm_pressed_just_as_a_new_game_starts_is_answered_not_dropped(tmp_path: Path, before: str) -> None:
    """A confirm (or undo) queued while the new game was being set up vanished without a word; the player
    could not tell whether the button box had heard it. It is said, after the new game, and nothing moves."""
    controller = table(tmp_path)[0] if before == "a game" else Controller()
    heard: list[Update] = []
    controller.add_output(heard.append)
    controller.submit(ButtonPressed("confirm"))
    controller.submit(Touch("undo"))
    controller.submit(LinkChanged("serial", False, "cable out"))
    desert = Session.new("desert", PLAYERS["desert"], journal=Journal(tmp_path / "journal.sqlite3"))
    controller.set_session(desert)
    assert [u.kind for u in heard] == ["new_game", "refused", "refused"]
    assert heard[1].text.startswith("This press of 'confirm' was not taken: the game changed just before it "
                                    "(a new game began), and the screen had not shown that yet.")
    assert heard[2].text.startswith("This tap was not taken: the game changed just before it (a new game began)")
    assert [u.kind for u in controller.pump()] == ["link"]  # the sensor's own report still comes
    assert desert.log == []


def test_a_redo_says_it_drops_the_reading_that_waited_for_its_tap(tmp_path: Path) -> None:
    """A roll of 3 undone, the die read again as an unsure 5, then Redo: the 3 was put back and the 5 vanished
    without a word, and a confirm tapped for it was told no reading waited. Undo says so ("Reading dropped");
    redo now says so too, and a confirm after it names the redo among what drops a reading."""
    controller, _ = table(tmp_path)
    controller.handle(Touch("act", {"type": "roll", "value": 3}))
    assert controller.handle(Touch("undo")).kind == "undo"
    assert controller.handle(DieRead(5, "camera", 0.5)).kind == "confirm"
    redone = controller.handle(Touch("redo"))
    assert redone.kind == "redo" and redone.text.startswith("Put back: Yellow rolls 3.")
    assert redone.text.endswith(" The reading that waited for its tap (the die looks like 5) is dropped.")
    assert controller.proposal is None and journalled(tmp_path) == [{"type": "roll", "value": 3}]
    late = controller.handle(Touch("confirm"))
    assert late.kind == "refused" and "(the roll entered by hand, an undo or redo, a new game)" in late.text
    assert journalled(tmp_path) == [{"type": "roll", "value": 3}]
