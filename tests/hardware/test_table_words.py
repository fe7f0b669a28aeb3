"""Two wordings of what the dice sensor says: the players' at the table, and the owner's for the settings screen,
the log and the hw commands. Over real pseudo-terminals; every step waits for the count or the line it needs.

The table read the owner's line: "Dice sensor: the sensor read 5 with no $ROLL since its port opened again ...",
"Dice sensor lost: /tmp/.../dice: the port closed: ...", with a protocol line, a device path and a fix a player
cannot use, and no word of what to do with the roll in hand."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from companion.controller import Controller
from companion.observations import Update
from companion.session import Session
from hardware.dice_link import DiceLink
from hardware.dice_sim import SimulatedSensor
from tests.controller_loop import pump_until
from tests.hardware.conftest import FAST, clocked_link, until_link

# What a player at the table cannot use: a protocol line, a device or a file path, the wire's terms, a command.
JARGON = re.compile(r"\$|/|\bport\b|baud|firmware|checksum|\bline\b|docs|hw |usermod|dialout", re.IGNORECASE)


def blackpool() -> Controller:
    return Controller(Session.new("blackpool", ["red", "blue"]))


def table(update: Update) -> str:
    return str(update.detail["table"])


def pump_until_count(controller: Controller, done: Callable[[], bool]) -> list[Update]:
    """Run the controller's loop until ``done()`` (a link's count reached); what it said meanwhile."""
    said: list[Update] = []
    for _ in range(400):  # ten seconds at most: a generous bound, nothing timed is asserted
        if done():
            return said + controller.pump()
        said += controller.wait_and_pump(0.025)
    raise AssertionError(f"the link never got there; it said {[u.text for u in said]}")


def link_said(text: str) -> Callable[[Update], bool]:
    return lambda u: u.kind == "link" and text in u.text


def test_a_die_with_no_roll_announced_is_told_to_the_table_in_its_words_and_to_the_owner_in_full(
        sensor: SimulatedSensor) -> None:
    """Red's 3 read, then a 5 with no $ROLL between: the owner learns the protocol's why, the table what to do."""
    controller = blackpool()
    with DiceLink(sensor.path, controller.submit, backoff=FAST) as link:
        up = pump_until(controller, until_link(True))[-1]
        sensor.roll(3)
        pump_until(controller, lambda u: u.kind == "step")
        sensor.send("DIE", "d6", 5, 100)
        said = pump_until(controller, link_said("read 5 after 3"))[-1]
        sensor.roll(3)  # the same 3 twice, its $ROLL sent: a throw read whole
        pump_until(controller, lambda u: u.kind == "step")
        sensor.send("DIE", "d6", 3, 100)  # sent again with no $ROLL: no new throw
        again = pump_until(controller, link_said("again without the dice moving"))[-1]
        assert link.counts["repeats"] == 1
    assert up.text == f"dice sensor connected: {sensor.path} open" and table(up) == "Dice sensor connected."
    assert "no $ROLL between" in said.text  # the owner's, as before
    assert table(said) == ("The sensor read 5 after 3 with no new throw between, so 5 is not taken. If it was a "
                           "throw, enter 5 by hand; if 3 was wrong, undo it and enter 5; if two dice are in the tray, "
                           "take one out.")
    assert "(no $ROLL before it)" in again.text
    assert table(again) == ("The sensor read 3 again without a new throw, so it is not taken twice. If you threw "
                            "again, roll again or enter it by hand.")
    assert not JARGON.search(table(said) + table(again) + table(up))


def test_a_garbled_line_and_a_sensor_fault_tell_the_table_what_to_do_and_the_owner_the_baud_rate(
        sensor: SimulatedSensor) -> None:
    controller = blackpool()
    with DiceLink(sensor.path, controller.submit, backoff=FAST):
        pump_until(controller, until_link(True))
        sensor.write(b"$DIE,d6,4,100*00\n")  # a checksum that does not match
        garbled = pump_until(controller, link_said("could not be read"))[-1]
        sensor.send("ERR", "cocked", "die leaning on the wall")
        fault = pump_until(controller, link_said("sensor fault"))[-1]
        sensor.ident()  # who it is: the owner's business alone
        ident = pump_until(controller, link_said("firmware"))[-1]
    assert garbled.text == ("dice sensor: a line could not be read (checksum mismatch); if a roll did not come "
                            "through, enter it by hand. If none reads, check the sensor speaks 115200 baud")
    assert table(garbled) == ("The dice sensor's message came through garbled: if your roll did not show, enter it "
                              "by hand.")
    assert fault.text == "dice sensor: sensor fault cocked: die leaning on the wall"
    assert table(fault) == "The dice sensor could not read the die: roll again, or enter the roll by hand."
    assert table(ident) == "" and "firmware 1.0 #0001" in ident.text
    assert not JARGON.search(table(garbled) + table(fault))


def test_a_lost_a_missing_and_an_unstable_sensor_are_told_to_the_table_without_its_port(
        sensor: SimulatedSensor, tmp_path: Path) -> None:
    controller = blackpool()
    missing = tmp_path / "ttyNONE"
    with DiceLink(str(missing), controller.submit, backoff=FAST):
        never = pump_until(controller, until_link(False))[-1]
    assert never.text.startswith(f"dice sensor not found: cannot open {missing}: ")
    assert table(never) == "Dice sensor not found: tap what it would have read (owner: Settings)."

    controller = blackpool()
    link, now = clocked_link(sensor.path, controller.submit)
    said: list[Update] = []
    with link:
        said += pump_until(controller, until_link(True))
        for flap in range(2):
            now[0] += 1
            sensor.unplug()
            said += pump_until(controller, until_link(False))
            sensor.plug()
            said += pump_until_count(controller, lambda: link.counts["connects"] == flap + 2)  # noqa: B023
        now[0] += 30  # it holds
        said += pump_until(controller, link_said("steady again"))
    links = [u for u in said if u.kind == "link"]
    assert [u.text.split(":")[0] for u in links] == ["dice sensor connected", "dice sensor lost",
                                                     "dice sensor connected", "dice sensor", "dice sensor connected"]
    assert links[1].text == (f"dice sensor lost: {sensor.path}: the port closed: the sensor was unplugged, its "
                             "cable came loose, or another program took its port; it is opened again once it is back")
    assert [table(u) for u in links] == [
        "Dice sensor connected.",
        "Dice sensor lost: tap what it would have read (owner: Settings).",
        "Dice sensor connected.",
        "Dice sensor connection unstable: rolls it reads still count; enter by hand only a roll it misses (owner: "
        "Settings).",
        "Dice sensor steady again: its rolls are read.",
    ]
    assert sensor.path in links[3].text or "cable" in links[3].text  # the owner's keeps the fix
    assert not any(JARGON.search(table(u)) for u in links)


def test_a_roll_read_while_the_port_was_closed_is_told_in_the_games_words(sensor: SimulatedSensor) -> None:
    """The brief's example: 'dice sensor: the sensor read 5 with no $ROLL ...' reached the players."""
    controller = blackpool()
    link, now = clocked_link(sensor.path, controller.submit)
    with link:
        pump_until(controller, until_link(True))
        sensor.roll(3)
        pump_until(controller, lambda u: u.kind == "step")
        now[0] += 1
        sensor.unplug()
        pump_until(controller, until_link(False))
        sensor.plug()
        pump_until(controller, until_link(True))
        sensor.send("DIE", "d6", 5, 100)
        said = pump_until(controller, link_said("read 5 with no $ROLL"))[-1]
    assert table(said) == ("The sensor read 5, but that throw began while it was disconnected, so 5 is not taken. "
                           "If that roll is not entered yet, enter 5 by hand.")
    assert not JARGON.search(table(said))


def test_an_unsure_reading_asks_the_table_and_tells_the_owner_how_sure(sensor: SimulatedSensor) -> None:
    controller = blackpool()
    with DiceLink(sensor.path, controller.submit, backoff=FAST):
        pump_until(controller, until_link(True))
        sensor.roll(5, confidence=60)
        asked = pump_until(controller, lambda u: u.kind == "confirm")[-1]
    assert asked.text == "The die looks like 5. Tap to confirm or correct it."
    assert asked.detail["owner"] == ("dice sensor: read 5 at 60% sure, below the 80% taken without a tap, so the "
                                     "table is asked to confirm it")
