"""Per-GPU VRAM model: weights, gradients, optimizer state, activations, KV cache, overheads.

Conventions (stated once; see docs/memory-model.md):
- Model states follow ZeRO (Rajbhandari et al. 2020, arXiv:1910.02054 §3.1, §5):
  mixed precision keeps 16-bit weights and gradients plus an fp32 master copy in the
  optimizer state (Adam K = 12 -> 16 bytes/param). Hugging Face's 18 bytes/param counts
  fp32 gradients; we follow ZeRO, as DeepSpeed and Megatron do.
- Activations of transformer layers: Korthikanti et al. 2022 (arXiv:2205.05198) §4,
  Table 2, generalized to GQA, SwiGLU and fp32 (formula in ``transformer_layer_activation_bytes``).
- KV cache: 2 x L x n_kv_heads x head_dim x tokens x batch x bytes (HF
  llm_tutorial_optimization.md §3.2; vLLM paper §3).
- Results are GiB (2^30 bytes).
"""

from __future__ import annotations

import math

from core.calc.memory.components import (
    FRAGMENTATION_FRACTION,
    FRAMEWORK_GIB,
    GIB,
    activation_bytes,
    kv_cache_bytes,
    model_state_bytes,
)
from core.calc.parallel import check_gpu_count
from core.models.memory import VramBreakdown
from core.models.workload import Workload


def vram_breakdown(workload: Workload, gpu_count: int) -> VramBreakdown:
    """Per-GPU memory of ``workload`` on ``gpu_count`` GPUs (validated by ``check_gpu_count``).

    Source: ZeRO §3.1/§5 for model states, Korthikanti et al. 2022 Table 2 for
    activations, HF llm_tutorial_optimization §3.2 for the KV cache; framework
    context 1.3 GB ("the kernels alone take up 1.3GB", HF docs model_memory_anatomy.md);
    workspace/fragmentation allowance 5 % of the memory allocated and freed each step
    (activations, KV cache): allocator rounding plus one layer's backward gradients,
    bounded by Lambda's published batch sizes (``FRAGMENTATION_FRACTION``).
    """
    check_gpu_count(workload, gpu_count)
    states = model_state_bytes(workload, gpu_count)
    act = activation_bytes(workload)
    kv = kv_cache_bytes(workload)
    return VramBreakdown(
        weights_gib=states.weights / GIB,
        gradients_gib=states.gradients / GIB,
        optimizer_gib=states.optimizer / GIB,
        activations_gib=act / GIB,
        kv_cache_gib=kv / GIB,
        framework_gib=FRAMEWORK_GIB,
        workspace_gib=FRAGMENTATION_FRACTION * (act + kv) / GIB,
    )


def max_batch_size(workload: Workload, gpu_count: int, capacity_gib: float) -> int:
    """Largest per-GPU batch that fits, in closed form.

    Every component is affine in the batch size (model states do not depend on it;
    activations, KV cache and their allowance are proportional to it), so
    total(b) = fixed + b * per_sample and b_max = floor((capacity - fixed) / per_sample).
    """
    one = vram_breakdown(workload.model_copy(update={"batch_size": 1}), gpu_count).total_gib
    two = vram_breakdown(workload.model_copy(update={"batch_size": 2}), gpu_count).total_gib
    per_sample = two - one
    fixed = one - per_sample
    if capacity_gib < one:
        return 0
    if per_sample <= 0:
        return 1_000_000
    return max(0, min(1_000_000, math.floor((capacity_gib - fixed) / per_sample + 1e-9)))
