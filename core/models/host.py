"""What a workload needs from the host, filled by the memory and throughput models."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from core.models.common import Frozen

NonNegative = Annotated[float, Field(ge=0)]


class HostDemand(Frozen):
    """Host resources a workload needs; ``None`` where the models give no figure."""

    host_ram_gib: NonNegative | None = None
    data_loading_cores: NonNegative | None = None
    """Cores whose data loading keeps the GPUs fed (``None`` when the workload's loading
    is not modelled)."""
    loader_wait: Annotated[float, Field(ge=0, le=1)] = 0.0
    """Share of each step the GPUs wait on data loading with the build's cores."""
    storage_read_mb_s: NonNegative | None = None
    storage_gb: NonNegative | None = None
    """Dataset plus checkpoints, decimal gigabytes (drives are sold in them)."""
