"""`vision eval-dice` on sets with broken files in them: each bad file is skipped and named, the run goes on."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import cv2
import numpy as np

from vision.cli import main
from vision.dice_render import render_dice_scene
from vision.eval_dice import evaluate_folder, jpeg_cut_short, progress_line
from vision.yolo_labels import LabelledDie, format_labels, list_images, parse_labels

EVAL_KEYS = {"read_accuracy", "precision", "recall", "image_accuracy", "ms_per_image", "images", "dice"}


def write_split(root: Path, count: int = 2) -> Path:
    """A split of rendered dice photos with their labels; returns the split."""
    rng = np.random.default_rng(5)
    split = root / "valid"
    (split / "images").mkdir(parents=True)
    (split / "labels").mkdir()
    for i in range(count):
        img, boxes, values = render_dice_scene(rng, 640, 480, count=3, size_range=(45, 65))
        cv2.imwrite(str(split / "images" / f"r{i}.jpg"), img)
        dice = [LabelledDie(v, b) for v, b in zip(values, boxes, strict=True)]
        (split / "labels" / f"r{i}.txt").write_text(format_labels(dice, 640, 480))
    return split


def scores(root: Path, capsys, *extra: str) -> tuple[dict, str]:
    assert main(["vision", "eval-dice", str(root), "--json", *extra]) == 0
    captured = capsys.readouterr()
    result = json.loads(captured.out)
    assert set(result) == EVAL_KEYS
    return result, captured.err


def test_a_label_path_that_cannot_be_read_skips_its_image_not_the_run(tmp_path: Path, capsys) -> None:
    """labels/<name>.txt as a folder stopped the whole evaluation with "companion: Is a directory"."""
    split = write_split(tmp_path, 3)
    (split / "labels" / "r1.txt").unlink()
    (split / "labels" / "r1.txt").mkdir()
    result, err = scores(tmp_path, capsys)
    assert (result["images"], result["dice"]) == (2, 6)
    assert "r1.jpg (its label file r1.txt cannot be read: Is a directory)" in err


def test_an_empty_dir_is_refused_not_taken_for_here(capsys) -> None:
    """`eval-dice ""` silently scored the current folder."""
    assert main(["vision", "eval-dice", ""]) == 2
    captured = capsys.readouterr()
    assert captured.err == "vision: eval-dice DIR is empty; give the folder of a photo set (\".\" for this one)\n"
    assert not captured.out


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_long_run_says_how_far_it_has_got_on_a_terminal_only(tmp_path: Path, d6_reader) -> None:
    """`eval-dice /` searched the whole disk for minutes without a word."""
    write_split(tmp_path / "set" / "deep" / "er", 2)
    assert progress_line(io.StringIO()) is None  # a pipe or a file gets no progress lines
    screen = Terminal()
    tell = progress_line(screen, every=0)
    score = evaluate_folder(tmp_path / "set", d6_reader, tell)
    assert score.images == 2
    lines = screen.getvalue().splitlines()
    assert f"eval-dice: searched 1 folders under {tmp_path / 'set'} for <split>/images ..." in lines
    assert "eval-dice: read 1 of 2 images ..." in lines


def test_json_tells_what_it_skipped_on_stderr_keeping_its_keys(tmp_path: Path, capsys) -> None:
    """With --json, unreadable images, images without labels and skipped label lines went unmentioned."""
    split = write_split(tmp_path, 3)
    (split / "images" / "broken.jpg").write_bytes(b"\xff\xd8 broken")
    (split / "labels" / "r2.txt").unlink()
    with (split / "labels" / "r0.txt").open("a") as label:
        label.write("9 0.5 0.5 0.1 0.1\n")
    result, err = scores(tmp_path, capsys)
    assert result["images"] == 3
    assert "skipped 1 label lines that are not d6 dice" in err and "class 9 is no d6 face" in err
    assert "1 images have no label file (scored as showing no die)" in err
    assert "skipped 1 unreadable image file: broken.jpg" in err


def test_a_jpeg_cut_short_is_named_not_scored(tmp_path: Path, capsys) -> None:
    """The first third of a photo was scored as a photo whose dice the reader missed."""
    split = write_split(tmp_path, 2)
    whole = (split / "images" / "r0.jpg").read_bytes()
    (split / "images" / "cut.jpg").write_bytes(whole[: len(whole) // 3])
    (split / "labels" / "cut.txt").write_text((split / "labels" / "r0.txt").read_text())
    (split / "images" / "headers.jpg").write_bytes(whole[:40])
    result, err = scores(tmp_path, capsys)
    assert (result["images"], result["recall"]) == (2, 1.0)
    assert "cut.jpg (a JPEG cut short)" in err and "headers.jpg (a JPEG cut short)" in err
    # A whole JPEG with more after its end (a motion photo's video) is no JPEG cut short.
    (split / "images" / "r0.jpg").write_bytes(whole + b"\xff\xda" + bytes(5000))
    assert not jpeg_cut_short((split / "images" / "r0.jpg").read_bytes())


def test_no_photo_of_the_shared_sets_counts_as_cut_short(datasets: Path) -> None:
    photos = [p for p in datasets.rglob("*") if p.suffix.lower() in {".jpg", ".jpeg"}]
    assert photos and not [p.name for p in photos if jpeg_cut_short(p.read_bytes())]


def test_a_label_file_saved_as_utf16_is_read(tmp_path: Path, capsys) -> None:
    """Windows Notepad's UTF-16 labels gave a garbled complaint per line and no dice."""
    split = write_split(tmp_path, 2)
    as_utf8, _ = scores(tmp_path, capsys)
    label = split / "labels" / "r0.txt"
    text = label.read_text()
    label.write_bytes(text.replace("\n", "\r\n").encode("utf-16"))  # with its byte-order mark, as Notepad saves
    as_utf16, err = scores(tmp_path, capsys)
    assert as_utf16["dice"] == as_utf8["dice"] == 6 and not err
    label.write_bytes(text.encode("utf-16-le"))  # no byte-order mark: which UTF-16 is not known
    result, err = scores(tmp_path, capsys)
    assert result["images"] == 1
    assert "r0.jpg (its label file r0.txt holds NUL bytes" in err and "save it as UTF-8" in err


def test_a_label_box_past_the_image_edge_is_clipped_to_it() -> None:
    """The docstring said boxes off the image are skipped, yet one reaching past the edge was kept as it was."""
    problems: list[str] = []
    dice = parse_labels("0 0.95 0.95 0.5 0.5\n1 0.5 0.5 0.2 0.2\n0 1.2 0.5 0.1 0.1\n0 0.5 0.5 1e-20 0.1\n",
                        200, 100, problems)
    assert [die.box for die in dice] == [(140.0, 70.0, 200.0, 100.0), (80.0, 40.0, 120.0, 60.0)]
    assert len(problems) == 2 and "not inside the image" in problems[0] and "no width or height" in problems[1]


def test_entries_named_like_images_that_are_none_are_named(tmp_path: Path, capsys) -> None:
    """A broken link or a folder called x.jpg in images/ was left out without a word."""
    split = write_split(tmp_path, 2)
    (split / "images" / "x.jpg").mkdir()
    (split / "images" / "gone.jpg").symlink_to(tmp_path / "nowhere.jpg")
    assert len(list_images(tmp_path)) == 4
    result, err = scores(tmp_path, capsys)
    assert result["images"] == 2
    assert "skipped 2 unreadable image files: gone.jpg (a link to nothing), x.jpg (a folder, not an image)" in err


def test_pipes_named_like_a_photo_or_a_label_are_named_not_waited_on(tmp_path: Path, capsys) -> None:
    """A pipe is opened like a file and waits for a writer: eval-dice hung until killed."""
    split = write_split(tmp_path, 3)
    os.mkfifo(split / "images" / "pipe.jpg")
    (split / "labels" / "r1.txt").unlink()
    os.mkfifo(split / "labels" / "r1.txt")
    result, err = scores(tmp_path, capsys)
    assert (result["images"], result["dice"]) == (2, 6)
    assert "pipe.jpg (not a regular file)" in err
    assert "r1.jpg (its label file r1.txt is a pipe or device, not a file)" in err


def test_an_empty_file_or_text_named_like_a_photo_is_named_not_scored(tmp_path: Path, capsys) -> None:
    split = write_split(tmp_path, 2)
    (split / "images" / "empty.jpg").write_bytes(b"")
    (split / "images" / "notes.jpg").write_text("not a photo")
    result, err = scores(tmp_path, capsys)
    assert result["images"] == 2
    assert "empty.jpg (not a readable image)" in err and "notes.jpg (not a readable image)" in err
