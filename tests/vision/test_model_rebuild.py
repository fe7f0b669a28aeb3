"""The d6 models' rebuild recipe (tools/rebuild_d6_models.py) checked without PyTorch.

The training runs themselves need the training venv, so these tests check what
can go wrong before hours of training do: a step that names another that is
not made before it, an option train_dice.py does not take, the miner folder a
classifier step mines its hard negatives with, and the dry run a user starts
with.
"""

from __future__ import annotations

import ast
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

from vision.d6_reader import (
    CLASSIFIER_FILE,
    DETECTOR_FILE,
    LOW_CLASSIFIER_FILE,
    LOW_DETECTOR_FILE,
    SETTINGS_FILE,
)

TOOLS = Path(__file__).resolve().parents[2] / "tools"


def load_tool():
    spec = importlib.util.spec_from_file_location("rebuild_d6_models", TOOLS / "rebuild_d6_models.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is made
    spec.loader.exec_module(module)
    return module


rebuild = load_tool()


def train_dice_options() -> set[str]:
    """The flags train_dice.py's parser declares, read from its source (importing it needs PyTorch)."""
    tree = ast.parse((TOOLS / "train_dice.py").read_text())
    return {node.args[0].value for node in ast.walk(tree)
            if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "add_argument"
            and node.args and isinstance(node.args[0], ast.Constant) and str(node.args[0].value).startswith("--")}


def test_the_shipped_recipe_makes_each_step_from_steps_before_it():
    assert rebuild.check_recipe() == []
    assert {step.name for step in rebuild.RECIPE} >= {name for _, name in rebuild.FINAL.values()}


def test_a_broken_recipe_is_refused_with_the_step_to_mend():
    train, average = rebuild.Train, rebuild.Average
    recipe = (
        train("det", "detector", 10),
        train("cls", "classifier", 10, start="det"),  # a classifier cannot start from a detector
        average("mix", "detector", "det", "later", 0.5),  # "later" is made after it
        train("later", "detector", 10),
        train("det", "detector", 10),
    )
    problems = rebuild.check_recipe(recipe)
    assert "cls uses det, which is not a classifier made before it" in problems
    assert "mix uses later, which is not a detector made before it" in problems
    assert "det is made twice" in problems
    assert any("final classifier" in problem for problem in problems)


def test_every_option_of_the_recipe_is_one_train_dice_takes(tmp_path):
    known = train_dice_options()
    assert {"--init-detector", "--hard-negatives", "--whole-die-sizes"} <= known  # the source was read
    for step in rebuild.RECIPE:
        cmd = rebuild.command(step, tmp_path, tmp_path / "datasets", 1.0, 2)
        if isinstance(step, rebuild.Average):
            assert cmd[1].endswith("average_models.py") and 0 < step.share < 1
            continue
        flags = {word for word in cmd[2:] if word.startswith("--")}
        assert flags <= known, f"{step.name}: {sorted(flags - known)}"


def test_a_scaled_run_keeps_each_run_short_but_real(tmp_path):
    first = rebuild.RECIPE[0]
    cmd = rebuild.command(first, tmp_path, tmp_path, 0.005, 1)
    assert cmd[cmd.index("--det-steps") + 1] == str(round(first.steps * 0.005))
    assert cmd[cmd.index("--det-steps") + 1] != str(first.steps)
    tiny = rebuild.command(first, tmp_path, tmp_path, 1e-6, 1)
    assert tiny[tiny.index("--det-steps") + 1] == "2"


def test_a_classifier_step_mines_with_its_detector_and_its_own_classifier(tmp_path):
    """The miner is a reader folder: the named detector, and the classifier the step starts from with its crop size."""
    for name, file, text in (("det-long", "d6_detector.onnx", "detector"),
                             ("cls-40-more", "d6_classifier.onnx", "classifier at 40"),
                             ("cls-40-more", "d6_models.json", '{"crop_size": 40}')):
        (tmp_path / name).mkdir(exist_ok=True)
        (tmp_path / name / file).write_text(text)
    step = next(s for s in rebuild.RECIPE if s.name == "cls-48")
    rebuild.prepare(step, tmp_path, made_classifier="cls-40-more")
    miner = tmp_path / "cls-48-miner"
    assert (miner / "d6_detector.onnx").read_text() == "detector"
    assert (miner / "d6_classifier.onnx").read_text() == "classifier at 40"
    assert (miner / "d6_models.json").read_text() == '{"crop_size": 40}'
    cmd = rebuild.command(step, tmp_path, tmp_path, 1.0, 2)
    assert cmd[cmd.index("--hard-negatives") + 1] == str(miner)
    # No PyTorch weights were kept for the start, so the run unfolds its ONNX file.
    assert cmd[cmd.index("--init-classifier") + 1] == str(tmp_path / "cls-40-more" / "d6_classifier.onnx")


def test_the_dry_run_lists_every_step_without_pytorch(tmp_path):
    result = subprocess.run([sys.executable, str(TOOLS / "rebuild_d6_models.py"), "--dry-run", "--work", str(tmp_path)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == len(rebuild.RECIPE)
    assert lines[-1].startswith(f"[{len(rebuild.RECIPE)}/{len(rebuild.RECIPE)}] {rebuild.RECIPE[-1].name}: ")
    assert not any(tmp_path.iterdir())  # nothing was made


@pytest.mark.parametrize("scale", ["0", "1.5", "-1"])
def test_a_scale_outside_zero_to_one_is_refused(scale, tmp_path):
    result = subprocess.run([sys.executable, str(TOOLS / "rebuild_d6_models.py"), "--dry-run", "--scale", scale,
                             "--work", str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert "--scale must be above 0 and at most 1" in result.stderr


def test_a_finished_chain_puts_its_pair_in_one_folder_for_eval_dice(tmp_path):
    """`eval-dice --models WORK/final` scores a rebuild before it is installed; the pair lay in two step folders."""
    for step in rebuild.RECIPE:
        rebuild.output(tmp_path, step.name, step.net).parent.mkdir(exist_ok=True)
        rebuild.output(tmp_path, step.name, step.net).write_text(f"{step.name} {step.net}")
    (tmp_path / rebuild.FINAL["d6_classifier.onnx"][1] / rebuild.SETTINGS_FILE).write_text('{"crop_size": 48}')
    result = subprocess.run([sys.executable, str(TOOLS / "rebuild_d6_models.py"), "--work", str(tmp_path)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("already made, kept") == len(rebuild.RECIPE)
    final = tmp_path / "final"
    for file, (net, name) in rebuild.FINAL.items():
        assert (final / file).read_text() == f"{name} {net}"
    # The tool runs without OpenCV, so it spells the reader's file names out; they must stay the reader's.
    assert {DETECTOR_FILE, CLASSIFIER_FILE, LOW_CLASSIFIER_FILE, LOW_DETECTOR_FILE} <= set(rebuild.FINAL)
    assert rebuild.SETTINGS_FILE == SETTINGS_FILE
    assert (final / rebuild.SETTINGS_FILE).read_text() == '{"crop_size": 48}'
