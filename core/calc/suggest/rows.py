"""Helpers of the optimizer's rows: PCIe placement and throughput, each computed once.

Throughput depends on the GPU, its count, the PCIe links the board gives it and the CPU
cores, not on memory, PSU or case, so it is computed once per such key and reused; PCIe
placement is computed once per (board, CPU PCIe gen, card gen, lanes and width, riser,
count).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field

from core.calc.inference.memory import experts_to_fit, inference_memory, smaller_kv
from core.calc.inference.split import SPLIT_ENGINES, tensor_split_allowed
from core.calc.performance.constants import FITTED
from core.calc.performance.scaling import estimate_throughput
from core.calc.platform.pcie import assign_pcie
from core.calc.rig import Rig, serving_speed
from core.calc.suggest.space import MemoryOption, Platform
from core.models.build import Build, DriveSelection
from core.models.inference import InferenceSpeed
from core.models.parts import CPU, GPU, Drive, Riser
from core.models.suggest import SuggestRequest
from core.models.throughput import HostLink, HostSpec, WorkProfile
from core.models.workload import Workload

LinkKey = tuple[tuple[int, int, str, int], ...]
"""Per GPU: PCIe generation, lanes, attachment (cpu/chipset) and slot position."""


@dataclass
class RowCaches:
    links: dict[tuple[object, ...], LinkKey | None] = field(default_factory=dict)
    throughput: dict[tuple[object, ...], float] = field(default_factory=dict)
    serving: dict[tuple[object, ...], InferenceSpeed] = field(default_factory=dict)
    miss: dict[str, float | str] | None = None
    """The fastest serving configuration that missed the request's speed limits."""

    def note_miss(self, gpu: GPU, count: int, speed: InferenceSpeed) -> None:
        rate = speed.decode_tokens_s_per_stream
        if self.miss is None or rate > float(self.miss["decode_tokens_s"]):
            self.miss = {
                "gpu": gpu.name,
                "count": float(count),
                "decode_tokens_s": rate,
                "ttft_s": speed.ttft_s,
            }


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
    """``gpu_links`` by its cache key; ``make()`` builds the sketch only on a miss.
    ``None`` where a GPU or the search's one drive finds no slot (the drive is the same
    for every row of a search, so it is not part of the key)."""
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
            if assignment.gpus_unplaced or assignment.drives_unplaced
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


def option_bandwidth_gb_s(cpu: CPU, option: MemoryOption) -> float:
    """Host DRAM peak of a memory option: populated channels × transfer rate × 8 bytes."""
    return min(cpu.memory_channels, option.dimms) * option.kit.speed_mt_s * 8.0 / 1000.0


@functools.cache
def serving_variant(
    workload: Workload, vram_gib: float, count: int, require_fit: bool, smaller_cache: bool
) -> tuple[Workload, float] | None:
    """The served workload that fits ``count`` GPUs of ``vram_gib`` and the host RAM it
    needs: as given; else, where ``smaller_cache`` lets it, with the engine's 8-bit KV
    cache (llama.cpp q8_0, FP8 elsewhere: it costs no speed, as the expert's first move);
    else (a mixture-of-experts model on llama.cpp) with the fewest layers' experts in host
    RAM that make it fit, with either cache; ``None`` when none does."""
    serving = workload.serving_settings
    memory = inference_memory(workload, serving, vram_gib, count, with_fixes=False)
    if memory.fits or not require_fit:
        return workload, memory.host_ram_gib
    variants = [workload]
    if smaller_cache and serving.kv_cache == "f16":
        variants.append(workload.model_copy(update={"serving": smaller_kv(serving)}))
        memory = inference_memory(
            variants[1], variants[1].serving_settings, vram_gib, count, with_fixes=False
        )
        if memory.fits:
            return variants[1], memory.host_ram_gib
    for variant in variants:
        served = variant.serving_settings
        n = experts_to_fit(variant, served, vram_gib, count)
        if n is not None:
            update = {"serving": served.model_copy(update={"n_cpu_moe": n})}
            moved = variant.model_copy(update=update)
            memory = inference_memory(
                moved, moved.serving_settings, vram_gib, count, with_fixes=False
            )
            return moved, memory.host_ram_gib
    return None


@functools.cache
def split_variants(workload: Workload, vram_gib: float, count: int) -> tuple[Workload, ...]:
    """The served workload with each split its engine can run on ``count`` GPUs that
    fits (the one asked for first): Suggest tries any split."""
    serving = workload.serving_settings
    if count == 1 or serving.engine not in SPLIT_ENGINES:
        return (workload,)
    variants = []
    for split in (serving.split, "tensor" if serving.split == "layer" else "layer"):
        if split == "tensor" and not tensor_split_allowed(workload, count):
            continue
        if split == serving.split:
            variants.append(workload)
            continue
        update = {"serving": serving.model_copy(update={"split": split})}
        moved = workload.model_copy(update=update)
        memory = inference_memory(moved, moved.serving_settings, vram_gib, count, with_fixes=False)
        if memory.fits:
            variants.append(moved)
    return tuple(variants)


def row_serving(
    workload: Workload,
    gpu: GPU,
    count: int,
    links: LinkKey,
    cores: int,
    host_gb_s: float,
    caches: RowCaches,
) -> InferenceSpeed:
    """Serving speed of the row's machine (``core.calc.rig.serving_speed``)."""
    bare = tuple(link[:3] for link in links)
    key = (id(workload), gpu.id, count, bare, cores, host_gb_s)
    if key not in caches.serving:
        host = HostSpec(
            cpu_cores=cores,
            links=tuple(
                HostLink(pcie_gen=gen, lanes=lanes, attached_to=attached)
                for gen, lanes, attached in bare
            ),
            memory_gb_s=host_gb_s,
        )
        serving = workload.serving_settings
        memory = inference_memory(workload, serving, gpu.vram_gib, count, with_fixes=False)
        caches.serving[key] = serving_speed(
            workload, serving, Rig(gpu, count, host), max_streams=memory.max_streams, curves=False
        )
    return caches.serving[key]


def meets(speed: InferenceSpeed, request: SuggestRequest) -> bool:
    """Whether every stream generates fast enough and the first token comes soon enough."""
    low = request.min_decode_tokens_s
    if low is not None and speed.decode_tokens_s_per_stream < low:
        return False
    return request.max_ttft_s is None or speed.ttft_s <= request.max_ttft_s
