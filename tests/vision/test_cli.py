"""The plugin's commands run end to end and answer bad input with a sentence and an exit code."""

from __future__ import annotations

import argparse
import errno
import itertools
import json
import re
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import pytest

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
    assert main(["vision", "markers", str(tmp_path / "no" / "dir" / "x.pdf")]) == 1
    assert "cannot write" in capsys.readouterr().err
    for name in ("sheet.png", "sheet"):  # a PDF under another name was written without a word
        assert main(["vision", "markers", str(tmp_path / name)]) == 2
        assert "give a name ending in .pdf" in capsys.readouterr().err
        assert not (tmp_path / name).exists()
    assert main(["vision", "markers", str(tmp_path / "SHEET.PDF")]) == 0


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
    with pytest.raises(SystemExit):
        main(["vision", "eval-temple-die", "--frames", "0"])


def test_eval_temple_die_says_how_many_right_faces_would_be_asked_about(capsys) -> None:
    """What a reading under the confirm line costs is a tap: the count a café weighs against the faces read wrong."""
    import re

    assert main(["vision", "eval-temple-die", "--frames", "24"]) == 0
    told = re.search(r"^faces read right but asked for a tap \(under 80% sure\): (\d+)$", capsys.readouterr().out, re.M)
    assert told is not None and int(told.group(1)) <= 2


def test_watch_reads_a_folder_of_board_photos(tmp_path: Path, capsys) -> None:
    cards, board = load_temple_cards(), load_temple_board()
    image, _ = render_board(board, {s.slot: cards[s.slot] for s in board.slots}, cell_px=20)
    for i in range(4):
        cv2.imwrite(str(tmp_path / f"{i}.png"), image)
    assert main(["vision", "watch", str(tmp_path), "--reader", "cards"]) == 0
    out = capsys.readouterr().out
    assert out.count("slot ") == 12 and "4 frames read" in out


def test_watch_waits_for_a_camera_but_not_for_a_file_that_is_not_there(capsys) -> None:
    """A camera may be plugged in later, so it is retried until --timeout; a mistyped file name never appears,
    and retried it hung watch on one repeated line."""
    assert main(["vision", "watch", "/dev/video99", "--timeout", "0.3"]) == 1
    out = capsys.readouterr().out
    assert "source problem" in out and "no camera at /dev/video99 (unplugged" in out and "giving up" in out
    assert main(["vision", "watch", "no-such-photo.png", "--timeout", "0.3"]) == 1
    captured = capsys.readouterr()
    assert "image no-such-photo.png does not exist" in captured.err and "source problem" not in captured.out
    assert main(["vision", "watch", "no-such-camera", "--timeout", "0.3"]) == 1
    assert "'no-such-camera' is not a camera index, URL, video file, image or folder" in capsys.readouterr().err


def test_teach_card_from_an_image(tmp_path: Path, capsys) -> None:
    cards, board = load_temple_cards(), load_temple_board()
    image, _ = render_board(board, {s.slot: cards[0] for s in board.slots}, cell_px=20)
    cv2.imwrite(str(tmp_path / "board.png"), image)
    out = tmp_path / "cafe"
    assert main(["vision", "teach-card", str(tmp_path / "board.png"), "--slot", "3", "--card", cards[0].id,
                 "--out", str(out)]) == 0
    assert list(out.glob("*.png"))
    assert main(["vision", "teach-card", str(tmp_path / "missing.png"), "--slot", "3", "--card", "P01",
                 "--out", str(out)]) == 1
    capsys.readouterr()
    assert main(["vision", "teach-card", str(tmp_path / "board.png"), "--slot", "13", "--card", cards[0].id,
                 "--out", str(out)]) == 2
    assert "slot 13 is not on the board; its slots are 1, 2," in capsys.readouterr().err


def test_bench_reports_every_reader(capsys) -> None:
    assert main(["vision", "bench", "--json", "--repeat", "1"]) == 0
    result = json.loads(capsys.readouterr().out)
    for key in ("motion_gate_ms", "d6_ms_4_dice", "d6_ms_close_die", "d6_ms_low_view", "cards_ms_12_slots",
                "cards_ms_12_slots_1080p", "temple_die_ms", "temple_die_on_board_ms", "settle_ms"):
        assert key in result
    assert 0 < result["settle_ms"] < 1000


def test_bench_soak_throws_dice_through_the_whole_camera_path(capsys) -> None:
    """Each throw is read by the feed's thread and applied to a journalled game; memory is printed per block."""
    from vision.soak import STILL_FRAMES, TUMBLE_FRAMES, camera_soak

    report, _took, frames = camera_soak(6, block=3)
    assert (report.rolls, report.right + report.wrong + report.missed) == (6, 6)
    assert report.right >= 5 and report.missed == 0  # rendered dice, 50-60 px across, straight down
    assert frames == 6 * (TUMBLE_FRAMES + STILL_FRAMES)  # every throw seen through to its still end
    assert len(report.peak_mb) == 2 and all(mb > 10 for mb in report.peak_mb)
    assert main(["vision", "bench", "--soak", "2"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"camera soak: 2 rolls \(\d+ frames\) in \d+ s through the feed", out), out
    assert re.search(r"peak memory after each 100 rolls \(MB\): \d+\n", out), out


def test_watch_every_frame_reads_dice_photos(tmp_path: Path, capsys) -> None:
    import numpy as np

    from vision.temple_die_render import render_temple_die

    rng = np.random.default_rng(4)
    for i, value in enumerate(("X", "3")):
        cv2.imwrite(str(tmp_path / f"{i}.png"), render_temple_die(rng, value, "red")[0])
    assert main(["vision", "watch", str(tmp_path), "--reader", "temple-die", "--every-frame"]) == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if line.startswith("frame")]
    assert len(lines) == 2 and lines[0].startswith("frame 1: die shows X on red (") and "% sure)" in lines[0]


def test_watch_reads_one_photo_without_waiting_for_stillness(tmp_path: Path, capsys) -> None:
    import numpy as np

    from vision.dice_render import render_dice_scene

    image, _, values = render_dice_scene(np.random.default_rng(3), 640, 480, count=2, size_range=(50, 60))
    cv2.imwrite(str(tmp_path / "roll.png"), image)
    assert main(["vision", "watch", str(tmp_path / "roll.png")]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith("frame 1: 2 dice show ")
    assert sorted(int(value) for value in re.findall(r"(\d) \(\d+% sure\)", first)) == sorted(values)


def test_watch_saves_each_reading_with_its_dice_boxed(tmp_path: Path, capsys) -> None:
    """`--save` keeps the picture behind every reading, for a café checking its camera or a table in dispute."""
    from vision.dice_render import render_dice_scene
    from vision.watch import ASKED_BGR, TAKEN_BGR

    photos, shots = tmp_path / "photos", tmp_path / "shots" / "today"
    photos.mkdir()
    scenes = [render_dice_scene(np.random.default_rng(seed), 640, 480, count=2, size_range=(50, 60))
              for seed in (3, 8)]
    for i, (image, _, _) in enumerate(scenes):
        cv2.imwrite(str(photos / f"{i}.png"), image)
    cv2.imwrite(str(photos / "2.png"), np.zeros((3, 3, 3), np.uint8))  # too small to read: no reading, not saved
    assert main(["vision", "watch", str(photos), "--every-frame", "--save", str(shots)]) == 0
    assert "2 frames with a reading saved in " in capsys.readouterr().out
    saved = sorted(shots.iterdir())
    assert [f.name for f in saved] == ["frame-000001.jpg", "frame-000002.jpg"]
    for path, (image, boxes, _) in zip(saved, scenes, strict=True):
        shot = cv2.imread(str(path))
        assert shot.shape == image.shape
        for x0, y0, x1, y1 in boxes:  # each die's box is drawn round it, in a reading colour, on the edge of the die
            edge = shot[round(y0) - 8:round(y1) + 8, round(x0) - 8:round(x1) + 8].reshape(-1, 3).astype(int)
            near = [min(np.abs(edge - colour).sum(1)) for colour in (TAKEN_BGR, ASKED_BGR)]
            assert min(near) < 60, near
        assert np.abs(shot.astype(int) - image.astype(int)).mean() > 0.5  # more than the JPEG's own change


def test_watch_keeps_only_the_newest_saved_frames(tmp_path: Path, capsys) -> None:
    """Left running all day, `--save` must not fill the card; a file it did not write is never deleted."""
    from vision.dice_render import render_dice_scene

    photos, shots = tmp_path / "photos", tmp_path / "shots"
    photos.mkdir()
    shots.mkdir()
    (shots / "dispute.jpg").write_bytes(b"kept by the owner")
    for seed in range(5):
        image, _, _ = render_dice_scene(np.random.default_rng(seed), 320, 240, count=1, size_range=(40, 50))
        cv2.imwrite(str(photos / f"{seed}.png"), image)
    assert main(["vision", "watch", str(photos), "--every-frame", "--save", str(shots), "--keep", "2"]) == 0
    assert "5 frames with a reading saved in " in capsys.readouterr().out.replace(", the newest 2 kept", "")
    assert sorted(f.name for f in shots.iterdir()) == ["dispute.jpg", "frame-000004.jpg", "frame-000005.jpg"]
    assert main(["vision", "watch", str(photos), "--every-frame", "--save", str(shots), "--frames", "1"]) == 0
    assert f"{shots} already holds 2 frames of an earlier watch: frames of the same numbers are replaced" in (
        capsys.readouterr().out)
    with pytest.raises(SystemExit) as usage:
        main(["vision", "watch", str(photos), "--save", str(shots), "--keep", "0"])
    assert usage.value.code == 2
    assert "--keep: '0' is not a whole number of 1 or more" in capsys.readouterr().err


def test_watch_saves_a_board_with_its_slots_outlined(tmp_path: Path, capsys) -> None:
    from vision.card_reader import CardReader
    from vision.watch import SLOT_BGR

    cards, board = load_temple_cards(), load_temple_board()
    image, _ = render_board(board, {s.slot: cards[s.slot] for s in board.slots}, cell_px=20)
    photos = tmp_path / "photos"
    photos.mkdir()
    cv2.imwrite(str(photos / "0.png"), image)
    assert main(["vision", "watch", str(photos), "--reader", "cards", "--every-frame", "--save", str(tmp_path)]) == 0
    shot = cv2.imread(str(tmp_path / "frame-000001.jpg")).astype(int)
    reader = CardReader(cards, board)
    reader.read(image)
    for corners in reader.last_outlines.values():  # each slot's corner is drawn over in the slots' colour
        for x, y in corners:
            patch = shot[round(y) - 2:round(y) + 3, round(x) - 2:round(x) + 3].reshape(-1, 3)
            assert min(np.abs(patch - SLOT_BGR).sum(1)) < 60


def test_watch_tells_a_blurred_or_dark_picture_once_each(tmp_path: Path, capsys) -> None:
    """Out of focus, the pips run together; nearly dark, dice go unseen: only the café can mend either."""
    from vision.dice_render import render_dice_scene

    image, _, _ = render_dice_scene(np.random.default_rng(0), 640, 480, count=2, size_range=(50, 60))
    blurred = cv2.GaussianBlur(image, (0, 0), 8)
    dark = (image * 0.1).astype(np.uint8)
    for name, photo in (("1", image), ("2", blurred), ("3", blurred), ("4", image), ("5", dark), ("6", dark),
                        ("7", image)):
        cv2.imwrite(str(tmp_path / f"{name}.png"), photo)
    assert main(["vision", "watch", str(tmp_path), "--every-frame"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^frame 2: the dice look out of focus \(sharpness 0\.\d\d; a focused picture gives "
                     r"0\.15 or more\): focus the camera on the tray$", out, re.M), out
    assert re.search(r"^frame 4: the dice are in focus now \(sharpness 0\.\d\d\)$", out, re.M), out
    assert re.search(r"^frame 5: the picture is dark \(its brightest parts reach \d+ of 255; 40 or more wanted\)",
                     out, re.M), out
    assert re.search(r"^frame 7: the picture is light enough now \(its brightest parts reach \d+ of 255\)$",
                     out, re.M), out
    assert out.count("out of focus") == 1 and out.count("picture is dark") == 1  # told once, not every frame
    assert "frame 1: the" not in out  # a focused, lit photo has nothing to mend


def test_watch_tells_a_board_too_far_away_once(tmp_path: Path, capsys) -> None:
    from tests.vision.test_view_check import far_board

    for index in range(3):
        cv2.imwrite(str(tmp_path / f"{index}.png"), far_board())
    assert main(["vision", "watch", str(tmp_path), "--reader", "cards", "--every-frame"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^frame 1: the board's slots are about 2\d px across in this 640x480 view: mount the camera "
                     r"closer to the board, so that a slot is at least 30 px across", out, re.M), out
    assert out.count("slots are about") == 1


def test_watch_tells_a_board_out_of_focus_and_when_it_is_focused(tmp_path: Path, capsys) -> None:
    from tests.vision.test_feed import board_frame

    sharp = board_frame({})
    for i, image in enumerate([cv2.GaussianBlur(sharp, (0, 0), 2.5)] * 4 + [sharp] * 4):
        cv2.imwrite(str(tmp_path / f"{i:02}.png"), image)
    assert main(["vision", "watch", str(tmp_path), "--reader", "cards", "--every-frame"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^frame 1: the board looks out of focus \(sharpness 0\.1\d at its markers; 0\.20 or more "
                     r"wanted\): focus the camera on the board, or its cards are misread$", out, re.M), out
    assert out.count("out of focus") == 1 and re.search(r"^frame 5: the board is in focus now", out, re.M), out


def test_watch_tells_a_washed_out_board_and_when_it_is_clear(tmp_path: Path, capsys) -> None:
    from tests.vision.test_feed import board_frame
    from vision.board_photos import veiled

    clear = board_frame({})
    for i, image in enumerate([veiled(clear, 0.6)] * 4 + [clear] * 4):
        cv2.imwrite(str(tmp_path / f"{i:02}.png"), image)
    assert main(["vision", "watch", str(tmp_path), "--reader", "cards", "--every-frame"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^frame 1: the board looks washed out \(its markers' black [6-7]\d% as bright as their white; "
                     r"a clear picture shows under 60%\): wipe the camera's lens and turn lamps away from it", out,
                     re.M), out
    assert out.count("washed out") == 1 and re.search(r"^frame 5: the board looks clear now", out, re.M), out


def test_watch_refuses_a_save_folder_it_cannot_make(tmp_path: Path, capsys) -> None:
    (tmp_path / "unplugged").symlink_to(tmp_path / "usb")  # a file in the way is refused as the command is read
    assert main(["vision", "watch", str(tmp_path), "--save", str(tmp_path / "unplugged" / "shots")]) == 1
    assert "--save " in capsys.readouterr().err


def test_watch_tells_a_camera_too_far_from_the_tray_once(tmp_path: Path, capsys) -> None:
    """Dice 10-13 px across cost the reader a second look at every frame; the README asks for 32 px."""
    import numpy as np

    from vision.dice_render import render_dice_scene, render_far_dice_scene

    far = render_far_dice_scene(np.random.default_rng(4), tray=True)[0]
    near = render_dice_scene(np.random.default_rng(4), 640, 480, count=3, size_range=(45, 60))[0]
    for i, image in enumerate([far] * 5 + [near] * 5 + [far] * 5):
        cv2.imwrite(str(tmp_path / f"{i:02}.png"), image)
    assert main(["vision", "watch", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert out.count("the dice are about ") == 1, out  # told once, not at every roll
    told = re.search(r"the dice are about (\d+) px across in this 640x480 view.*at least 32 px across", out)
    assert told and 9 <= int(told.group(1)) <= 17, out  # a turned 10-13 px die has a box up to 18 px
    assert out.count("settled") == 3


def test_watch_reads_a_far_tray_marked_with_tray_or_saved_by_the_camera_screen(
        tmp_path: Path, monkeypatch, capsys) -> None:
    """Marked, the far tray's dice are read without the second look, and its mend is offered first where not."""
    from vision.dice_render import render_far_tray_scene

    far, values, (x0, y0, x1, y1) = render_far_tray_scene(np.random.default_rng(4))
    frames = tmp_path / "far"
    frames.mkdir()
    for i in range(8):
        cv2.imwrite(str(frames / f"{i:02}.png"), far)
    assert main(["vision", "watch", str(frames)]) == 0
    out = capsys.readouterr().out
    assert "mark the tray with --tray (the camera screen's Mark tray) so that only it is looked at, or mount" in out
    tray = f"{(x0 - 10) / 6.4:.0f}%,{max(0, y0 - 10) / 4.8:.0f}%,{(x1 + 10) / 6.4:.0f}%,{(y1 + 10) / 4.8:.0f}%"
    assert main(["vision", "watch", str(frames), "--tray", tray, "--save", str(tmp_path / "shots")]) == 0
    out = capsys.readouterr().out
    assert "the dice are about" not in out
    told = re.search(r"^frame \d+: 8 dice show ([\d, ]+), settled", out, re.M)
    assert told and sorted(int(v) for v in told.group(1).split(", ")) == sorted(values), out
    saved = cv2.imread(str(next((tmp_path / "shots").glob("frame-*.jpg"))))
    assert saved.shape == (480, 640, 3)  # the whole picture, the dice boxed where they lie in it
    right = round(round((x1 + 10) / 6.4) * 6.4)  # the tray's right edge, framed in white as on the camera screen
    assert saved[100:120, right].min() > 225 and far[100:120, right].min() < 200
    settings = tmp_path / "ui.json"
    monkeypatch.setenv("COMPANION_UI_SETTINGS", str(settings))
    settings.write_text(json.dumps({"tray_area": [0.05, 0.0, 0.44, 0.39]}), encoding="utf-8")
    assert main(["vision", "watch", str(frames)]) == 0
    out = capsys.readouterr().out
    marked = "Dice read in the tray marked at 5-44% across, 0-39% down"
    assert f"{marked}, as the camera screen saved it in {settings}" in out
    assert "the dice are about" not in out and "8 dice show" in out
    assert main(["vision", "watch", str(frames), "--tray", "whole"]) == 0
    assert "the dice are about" in capsys.readouterr().out


@pytest.mark.parametrize("tray", ["0.2,0.2,0.25,0.9", "1,2,3", "middle"])
def test_watch_refuses_a_tray_that_is_no_part_of_the_picture(tray: str, capsys) -> None:
    with pytest.raises(SystemExit):
        main(["vision", "watch", "0", "--tray", tray])
    assert "argument --tray: " in capsys.readouterr().err


def test_watch_tells_a_temple_die_too_far_from_the_camera_once(tmp_path: Path, capsys) -> None:
    from vision.temple_die_render import render_temple_die

    rng = np.random.default_rng(5)
    near = render_temple_die(rng, "4", "white", edge=60)[0]
    far = render_temple_die(rng, "2", "red", edge=22)[0]
    for i, image in enumerate([near] * 5 + [far] * 5 + [near] * 5):
        cv2.imwrite(str(tmp_path / f"{i:02}.png"), image)
    assert main(["vision", "watch", str(tmp_path), "--reader", "temple-die"]) == 0
    out = capsys.readouterr().out
    told = re.search(r"^frame (\d+): the die is about (\d+) px across in this 640x480 view: mount the camera "
                     r"closer, so that it is at least 80 px across", out, re.M)
    assert told and 6 <= int(told.group(1)) <= 10 and 40 < int(told.group(2)) < 64, out
    assert out.count("the die is about") == 1


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
    assert first == "frame 1: " + ", ".join(f"slot {s.slot} {cards[s.slot].id}" for s in board.slots)


def test_teach_die_refuses_a_face_the_die_has_not_or_a_wrong_colour(tmp_path: Path, capsys) -> None:
    import numpy as np

    from vision.temple_die_render import render_temple_die

    photo = tmp_path / "face.png"
    cv2.imwrite(str(photo), render_temple_die(np.random.default_rng(2), "3", "white")[0])
    out = tmp_path / "cafe"
    assert main(["vision", "teach-die", str(photo), "--value", "X", "--colour", "red", "--out", str(out)]) == 2
    assert "has no X on red" in capsys.readouterr().err
    assert main(["vision", "teach-die", str(photo), "--value", "9", "--colour", "white", "--out", str(out)]) == 2
    assert main(["vision", "teach-die", str(photo), "--value", "3", "--colour", "red", "--out", str(out)]) == 1
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
    assert main(["vision", "teach-die", str(photo), "--value", "3", "--colour", "white", "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert "glyphs.3: expected a list of 32 x 32 numbers from 0 to 1 each; move the file aside" in err
    assert (out / "temple_die.json").read_text() == '{"glyphs": {"3": "x"}}'


def test_watch_refuses_odd_numbers_and_a_taught_folder_that_is_not_there(tmp_path: Path, capsys) -> None:
    """A negative --frames stopped after one frame, a nan --timeout never gave up, a mistyped --taught was ignored."""
    photo = tmp_path / "board.png"
    cv2.imwrite(str(photo), np.zeros((64, 64, 3), np.uint8))
    for option, value, said in (("--frames", "-3", "argument --frames: '-3' is not a whole number of 0 or more"),
                                ("--timeout", "-1", "argument --timeout: '-1' is not a number of seconds"),
                                ("--timeout", "nan", "argument --timeout: 'nan' is not a number of seconds")):
        with pytest.raises(SystemExit) as usage:
            main(["vision", "watch", str(photo), option, value])
        captured = capsys.readouterr()
        assert usage.value.code == 2 and said in captured.err and " read\n" not in captured.out
    assert main(["vision", "watch", str(photo), "--reader", "temple-die", "--taught", str(tmp_path / "cafe")]) == 1
    captured = capsys.readouterr()
    assert "is not a folder" in captured.err and " read\n" not in captured.out


def test_watch_refuses_an_empty_source_at_once(capsys) -> None:
    """An empty SOURCE (a shell variable never set) was retried every 2 s for ever."""
    assert main(["vision", "watch", "  "]) == 2
    captured = capsys.readouterr()
    assert "SOURCE is empty" in captured.err and " read\n" not in captured.out


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["eval-cards", "--frames", "1", "--seed", "-5"], "argument --seed: '-5' is not a whole number of 0 or more"),
        (["eval-temple-die", "--seed", "x"], "argument --seed: 'x' is not a whole number of 0 or more"),
        (["eval-cards", "--frames", "0"], "argument --frames: '0' is not a whole number from 1 to 10000"),
        (["bench", "--repeat", "0"], "argument --repeat: '0' is not a whole number from 1 to 1000"),
        (["markers", "out.pdf", "--size-mm", "200"], "'200' is not a number of millimetres from 15"),
        (["markers", "out.pdf", "--size-mm", "nan"], "argument --size-mm: 'nan' is not a number of millimetres"),
    ],
)
def test_odd_numbers_are_refused_by_name(argv: list[str], expected: str, capsys) -> None:
    """In the same words as the hardware commands', before anything is measured or written."""
    with pytest.raises(SystemExit) as usage:
        main(["vision", *argv])
    captured = capsys.readouterr()
    assert usage.value.code == 2 and expected in captured.err and not captured.out


def test_watch_names_the_files_of_a_folder_it_could_not_read(tmp_path: Path, capsys) -> None:
    (tmp_path / "empty.jpg").write_bytes(b"")
    (tmp_path / "notes.png").write_text("not a picture")
    assert main(["vision", "watch", str(tmp_path)]) == 1
    assert "skipped 2 files in " in capsys.readouterr().out
    cv2.imwrite(str(tmp_path / "good.png"), np.zeros((64, 64, 3), np.uint8))
    assert main(["vision", "watch", str(tmp_path), "--every-frame"]) == 0
    out = capsys.readouterr().out
    assert "1 frame read" in out and "not readable images: empty.jpg, notes.png" in out


def test_watch_says_a_tiny_image_is_unusable_instead_of_no_dice(tmp_path: Path, capsys) -> None:
    cv2.imwrite(str(tmp_path / "dot.png"), np.zeros((1, 1, 3), np.uint8))
    assert main(["vision", "watch", str(tmp_path / "dot.png")]) == 1
    out = capsys.readouterr().out
    assert "frame 1: no usable frame (1x1x3, uint8)" in out and "no dice" not in out
    assert main(["vision", "watch", str(tmp_path)]) == 1  # live: said once, not "the view never held still"
    out = capsys.readouterr().out
    assert "no usable frame (1x1x3, uint8)" in out and "never held still" not in out


def board_photo(tmp_path: Path) -> Path:
    cards, board = load_temple_cards(), load_temple_board()
    image, _ = render_board(board, {s.slot: cards[0] for s in board.slots}, cell_px=20)
    cv2.imwrite(str(tmp_path / "board.png"), image)
    return tmp_path / "board.png"


def test_teach_card_never_writes_over_a_photo_taught_before(tmp_path: Path, capsys, monkeypatch) -> None:
    """With P01__0.png deleted and P01__1.png kept, counting the photos named the next one P01__1.png."""
    monkeypatch.setattr("vision.teaching.SAME_PHOTO", -1.0)  # one photo twice: both stored, as under other light
    photo = board_photo(tmp_path)
    out = tmp_path / "cafe"
    out.mkdir()
    (out / "P01__1.png").write_bytes(b"kept")
    assert main(["vision", "teach-card", str(photo), "--slot", "3", "--card", "P01", "--out", str(out)]) == 0
    assert "cafe/P01__0.png" in capsys.readouterr().out
    assert (out / "P01__1.png").read_bytes() == b"kept"
    assert main(["vision", "teach-card", str(photo), "--slot", "3", "--card", "P01", "--out", str(out)]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["P01__0.png", "P01__1.png", "P01__2.png"]


def test_teach_commands_say_when_out_cannot_be_written(tmp_path: Path, capsys, monkeypatch) -> None:
    photo = board_photo(tmp_path)
    unplugged = tmp_path / "unplugged"  # a file in the way is refused as the command is read (exit 2)
    unplugged.symlink_to(tmp_path / "usb" / "taught")
    assert main(["vision", "teach-card", str(photo), "--slot", "3", "--card", "P01", "--out", str(unplugged)]) == 1
    assert f"cannot write to {unplugged}: it is a link to" in capsys.readouterr().err
    # A disk that fills mid-write (as root no folder refuses a write, so the write is told to fail).
    out = tmp_path / "cafe"

    def disk_full(_handle: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    with monkeypatch.context() as patched:
        patched.setattr("companion.paths.os.fsync", disk_full)
        assert main(["vision", "teach-card", str(photo), "--slot", "3", "--card", "P01", "--out", str(out)]) == 1
    captured = capsys.readouterr()
    assert "cannot write to" in captured.err and "taught" not in captured.out
    assert list(out.iterdir()) == []

    from vision.temple_die_render import render_temple_die

    face = tmp_path / "face.png"
    cv2.imwrite(str(face), render_temple_die(np.random.default_rng(2), "3", "white")[0])
    assert main(["vision", "teach-die", str(face), "--value", "3", "--colour", "white", "--out",
                 str(unplugged)]) == 1
    assert f"cannot write to {unplugged}: it is a link to" in capsys.readouterr().err


def test_teach_commands_name_what_was_wrong_with_the_source(tmp_path: Path, capsys) -> None:
    photos = tmp_path / "photos"
    photos.mkdir()
    (photos / "empty.jpg").write_bytes(b"")
    out = tmp_path / "cafe"
    assert main(["vision", "teach-card", str(photos), "--slot", "3", "--card", "P01", "--out", str(out)]) == 1
    err = capsys.readouterr().err  # "skipped 1 files ... that are not readable images" before
    assert "(skipped 1 file in " in err and " that is not a readable image: empty.jpg)" in err, err
    cv2.imwrite(str(tmp_path / "dot.png"), np.zeros((1, 1, 3), np.uint8))
    assert main(["vision", "teach-die", str(tmp_path / "dot.png"), "--value", "3", "--colour", "white",
                 "--out", str(out)]) == 1
    assert "no usable frame (1x1x3, uint8)" in capsys.readouterr().err and not out.exists()


def test_teach_die_keeps_the_faces_taught_before_when_the_card_is_full(tmp_path: Path) -> None:
    """A write cut short (here by a file size limit, as a full SD card would) left half a temple_die.json."""
    import subprocess
    import sys

    from vision.temple_die_render import render_temple_die

    out = tmp_path / "cafe"
    faces = []
    for value in ("3", "5"):
        faces.append(tmp_path / f"{value}.png")
        cv2.imwrite(str(faces[-1]), render_temple_die(np.random.default_rng(2), value, "white")[0])
    assert main(["vision", "teach-die", str(faces[0]), "--value", "3", "--colour", "white", "--out", str(out)]) == 0
    before = (out / "temple_die.json").read_bytes()
    limit = (
        "import resource, signal, sys; signal.signal(signal.SIGXFSZ, signal.SIG_IGN); "
        f"resource.setrlimit(resource.RLIMIT_FSIZE, ({len(before) + 100}, {len(before) + 100})); "
        "from vision.cli import main; sys.exit(main(sys.argv[1:]))"
    )
    run = subprocess.run([sys.executable, "-c", limit, "vision", "teach-die", str(faces[1]), "--value", "5",
                          "--colour", "white", "--out", str(out)], capture_output=True, text=True, timeout=120,
                         cwd=Path(__file__).resolve().parents[2])
    assert run.returncode == 1 and "cannot write to" in run.stderr and "Traceback" not in run.stderr
    assert (out / "temple_die.json").read_bytes() == before
    assert sorted(p.name for p in out.iterdir()) == ["temple_die.json"]


def test_watch_marks_dice_that_settle_again_where_they_lay(tmp_path: Path, capsys) -> None:
    """watch shows what the table gets, and the table no longer takes an untouched die for a new roll."""
    from tests.vision.test_feed import die_at, hand_over, tumbling

    video = tmp_path / "hand.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 30, (640, 480))
    for frame in [*tumbling(7), *[die_at(1)] * 6, *hand_over(die_at(1)), *[die_at(1)] * 6]:
        writer.write(frame)
    writer.release()
    assert main(["vision", "watch", str(video)]) == 0
    readings = [line.split(": ", 1)[1] for line in capsys.readouterr().out.splitlines() if line.startswith("frame")]
    assert [r.endswith("the table would take it") for r in readings] == [True, False]
    assert readings[1].endswith("the same dice where they lay: not a new roll")


def test_watch_says_what_it_takes_from_the_taught_folder(tmp_path: Path, capsys) -> None:
    """A photo taught under a card the deck has not was passed over in silence: the café thought it taught."""
    cards, board = load_temple_cards(), load_temple_board()
    image, _ = render_board(board, {s.slot: cards[s.slot] for s in board.slots}, cell_px=20)
    photo = tmp_path / "board.png"
    cv2.imwrite(str(photo), image)
    taught = tmp_path / "taught"
    assert main(["vision", "teach-card", str(photo), "--slot", "3", "--card", cards[3].id,
                 "--out", str(taught)]) == 0
    cv2.imwrite(str(taught / "Z99__0.png"), image[:40, :40])
    capsys.readouterr()
    assert main(["vision", "watch", str(photo), "--reader", "cards", "--taught", str(taught)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"taught cards in {taught}: 1 photo of {cards[3].id}"
    assert out[1] == "passed over 1 photo there: Z99__0.png (no card Z99 in the deck)"
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["vision", "watch", str(photo), "--reader", "cards", "--taught", str(empty)]) == 0
    assert capsys.readouterr().out.startswith(f"no taught card photos in {empty}: every card is read by its drawing")


def test_watch_tells_missing_markers_once_not_every_frame(tmp_path: Path, capsys) -> None:
    """A live camera aimed off the board printed the same missing-markers line thirty times a second."""
    for i in range(5):
        cv2.imwrite(str(tmp_path / f"{i}.png"), np.full((480, 640, 3), 90, np.uint8))
    assert main(["vision", "watch", str(tmp_path), "--reader", "cards"]) == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if line.startswith("frame")]
    assert len(lines) == 1 and "board markers not seen" in lines[0] and "must be in view" in lines[0]


def test_watch_says_the_table_would_not_take_several_dice(tmp_path: Path, capsys) -> None:
    """Three settled dice were said to be what "the table would take"; the table refuses them, since every
    game here rolls one die at a time."""
    from vision.bench import record_roll_video

    video = tmp_path / "three.avi"
    record_roll_video(video, seed=5, count=3)
    assert main(["vision", "watch", str(video)]) == 0
    readings = [line for line in capsys.readouterr().out.splitlines() if line.startswith("frame")]
    assert len(readings) == 1 and readings[0].split(": ", 1)[1].startswith("3 dice show")
    assert readings[0].endswith("every game here rolls one die, so the table would ask for the others to be taken out")


def test_watch_and_teach_take_the_picture_as_the_camera_screen_turns_it(tmp_path: Path, capsys) -> None:
    """A board seen through a mirrored, upside-down camera: named so without --mirror, read with it."""
    cards, board = load_temple_cards(), load_temple_board()
    image, _ = render_board(board, {s.slot: cards[s.slot] for s in board.slots}, cell_px=20)
    photo = tmp_path / "board.png"
    cv2.imwrite(str(photo), image[::-1].copy())  # upside down and mirrored: turned 180°, then mirrored back
    assert main(["vision", "watch", str(photo), "--reader", "cards"]) == 0
    assert "board markers seen mirrored" in capsys.readouterr().out
    assert main(["vision", "watch", str(photo), "--reader", "cards", "--turn", "180", "--mirror"]) == 0
    assert f"slot 3 {cards[3].id}, slot 4 {cards[4].id}" in capsys.readouterr().out
    taught = tmp_path / "taught"
    teach = ["vision", "teach-card", str(photo), "--slot", "3", "--card", cards[3].id, "--out", str(taught)]
    assert main(teach) == 1 and "seen mirrored" in capsys.readouterr().err
    assert main([*teach, "--turn", "180", "--mirror"]) == 0 and (taught / f"{cards[3].id}__0.png").is_file()
    with pytest.raises(SystemExit):
        main(["vision", "watch", str(photo), "--turn", "45"])
    assert "argument --turn: '45' is not 0, 90, 180 or 270 (degrees, clockwise)" in capsys.readouterr().err


def test_setup_commands_take_the_turn_the_camera_screen_saved(tmp_path: Path, monkeypatch, capsys) -> None:
    """The café turned the picture on the camera screen once; watch and teach at that table see it so too."""
    cards, board = load_temple_cards(), load_temple_board()
    image, _ = render_board(board, {s.slot: cards[s.slot] for s in board.slots}, cell_px=20)
    photo = tmp_path / "board.png"
    cv2.imwrite(str(photo), image[::-1].copy())  # upside down and mirrored
    settings = tmp_path / "ui.json"
    monkeypatch.setenv("COMPANION_UI_SETTINGS", str(settings))
    settings.write_text(json.dumps({"camera_turn": 180, "camera_mirror": True}), encoding="utf-8")
    assert main(["vision", "watch", str(photo), "--reader", "cards"]) == 0
    out = capsys.readouterr().out
    assert f"Picture turned 180°, mirrored, as the camera screen saved it in {settings}" in out
    assert f"slot 3 {cards[3].id}, slot 4 {cards[4].id}" in out
    assert main(["vision", "watch", str(photo), "--reader", "cards", "--turn", "0", "--no-mirror"]) == 0
    out = capsys.readouterr().out
    assert "board markers seen mirrored" in out and "camera screen saved" not in out
    assert main(["vision", "watch", str(photo), "--reader", "cards", "--turn", "0"]) == 0  # mirror still saved
    assert "Picture mirrored, as the camera screen saved it" in capsys.readouterr().out
    taught = tmp_path / "taught"
    teach = ["vision", "teach-card", str(photo), "--slot", "3", "--card", cards[3].id, "--out", str(taught)]
    assert main(teach) == 0 and (taught / f"{cards[3].id}__0.png").is_file()
    settings.write_text("{not json", encoding="utf-8")  # damaged: read as the defaults, left for the app
    assert main(["vision", "watch", str(photo), "--reader", "cards"]) == 0
    assert "board markers seen mirrored" in capsys.readouterr().out
    assert settings.read_text(encoding="utf-8") == "{not json" and list(tmp_path.glob("ui.json.broken*")) == []


def test_watch_says_when_the_picture_never_holds_still_and_when_it_does(
    tmp_path: Path, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    import vision.watch
    from tests.vision.test_feed import die_at, shaking, write_frames

    monkeypatch.setattr(vision.watch, "RESTLESS_SECONDS", 0.3)
    folder = write_frames(tmp_path / "frames", [*shaking(die_at(1), 120), *[die_at(1)] * 10])
    assert main(["vision", "watch", str(folder)]) == 0
    out = capsys.readouterr().out
    restless = [line for line in out.splitlines() if "not held still" in line]
    assert len(restless) == 1 and "s, so nothing is read: steady the camera's mount" in restless[0]
    assert "the picture holds still again: dice are read" in out and "die shows 6, settled" in out


def test_watch_names_a_lamps_bands_and_the_frequency_to_try(tmp_path: Path, capsys, monkeypatch) -> None:
    """Bands rolling through a still picture are mended by the mains frequency, not by steadying the mount."""
    import vision.settle
    import vision.watch
    from tests.vision.test_feed import die_at, rolling_bands
    from vision.motion import MotionGate

    def frame_clock() -> Callable[[], float]:
        """A thirtieth of a second a frame, however slowly a loaded machine gets through them: told after 0.3 s of
        the wall clock, a loaded run had seen four frames, too few to tell bands from motion."""
        ticks = itertools.count()
        return lambda: next(ticks) / 30

    monkeypatch.setattr(vision.settle, "MotionGate", lambda: MotionGate(clock=frame_clock()))
    monkeypatch.setattr(vision.watch, "RESTLESS_SECONDS", 1.0)
    for index, frame in enumerate(rolling_bands(die_at(1), 60, 0.2)):
        cv2.imwrite(str(tmp_path / f"{index:03d}.png"), frame)
    assert main(["vision", "watch", str(tmp_path)]) == 0
    restless = [line for line in capsys.readouterr().out.splitlines() if "not held still" in line]
    assert len(restless) == 1 and restless[0].endswith(
        "a flickering lamp rolls bands through it: give --mains the mains frequency here, 50 or 60 Hz"), restless
    assert main(["vision", "watch", str(tmp_path), "--mains", "50"]) == 0  # told, and the bands stay
    restless = [line for line in capsys.readouterr().out.splitlines() if "not held still" in line]
    assert "a lamp rolls bands through it even at 50 Hz mains: if the mains here is 60 Hz, give --mains 60, " \
        "else light the tray with a lamp that does not flicker" in restless[0], restless


def test_commands_that_read_no_cafe_data_refuse_cafe(tmp_path: Path, capsys) -> None:
    """`companion --cafe DIR vision markers OUT` wrote the sheet and `eval-dice` scored the shipped reader, the
    folder taken in silence: each such command now says it reads no café data, exit 2, before doing anything."""
    from companion.cli import main as companion

    cafe = tmp_path / "cafe"
    cafe.mkdir()
    sheet = tmp_path / "sheet.pdf"
    for command in (f"markers {sheet}", f"eval-dice {tmp_path}", "eval-temple-die --frames 1", "bench --repeat 1",
                    "untaught-face --value 3 --colour red", "untaught-card --card P07"):
        assert companion(["--cafe", str(cafe), "vision", *command.split()]) == 2, command
        err = capsys.readouterr().err
        name = command.split()[0]
        assert err.splitlines() == [f"companion: vision {name} does not read café data (of the vision commands, "
                                    "only eval-cards, watch, teach-card and teach-die do): leave --cafe out"]
    assert not sheet.exists()
    assert companion(["vision", "markers", str(sheet)]) == 0  # without --cafe, as before


def test_teach_card_refuses_to_store_among_the_photos_it_reads(tmp_path: Path, capsys, monkeypatch) -> None:
    """`teach-card photos --out photos` stored P01__1.png among the board's photos, where a later teach from the
    folder (read in name order, P01__1.png before board.png) took the lone card, no markers, for the board; so did
    `teach-card photos/board.png --out photos`: refused, exit 2, nothing stored."""
    cards, board = load_temple_cards(), load_temple_board()
    photos = tmp_path / "photos"
    photos.mkdir()
    cv2.imwrite(str(photos / "board.png"), render_board(board, {s.slot: cards[0] for s in board.slots}, cell_px=20)[0])
    teach = ["vision", "teach-card", "--slot", "3", "--card", cards[0].id]
    for source, out in ((photos, photos), (photos / ".", photos), (f"file://{photos}", tmp_path / "." / "photos")):
        assert main([*teach, str(source), "--out", str(out)]) == 2
        assert capsys.readouterr().err.splitlines() == [
            f"vision: --out {out} is the folder of photos SOURCE reads: the taught photo would lie among the board's "
            "photos, where a later teach could take it for the board; give --out another folder (or leave it out)"]
    monkeypatch.setenv("COMPANION_TAUGHT_DIR", str(photos))  # the feed's own folder, --out left out
    assert main([*teach, str(photos)]) == 2
    assert f"the taught folder the camera feed reads, {photos}, is the folder of photos" in capsys.readouterr().err
    assert sorted(p.name for p in photos.iterdir()) == ["board.png"]
    assert main([*teach, str(photos), "--out", str(tmp_path / "taught")]) == 0  # another folder: taught as before
    assert main([*teach, str(photos / "board.png"), "--out", str(photos)]) == 2  # P01__1.png sorts before it
    assert f"vision: --out {photos} is the folder SOURCE's photo lies in: the taught" in capsys.readouterr().err
    assert sorted(p.name for p in photos.iterdir()) == ["board.png"]
