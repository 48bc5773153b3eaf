"""Helpers of the optimizer's rows: PCIe placement and throughput, each computed once.

Throughput depends on the GPU, its count, the PCIe links the board gives it and the CPU
cores, not on memory, PSU or case, so it is computed once per such key and reused; PCIe
placement is computed once per (board, CPU PCIe gen, card gen, lanes and width, riser,
count).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from core.calc.performance.constants import FITTED
from core.calc.performance.scaling import estimate_throughput
from core.calc.platform.pcie import assign_pcie
from core.calc.suggest.space import Platform
from core.models.build import Build, DriveSelection
from core.models.parts import GPU, Drive, Riser
from core.models.throughput import HostLink, HostSpec, WorkProfile

LinkKey = tuple[tuple[int, int, str, int], ...]
"""Per GPU: PCIe generation, lanes, attachment (cpu/chipset) and slot position."""


@dataclass
class RowCaches:
    links: dict[tuple[object, ...], LinkKey | None] = field(default_factory=dict)
    throughput: dict[tuple[object, ...], float] = field(default_factory=dict)


def sketch_build(
    gpu: GPU, count: int, platform: Platform, drive: Drive, *, riser: Riser | None = None
) -> Build:
    """An unvalidated build of the row's parts (for PCIe placement and power only)."""
    option = platform.memory[0]
    return Build.model_construct(
        name="suggestion",
        gpu=gpu,
        gpu_count=count,
        gpu_power_limit_w=None,
        nvlink_bridges=0,
        cpu=platform.cpu,
        cpu_count=1,
        motherboard=platform.board,
        memory=option.kit,
        memory_kits=option.kits,
        drives=(DriveSelection(drive=drive, count=1),),
        psu=None,
        psu_count=1,
        case=None,
        riser=riser,
        used=(),
    )


def links_for(
    gpu: GPU,
    count: int,
    cpu_gen: int,
    board_id: str,
    riser: Riser | None,
    width: int,
    caches: RowCaches,
    make: Callable[[], Build],
) -> LinkKey | None:
    """``gpu_links`` by its cache key; ``make()`` builds the sketch only on a miss."""
    key = (
        board_id,
        cpu_gen,
        gpu.pcie_gen,
        gpu.pcie_lanes,
        width,
        count,
        None if riser is None else (riser.pcie_gen, riser.lanes),
        gpu.cooler == "open-air",  # open-air cards are placed with a slot between them
    )
    if key not in caches.links:
        assignment = assign_pcie(make())
        caches.links[key] = (
            None
            if assignment.gpus_unplaced
            else tuple(
                (link.gen, link.lanes, link.attached_to, link.position)
                for link in assignment.gpu_links
            )
        )
    return caches.links[key]


def row_throughput(
    profile: WorkProfile, gpu: GPU, count: int, links: LinkKey, cores: int, caches: RowCaches
) -> float:
    bare = tuple(link[:3] for link in links)
    key = (gpu.id, count, bare, cores)
    if key not in caches.throughput:
        host = HostSpec(
            cpu_cores=cores,
            links=tuple(
                HostLink(pcie_gen=gen, lanes=lanes, attached_to=attached)
                for gen, lanes, attached in bare
            ),
        )
        result = estimate_throughput(profile, gpu, count, FITTED, host=host, curve=False)
        caches.throughput[key] = result.total_throughput
    return caches.throughput[key]
