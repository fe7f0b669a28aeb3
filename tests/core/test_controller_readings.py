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
    assert refused.text == f"the oracle shows 1 to 6, not 9 Still waiting: {asked}"
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
    assert update.kind == "unapplied" and update.text.endswith(f"Still waiting: {asked}")
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
    ("temple", CardsSeen({True: "P01"}, "camera", 0.95), "names slot True"),
    ("temple", CardsSeen({1: "P01", "2": "P02"}, "camera", 0.95), "names slot '2'"),
    ("temple", CardsSeen({1: 7}, "camera", 0.95), "has 7 in slot 1; a card is named by its id"),
    ("temple", CardsSeen({1: "P01"}, "camera", None), "has confidence None; it must be a number"),
    ("temple", CardsSeen({1: "P01"}, "camera", 0.9, twins=None), "has twins None"),
    ("blackpool", DieRead(3, "camera", None), "a die reading from camera has confidence None"),
    ("blackpool", DieRead(3, "camera", "0.9"), "has confidence '0.9'"),
    ("blackpool", DieRead(3, "camera", 0.9, "blue"), "has face 'blue'; it must name its data"),
    ("blackpool", DieRead(3, "camera", 0.9, dice=None), "counts None dice"),
    ("blackpool", DieRead(3, "serial", 0.9, die=6), "names its die 6"),
    ("blackpool", DieRead(3, 7, 0.9), "an input must be named, not 7"),
    ("blackpool", Touch("act", "roll 3"), "an action must be a JSON object"),
    ("blackpool", Touch("check", "3"), "an action must be a JSON object"),
    ("blackpool", ButtonPressed(None), "an intent must be a word"),
    ("blackpool", "roll 3", "not an observation: 'roll 3'"),
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
    assert refused.kind == "refused" and "cannot be written" in refused.text
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
    assert read.kind == "unapplied" and read.text == f"The die reads {value}, not applied: {typed.text}"
    assert read.rules == typed.rules == ("BP-Q5",)
    assert journalled(tmp_path) == []


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
