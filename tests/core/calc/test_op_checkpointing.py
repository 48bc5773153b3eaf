"""Per-op selective checkpointing (torchtitan's ``selective_ac_option = 'op'``): what a
block keeps, what the backward runs again, and the memory and time that follow.

Hand counts for Llama 3.1 8B (h 4096, 32 heads of 128, 8 KV heads, SwiGLU f 14336): the
products in order are wq 4096, wk 1024, wv 1024, wo 4096, w1 14336, w3 14336, w2 4096
outputs per token; every other one is kept (wq, wv, w1, w2 = 23,552) plus the block input
(4,096) and the attention output (4,096): 31,744 values per token.
"""

from __future__ import annotations

import pytest

from core.calc import analyze, checkpoint
from core.calc.memory.components import activation_bytes, transformer_layer_activation_bytes
from core.catalog import load_catalog
from core.catalog.builds import default_build
from core.models.settings import AnalysisSettings
from core.workloads import find_preset, make_workload


def _llama(**settings: object):  # type: ignore[no-untyped-def]
    base = {"task": "training", "precision": "bf16", "batch_size": 2, "seq_len": 8192}
    return make_workload(find_preset("Llama 3.1 8B"), **(base | settings))


def test_llama_block_keeps_every_other_product() -> None:
    arch = _llama().architecture
    assert checkpoint.saved_values_per_token(arch) == 4096 + 4096 + 1024 + 4096 + 14336 + 4096
    # FLOPs per token of wk + wo + w3 over all seven: (1024 + 4096 + 14336) / 53,248
    share = (1024 + 4096 + 14336) / (4096 + 1024 + 1024 + 4096 + 3 * 14336)
    assert checkpoint.recomputed_matmul_share(arch) == pytest.approx(share)


def test_op_activations_are_the_kept_outputs_of_every_block() -> None:
    w = _llama(checkpointing="op", stack="pytorch")
    tokens, layers = 2 * 8192, 32
    kept = 2.0 * tokens * 31744  # bf16
    full_layer = transformer_layer_activation_bytes(w.model_copy(update={"checkpointing": "none"}))
    logits = 16.0 * tokens * 128256  # the pytorch stack's loss: 16 B per logit
    expected = layers * kept + (full_layer - kept) + logits
    assert activation_bytes(w) == pytest.approx(expected, rel=1e-9)
    # between full (inputs only) and no checkpointing
    full = activation_bytes(w.model_copy(update={"checkpointing": "full"}))
    none = activation_bytes(w.model_copy(update={"checkpointing": "none"}))
    assert full < activation_bytes(w) < none


def test_op_recompute_costs_less_time_than_full() -> None:
    catalog = load_catalog()
    build = default_build(catalog)
    speeds = {}
    for mode in ("none", "op", "full"):
        w = _llama(checkpointing=mode, stack="pytorch", batch_size=1, seq_len=2048)
        a = analyze(build, w, AnalysisSettings(), catalog)
        assert a.throughput is not None
        speeds[mode] = a.throughput.per_gpu_throughput
    # full runs the whole forward again (at most 1/4 slower); op only part of it
    assert speeds["full"] < speeds["op"] < speeds["none"]
    assert speeds["full"] >= 0.75 * speeds["none"]


def test_qlora_keeps_the_inputs_of_its_frozen_4bit_products() -> None:
    """bitsandbytes' MatMul4Bit stores its input even for a frozen weight; torch's linear
    does not. Llama-2 7B (h 4096, f 11008): QKV, output, MLP and down inputs = 3 x 4096 +
    11008 = 23,296 values = 46,592 bytes per token and layer over LoRA's count (bf16)."""
    preset = find_preset("Llama-2 7B")
    settings = {"precision": "bf16", "batch_size": 1, "seq_len": 1304, "stack": "pytorch"}
    lora = make_workload(preset, task="lora", **settings)
    qlora = make_workload(preset, task="qlora", **settings)
    extra = transformer_layer_activation_bytes(qlora) - transformer_layer_activation_bytes(lora)
    assert extra == pytest.approx(1304 * 46_592)
    # Unsloth's own LoRA kernels replace bitsandbytes' product: no such term
    fast = {**settings, "stack": "unsloth"}
    assert transformer_layer_activation_bytes(
        make_workload(preset, task="qlora", **fast)
    ) == pytest.approx(
        transformer_layer_activation_bytes(make_workload(preset, task="lora", **fast))
    )
