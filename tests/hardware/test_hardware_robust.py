"""Bad input from the table's hardware side: each is answered in words and the reader, the sim and the game go on."""

from __future__ import annotations

import contextlib
import json
import os
import queue
import select
import threading
import time
from pathlib import Path

import pytest

from companion.controller import Controller
from companion.observations import DieRead, LinkChanged, Touch
from companion.session import Session
from hardware.dice_link import DiceLink
from hardware.dice_protocol import BadLine, DieSettled, LineParser, SensorFault, checksum, decode
from hardware.dice_sim import STEPS, SimulatedSensor, run_script
from hardware.selftest import probe
from hardware.tags import TagMap
from tests.controller_loop import pump_until
from tests.hardware.conftest import FAST, until_link


def first(heard: queue.Queue, kind: type, timeout: float = 10.0) -> object:
    end = time.monotonic() + timeout
    while (left := end - time.monotonic()) > 0:
        item = heard.get(timeout=left)
        if isinstance(item, kind):
            return item
    raise AssertionError(f"no {kind.__name__} within {timeout} s")


@pytest.mark.parametrize("url", ["loop://?logging=bogus", "hwgrep://("])
def test_a_mistyped_port_url_is_reported_and_retried_not_a_silently_dead_reader(url: str) -> None:
    """pyserial raises KeyError / re.error for these, which used to end the reader thread with no report."""
    heard: queue.Queue = queue.Queue()
    link = DiceLink(url, heard.put, backoff=FAST).start()
    try:
        down = first(heard, LinkChanged)
        assert isinstance(down, LinkChanged) and down.up is False
        assert down.detail.startswith(f"cannot open {url}: not a usable port or URL")
        time.sleep(0.1)
        assert link._thread is not None and link._thread.is_alive()  # still trying, as for a missing device
    finally:
        link.stop()
    assert probe(url, wait=0.1).startswith("cannot open: not a usable port or URL")  # hw test: a line, no traceback


def test_a_missing_device_is_said_in_a_few_words(tmp_path: Path) -> None:
    """pyserial's text named the port twice with two errno tags: "cannot open X: [Errno 2] could not open port X:
    [Errno 2] No such file or directory: 'X'" on the status line and in hw test."""
    missing = str(tmp_path / "ttyACM9")
    heard: queue.Queue = queue.Queue()
    link = DiceLink(missing, heard.put, backoff=FAST).start()
    try:
        down = first(heard, LinkChanged)
    finally:
        link.stop()
    assert isinstance(down, LinkChanged) and down.detail == (f"cannot open {missing}: No such file or "
                                                                 "directory; will keep looking")
    assert probe(missing, wait=0.1) == "cannot open: No such file or directory"


def fill_what_the_device_never_reads(sensor: SimulatedSensor) -> None:
    """The host-to-device queue of the pty, full: firmware that prints but never reads its port."""
    fd = os.open(sensor.tty_path, os.O_RDWR | os.O_NONBLOCK | os.O_NOCTTY)
    try:
        for size in (1024, 1):  # the last few bytes of room one at a time
            with contextlib.suppress(BlockingIOError):
                while True:
                    os.write(fd, b"x" * size)
    finally:
        os.close(fd)


def test_a_device_that_never_reads_its_port_still_has_its_rolls_read(sensor: SimulatedSensor) -> None:
    """The $ID? query used to spin forever in pyserial's write: no roll read again, and no way to stop the thread."""
    fill_what_the_device_never_reads(sensor)
    controller = Controller(Session.new("race", ["red", "blue"]))
    link = DiceLink(sensor.path, controller.submit, backoff=FAST).start()
    try:
        pump_until(controller, until_link(True))
        sensor.roll(4)
        step = pump_until(controller, lambda u: u.kind == "step")[-1]
        assert step.action == {"type": "roll", "value": 4}
    finally:
        thread = link._thread
        link.stop(timeout=2)
    assert thread is not None and not thread.is_alive()


def test_the_self_test_on_a_device_that_never_reads_answers_instead_of_hanging(sensor: SimulatedSensor) -> None:
    fill_what_the_device_never_reads(sensor)
    answers: list = []
    asking = threading.Thread(target=lambda: answers.append(probe(sensor.path, wait=0.2)), daemon=True)
    asking.start()
    asking.join(30)  # a bound for a probe that hangs (the bug): its own wait is 0.2 s
    # (how much room a pty's queue has left varies, so the query may or may not have gone out)
    assert len(answers) == 1 and answers[0].startswith("no answer"), answers


def framed(body: str) -> bytes:
    return f"${body}*{checksum(body)}".encode("ascii")


@pytest.mark.parametrize("body", ["ERR,tilt,\x1b[2J\x1b[H", "DIE,d6,\x004,100", "ID,TC\x07,1.0,1", "SLOT,3,04\rA1"])
def test_control_bytes_inside_a_line_are_a_bad_line_even_with_a_good_checksum(body: str) -> None:
    """Else an ESC in a fault text cleared the referee's terminal, and a NUL hid itself inside a die value."""
    line = framed(body)
    message = decode(line)
    assert isinstance(message, BadLine) and message.reason == "control characters" and message.raw == line
    parser = LineParser()  # and the next line on the wire still counts
    assert parser.feed(line + b"\n" + framed("DIE,d6,4,100") + b"\n")[-1] == DieSettled("d6", 4, 1.0)


@pytest.mark.parametrize(
    "content", ['{"tags": null}', '{"tags": ["04A1", "P05"]}', '{"tags": 5}', "[" * 100_000, '{"tags": {"04A1": null}}']
)
def test_a_tag_file_of_the_wrong_shape_is_an_empty_map_not_a_crash(tmp_path: Path, content: str) -> None:
    path = tmp_path / "temple-tags.json"
    path.write_text(content, encoding="utf-8")
    tags = TagMap.load(path)
    assert tags.links == {}
    assert tags.card("04A1") is None  # not the card "None"


def test_a_tag_file_saved_with_a_byte_order_mark_keeps_its_links(tmp_path: Path) -> None:
    path = tmp_path / "temple-tags.json"
    path.write_text("\ufeff" + json.dumps({"tags": {"04A1": "P05"}}), encoding="utf-8")
    assert TagMap.load(path).card("04A1") == "P05"


def test_a_tag_file_that_cannot_be_replaced_leaves_no_file_of_its_own_beside_it(tmp_path: Path) -> None:
    """Its save wrote ``<stem>.tmp`` and left it when the rename failed; the next teach could not tell it apart."""
    (tmp_path / "temple-tags.json").mkdir()
    with pytest.raises(OSError):
        TagMap(tmp_path / "temple-tags.json").teach("04A1", "P05")
    assert [p.name for p in tmp_path.iterdir()] == ["temple-tags.json"]


def test_a_sensor_plugged_in_again_without_an_unplug_is_followed_by_the_reader(sensor: SimulatedSensor) -> None:
    """A script's "plug" alone left the old pty open: the reader stayed on it and the roll was never read."""
    heard: queue.Queue = queue.Queue()
    with DiceLink(sensor.path, heard.put, backoff=FAST):
        assert first(heard, LinkChanged) == LinkChanged("dice sensor", True, f"{sensor.path} open")
        run_script(sensor, "plug", lambda _: None)
        assert first(heard, LinkChanged).up is False  # the old pty went away...
        assert first(heard, LinkChanged).up is True  # ...and the reader found the new one behind the same name
        sensor.roll(4)
        assert first(heard, DieRead).value == 4



def test_a_scripts_plug_is_said_before_where_it_plugged_in(sensor: SimulatedSensor) -> None:
    """`simulate-dice --script "...; unplug; wait 2; plug"` printed "plugged in again at ..." above "sim: plug",
    the note before the step it belongs to, where every other step's line comes first."""
    said: list[str] = []
    assert run_script(sensor, "unplug; plug", said.append) == 0
    assert said == ["sim: unplug", "sim: plug", f"plugged in again at {sensor.path} ({sensor.tty_path})"]

@pytest.mark.parametrize(
    ("ending", "what"),
    [(b"\r", "a lone carriage return"), (b"\n\x00", "a NUL after each newline"), (b"\x00\r\n", "a NUL before it")],
)
def test_a_sensor_ending_its_lines_its_own_way_has_every_roll_read_and_nothing_called_unreadable(
    sensor: SimulatedSensor, ending: bytes, what: str
) -> None:
    """A lone CR held every line as one endless half line (no roll read, and "check the baud rate"); a NUL
    written as a string's terminator was an unreadable line said at every roll, or the roll itself lost."""
    controller = Controller(Session.new("race", ["red", "blue"]))
    with DiceLink(sensor.path, controller.submit, backoff=FAST) as link:
        pump_until(controller, until_link(True))
        updates = []
        for value in (3, 5):
            for body in (("ROLL",), ("DIE", "d6", value, 100)):
                sensor.write(framed(",".join(map(str, body))) + ending)
            updates += pump_until(controller, lambda u: u.kind == "step")
            controller.handle(Touch("act", {"type": "hold"}))
    assert [a.get("value") for a in controller.session.log if a["type"] == "roll"] == [3, 5], what
    assert not [u.text for u in updates if u.kind == "link"] and link.counts["BadLine"] == 0


@pytest.mark.parametrize("pulled", ["whole", "device end"])
def test_a_sensor_pulled_out_is_said_in_the_tables_words(sensor: SimulatedSensor, pulled: str) -> None:
    """pyserial's "device reports readiness to read but returned no data (device disconnected or multiple access
    on port?)" was what the status line said when the sensor's cable came out."""
    heard: queue.Queue = queue.Queue()
    with DiceLink(sensor.path, heard.put, backoff=FAST):
        assert first(heard, LinkChanged).up
        if pulled == "whole":
            sensor.unplug()
        else:  # only the device's end goes away, the reader still holding the port
            assert sensor.master is not None
            os.close(sensor.master)
            sensor.master = None
        down = first(heard, LinkChanged)
    assert isinstance(down, LinkChanged) and not down.up
    assert down.detail == (f"{sensor.path}: the port closed: the sensor was unplugged, its cable came loose, or "
                           "another program took its port; it is opened again once it is back")


def test_a_simulated_fault_keeps_the_words_of_its_text(sensor: SimulatedSensor) -> None:
    """``err cocked leaning on the wall`` sent each word as a field of its own: the table read
    "sensor fault cocked: leaning,on,the,wall"."""
    assert run_script(sensor, "err cocked leaning on the wall; err tilt", say=lambda _: None) == 0
    assert sensor.slave is not None
    parser, lines = LineParser(), []
    while len(lines) < 2:  # a pty may hand the two lines over in pieces
        lines += parser.feed(os.read(sensor.slave, 1024))
    assert lines == [SensorFault("cocked", "leaning on the wall"), SensorFault("tilt", "")]


def test_a_tag_taught_in_small_letters_is_the_tag_the_reader_sends_in_capitals(tmp_path: Path) -> None:
    """Taught as a phone's NFC app shows it (``--tag 04a1b2``), the reader's ``04A1B2`` was an unknown tag, and
    the table said to teach a tag the owner had just taught."""
    tags = TagMap(tmp_path / "temple-tags.json")
    tags.teach("04a1b2", "P05")
    assert tags.card("04A1B2") == "P05" and TagMap.load(tags.path).card("04A1B2") == "P05"
    tags.teach("04A1B2", "P06")  # taught again in capitals: one sticker, one link
    assert tags.links == {"04A1B2": "P06"} and tags.card("04a1b2") == "P06"


def test_the_self_test_on_a_sensor_at_the_wrong_baud_rate_says_its_lines_are_garbage(sensor: SimulatedSensor) -> None:
    """Nothing but garbage read as "no answer to $ID? (27 other lines heard)", as if the sensor spoke and only
    lacked an answer: the owner was not sent to the baud rate."""
    done = threading.Event()

    def noise() -> None:  # what 115200 baud reads from a sensor sending at 9600: bytes with no frame
        while not done.is_set():
            sensor.write(b"\x86\xf8\x00x\x1e\xe0\xfe\x98\xf8\n")
            done.wait(0.02)

    writer = threading.Thread(target=noise, daemon=True)
    writer.start()
    try:
        answer = probe(sensor.path, wait=1.0)
    finally:
        done.set()
        writer.join()
    assert isinstance(answer, str) and answer.startswith("no answer to $ID?, and the "), answer
    assert " heard could not be read (" in answer
    assert answer.endswith("no start marker): check the sensor speaks 115200 "
                           "baud 8N1, as a wrong baud rate turns every line into garbage"), answer
    assert probe("loop://", wait=0.3).startswith("no answer to $ID?, only the query sent back")  # not garbage


def test_a_scripted_roll_no_die_shows_is_named_and_not_sent(sensor: SimulatedSensor) -> None:
    """A script played from Python (no command line to refuse it first) names the roll and sends nothing: a d6
    reading 9 went out on the wire."""
    said: list[str] = []
    assert run_script(sensor, "roll 9", said.append) == 1
    assert said == ["bad script step 'roll 9': a d6 shows 1 to 6, not '9'; steps: " + STEPS]
    assert sensor.slave is not None and not select.select([sensor.slave], [], [], 0.2)[0]  # nothing on the wire


def test_a_scripted_slot_the_board_has_not_is_named_and_not_sent(sensor: SimulatedSensor) -> None:
    """`slot 0` (and `slot -3`) went out on the wire, and the referee was told of a card in a slot it has not."""
    said: list[str] = []
    assert run_script(sensor, "slot 0 04A1; slot -3 -", said.append) == 2
    assert said == [f"bad script step 'slot 0 04A1': a slot is 1 to 12 (the temple board's), not '0'; steps: {STEPS}",
                    f"bad script step 'slot -3 -': a slot is 1 to 12 (the temple board's), not '-3'; steps: {STEPS}"]
    assert sensor.slave is not None and not select.select([sensor.slave], [], [], 0.2)[0]  # nothing on the wire


def test_a_script_played_from_python_names_each_bad_step_and_plays_the_rest(sensor: SimulatedSensor) -> None:
    """Played without the command line's check first (a test's own script), a bad step is named and skipped: the
    sensor stays plugged in for the steps after it, as a real one would, and the count of bad steps comes back."""
    said: list[str] = []
    assert run_script(sensor, "wait; jump; wait x; roll 4 'open; roll 3", said.append) == 4
    assert said == [f"bad script step 'wait': the seconds to wait are missing (0 to 86400); steps: {STEPS}",
                    f"unknown script step 'jump'; steps: {STEPS}",
                    f"bad script step 'wait x': a wait is 0 to 86400 seconds, not 'x'; steps: {STEPS}",
                    f"bad script step \"roll 4 'open\": No closing quotation; steps: {STEPS}",
                    "sim: roll 3"]
