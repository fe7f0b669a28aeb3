"""The d6 reader given boxes no die can fill, absurd sizes and broken model folders: refused by name, never a crash."""

from __future__ import annotations

import math
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.cli import main
from vision.d6_reader import MODEL_DIR, BoxRefused, D6Reader, ModelMissing, ModelUnusable
from vision.dice_render import render_dice_scene


@pytest.fixture(scope="module")
def scene() -> tuple[np.ndarray, list, list[int]]:
    img, boxes, values = render_dice_scene(np.random.default_rng(7), 640, 480, count=4, size_range=(45, 65))
    return img, boxes, values


@pytest.mark.parametrize(("boxes", "why"), [
    ([(10, 10, 60, 10)] * 3, "no width or no height"),  # divided by zero measuring the squeeze
    ([(10, 60, 60, 10)] * 3, "no width or no height"),  # a negative stretch crashed cv2.resize
    ([(60, 10, 10, 60)] * 3, "no width or no height"),  # stretched the frame 2.5 times to read them
    ([(math.nan, 10, 60, 60)], "not a finite number"),
    ([(math.inf, 10, 60, 60)], "not a finite number"),
    ([(10, 10, 60)], "not 4 numbers"),
    ([(10, 10, 60, 60, 5)], "not 4 numbers"),
    ([None], "box None is not 4 numbers"),
    ([(-90, -90, -40, -40)], "wholly outside the 640x480 frame"),
    ([(700, 10, 760, 60)], "wholly outside the 640x480 frame"),
    (None, "not a list of (x0, y0, x1, y1) boxes"),
])
def test_boxes_no_die_can_fill_are_refused_by_name(d6_reader, scene, boxes, why: str) -> None:
    img = scene[0]
    with pytest.raises(BoxRefused, match=re.escape(why)) as refused:
        d6_reader.read_boxes(img, boxes)
    assert isinstance(refused.value, ValueError) and "\n" not in str(refused.value)


def test_one_bad_box_among_good_ones_is_named_and_nothing_is_read(d6_reader, scene, monkeypatch) -> None:
    img, boxes, _ = scene
    calls = []
    monkeypatch.setattr(d6_reader, "classify", lambda *a, **k: calls.append(a))
    with pytest.raises(BoxRefused, match=r"box \(200, 200, 150, 250\) has no width"):
        d6_reader.read_boxes(img, [*boxes, (200, 200, 150, 250)])
    assert calls == []


def test_boxes_as_a_numpy_array_or_numpy_numbers_are_read(d6_reader, scene) -> None:
    """An N x 4 array stopped read_boxes with "the truth value of an array is ambiguous"."""
    img, boxes, values = scene
    as_array = d6_reader.read_boxes(img, np.array(boxes, np.float32))
    assert [r.value for r in as_array] == values
    scalars = [tuple(np.int64(round(v)) for v in box) for box in boxes]
    assert [r.value for r in d6_reader.read_boxes(img, scalars)] == values
    assert d6_reader.read_boxes(img, np.zeros((0, 4))) == []


def test_a_box_far_bigger_than_the_frame_costs_what_the_frame_costs(d6_reader, scene) -> None:
    """A 40000 px box took 46 s and 7 GB: the crop padded the whole square before shrinking it."""
    # First the crop alone, in a process allowed 400 MB more than it holds: the padded square alone needs 7.5 GB.
    script = (
        "import resource, numpy as np\n"
        "from vision.die_crops import crop_die\n"
        "size = int(open('/proc/self/status').read().split('VmSize:')[1].split()[0]) * 1024 + 400 * 2**20\n"
        "resource.setrlimit(resource.RLIMIT_AS, (size, size))\n"
        "crop = crop_die(np.full((480, 640, 3), 90, np.uint8), (0, 0, 40000, 40000), 48)\n"
        "assert crop.shape == (48, 48, 3) and crop.mean() == 90, crop.mean()\n"
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=Path(__file__).resolve().parents[2],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-500:]
    img = scene[0]  # then the whole reading, with boxes as big as floats go
    start = time.perf_counter()
    for box in [(0, 0, 40000, 40000), (0, 0, 1e300, 1e300), (-1e9, -1e9, 1e9, 1e9)]:
        assert len(d6_reader.read_boxes(img, [box])) == 1
    assert time.perf_counter() - start < 2


def test_the_far_look_round_boxes_that_mark_no_place_looks_nowhere(d6_reader, scene) -> None:
    """A NaN, infinite, inverted or off-frame `around` crashed on_grid or net.forward on an empty crop."""
    img, boxes, _ = scene
    for around in ([(math.nan, 0, 40, 40)], [(math.inf, 0, 40, 40)], [(300, 300, 200, 200)],
                   [(5000, 5000, 5040, 5040)], [("a", "b")], []):
        assert d6_reader.detect_far(img, around) == []
    good = list(boxes[:2])
    assert d6_reader.detect_far(img, [*good, (math.nan, 0, 1, 1)]) == d6_reader.detect_far(img, good)
    assert d6_reader.detect_far(img, np.array(good)) == d6_reader.detect_far(img, good)


@pytest.mark.parametrize("sizes", [{"long_side": 0}, {"long_side": -320}, {"long_side": 320.5},
                                   {"near_side": -1}, {"far_side": -640}])
def test_a_look_of_no_size_is_refused_when_the_reader_is_made(sizes: dict) -> None:
    """D6Reader(long_side=0) was made, then divided by zero on its first frame."""
    with pytest.raises(ValueError, match=next(iter(sizes))):
        D6Reader(**sizes)


@pytest.fixture
def models(tmp_path: Path) -> Path:
    copy = tmp_path / "models"
    shutil.copytree(MODEL_DIR, copy)
    return copy


@pytest.mark.parametrize(("settings", "why"), [
    ("{crop_size: 48", "is not JSON"),
    ("[]", "is not a JSON object"),
    ('{"crop_size": "big"}', "crop_size 'big'"),
    ('{"crop_size": 0}', "crop_size 0"),
    ('{"crop_size": -5}', "crop_size -5"),
    ('{"crop_size": 48.5}', "crop_size 48.5"),
    ('{"crop_size": 48, "crop_margin": NaN}', "crop_margin nan"),
    ('{"crop_size": 48, "crop_margin": -1}', "crop_margin -1"),
])
def test_a_broken_settings_file_is_named_when_the_models_load(models: Path, settings: str, why: str) -> None:
    (models / "d6_models.json").write_text(settings)
    with pytest.raises(ModelUnusable, match=re.escape(why)) as refused:
        D6Reader(models)
    assert str(refused.value).startswith(f"cannot load the d6 models in {models}: ")
    assert isinstance(refused.value, ModelMissing)  # every caller coping with missing models copes with this


def test_a_detector_and_classifier_swapped_are_named_at_load(models: Path) -> None:
    """Swapped, they loaded and failed at the first frame with cv2's "Overload resolution failed"."""
    detector, classifier = (models / "d6_detector.onnx").read_bytes(), (models / "d6_classifier.onnx").read_bytes()
    (models / "d6_detector.onnx").write_bytes(classifier)
    (models / "d6_classifier.onnx").write_bytes(detector)
    with pytest.raises(ModelUnusable, match=re.escape("d6_detector.onnx does not give the detector's 5 maps")):
        D6Reader(models)
    (models / "d6_detector.onnx").write_bytes(detector)
    with pytest.raises(ModelUnusable, match=re.escape("d6_classifier.onnx does not give 7 class values")):
        D6Reader(models)
    (models / "d6_classifier.onnx").write_bytes(classifier)
    (models / "d6_low_detector.onnx").write_bytes(classifier)
    with pytest.raises(ModelUnusable, match=re.escape("d6_low_detector.onnx does not give")):
        D6Reader(models)


def test_eval_dice_says_why_the_models_cannot_be_loaded(models: Path, tmp_path: Path, capsys) -> None:
    """A settings file cut short stopped eval-dice with a JSONDecodeError traceback."""
    img = render_dice_scene(np.random.default_rng(3), 640, 480, count=2, size_range=(45, 65))[0]
    (tmp_path / "set" / "images").mkdir(parents=True)
    (tmp_path / "set" / "labels").mkdir()
    cv2.imwrite(str(tmp_path / "set" / "images" / "a.jpg"), img)
    (tmp_path / "set" / "labels" / "a.txt").write_text("0 0.5 0.5 0.1 0.1\n")
    (models / "d6_models.json").write_text("{crop_size: 48")
    assert main(["vision", "eval-dice", str(tmp_path / "set"), "--models", str(models)]) == 1
    captured = capsys.readouterr()
    assert captured.err.startswith(f"vision: cannot load the d6 models in {models}: d6_models.json is not JSON")
    assert len(captured.err.strip().splitlines()) == 1 and not captured.out
