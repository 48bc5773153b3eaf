"""Count the input and output values of every 2-D convolution in one forward, per sample.

NOT a test and not imported by tests: it needs ``torch`` and ``timm`` (neither is a project
dependency). Run it in a throwaway venv outside the repository, e.g.::

    python -m venv .torch-venv && .torch-venv/bin/pip install torch timm
    .torch-venv/bin/python tools/derive/count_conv_io.py > conv_io.json

What it counts: an NCHW tensor is transposed to NHWC before each 16-bit tensor-core
convolution and back after it, so the layout costs DRAM traffic in proportion to the
convolutions' input and output values, not to all of a network's activations (most of a
transformer's, and the depthwise-heavy nets' pointwise MLPs, are not convolution inputs).
Each network is the one its preset's other figures were counted on: the hand-written
modules of ``count_saved_activations.py`` for the DeepLearningExamples presets (ResNet-50
v1.5, VGG16, SSD300) and ``timm.create_model(name)`` for the timm presets. The model runs
forward in eval mode on the meta device under a ``TorchDispatchMode`` that adds, for every
``aten.convolution`` whose input is 4-D, the element counts of its input and its output.
Per-sample figures are batch 3 minus batch 2 (as for the other preset counts). One-D
convolutions (Tacotron 2, WaveGlow) are not image layouts and are left out.

Prints one JSON object: preset id -> conv_io_elements_per_sample, plus the versions.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import timm
import torch
from torch import nn
from torch.utils._python_dispatch import TorchDispatchMode

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # run as a script: the repo
from tools.derive import count_saved_activations

aten = torch.ops.aten

HAND_WRITTEN = {
    "resnet50-v1.5": ("ResNet50", 224),
    "vgg16": ("VGG16", 224),
    "ssd300-rn50": ("SSD300", 300),
}
"""Preset id -> (module in count_saved_activations.py, input resolution)."""
TIMM = {
    "resnet101": "resnet101",
    "efficientnet-b0": "efficientnet_b0",
    "convnext-base": "convnext_base",
    "swin-b": "swin_base_patch4_window7_224",
    "vit-b16": "vit_base_patch16_224",
    "deit-b16": "deit_base_patch16_224",
    "vit-l16": "vit_large_patch16_224",
}
"""Preset id -> timm model name (all at 224 px)."""


class ConvCounter(TorchDispatchMode):
    def __init__(self) -> None:
        super().__init__()
        self.values = 0

    def __torch_dispatch__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        out = func(*args, **(kwargs or {}))
        if func._overloadpacket is aten.convolution and args[0].dim() == 4:
            self.values += args[0].numel() + out.numel()
        return out


def conv_values(model: nn.Module, resolution: int, batch: int) -> int:
    counter = ConvCounter()
    x = torch.zeros(batch, 3, resolution, resolution, device="meta")
    with torch.no_grad(), counter:
        model(x)
    return counter.values


def per_sample(model: nn.Module, resolution: int) -> int:
    model = model.eval().to("meta")
    return conv_values(model, resolution, 3) - conv_values(model, resolution, 2)


def main(ids: list[str]) -> None:
    result: dict[str, Any] = {"torch": torch.__version__, "timm": timm.__version__}
    for preset, (cls, res) in HAND_WRITTEN.items():
        if not ids or preset in ids:
            result[preset] = per_sample(getattr(count_saved_activations, cls)(), res)
    timm.layers.set_fused_attn(False)
    for preset, name in TIMM.items():
        if not ids or preset in ids:
            result[preset] = per_sample(timm.create_model(name, pretrained=False), 224)
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main(sys.argv[1:])
