"""The card tag sensor after the app starts again: firmware that tells its slots' tags as its port opens sends the
cards lying on the board to a link that has seen none of them. They are what lay there, not cards laid: the last
game's cards are no draws of a new game, and a card change taken back with undo is not taken again. A card laid
once the link reads is taken as before. Over a real pseudo-terminal, on the link's own clock."""

from __future__ import annotations

from pathlib import Path

from companion.controller import Controller
from companion.journal import Journal
from companion.observations import Touch
from companion.session import Session
from hardware.dice_link import DiceLink
from hardware.dice_sim import SimulatedSensor
from tests.controller_loop import pump_until, pump_until_done
from tests.hardware.conftest import FAST, laid_out_to_a_change, open_a_while, temple_tagged, until_link


def started_again(sensor: SimulatedSensor, controller: Controller, tags, board: dict[int, str], said: list
                  ) -> tuple[DiceLink, list[float]]:
    """A new link (the app started again) whose sensor tells each slot's tag as its port opens; the link on the
    test's clock, still at the opening."""
    link = DiceLink(sensor.path, controller.submit, tags=tags, backoff=FAST)
    now = [1000.0]
    link.clock = lambda: now[0]
    link.start()
    said += pump_until(controller, until_link(True))
    for slot, card in sorted(board.items()):
        sensor.slot(slot, f"T{card}")
    pump_until_done(controller, lambda: link.counts["SlotReport"] == len(board), said)
    return link, now


def test_the_last_games_tags_told_as_the_port_opens_are_no_draws_of_a_new_game(
    sensor: SimulatedSensor, tmp_path: Path
) -> None:
    """The kiosk started again in the morning, the last game's twelve cards still in their slots, a new temple game
    begun: each tag told as the port opened was taken as the new game's draw, slot after slot. Named once, with what
    to do; a card laid once the link reads is the first draw."""
    old, first_controller, tags = temple_tagged(tmp_path)
    with DiceLink(sensor.path, first_controller.submit, tags=tags, backoff=FAST) as first:
        pump_until(first_controller, until_link(True))
        open_a_while(first)
        laid_out_to_a_change(sensor, first_controller, old)
    board = {i + 1: card for i, card in enumerate(old.state.slots)}
    session = Session.new("temple", ["red", "blue"])
    controller = Controller(session)  # the app started again: a new controller and a new link
    said: list = []
    link, now = started_again(sensor, controller, tags, board, said)
    with link:
        assert session.log == [], [u.text for u in said if u.kind == "step"]
        told = [u for u in said if u.kind == "unapplied"]
        assert [u.text for u in told] == [
            f"Slot 1 holds {board[1]}, which lay there before this game began: not taken as a draw. Clear the last "
            "game's cards off the board and shuffle them into the deck, then lay each card drawn in its slot."]
        assert told[0].rules == ("RU-3",)
        named = [u.text for u in said if u.kind == "info" and "before this game began" in u.text]
        assert named[-1] == f"Slot 12 holds {board[12]}, which lay there before this game began: not taken as a draw."
        assert len(named) == 11
        now[0] += 30
        card = next(a["card"] for a in session.legal() if a["type"] == "draw" and a["card"] not in board.values())
        sensor.slot(1, None)
        sensor.slot(1, f"T{card}")
        step = pump_until(controller, lambda u: u.kind == "step")[-1]
    assert step.action == {"type": "draw", "deck": "path", "card": card}


def test_a_change_taken_back_is_not_taken_again_from_the_tags_told_after_a_restart(
    sensor: SimulatedSensor, tmp_path: Path
) -> None:
    """Undo took a card change back, then the app started again over its journal before the old card was put back:
    the new card's tag, told as the port opened, was the change made anew. Named, as the camera names it."""
    journal = Journal(tmp_path / "journal.sqlite3")
    _, _, tags = temple_tagged(tmp_path)
    session = Session.new("temple", ["red", "blue"], journal=journal)
    controller = Controller(session)
    with DiceLink(sensor.path, controller.submit, tags=tags, backoff=FAST) as first:
        pump_until(controller, until_link(True))
        open_a_while(first)
        change = laid_out_to_a_change(sensor, controller, session)
        sensor.slot(change["slot"], None)
        sensor.slot(change["slot"], f"T{change['card']}")
        pump_until(controller, lambda u: u.kind == "step")
        assert controller.handle(Touch("undo")).kind == "undo"
    board = {i + 1: card for i, card in enumerate(session.state.slots)} | {change["slot"]: change["card"]}
    journal.close()
    journal = Journal(tmp_path / "journal.sqlite3")
    resumed = Session.resume(journal)
    steps = len(resumed.log)
    said: list = []
    link, _ = started_again(sensor, Controller(resumed), tags, board, said)
    with link:
        pass
    journal.close()
    assert len(resumed.log) == steps and not [u for u in said if u.kind in ("step", "confirm")]
    assert [u.text for u in said if "still shows" in u.text] == [
        f"Slot {change['slot']} still shows {change['card']}, from the change taken back: not taken again. Put "
        f"{session.state.slots[change['slot'] - 1]} back in slot {change['slot']} as the undo asked, or Redo puts "
        "the change back."]
