"""Count the preset figures of timm vision models: params, op mix, activations, saved bytes.

NOT a test and not imported by tests: it needs ``torch`` and ``timm`` (neither is a project
dependency). Run it in a throwaway venv outside the repository, e.g.::

    python -m venv .torch-venv && .torch-venv/bin/pip install torch timm
    .torch-venv/bin/python tools/derive/count_timm_presets.py [timm-name ...] > counts.json

Each network is built by ``timm.create_model(name, pretrained=False)`` (timm's own module
definitions and default arguments, no weights downloaded), with timm's fused attention
switched off (``timm.layers.set_fused_attn(False)``) so attention runs as the explicit
``q @ k^T``, softmax, ``attn @ v`` of ``attention_impl: eager``. Then, as in
docs/memory-model.md and tools/derive/count_saved_activations.py:

- ``params_total``: sum of ``numel`` over ``model.parameters()``.
- ``op_mix`` and ``activation_elements_per_sample``: the model is moved to the meta device
  and run forward in eval mode under a ``TorchDispatchMode``. Each aten op that
  ``torch.utils.flop_counter.flop_registry`` knows adds its FLOPs (2 per multiply-add) to
  ``attention`` when it is a batched matmul (``bmm``/``baddbmm``) inside a timm attention
  module (``Attention``, ``WindowAttention``: the QK^T and AV products) and to
  ``matmul_conv`` otherwise (convolutions, linear layers, qkv/proj inside attention);
  every other non-view op (``OpOverload.is_view`` false; ``_unsafe_view`` and ``clone``
  count) adds one FLOP per output value to ``elementwise``. Activation values are the
  output elements of every non-view op (the input image itself not included; with this
  rule timm resnet50 at batch 1 gives the resnet50-v1.5 preset's 37813608 exactly).
  Per-sample figures are batch 3 minus batch 2 (linear from there on): work that does not
  scale with the batch (eval BatchNorm's per-channel mean/invstd outputs, Swin's
  relative-position-bias gather) drops out, and so do batch 1 and 2's special cases, where
  some head splits and window partitions are views that need a copy at larger batches
  (ViT-B/16 at batch 1: three copies and three ``_unsafe_view`` outputs per layer,
  6 x 12 x 197 x 768 values fewer; batch 2 minus batch 1 and the batch-1 totals are
  printed too). ``forward_flops_per_sample`` is matmul_conv + attention (FlopCounterMode
  convention, checked against
  ``FlopCounterMode.get_total_flops()`` at batch 1).
- ``saved_activation_bytes_per_sample_fp32`` (the kinds the presets treat as ``cnn``): one
  training-mode forward plus cross-entropy loss on CPU under
  ``torch.autograd.graph.saved_tensors_hooks``; distinct storages, parameters excluded,
  batch 3 minus batch 2 (training BatchNorm needs more than one value per channel).
  ``saved_amp_per_sample`` is the same under ``torch.autocast('cpu', torch.float16)``.

Prints one JSON object: timm name -> counts, plus the torch and timm versions.
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import timm
import torch
import torch.nn.functional as F  # noqa: N812 (PyTorch convention)
from torch import nn
from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils._pytree import tree_leaves
from torch.utils.flop_counter import FlopCounterMode, flop_registry

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # run as a script: the repo
from tools.derive import count_saved_activations

Tensor = torch.Tensor
aten = torch.ops.aten

MODELS = (
    "resnet50",
    "vgg16",
    "vit_base_patch16_224",
    "resnet101",
    "efficientnet_b0",
    "convnext_base",
    "deit_base_patch16_224",
    "swin_base_patch4_window7_224",
    "vit_large_patch16_224",
)
SAVED_BYTES = {
    "resnet50",
    "vgg16",
    "resnet101",
    "efficientnet_b0",
    "convnext_base",
    "swin_base_patch4_window7_224",
}
"""Models whose presets are ``kind: cnn``: their training memory is the counted saved bytes
(transformer presets use the Korthikanti formula instead)."""
ATTENTION_MODULES = {"Attention", "WindowAttention"}
"""timm classes whose batched matmuls are the s^2 attention products (vision_transformer
Attention, swin_transformer WindowAttention)."""
ATTENTION_MATMULS = {aten.bmm, aten.baddbmm}
RESOLUTION = 224
CLASSES = ("matmul_conv", "attention", "elementwise")


class Counter(TorchDispatchMode):
    """FLOPs by class and output values of every non-view aten op."""

    def __init__(self) -> None:
        super().__init__()
        self.flops: dict[str, float] = defaultdict(float)
        self.values = 0
        self.attention_depth = 0

    def __torch_dispatch__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        kwargs = kwargs or {}
        out = func(*args, **kwargs)
        if func.is_view:
            return out
        produced = sum(t.numel() for t in tree_leaves(out) if isinstance(t, Tensor))
        packet = func._overloadpacket
        if packet in flop_registry:
            flops = flop_registry[packet](*args, **kwargs, out_val=out)
            inside = self.attention_depth > 0 and packet in ATTENTION_MATMULS
            self.flops["attention" if inside else "matmul_conv"] += flops
        else:
            self.flops["elementwise"] += produced
        self.values += produced
        return out


def build(name: str) -> nn.Module:
    timm.layers.set_fused_attn(False)
    return timm.create_model(name, pretrained=False)


def count_forward(model: nn.Module, batch: int) -> tuple[dict[str, float], int]:
    counter = Counter()
    handles = []
    for module in model.modules():
        if type(module).__name__ in ATTENTION_MODULES:

            def enter(*_: Any) -> None:
                counter.attention_depth += 1

            def leave(*_: Any) -> None:
                counter.attention_depth -= 1

            handles += [
                module.register_forward_pre_hook(enter),
                module.register_forward_hook(leave),
            ]
    x = torch.zeros(batch, 3, RESOLUTION, RESOLUTION, device="meta")
    try:
        with torch.no_grad(), counter:
            model(x)
    finally:
        for handle in handles:
            handle.remove()
    return dict(counter.flops), counter.values


def flop_counter_total(model: nn.Module) -> int:
    mode = FlopCounterMode(display=False)
    with torch.no_grad(), mode:
        model(torch.zeros(1, 3, RESOLUTION, RESOLUTION, device="meta"))
    return int(mode.get_total_flops())


def saved_bytes(model: nn.Module, batch: int, amp: bool) -> int:
    """Bytes of distinct storages saved for backward by one training forward + loss (an
    image batch and cross-entropy, through the counter of count_saved_activations.py)."""
    job = (
        lambda: model,
        lambda b: (torch.randn(b, 3, RESOLUTION, RESOLUTION),),
        lambda out: F.cross_entropy(out.float(), torch.zeros(out.shape[0], dtype=torch.long)),
    )
    return count_saved_activations.saved_bytes(model, job, batch, amp)


def count(name: str) -> dict[str, Any]:
    model = build(name)
    result: dict[str, Any] = {"params_total": sum(p.numel() for p in model.parameters())}
    if name in SAVED_BYTES:
        model.train()
        two, three = (saved_bytes(model, b, False) for b in (2, 3))
        amp_two, amp_three = (saved_bytes(model, b, True) for b in (2, 3))
        result["saved_fp32_per_sample"] = three - two
        result["saved_fp32_fixed"] = 3 * two - 2 * three
        result["saved_amp_per_sample"] = amp_three - amp_two
    model = model.eval().to("meta")
    one, values_one = count_forward(model, 1)
    two, values_two = count_forward(model, 2)
    three, values_three = count_forward(model, 3)
    mix = {k: three.get(k, 0.0) - two.get(k, 0.0) for k in CLASSES}
    result["op_mix"] = {f"{k}_flops": int(v) for k, v in mix.items()}
    result["forward_flops_per_sample"] = int(mix["matmul_conv"] + mix["attention"])
    result["activation_elements_per_sample"] = values_three - values_two
    result["batch2_minus_batch1"] = {
        **{k: int(two.get(k, 0.0) - one.get(k, 0.0)) for k in CLASSES},
        "values": values_two - values_one,
    }
    result["batch1"] = {"flops": {k: int(v) for k, v in one.items()}, "values": values_one}
    result["flop_counter_mode_batch1"] = flop_counter_total(model)
    return result


def main(names: list[str]) -> None:
    torch.set_num_threads(max(1, torch.get_num_threads()))
    result: dict[str, Any] = {"torch": torch.__version__, "timm": timm.__version__}
    for name in names or list(MODELS):
        result[name] = count(name)
        print(name, result[name], file=sys.stderr, flush=True)
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main(sys.argv[1:])
