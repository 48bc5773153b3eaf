"""PCIe: which slot each GPU and M.2 drive lands in and the link it really gets.

Slot assignment searches every placement of the GPUs in the board's x16-sized
slots (a card ``w`` slots wide at position ``p`` covers ``p .. p+w-1``, so the
next card sits at ``p+w`` or lower) and every choice of M.2 slots for the NVMe
drives, applies the board's lane rules for that population, and keeps the best
by, in order: GPUs with a usable link, drives placed, total GPU bandwidth, the
weakest GPU's bandwidth, GPUs on the CPU, drive bandwidth, a free slot between open-air
cards, top-most slots. The search
is bounded (``PLACEMENT_BUDGET``): past it the drives, then the GPUs, are placed greedily.

Per-lane rates: ``core.models.pcie.GB_S_PER_LANE``.
Assumptions: every GPU has a full x16 edge connector (open-ended short slots are
not modelled); M.2 NVMe drives use x4; a card with unknown slot width is placed
as one slot wide (and an info check says so).
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from itertools import combinations, pairwise

from core.calc.platform.compat import memory_fits, pick_memory, price_key, same_socket
from core.catalog.catalog import Catalog
from core.models.build import Build
from core.models.checks import BuildField, Check, Fix, FixValue
from core.models.parts import CPU, Drive, M2Slot, Motherboard, PcieGen, PcieSlot
from core.models.pcie import (
    GB_S_PER_LANE,
    Attach,
    DriveLink,
    GpuLink,
    PcieAssignment,
    link_bandwidth_gb_s,
)

M2_NVME_LANES = 4
WEAK_LINK_GEN3_LANES = 8.0
"""Warn at x8 Gen3-equivalent or less."""


def gpu_slot_width(build: Build) -> int:
    """Slot positions one GPU covers: its width rounded up, 1 when unknown.

    Also 1 when the board's slot positions are not sourced: spacing is then
    reported as unknown by the physical check instead of failing a build on
    positions that are only the slots' order.
    """
    if not build.motherboard.slot_positions_sourced or build.riser is not None:
        return 1  # on risers the cards sit away from the board: each covers only its slot
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
    return all(b >= a + width for a, b in pairwise(positions))


Score = tuple[float, ...]

PLACEMENT_BUDGET = 256
"""Placements (GPU set + M.2 set) one search may evaluate, across every GPU count it tries
(the catalog's boards need at most 210: they are always searched exhaustively).
A GPU count whose every (GPU set, M.2 set) pair fits the budget left is searched
exhaustively; else each GPU set gets one M.2 set chosen greedily; else the GPUs are placed
greedily and improved by single-slot swaps. A board with many M.2 slots or many x16 slots
with lane-sharing rules stays fast (16 M.2 slots and 8 drives: 12,870 M.2 sets per GPU
placement; 14 x16 slots: 16,383 GPU sets of all sizes)."""

EXHAUSTIVE_PLACEMENTS = PLACEMENT_BUDGET
"""Former name of :data:`PLACEMENT_BUDGET`."""

SWAP_PASSES = 8
"""Improvement passes of the greedy fallback (each tries every single-slot swap)."""


def _greedy_m2_set(
    m2_slots: tuple[M2Slot, ...], gpu_set: tuple[PcieSlot, ...], count: int
) -> tuple[M2Slot, ...]:
    """The ``count`` M.2 slots that keep the most lanes next to these GPUs, CPU-attached and
    fastest first, and that take the fewest lanes away from the GPUs."""
    populated = frozenset(s.id for s in gpu_set)
    steals = {rule.when_populated for slot in gpu_set for rule in slot.lane_rules}

    def preference(m2: M2Slot) -> tuple[bool, bool, bool, int, int]:
        lanes = _lanes(m2, populated)
        return (lanes == 0, m2.id in steals, m2.attached_to != "cpu", -m2.gen, -lanes)

    return tuple(sorted(m2_slots, key=preference)[:count])


Placement = tuple[tuple[PcieSlot, ...], tuple[M2Slot, ...]]
"""A GPU set and an M.2 set: what the search compares (links are built for the best only)."""


def _raw_links(
    build: Build,
    gpu_set: tuple[PcieSlot, ...],
    m2_set: tuple[M2Slot, ...],
    drives: tuple[Drive, ...],
) -> tuple[list[tuple[PcieSlot, PcieGen, int]], list[tuple[M2Slot, Drive, PcieGen, int]]]:
    """(slot, gen, lanes) of each GPU with a usable link; (slot, drive, gen, lanes) of each
    placed drive, fastest drive in the best slot (``drives`` come fastest first)."""
    populated = frozenset(s.id for s in gpu_set) | frozenset(m.id for m in m2_set)
    gpu, cpu_gen, riser = build.gpu, build.cpu.pcie_gen, build.riser
    gpus: list[tuple[PcieSlot, PcieGen, int]] = []
    for slot in gpu_set:
        lanes = min(_lanes(slot, populated), gpu.pcie_lanes)
        if riser is not None:
            lanes = min(lanes, riser.lanes)
        if lanes == 0:
            continue
        gen = _gen(gpu.pcie_gen, slot.gen, slot.attached_to, cpu_gen)
        if riser is not None:
            gen = min(gen, riser.pcie_gen)
        gpus.append((slot, gen, lanes))
    usable = [(m, lanes) for m in m2_set if (lanes := _lanes(m, populated)) > 0]
    usable.sort(key=lambda ml: (ml[0].attached_to != "cpu", -ml[0].gen, -ml[1]))
    placed = [
        (m2, drive, _gen(drive.pcie_gen or m2.gen, m2.gen, m2.attached_to, cpu_gen), lanes)
        for (m2, lanes), drive in zip(usable, drives, strict=False)
    ]
    return gpus, [(m2, drive, gen, min(lanes, M2_NVME_LANES)) for m2, drive, gen, lanes in placed]


def _spaced(build: Build, gpus: list[tuple[PcieSlot, PcieGen, int]], width: int) -> int:
    """1 when open-air cards have a free slot between them (they need it to breathe:
    ``core.calc.platform.physical``), else 0; always 0 for other coolers."""
    if build.gpu.cooler != "open-air" or len(gpus) < 2 or width <= 1:
        return 0
    positions = sorted(slot.position for slot, _gen, _lanes in gpus)
    return int(all(b - (a + width) >= 1 for a, b in pairwise(positions)))


def _evaluate(
    build: Build,
    gpu_set: tuple[PcieSlot, ...],
    m2_set: tuple[M2Slot, ...],
    drives: tuple[Drive, ...],
    width: int = 1,
) -> tuple[Score, Placement]:
    gpus, placed = _raw_links(build, gpu_set, m2_set, drives)
    bandwidths = [GB_S_PER_LANE[gen] * lanes for _slot, gen, lanes in gpus]
    score: Score = (
        len(gpus),
        len(placed),
        # The slowest GPU link bounds data-parallel all-reduce, so balance beats total:
        # x8/x8 on the CPU is preferred to x16 + x4 behind the chipset.
        round(min(bandwidths, default=0.0), 3),
        sum(slot.attached_to == "cpu" for slot, _gen, _lanes in gpus),
        round(sum(bandwidths), 3),
        round(sum(GB_S_PER_LANE[gen] * lanes for _m2, _drive, gen, lanes in placed), 3),
        _spaced(build, gpus, width),
        -sum(s.position for s in gpu_set),
    )
    return score, (gpu_set, m2_set)


def _links(
    build: Build, placement: Placement, drives: tuple[Drive, ...], width: int
) -> tuple[tuple[GpuLink, ...], tuple[DriveLink, ...]]:
    gpus, placed = _raw_links(build, *placement, drives)
    gpu_links = tuple(
        GpuLink(
            gpu=number,
            slot_id=slot.id,
            position=slot.position,
            slot_width=width,
            gen=gen,
            lanes=lanes,
            attached_to=slot.attached_to,
            bandwidth_gb_s=link_bandwidth_gb_s(gen, lanes),
        )
        for number, (slot, gen, lanes) in enumerate(gpus, start=1)
    )
    drive_links = tuple(
        DriveLink(
            drive_id=drive.id,
            slot_id=m2.id,
            gen=gen,
            lanes=lanes,
            attached_to=m2.attached_to,
            bandwidth_gb_s=link_bandwidth_gb_s(gen, lanes),
        )
        for m2, drive, gen, lanes in placed
    )
    return gpu_links, drive_links


def _greedy_gpu_set(slots: tuple[PcieSlot, ...], size: int, width: int) -> tuple[PcieSlot, ...]:
    """Up to ``size`` slots taken best-first (CPU-attached, widest, newest, top-most), each
    only where it fits beside those taken and leaves every taken slot some lanes."""

    def preference(slot: PcieSlot) -> tuple[bool, int, int, int]:
        return (slot.attached_to != "cpu", -slot.lanes, -slot.gen, slot.position)

    chosen: list[PcieSlot] = []
    for slot in sorted(slots, key=preference):
        if len(chosen) == size:
            break
        trial = sorted((*chosen, slot), key=lambda s: s.position)
        populated = frozenset(s.id for s in trial)
        if _fits(tuple(s.position for s in trial), width) and all(
            _lanes(s, populated) > 0 for s in trial
        ):
            chosen = trial
    return tuple(chosen)


def _greedy_search(
    build: Build,
    slots: tuple[PcieSlot, ...],
    size: int,
    width: int,
    drives: tuple[Drive, ...],
    m2_count: int,
) -> tuple[Score, Placement]:
    """A greedy placement improved by single-slot swaps and additions while they score
    better (at most :data:`SWAP_PASSES` passes, each a few hundred evaluations at most)."""
    m2_slots = build.motherboard.m2_slots

    def evaluate(gpu_set: tuple[PcieSlot, ...]) -> tuple[Score, Placement]:
        m2_set = _greedy_m2_set(m2_slots, gpu_set, m2_count)
        return _evaluate(build, gpu_set, m2_set, drives, width)

    starts = [_greedy_gpu_set(slots, size, width)]
    if build.gpu.cooler == "open-air" and width > 1:
        starts.append(_greedy_gpu_set(slots, size, width + 1))  # a free slot between cards
    best, current = max(((evaluate(start), start) for start in starts), key=lambda r: r[0][0])
    for _ in range(SWAP_PASSES):
        improved = False
        taken = {s.id for s in current}
        free = [s for s in slots if s.id not in taken]
        moves = [
            tuple(sorted((*(c for c in current if c.id != out.id), into), key=_position))
            for out in current
            for into in free
        ]
        if len(current) < size:
            moves += [tuple(sorted((*current, into), key=_position)) for into in free]
        for move in moves:
            if not _fits(tuple(s.position for s in move), width):
                continue
            result = evaluate(move)
            if result[0] > best[0]:
                best, current, improved = result, move, True
        if not improved:
            break
    return best


def _position(slot: PcieSlot) -> int:
    return slot.position


_PLACED: OrderedDict[tuple[int, ...], tuple[tuple[object, ...], PcieAssignment]] = OrderedDict()
"""Placements already worked out, by the identity of the parts they depend on (the parts
are kept with the result, so an id is never reused while it is a key)."""
PLACED_KEPT = 256
_PLACED_LOCK = threading.Lock()


def assign_pcie(build: Build) -> PcieAssignment:
    """Place the GPUs, then the M.2 NVMe drives, for the best links under the lane rules.

    Work is bounded by :data:`PLACEMENT_BUDGET` whatever the board holds. The placement
    depends on the board, CPU, GPU, riser and drives only: builds that share those objects
    (a comparison of one platform, the same build renamed) are placed once.
    """
    parts: tuple[object, ...] = (
        build.motherboard,
        build.cpu,
        build.gpu,
        build.riser,
        *(d.drive for d in build.drives),
    )
    key = (*map(id, parts), build.gpu_count, *(d.count for d in build.drives))
    with _PLACED_LOCK:  # Suggest and Make it work place builds on worker threads
        hit = _PLACED.get(key)
        if hit is not None:
            _PLACED.move_to_end(key)
            return hit[1]
    assignment = _assign(build)
    with _PLACED_LOCK:
        _PLACED[key] = (parts, assignment)
        if len(_PLACED) > PLACED_KEPT:
            _PLACED.popitem(last=False)
    return assignment


def _assign(build: Build) -> PcieAssignment:
    board = build.motherboard
    width = gpu_slot_width(build)
    slots = gpu_slots(board) if build.gpu.form_factor == "pcie" else ()
    drives = m2_nvme_drives(build)
    # fastest first, once for every placement tried (the best drive takes the best slot)
    fastest = tuple(sorted(drives, key=lambda d: -(d.pcie_gen or 0)))
    fitting = max_gpus_by_geometry(board, width) if slots else 0
    m2_count = min(len(drives), len(board.m2_slots))
    m2_sets = math.comb(len(board.m2_slots), m2_count)
    budget = PLACEMENT_BUDGET
    best: tuple[Score, Placement] | None = None
    for size in range(min(build.gpu_count, fitting), 0, -1):
        gpu_sets = math.comb(len(slots), size)
        if gpu_sets * m2_sets <= budget or gpu_sets <= budget:
            exhaustive_m2 = gpu_sets * m2_sets <= budget
            budget -= gpu_sets * (m2_sets if exhaustive_m2 else 1)
            for gpu_set in combinations(slots, size):
                if not _fits(tuple(s.position for s in gpu_set), width):
                    continue
                for m2_set in (
                    combinations(board.m2_slots, m2_count)
                    if exhaustive_m2
                    else (_greedy_m2_set(board.m2_slots, gpu_set, m2_count),)
                ):
                    result = _evaluate(build, gpu_set, m2_set, fastest, width)
                    if best is None or result[0] > best[0]:
                        best = result
        else:
            # Too many sets to try: a greedy placement of up to ``size`` GPUs, improved by
            # swaps, covers this size and every smaller one.
            result = _greedy_search(build, slots, size, width, fastest, m2_count)
            if best is None or result[0] > best[0]:
                best = result
            break
        if best is not None and best[0][0] == size:
            break  # a smaller set cannot place more GPUs
    gpu_links, drive_links = _links(build, best[1], fastest, width) if best else ((), ())
    placed_ids = [d.drive_id for d in drive_links]
    unplaced = [d.id for d in drives]
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
    gpus = build.gpu_count if build.gpu.form_factor == "pcie" else 0
    return gpus * build.gpu.pcie_lanes + len(m2_nvme_drives(build)) * M2_NVME_LANES


def is_weak_link(link: GpuLink) -> bool:
    return link.gen3_equivalent_lanes <= WEAK_LINK_GEN3_LANES


def _all_links_strong(build: Build) -> bool:
    assignment = assign_pcie(build)
    return assignment.gpus_unplaced == 0 and not any(
        is_weak_link(g) or g.attached_to == "chipset" for g in assignment.gpu_links
    )


def platform_fix(build: Build, catalog: Catalog) -> Fix | None:
    """A board (same CPU), else a CPU + board, under which every GPU gets a strong CPU link.

    Strong: attached to the CPU and more than x8 Gen3-equivalent. Cheapest first;
    the memory kit is swapped too when the new platform cannot take it.
    """
    boards = sorted(
        (b for b in catalog.parts("motherboard") if isinstance(b, Motherboard)), key=price_key
    )
    for board in boards:
        if board.id != build.motherboard.id and same_socket(build.cpu, board):
            candidate = build.model_copy(update={"motherboard": board})
            if memory_fits(build.memory, build.cpu, board) and _all_links_strong(candidate):
                return Fix(
                    code="use_board",
                    build={"motherboard": board.id},
                    numbers={"socket": board.socket, "name": board.name},
                )
    demanded = lanes_demanded(build)
    cpus = sorted(
        (
            c
            for c in catalog.parts("cpu")
            if isinstance(c, CPU) and c.pcie_lanes is not None and c.pcie_lanes >= demanded
        ),
        key=price_key,
    )
    for cpu in cpus:
        for board in boards:
            if not same_socket(cpu, board) or board.memory_type not in cpu.memory_types:
                continue
            if not _all_links_strong(build.model_copy(update={"cpu": cpu, "motherboard": board})):
                continue
            change: dict[BuildField, FixValue] = {"cpu": cpu.id, "motherboard": board.id}
            if not memory_fits(build.memory, cpu, board):
                kit = pick_memory(build, cpu, board, catalog)
                if kit is not None:
                    change |= kit.build
            return Fix(
                code="use_platform",
                build=change,
                numbers={
                    "cpu_lanes": float(cpu.pcie_lanes or 0),
                    "cpu": cpu.name,
                    "board": board.name,
                },
            )
    return None


def pcie_checks(
    build: Build, assignment: PcieAssignment, catalog: Catalog | None = None
) -> tuple[Check, ...]:
    """Lane budget, per-GPU links, M.2 placement, chipset uplink sharing, P2P/NVLink."""
    checks: list[Check] = []
    demanded, available = lanes_demanded(build), build.cpu.pcie_lanes
    lane_numbers: dict[str, float | str] = {
        "demanded": demanded,
        "gpus": build.gpu_count if build.gpu.form_factor == "pcie" else 0,
        "gpu_lanes": build.gpu.pcie_lanes,
        "nvme": len(m2_nvme_drives(build)),
    }
    weak = assignment.gpus_unplaced > 0 or any(
        is_weak_link(g) or g.attached_to == "chipset" for g in assignment.gpu_links
    )
    fix = platform_fix(build, catalog) if catalog is not None and weak else None
    if available is None:
        checks.append(
            Check(
                id="pcie.lanes", severity="info", reason="cpu_lanes_unknown", numbers=lane_numbers
            )
        )
    else:
        lane_numbers["available"] = available
        over = demanded > available
        # More lanes asked for than the CPU has is how every desktop board works: it splits
        # them (x8/x8). What matters is the link each GPU gets, checked one by one below;
        # only when one of those is weak is the shortage worth acting on.
        severity = "warn" if over and weak else "info" if over else "pass"
        checks.append(
            Check(
                id="pcie.lanes",
                severity=severity,
                reason="lanes_oversubscribed" if over else "lanes_enough",
                numbers=lane_numbers,
                fix=fix if over and weak else None,
            )
        )
    for link in assignment.gpu_links:
        numbers: dict[str, float | str] = {
            "gpu": link.gpu,
            "slot": link.slot_id,
            "position": link.position,
            "gen": link.gen,
            "lanes": link.lanes,
            "attached_to": link.attached_to,
            "bandwidth_gb_s": round(link.bandwidth_gb_s, 2),
            "gen3_equivalent_lanes": link.gen3_equivalent_lanes,
        }
        cid = f"pcie.gpu_link.{link.gpu}"
        if link.attached_to == "chipset":
            checks.append(
                Check(id=cid, severity="warn", reason="gpu_on_chipset", numbers=numbers, fix=fix)
            )
        elif is_weak_link(link):
            checks.append(
                Check(id=cid, severity="warn", reason="gpu_link_narrow", numbers=numbers, fix=fix)
            )
        else:
            checks.append(Check(id=cid, severity="pass", reason="gpu_link_ok", numbers=numbers))
    for index in range(assignment.gpus_unplaced if build.gpu.form_factor == "pcie" else 0):
        gpu = len(assignment.gpu_links) + index + 1
        checks.append(
            Check(
                id=f"pcie.gpu_link.{gpu}",
                severity="fail",
                reason="gpu_no_usable_slot",
                numbers={"gpu": gpu},
                fix=fix,
            )
        )
    if m2_nvme_drives(build):
        checks.append(_m2_check(build, assignment))
    checks.append(_chipset_check(build, assignment))
    if build.gpu_count > 1:
        checks.append(p2p_check(build))
    return tuple(checks)


def _m2_check(build: Build, assignment: PcieAssignment) -> Check:
    names = {s.drive.id: s.drive.name for s in build.drives}
    numbers: dict[str, float | str] = {
        "drives": len(m2_nvme_drives(build)),
        "m2_slots": len(build.motherboard.m2_slots),
        "placed": len(assignment.drive_links),
        "unplaced": ", ".join(names.get(i, i) for i in assignment.drives_unplaced),
    }
    if assignment.drives_unplaced:
        return Check(id="pcie.m2", severity="fail", reason="drive_no_m2_slot", numbers=numbers)
    return Check(id="pcie.m2", severity="pass", reason="drives_placed", numbers=numbers)


def _chipset_check(build: Build, assignment: PcieAssignment) -> Check:
    """Devices behind the chipset share its uplink to the CPU."""
    board = build.motherboard
    gpus = [g for g in assignment.gpu_links if g.attached_to == "chipset"]
    drives = [d for d in assignment.drive_links if d.attached_to == "chipset"]
    numbers: dict[str, float | str] = {
        "chipset_gpus": len(gpus),
        "chipset_drives": len(drives),
        "devices_gb_s": round(sum(d.bandwidth_gb_s for d in (*gpus, *drives)), 2),
    }
    cid = "pcie.chipset"
    if not gpus and not drives:
        return Check(id=cid, severity="pass", reason="nothing_on_chipset", numbers=numbers)
    if board.chipset_uplink_gen is None or board.chipset_uplink_lanes is None:
        return Check(
            id=cid,
            severity="warn" if gpus else "info",
            reason="chipset_uplink_unknown",
            numbers=numbers,
        )
    uplink = link_bandwidth_gb_s(board.chipset_uplink_gen, board.chipset_uplink_lanes)
    numbers |= {
        "uplink_gen": board.chipset_uplink_gen,
        "uplink_lanes": board.chipset_uplink_lanes,
        "uplink_gb_s": round(uplink, 2),
    }
    if gpus:
        return Check(id=cid, severity="warn", reason="gpu_shares_chipset_uplink", numbers=numbers)
    if sum(d.bandwidth_gb_s for d in (*gpus, *drives)) > uplink + 1e-9:
        return Check(id=cid, severity="info", reason="chipset_uplink_shared", numbers=numbers)
    return Check(id=cid, severity="pass", reason="chipset_uplink_enough", numbers=numbers)


def p2p_check(build: Build) -> Check:
    """GPU-to-GPU path: NVLink bridges or fabric, else PCIe peer-to-peer on the stock driver.

    Source: shared/data/hardware/pcie_interconnect.md §3 (per-GPU P2P evidence).
    """
    gpu, count = build.gpu, build.gpu_count
    numbers: dict[str, float | str] = {
        "gpus": count,
        "bridges": build.nvlink_bridges,
        "p2p_pcie": gpu.p2p_pcie,
    }
    if gpu.nvlink_gb_s is not None:
        numbers["nvlink_gb_s"] = gpu.nvlink_gb_s
    if gpu.nvlink_topology == "nvswitch":
        return Check(id="pcie.p2p", severity="pass", reason="nvlink_fabric", numbers=numbers)
    if gpu.nvlink_topology == "bridge_pair":
        pairs = count // 2
        if build.nvlink_bridges == pairs and count % 2 == 0:
            return Check(
                id="pcie.p2p", severity="pass", reason="nvlink_all_paired", numbers=numbers
            )
        numbers["pairs"] = pairs
        return Check(
            id="pcie.p2p",
            severity="warn",
            reason="nvlink_bridges_missing",
            numbers=numbers,
            fix=Fix(
                code="add_nvlink_bridges",
                build={"nvlink_bridges": pairs},
                numbers={"bridges": pairs},
            ),
        )
    if gpu.p2p_pcie == "yes":
        return Check(id="pcie.p2p", severity="pass", reason="p2p_over_pcie", numbers=numbers)
    if gpu.p2p_pcie == "no":
        # a fact of the card, already in the throughput estimate (exchanges through host
        # memory); nothing in the build can change it
        return Check(id="pcie.p2p", severity="info", reason="no_p2p", numbers=numbers)
    return Check(id="pcie.p2p", severity="info", reason="p2p_unknown", numbers=numbers)
