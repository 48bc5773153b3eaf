"""Stage 1 of the optimizer: one row per (GPU, count, platform) that survives pruning.

Throughput depends on the GPU, its count, the PCIe links the board gives it and
the CPU cores, not on memory or PSU, so it is computed once per such key and
reused; PCIe placement is computed once per (board, CPU PCIe gen, card gen,
lanes and width, count). VRAM fit and the GPU count's validity are checked once
per (GPU, count); the budget prunes a row before any of that work.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from core.calc.performance.constants import FITTED
from core.calc.performance.scaling import estimate_throughput
from core.calc.platform.pcie import assign_pcie, gpu_slot_width
from core.calc.platform.power import component_power, gpu_transient
from core.calc.suggest.space import Platform
from core.models.build import Build, DriveSelection
from core.models.parts import GPU, Drive
from core.models.throughput import HostLink, HostSpec, WorkProfile

LinkKey = tuple[tuple[int, int, str], ...]


@dataclass
class Row:
    """A (GPU, count, platform) that fits VRAM and budget and places every GPU."""

    gpu: GPU
    count: int
    platform: Platform
    gpu_index: int
    base_usd: float
    """GPUs + CPU + board + drive."""
    steady_wo_memory_w: float
    gpu_spike_extra_w: float
    transient_known: bool
    throughput: float
    host_ram_gib: float


@dataclass
class RowCaches:
    links: dict[tuple[object, ...], LinkKey | None] = field(default_factory=dict)
    throughput: dict[tuple[object, ...], float] = field(default_factory=dict)


def sketch_build(gpu: GPU, count: int, platform: Platform, drive: Drive) -> Build:
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
    )


def gpu_links(build: Build, caches: RowCaches) -> LinkKey | None:
    """The links every GPU gets, or ``None`` when the board cannot place them all."""
    key = (
        build.motherboard.id,
        build.cpu.pcie_gen,
        build.gpu.pcie_gen,
        build.gpu.pcie_lanes,
        gpu_slot_width(build),
        build.gpu_count,
    )
    if key not in caches.links:
        assignment = assign_pcie(build)
        caches.links[key] = (
            None
            if assignment.gpus_unplaced
            else tuple((link.gen, link.lanes, link.attached_to) for link in assignment.gpu_links)
        )
    return caches.links[key]


def row_throughput(
    profile: WorkProfile, gpu: GPU, count: int, links: LinkKey, cores: int, caches: RowCaches
) -> float:
    key = (gpu.id, count, links, cores)
    if key not in caches.throughput:
        host = HostSpec(
            cpu_cores=cores,
            links=tuple(
                HostLink(pcie_gen=gen, lanes=lanes, attached_to=attached)
                for gen, lanes, attached in links
            ),
        )
        result = estimate_throughput(profile, gpu, count, FITTED, host=host, curve=False)
        caches.throughput[key] = result.total_throughput
    return caches.throughput[key]


def power_terms(build: Build) -> tuple[float, float, bool]:
    """(steady DC watts without memory, extra watts of a GPU spike, spike measured/standard)."""
    steady = sum(c.total_w or 0.0 for c in component_power(build) if c.component != "memory")
    ratio, _, basis = gpu_transient(build.gpu)
    extra = (build.gpu_power_w or 0.0) * build.gpu_count * (ratio - 1.0)
    return steady, extra, basis != "assumed_cem5_bound"
