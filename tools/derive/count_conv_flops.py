"""Count the FLOPs of every convolution in one forward, per sample (``op_mix.conv_flops``).

NOT a test and not imported by tests: it needs ``torch`` and ``timm`` (neither is a project
dependency). Run it in a throwaway venv outside the repository, e.g.::

    python -m venv .torch-venv && .torch-venv/bin/pip install torch timm
    .torch-venv/bin/python tools/derive/count_conv_flops.py > conv_flops.json

What it counts: cuDNN runs a convolution as an implicit GEMM, gathering its operand tiles
from the image as it goes, which reaches a lower share of the tensor-core peak than a
plain GEMM of the same size; the performance model charges that on the convolutions'
FLOPs only (``ThroughputConstants.conv_rel``), so it needs them apart from the linear
layers' (Swin's and ConvNeXt's MLPs are ``nn.Linear``, a plain GEMM). Each network is
the one its preset's ``matmul_conv_flops`` was counted on: the hand-written modules of
``count_saved_activations.py`` for the DeepLearningExamples presets, ``timm.create_model``
for the timm presets. The model runs forward in eval mode under
``torch.utils.flop_counter.FlopCounterMode`` (the registry the presets' op mixes were
counted with: 2 FLOPs per multiply-add) and the FLOPs it books on ``aten.convolution``
(1-D, 2-D and transposed) are read back. Per-sample figures are batch 3 minus batch 2.
Dilated convolutions are included (``dilated_conv_flops`` is a part of them).

Depthwise convolutions (``groups`` equal to the input channels, more than one) are also
counted apart (``depthwise_conv_flops``, a part of ``conv_flops``): one input channel per
output leaves no reduction dimension for a tensor-core MMA, so they run on the CUDA cores.
A ``TorchDispatchMode`` beside the counter books 2 × output elements × (input channels per
group × kernel height × width) for each, the counter's own formula for a convolution.

Prints one JSON object: preset id -> {"conv_flops", "depthwise_conv_flops", "all_flops"}
(the last is every FLOP the counter books, a check against the preset's op mix), plus the
versions.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import timm
import torch
from torch import nn
from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils.flop_counter import FlopCounterMode

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # run as a script: the repo
from tools.derive import count_saved_activations
from tools.derive.count_conv_io import TIMM  # the same timm networks

aten = torch.ops.aten

HAND_WRITTEN = ("resnet50-v1.5", "vgg16", "ssd300-rn50", "tacotron2", "waveglow")
"""Preset ids whose modules and inputs are ``count_saved_activations.JOBS``."""


class DepthwiseCounter(TorchDispatchMode):
    """FLOPs of the depthwise convolutions dispatched while active."""

    def __init__(self) -> None:
        super().__init__()
        self.flops = 0

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):  # type: ignore[no-untyped-def]
        out = func(*args, **(kwargs or {}))
        if func in (aten.convolution.default, aten._convolution.default):
            x, weight, groups, transposed = args[0], args[1], args[8], args[6]
            if not transposed and groups > 1 and groups == x.shape[1]:
                per_output = weight.shape[1] * int(torch.tensor(weight.shape[2:]).prod())
                self.flops += 2 * out.numel() * per_output
        return out


def flops(
    model: nn.Module, inputs: Callable[[int], tuple[Any, ...]], batch: int
) -> tuple[int, int, int]:
    """(convolution FLOPs, depthwise convolution FLOPs, all FLOPs) of one eval-mode forward
    at ``batch``."""
    counter = FlopCounterMode(display=False)
    torch.manual_seed(0)
    args = inputs(batch)
    depthwise = DepthwiseCounter()
    with torch.no_grad(), counter, depthwise:
        model(*args)
    counts = counter.get_flop_counts()["Global"]
    conv = sum(v for k, v in counts.items() if k in (aten.convolution, aten._convolution))
    return int(conv), depthwise.flops, int(sum(counts.values()))


def per_sample(model: nn.Module, inputs: Callable[[int], tuple[Any, ...]]) -> dict[str, int]:
    model = model.eval()
    conv3, dw3, all3 = flops(model, inputs, 3)
    conv2, dw2, all2 = flops(model, inputs, 2)
    return {
        "conv_flops": conv3 - conv2,
        "depthwise_conv_flops": dw3 - dw2,
        "all_flops": all3 - all2,
    }


def main(ids: list[str]) -> None:
    torch.set_num_threads(2)
    result: dict[str, Any] = {"torch": torch.__version__, "timm": timm.__version__}
    for preset in HAND_WRITTEN:
        if not ids or preset in ids:
            make, inputs, _ = count_saved_activations.JOBS[preset]
            result[preset] = per_sample(make(), inputs)
            print(preset, result[preset], file=sys.stderr, flush=True)
    timm.layers.set_fused_attn(False)
    for preset, name in TIMM.items():
        if not ids or preset in ids:
            model = timm.create_model(name, pretrained=False).to("meta")
            result[preset] = per_sample(
                model, lambda b: (torch.zeros(b, 3, 224, 224, device="meta"),)
            )
            print(preset, result[preset], file=sys.stderr, flush=True)
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main(sys.argv[1:])
