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
from typing import Annotated

from pydantic import Field

from core.calc.memory.components import (
    FRAGMENTATION_FRACTION,
    FRAMEWORK_GIB,
    GIB,
    activation_bytes,
    host_ram_bytes,
    kv_cache_bytes,
    model_state_bytes,
)
from core.models.common import Frozen
from core.models.workload import Workload

NonNeg = Annotated[float, Field(ge=0)]


class VramBreakdown(Frozen):
    weights_gib: NonNeg
    gradients_gib: NonNeg
    optimizer_gib: NonNeg
    activations_gib: NonNeg
    kv_cache_gib: NonNeg
    framework_gib: NonNeg
    """CUDA context and framework kernels."""
    workspace_gib: NonNeg
    """Workspace and allocator-fragmentation allowance."""

    @property
    def total_gib(self) -> float:
        return (
            self.weights_gib
            + self.gradients_gib
            + self.optimizer_gib
            + self.activations_gib
            + self.kv_cache_gib
            + self.framework_gib
            + self.workspace_gib
        )


class VramFix(Frozen):
    """A change that lowers memory: a code, the changed settings as data, and the result."""

    code: str
    changes: dict[str, str | int | bool]
    total_gib: NonNeg
    fits: bool


class VramResult(Frozen):
    breakdown: VramBreakdown
    total_gib: NonNeg
    capacity_gib: NonNeg
    free_gib: float
    """Capacity minus total; negative when it does not fit."""
    fits: bool
    max_batch_size: Annotated[int, Field(ge=0)]
    """Largest per-GPU batch that fits with all else unchanged (0: not even 1)."""
    host_ram_gib: NonNeg
    gpu_count: Annotated[int, Field(ge=1)]
    fixes: tuple[VramFix, ...] = ()


def vram_breakdown(workload: Workload, gpu_count: int) -> VramBreakdown:
    """Per-GPU memory of ``workload`` on ``gpu_count`` GPUs (validated by ``check_gpu_count``).

    Source: ZeRO §3.1/§5 for model states, Korthikanti et al. 2022 Table 2 for
    activations, HF llm_tutorial_optimization §3.2 for the KV cache; framework
    context 1.3 GB ("the kernels alone take up 1.3GB", HF docs model_memory_anatomy.md);
    workspace/fragmentation allowance 5 % of the memory allocated and freed each step
    (activations, KV cache): allocator rounding plus one layer's backward gradients,
    bounded by Lambda's published batch sizes (``FRAGMENTATION_FRACTION``).
    """
    workload.check_gpu_count(gpu_count)
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


def estimate_vram(
    workload: Workload, gpu_vram_gib: float, gpu_count: int = 1, with_fixes: bool = True
) -> VramResult:
    """VRAM fit of ``workload`` on GPUs of ``gpu_vram_gib`` each: breakdown, verdict, fixes.

    Raises ``InvalidWorkload`` for parallel settings the GPU count cannot host.
    """
    from core.calc.memory.fixes import suggest_fixes

    breakdown = vram_breakdown(workload, gpu_count)
    total = breakdown.total_gib
    fits = total <= gpu_vram_gib
    fixes = () if fits or not with_fixes else suggest_fixes(workload, gpu_vram_gib, gpu_count)
    return VramResult(
        breakdown=breakdown,
        total_gib=total,
        capacity_gib=gpu_vram_gib,
        free_gib=gpu_vram_gib - total,
        fits=fits,
        max_batch_size=max_batch_size(workload, gpu_count, gpu_vram_gib),
        host_ram_gib=host_ram_bytes(workload, gpu_count) / GIB,
        gpu_count=gpu_count,
        fixes=fixes,
    )
