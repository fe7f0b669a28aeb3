"""README's hardware demo by hand, typed as printed: its two commands in its order, by a person slower than --delay.

The two terminals used to start with the simulator: its `--delay 5` ran while the reader typed the long
`hw play` line, the roll went down a pty nobody had open, and opening the port dropped it, so the
referee sat on "roll the oracle" and `press confirm` did nothing. Each command here is started once the
one before it has done all it does unattended (the referee asks for the roll; the simulator has sent it),
so no timing decides the result: the page's order alone does.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import threading
from contextlib import ExitStack
from pathlib import Path

from tests.hardware.test_cli import read_until

ROOT = Path(__file__).resolve().parents[2]


def by_hand() -> list[list[str]]:
    """The block's command lines, in the page's order, continuation lines joined."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"By hand, in two terminals.*?:\n\n(.*?)\n\n", readme, re.S)
    assert block is not None
    text = block.group(1).replace("\\\n", " ")
    return [shlex.split(line) for line in text.splitlines() if line.strip().startswith(".venv/bin/companion")]


def test_the_by_hand_demo_typed_in_the_readmes_order_plays_the_sensors_roll(tmp_path: Path) -> None:
    commands = by_hand()
    assert [c[1:3] for c in sorted(commands, key=lambda c: c[2])] == [["hw", "play"], ["hw", "simulate-dice"]]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1", "HOME": str(tmp_path)}
    started: dict[str, subprocess.Popen] = {}
    with ExitStack() as stack:
        for command in commands:
            argv = [str(tmp_path / Path(word).name) if word.startswith("/tmp/") else word for word in command[1:]]
            child = stack.enter_context(subprocess.Popen(
                [sys.executable, "-m", "companion", *argv], cwd=ROOT, env=env, text=True,
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            ))
            stack.callback(child.kill)
            guard = threading.Timer(30, child.kill)  # a roll that never comes ends the read, not the run
            guard.start()
            stack.callback(guard.cancel)
            started[argv[1]] = child
            # What each does before anyone types again: the referee asks for the roll, the simulator sends it.
            read_until(child.stdout, "Red: roll the oracle." if argv[1] == "play" else "sim: roll 6")
        play = started["play"]
        read_until(play.stdout, "Red rolls 6.")
        play.stdin.write("press confirm\n")
        play.stdin.flush()
        read_until(play.stdout, "Red 1 comes out of the centre")


def test_the_simulator_with_exit_leaves_only_after_the_referee_took_its_last_roll(tmp_path: Path) -> None:
    """README: "`--exit` ends it after the script". It unplugged the moment the script's roll was written, and
    closing a pty throws away what its reader has not read: the referee heard the sensor go, never the roll."""
    play_line, sim_line = sorted(by_hand(), key=lambda c: c[2])
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1", "HOME": str(tmp_path)}
    with ExitStack() as stack:
        children = []
        for command in (play_line, [*sim_line, "--exit"]):
            argv = [str(tmp_path / Path(word).name) if word.startswith("/tmp/") else word for word in command[1:]]
            child = stack.enter_context(subprocess.Popen(
                [sys.executable, "-m", "companion", *argv], cwd=ROOT, env=env, text=True,
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            ))
            stack.callback(child.kill)
            guard = threading.Timer(30, child.kill)
            guard.start()
            stack.callback(guard.cancel)
            children.append(child)
            read_until(child.stdout, "Red: roll the oracle." if argv[1] == "play" else "sim: roll 6")
        play, sim = children
        assert sim.wait(timeout=30) == 0  # gone, as --exit says, before the referee is read from
        said = read_until(play.stdout, "[dice sensor lost")
        assert "Red rolls 6." in said, said
