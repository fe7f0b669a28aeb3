"""Average the weights of two exported ONNX models of the same network (a "model soup").

A fine-tune of the shipped classifier on new spoilt crops (`train_dice.py
--init-classifier vision/models/d6_classifier.onnx --degrade`) learns the new
case but drifts a little on the photos it already read; the two sets of weights
lie close enough together that their average keeps most of both:

    python tools/average_models.py vision/models/d6_classifier.onnx /tmp/ft/d6_classifier.onnx \\
        vision/models/d6_classifier.onnx --share 0.5

Only the weights of convolutions and dense layers are averaged (batch norms are
folded into them at export); both files must have the same layers in the same
order. Needs the `onnx` package (development only, like train_dice.py).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def layer_weights(model) -> list:
    """Each Conv's and Gemm's weight and bias initializers, in graph order."""
    named = {item.name: item for item in model.graph.initializer}
    return [named[name] for node in model.graph.node if node.op_type in ("Conv", "Gemm")
            for name in node.input[1:] if name in named]


def average(first: Path, second: Path, out: Path, share: float) -> int:
    """Write (1 - share) * first + share * second; returns how many tensors were averaged."""
    import onnx
    from onnx import numpy_helper

    base, other = onnx.load(str(first)), onnx.load(str(second))
    mine, theirs = layer_weights(base), layer_weights(other)
    shapes = [numpy_helper.to_array(t).shape for t in mine]
    if shapes != [numpy_helper.to_array(t).shape for t in theirs]:
        raise ValueError(f"{first} and {second} are not the same network")
    for tensor, partner in zip(mine, theirs, strict=True):
        a, b = numpy_helper.to_array(tensor), numpy_helper.to_array(partner)
        tensor.CopyFrom(numpy_helper.from_array(((1 - share) * a + share * b).astype(a.dtype), tensor.name))
    out.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(base, str(out))
    return len(mine)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("first", type=Path)
    parser.add_argument("second", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--share", type=float, default=0.5, help="weight of the second model (0..1)")
    args = parser.parse_args()
    if not 0 <= args.share <= 1:
        parser.error("--share must be between 0 and 1")
    try:
        count = average(args.first, args.second, args.out, args.share)
    except (OSError, ValueError) as exc:
        print(f"average_models: {exc}", file=sys.stderr)
        return 2
    mix = f"{1 - args.share:g} x {args.first} + {args.share:g} x {args.second}"
    print(f"averaged {count} tensors ({mix}) into {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
