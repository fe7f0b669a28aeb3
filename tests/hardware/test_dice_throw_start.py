"""Whether a die the sensor reads is a throw: one whose start ($ROLL) was lost while the port was closed, and a
device that says $ROLL only once, at power-up. Over real pseudo-terminals, on the link's own clock."""

from __future__ import annotations

from hardware.dice_sim import SimulatedSensor
from tests.controller_loop import pump_until, pump_until_done
from tests.hardware.conftest import blackpool_on, red_rolled_3, until_link


def test_a_throw_whose_roll_was_lost_while_the_port_was_closed_is_said_not_taken(sensor: SimulatedSensor) -> None:
    """A loose connector: Red's throw, entered by hand while the cable was out, had its late $DIE, read once the
    port was back, taken as Blue's roll (its $ROLL was lost in the drop).

    The port's reopenings are not said while the connection is unstable, so that word of the sensor's is said as
    it is: it read "dice sensor connected: the sensor read 5 ...", and the link counted as back (off the settings
    screen's problems, and "steady again" then said without "connected")."""
    controller, link, now = blackpool_on(sensor)
    said: list = []
    with link:
        pump_until(controller, until_link(True))
        sensor.roll(3)  # Red's throw, read whole: nothing of Red's can move, Blue to roll
        pump_until(controller, lambda u: u.kind == "step")
        for flap in range(2):  # a loose connector: two drops, and a throw in the second
            now[0] += 1
            sensor.unplug()
            sensor.send("ROLL")  # Blue throws while the cable is out: the start of the throw goes nowhere
            sensor.plug()
            pump_until_done(controller, lambda: link.counts["connects"] == flap + 2, said)  # noqa: B023
        sensor.send("DIE", "d6", 5, 100)  # the die settles with the port back
        pump_until_done(controller, lambda: any("read 5 with no $ROLL" in u.text for u in said), said)
        assert controller.session.log == [{"type": "roll", "value": 3}], "a throw not seen whole is not taken"
        sensor.send("DIE", "d6", 5, 100)  # sent again, or a die rocking: not taken either, and not said again
        sensor.send("DIE", "d6", 2, 100)
        pump_until_done(controller, lambda: any("read 2 with no $ROLL" in u.text for u in said), said)
        assert controller.links == {"dice sensor": False}, "still unstable: a word from it is not its return"
        sensor.roll(5)  # a throw read whole counts, though the connection is still unstable
        step = pump_until(controller, lambda u: u.kind == "step")[-1]
        now[0] += 30  # it holds
        said += pump_until(controller, until_link(True))
    assert step.action == {"type": "roll", "value": 5} and len(controller.session.log) == 2
    links = [u.text for u in said if u.kind == "link" and "$ROLL" not in u.text]
    assert links == [
        f"dice sensor lost: {sensor.path}: the port closed: the sensor was unplugged, its cable came loose, or another "
        "program took its port; it is opened again once it is back",
        f"dice sensor connected: {sensor.path} open",
        # as it is now: throws read whole count, and only one it missed is entered by hand
        "dice sensor: connection unstable (2 drops in the last 30 s): check the sensor's cable and its plugs at both "
        "ends. Rolls it reads still count; enter by hand only a roll it misses",
        f"dice sensor connected: steady again: {sensor.path} open for 30 s without a drop",
    ]
    assert controller.links == {"dice sensor": True}
    texts = [u.text for u in said if u.kind == "link" and "$ROLL" in u.text]
    assert texts == [  # its port's reopening was not said (unstable): not "dice sensor connected: the sensor read 5"
        "dice sensor: the sensor read 5 with no $ROLL since its port opened again: that throw began while the port "
        "was closed, so 5 is not taken (it may be a roll entered by hand meanwhile). If it is a roll not entered "
        "yet, enter 5 by hand",
        "dice sensor: the sensor read 2 with no $ROLL since its port opened again: that throw began while the port "
        "was closed, so 2 is not taken (it may be a roll entered by hand meanwhile). If it is a roll not entered "
        "yet, enter 2 by hand",
    ]


def test_a_die_long_after_the_port_opened_is_taken_as_ever(sensor: SimulatedSensor) -> None:
    """Only a throw that can have begun while the port was closed is in doubt: a sensor swapped for one that never
    says $ROLL has its throws taken once it has been open a while."""
    said: list = []
    with red_rolled_3(sensor) as (controller, link, now):
        sensor.unplug()
        sensor.plug()
        pump_until_done(controller, lambda: link.counts["connects"] == 2, said)
        now[0] += 30
        sensor.send("DIE", "d6", 5, 100)
        step = pump_until(controller, lambda u: u.kind == "step")[-1]
    assert step.action == {"type": "roll", "value": 5}


def test_a_sensor_that_says_roll_only_at_power_up_is_told_once_not_at_every_throw(sensor: SimulatedSensor) -> None:
    """Firmware that sends $ROLL once as it starts and never again: every throw after the first was refused as
    "the dice did not move", throw after throw, with no word that the device never announces a throw."""
    controller, link, now = blackpool_on(sensor)
    said: list = []
    with link:
        pump_until(controller, until_link(True))
        sensor.send("ROLL")  # at power-up
        sensor.send("DIE", "d6", 3, 100)  # Red's throw: taken
        pump_until(controller, lambda u: u.kind == "step")
        for count, value in enumerate((5, 2, 6, 6, 1), start=2):  # Blue's throws, 30 s apart, none announced
            now[0] += 30
            sensor.send("DIE", "d6", value, 100)
            pump_until_done(controller, lambda: link.counts["DieSettled"] == count, said)  # noqa: B023
        assert controller.session.log == [{"type": "roll", "value": 3}]
        sensor.roll(4)  # once it does say $ROLL, its throw is taken
        said += pump_until(controller, lambda u: u.kind == "step")
    assert controller.session.log[-1] == {"type": "roll", "value": 4}
    texts = [u.text for u in said if u.kind == "link"]
    assert texts == [
        "dice sensor: the sensor read 5 after 3 with no $ROLL between (the dice did not move), so 5 is not taken as a "
        "new throw. If it was one, enter 5 by hand; if 3 was misread, undo it and enter 5; if two dice are in the "
        "tray, take one out",
        "dice sensor: the sensor sends no $ROLL when the dice are thrown: it sent one before 3 and none since, "
        "though it read 2 throws after it (5, 2), so no throw after 3 is taken. Enter rolls by hand, and have its "
        "firmware send $ROLL each time the dice start moving (docs/hardware.md); its throws are not said one by "
        "one from now on",
    ], texts
    # The players read what to do, without $ROLL or firmware (`observations.table_text`).
    assert [u.detail["table"] for u in said if u.kind == "link"][1] == (
        "The dice sensor does not notice throws, so no roll after 3 was taken: enter rolls by hand (owner: see the "
        "log).")
    assert link.counts["unannounced"] == 5
