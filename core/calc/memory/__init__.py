"""The memory model: per-GPU VRAM of a workload, the largest batch, ranked fixes, host RAM."""

from __future__ import annotations

from core.calc.memory.components import GIB, host_ram_bytes
from core.calc.memory.fixes import suggest_fixes
from core.calc.memory.vram import max_batch_size, vram_breakdown
from core.models.memory import VramResult
from core.models.workload import Workload

__all__ = ["estimate_vram", "max_batch_size", "vram_breakdown"]


def estimate_vram(
    workload: Workload, gpu_vram_gib: float, gpu_count: int = 1, with_fixes: bool = True
) -> VramResult:
    """VRAM fit of ``workload`` on GPUs of ``gpu_vram_gib`` each: breakdown, verdict, fixes.

    Raises ``InvalidWorkload`` for parallel settings the GPU count cannot host.
    """
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
