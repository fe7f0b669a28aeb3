"""Rebuild the shipped d6 models in one command, by replaying the chain of runs that made them.

The shipped detector and classifier are not the result of one training run:
each is a chain of runs of `train_dice.py`, every run starting from an earlier
one's weights, with some results averaged (`average_models.py`). The chain is
told step by step in docs/vision.md, "How the shipped models came about"; this
script is that chain as data. It runs the steps in order in a work folder, one
folder per step, skips every step whose output is already there (so an
interrupted rebuild goes on where it stopped: within the step it stopped in
too, from the state `train_dice.py` saves every 200 steps), puts the final
detector, classifier and low-view nets together in WORK/final, and with
`--install` copies them into vision/models as well.

    /work/train-venv/bin/python tools/rebuild_d6_models.py --work /tmp/d6-rebuild    # 4-5 hours on 2 cores
    /work/train-venv/bin/python tools/rebuild_d6_models.py --work /tmp/d6-quick --scale 0.005
    python3 tools/rebuild_d6_models.py --dry-run   # the commands, nothing run

`--scale 0.005` runs every step with a few batches each: it checks the whole
chain's plumbing in under half an hour, not the models' quality.

A replay gives models like the shipped ones, not the same bytes: the seeds of
the first detector runs (three short runs, here one of as many steps) were
not kept, two of the soup's fine-tunes ran before photos with empty label
files were left out of training, and `--degrade` smears crops since session
15, also in the steps before it. Compare a rebuild with the shipped pair
before installing it: `companion vision eval-dice SET --models WORK/final`
on the byler holdout and the valid splits, and the same without `--models`.

This script itself needs only the standard library; the steps it runs need
the training venv (PyTorch, onnx).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MODEL_FILES = {"detector": "d6_detector.onnx", "classifier": "d6_classifier.onnx"}
SETTINGS_FILE = "d6_models.json"  # the classifier's crop size and margin; travels with the classifier

# Set weights before rendered boards and speckled tables existed (docs/vision.md).
EARLY_SETS = ("--set-weights", "d6-roboflow=0.4,d6-matteop65=0.25,d6-byler=0.2,rendered=0.15",
              "--boards", "0", "--speckled", "0")
NO_SPECKLED = ("--speckled", "0")
FINE_TUNE = ("--lr", "5e-4", "--crop", "224", "--batch", "12")
LATE_CLASSIFIER = ("--crop-size", "48", "--lr", "5e-4", "--weight-decay", "0.05", "--degrade")
LOW_VIEW = ("--oblique", "400", "--oblique-elevation", "18", "50")  # renders seen from 18-50 degrees up
LOW_VIEW_SET_WEIGHTS = ("d6-roboflow=0.3,d6-matteop65=0.1,d6-byler=0.1,rendered=0.05,boards=0.05,speckled=0.05,"
                        "oblique=0.35")


@dataclass(frozen=True)
class Train:
    """One run of train_dice.py for one net, starting from `start` (an earlier step) or from scratch."""

    name: str
    net: str
    steps: int
    options: tuple[str, ...] = ()
    start: str | None = None
    negatives: str | None = None  # the detector step that mines the classifier's hard negatives


@dataclass(frozen=True)
class Average:
    """The weights of two earlier steps' nets mixed: (1 - share) x first + share x second."""

    name: str
    net: str
    first: str
    second: str
    share: float


Step = Train | Average

RECIPE: tuple[Step, ...] = (
    Train("det-first", "detector", 4400, ("--crop", "224", "--batch", "12", *EARLY_SETS)),
    Train("det-long", "detector", 7500, ("--lr", "2e-3", *EARLY_SETS), start="det-first"),
    Train("cls-40", "classifier", 3000, ("--crop-size", "40", "--boards", "0", *NO_SPECKLED)),
    Train("cls-40-more", "classifier", 4000, ("--crop-size", "40", "--boards", "0", *NO_SPECKLED), start="cls-40"),
    Train("cls-48", "classifier", 4000, ("--crop-size", "48", "--lr", "1.5e-3", "--boards", "0", *NO_SPECKLED),
          start="cls-40-more", negatives="det-long"),
    Train("cls-48-more", "classifier", 5500,
          ("--crop-size", "48", "--lr", "1e-3", "--seed", "9", "--boards", "0", *NO_SPECKLED),
          start="cls-48", negatives="det-long"),
    Train("cls-boards", "classifier", 6000,
          ("--crop-size", "48", "--lr", "1e-3", "--weight-decay", "0.05", "--degrade", "--seed", "21", *NO_SPECKLED),
          start="cls-48-more", negatives="det-long"),
    Train("cls-smeared", "classifier", 2500, (*LATE_CLASSIFIER, "--seed", "41", *NO_SPECKLED),
          start="cls-boards", negatives="det-long"),
    Average("cls-session15", "classifier", "cls-boards", "cls-smeared", 0.5),
    Train("det-speckled", "detector", 1500, (*FINE_TUNE, "--seed", "61"), start="det-long"),
    Average("det-session16", "detector", "det-long", "det-speckled", 0.6),
    Train("cls-speckled", "classifier", 2500, (*LATE_CLASSIFIER, "--seed", "51"),
          start="cls-session15", negatives="det-session16"),
    Average("cls-shipped", "classifier", "cls-session15", "cls-speckled", 0.7),
    Train("det-slanted", "detector", 1500, (*FINE_TUNE, "--oblique", "300", "--seed", "71"), start="det-session16"),
    Train("det-squashed", "detector", 1500, (*FINE_TUNE, "--squash", "0.5", "--seed", "71"), start="det-session16"),
    Train("det-again", "detector", 1500, (*FINE_TUNE, "--seed", "81"), start="det-session16"),
    Train("det-whole-die", "detector", 1500, (*FINE_TUNE, "--whole-die-sizes", "--seed", "101"),
          start="det-session16"),
    Average("soup-2", "detector", "det-session16", "det-slanted", 1 / 2),
    Average("soup-3", "detector", "soup-2", "det-squashed", 1 / 3),
    Average("soup-4", "detector", "soup-3", "det-again", 1 / 4),
    Average("det-shipped", "detector", "soup-4", "det-whole-die", 1 / 5),
    # The nets for frames seen from low down (docs/vision.md, "Dice seen from low down").
    Train("cls-low", "classifier", 2500, (*LATE_CLASSIFIER, *LOW_VIEW, "--seed", "301"),
          start="cls-shipped", negatives="det-shipped"),
    Train("det-low", "detector", 1500, (*FINE_TUNE, *LOW_VIEW, "--set-weights", LOW_VIEW_SET_WEIGHTS, "--seed", "303"),
          start="det-shipped"),
)
# What --install puts into vision/models: each file, the net it holds and the step that makes it.
FINAL = {
    "d6_detector.onnx": ("detector", "det-shipped"),
    "d6_classifier.onnx": ("classifier", "cls-shipped"),  # its crop size travels with it in SETTINGS_FILE
    "d6_low_classifier.onnx": ("classifier", "cls-low"),
    "d6_low_detector.onnx": ("detector", "det-low"),
}


def check_recipe(recipe: tuple[Step, ...] = RECIPE) -> list[str]:
    """What is wrong with a recipe: a step named twice, or one that uses a step not made before it, or not its net."""
    made: dict[str, str] = {}
    problems = []
    for step in recipe:
        uses = ((step.start, step.net), (step.negatives, "detector")) if isinstance(step, Train) else (
            (step.first, step.net), (step.second, step.net))
        for used, net in uses:
            if used is not None and made.get(used) != net:
                problems.append(f"{step.name} uses {used}, which is not a {net} made before it")
        if step.name in made:
            problems.append(f"{step.name} is made twice")
        made[step.name] = step.net
    for net, name in FINAL.values():
        if made.get(name) != net:
            problems.append(f"the final {net} {name} is not a {net} step")
    return problems


def output(work: Path, name: str, net: str) -> Path:
    return work / name / MODEL_FILES[net]


def command(step: Step, work: Path, datasets: Path, scale: float, threads: int) -> list[str]:
    """The command line that makes `step` in work/<step.name>/."""
    here = work / step.name
    if isinstance(step, Average):
        return [sys.executable, str(ROOT / "tools" / "average_models.py"), str(output(work, step.first, step.net)),
                str(output(work, step.second, step.net)), str(output(work, step.name, step.net)),
                "--share", f"{step.share:.6g}"]
    steps = max(2, round(step.steps * scale))
    cmd = [sys.executable, str(ROOT / "tools" / "train_dice.py"), "--datasets", str(datasets), "--out", str(here),
           "--weights", str(here), "--only", step.net, "--threads", str(threads),
           "--det-steps" if step.net == "detector" else "--cls-steps", str(steps),
           "--checkpoint-every", str(steps), *step.options]  # no export before the end: a made step is whole
    if step.start:
        # An average has no PyTorch weights of its own; train_dice.py unfolds its ONNX file instead.
        weights = output(work, step.start, step.net).with_suffix(".pt")
        start = weights if weights.exists() else output(work, step.start, step.net)
        cmd += [f"--init-{step.net}", str(start)]
    if step.negatives:
        cmd += ["--hard-negatives", str(work / f"{step.name}-miner")]
    return cmd


def prepare(step: Step, work: Path, made_classifier: str | None) -> None:
    """Files a step needs beside its command: the miner's folder, or an averaged classifier's settings."""
    here = work / step.name
    here.mkdir(parents=True, exist_ok=True)
    if isinstance(step, Train) and step.negatives:
        # The miner is a D6Reader folder, which wants a classifier too, though mining only detects.
        miner = work / f"{step.name}-miner"
        miner.mkdir(exist_ok=True)
        shutil.copy(output(work, step.negatives, "detector"), miner / MODEL_FILES["detector"])
        donor = work / (step.start or made_classifier or "")
        classifier = donor / MODEL_FILES["classifier"]
        if not classifier.exists():
            classifier = ROOT / "vision" / "models" / MODEL_FILES["classifier"]
            donor = classifier.parent
        shutil.copy(classifier, miner / MODEL_FILES["classifier"])
        shutil.copy(donor / SETTINGS_FILE, miner / SETTINGS_FILE)
    if isinstance(step, Average) and step.net == "classifier":
        shutil.copy(work / step.first / SETTINGS_FILE, here / SETTINGS_FILE)


def install(work: Path, into: Path) -> None:
    into.mkdir(parents=True, exist_ok=True)
    for file, (net, name) in FINAL.items():
        shutil.copy(output(work, name, net), into / file)
    shutil.copy(work / FINAL[MODEL_FILES["classifier"]][1] / SETTINGS_FILE, into / SETTINGS_FILE)
    print(f"installed {', '.join(FINAL)} and {SETTINGS_FILE} into {into}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--work", type=Path, default=Path("/tmp/d6-rebuild"), help="one folder per step goes here")
    parser.add_argument("--datasets", type=Path, default=ROOT.parent / "shared" / "datasets")
    parser.add_argument("--scale", type=float, default=1.0,
                        help="share of each run's training steps (0.005 checks the whole chain in minutes)")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--dry-run", action="store_true", help="print the steps' commands and run nothing")
    parser.add_argument("--install", action="store_true", help="copy the final models into vision/models")
    args = parser.parse_args()
    if not 0 < args.scale <= 1:
        parser.error("--scale must be above 0 and at most 1")
    problems = check_recipe()
    if problems:
        print("rebuild_d6_models: the recipe is broken: " + "; ".join(problems), file=sys.stderr)
        return 2
    made_classifier = None
    for number, step in enumerate(RECIPE, 1):
        cmd = command(step, args.work, args.datasets, args.scale, args.threads)
        head = f"[{number}/{len(RECIPE)}] {step.name}"
        if args.dry_run:
            print(f"{head}: {' '.join(cmd)}")
            continue
        if output(args.work, step.name, step.net).exists():
            print(f"{head}: already made, kept", flush=True)
        else:
            print(f"{head}: {' '.join(cmd[1:])}", flush=True)
            prepare(step, args.work, made_classifier)
            if subprocess.run(cmd, cwd=ROOT).returncode != 0:
                print(f"rebuild_d6_models: step {step.name} failed; run again to go on from it", file=sys.stderr)
                return 1
        if step.net == "classifier":
            made_classifier = step.name
    if args.dry_run:
        return 0
    # The pair as it would ship, in one folder: `companion vision eval-dice DIR --models WORK/final` scores it.
    install(args.work, args.work / "final")
    if args.install:
        install(args.work, ROOT / "vision" / "models")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
