"""The plugin's commands run end to end and answer bad input with a sentence and an exit code."""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

import cv2

from vision.card_catalogue import load_temple_board, load_temple_cards
from vision.card_render import render_board
from vision.cli import main, register


def test_register_adds_the_vision_commands() -> None:
    parser = argparse.ArgumentParser()
    register(parser.add_subparsers(dest="command"))
    for command in ("eval-dice x", "eval-cards", "eval-temple-die", "bench", "watch 0", "markers o.pdf"):
        args = parser.parse_args(["vision", *command.split()])
        assert callable(args.func)


def test_markers_command_writes_a_pdf(tmp_path: Path, capsys) -> None:
    out = tmp_path / "sheet.pdf"
    assert main(["vision", "markers", str(out)]) == 0
    assert out.read_bytes().startswith(b"%PDF")
    assert main(["vision", "markers", str(tmp_path / "no" / "dir" / "x.pdf")]) == 2
    assert "cannot write" in capsys.readouterr().err


def test_eval_cards_json(capsys) -> None:
    assert main(["vision", "eval-cards", "--frames", "3", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert set(result) == {"slot_accuracy", "ms_per_frame", "frames"}
    assert result["frames"] == 3


def test_eval_temple_die_json(capsys) -> None:
    assert main(["vision", "eval-temple-die", "--frames", "20", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert set(result) == {"value_accuracy", "colour_accuracy", "ms_per_frame", "frames"}
    assert result["frames"] == 20 and result["colour_accuracy"] >= 0.9
    assert main(["vision", "eval-temple-die", "--frames", "0"]) == 2


def test_watch_reads_a_folder_of_board_photos(tmp_path: Path, capsys) -> None:
    cards, board = load_temple_cards(), load_temple_board()
    image, _ = render_board(board, {s.slot: cards[s.slot] for s in board.slots}, cell_px=20)
    for i in range(4):
        cv2.imwrite(str(tmp_path / f"{i}.png"), image)
    assert main(["vision", "watch", str(tmp_path), "--reader", "cards"]) == 0
    out = capsys.readouterr().out
    assert out.count("slot ") == 12 and "4 frames read" in out


def test_watch_reports_a_missing_camera(capsys) -> None:
    assert main(["vision", "watch", "no-such-camera", "--timeout", "0.3"]) == 1
    out = capsys.readouterr().out
    assert "source problem" in out and "giving up" in out


def test_teach_card_from_an_image(tmp_path: Path, capsys) -> None:
    cards, board = load_temple_cards(), load_temple_board()
    image, _ = render_board(board, {s.slot: cards[0] for s in board.slots}, cell_px=20)
    cv2.imwrite(str(tmp_path / "board.png"), image)
    out = tmp_path / "cafe"
    assert main(["vision", "teach-card", str(tmp_path / "board.png"), "--slot", "3", "--card", cards[0].id,
                 "--out", str(out)]) == 0
    assert list(out.glob("*.png"))
    assert main(["vision", "teach-card", str(tmp_path / "missing.png"), "--slot", "3", "--card", "P01",
                 "--out", str(out)]) == 2
    capsys.readouterr()
    assert main(["vision", "teach-card", str(tmp_path / "board.png"), "--slot", "13", "--card", cards[0].id,
                 "--out", str(out)]) == 2
    assert "slot 13 is not on the board; its slots are 1, 2," in capsys.readouterr().err


def test_bench_reports_every_reader(capsys) -> None:
    assert main(["vision", "bench", "--json", "--repeat", "1"]) == 0
    result = json.loads(capsys.readouterr().out)
    for key in ("motion_gate_ms", "d6_ms_4_dice", "d6_ms_close_die", "cards_ms_12_slots", "temple_die_ms", "settle_ms"):
        assert key in result
    assert 0 < result["settle_ms"] < 1000


def test_watch_every_frame_reads_dice_photos(tmp_path: Path, capsys) -> None:
    import numpy as np

    from vision.temple_die_render import render_temple_die

    rng = np.random.default_rng(4)
    for i, value in enumerate(("X", "3")):
        cv2.imwrite(str(tmp_path / f"{i}.png"), render_temple_die(rng, value, "red")[0])
    assert main(["vision", "watch", str(tmp_path), "--reader", "temple-die", "--every-frame"]) == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if line.startswith("frame")]
    assert len(lines) == 2 and "/red" in lines[0]


def test_watch_reads_one_photo_without_waiting_for_stillness(tmp_path: Path, capsys) -> None:
    import numpy as np

    from vision.dice_render import render_dice_scene

    image, _, values = render_dice_scene(np.random.default_rng(3), 640, 480, count=2, size_range=(50, 60))
    cv2.imwrite(str(tmp_path / "roll.png"), image)
    assert main(["vision", "watch", str(tmp_path / "roll.png")]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith("frame 1: [")
    assert sorted(int(value) for value in re.findall(r"(\d) \(", first)) == sorted(values)


def test_watch_says_why_a_folder_of_separate_photos_gave_nothing(tmp_path: Path, capsys) -> None:
    import numpy as np

    from vision.dice_render import render_dice_scene

    rng = np.random.default_rng(5)
    for i in range(4):
        cv2.imwrite(str(tmp_path / f"{i}.png"), render_dice_scene(rng, 640, 480, count=1, size_range=(50, 60))[0])
    assert main(["vision", "watch", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "frame " not in out and "never held still" in out and "--every-frame" in out


def test_watch_every_frame_reads_each_board_photo_whole(tmp_path: Path, capsys) -> None:
    cards, board = load_temple_cards(), load_temple_board()
    image, _ = render_board(board, {s.slot: cards[s.slot] for s in board.slots}, cell_px=20)
    cv2.imwrite(str(tmp_path / "board.png"), image)
    assert main(["vision", "watch", str(tmp_path / "board.png"), "--reader", "cards"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first == "frame 1: " + " ".join(f"{s.slot}:{cards[s.slot].id}" for s in board.slots)


def test_teach_die_refuses_a_face_the_die_has_not_or_a_wrong_colour(tmp_path: Path, capsys) -> None:
    import numpy as np

    from vision.temple_die_render import render_temple_die

    photo = tmp_path / "face.png"
    cv2.imwrite(str(photo), render_temple_die(np.random.default_rng(2), "3", "white")[0])
    out = tmp_path / "cafe"
    assert main(["vision", "teach-die", str(photo), "--value", "X", "--colour", "red", "--out", str(out)]) == 2
    assert "has no X on red" in capsys.readouterr().err
    assert main(["vision", "teach-die", str(photo), "--value", "9", "--colour", "white", "--out", str(out)]) == 2
    assert main(["vision", "teach-die", str(photo), "--value", "3", "--colour", "red", "--out", str(out)]) == 2
    assert "looks white, not red" in capsys.readouterr().err and not out.exists()
    assert main(["vision", "teach-die", str(photo), "--value", "3", "--colour", "white", "--out", str(out)]) == 0
    assert (out / "temple_die.json").exists()


def test_teach_die_will_not_write_over_a_damaged_taught_file(tmp_path: Path, capsys) -> None:
    import numpy as np

    from vision.temple_die_render import render_temple_die

    photo = tmp_path / "face.png"
    cv2.imwrite(str(photo), render_temple_die(np.random.default_rng(2), "3", "white")[0])
    out = tmp_path / "cafe"
    out.mkdir()
    (out / "temple_die.json").write_text('{"glyphs": {"3": "x"}}')
    assert main(["vision", "teach-die", str(photo), "--value", "3", "--colour", "white", "--out", str(out)]) == 2
    assert "glyphs.3: expected a list of 32 x 32 numbers each; move the file aside" in capsys.readouterr().err
    assert (out / "temple_die.json").read_text() == '{"glyphs": {"3": "x"}}'
