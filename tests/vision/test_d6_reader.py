"""The d6 reader through cv2.dnn on rendered dice, bad frames, and (when present) the shared photo sets."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from vision.cli import main
from vision.d6_reader import D6Reader
from vision.dice_render import render_dice_scene, render_far_dice_scene
from vision.eval_dice import evaluate_folder
from vision.yolo_labels import LabelledDie, centre_inside, format_labels

EVAL_KEYS = {"read_accuracy", "precision", "recall", "image_accuracy", "ms_per_image", "images", "dice"}


def test_reads_rendered_dice(d6_reader) -> None:
    """Given the boxes every rendered die is read; finding them too is the weaker half (see docs/vision.md)."""
    rng = np.random.default_rng(11)
    found_right = total = 0
    for _ in range(6):
        img, boxes, values = render_dice_scene(rng, 640, 480, count=4, size_range=(40, 70))
        given = d6_reader.read_boxes(img, boxes)
        assert [g.value for g in given] == values
        found = Counter(r.value for r in d6_reader.read(img))
        found_right += sum((found & Counter(values)).values())
        total += len(values)
    assert found_right >= total * 0.4


def test_bad_frames_give_no_dice_not_errors(d6_reader) -> None:
    assert d6_reader.read(None) == []
    assert d6_reader.read(np.zeros((0, 0, 3), np.uint8)) == []
    grey = np.full((240, 320), 90, np.uint8)
    assert d6_reader.read(grey) == []
    deep = np.full((100, 130, 3), 30000, np.uint16)
    assert d6_reader.read(deep) == []
    assert d6_reader.read(np.full((5, 5, 4), 200, np.uint8)) == []
    assert d6_reader.read_boxes(grey, []) == []


def write_yolo_split(root: Path, count: int) -> None:
    rng = np.random.default_rng(5)
    (root / "valid" / "images").mkdir(parents=True)
    (root / "valid" / "labels").mkdir(parents=True)
    for i in range(count):
        img, boxes, values = render_dice_scene(rng, 640, 480, count=3, size_range=(45, 65))
        cv2.imwrite(str(root / "valid" / "images" / f"r{i}.jpg"), img)
        dice = [LabelledDie(v, b) for v, b in zip(values, boxes, strict=True)]
        (root / "valid" / "labels" / f"r{i}.txt").write_text(format_labels(dice, 640, 480) + "not a label line\n")
    (root / "valid" / "images" / "broken.jpg").write_bytes(b"\xff\xd8 broken")


def test_eval_dice_json_has_exactly_the_promised_keys(tmp_path: Path, capsys) -> None:
    write_yolo_split(tmp_path, 4)
    assert main(["vision", "eval-dice", str(tmp_path), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert set(result) == EVAL_KEYS
    assert result["images"] == 4 and result["dice"] == 12
    assert result["read_accuracy"] >= 0.9
    assert 0 <= result["precision"] <= 1 and 0 <= result["recall"] <= 1
    assert main(["vision", "eval-dice", str(tmp_path)]) == 0
    text = capsys.readouterr().out
    assert "read_accuracy" in text and "missed by face (missed/labelled)" in text
    assert "skipped 1 unreadable image file:" in text


def test_eval_dice_skips_label_lines_that_are_not_dice_and_says_which(tmp_path: Path, capsys) -> None:
    write_yolo_split(tmp_path, 2)
    label = sorted((tmp_path / "valid" / "labels").glob("*.txt"))[0]
    label.write_text(label.read_text() + "6 0.5 0.5 0.1 0.1\n0 0.5 0.5 2 2\nhalf a line\n\n")
    assert main(["vision", "eval-dice", str(tmp_path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["dice"] == 6
    assert main(["vision", "eval-dice", str(tmp_path)]) == 0
    text = capsys.readouterr().out
    assert "skipped 5 label lines that are not d6 dice" in text  # 1 more in each file: write_yolo_split's
    assert "class 6 is no d6 face" in text and "not inside the image" in text and "'half a line'" in text


def test_dice_labelled_by_their_outline_or_in_a_windows_file_are_counted(tmp_path: Path, capsys) -> None:
    """A set exported for segmentation labels each die by its outline's corners; those dice were skipped
    as "not d6 dice", so the reader was scored on none of them."""
    from vision.yolo_labels import parse_labels

    write_yolo_split(tmp_path, 2)
    assert main(["vision", "eval-dice", str(tmp_path), "--json"]) == 0
    as_boxes = json.loads(capsys.readouterr().out)
    for label in (tmp_path / "valid" / "labels").glob("*.txt"):
        lines = []
        for line in label.read_text().splitlines():
            parts = line.split()
            if len(parts) != 5:
                continue
            cls, cx, cy, w, h = parts[0], *map(float, parts[1:])
            # An eight-cornered outline whose extremes are the box's sides.
            corners = [(cx - w / 2, cy), (cx - w / 4, cy - h / 2), (cx + w / 4, cy - h / 2), (cx + w / 2, cy),
                       (cx + w / 4, cy + h / 2), (cx - w / 4, cy + h / 2), (cx - w / 2, cy + h / 4), (cx, cy + h / 2)]
            lines.append(cls + "".join(f" {x:.6f} {y:.6f}" for x, y in corners))
        label.write_text("\n".join(lines) + "\n")
    assert main(["vision", "eval-dice", str(tmp_path), "--json"]) == 0
    as_outlines = json.loads(capsys.readouterr().out)
    assert as_outlines["dice"] == as_boxes["dice"] == 6
    assert {key: as_outlines[key] for key in ("read_accuracy", "precision", "recall")} == {
        key: as_boxes[key] for key in ("read_accuracy", "precision", "recall")}
    # A label file saved by a Windows editor: a byte-order mark before its first line, CRLF line ends.
    assert [die.value for die in parse_labels("\ufeff0 0.5 0.5 0.1 0.1\r\n5 0.2 0.2 0.1 0.1\r\n", 100, 100)] == [1, 6]
    problems: list[str] = []
    assert parse_labels("2 0.1 0.1 0.2 0.1 0.2\n2 0.1 0.1 0.2 0.1 0.2 0.2 0.1\n", 100, 100, problems) == []
    assert len(problems) == 2 and "an outline's corners" in problems[0] and "an outline's corners" in problems[1]


def test_eval_dice_reads_images_in_subfolders_with_labels_mirrored(tmp_path: Path, capsys) -> None:
    """A set sorted into subfolders of images/ (labels/ mirroring them, as YOLO's loaders read it) was empty."""
    write_yolo_split(tmp_path, 2)
    split = tmp_path / "valid"
    for kind, suffix in (("images", ".jpg"), ("labels", ".txt")):
        (split / kind / "table-a").mkdir()
        for path in sorted((split / kind).glob(f"r*{suffix}")):
            path.rename(split / kind / "table-a" / path.name)
    assert not list((split / "images").glob("r*.jpg"))
    assert main(["vision", "eval-dice", str(tmp_path), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert (result["images"], result["dice"]) == (2, 6) and result["recall"] >= 0.8


def test_eval_dice_on_photos_of_an_empty_table_scores_no_share_of_nothing(tmp_path: Path, capsys) -> None:
    """Dice-free photos with empty label files scored precision, recall and read accuracy 0.0, as if the
    reader had failed every one of them; with nothing to count those shares are null."""
    (tmp_path / "valid" / "images").mkdir(parents=True)
    (tmp_path / "valid" / "labels").mkdir()
    for i in range(2):
        cv2.imwrite(str(tmp_path / "valid" / "images" / f"table{i}.jpg"), np.full((480, 640, 3), 90 + 60 * i, np.uint8))
        (tmp_path / "valid" / "labels" / f"table{i}.txt").write_text("")
    assert main(["vision", "eval-dice", str(tmp_path), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert set(result) == EVAL_KEYS
    assert (result["images"], result["dice"], result["image_accuracy"]) == (2, 0, 1.0)
    assert result["read_accuracy"] is None and result["precision"] is None and result["recall"] is None
    assert main(["vision", "eval-dice", str(tmp_path)]) == 0
    assert "precision       none to count" in capsys.readouterr().out


def test_eval_dice_scores_other_models_given_their_folder(tmp_path: Path, capsys) -> None:
    """A rebuild was to be measured "before installing it", but eval-dice could only score vision/models."""
    import shutil

    from vision.d6_reader import MODEL_DIR

    write_yolo_split(tmp_path / "set", 2)
    assert main(["vision", "eval-dice", str(tmp_path / "set"), "--json"]) == 0
    shipped = json.loads(capsys.readouterr().out)
    copy = tmp_path / "rebuilt"
    shutil.copytree(MODEL_DIR, copy)
    assert main(["vision", "eval-dice", str(tmp_path / "set"), "--json", "--models", str(copy)]) == 0
    rebuilt = json.loads(capsys.readouterr().out)
    assert {k: v for k, v in rebuilt.items() if k != "ms_per_image"} == {
        k: v for k, v in shipped.items() if k != "ms_per_image"}
    (copy / "d6_detector.onnx").write_bytes((MODEL_DIR / "d6_detector.onnx").read_bytes()[:1000])
    assert main(["vision", "eval-dice", str(tmp_path / "set"), "--models", str(copy)]) == 1
    assert "cannot load the d6 models in" in capsys.readouterr().err
    (copy / "d6_detector.onnx").unlink()
    assert main(["vision", "eval-dice", str(tmp_path / "set"), "--models", str(copy)]) == 1
    assert "d6_detector.onnx is missing" in capsys.readouterr().err
    assert main(["vision", "eval-dice", str(tmp_path / "set"), "--models", str(tmp_path / "nope")]) == 1
    assert "is not a folder" in capsys.readouterr().err


def test_eval_dice_refuses_empty_or_missing_folders(tmp_path: Path, capsys) -> None:
    assert main(["vision", "eval-dice", str(tmp_path)]) == 1
    assert "no images" in capsys.readouterr().err
    assert main(["vision", "eval-dice", str(tmp_path / "nope")]) == 1
    assert "not a folder" in capsys.readouterr().err


def test_real_photos_from_the_shared_sets(d6_reader, datasets: Path, tmp_path: Path) -> None:
    """A small, fixed slice of each valid split (the full numbers come from `vision eval-dice`)."""
    for name in ("d6-matteop65", "d6-roboflow"):
        split = datasets / name / "valid"
        sample = tmp_path / name
        (sample / "images").mkdir(parents=True)
        (sample / "labels").mkdir()
        for image in sorted((split / "images").iterdir())[:12]:
            (sample / "images" / image.name).symlink_to(image)
            label = split / "labels" / (image.stem + ".txt")
            (sample / "labels" / label.name).symlink_to(label)
        score = evaluate_folder(sample, d6_reader).summary()
        # The shipped models score 0.94 to 1.0 on these 12 images of each set; the floors sit below
        # that so they catch a broken model, decode or threshold, not the targets (`eval-dice` has those).
        assert score["read_accuracy"] >= 0.95, (name, score)
        assert score["recall"] >= 0.8, (name, score)
        assert score["precision"] >= 0.8, (name, score)


def test_single_read_mode_reads_the_same_boxes() -> None:
    fast = D6Reader(mirror_below=0.0)
    img, boxes, values = render_dice_scene(np.random.default_rng(21), 640, 480, count=3, size_range=(45, 65))
    assert [r.value for r in fast.read_boxes(img, boxes)] == values


def test_only_unsure_crops_are_read_a_second_time_mirrored(d6_reader, monkeypatch) -> None:
    """The mirrored pass costs a second network run, so it is spent only where the first was unsure."""
    img, boxes, _ = render_dice_scene(np.random.default_rng(21), 640, 480, count=3, size_range=(45, 65))
    batches: list[int] = []
    forward = d6_reader._forward

    def counting(net, crops):
        batches.append(len(crops))
        return forward(net, crops)

    monkeypatch.setattr(d6_reader, "_forward", counting)
    monkeypatch.setattr(d6_reader, "mirror_below", 1.01)
    d6_reader.classify(img, boxes)
    assert batches == [3, 3]
    batches.clear()
    monkeypatch.setattr(d6_reader, "mirror_below", 0.0)
    d6_reader.classify(img, boxes)
    assert batches == [3]


def test_eval_breakdown_says_why_dice_were_missed() -> None:
    """The plain-text report separates wrong values, differently drawn boxes, misses and unlabelled images."""
    from vision.eval_dice import DiceScore, match, tally_asks, tally_misses, values_in_common
    from vision.readings import DieReading
    from vision.yolo_labels import LabelledDie

    labelled = [
        LabelledDie(1, (0, 0, 10, 10)),  # pip-only box inside a found die's box: boxed differently
        LabelledDie(2, (100, 0, 140, 40)),  # found right
        LabelledDie(3, (200, 0, 240, 40)),  # found with the wrong value
        LabelledDie(4, (300, 0, 340, 40)),  # not found at all
    ]
    found = [
        DieReading(1, None, 0.9, (-10, -10, 20, 20)),
        DieReading(2, None, 0.9, (101, 1, 141, 41)),
        DieReading(5, None, 0.5, (199, 0, 239, 40)),
    ]
    score = DiceScore(dice=4)
    matched = match(found, labelled)
    score.found_right = sum(found[i].value == labelled[j].value for i, j in matched)
    tally_misses(score, found, labelled, matched)
    tally_asks(score, found, labelled, matched)
    score.values_in_common = values_in_common(found, labelled)
    score.detections = 3
    tally_misses(score, found[:2], [], [])  # an image whose label file is empty
    assert score.found_right == 1
    assert (score.wrong_value, score.box_off, score.unlabelled_image_detections) == (1, 1, 2)
    assert score.missed_by_value == {1: 1, 3: 1, 4: 1}
    text = "\n".join(score.breakdown())
    assert "1: 1/1, 2: 0/1, 3: 1/1, 4: 1/1" in text
    assert "1 found with the wrong value, 1 found but boxed differently" in text and "1 not found" in text
    assert "2 detections are in images whose label file lists no die" in text
    # Boxes aside, the 1 and the 2 were read: the die boxed differently counts, the misread 5 does not.
    assert "values alone, boxes aside: precision 0.6667, recall 0.5000" in text
    # The unsure misread waits for a tap; the sure right die and the sure die boxed differently do not.
    assert ("ask for a tap (confidence under 0.8) on 0 of 1 read right, 1 of 1 read wrong, 0 of 1 matching no "
            "labelled die; 0 read wrong would be applied unasked") in text
    score.detections = 3 + 2
    text = "\n".join(score.breakdown())
    assert "precision over the other images: 0.3333" in text  # 1 right of the 3 found where labels are
    assert "scores precision 0.6667 at most" in text  # 4 labelled dice, 2 more in the unlabelled image


def close_die(seed: int) -> tuple[np.ndarray, int]:
    """One die 170-230 px across in a 640x480 frame: held close to the camera, far past a tray's 20-70 px."""
    img, _, values = render_dice_scene(np.random.default_rng(seed), 640, 480, count=1, size_range=(170, 230))
    return img, values[0]


def test_a_die_close_to_the_camera_is_read_as_one_die(d6_reader) -> None:
    """The 320 px look alone finds such a die's pips as dice of their own (1 of these 12 read right)."""
    right = 0
    for seed in range(12):
        img, value = close_die(seed)
        right += [r.value for r in d6_reader.read(img)] == [value]
    assert right >= 11


def enlarged_die(rng: np.random.Generator, zoom: int, slanted: bool) -> tuple[np.ndarray, int]:
    """A tray die of 30-45 px in a window 1/zoom of the frame, enlarged back to 640x480: soft, big, sides showing."""
    from vision.oblique_dice_render import render_oblique_scene

    if slanted:
        img, boxes, values = render_oblique_scene(rng, count=1, die_px=(30, 45), elevation=(55, 85))
    else:
        img, boxes, values = render_dice_scene(rng, 640, 480, count=1, size_range=(30, 45))
    x0, y0, x1, y1 = boxes[0]
    w, h = 640 / zoom, 480 / zoom
    left = min(max(0.0, (x0 + x1 - w) / 2), 640 - w)
    top = min(max(0.0, (y0 + y1 - h) / 2), 480 - h)
    window = img[round(top):round(top + h), round(left):round(left + w)]
    return cv2.resize(window, (640, 480), interpolation=cv2.INTER_CUBIC), values[0]


def test_a_close_die_boxed_by_its_top_face_is_still_one_die(d6_reader) -> None:
    """The near look boxes a close die by its top face, a fifth of the frame where the die is a quarter.

    While it kept only boxes of a quarter of the frame, these three came back as
    nothing or with a pip read as a die of its own (the near box 0.21-0.25 of
    the long side); byler's dice enlarged 3 and 5 times gained 1 and 6 values.
    """
    cases = [(4, True, 2), (4, False, 31), (5, False, 27)]  # zoom, slanted, which scene of the seed
    for zoom, slanted, index in cases:
        rng = np.random.default_rng(60 + zoom)
        for _ in range(index):
            enlarged_die(rng, zoom, slanted)
        img, value = enlarged_die(rng, zoom, slanted)
        near = d6_reader.detect_near(img)
        assert [0.17 <= (box[2] - box[0]) / 640 < 0.25 for box, _ in near] == [True], (zoom, slanted, index)
        assert [r.value for r in d6_reader.read(img)] == [value], (zoom, slanted, index)


def count_calls(monkeypatch, reader, method: str) -> list[int]:
    """A list that grows by one each time the reader calls `method` (one of its extra looks)."""
    calls: list[int] = []
    look = getattr(reader, method)

    def counting(frame, *more):
        calls.append(1)
        return look(frame, *more)

    monkeypatch.setattr(reader, method, counting)
    return calls


def test_the_near_look_is_spent_only_when_the_fine_look_hints_at_a_close_die(d6_reader, monkeypatch) -> None:
    calls = count_calls(monkeypatch, d6_reader, "detect_near")
    tray = render_dice_scene(np.random.default_rng(21), 640, 480, count=3, size_range=(45, 65))
    assert 1 not in tray[2]  # a one alone among other dice would not call it either
    d6_reader.read(tray[0])
    assert calls == []
    d6_reader.read(close_die(2)[0])
    assert calls == [1]


def test_dice_far_from_the_camera_are_all_found(d6_reader) -> None:
    """The 320 px look alone finds 64 of these 80 dice right; the 640 px look it calls in finds them all."""
    rng = np.random.default_rng(6)
    right = total = 0
    for _ in range(10):
        img, values = render_far_dice_scene(rng)
        found = Counter(r.value for r in d6_reader.read(img))
        right += sum((found & Counter(values)).values())
        total += len(values)
    assert right >= 0.95 * total, (right, total)


def test_a_lone_die_far_from_the_camera_is_looked_for_at_640_px(d6_reader) -> None:
    """The games roll one die at a time. Alone and far, it often scores under the detector's threshold at
    320 px, so no die was found to call the far look: 18 of these 30 were read, the rest came back as no die."""
    rng = np.random.default_rng(101)
    right = sum([r.value for r in d6_reader.read(image)] == values
                for image, values in (render_far_dice_scene(rng, count=1, tray=True) for _ in range(30)))
    assert right >= 21, right


def test_the_far_look_is_spent_only_on_small_dice(d6_reader, monkeypatch) -> None:
    calls = count_calls(monkeypatch, d6_reader, "detect_far")
    d6_reader.read(render_dice_scene(np.random.default_rng(21), 640, 480, count=3, size_range=(45, 65))[0])
    d6_reader.read(np.full((480, 640, 3), 120, np.uint8))  # an empty tray
    assert calls == []
    d6_reader.read(render_far_dice_scene(np.random.default_rng(7))[0])
    assert calls == [1]


class RecordingNet:
    """Stands in for a cv2.dnn net and keeps the shape of each input it is given."""

    def __init__(self, net) -> None:
        self.net, self.shapes = net, []

    def setInput(self, blob) -> None:  # noqa: N802 - cv2.dnn's name
        self.shapes.append(blob.shape)
        self.net.setInput(blob)

    def forward(self):
        return self.net.forward()


def test_a_far_camera_looks_again_only_at_the_tray(d6_reader, monkeypatch) -> None:
    """The 640 px look costs what its area costs: over a tray a third of the frame across it looks at the
    tray's surroundings, not the whole table, and still finds every die."""
    rng = np.random.default_rng(8)
    for _ in range(4):
        img, values = render_far_dice_scene(rng, tray=True)
        net = RecordingNet(d6_reader.far_detector)
        monkeypatch.setattr(d6_reader, "far_detector", net)
        found = [r.value for r in d6_reader.read(img)]
        monkeypatch.undo()
        assert len(net.shapes) == 1 and net.shapes[0][2] * net.shapes[0][3] < 0.75 * 640 * 480, net.shapes
        assert sorted(found) == sorted(values), (found, values)
    # Strewn over the whole frame, the dice are all looked at again.
    net = RecordingNet(d6_reader.far_detector)
    monkeypatch.setattr(d6_reader, "far_detector", net)
    d6_reader.read(render_far_dice_scene(np.random.default_rng(7))[0])
    assert net.shapes[0][2:] == (480, 640)


def test_game_pieces_are_not_dice(d6_reader) -> None:
    """A camera over the table also sees boards, markers and pawns; a phantom die there becomes a phantom roll.

    The reader once found 139 dice on 60 such dice-free photos (markers and the
    board's glyphs look like pip faces at 30 px).
    """
    from vision.board_photos import board_photo
    from vision.card_catalogue import load_temple_board, load_temple_cards

    cards, board = load_temple_cards(), load_temple_board()
    rng = np.random.default_rng(5)
    phantoms = [len(d6_reader.read(board_photo(rng, cards, board).image)) for _ in range(20)]
    assert sum(phantoms) <= 2, phantoms


def test_a_granite_table_is_no_heap_of_dice(d6_reader) -> None:
    """Grains of a speckled table cluster like pips at a die's size.

    Trained on plain trays only, the reader found about eleven dice among the
    grains of every such frame; the dice themselves must still be found and
    read. Counted as the table needs it: a die found inside a die's box with
    its value is right, one found where no die lies is a phantom.
    """
    rng = np.random.default_rng(1005)  # the training scenes are drawn from other seeds
    right = phantoms = dice = 0
    for _ in range(15):
        image, boxes, values = render_dice_scene(rng, 640, 480, size_range=(24, 70), speckled=True)
        dice += len(values)
        for found in d6_reader.read(image):
            under = [value for box, value in zip(boxes, values, strict=True) if centre_inside(found.box, box)]
            phantoms += not under
            right += found.value in under
    assert phantoms <= 3, phantoms
    assert right >= 0.85 * dice, (right, dice)


def right_and_phantoms(reader: D6Reader, scenes: list) -> tuple[int, int]:
    """Dice of rendered scenes read right, and dice found where none lies."""
    right = phantoms = 0
    for image, boxes, values in scenes:
        for found in reader.read(image):
            under = [value for box, value in zip(boxes, values, strict=True) if centre_inside(found.box, box)]
            right += found.value in under
            phantoms += not under
    return right, phantoms


def test_dice_seen_at_a_slant_are_found_and_read(d6_reader) -> None:
    """A phone photo or a leaning camera sees dice as cubes, side faces and heaps included.

    The shipped nets read 99 of the 107 dice of these 20 scenes with no
    phantom; the bar leaves room for a retrained pair a few dice either way.
    """
    from vision.oblique_dice_render import render_oblique_scene

    rng = np.random.default_rng(31)  # tools/train_dice.py --oblique draws other seeds
    scenes = [render_oblique_scene(rng) for _ in range(20)]
    dice = sum(len(values) for _, _, values in scenes)
    right, phantoms = right_and_phantoms(d6_reader, scenes)
    assert right >= 0.82 * dice, (right, dice)
    assert phantoms <= 2, phantoms


def test_dice_seen_from_low_down_are_read_again_by_the_low_view_nets(d6_reader, tmp_path: Path) -> None:
    """From 20-35 degrees above the table the classifier reads the side turned to the camera instead of the top.

    Of these scenes' 78 dice, the two nets alone (a model folder without the
    low-view ones) read 42 right; with the low-view classifier 51, and with
    the low-view detector as well 56. A lone die, as the games here roll it:
    11 of 20 alone, 17 with the low-view nets.
    """
    from vision.d6_reader import CLASSIFIER_FILE, DETECTOR_FILE, LOW_CLASSIFIER_FILE, MODEL_DIR, SETTINGS_FILE
    from vision.oblique_dice_render import render_oblique_scene

    def reader_of(*names: str) -> D6Reader:
        folder = tmp_path / "-".join(("models", *names))
        folder.mkdir()
        for name in (DETECTOR_FILE, CLASSIFIER_FILE, SETTINGS_FILE, *names):
            shutil.copy(MODEL_DIR / name, folder / name)
        return D6Reader(folder)

    pair, classifier_only = reader_of(), reader_of(LOW_CLASSIFIER_FILE)
    assert pair.low_classifier is None and classifier_only.low_detector is None
    assert d6_reader.low_classifier is not None and d6_reader.low_detector is not None
    rng = np.random.default_rng(99)  # tools/train_dice.py --oblique draws other seeds
    scenes = [render_oblique_scene(rng, elevation=(20, 35)) for _ in range(12)]
    alone, with_classifier, with_both = (right_and_phantoms(r, scenes) for r in (pair, classifier_only, d6_reader))
    assert with_classifier[0] >= alone[0] + 5, (alone, with_classifier)
    assert with_both[0] >= with_classifier[0] + 3, (with_classifier, with_both)
    assert with_both[1] <= 1, with_both
    rng = np.random.default_rng(42)
    scenes = [render_oblique_scene(rng, count=1, elevation=(20, 35)) for _ in range(20)]
    alone, with_both = right_and_phantoms(pair, scenes), right_and_phantoms(d6_reader, scenes)
    assert with_both[0] >= alone[0] + 4 and with_both[1] == 0, (alone, with_both)


def test_an_unsure_die_in_a_frame_that_is_no_low_view_takes_the_low_view_classifiers_sure_answer(
        d6_reader, monkeypatch) -> None:
    """From 20-35 degrees up, many frames have too few unsure dice to count as a low view, and their few unsure
    dice are side faces misread. Of these 24 scenes' 156 dice the reader finds 99 right without asking the
    low-view classifier about its unsure dice one by one, 104 asking it."""
    from vision.oblique_dice_render import render_oblique_scene

    rng = np.random.default_rng(62)  # tools/train_dice.py --oblique draws other seeds
    scenes = [render_oblique_scene(rng, elevation=(20, 35)) for _ in range(24)]
    asking = right_and_phantoms(d6_reader, scenes)
    monkeypatch.setattr(d6_reader, "_second_opinions", lambda frame, boxes, probs, asked=None: probs)
    alone = right_and_phantoms(d6_reader, scenes)
    assert asking[0] >= alone[0] + 3 and asking[1] <= alone[1], (alone, asking)


def test_the_low_view_classifier_is_asked_about_each_die_once_a_read(d6_reader, monkeypatch) -> None:
    """Many unsure dice make the reader ask the low-view classifier about all of a frame's dice; when the frame is
    no low view after all, its unsure dice's second opinions come from those answers, not from asking again.

    Asking again cost a squeezed photo (`vision bench`'s six dice) 6 more crops, about 3 ms of its 22, for the
    same reading to the bit (a crop's answer does not hang on the others in its batch).
    """
    wide = render_dice_scene(np.random.default_rng(13), 1280, 480, count=6, size_range=(70, 90))[0]
    squeezed = cv2.resize(wide, (640, 480), interpolation=cv2.INTER_AREA)
    asked: Counter = Counter()
    classify = d6_reader.classify

    def counting(frame, boxes, net=None):
        if net is d6_reader.low_classifier:
            asked.update(tuple(box) for box in boxes)
        return classify(frame, boxes, net)

    monkeypatch.setattr(d6_reader, "classify", counting)
    readings = d6_reader.read(squeezed)
    assert asked and max(asked.values()) == 1, asked
    again = D6Reader._second_opinions  # asking the net again about the unsure dice, as it did before

    def asking_again(frame, boxes, probs, asked=None):
        return again(d6_reader, frame, boxes, probs)

    monkeypatch.setattr(d6_reader, "_second_opinions", asking_again)
    assert d6_reader.read(squeezed) == readings


def test_a_tray_roll_seen_from_above_never_asks_the_low_view_classifier(d6_reader, monkeypatch) -> None:
    """The low-view classifier misreads marbled dice seen from above, and costs a second pass: a clear roll skips it."""
    asked: list[bool] = []
    forward = d6_reader._forward

    def counting(net, crops):
        asked.append(net is d6_reader.low_classifier)
        return forward(net, crops)

    monkeypatch.setattr(d6_reader, "_forward", counting)
    rng = np.random.default_rng(23)
    for _ in range(10):
        img, _, values = render_dice_scene(rng, 640, 480, count=int(rng.integers(3, 9)), size_range=(35, 60))
        assert sorted(r.value for r in d6_reader.read(img)) == sorted(values)
    assert asked and not any(asked)


def squeezed_scenes(seed: int, fx: float, fy: float, scenes: int = 8) -> list:
    """Tray rolls shrunk along one axis, as photo sets squeeze phone photos into squares (boxes shrunk with them)."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(scenes):
        img, boxes, values = render_dice_scene(rng, 640, 480, count=int(rng.integers(3, 8)), size_range=(40, 70))
        small = cv2.resize(img, (round(640 * fx), round(480 * fy)), interpolation=cv2.INTER_AREA)
        out.append((small, [(b[0] * fx, b[1] * fy, b[2] * fx, b[3] * fy) for b in boxes], values))
    return out


def test_a_photo_squeezed_to_half_its_width_is_stretched_back_and_read(d6_reader, monkeypatch) -> None:
    """Squeezed to half their width, dice are read as shapes the nets never learnt; stretched back, every one is right.

    Not stretching (a squeeze needs more dice than any frame has), 32 of these
    40 dice are found and read right; stretched back, all 40. Given their
    boxes, five of these six rolls have a die misread unstretched.
    """
    import vision.d6_reader as d6

    scenes = squeezed_scenes(5, 0.5, 1.0)

    def right() -> int:
        return sum(
            any(centre_inside(found.box, box) and found.value == value for found in d6_reader.read(img))
            for img, boxes, values in scenes for box, value in zip(boxes, values, strict=True)
        )

    stretching = right()
    monkeypatch.setattr(d6, "SQUEEZED_DICE", 1000)
    assert right() < stretching == sum(len(values) for _, _, values in scenes)
    monkeypatch.undo()
    # Given their boxes, too, as eval-dice's read_accuracy gives them; boxes in the squeezed frame's pixels.
    for img, boxes, values in squeezed_scenes(7, 0.5, 1.0, scenes=6):
        given = d6_reader.read_boxes(img, boxes)
        assert [g.value for g in given] == values and [g.box for g in given] == boxes


def test_a_squeeze_is_measured_on_three_dice_or_more_that_all_lean_one_way() -> None:
    from vision.d6_reader import unsqueeze_found, unsqueeze_given

    tall, square = (0, 0, 10, 20), (0, 0, 10, 11)
    assert unsqueeze_given([tall, tall]) is None  # two dice may both stand on a side face to the camera
    assert unsqueeze_given([tall, tall, square]) == (2.0, 1.0)
    assert unsqueeze_given([(0, 0, 20, 10)] * 3) == (1.0, 2.0)
    assert unsqueeze_given([square, square, tall]) is None
    assert unsqueeze_given([(0, 0, 10, 60)] * 4) == (2.5, 1.0)  # a long strip is no die: stretched no further
    assert unsqueeze_given([(0, 0, 10, 12)] * 3) is None
    # The detector boxes a squeezed die rounder than it is: a slighter lean is tried, and squared.
    frame = (120, 160, 3)  # dice a twelfth of the frame across: not small enough for the far look
    assert unsqueeze_found([(0, 0, 10, 12)] * 3, frame) == (1.44, 1.0)
    assert unsqueeze_found([(0, 0, 12, 10)] * 3, frame) == (1.0, 1.44)
    assert unsqueeze_found([(0, 0, 10, 14)] * 3, frame) == (1.7, 1.0)  # 1.96 would over-stretch what is only a slant
    assert unsqueeze_found([tall] * 3, frame) == (2.0, 1.0)
    assert unsqueeze_found([(0, 0, 10, 11)] * 3, frame) is None
    assert unsqueeze_found([tall] * 3, (480, 640, 3)) is None  # 20 px in 640: too coarse to tell


def test_a_tray_roll_keeps_its_reading_when_a_stretch_is_tried(d6_reader, monkeypatch) -> None:
    """Dice seen from above or at a slant box near square; the few frames that try a stretch read it no better.

    A try costs a second read: 1 frame of these 20 makes one (13 of 200 top-down rolls, none read otherwise).
    """
    import vision.d6_reader as d6
    from vision.oblique_dice_render import render_oblique_scene

    stretches: list[tuple[float, float]] = []
    real = d6.stretched
    monkeypatch.setattr(d6, "stretched", lambda frame, factors: stretches.append(factors) or real(frame, factors))
    rng = np.random.default_rng(23)
    for _ in range(10):
        for frame in (render_dice_scene(rng, 640, 480, count=int(rng.integers(3, 9)), size_range=(35, 60))[0],
                      render_oblique_scene(rng)[0]):
            assert d6_reader.read(frame) == sorted(d6_reader._read_as_it_is(frame), key=lambda r: (r.box[0], r.box[1]))
    assert len(stretches) <= 2


def test_eval_dice_skips_an_image_too_small_to_read_and_names_it(tmp_path: Path, capsys) -> None:
    """A 1 px image with a label line stopped the whole run with a zip() traceback."""
    write_yolo_split(tmp_path, 2)
    cv2.imwrite(str(tmp_path / "valid" / "images" / "dot.png"), np.zeros((1, 1, 3), np.uint8))
    (tmp_path / "valid" / "labels" / "dot.txt").write_text("0 0.5 0.5 0.5 0.5\n")
    cv2.imwrite(str(tmp_path / "valid" / "images" / "strip.png"), np.zeros((3, 500), np.uint8))
    (tmp_path / "valid" / "labels" / "strip.txt").write_text("2 0.5 0.5 0.1 0.9\n")
    assert main(["vision", "eval-dice", str(tmp_path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["images"] == 2
    assert main(["vision", "eval-dice", str(tmp_path)]) == 0
    assert ("skipped 3 unreadable image files: broken.jpg (not a readable image), dot.png (1x1 px, too small), "
            "strip.png (500x3 px, too small)") in capsys.readouterr().out


def test_eval_dice_refuses_a_set_with_no_labels_or_no_readable_image(tmp_path: Path, capsys) -> None:
    """Both were scored as 0.0 with exit status 0, which reads as a reader that finds nothing."""
    write_yolo_split(tmp_path, 2)
    for label in (tmp_path / "valid" / "labels").iterdir():
        label.unlink()
    (tmp_path / "valid" / "labels").rmdir()
    assert main(["vision", "eval-dice", str(tmp_path), "--json"]) == 1
    captured = capsys.readouterr()
    assert "none of the 3 images under" in captured.err and "has a label file" in captured.err and not captured.out

    broken = tmp_path / "broken"
    (broken / "images").mkdir(parents=True)
    (broken / "labels").mkdir()
    (broken / "images" / "a.jpg").write_bytes(b"")
    (broken / "labels" / "a.txt").write_text("0 0.5 0.5 0.2 0.2\n")
    assert main(["vision", "eval-dice", str(broken), "--json"]) == 1
    captured = capsys.readouterr()
    assert "none of the 1 image files under" in captured.err and "a.jpg (not a readable image)" in captured.err
    assert not captured.out


def test_eval_dice_says_how_many_images_have_no_label_file(tmp_path: Path, capsys) -> None:
    write_yolo_split(tmp_path, 3)
    sorted((tmp_path / "valid" / "labels").iterdir())[0].unlink()
    assert main(["vision", "eval-dice", str(tmp_path)]) == 0
    assert "1 images have no label file (scored as showing no die)" in capsys.readouterr().out
