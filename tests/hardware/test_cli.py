"""The ``companion hw`` commands, in process and (for the simulator) as a real subprocess."""

from __future__ import annotations

import ctypes
import json
import os
import random
import signal
import subprocess
import sys
import threading
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main
from companion.registry import create
from hardware.dice_protocol import DieSettled, LineParser
from hardware.dice_sim import STEPS, WIRE_TEXT, SimulatedSensor, idle, random_face, run_script
from hardware.selftest import probe
from tests.typist import slow_typist

ROOT = Path(__file__).resolve().parents[2]


def test_demo_plays_a_blackpool_turn_from_a_sensor_roll_and_a_button(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hw", "demo", "--pause", "0"]) == 0
    out = capsys.readouterr().out
    assert "dice sensor connected" in out
    assert "Red rolls 6." in out
    assert "Red 1 comes out of the centre" in out  # the confirm button took the first choice
    assert "Blue (to play)" in out
    assert "scratch journal" in out and "resumes it" not in out  # its journal was a temporary file


def test_self_test_with_mock_buttons_finds_the_simulated_sensor(capsys: pytest.CaptureFixture[str]) -> None:
    with SimulatedSensor() as sensor:
        stop = threading.Event()

        def serve() -> None:
            while not stop.is_set():
                idle(sensor, 0.05)

        server = threading.Thread(target=serve)
        server.start()
        try:
            code = main(["hw", "test", "--buttons", "mock", "--auto", "--dwell", "0", "--dice-sensor", sensor.path])
        finally:
            stop.set()
            server.join()
    out = capsys.readouterr().out
    assert code == 0, out
    for intent in ("confirm", "undo", "next", "menu"):
        assert f"{intent}: ok" in out
    assert "press confirm (GPIO17, header pin 11) ..." in out  # pins.toml's BCM number, and where it is
    assert "TC-DICE-SIM firmware 1.0" in out


def test_self_test_reports_a_silent_button_and_a_missing_port(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--buttons", "mock", "--timeout", "0.05", "--dwell", "0", "--dice-sensor", "/nonexistent"]
    code = main(["hw", "test", *args])
    out = capsys.readouterr().out
    assert code == 1 and "confirm: NOT PRESSED" in out and "cannot open" in out


def test_bench_prints_median_and_p99(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hw", "bench", "--rolls", "15", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["rolls"] == 15 and result["median_ms"] > 0 and result["p99_ms"] >= result["median_ms"]


def test_teach_links_a_tag_to_a_temple_card(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tags = tmp_path / "tags.json"
    assert main(["hw", "teach", "--tags", str(tags), "--tag", "04A1", "--card", "P05"]) == 0
    assert json.loads(tags.read_text())["tags"] == {"04A1": "P05"}
    # As a café types an id read off a card: in small letters, a blank after it.
    assert main(["hw", "teach", "--tags", str(tags), "--tag", "04A2", "--card", "p06 "]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == f"tag 04A2 -> card P06  ({tags})"
    assert json.loads(tags.read_text())["tags"] == {"04A1": "P05", "04A2": "P06"}


@pytest.mark.parametrize(("argv", "said"), [
    (["--tag", "04A2", "--card", "P5"], "companion: hw teach: argument --card: no card 'P5' in the Temple path-card "
                                        "race (Ruin) data; its cards: AK, P01 to P49"),
    (["--game", "targi", "--tag", "04A2", "--card", "P05"], "companion: hw teach: argument --card: no card 'P05' in "
                                                             "the Targi data; its cards: G01 to G12, T01 to T45"),
    (["--game", "ttd", "--tag", "04A2", "--card", "1"], "companion: hw teach: argument --game: Through the Desert has "
     "no cards for tags to name (its water-hole tokens are no cards); the games with cards: blackpool, desert, targi, "
     "temple (--game temple, the default)"),
    (["--game", "race", "--tag", "04A2", "--card", "P05"], "companion: hw teach: argument --game: Test race has "
     "no cards for tags to name; the games with cards: blackpool, desert, targi, temple (--game temple, the "
     "default)"),
    (["--game", "race", "--dice-sensor", "loop://"], "companion: hw teach: argument --game: Test race has no cards "
     "for tags to name; the games with cards: blackpool, desert, targi, temple (--game temple, the default)"),
])  # fmt: skip
def test_teach_refuses_a_card_the_game_has_not_naming_its_cards(
    argv: list[str], said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--card P5` said "No card 'P5' in the ... data." and ended 1, as if the machine were at fault, naming no card
    to give; a game without cards said the same of any card, or taught from the board for it."""
    tags = tmp_path / "tags.json"
    assert main(["hw", "teach", "--tags", str(tags), *argv]) == 2
    assert capsys.readouterr().err == said + "\n"
    assert not tags.exists()


@pytest.mark.parametrize("tag", ["04,A1", "t\u00e4g", "-", "$04A1"])
def test_teach_refuses_a_tag_no_slot_report_can_name(
    tag: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--tag 04,A1` was taught, and no report could name it: a ',' parts the wire's fields ($SLOT,3,04,A1 is tag 04),
    the wire is ASCII, a '$' starts a line, and '-' is an empty slot's report."""
    with pytest.raises(SystemExit) as usage:
        main(["hw", "teach", "--tags", str(tmp_path / "tags.json"), "--tag", tag, "--card", "P05"])
    err = capsys.readouterr().err.splitlines()[-1]
    assert usage.value.code == 2 and err == (
        f"companion hw teach: error: argument --tag: {tag!r} is no tag id the sensor can report (printable ASCII "
        "without ',' or '$'; '-' is an empty slot): give a tag id as the sensor reports it, such as 04A1")
    assert not (tmp_path / "tags.json").exists()


@pytest.mark.parametrize(("content", "said"), [
    ("shopping: milk, eggs\n", "cannot be read as a tag file (not valid JSON at line 1, column 1: "),
    ('{"tags": {"04A1": "P05",}}', "cannot be read as a tag file (not valid JSON at line 1, column 25: "),
    ('{"players": ["red"]}', 'is not a tag file (one holds {"tags": {"04A1": "P05", ...}})'),
    ('{"tags": {"04A1": null}}', "is not a tag file"),
])  # fmt: skip
def test_teaching_over_a_file_that_is_no_tag_file_leaves_it_as_it_is(
    tmp_path: Path, content: str, said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--tags notes.txt` (a mistyped path) had the notes replaced by one link, and a tag file mended wrongly by
    hand lost every link in it: both read as no links, written over, exit 0."""
    tags = tmp_path / "notes.txt"
    tags.write_text(content, encoding="utf-8")
    assert main(["hw", "teach", "--tags", str(tags), "--tag", "04A2", "--card", "P06"]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"companion: {tags} {said}") and err.count("\n") == 1, err
    assert err.endswith("it is left as it is: mend it, or name another file with --tags\n")
    assert tags.read_text(encoding="utf-8") == content


def test_teaching_into_an_empty_tag_file_writes_the_link(tmp_path: Path) -> None:
    tags = tmp_path / "t.json"
    tags.touch()  # nothing in it to lose
    assert main(["hw", "teach", "--tags", str(tags), "--tag", "04A1", "--card", "P05"]) == 0
    assert json.loads(tags.read_text())["tags"] == {"04A1": "P05"}


def test_simulate_dice_prints_its_pty_and_plays_the_script() -> None:
    command = [sys.executable, "-m", "companion", "hw", "simulate-dice", "--script", "roll 3; wait 0.01", "--exit"]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=60, check=True)
    first, *rest = done.stdout.splitlines()
    assert first.startswith("/dev/pts/") and "sim: roll 3" in rest


def test_ctrl_c_ends_the_dice_simulator_with_130_like_every_other_command() -> None:
    """It ended 0 on Ctrl-C, so a script driving the simulator could not tell it had been stopped."""
    command = [sys.executable, "-m", "companion", "hw", "simulate-dice", "--script", "roll 2"]
    with subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          preexec_fn=as_from_a_terminal) as running:  # fmt: skip
        guard = threading.Timer(30, running.kill)
        guard.start()
        try:
            pty = running.stdout.readline().strip()
            # Its script played: plugged in and waiting, where Ctrl-C is the normal way to end it.
            assert running.stdout.readline() == "sim: roll 2\n"
            running.send_signal(signal.SIGINT)
            code = running.wait(timeout=30)
        finally:
            guard.cancel()
            running.kill()
        said = running.stderr.read()
    assert pty.startswith("/dev/pts/") and code == 130, (pty, code, said)
    assert said == "companion: hw simulate-dice stopped (Ctrl-C)\n"


def test_ctrl_c_during_the_random_rolls_says_how_many_were_played(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    played = []

    def roll(self: SimulatedSensor, value: int, *args: Any, **kwargs: Any) -> None:
        if len(played) == 2:
            raise KeyboardInterrupt  # as Ctrl-C during the third roll
        played.append(value)

    monkeypatch.setattr(SimulatedSensor, "roll", roll)
    assert main(["hw", "simulate-dice", "--random", "5", "--interval", "0", "--seed", "1", "--exit"]) == 130
    captured = capsys.readouterr()
    assert captured.out.splitlines()[1:] == [f"sim: roll {v}" for v in played] + [
        "sim: stopped (Ctrl-C) after 2 of 5 random rolls"]
    assert "hw simulate-dice stopped (Ctrl-C)" in captured.err


def test_every_bad_simulator_script_step_is_named_before_the_sensor_is_plugged_in() -> None:
    """A bad step ended 0, as if the whole script had played; then 1, once the steps before it had been sent, and
    named in Python's words ("could not convert string to float: 'x'"). Each is now named on a line of its own
    with what it may be, and nothing is played (exit status 2, as a mistake in a command line)."""
    script = "roll 3; wait; slot; roll 4 'open; jump; wait -1; wait nan; wait x"
    command = [sys.executable, "-m", "companion", "hw", "simulate-dice", "--script", script, "--exit"]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stdout == "", done.stdout
    assert done.stderr.splitlines() == [f"companion hw simulate-dice: script step {place}, {said}" for place, said in (
        (2, "'wait': the seconds to wait are missing (0 to 86400)"),
        (3, "'slot': the slot's number is missing (1 to 12)"),
        (4, "\"roll 4 'open\": it cannot be read: no closing quotation"),
        (5, f"'jump': no such step; steps: {STEPS}"),
        (6, "'wait -1': a wait is 0 to 86400 seconds, not '-1'"),
        (7, "'wait nan': a wait is 0 to 86400 seconds, not 'nan'"),
        (8, "'wait x': a wait is 0 to 86400 seconds, not 'x'"))]


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["bench", "--rolls", "0"], "argument --rolls: '0' is not a whole number from 1 to 10000"),
        (["test", "--dwell", "-1"], "argument --dwell: '-1' is not a number of seconds from 0 to 86400 (a day)"),
        (["test", "--dwell", "1e20"], "argument --dwell: '1e20' is not a number of seconds from 0 to 86400"),
        (["simulate-dice", "--delay", "86401"], "argument --delay: '86401' is not a number of seconds from 0"),
        (["test", "--timeout", "inf"], "argument --timeout: 'inf' is not a number of seconds"),
        (["demo", "--pause", "-0.5"], "argument --pause: '-0.5' is not a number of seconds"),
        (["simulate-dice", "--interval", "nan"], "argument --interval: 'nan' is not a number of seconds"),
        (["simulate-dice", "--random", "-2"], "argument --random: '-2' is not a whole number from 0 to 10000"),
    ],
)
def test_odd_numbers_are_refused_by_name(argv: list[str], expected: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as usage:
        main(["hw", *argv])
    assert usage.value.code == 2 and expected in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "option"),
    [
        (["hw", "play", "--game", "race", "--players", "a,b"], "--dice-sensor"),
        (["hw", "play"], "--camera"),
        (["hw", "play"], "--tags"),
        (["hw", "play"], "--journal"),
        (["hw", "test", "--buttons", "none"], "--dice-sensor"),
        (["hw", "test"], "--hardware-config"),
        (["hw", "teach"], "--dice-sensor"),
        (["hw", "teach", "--tag", "04A1", "--card", "P05"], "--tags"),
        (["hw", "simulate-dice", "--exit"], "--link"),
        (["ui", "run"], "--dice-sensor"),
        (["ui", "run"], "--camera"),
        (["ui"], "--journal"),
    ],
)
def test_an_empty_name_is_refused_not_taken_as_none(
    argv: list[str], option: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--dice-sensor ""` (a shell variable left unset) ran the referee without its sensor, and said nothing."""
    with pytest.raises(SystemExit) as usage:
        main([*argv, option, ""])
    assert usage.value.code == 2 and f"argument {option}: it is empty: give " in capsys.readouterr().err


@pytest.mark.parametrize("argv", [["teach", "--tag", "04A1", "--card", "P05"], ["play"]])
def test_a_tag_file_that_is_a_folder_is_refused_by_name(
    argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--tags DIR` said "Is a directory (DIR.tmp)" and left that file behind; `hw play` read no tags, in silence."""
    (tmp_path / "tags").mkdir()
    with pytest.raises(SystemExit) as usage:
        main(["hw", *argv, "--tags", str(tmp_path / "tags")])
    err = capsys.readouterr().err
    assert usage.value.code == 2 and f"argument --tags: '{tmp_path / 'tags'}' is a folder: give" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tags"]


@pytest.mark.parametrize("command", ["play", "test", "teach"])
def test_a_sensor_url_of_a_kind_pyserial_has_not_is_refused_naming_the_kinds(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """`hw play --dice-sensor bogus://x` played on, the table told "dice sensor not found: ... protocol 'bogus' not
    known; will keep looking", for a port no wait brings; `hw test` ended 1 as for a sensor not plugged in."""
    with pytest.raises(SystemExit) as usage:
        main(["hw", command, "--dice-sensor", "bogus://x"])
    assert usage.value.code == 2 and capsys.readouterr().err.splitlines()[-1] == (
        f"companion hw {command}: error: argument --dice-sensor: 'bogus://x' is a URL of a kind pyserial has not "
        "(alt://, cp2110://, hwgrep://, loop://, rfc2217://, socket://, spy://): give a serial port such as "
        "/dev/ttyUSB0, or a pyserial URL such as loop://")


@pytest.mark.parametrize(("source", "said"), [
    ("99999", "'99999' is not a camera index (0 to 9999; see ls /dev/video*)"),
    ("file://otherhost/x.mp4", "file://otherhost/x.mp4 names a file on otherhost, not on this machine: give "
                               "file:///full/path (three slashes) or the path itself"),
])
def test_hw_play_refuses_a_camera_source_no_machine_has(
    source: str, said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`hw play --camera 99999` played on, the table told the camera was not found and would be looked for again:
    refused as `vision watch` refuses it, before the journal is opened."""
    with pytest.raises(SystemExit) as usage:
        main(["hw", "play", "--journal", str(tmp_path / "j.sqlite3"), "--camera", source])
    assert usage.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == f"companion hw play: error: argument --camera: {said}"
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("what", ["file", "folder"])
def test_a_file_or_folder_named_as_the_sensor_port_is_refused(
    what: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`hw test --dice-sensor notes.txt` said "Could not configure port: (25, 'Inappropriate ioctl for device')",
    and `hw play` with it kept looking for a sensor there: a port is a device, or not there until plugged in."""
    named = tmp_path / "notes"
    named.write_text("mine", encoding="utf-8") if what == "file" else named.mkdir()
    with pytest.raises(SystemExit) as usage:
        main(["hw", "test", "--buttons", "none", "--dice-sensor", str(named)])
    assert usage.value.code == 2 and capsys.readouterr().err.splitlines()[-1] == (
        f"companion hw test: error: argument --dice-sensor: '{named}' is a {what}, not a serial port: give a serial "
        "port such as /dev/ttyUSB0, or a pyserial URL such as loop://")


@pytest.mark.parametrize("argv", [["test", "--buttons", "mock", "--auto"], ["play", "--buttons", "mock"]])
def test_a_pin_map_that_is_a_folder_is_refused_by_name(
    argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--hardware-config DIR` said "not a readable TOML file ([Errno 21] Is a directory: ...)" and ended 1, as if the
    file were damaged: a folder where a file is meant is a mistake in the command line, as `--tags DIR` is."""
    with pytest.raises(SystemExit) as usage:
        main(["hw", *argv, "--hardware-config", str(tmp_path)])
    err = capsys.readouterr().err
    assert usage.value.code == 2 and f"argument --hardware-config: '{tmp_path}' is a folder: give a pin map" in err


@pytest.mark.parametrize(("argv", "what"), [(["ui", "screenshots", ""], "argument dir"),
                                            (["vision", "eval-dice", ".", "--models", ""], "argument --models")])
def test_an_empty_folder_name_is_refused_not_taken_as_the_working_folder(
    argv: list[str], what: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`ui screenshots ""` wrote into whatever folder the shell stood in; `eval-dice --models ""` scored the
    shipped models, as though the option had been left out."""
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as usage:
        main(argv)
    assert usage.value.code == 2 and f"{what}: " in capsys.readouterr().err
    assert not list(tmp_path.iterdir())


def test_bench_of_a_game_without_a_die_says_which_games_have_one(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hw", "bench", "--game", "targi", "--rolls", "2"]) == 2
    err = capsys.readouterr().err
    assert "companion: Targi (targi) has no die to roll; bench a game that has one: blackpool, desert," in err


def test_teach_a_tag_without_its_card_asks_for_the_card(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hw", "teach", "--tags", str(tmp_path / "tags.json"), "--tag", "04A1"]) == 2
    assert "Give the card of tag 04A1 with --card CARD." in capsys.readouterr().err
    assert not (tmp_path / "tags.json").exists()


def as_from_a_terminal() -> None:
    """Give the child Ctrl-C as a terminal would. A test run started in the background (``cmd &`` in a
    script, as a CI runner may) ignores SIGINT, its children inherit that, and Python then never turns
    SIGINT into KeyboardInterrupt: the command under test would hang rather than end."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@contextmanager
def teaching(*args: str) -> Iterator[subprocess.Popen]:
    """``companion hw teach ARGS`` as a child with pipes, killed after 30 s at most: a teach deaf to what it is
    sent would otherwise block a read, and the run, for good."""
    with subprocess.Popen(
        [sys.executable, "-m", "companion", "hw", "teach", *args], cwd=ROOT, stdin=subprocess.PIPE,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=as_from_a_terminal,
    ) as teach:
        guard = threading.Timer(30, teach.kill)
        guard.start()
        try:
            yield teach
        finally:
            guard.cancel()
            teach.kill()


def test_teaching_from_a_port_that_cannot_open_says_so_and_ctrl_c_ends_it_with_130(tmp_path: Path) -> None:
    """Ctrl-C ended teaching with 0, as 'q' does: a setup script could not tell it had been cut short."""
    with teaching("--tags", str(tmp_path / "t.json"), "--dice-sensor", str(tmp_path / "no-port")) as teach:
        lines = [teach.stdout.readline() for _ in range(2)]  # the prompt, then the port's state
        teach.send_signal(signal.SIGINT)
        code = teach.wait(timeout=30)
        rest, said = teach.stdout.read(), teach.stderr.read()
    # In play's words: never opened, so not found (teaching said "[sensor not connected: ...]", play "lost")
    assert any("[dice sensor not found: cannot open" in line and "no-port" in line and "will keep looking" in line
               for line in lines), lines
    assert code == 130, (code, said)
    assert rest == f"  stopped (Ctrl-C): no tag taught this run ({tmp_path / 't.json'} is as it was)\n"
    assert said == "companion: hw teach stopped (Ctrl-C)\n" and not (tmp_path / "t.json").exists()


def read_until(stream: Any, marker: str) -> str:
    """What a child wrote up to and including ``marker``, a character at a time: a prompt ends with no newline."""
    seen = ""
    while not seen.endswith(marker):
        char = stream.read(1)
        assert char, f"the output ended before {marker!r}: {seen[-300:]!r}"
        seen += char
    return seen


def test_teaching_ends_on_q_typed_before_any_tag_is_laid(tmp_path: Path) -> None:
    """The 'q' was read only as the answer to the next tag's question: with no card on the board, it did nothing."""
    with teaching("--tags", str(tmp_path / "t.json"), "--dice-sensor", str(tmp_path / "no-port")) as teach:
        read_until(teach.stdout, "cannot open")
        teach.stdin.write("P05\nq\n")
        teach.stdin.flush()
        code = teach.wait(timeout=30)
        rest = teach.stdout.read()
    assert code == 0 and "no card lies on a slot yet: lay P05 on one first" in rest
    assert not (tmp_path / "t.json").exists()


@pytest.mark.parametrize("closed", [False, True])
def test_teaching_whose_input_ends_before_any_card_taught_nothing_and_says_so(tmp_path: Path, closed: bool) -> None:
    """With its input at an end (</dev/null) or closed (<&-), teaching ended 0 ("input stopped: input(): lost
    sys.stdin" for the closed one): a setup script went on as if the tags were taught."""
    tags = tmp_path / "t.json"
    done = subprocess.run(
        [sys.executable, "-m", "companion", "hw", "teach", "--tags", str(tags), "--dice-sensor",
         str(tmp_path / "no-port")], cwd=ROOT, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60,
        preexec_fn=(lambda: os.close(0)) if closed else None,
    )
    said = "which is closed" if closed else "the input ended before any card id was typed, so no tag was taught"
    assert done.returncode == 1 and said in done.stderr and "Traceback" not in done.stderr, done.stderr
    assert "input stopped" not in done.stdout and not tags.exists()


def test_teaching_asks_for_each_tag_laid_and_saves_the_answer(tmp_path: Path, sensor: SimulatedSensor) -> None:
    tags = tmp_path / "t.json"
    with teaching("--tags", str(tags), "--dice-sensor", sensor.path) as teach:
        read_until(teach.stdout, "[dice sensor connected")
        sensor.slot(3, "04A1")
        sensor.slot(5, "04A2")
        read_until(teach.stdout, "tag 04A1 (slot 3): card? ")
        teach.stdin.write("P05\n")
        teach.stdin.flush()
        read_until(teach.stdout, "tag 04A2 (slot 5): card? ")  # laid while the first was asked
        teach.stdin.write("NOPE\n")
        teach.stdin.flush()
        # Asked again: a mistyped id went on to the next tag (here none), the card laid left untaught.
        read_until(teach.stdout, "  no card 'NOPE'; the cards: AK, P01 to P49 (Enter passes this tag over)\n"
                                 "tag 04A2 (slot 5): card? ")
        teach.stdin.write("p06\nq\n")
        teach.stdin.flush()
        code = teach.wait(timeout=30)
    assert code == 0
    assert json.loads(tags.read_text())["tags"] == {"04A1": "P05", "04A2": "P06"}


def test_ctrl_c_typed_at_the_terminal_mid_teaching_keeps_what_was_taught_and_ends_130(
    tmp_path: Path, sensor: SimulatedSensor
) -> None:
    """At a real terminal, Ctrl-C typed while the next tag's card is asked: the tag answered before stays saved,
    the summary says so on a line of its own, and the exit is 130 (it was 0, as for 'q')."""
    from tests.at_a_terminal import AtTerminal

    tags = tmp_path / "t.json"
    env = {**os.environ, "HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "data")}
    with AtTerminal("hw", "teach", "--tags", str(tags), "--dice-sensor", sensor.path, env=env) as teach:
        teach.read_until("[dice sensor connected")
        sensor.slot(3, "04A1")
        teach.read_until("tag 04A1 (slot 3): card? ")
        teach.type("P05\n")
        teach.read_until("  saved (")
        sensor.slot(5, "04A2")
        teach.read_until("tag 04A2 (slot 5): card? ")
        teach.ctrl_c()
        code, rest, said = teach.finish()
    assert code == 130, (code, rest, said)
    assert rest.endswith(f"\n  stopped (Ctrl-C): 1 tag taught this run, saved in {tags}\n"), rest
    assert said == "companion: hw teach stopped (Ctrl-C)\n"
    assert json.loads(tags.read_text())["tags"] == {"04A1": "P05"}


def test_ctrl_c_typed_at_the_first_question_of_hw_play_names_hw_play(tmp_path: Path) -> None:
    from tests.at_a_terminal import AtTerminal

    env = {**os.environ, "HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "data")}
    command = ["hw", "play", "--journal", str(tmp_path / "j.sqlite3"), "--buttons", "none", "--dice-sensor",
               str(tmp_path / "no-port")]
    with AtTerminal(*command, env=env) as play:
        play.read_until("(ttd)\n")
        play.ctrl_c()
        code, _rest, said = play.finish()
    assert code == 130 and said.endswith("companion: hw play stopped (Ctrl-C); no game was started\n"), (code, said)


def interrupt_other_threads(pid: int) -> int:
    """Send Ctrl-C's signal to every thread of ``pid`` but its main one, as the kernel may; how many got it."""
    libc = ctypes.CDLL(None, use_errno=True)
    if not hasattr(libc, "tgkill"):
        pytest.skip("no tgkill in this C library")
    threads = [int(t) for t in os.listdir(f"/proc/{pid}/task") if int(t) != pid]
    for tid in threads:
        libc.tgkill(pid, tid, signal.SIGINT)
    return len(threads)


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs Linux's /proc to find the threads")
@pytest.mark.parametrize("what", ["teach", "play"])
def test_ctrl_c_on_another_thread_still_ends_the_command(tmp_path: Path, what: str) -> None:
    """Python runs a signal's handler on its main thread only; a main thread blocked on a queue without a
    timeout never did, and `hw teach` or `play` went on for good after Ctrl-C."""
    if what == "teach":
        command = ["hw", "teach", "--tags", str(tmp_path / "t.json"), "--dice-sensor", str(tmp_path / "no-port")]
    else:
        command = ["hw", "play", "--journal", str(tmp_path / "j.sqlite3"), "--game", "blackpool", "--players",
                   "red,blue", "--buttons", "none", "--dice-sensor", str(tmp_path / "no-port")]
    with subprocess.Popen(
        [sys.executable, "-m", "companion", *command], cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, preexec_fn=as_from_a_terminal,
    ) as running:
        guard = threading.Timer(30, running.kill)
        guard.start()
        try:
            for line in running.stdout:  # the link's thread is up once it has said the port cannot open
                if "cannot open" in line:
                    break
            assert interrupt_other_threads(running.pid) >= 1
            code = running.wait(timeout=15)
        finally:
            guard.cancel()
            running.kill()
        said = running.stderr.read()
    # The line reader still waits on the open stdin pipe: CPython's shutdown aborted on its lock (-6).
    assert code in (0, 130, -signal.SIGINT) and "Fatal Python error" not in said, (code, said[-500:])


@pytest.mark.parametrize("roll", ["7", "0", "-1"])
def test_a_demo_roll_no_face_of_the_die_shows_is_refused_before_the_board_is_shown(
    roll: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """`hw demo --roll 7` showed the board, then stopped on the referee's "the oracle shows 1 to 6, not 7" and ended
    1, as if the table had failed: a mistake in the command line, said as one (exit status 2)."""
    assert main(["hw", "demo", "--roll", roll, "--pause", "0"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == f"companion: hw demo: argument --roll: Blackpool's die shows 1 to 6, not {roll}\n"


def test_a_simulator_link_in_a_missing_folder_names_the_link(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    link = tmp_path / "no" / "dice"
    assert main(["hw", "simulate-dice", "--link", str(link), "--exit"]) == 1
    assert f"companion: cannot make the link {link}: No such file or directory" in capsys.readouterr().err


@pytest.mark.parametrize("what", ["file", "folder"])
def test_a_simulator_link_never_replaces_a_file_or_folder(
    what: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Refused once the command ran (exit 1), and a folder named "a file that is not a link": now as the command is
    read, a mistake in it (exit 2), naming what is there."""
    kept = tmp_path / "notes"
    kept.write_text("mine", encoding="utf-8") if what == "file" else kept.mkdir()
    with pytest.raises(SystemExit) as usage:
        main(["hw", "simulate-dice", "--link", str(kept), "--exit"])
    assert usage.value.code == 2 and capsys.readouterr().err.splitlines()[-1] == (
        f"companion hw simulate-dice: error: argument --link: '{kept}' is a {what}: give the path of the link to "
        "make (a link there is replaced, never a file or folder)")
    assert kept.read_text(encoding="utf-8") == "mine" if what == "file" else not list(kept.iterdir())


def test_a_simulator_link_made_before_over_its_own_link_is_replaced(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A link left by an earlier run (or pointing at a pty gone since) is the simulator's to replace."""
    link = tmp_path / "dice"
    link.symlink_to(tmp_path / "gone")
    assert main(["hw", "simulate-dice", "--link", str(link), "--exit"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == str(link) and not link.is_symlink()


def test_a_port_that_echoes_the_query_is_not_called_a_sensor() -> None:
    assert probe("loop://", wait=0.3) == (
        "no answer to $ID?, only the query sent back (a loopback or a port that echoes; 0 other lines heard)"
    )


def test_play_turns_the_camera_picture_tells_it_the_mains_and_reads_the_tray_as_asked(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`hw play --camera` at a table whose camera hangs upside down and mirrored reads it upright; the
    mains frequency goes to the camera, and dice are read in the tray given."""
    import argparse
    from types import SimpleNamespace

    import cv2
    import numpy as np

    import vision.feed
    from companion.controller import Controller
    from hardware.cli import attach_hardware, register
    from vision.orientation import Orientation
    from vision.tray_area import TrayArea
    from vision.view_check import IN_TERMINAL

    cv2.imwrite(str(tmp_path / "0.png"), np.full((480, 640, 3), 90, np.uint8))
    parser = argparse.ArgumentParser()
    register(parser.add_subparsers())
    args = parser.parse_args(["hw", "play", "--camera", str(tmp_path), "--turn", "180", "--mirror", "--mains", "60",
                              "--tray", "10%,20%,60%,90%"])
    started = []
    real_start = vision.feed.start_camera
    monkeypatch.setattr(vision.feed, "start_camera", lambda *a, **k: started.append(real_start(*a, **k)) or started[-1])
    detach = attach_hardware(args)(SimpleNamespace(controller=Controller(None)))
    try:
        assert started[0].orientation == Orientation(180, True) and started[0].source.mains_hz == 60
        assert started[0].tray == TrayArea(0.1, 0.2, 0.6, 0.9)  # dice read in the tray alone
        assert started[0].mends == IN_TERMINAL  # a picture stuck moving is told in the terminal's words
    finally:
        detach()
    assert not started[0].running


def test_the_answers_to_a_new_games_questions_in_hw_play_are_not_taken_as_moves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`new` asked its questions with a second reader of stdin while the live referee's own reader still
    waited: the '1' typed for "Which game?" was taken as a roll of 1 in the game going on (journalled),
    and 'red,blue' as the game's name."""
    monkeypatch.setattr("builtins.input", slow_typist(["new", "1", "red,blue", "", "q"], 0.2))
    journal = tmp_path / "j.sqlite3"
    args = ["--game", "blackpool", "--players", "red,blue", "--new", "--journal", str(journal), "--buttons", "mock"]
    assert main(["hw", "play", *args]) == 0
    out = capsys.readouterr().out
    assert "Which game?" in out and "rolls 1" not in out and "No game" not in out, out[-2000:]


def test_self_test_without_a_button_box_checks_only_the_sensor(capsys: pytest.CaptureFixture[str]) -> None:
    """`--buttons none` (a table with a dice sensor and no button box) still opened GPIO: off the Pi the
    check ended "1 problem(s) found" with a working sensor, and on a Pi it waited for buttons nobody wired."""
    with SimulatedSensor() as sensor:
        stop = threading.Event()
        server = threading.Thread(target=lambda: [idle(sensor, 0.05) for _ in iter(stop.is_set, True)])
        server.start()
        try:
            code = main(["hw", "test", "--buttons", "none", "--dice-sensor", sensor.path])
        finally:
            stop.set()
            server.join()
    out = capsys.readouterr().out
    assert code == 0, out
    assert "GPIO" not in out and "press confirm" not in out
    assert "Lights and buttons: not checked (--buttons none)" in out and "TC-DICE-SIM" in out


def test_demo_players_are_read_as_play_reads_them(capsys: pytest.CaptureFixture[str]) -> None:
    """`hw play --players "red, blue"` plays; `hw demo` split on commas alone and refused "unknown colour ' blue'"."""
    assert main(["hw", "demo", "--players", "red, blue", "--pause", "0"]) == 0
    assert "Red rolls 6." in capsys.readouterr().out


@pytest.mark.parametrize(("game", "why"), [("desert", "asks for no choice after its first roll"),
                                           ("temple", "does not begin with a roll"),
                                           ("ttd", "does not begin with a roll")])
def test_a_demo_of_a_game_its_script_cannot_play_is_refused_before_it_starts(
    game: str, why: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """`hw demo --game desert` ended 1 on "unknown colour 'red'"; with desert's colours it waited 10 s for a choice
    the roll-off never brings, and temple's showed its board before its roll was refused."""
    assert main(["hw", "demo", "--game", game, "--pause", "0"]) == 2
    out, err = capsys.readouterr()
    assert f"{why}" in err and "The demo plays: blackpool" in err and not out



@pytest.mark.parametrize("as_json", [False, True])
def test_ctrl_c_in_hw_bench_reports_the_rolls_measured_so_far(
    as_json: bool, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ctrl-C ended `hw bench --rolls 10000` with exit 130 and no figure: the rolls it had timed were lost. With
    `--json` the JSON keeps its keys (`"stopped": true`) and stderr says it is partial, as README says of every
    command stopped so; it said nothing there."""
    from hardware import bench

    real, waits = bench._wait_for, []

    def interrupted_at_the_fourth_roll(controller, kind, timeout=10.0):  # the link, then info and step per roll
        waits.append(kind)
        if len(waits) == 8:
            raise KeyboardInterrupt
        return real(controller, kind, timeout)

    monkeypatch.setattr(bench, "_wait_for", interrupted_at_the_fourth_roll)
    assert main(["hw", "bench", "--rolls", "50", *(["--json"] if as_json else [])]) == 130
    out, err = capsys.readouterr()
    if as_json:
        assert json.loads(out)["rolls"] == 3 and json.loads(out)["stopped"] is True
        assert err == "companion: hw bench: partial: 3 of 50 rolls (stopped by Ctrl-C)\n", err
        return
    assert "(blackpool, 3 of 50 rolls (stopped by Ctrl-C) over a pty, with the durable journal commit):" in out, out
    assert "  median " in out


def test_the_hw_play_goodbye_names_the_hw_play_that_resumes_the_same_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The goodbye said 'companion play --journal ...', which resumes the game without its sensor and buttons."""
    import shlex

    from companion.cli import build_parser

    monkeypatch.setattr("builtins.input", slow_typist(["q"], 0.2))
    (tmp_path / "frames").mkdir()  # a camera playing a folder's pictures: none yet, so it reads nothing
    setup = ["--journal", str(tmp_path / "j j.sqlite3"), "--dice-sensor", "loop://", "--buttons", "mock",
             "--camera", str(tmp_path / "frames"), "--turn", "90", "--no-mirror", "--tray", "10%,20%,60%,90%"]
    assert main(["hw", "play", "--game", "blackpool", "--players", "red,blue", *setup]) == 0
    said = capsys.readouterr().out.rsplit("to resume it: ", 1)[1].strip()
    assert said.startswith("companion hw play --journal ") and "companion play" not in said, said
    given = build_parser().parse_args(shlex.split(said)[1:])
    for option in ("journal", "dice_sensor", "buttons", "camera", "turn", "mirror", "tray"):
        assert getattr(given, option) == getattr(build_parser().parse_args(["hw", "play", *setup]), option), option


@pytest.mark.parametrize(
    ("given", "said"),
    [
        (["--tray", "10%,20%,60%,90%"], "--tray sets the camera's picture, and no --camera is given: add --camera "
                                        "SOURCE, or leave it out"),
        (["--turn", "90", "--no-mirror", "--mains", "50"], "--turn, --no-mirror, --mains set the camera's picture"),
    ],
)
def test_hw_play_refuses_picture_options_without_a_camera(
    given: list[str], said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`hw play --tray ...` without --camera played on as if the tray were watched, and its goodbye named the
    tray as part of the table to resume. Refused before the journal is opened, as argparse refuses a mistake."""
    journal = tmp_path / "j.sqlite3"
    assert main(["hw", "play", "--game", "blackpool", "--players", "red,blue", "--journal", str(journal), *given]) == 2
    out, err = capsys.readouterr()
    assert err.startswith(f"companion hw play: {said}") and out == "", err
    assert not journal.exists()


def test_the_self_test_asks_each_sensor_once_by_its_stable_name_and_says_when_two_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """udev names a USB sensor twice (/dev/serial/by-id/usb-... and /dev/ttyACM0): both were asked and listed,
    so one sensor read as two, and two boxes as four with nothing said of which one the table reads."""
    from hardware import selftest

    by_id = tmp_path / "by-id"
    by_id.mkdir()
    said: list[str] = []
    with SimulatedSensor() as first, SimulatedSensor() as second:
        for number, sensor in enumerate((first, second)):
            (by_id / f"usb-TC_dice_{number}-if00").symlink_to(sensor.tty_path)
            (tmp_path / f"ttyACM{number}").symlink_to(sensor.tty_path)  # the kernel's name of the same device
        monkeypatch.setattr(selftest, "PORT_PATTERNS", (str(by_id / "*"), str(tmp_path / "ttyUSB*"),
                                                        str(tmp_path / "ttyACM*")))
        stop = threading.Event()

        def serve() -> None:
            while not stop.is_set():
                idle(first, 0.02)
                idle(second, 0.02)

        server = threading.Thread(target=serve)
        server.start()
        try:
            code = selftest.self_test({}, None, None, say=said.append)
        finally:
            stop.set()
            server.join()
    assert code == 0, said
    sensors = [line for line in said if "TC-DICE-SIM" in line]
    assert sensors == [f"  {by_id}/usb-TC_dice_{n}-if00 (also {tmp_path}/ttyACM{n}): TC-DICE-SIM firmware 1.0 #0001"
                       for n in (0, 1)], said
    assert ("  2 sensors answer; the table reads one: name it with --dice-sensor (hw play) or on the settings "
            "screen, by its /dev/serial/by-id name where it has one") in said


def test_the_self_test_says_which_pin_map_it_checks(
    own_data_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The installed service reads its own data folder, not the owner's home: a wiring file written to the wrong
    one was passed over without a word, and the check tested the defaults while the owner read it as theirs."""
    check = ["hw", "test", "--buttons", "mock", "--auto", "--dwell", "0", "--timeout", "0.05", "--dice-sensor",
             str(tmp_path / "none")]
    main(check)
    wiring = own_data_dir / "table-companion" / "hardware.toml"
    assert capsys.readouterr().out.splitlines()[0] == (
        f"Pin map: the defaults (hardware/pins.toml); there is no wiring file at {wiring}")
    wiring.parent.mkdir(parents=True)
    wiring.write_text("[buttons]\nconfirm = 4\n", encoding="utf-8")
    main(check)
    out = capsys.readouterr().out
    assert out.splitlines()[0] == f"Pin map: {wiring} (over the defaults in hardware/pins.toml)"
    assert "press confirm (GPIO4, header pin 7) ..." in out
    other = tmp_path / "other.toml"
    other.write_text("", encoding="utf-8")
    main([*check, "--hardware-config", str(other)])
    assert capsys.readouterr().out.splitlines()[0] == f"Pin map: {other} (over the defaults in hardware/pins.toml)"


def test_the_self_test_presses_the_mock_buttons_for_you_however_short_the_wait(
    capsys: pytest.CaptureFixture[str]
) -> None:
    """`--auto --timeout 0` pressed each mock button, then found none pressed ("NOT PRESSED within 0 s - check the
    wiring"): a press already heard is read, even with no time left to wait for one."""
    assert main(["hw", "test", "--buttons", "mock", "--auto", "--timeout", "0", "--dwell", "0",
                 "--dice-sensor", "loop://"]) == 1  # the loop sends back the query: the one problem found
    out = capsys.readouterr().out
    assert "NOT PRESSED" not in out and out.count(": ok\n") == 4 and out.endswith("1 problem(s) found.\n"), out


@pytest.mark.parametrize(
    ("given", "said"),
    [
        (["play", "--game", "blackpool", "--players", "red,blue", "--tags", "t.json"],
         "hw play: --tags names the tag file the dice sensor's slot reports are read with, and no --dice-sensor is "
         "given: add --dice-sensor URL, or leave it out"),
        (["play", "--game", "blackpool", "--players", "red,blue", "--hardware-config", "pins.toml"],
         "hw play: --hardware-config maps the button box's pins, and --buttons is none (the default): add --buttons "
         "gpio (or mock), or leave it out"),
        (["test", "--buttons", "none", "--hardware-config", "pins.toml"],
         "hw test: --hardware-config maps the button box's pins, and --buttons is none: add --buttons gpio"),
        (["test", "--buttons", "none", "--auto"],
         "hw test: --auto presses the simulated buttons of --buttons mock for you, and --buttons is none: add "
         "--buttons mock, or leave it out"),
        (["test", "--buttons", "gpio", "--auto"],
         "hw test: --auto presses the simulated buttons of --buttons mock for you, and --buttons is gpio: leave it "
         "out and press each button when asked"),
        (["test", "--buttons", "none", "--timeout", "5"],
         "hw test: --timeout times the lights and buttons, and --buttons is none: add --buttons gpio (or mock), or "
         "leave it out"),
        (["test", "--buttons", "none", "--timeout", "5", "--dwell", "0"],
         "hw test: --timeout, --dwell time the lights and buttons, and --buttons is none: add --buttons gpio (or "
         "mock), or leave them out"),
        (["test", "--buttons", "gpio", "--timeout", "0"],
         "hw test: --timeout 0 leaves no time to press a button: give the seconds to wait for each (default 10), or "
         "add --auto with --buttons mock\n"),
    ],
)
def test_hw_options_that_would_do_nothing_are_refused(
    given: list[str], said: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`hw play --tags FILE` without a sensor and `--hardware-config` without a button box were passed over in
    silence (the goodbye named them as part of the table to resume), and so were `hw test --buttons none` with a
    pin map, `--timeout` or `--dwell`, and `--auto` with no mock box to press (`--buttons gpio --auto` waited on
    each button as without it); `--timeout 0` blamed the wiring of every button nobody had a moment to press.
    Refused before the journal is opened or a port looked for, as the camera's options are without --camera."""
    monkeypatch.chdir(tmp_path)
    journal = tmp_path / "j.sqlite3"
    extra = ["--journal", str(journal)] if given[0] == "play" else ["--dice-sensor", str(tmp_path / "no-port")]
    assert main(["hw", *given, *extra]) == 2
    out, err = capsys.readouterr()
    assert err.startswith(f"companion {said}") and out == "", err
    assert sorted(p.name for p in tmp_path.iterdir()) == []


@pytest.mark.parametrize("given", [["--tag", "04A1", "--card", "P05"], ["--card", "P05"]])
def test_hw_teach_refuses_one_link_given_with_the_board_to_teach_from(
    given: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`hw teach --tag 04A1 --card P05 --dice-sensor PORT` linked the one tag and passed the sensor over, and
    `--card P05 --dice-sensor PORT` began the board's teaching with --card passed over: both ended as if all
    were used."""
    tags = tmp_path / "t.json"
    assert main(["hw", "teach", "--tags", str(tags), "--dice-sensor", str(tmp_path / "no-port"), *given]) == 2
    flags = ", ".join(word for word in given if word.startswith("--"))
    out, err = capsys.readouterr()
    assert out == "" and err == (f"companion hw teach: {flags} link{'s' if ',' not in flags else ''} one tag to a "
                                 "card without the board, and --dice-sensor teaches each tag laid on the board: give "
                                 "one or the other\n")
    assert not tags.exists()


@pytest.mark.parametrize(("option", "what"), [("--tag", "a tag id as the sensor reports it, such as 04A1"),
                                              ("--card", "the card id of --tag")])
def test_hw_teach_refuses_an_empty_tag_or_card_by_name(
    option: str, what: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--tag ""` (a shell variable left unset) was answered "Give --tag TAG --card CARD", as if none were typed."""
    given = {"--tag": "04A1", "--card": "P05", option: ""}
    with pytest.raises(SystemExit) as usage:
        main(["hw", "teach", "--tags", str(tmp_path / "t.json"), *(w for pair in given.items() for w in pair)])
    assert usage.value.code == 2 and f"argument {option}: it is empty: give {what}" in capsys.readouterr().err


@pytest.mark.parametrize(("given", "said"), [
    (["--interval", "5"], "--interval sets the --random rolls, and no --random N is given: add --random N, or leave "
                          "it out"),
    (["--seed", "3", "--interval", "0", "--script", "roll 4"], "--interval, --seed set the --random rolls"),
])
def test_simulate_dice_refuses_what_only_random_rolls_use_without_them(
    given: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """`simulate-dice --seed 3 --exit` rolled nothing and ended 0, the seed and any --interval passed over."""
    assert main(["hw", "simulate-dice", "--exit", *given]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith(f"companion hw simulate-dice: {said}"), err


@pytest.mark.parametrize(("script", "said"), [
    ("roll 9", "script step 1, 'roll 9': a d6 shows 1 to 6, not '9'"),
    ("roll 3; wait 0\nroll 0 d6", "script step 3, 'roll 0 d6': a d6 shows 1 to 6, not '0'"),
    ("roll X", "script step 1, 'roll X': a d6 shows 1 to 6, not 'X'"),
    ("roll 25 d20 100 red", "script step 1, 'roll 25 d20 100 red': a d20 shows X or 1 to 7, not '25'"),
    ("roll 15 d20", "script step 1, 'roll 15 d20': a d20 shows X or 1 to 7, not '15'"),
    ("roll 7 d20", "script step 1, 'roll 7 d20': a d20's 7 is red or white: name the colour after the confidence, "
                   "as in 'roll 7 d20 100 red'"),
    ("roll 3 D20 90", "script step 1, 'roll 3 D20 90': a d20's 3 is red or white: name the colour after the "
                      "confidence, as in 'roll 3 d20 90 red'"),
    ("roll X d20 100 red", "script step 1, 'roll X d20 100 red': a d20 has no red X: its X is white"),
    ("roll 0 d20 100 white", "script step 1, 'roll 0 d20 100 white': a d20 shows X or 1 to 7, not '0'"),
    ("roll four oracle", "script step 1, 'roll four oracle': an oracle shows 1 to 6, not 'four'"),
    ("roll 9 oracle", "script step 1, 'roll 9 oracle': an oracle shows 1 to 6, not '9'"),
    ("roll 9 d8", "script step 1, 'roll 9 d8': a d8 shows 1 to 8, not '9'"),
    ("roll 4 d6 150", "script step 1, 'roll 4 d6 150': a reading's confidence is 0 to 100, not '150'"),
    ("slot 0 04A1", "script step 1, 'slot 0 04A1': a slot is 1 to 12 (the temple board's), not '0'"),
    ("slot 3 04A1; slot -2 -", "script step 2, 'slot -2 -': a slot is 1 to 12 (the temple board's), not '-2'"),
    ("slot 13", "script step 1, 'slot 13': a slot is 1 to 12 (the temple board's), not '13'"),
    ("slot x AA", "script step 1, 'slot x AA': a slot is 1 to 12 (the temple board's), not 'x'"),
    ("roll \u00b3", f"script step 1, 'roll \u00b3': {WIRE_TEXT}, not '\u00b3'"),
    ("roll 3 d6 9\u00b2", f"script step 1, 'roll 3 d6 9\u00b2': {WIRE_TEXT}, not '9\u00b2'"),
    ("roll 3 d6 100 r\u00e9d", f"script step 1, 'roll 3 d6 100 r\u00e9d': {WIRE_TEXT}, not 'r\u00e9d'"),
    ("err cocked $ROLL", f"script step 1, 'err cocked $ROLL': {WIRE_TEXT}, not '$ROLL'"),
    ("slot 3 04,A1", "script step 1, 'slot 3 04,A1': a field holds no ',' (it parts the fields on the wire), not "
                     "'04,A1'"),
    ("roll 3 d6 100 red,blue", "script step 1, 'roll 3 d6 100 red,blue': a field holds no ',' (it parts the fields "
                               "on the wire), not 'red,blue'"),
    ("roll 3 d0", "script step 1, 'roll 3 d0': a die has 1 side or more, not 'd0'"),
    ("roll 3 d6 100 red blue", "script step 1, 'roll 3 d6 100 red blue': 'blue' is more than the step takes: roll V "
                               "[die] [confidence] [colour]"),
    ("slot 3 04 A1", "script step 1, 'slot 3 04 A1': 'A1' is more than the step takes: slot N TAG|-"),
    ("unplug now", "script step 1, 'unplug now': 'now' is more than the step takes: unplug"),
])
def test_a_script_roll_no_die_shows_or_slot_no_board_has_is_refused_before_plugging_in(
    script: str, said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """`simulate-dice --script "roll 9"` sent a d6 reading 9 and said "sim: roll 9": the referee refused a throw the
    script's author never meant to send, and the simulator ended 0."""
    assert main(["hw", "simulate-dice", "--script", script, "--exit"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == f"companion hw simulate-dice: {said}\n", err


def test_a_script_roll_a_die_shows_is_played(capsys: pytest.CaptureFixture[str]) -> None:
    """The temple die's X (in any case) and its numbers on a d20, and a d6's 1 and 6, are faces: played."""
    assert main(["hw", "simulate-dice", "--script", "roll x d20 90 white; roll 7 d20 100 red; roll 1; roll 6 d6 0",
                 "--exit"]) == 0
    assert capsys.readouterr().out.splitlines()[1:] == [
        "sim: roll x d20 90 white", "sim: roll 7 d20 100 red", "sim: roll 1", "sim: roll 6 d6 0"]


def test_a_script_roll_is_checked_against_the_cafes_own_die(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A café's temple die (here four white 0 faces for the house die's X and 1s) is the die the table referees with:
    its 0 is played, and the house die's X and red 1, which that table refuses, are refused at their step."""
    house = json.loads((ROOT / "companion/games/temple/data/die.json").read_text(encoding="utf-8"))
    house["faces"] = [{"value": 0, "colour": "white"}] * 4 + house["faces"][4:]
    (tmp_path / "temple").mkdir()
    (tmp_path / "temple" / "die.json").write_text(json.dumps(house), encoding="utf-8")
    cafe = ["--cafe", str(tmp_path), "hw", "simulate-dice", "--exit", "--script"]
    assert main([*cafe, "roll 0 d20 100 white; roll 7 d20 100 red"]) == 0
    assert capsys.readouterr().out.splitlines()[1:] == ["sim: roll 0 d20 100 white", "sim: roll 7 d20 100 red"]
    assert main([*cafe, "roll X d20; roll 1 d20 100 red; roll 0 d20 100 red"]) == 2
    assert capsys.readouterr().err.splitlines() == [
        "companion hw simulate-dice: script step 1, 'roll X d20': a d20 shows 0 or 2 to 7, not 'X'",
        "companion hw simulate-dice: script step 2, 'roll 1 d20 100 red': a d20 shows 0 or 2 to 7, not '1'",
        "companion hw simulate-dice: script step 3, 'roll 0 d20 100 red': a d20 has no red 0: its 0 is white"]


def test_a_script_roll_the_simulator_plays_the_temple_referee_takes() -> None:
    """Each face of the temple die a script may name (a number with its colour, X with or without one) is one the
    temple referee takes; those the script refuses the referee refuses too (RU-2)."""
    from companion.errors import InvalidAction
    from companion.games.temple.rolls import read_roll
    from hardware.dice_sim import roll_refusal

    temple = create("temple")
    for value in ["X", *map(str, range(0, 9))]:
        for colour in (None, "red", "white"):
            args = [value, "d20", "100", *([colour] if colour else [])]
            number: int | str = int(value) if value.isdigit() else value
            action = {"type": "roll", "value": number, **({"face": {"colour": colour}} if colour else {})}
            try:
                read_roll(temple, action)  # type: ignore[arg-type]
            except InvalidAction as refused:
                assert refused.rule == "RU-2" and roll_refusal(args) is not None, args
            else:
                assert roll_refusal(args) is None, args


def test_a_random_script_roll_throws_the_die_the_step_names(sensor: SimulatedSensor) -> None:
    """`roll ? d20` rolled 1 to 6 with no colour: the temple die's 7 and X never came up at random, and its numbers
    came without the colour the temple referee asks for. Each face of the temple's own die data now comes up, as
    often as the die carries it, with its colour; a d6 or a d8 shows its sides."""
    temple = create("temple")
    rng = random.Random(7)
    thrown = Counter(random_face("d20", None, rng) for _ in range(2000))
    assert set(thrown) == set(temple.face_weights)  # type: ignore[attr-defined]  # 7, X, red and white
    assert thrown[("X", "white")] > thrown[(1, "white")]  # X is on two faces, a white 1 on one
    assert {random_face("d20", "red", rng)[1] for _ in range(50)} == {"red"}
    assert {random_face("d8", "blue", rng) for _ in range(200)} == {(n, "blue") for n in range(1, 9)}
    assert {random_face("oracle", None, rng)[0] for _ in range(200)} == set(range(1, 7))
    said: list[str] = []
    assert run_script(sensor, "roll ? d20 90; roll ? D20 100 red", said.append, random.Random(3)) == 0
    assert sensor.slave is not None
    parser, dice = LineParser(), []
    while len(dice) < 2:  # a pty may hand the lines over in pieces
        dice += [m for m in parser.feed(os.read(sensor.slave, 1024)) if isinstance(m, DieSettled)]
    assert all((d.value, d.colour) in temple.face_weights for d in dice), dice  # type: ignore[attr-defined]
    assert dice[1].colour == "red" and [d.confidence for d in dice] == [0.9, 1.0]
    assert said == [f"sim: roll ? d20 90 (rolled {dice[0].value} {dice[0].colour})",
                    f"sim: roll ? D20 100 red (rolled {dice[1].value} red)"]


def test_random_rolls_throw_the_die_named_with_die(capsys: pytest.CaptureFixture[str]) -> None:
    """`--random N` rolled a d6 whatever the table: a temple tester had no random throws of its die at all."""
    assert main(["hw", "simulate-dice", "--random", "30", "--interval", "0", "--seed", "4", "--die", "d20",
                 "--exit"]) == 0
    rolled = [line.split() for line in capsys.readouterr().out.splitlines()[1:]]
    faces = create("temple").face_weights  # type: ignore[attr-defined]
    assert len(rolled) == 30 and all(words[:2] == ["sim:", "roll"] and words[3:5] == ["d20", "100"] for words in rolled)
    thrown = {(int(w[2]) if w[2].isdigit() else w[2], w[5]) for w in rolled}
    assert thrown <= set(faces) and len(thrown) > 5, thrown


def test_random_rolls_throw_the_cafes_own_die(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A café's own temple die (here with four 0 faces, and no X or 1) is the one the table referees with: the
    simulator threw the house die's faces, which such a table refuses."""
    house = json.loads((ROOT / "companion/games/temple/data/die.json").read_text(encoding="utf-8"))
    house["faces"] = [{"value": 0, "colour": "white"}] * 4 + house["faces"][4:]
    (tmp_path / "temple").mkdir()
    (tmp_path / "temple" / "die.json").write_text(json.dumps(house), encoding="utf-8")
    assert main(["--cafe", str(tmp_path), "hw", "simulate-dice", "--random", "30", "--interval", "0", "--seed", "4",
                 "--die", "d20", "--exit"]) == 0
    rolled = [line.split()[2:6:3] for line in capsys.readouterr().out.splitlines()[1:]]
    thrown = {(int(value) if value.isdigit() else value, colour) for value, colour in rolled}
    assert thrown <= set(create("temple", tmp_path).face_weights) and (0, "white") in thrown, thrown  # type: ignore
    said: list[str] = []
    with SimulatedSensor() as sensor:
        assert run_script(sensor, "roll ? d20 100 white; " * 20, said.append, random.Random(1), cafe=tmp_path) == 0
    assert not [line for line in said if " (rolled X" in line or " (rolled 1 " in line] and any(
        line.endswith("(rolled 0 white)") for line in said), said


@pytest.mark.parametrize(("argv", "said"), [
    (["--random", "2", "--die", "coin"], "argument --die: 'coin' is no die whose faces are known: give d20, d6, "
                                         "oracle, or dN (N sides)"),
    (["--die", "d20"], "--die sets the --random rolls, and no --random N is given: add --random N, or leave it out"),
])
def test_a_random_die_no_game_knows_or_with_no_random_rolls_is_refused(
    argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    try:
        code = main(["hw", "simulate-dice", "--exit", *argv])
    except SystemExit as usage:
        code = usage.code  # type: ignore[assignment]
    assert code == 2 and capsys.readouterr().err.splitlines()[-1].endswith(said)


@pytest.mark.parametrize(("script", "said"), [
    ("roll ? coin", "script step 1, 'roll ? coin': a random roll (?) is of a die whose faces are known: d20, d6, "
                    "oracle, or dN (N sides), not 'coin'"),
    ("roll 3; roll ? d20 100 green", "script step 2, 'roll ? d20 100 green': a d20 has no 'green' face: its faces "
                                     "are red or white"),
])
def test_a_random_script_roll_of_a_die_no_game_knows_is_refused(
    script: str, said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """`roll ? coin` sent a coin reading 1 to 6: a random throw of a die whose faces nothing knows is refused."""
    assert main(["hw", "simulate-dice", "--script", script, "--exit"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == f"companion hw simulate-dice: {said}\n", err
