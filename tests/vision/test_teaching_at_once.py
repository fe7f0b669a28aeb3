"""Two teach steps at the same moment (the command line and the camera screen, or two apps) each keep what they
taught: the second reads the first's result and adds its own. One held past the bound is refused by name.

Every teach step here runs in a process of its own, as the CLI and the app do; the moment each one reads and
writes is forced by a barrier, never by a sleep. Pictures are real image files read back with OpenCV.
"""

from __future__ import annotations

import multiprocessing
import re
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tests.vision.test_feed import board_frame
from tests.vision.test_teaching_robust import die_photo, one_face_file, photo
from vision.taught import DIE_FILE
from vision.teaching import TeachRefused, teach_card, teach_die_face
from vision.temple_die import TempleDieReader

ROUNDS = 6
MEETING = 120.0  # seconds a process waits for the other at a barrier: a guard against a hang, never reached
SPAWN = multiprocessing.get_context("spawn")  # a fork of a process with OpenCV's threads running may hang

HOLD = (
    "import fcntl, os, sys\n"
    "fcntl.flock(os.open(sys.argv[1], os.O_RDONLY), fcntl.LOCK_EX)\n"
    "print('held', flush=True)\n"
    "sys.stdin.read()\n"
)


@contextmanager
def held_elsewhere(folder: Path) -> Iterator[None]:
    """``folder`` locked by another process, as a teach step storing there holds it, until the block ends."""
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(folder)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        yield
    finally:
        holder.communicate(timeout=MEETING)  # its stdin closed: it ends and lets go


def _teach_faces(
    folder: str, frame: np.ndarray, value: str, colour: str, rounds: int, barrier: Any, answers: Any
) -> None:
    """A teach process: ``rounds`` faces taught into ``folder``, each stored only after whoever else is at
    ``barrier`` has read the die file too (the old way, both then wrote back what each had read)."""
    import vision.teaching as teaching

    teaching.STORING_WAIT = MEETING  # the bound is not what is tested here
    read = teaching._taught_die
    first = [True]

    def read_then_meet(where: Path) -> TempleDieReader:
        reader = read(where)
        if first[0]:
            first[0] = False
            barrier.wait(timeout=MEETING)
        return reader

    teaching._taught_die = read_then_meet
    try:
        for _ in range(rounds):
            first[0] = True
            teaching.teach_die_face(frame, value, colour, Path(folder))
    except BaseException as error:
        barrier.abort()
        answers.put(f"{value} on {colour}: {error!r}")
    else:
        answers.put(None)


def _teach_photos(folder: str, frame: np.ndarray, card: str, rounds: int, barrier: Any, answers: Any) -> None:
    """A teach process: ``rounds`` photos of ``card`` taught into ``folder``, each stored the moment whoever else
    is at ``barrier`` has its own photo ready too."""
    import vision.teaching as teaching

    teaching.STORING_WAIT = MEETING
    teaching.SAME_PHOTO = -1.0  # one photo taught over and over: each stored, as photos under other light are
    teach = teaching.CardReader.teach

    def teach_then_meet(reader: Any, *args: Any, **kwargs: Any) -> np.ndarray:
        image = teach(reader, *args, **kwargs)
        barrier.wait(timeout=MEETING)
        return image

    teaching.CardReader.teach = teach_then_meet
    try:
        for _ in range(rounds):
            teaching.teach_card(frame, 3, card, Path(folder))
    except BaseException as error:
        barrier.abort()
        answers.put(f"{card}: {error!r}")
    else:
        answers.put(None)


def run_together(*jobs: tuple[Any, tuple[Any, ...]], barrier: Any, answers: Any) -> None:
    """Each job in a process of its own, started together; each must answer that it taught all it was given."""
    processes = [SPAWN.Process(target=target, args=(*args, barrier, answers)) for target, args in jobs]
    for process in processes:
        process.start()
    try:
        assert [answers.get(timeout=MEETING) for _ in processes] == [None] * len(processes)
    finally:
        for process in processes:
            process.join(timeout=MEETING)
    assert [process.exitcode for process in processes] == [0] * len(processes)


def test_two_processes_teaching_the_die_at_once_keep_every_face(tmp_path: Path) -> None:
    """Each read the die, then both wrote back what they had read plus their own face: one face of the two lost
    every time."""
    folder = tmp_path / "taught"
    three, five = die_photo(tmp_path, "3", "red"), die_photo(tmp_path, "5", "white")
    barrier, answers = SPAWN.Barrier(2), SPAWN.Queue()
    run_together(
        (_teach_faces, (str(folder), three, "3", "red", ROUNDS)),
        (_teach_faces, (str(folder), five, "5", "white", ROUNDS)),
        barrier=barrier,
        answers=answers,
    )
    die = TempleDieReader.load(folder)
    assert {value: len(glyphs) for value, glyphs in die.examples.items()} == {"3": ROUNDS, "5": ROUNDS}
    assert {colour: len(shades) for colour, shades in die.colours.items()} == {"red": ROUNDS, "white": ROUNDS}
    assert sorted(p.name for p in folder.iterdir()) == [DIE_FILE]  # no lock file, nothing left aside


def test_a_face_stored_while_a_step_waits_is_kept_by_it(tmp_path: Path) -> None:
    """The step's read is taken under the lock, not before it: a face stored by another step after this one
    first looked at the file, and before it could store its own, is in what it writes back."""
    folder = tmp_path / "taught"
    folder.mkdir()
    barrier, answers = SPAWN.Barrier(2), SPAWN.Queue()
    process = SPAWN.Process(
        target=_teach_faces, args=(str(folder), die_photo(tmp_path), "3", "red", 1, barrier, answers)
    )
    with held_elsewhere(folder):
        process.start()
        barrier.wait(timeout=MEETING)  # it has read the folder with nothing taught in it
        one_face_file(folder)  # a 5 on white stored meanwhile, as the step holding the folder would
    try:
        assert answers.get(timeout=MEETING) is None
    finally:
        process.join(timeout=MEETING)
    assert sorted(TempleDieReader.load(folder).examples) == ["3", "5"]


def test_two_processes_teaching_one_card_at_once_keep_both_photos(tmp_path: Path) -> None:
    """Both took the first free name for their photo, and the second moved its file over the first's."""
    folder = tmp_path / "taught"
    board = photo(tmp_path / "board.png", board_frame({3: "P05"}))
    barrier, answers = SPAWN.Barrier(2), SPAWN.Queue()
    run_together(
        (_teach_photos, (str(folder), board, "P05", ROUNDS)),
        (_teach_photos, (str(folder), board, "P05", ROUNDS)),
        barrier=barrier,
        answers=answers,
    )
    assert sorted(p.name for p in folder.iterdir()) == sorted(f"P05__{n}.png" for n in range(2 * ROUNDS))


def test_a_folder_kept_locked_past_the_bound_is_refused_by_name_and_left_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A teach step that never got the folder must neither hang the camera screen nor store anything."""
    monkeypatch.setattr("vision.teaching.STORING_WAIT", 0.2)
    folder = tmp_path / "taught"
    before = one_face_file(folder)
    die, board = die_photo(tmp_path), photo(tmp_path / "board.png", board_frame({3: "P05"}))
    locked = rf"has kept {re.escape(str(folder))} locked for over 0\.2 seconds while storing there; nothing was taught"
    who = r"^another teach step \(the camera screen or a teach command\) "
    with held_elsewhere(folder):
        with pytest.raises(TeachRefused, match=who + locked):
            teach_die_face(die, "3", "red", folder)
        with pytest.raises(TeachRefused, match=locked):
            teach_card(board, 3, "P05", folder)
    assert sorted(p.name for p in folder.iterdir()) == [DIE_FILE] and (folder / DIE_FILE).read_bytes() == before
    teach_die_face(die, "3", "red", folder)  # let go of: taught on
    teach_card(board, 3, "P05", folder)
    assert sorted(TempleDieReader.load(folder).examples) == ["3", "5"] and (folder / "P05__0.png").exists()


def test_a_folder_that_cannot_be_opened_to_lock_is_refused_in_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same sentence as for a folder that cannot be written, not an OSError out of the camera screen."""
    import errno
    import os

    folder = tmp_path / "taught"
    before = one_face_file(folder)
    real_open = os.open

    def no_entry(path: Any, *args: Any, **kwargs: Any) -> int:
        if Path(path) == folder:
            raise OSError(errno.EACCES, "Permission denied")
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr("vision.teaching.os.open", no_entry)
    with pytest.raises(TeachRefused, match=rf"^cannot write to {re.escape(str(folder))}: Permission denied$"):
        teach_die_face(die_photo(tmp_path), "3", "red", folder)
    assert (folder / DIE_FILE).read_bytes() == before
