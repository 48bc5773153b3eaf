"""Results of the memory model: per-GPU VRAM by component, the verdict, the largest batch
and the ranked fixes (``core.calc.memory``)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from core.models.checks import Fix
from core.models.common import Frozen

NonNeg = Annotated[float, Field(ge=0)]


class VramBreakdown(Frozen):
    """Per-GPU memory by component, GiB (2^30 bytes)."""

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
    fixes: tuple[Fix, ...] = ()
    """Ranked: fixes that fit first, least disruptive first; ``numbers`` carry
    ``total_gib`` and ``fits`` (1 or 0)."""

    @property
    def best_fix(self) -> Fix | None:
        """The fix the VRAM check names: the first that fits, else the first."""
        return next((f for f in self.fixes if f.numbers.get("fits") == 1), None) or (
            self.fixes[0] if self.fixes else None
        )
