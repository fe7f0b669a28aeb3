"""The serial sensor end to end over real ptys: rolls, slots, noise and unplugging in a game."""

from __future__ import annotations

import contextlib
import errno
import os
import queue
import random
import socket
import threading
from pathlib import Path
from typing import Any

import pytest
import serial
from serial import serialposix

from companion.controller import Controller
from companion.journal import Journal
from companion.observations import ButtonPressed, CardsSeen, DieRead, LinkChanged, Touch
from companion.session import Session
from hardware.dice_link import DiceLink, open_port, to_observation, unusable
from hardware.dice_protocol import BadLine, DieSettled, SlotReport, encode
from hardware.dice_sim import SimulatedSensor, run_script, script_refusals
from hardware.selftest import probe
from hardware.tags import TagMap
from tests.controller_loop import pump_until, pump_until_done
from tests.hardware.conftest import FAST, clocked_link, laid_out_to_a_change, open_a_while, temple_tagged, until_link


def race_controller(journal=None) -> Controller:
    return Controller(Session.new("race", ["red", "blue"], journal=journal))


def test_a_sensor_roll_becomes_the_pending_roll(sensor: SimulatedSensor) -> None:
    controller = race_controller()
    with DiceLink(sensor.path, controller.submit, backoff=FAST):
        pump_until(controller, until_link(True))
        sensor.roll(4)
        step = pump_until(controller, lambda u: u.kind == "step")[-1]
    assert step.action == {"type": "roll", "value": 4}
    assert controller.session.document()["roll"] == 4


def test_the_reader_asks_who_is_there_and_hears_the_ident(sensor: SimulatedSensor) -> None:
    controller = race_controller()
    with DiceLink(sensor.path, controller.submit, backoff=FAST) as link:
        pump_until(controller, until_link(True))
        while link.ident is None:
            sensor.answer_queries(0.05)
            controller.pump()
    assert link.ident.model == "TC-DICE-SIM"


def test_noise_then_unplug_mid_game_then_the_game_goes_on(sensor: SimulatedSensor, tmp_path: Path) -> None:
    controller = race_controller(Journal(tmp_path / "j.sqlite3"))
    bad: queue.Queue = queue.Queue()
    on_message = lambda m: bad.put(m) if isinstance(m, BadLine) else None  # noqa: E731
    with DiceLink(sensor.path, controller.submit, backoff=FAST, on_message=on_message):
        pump_until(controller, until_link(True))
        sensor.roll(2)
        pump_until(controller, lambda u: u.kind == "step")
        controller.handle(Touch("act", {"type": "advance"}))
        before = controller.session.document()
        sensor.write(b"\x00\xffboot noise\r\n")  # garbage
        sensor.write(b"$DIE,d6,6,100*00\n")  # checksum error
        assert {bad.get(timeout=10).reason, bad.get(timeout=10).reason} == {"no start marker", "checksum mismatch"}
        sensor.write(encode("DIE", "d6", 6, 100)[:7])  # half a line, then the cable is pulled
        sensor.unplug()
        pump_until(controller, until_link(False))
        assert controller.session.document() == before
        sensor.plug()  # a new pty behind the same name, as when a USB device comes back
        pump_until(controller, until_link(True))
        sensor.roll(3)
        step = pump_until(controller, lambda u: u.kind == "step")[-1]
    assert step.action == {"type": "roll", "value": 3}
    assert controller.session.document()["positions"] == [2, 0] and controller.session.document()["turn"] == 1
    assert [a["type"] for a in controller.session.log] == ["roll", "advance", "roll"]


def test_a_missing_device_is_reported_once_and_found_when_it_appears(tmp_path: Path) -> None:
    controller = race_controller()
    sim = SimulatedSensor(tmp_path / "later")
    with DiceLink(sim.path, controller.submit, backoff=FAST):
        down = pump_until(controller, until_link(False))[-1]
        # Never plugged in: "dice sensor lost" sent the café owner to a cable that never came loose.
        assert down.text.startswith(f"dice sensor not found: cannot open {sim.path}")
        assert down.text.endswith("; will keep looking")
        with sim.plug():
            pump_until(controller, until_link(True))
            sim.roll(5)
            pump_until(controller, lambda u: u.kind == "step")
        gone = pump_until(controller, until_link(False))[-1]  # connected once, then unplugged: lost
    assert gone.text.startswith("dice sensor lost: ") and "will keep looking" not in gone.text
    assert controller.session.document()["roll"] == 5


def refuse_opening(monkeypatch: pytest.MonkeyPatch, path: str, code: int) -> list[bool]:
    """Opening ``path`` (the pty behind it) fails with ``code`` while the flag returned holds True.

    The tests run as root, whom a tty's mode or TIOCEXCL never refuses, so the open itself is made to fail
    as it does for a user outside dialout (EACCES) or on a port another program holds (EBUSY).
    """
    refusing = [True]
    real_open = os.open

    def opening(name: Any, *args: Any, **kwargs: Any) -> int:
        if refusing[0] and os.path.realpath(name) == os.path.realpath(path):  # whichever pty is behind it now
            raise OSError(code, os.strerror(code), name)
        return real_open(name, *args, **kwargs)

    monkeypatch.setattr(serialposix.os, "open", opening)
    return refusing


@pytest.mark.parametrize(("code", "words"), [
    (errno.EACCES, "permission denied (add the service user to the dialout group: see docs/hardware.md)"),
    (errno.EBUSY, "busy: another program has it open"),
])
def test_a_port_that_is_there_but_cannot_be_opened_is_not_told_as_not_found(
        sensor: SimulatedSensor, monkeypatch: pytest.MonkeyPatch, code: int, words: str) -> None:
    """A port the service's user may not open, or one another program holds, read "dice sensor not found:
    cannot open ...: Permission denied; will keep looking": the café owner looked for a cable."""
    controller = race_controller()
    refusing = refuse_opening(monkeypatch, sensor.path, code)
    with DiceLink(sensor.path, controller.submit, backoff=FAST):
        down = pump_until(controller, until_link(False))[-1]
        assert down.text.startswith(f"dice sensor: cannot open {sensor.path}: {words}"), down.text
        assert "not found" not in down.text and "lost" not in down.text and "keep looking" not in down.text
        refusing[0] = False  # the group given, the other program closed: it opens without a restart
        up = pump_until(controller, until_link(True))[-1]
    assert up.text == f"dice sensor connected: {sensor.path} open"


def test_a_sensor_not_found_then_plugged_in_where_it_may_not_be_opened_says_so(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Told once as not found, the sensor plugged in on a port this user may not open stayed "not found"."""
    controller = race_controller()
    sim = SimulatedSensor(tmp_path / "later")
    with DiceLink(sim.path, controller.submit, backoff=FAST):
        assert pump_until(controller, until_link(False))[-1].text.startswith("dice sensor not found: ")
        refuse_opening(monkeypatch, sim.path, errno.EACCES)  # before it is there: a retry between never opens it
        with sim.plug():
            refused = pump_until(controller, until_link(False))[-1]
    assert refused.text.startswith(f"dice sensor: cannot open {sim.path}: permission denied ("), refused.text


def test_open_port_names_a_refused_port_by_its_reason_and_keeps_its_errno(
        sensor: SimulatedSensor, monkeypatch: pytest.MonkeyPatch) -> None:
    """`open_port` gives every user of the port the same words, and keeps the errno they are told by."""
    refuse_opening(monkeypatch, sensor.path, errno.EACCES)
    with pytest.raises(serial.SerialException) as refused:
        open_port(sensor.path)
    assert refused.value.errno == errno.EACCES and unusable(refused.value)
    assert str(refused.value).startswith("permission denied (add the service user to the dialout group")


def test_the_same_protocol_over_loop_url() -> None:
    heard: queue.Queue = queue.Queue()
    link = DiceLink("loop://", heard.put, backoff=FAST)
    link.start()
    try:
        assert heard.get(timeout=10) == LinkChanged("dice sensor", True, "loop:// open")
        assert link.counts["connects"] == 1
    finally:
        link.stop()


def test_slot_reports_go_through_the_taught_tags(tmp_path: Path) -> None:
    tags = TagMap(tmp_path / "tags.json")
    tags.teach("04A1", "P07")
    assert TagMap.load(tmp_path / "tags.json").card("04A1") == "P07"
    assert to_observation(SlotReport(3, "04A1"), "s", tags) == CardsSeen({3: "P07"}, "s")
    assert to_observation(SlotReport(3, None), "s", tags) == CardsSeen({3: None}, "s")
    unknown = to_observation(SlotReport(3, "FFFF"), "s", tags)
    assert isinstance(unknown, LinkChanged) and "unknown tag FFFF" in unknown.detail
    assert to_observation(DieSettled("temple", 3, 0.9, "red"), "s") == DieRead(3, "s", 0.9, {"colour": "red"}, "temple")
    tags.teach("04A2", "P07")  # the card got a new sticker
    assert tags.card("04A1") is None and tags.card("04A2") == "P07"


def test_temple_slots_become_draws_then_a_card_change(sensor: SimulatedSensor, tmp_path: Path) -> None:
    session, controller, tags = temple_tagged(tmp_path)
    with DiceLink(sensor.path, controller.submit, tags=tags, backoff=FAST) as link:
        pump_until(controller, until_link(True))
        open_a_while(link)
        change = laid_out_to_a_change(sensor, controller, session)
        sensor.slot(change["slot"], None)  # the old card is lifted...
        sensor.slot(change["slot"], f"T{change['card']}")  # ...and the new one laid
        step = pump_until(controller, lambda u: u.kind == "step")[-1]
    assert step.action == {"type": "change", "slot": change["slot"], "card": change["card"]}


def test_readers_stop_cleanly(sensor: SimulatedSensor) -> None:
    before = threading.active_count()
    links = [DiceLink(sensor.path, lambda o: None, backoff=FAST).start() for _ in range(3)]
    for link in links:
        link.stop()
    assert threading.active_count() == before


def test_an_impossible_die_over_the_wire_is_refused_with_its_clause_and_journals_nothing(
    sensor: SimulatedSensor, tmp_path: Path
) -> None:
    path = tmp_path / "j.sqlite3"
    controller = Controller(Session.new("blackpool", ["red", "blue"], journal=Journal(path)))
    before = controller.session.document()
    with DiceLink(sensor.path, controller.submit, backoff=FAST):
        pump_until(controller, until_link(True))
        sensor.write(b"x" * 10_000 + b"\n" + bytes(range(256)) * 4)  # a 10 kB line, then a binary burst
        sensor.write(b"\n" + encode("DIE", "d6", 7, 100))
        refused = pump_until(controller, lambda u: u.kind == "unapplied")[-1]
        assert refused.rules == ("BP-Q5",)
        assert refused.text == "The die reads 7: the Oracle (d6) shows 1 to 6; not applied."
        sensor.write(encode("ROLL") + encode("DIE", "d6", "X", 100))  # firmware taught a temple die's X
        refused = pump_until(controller, lambda u: u.kind == "unapplied")[-1]
        assert refused.rules == ("BP-Q5",)
        assert refused.text == "The die reads X: the Oracle (d6) shows 1 to 6; not applied."
        assert controller.session.document() == before
        sensor.roll(6)
        step = pump_until(controller, lambda u: u.kind == "step")[-1]
    assert step.action == {"type": "roll", "value": 6}
    entry = Journal(path).latest_game()
    assert entry is not None and entry.steps == [("act", {"type": "roll", "value": 6})]


def test_a_die_of_another_kind_is_not_taken_for_the_games_die(sensor: SimulatedSensor) -> None:
    controller = Controller(Session.new("blackpool", ["red", "blue"]))
    before = controller.session.document()
    with DiceLink(sensor.path, controller.submit, backoff=FAST):
        pump_until(controller, until_link(True))
        sensor.roll(4, die="d20")  # a temple die dropped in the Blackpool tower
        refused = pump_until(controller, lambda u: u.kind == "unapplied")[-1]
        assert refused.text == "A d20 was read, but this roll needs the Oracle (d6), which has 6 sides; roll that die."
        assert controller.session.document() == before
        sensor.roll(4, die="D6")
        step = pump_until(controller, lambda u: u.kind == "step")[-1]
    assert step.action == {"type": "roll", "value": 4}


def test_a_card_the_rules_refuse_is_shown_with_the_games_reason_and_clause(
    sensor: SimulatedSensor, tmp_path: Path
) -> None:
    session = Session.new("temple", ["red", "blue"])
    controller = Controller(session)
    card = next(a["card"] for a in session.legal() if a["type"] == "draw")
    tags = TagMap(tmp_path / "tags.json", {"T1": card})
    with DiceLink(sensor.path, controller.submit, tags=tags, backoff=FAST) as link:
        pump_until(controller, until_link(True))
        open_a_while(link)
        sensor.slot(1, "T1")
        pump_until(controller, lambda u: u.kind == "step")
        before = session.document()
        sensor.slot(2, "T1")  # the same sticker read again under the next slot
        refused = pump_until(controller, lambda u: u.kind == "unapplied")[-1]
    assert "slot 2" in refused.text.lower() and f"not applied: {card} is already in slot 1." in refused.text
    assert refused.rules == ("RU-3",) and session.document() == before


class RecordedWaits(threading.Event):
    """The link's stop event, noting each wait between attempts, so the back-off is checked without a clock."""

    def __init__(self, log: list) -> None:
        super().__init__()
        self.log = log

    def wait(self, timeout: float | None = None) -> bool:
        self.log.append(timeout)
        return super().wait(timeout)


def test_a_port_that_opens_and_drops_at_once_is_retried_with_back_off() -> None:
    """A ser2net-style server with nothing behind it: it accepts, then hangs up, every time.

    (Each attempt takes about 0.3 s: pyserial's socket close lingers.)
    """
    server = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()

    def hang_up() -> None:
        while not stop.is_set():
            with contextlib.suppress(OSError):
                server.accept()[0].close()

    threading.Thread(target=hang_up, daemon=True).start()
    log: list = []
    heard: list = []
    link = DiceLink(f"socket://127.0.0.1:{server.getsockname()[1]}", lambda o: (log.append(o.up), heard.append(o)))
    link.backoff = (0.01, 0.02)
    link.clock = lambda: 1000.0  # every drop within one flap window, however slowly the machine runs
    link._stop = RecordedWaits(log)
    link.start()
    try:
        for _ in range(1000):  # ten seconds at most: a bound, not a timing
            if link.counts["drops"] >= 4:
                break
            threading.Event().wait(0.01)
    finally:
        link.stop()
        stop.set()
        server.close()
    # up, down, a wait that doubles up to its ceiling, and up again: never reopened straight away. From the second
    # drop it is an unstable connection, said once: its reopenings and drops are not said each time.
    assert log[:8] == [True, False, 0.01, True, False, 0.02, 0.02, 0.02]
    assert link.counts["connects"] >= 4 and "check the server and the sensor behind it" in heard[3].detail


def test_unreadable_lines_are_said_once_until_a_line_reads(sensor: SimulatedSensor) -> None:
    """A sensor at the wrong baud rate, or a line garbled on the cable, was counted and never said: the
    table heard "connected", then nothing at all when the dice were thrown."""
    controller = race_controller()
    with DiceLink(sensor.path, controller.submit, backoff=FAST):
        pump_until(controller, until_link(True))
        sensor.write(b"\x8f\xfe\x13\xe0\xf8\n" * 3)  # 9600-baud bytes read at 115200
        said = pump_until(controller, lambda u: u.kind == "link" and "could not be read" in u.text)[-1]
        assert said.detail["up"] is True and "enter it by hand" in said.text
        sensor.write(b"$DIE,d6,6,100*00\n")  # garbled on the cable: no second report until a line reads
        sensor.roll(4)
        updates = pump_until(controller, lambda u: u.kind == "step")
        assert not any("could not be read" in u.text for u in updates)
        sensor.write(b"$DIE,d6,6,100*00\n")
        pump_until(controller, lambda u: u.kind == "link" and "checksum mismatch" in u.text)
    assert [a["type"] for a in controller.session.log] == ["roll"]


def test_a_sensor_that_goes_silent_is_said_once_reopened_and_welcomed_back(sensor: SimulatedSensor) -> None:
    """A sensor whose firmware hung (or whose board lost power behind its USB adapter) leaves its port open and
    quiet: the table heard "connected", then nothing at all when the dice were thrown."""
    controller = race_controller()
    with DiceLink(sensor.path, controller.submit, backoff=FAST, silence=(0.2, 0.2)) as link:
        pump_until(controller, until_link(True))
        while not link.counts["answers"]:  # it answers "$ID?" while quiet, so its silence will be news
            sensor.answer_queries(0.05)
            controller.pump()
        quiet_since = link.counts["connects"]
        silent = pump_until(controller, until_link(False))[-1]
        assert "has not answered for 0.2 s though it did before" in silent.text and "enter rolls by hand" in silent.text
        meanwhile = []
        while link.counts["connects"] < quiet_since + 3:  # reopened, and still quiet, again and again
            meanwhile += controller.wait_and_pump(0.05)
        assert not [u.text for u in meanwhile if u.kind == "link"]  # said once: no connected/lost at each reopen
        back: list = []
        while not any("answers again" in u.text for u in back):
            sensor.answer_queries(0.05)
            back += controller.pump()
        assert [u.detail["up"] for u in back if u.kind == "link"] == [True]
        assert link.counts["Ident"] >= 2 and not any("firmware" in u.text for u in back)  # its answers are no news
        sensor.roll(5)
        step = pump_until(controller, lambda u: u.kind == "step")[-1]
    assert step.action == {"type": "roll", "value": 5}


def test_a_silent_sensor_unplugged_and_plugged_back_is_said_connected_again(sensor: SimulatedSensor) -> None:
    """The café owner re-plugs the silent sensor: "cannot open" was said, then nothing once it was back."""
    controller = race_controller()
    with DiceLink(sensor.path, controller.submit, backoff=FAST, silence=(0.2, 0.2)) as link:
        pump_until(controller, until_link(True))
        while not link.counts["answers"]:
            sensor.answer_queries(0.05)
            controller.pump()
        pump_until(controller, lambda u: u.kind == "link" and "has not answered" in u.text)
        sensor.unplug()
        pump_until(controller, until_link(False))  # "cannot open", or the read failing if it was open just then
        sensor.plug()
        back = pump_until(controller, until_link(True))[-1]
    assert back.text.endswith(f"connected: {sensor.path} open")


def test_a_sensor_that_never_answers_the_query_is_not_called_silent(sensor: SimulatedSensor) -> None:
    """Firmware that only prints (no "$ID?" support) is quiet between throws, as any sensor is: no report."""
    controller = race_controller()
    with DiceLink(sensor.path, controller.submit, backoff=FAST, silence=(0.05, 0.05)) as link:
        pump_until(controller, until_link(True))
        threading.Event().wait(0.5)  # quiet, many times over the silence figures
        sensor.roll(2)
        updates = pump_until(controller, lambda u: u.kind == "step")
    assert link.counts["answers"] == link.counts["silences"] == 0 and link.counts["connects"] == 1
    assert not [u for u in updates if u.kind == "link"]


def test_a_sensor_back_under_another_kernel_name_is_found_by_its_udev_by_id_name(tmp_path: Path) -> None:
    """Given as /dev/ttyACM0 and re-plugged while the reader still held it, a sensor comes back as /dev/ttyACM1:
    the reader retried the old name for the rest of the day. udev's by-id name follows the device itself.

    Here the kernel's names are links to ptys too, so the test does not hang on how ptys are numbered.
    """
    by_id, dev = tmp_path / "by-id", tmp_path / "dev"
    by_id.mkdir()
    dev.mkdir()
    sim = SimulatedSensor(by_id / "usb-TC_Dice_Tower_0001-if00").plug()
    (dev / "ttyACM0").symlink_to(sim.tty_path)
    controller = race_controller()
    try:
        with DiceLink(str(dev / "ttyACM0"), controller.submit, backoff=FAST, by_id=by_id) as link:
            pump_until(controller, until_link(True))
            assert link.stable == sim.link
            sim.unplug()
            (dev / "ttyACM0").unlink()
            pump_until(controller, until_link(False))
            sim.plug()  # a new pty behind the by-id name: the kernel's ttyACM1
            (dev / "ttyACM1").symlink_to(sim.tty_path)
            back = pump_until(controller, until_link(True))[-1]
            assert f"ttyACM0 is gone, but the sensor is back as {sim.tty_path}" in back.text
            assert f"found by its stable name {sim.link}" in back.text
            sim.roll(6)
            step = pump_until(controller, lambda u: u.kind == "step")[-1]
    finally:
        sim.unplug()
    assert step.action == {"type": "roll", "value": 6}


def test_a_line_sent_again_is_taken_once_said_once_and_never_undoes_an_undo(sensor: SimulatedSensor) -> None:
    """Firmware that sends each line twice, or floods its state: the undo of a misread 4 was undone at once by
    the same line sent again (red rolled 4 once more), and every copy put a message on the status line."""
    controller = race_controller()
    with DiceLink(sensor.path, controller.submit, backoff=FAST) as link:
        pump_until(controller, until_link(True))
        sensor.roll(4)
        pump_until(controller, lambda u: u.kind == "step")
        assert controller.handle(ButtonPressed("undo")).kind == "undo"  # the sensor misread: a 5 lay there
        for _ in range(2000):  # the same settled die, again and again
            sensor.send("DIE", "d6", 4, 100)
        said = pump_until(controller, lambda u: u.kind == "link" and "again" in u.text)
        assert "reading 4 again without the dice moving" in said[-1].text and "enter it by hand" in said[-1].text
        while link.counts["repeats"] < 2000:
            said += controller.wait_and_pump(0.05)
        said += controller.pump()
        assert len(said) == 1 and controller.session.log == []  # one word for 2000 copies, and the undo holds
        controller.handle(Touch("act", {"type": "roll", "value": 5}))
        sensor.roll(3)  # the dice moved: a new throw is read, even a 4 would be
        for _ in range(3):
            sensor.slot(2, "04A1")  # a tag reader repeating its slot
        updates = pump_until(controller, lambda u: u.kind == "link" and "reported 04A1 again" in u.text)
        for _ in range(400):  # the third copy may still be on its way when the second's words come in
            if link.counts["repeats"] >= 2002:
                break
            updates += controller.wait_and_pump(0.05)
    links = [u.text for u in updates if u.kind == "link"]
    assert len(links) == 2 and "unknown tag 04A1" in links[0] and link.counts["repeats"] == 2002


def test_at_a_wrong_baud_rate_each_garbled_throw_is_said_not_only_the_first(sensor: SimulatedSensor) -> None:
    """Said once until a line reads, and at a wrong baud rate no line ever reads: after the first throw the
    table heard nothing at all, throw after throw, for the rest of the day."""
    controller = race_controller()
    link, now = clocked_link(sensor.path, controller.submit)  # the gaps between throws, without waiting for them
    with link:
        pump_until(controller, until_link(True))
        said = []
        for gap in (0, 1, 30, 2, 30):  # a throw's garbled burst, after each pause
            now[0] += gap
            count = link.counts["BadLine"]
            sensor.write(b"\x8f\xfe\x13\xe0\xf8\n" * 3)  # 9600-baud bytes read at 115200
            while link.counts["BadLine"] < count + 3:
                said += controller.wait_and_pump(0.05)
        said += controller.pump()
    texts = [u.text for u in said if u.kind == "link"]
    assert len(texts) == 3 and all("check the sensor speaks 115200 baud" in t for t in texts)  # 1st, after 30 s, 30 s


def test_a_second_reading_of_one_throw_is_not_the_next_players_roll(sensor: SimulatedSensor) -> None:
    """A die rocking as it settled was read 3, then 5, with no $ROLL between: Red rolled 3, the turn passed, and
    the 5 became Blue's roll, so one throw moved two players (two dice left in the tray did the same)."""
    controller = Controller(Session.new("blackpool", ["red", "blue"]))
    link, now = clocked_link(sensor.path, controller.submit)
    with link:
        pump_until(controller, until_link(True))
        sensor.roll(3)
        pump_until(controller, lambda u: u.kind == "step")  # nothing of Red's can move: Blue to roll
        for value in (5, 3, 5, 3, 5):  # the reading flickers, and nothing moved the dice
            sensor.send("DIE", "d6", value, 100)
        said = pump_until(controller, lambda u: u.kind == "link")
        assert said[-1].text == ("dice sensor: the sensor read 5 after 3 with no $ROLL between (the dice did not "
                                 "move), so 5 is not taken as a new throw. If it was one, enter 5 by hand; if 3 was "
                                 "misread, undo it and enter 5; if two dice are in the tray, take one out")
        while link.counts["DieSettled"] < 6:
            said += controller.wait_and_pump(0.05)
        said += controller.pump()
        # Said once, whatever else the link reports meanwhile. On a loaded machine the sixth reading, counted before
        # it was taken, could be taken after the clock below moved 30 s on and said again as a throw of its own, in
        # place of "read 6 after 3" (`DiceLink._deliver` counts last now; the words are shown if this ever fails).
        rereads = [u.text for u in said if u.kind == "link" and "with no $ROLL between" in u.text]
        assert len(rereads) == 1, [u.text for u in said]
        assert controller.session.log == [{"type": "roll", "value": 3}]
        now[0] += 30  # a gentle throw whose $ROLL went missing is still said, not dropped in silence
        sensor.send("DIE", "d6", 6, 100)
        assert "read 6 after 3" in pump_until(controller, lambda u: u.kind == "link")[-1].text
        now[0] += 30  # a second in a row: the sensor announces no throw, said once (test_dice_throw_start.py)
        sensor.send("DIE", "d6", 5, 100)
        assert "though it read 2 throws after it (6, 5)" in pump_until(controller, lambda u: u.kind == "link")[-1].text
        assert controller.session.log == [{"type": "roll", "value": 3}]
        sensor.roll(5)  # Blue's own throw
        step = pump_until(controller, lambda u: u.kind == "step")[-1]
    assert step.action == {"type": "roll", "value": 5} and len(controller.session.log) == 2


def test_a_loose_connector_is_said_once_as_unstable_then_steady_not_as_each_drop(sensor: SimulatedSensor) -> None:
    """A sensor on a loose connector drops and comes back again and again: each drop was said as "lost" and each
    reopening as "connected" (about 4 pairs in 1.5 s), filling the status line, the log and the voice.

    The pty is closed and made again for each drop; the link's clock is the test's, so the window is not waited."""
    controller = race_controller()
    link, now = clocked_link(sensor.path, controller.submit)
    said: list = []
    until = lambda done: pump_until_done(controller, done, said)  # noqa: E731
    with link:
        until(lambda: link.counts["connects"] == 1)
        for flap, gap in enumerate((1, 1, 1, 1, 10, 10, 10)):  # drops 1, 2, 3, 4, 14, 24 and 34 s in
            now[0] += gap
            sensor.unplug()  # the reader still holds the old pty: its next read fails, whenever it comes
            sensor.plug()
            until(lambda: link.counts["connects"] == flap + 2)  # noqa: B023 (each wait is done before the loop moves on)
        now[0] += 30  # it holds
        until(lambda: any("steady" in u.text for u in said))
        now[0] += 1  # a drop after it held is news again, said at once
        sensor.unplug()
        sensor.plug()
        said += pump_until(controller, until_link(True))  # said, so waited for as said
    lost = (f"dice sensor lost: {sensor.path}: the port closed: the sensor was unplugged, its cable came loose, or "
            "another program took its port; it is opened again once it is back")
    unstable = ("dice sensor: connection unstable ({} drops in the last 30 s): check the sensor's cable and its plugs "
                "at both ends. Rolls it reads still count; enter by hand only a roll it misses")
    connected = f"dice sensor connected: {sensor.path} open"
    assert [u.text for u in said if u.kind == "link"] == [
        connected, lost, connected,  # the first drop is said at once, as an unplugging is
        unstable.format(2),  # the second within 30 s is a loose connector: said once, its reopening not
        unstable.format(3),  # 30 s later, still dropping: said again with the drops of the last 30 s
        f"dice sensor connected: steady again: {sensor.path} open for 30 s without a drop",
        lost, connected,
    ]
    assert [u.detail["up"] for u in said if u.kind == "link"] == [True, False, True, False, False, True, False, True]
    assert link.counts["drops"] == 8


def test_an_unstable_sensor_that_stays_away_longer_than_a_flap_is_said_connected_when_back(
        sensor: SimulatedSensor) -> None:
    """The loose cable came right out: once it is plugged back after more than 30 s, that is a plain "connected",
    not a reopening kept quiet until it holds."""
    controller = race_controller()
    link, now = clocked_link(sensor.path, controller.submit)
    with link:
        said: list = []
        pump_until_done(controller, lambda: link.counts["connects"] == 1, said)
        for flap in range(2):
            now[0] += 1
            sensor.unplug()
            sensor.plug()
            pump_until_done(controller, lambda: link.counts["connects"] == flap + 2, said)  # noqa: B023
        sensor.unplug()
        pump_until_done(controller, lambda: link.counts["drops"] == 3, said)
        now[0] += 40
        sensor.plug()
        said += pump_until(controller, until_link(True))
    assert [u.text for u in said if u.kind == "link"][-2:] == [
        "dice sensor: connection unstable (2 drops in the last 30 s): check the sensor's cable and its plugs at both "
        "ends. Rolls it reads still count; enter by hand only a roll it misses",
        f"dice sensor connected: {sensor.path} open",
    ]


def test_an_opening_is_counted_only_once_its_time_is_taken(sensor: SimulatedSensor) -> None:
    """Tests wait for ``counts["connects"]`` and then move the link's clock on: the opening was counted before its
    time was taken, so on a loaded machine a loose connector's last reopening got the time 30 s on and read as a
    sensor back after a long absence ("connected", never "steady again"; a run of tests/hardware now and then).

    The reader is held where it takes the opening's time (its clock): the opening must not be counted yet."""
    controller = race_controller()
    taking, go = threading.Event(), threading.Event()

    def clock() -> float:
        if not taking.is_set():  # the first reading is the first opening's time
            taking.set()
            go.wait(10)
        return 1000.0

    link = DiceLink(sensor.path, controller.submit, backoff=FAST)
    link.clock = clock
    with link:
        assert taking.wait(10)
        counted = link.counts["connects"]
        go.set()
        pump_until(controller, until_link(True))
        assert link.counts["connects"] == 1  # counted before "connected" is said
    assert counted == 0


def test_a_message_is_counted_only_once_it_is_taken(sensor: SimulatedSensor) -> None:
    """Tests wait for ``counts["DieSettled"]`` and then move the link's clock on: the die was counted before the
    link took its time, so on a loaded machine one throw's second reading was said twice, and a throw 30 s later
    read as the same throw. The reader is held while it takes the die (``on_message``): not counted yet."""
    controller = race_controller()
    taking, go = threading.Event(), threading.Event()

    def on_message(message: object) -> None:
        if isinstance(message, DieSettled):
            taking.set()
            go.wait(10)

    with DiceLink(sensor.path, controller.submit, backoff=FAST, on_message=on_message) as link:
        pump_until(controller, until_link(True))
        sensor.roll(4)
        assert taking.wait(10)
        counted = link.counts["DieSettled"]
        go.set()
        pump_until(controller, lambda u: u.kind == "step")
    assert counted == 0 and link.counts["DieSettled"] == 1


def test_a_second_reader_of_the_sensors_port_is_told_busy_and_takes_no_roll_from_the_game(
        sensor: SimulatedSensor) -> None:
    """`hw teach` or `hw play` run on the port the table's app reads opened it beside it, and the two readers
    took every other line: the game lost rolls to the other one, and lines cut in two came through garbled."""
    table, other = race_controller(), race_controller()
    with DiceLink(sensor.path, table.submit, backoff=FAST):
        pump_until(table, until_link(True))
        with DiceLink(sensor.path, other.submit, backoff=FAST):
            busy = pump_until(other, until_link(False))[-1]
            assert busy.text == (f"dice sensor: cannot open {sensor.path}: busy: another reader of the sensor has "
                                 "it open (the table's app, hw play, hw teach or hw test); it is opened once that "
                                 "one lets it go"), busy.text
            sensor.roll(4)
            step = pump_until(table, lambda u: u.kind == "step")[-1]
            assert step.action == {"type": "roll", "value": 4}
            assert probe(sensor.path, wait=0.1).startswith("cannot open: busy: another reader of the sensor")
            assert not [u for u in other.pump() if u.kind != "link"] and other.session.log == []
    with DiceLink(sensor.path, other.submit, backoff=FAST):  # let go: the next reader opens it
        pump_until(other, until_link(True))


def test_a_temple_x_the_simulator_sends_without_its_colour_is_the_roll(sensor: SimulatedSensor) -> None:
    """`hw simulate-dice --script "roll X d20"` is a step it plays (the X faces are all white, so the referee
    knows the colour), and firmware that reads no colours sends the same: the table was told "The die reads X,
    but its colour (red or white) was not read" and the roll was never taken."""
    session = Session.new("temple", ["red", "blue"])
    controller, rng = Controller(session), random.Random(1)
    while session.pending().kind != "roll":
        controller.handle(Touch("act", session.game.sim_choose(session.state, session.legal(), rng)))
    assert script_refusals("roll X d20") == []
    with DiceLink(sensor.path, controller.submit, backoff=FAST):
        pump_until(controller, until_link(True))
        assert run_script(sensor, "roll X d20", say=lambda _: None) == 0
        step = pump_until(controller, lambda u: u.kind in ("step", "unapplied"))[-1]
    assert step.kind == "step", step.text
    assert session.log[-1] == {"type": "roll", "value": "X", "face": {"colour": "white"}}
