"""One face of the café's die taken back, not the whole die taught again.

A face shown under the wrong value (a 5 taught as 3) was said ("this face matches the 5 taught before"), but the
only way to undo it was to move temple_die.json aside and teach every face again. `vision untaught-face` takes the
face last taught as a value back out. Every face is rendered, written as a PNG and read back with OpenCV.
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.cli import main
from vision.taught import temple_die_reader
from vision.teaching import TeachRefused, take_back_face
from vision.temple_die_render import render_temple_die


def face(tmp_path: Path, value: str, seed: int) -> Path:
    path = tmp_path / f"{value}-{seed}.png"
    assert cv2.imwrite(str(path), render_temple_die(np.random.default_rng(seed), value, "white",
                                                    size=(640, 480), edge=100.0)[0])
    return path


def teach(photo: Path, value: str, out: Path) -> int:
    return main(["vision", "teach-die", str(photo), "--value", value, "--colour", "white", "--out", str(out)])


def test_a_face_taught_under_the_wrong_value_is_taken_back_alone(tmp_path: Path, capsys) -> None:
    out = tmp_path / "taught"
    for seed in (1, 2):
        assert teach(face(tmp_path, "3", seed), "3", out) == 0
        assert teach(face(tmp_path, "5", seed + 10), "5", out) == 0
    assert teach(face(tmp_path, "5", 30), "3", out) == 0  # the slip: a 5 shown, 3 picked
    advice = capsys.readouterr().out
    assert "this face matches the 5 taught before" in advice
    assert "take this face back alone (companion vision untaught-face --value 3 --colour white)" in advice
    stored = json.loads((out / "temple_die.json").read_text())
    assert [len(stored["glyphs"][v]) for v in ("3", "5")] == [3, 2] and len(stored["colours"]["white"]) == 5

    assert main(["vision", "untaught-face", "--value", "3", "--colour", "white", "--out", str(out)]) == 0
    said = capsys.readouterr().out
    assert said.startswith("the last face taught as 3 on white taken back (4 faces taught so far): ")
    kept = json.loads((out / "temple_die.json").read_text())
    assert [len(kept["glyphs"][v]) for v in ("3", "5")] == [2, 2] and len(kept["colours"]["white"]) == 4
    assert kept["glyphs"]["3"] == stored["glyphs"]["3"][:2]  # the two faces taught first stay as they were

    reader, note = temple_die_reader(out)
    assert note is None
    for seed, value in ((40, "5"), (41, "3")):
        read = reader.read(cv2.imread(str(face(tmp_path, value, seed))))
        assert [str(r.value) for r in read] == [value]


def test_nothing_to_take_back_is_said_and_a_damaged_file_is_kept(tmp_path: Path, capsys) -> None:
    out = tmp_path / "taught"
    out.mkdir()  # one not there is said to be missing (tests/vision/test_cli_exit_status.py)
    assert main(["vision", "untaught-face", "--value", "4", "--colour", "red", "--out", str(out)]) == 1
    assert "no face was taught as '4'" in capsys.readouterr().err
    assert teach(face(tmp_path, "3", 1), "3", out) == 0
    with pytest.raises(TeachRefused, match=r"no face was taught as '6' .*values taught: 3\)"):
        take_back_face("6", "white", out)
    assert take_back_face(" 3 ", "white", out).what.endswith("(0 faces taught so far)")
    assert temple_die_reader(out)[1] is None  # an emptied die is read by its rendered faces, without a word
    (out / "temple_die.json").write_text('{"glyphs": {"3": "x"}}')
    with pytest.raises(TeachRefused, match=r"glyphs\.3: expected a list"):
        take_back_face("3", "white", out)
    assert (out / "temple_die.json").read_text() == '{"glyphs": {"3": "x"}}'
