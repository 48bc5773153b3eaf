"""Results of the PCIe model: the link each GPU and NVMe drive really gets."""

from __future__ import annotations

from typing import Literal

from core.models.common import Frozen
from core.models.parts import PcieGen

Attach = Literal["cpu", "chipset"]

GB_S_PER_LANE: dict[int, float] = {1: 0.25, 2: 0.5, 3: 0.985, 4: 1.969, 5: 3.938, 6: 7.56}
"""Per-direction GB/s per lane after encoding. Source: Gen3 0.985, Gen4 1.969, Gen5 3.938,
Gen6 7.56 GB/s (Wikipedia "PCI Express" bandwidth table; stas00/ml-engineering
network/README.md); Gen1 0.25 and Gen2 0.5 GB/s (2.5 and 5 GT/s with 8b/10b encoding)."""


def link_bandwidth_gb_s(gen: int, lanes: int) -> float:
    """Per-direction bandwidth of a ``gen`` × ``lanes`` link, GB/s."""
    return GB_S_PER_LANE[gen] * lanes


class Link(Frozen):
    slot_id: str
    gen: PcieGen
    lanes: int
    attached_to: Attach
    bandwidth_gb_s: float
    """Per direction, decimal GB/s (PCIe spec rate after encoding)."""

    @property
    def gen3_equivalent_lanes(self) -> float:
        """Lanes × 2^(gen − 3): x8 Gen4 counts as 16, x4 Gen3 as 4."""
        return self.lanes * 2.0 ** (self.gen - 3)


class GpuLink(Link):
    gpu: int
    """1-based GPU number in slot order."""
    position: int
    slot_width: int
    """Expansion-slot positions the card covers (from ``position`` down)."""


class DriveLink(Link):
    drive_id: str


class PcieAssignment(Frozen):
    gpu_links: tuple[GpuLink, ...]
    gpus_fitting_geometry: int
    """GPUs the board's x16 slots take physically, whatever their wiring."""
    gpus_unplaced: int
    """GPUs with no usable slot (no room, or the slot is disabled by a lane rule)."""
    drive_links: tuple[DriveLink, ...]
    drives_unplaced: tuple[str, ...]
    """Ids of M.2 NVMe drives that found no usable M.2 slot."""
    slot_width_known: bool
