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
    storage_read_mb_s: NonNegative | None = None
    storage_gb: NonNegative | None = None
    """Dataset plus checkpoints, decimal gigabytes (drives are sold in them)."""
