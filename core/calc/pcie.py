"""PCIe: which slot each GPU and M.2 drive lands in and the link it really gets.

Slot assignment searches every placement of the GPUs in the board's x16-sized
slots (a card ``w`` slots wide at position ``p`` covers ``p .. p+w-1``, so the
next card sits at ``p+w`` or lower) and every choice of M.2 slots for the NVMe
drives, applies the board's lane rules for that population, and keeps the best
by, in order: GPUs with a usable link, drives placed, total GPU bandwidth, the
weakest GPU's bandwidth, GPUs on the CPU, drive bandwidth, top-most slots.

Sources: per-lane rates after encoding, per direction — Gen3 0.985, Gen4 1.969,
Gen5 3.938, Gen6 7.56 GB/s (shared/data/hardware/pcie_interconnect.md, W-NVL,
GH-BUS); Gen1 0.25 and Gen2 0.5 GB/s (2.5 and 5 GT/s with 8b/10b encoding).
Assumptions: every GPU has a full x16 edge connector (open-ended short slots are
not modelled); M.2 NVMe drives use x4; a card with unknown slot width is placed
as one slot wide (and an info check says so).
"""

from __future__ import annotations

import math
from itertools import combinations

from core.models.build import Build
from core.models.parts import Drive, M2Slot, Motherboard, PcieGen, PcieSlot
from core.models.pcie import Attach, DriveLink, GpuLink, PcieAssignment

GB_S_PER_LANE: dict[int, float] = {1: 0.25, 2: 0.5, 3: 0.985, 4: 1.969, 5: 3.938, 6: 7.56}
M2_NVME_LANES = 4
WEAK_LINK_GEN3_LANES = 8.0
"""Warn at x8 Gen3-equivalent or less."""


def link_bandwidth_gb_s(gen: int, lanes: int) -> float:
    """Per-direction bandwidth of a ``gen`` × ``lanes`` link, GB/s."""
    return GB_S_PER_LANE[gen] * lanes


def gpu_slot_width(build: Build) -> int:
    """Slot positions one GPU covers: its width rounded up, 1 when unknown."""
    return math.ceil(build.gpu.slot_width) if build.gpu.slot_width else 1


def m2_nvme_drives(build: Build) -> tuple[Drive, ...]:
    return tuple(
        s.drive
        for s in build.drives
        for _ in range(s.count)
        if s.drive.interface == "nvme" and s.drive.form_factor == "m.2"
    )


def gpu_slots(board: Motherboard) -> tuple[PcieSlot, ...]:
    """Slots a GPU fits in physically (x16 long), top first."""
    return tuple(
        sorted((s for s in board.pcie_slots if s.physical_lanes == 16), key=lambda s: s.position)
    )


def max_gpus_by_geometry(board: Motherboard, width: int) -> int:
    """Most ``width``-wide cards the board's x16 slots take (greedy from the top is optimal)."""
    placed, free_from = 0, 0
    for slot in gpu_slots(board):
        if slot.position >= free_from:
            placed, free_from = placed + 1, slot.position + width
    return placed


def _lanes(slot: PcieSlot | M2Slot, populated: frozenset[str]) -> int:
    lanes: int = slot.lanes
    for rule in slot.lane_rules:
        if rule.when_populated in populated:
            lanes = min(lanes, rule.lanes)
    return lanes


def _gen(device_gen: int, slot_gen: int, attached: Attach, cpu_gen: int) -> PcieGen:
    gen = min(device_gen, slot_gen, cpu_gen if attached == "cpu" else slot_gen)
    assert 1 <= gen <= 6
    return gen  # type: ignore[return-value]


def _fits(positions: tuple[int, ...], width: int) -> bool:
    return all(b >= a + width for a, b in zip(positions, positions[1:], strict=False))


Score = tuple[float, ...]


def _evaluate(
    build: Build,
    gpu_set: tuple[PcieSlot, ...],
    m2_set: tuple[M2Slot, ...],
    drives: tuple[Drive, ...],
    width: int,
) -> tuple[Score, tuple[GpuLink, ...], tuple[DriveLink, ...]]:
    populated = frozenset(s.id for s in gpu_set) | frozenset(m.id for m in m2_set)
    gpu, cpu_gen = build.gpu, build.cpu.pcie_gen
    gpu_links: list[GpuLink] = []
    for slot in gpu_set:
        lanes = min(_lanes(slot, populated), gpu.pcie_lanes)
        if lanes == 0:
            continue
        gen = _gen(gpu.pcie_gen, slot.gen, slot.attached_to, cpu_gen)
        gpu_links.append(
            GpuLink(
                gpu=len(gpu_links) + 1,
                slot_id=slot.id,
                position=slot.position,
                slot_width=width,
                gen=gen,
                lanes=lanes,
                attached_to=slot.attached_to,
                bandwidth_gb_s=link_bandwidth_gb_s(gen, lanes),
            )
        )
    drive_links: list[DriveLink] = []
    usable = [m for m in m2_set if _lanes(m, populated) > 0]
    usable.sort(key=lambda m: (m.attached_to != "cpu", -m.gen, -_lanes(m, populated)))
    ordered = sorted(drives, key=lambda d: -(d.pcie_gen or 0))
    for slot, drive in zip(usable, ordered, strict=False):
        lanes = min(_lanes(slot, populated), M2_NVME_LANES)
        gen = _gen(drive.pcie_gen or slot.gen, slot.gen, slot.attached_to, cpu_gen)
        drive_links.append(
            DriveLink(
                drive_id=drive.id,
                slot_id=slot.id,
                gen=gen,
                lanes=lanes,
                attached_to=slot.attached_to,
                bandwidth_gb_s=link_bandwidth_gb_s(gen, lanes),
            )
        )
    bandwidths = [g.bandwidth_gb_s for g in gpu_links]
    score: Score = (
        len(gpu_links),
        len(drive_links),
        round(sum(bandwidths), 3),
        round(min(bandwidths, default=0.0), 3),
        sum(g.attached_to == "cpu" for g in gpu_links),
        round(sum(d.bandwidth_gb_s for d in drive_links), 3),
        -sum(s.position for s in gpu_set),
    )
    return score, tuple(gpu_links), tuple(drive_links)


def assign_pcie(build: Build) -> PcieAssignment:
    """Place the GPUs, then the M.2 NVMe drives, for the best links under the lane rules."""
    board = build.motherboard
    width = gpu_slot_width(build)
    slots = gpu_slots(board)
    drives = m2_nvme_drives(build)
    fitting = max_gpus_by_geometry(board, width)
    m2_count = min(len(drives), len(board.m2_slots))
    m2_sets = tuple(combinations(board.m2_slots, m2_count))
    best: tuple[Score, tuple[GpuLink, ...], tuple[DriveLink, ...]] | None = None
    for size in range(min(build.gpu_count, fitting), 0, -1):
        for gpu_set in combinations(slots, size):
            if not _fits(tuple(s.position for s in gpu_set), width):
                continue
            for m2_set in m2_sets:
                result = _evaluate(build, gpu_set, m2_set, drives, width)
                if best is None or result[0] > best[0]:
                    best = result
        if best is not None and best[0][0] == size:
            break  # a smaller set cannot place more GPUs
    gpu_links, drive_links = (best[1], best[2]) if best else ((), ())
    placed_ids = [d.drive_id for d in drive_links]
    unplaced = list(d.id for d in drives)
    for drive_id in placed_ids:
        unplaced.remove(drive_id)
    return PcieAssignment(
        gpu_links=gpu_links,
        gpus_fitting_geometry=fitting,
        gpus_unplaced=build.gpu_count - len(gpu_links),
        drive_links=drive_links,
        drives_unplaced=tuple(unplaced),
        slot_width_known=build.gpu.slot_width is not None,
    )


def lanes_demanded(build: Build) -> int:
    """PCIe lanes the GPUs and M.2 NVMe drives ask for at full width."""
    return build.gpu_count * build.gpu.pcie_lanes + len(m2_nvme_drives(build)) * M2_NVME_LANES


def is_weak_link(link: GpuLink) -> bool:
    return link.gen3_equivalent_lanes <= WEAK_LINK_GEN3_LANES
