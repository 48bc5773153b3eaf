"""The build optimizer: the cost-vs-throughput Pareto front of the whole catalog.

Search space: GPU model (new, or used where it has a used price and the request allows
it) × count × CPU/board platform × memory option × PSU option × case (a tower or rack
chassis, or an open frame with one riser per GPU), with one drive.

Throughput depends on the GPU, its count, the PCIe links the board gives it and the CPU
cores, never on memory, PSU or case, so for each (GPU, count, platform, mounting) only
the *cheapest* memory option with enough capacity, case that takes the build and PSU
that powers it can be on the front: the others cost more for the same throughput. The
search therefore

1. per (GPU, count): drops a count the workload cannot split over; checks VRAM (for
   training, with selective and then full activation checkpointing when the plain
   workload does not fit, said in the result);
2. per platform, with numpy over all platforms at once: drops an unpriced part (never
   guessed; counted), a lower cost bound over budget; then places the GPUs (PCIe, cached
   per board and card kind), computes throughput once per (GPU, count, links, cores),
   and picks the cheapest memory option and case;
3. per row, with numpy over every PSU option: steady and peak DC power, PSU load and
   efficiency (the published curve, interpolated as ``power.psu_efficiency``), wall
   power against the circuit and the power cap, the transient against the PSU's
   excursion limit, GPU cables listed and sufficient; the cheapest PSU that passes;
4. takes the Pareto front of (cost, throughput) and runs the full ``analyze`` on its
   builds only; a build whose checks fail leaves the front, which is then recomputed.

Sources: the power and PCIe rules are those of ``core.calc.platform.power`` and
``core.calc.platform.pcie`` (cited there); Pareto optimality: a build is on the front
when no other build is at most as expensive and strictly faster.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from core.calc.analysis import analyze
from core.calc.inference import is_serving
from core.calc.memory import vram_breakdown
from core.calc.memory.components import GIB, host_ram_bytes
from core.calc.parallel import check_gpu_count
from core.calc.performance.profile import profile_from_workload
from core.calc.platform.compat import connectors_ok, price_key
from core.calc.platform.form_factors import board_fits
from core.calc.platform.power import (
    CIRCUIT_WARN_FRACTION,
    DIMM_W,
    STEADY_WARN_FRACTION,
    TRANSIENT_ASSUMED,
    component_power,
    gpu_transient,
    psu_excursion_tolerance,
)
from core.calc.suggest.rank import (
    Candidate,
    binding_reason,
    pareto_indices,
    pick_spread,
    reasons_for,
)
from core.calc.suggest.rows import (
    LinkKey,
    RowCaches,
    links_for,
    meets,
    option_bandwidth_gb_s,
    row_serving,
    row_throughput,
    serving_variant,
    sketch_build,
    split_variants,
)
from core.calc.suggest.signable import precision_rate_known, precision_supported, signable
from core.calc.suggest.space import Platform, PsuOption, default_drive, platforms, psu_options
from core.catalog import Catalog
from core.errors import InvalidWorkload, RigForgeError
from core.models.build import Build, DriveSelection
from core.models.parts import GPU, Case, Drive, Riser
from core.models.settings import AnalysisSettings
from core.models.suggest import SkipCounts, Suggestion, SuggestRequest, SuggestResult, SystemPick
from core.models.system import System
from core.models.throughput import WorkProfile
from core.models.workload import TRAINING_TASKS, Workload

FloatArray = npt.NDArray[np.float64]
MAX_ROUNDS = 12
"""Front recomputations after builds fail their checks (bounds the analyze() calls)."""
CHECKPOINTING_STEPS = ("selective", "full")
MOUNTING_KINDS = 2
"""In a case (tower or rack chassis), or on an open frame with a riser per GPU."""


@dataclass(frozen=True)
class _Offer:
    """A GPU as bought: new or used, at its price."""

    gpu: GPU
    index: int
    usd: float
    used: bool


@dataclass(frozen=True)
class _Mounting:
    """How the GPUs sit: in their slots inside a case, or on risers on an open frame."""

    case: Case
    riser: Riser | None
    usd_per_build: float
    usd_per_gpu: float


@dataclass
class _Row:
    offer: _Offer
    count: int
    platform: Platform
    memory: int
    mounting: _Mounting
    workload: Workload
    cost_wo_psu: float
    steady_w: float
    spike_extra_w: float
    transient_known: bool
    throughput: float
    psu: int = -1
    cost: float = math.inf
    wall_w: float = 0.0


@dataclass
class _Space:
    """Everything about the catalog the search needs, priced and indexed once."""

    plats: tuple[Platform, ...]
    plat_usd: FloatArray
    plat_base_w: FloatArray
    memory_by_capacity: list[list[tuple[float, float, int, float]]]
    """Per platform: (capacity GiB, cheapest usd with at least this capacity, option index,
    its DIMM watts), capacity ascending."""
    psus: tuple[PsuOption, ...]
    psu_usd: FloatArray
    psu_rated: FloatArray
    psu_curves: list[tuple[FloatArray, FloatArray]]
    cases: tuple[Case, ...]
    frames: tuple[Case, ...]
    riser: Riser | None
    drive: Drive
    unpriced_platforms: int
    connectors: dict[tuple[object, ...], npt.NDArray[np.bool_]] = field(default_factory=dict)
    tolerance: dict[str, FloatArray] = field(default_factory=dict)


def suggest(
    workload: Workload,
    request: SuggestRequest,
    catalog: Catalog,
    settings: AnalysisSettings | None = None,
    *,
    cancelled: Callable[[], bool] | None = None,
    progress: Callable[[float], None] | None = None,
) -> SuggestResult:
    """Search the catalog for the Pareto-best builds of ``workload`` within ``request``.

    Serving an LLM is sized by the serving model (``core.calc.inference``): a build fits
    when its GPUs hold the weights and every stream's KV cache (a mixture-of-experts model
    on llama.cpp may keep experts in host RAM, ``--n-cpu-moe``), and it ranks by the
    output tokens/s of the requested streams, each at least ``min_decode_tokens_s`` with a
    first token within ``max_ttft_s``."""
    settings = settings or AnalysisSettings()
    if request.circuit is not None:
        settings = settings.model_copy(update={"circuit": request.circuit})
    drive = default_drive(catalog, request.drive_id)
    if drive is None:
        raise RigForgeError("no priced NVMe M.2 drive in the catalog; set a price or a drive")
    skipped: dict[str, int] = dict.fromkeys(SkipCounts.model_fields, 0)
    unpriced: set[str] = set()
    unknown_fit: set[str] = set()
    offers = _offers(catalog, request, unpriced, unknown_fit, workload, skipped)
    if not offers:
        return _empty(0, skipped, unpriced, drive, cancelled=False, unknown_fit=unknown_fit)
    space = _space(catalog, request, drive, offers[0].gpu, unpriced)
    cap_w = settings.circuit_spec.continuous_w
    if request.max_wall_w is not None:
        cap_w = min(cap_w, request.max_wall_w)
    # One configuration: a GPU (new or used) × count × platform × mounting (a case, or an
    # open frame on risers); memory, PSU and case are the cheapest that fit it.
    all_plats = len(space.plats) + space.unpriced_platforms
    block = all_plats * MOUNTING_KINDS
    priced_block = len(space.plats) * MOUNTING_KINDS
    unpriced_gpus = sum(1 for g in catalog.parts("gpu") if g.id in unpriced and isinstance(g, GPU))
    considered = unpriced_gpus * request.max_gpus * block
    skipped["unpriced"] += considered
    rows: list[_Row] = []
    caches = RowCaches()
    profiles: dict[int, WorkProfile] = {}
    needs: dict[tuple[int, int], tuple[float, float]] = {}
    gpu_ids = sorted({o.gpu.id for o in offers})
    for step, gpu_id in enumerate(gpu_ids):
        if cancelled is not None and cancelled():
            return _empty(
                considered, skipped, unpriced, drive, cancelled=True, unknown_fit=unknown_fit
            )
        if progress is not None:
            progress(0.85 * step / max(len(gpu_ids), 1))
        for offer in (o for o in offers if o.gpu.id == gpu_id):
            for count in range(1, request.max_gpus + 1):
                considered += block
                skipped["unpriced"] += block - priced_block
                variant = _fitting_variant(
                    workload, offer.gpu, count, request, skipped, priced_block, needs
                )
                if variant is None:
                    continue
                chosen, host_ram = variant
                profile = profiles.setdefault(id(chosen), profile_from_workload(chosen))
                rows += _rows(
                    offer,
                    count,
                    chosen,
                    profile,
                    host_ram,
                    space,
                    request,
                    caches,
                    skipped,
                    unknown_fit,
                )
    evaluated = _choose_psus(rows, space, settings, cap_w, request, skipped)
    if progress is not None:
        progress(0.9)
    front, best = _front(rows, space, settings, catalog, request, skipped)
    if progress is not None:
        progress(1.0)
    return SuggestResult(
        systems=system_picks(workload, request, settings),
        fastest_too_slow=caches.miss if not front else None,
        front=front,
        best=best,
        considered=considered,
        evaluated=evaluated,
        skipped=SkipCounts(**skipped),
        unpriced_part_ids=tuple(sorted(unpriced)),
        unknown_fit_part_ids=tuple(sorted(unknown_fit)),
        drive_id=drive.id,
    )


# -- the catalog, priced and indexed --------------------------------------------------------


def _space(
    catalog: Catalog,
    request: SuggestRequest,
    drive: Drive,
    reference_gpu: GPU,
    unpriced: set[str],
) -> _Space:
    """``reference_gpu`` stands in for the GPU when the per-platform power terms (CPU,
    board, drive, fans) are computed; the GPUs' own draw is added per row."""
    all_plats = platforms(catalog, request.platform)
    plats = tuple(p for p in all_plats if p.usd is not None)
    for p in all_plats:
        if p.usd is None:
            unpriced.update(part.id for part in (p.cpu, p.board) if part.price.usd is None)
    memory_by_capacity = []
    base_w = []
    for plat in plats:
        options = sorted(
            (o.capacity_gib, o.usd, i, o.dimms * DIMM_W[o.kit.dimm_type])
            for i, o in enumerate(plat.memory)
            if o.usd is not None
        )
        unpriced.update(o.kit.id for o in plat.memory if o.usd is None)
        # cheapest option among those with at least each capacity (suffix minimum)
        best: list[tuple[float, float, int, float]] = []
        running: tuple[float, int, float] | None = None
        for capacity, usd, index, watts in reversed(options):
            if running is None or usd < running[0]:
                running = (usd, index, watts)
            best.append((capacity, running[0], running[1], running[2]))
        memory_by_capacity.append(best[::-1])
        sketch = sketch_build(reference_gpu, 1, plat, drive)
        base_w.append(
            sum(
                c.total_w or 0.0
                for c in component_power(sketch)
                if c.component not in ("gpu", "memory")
            )
        )
    psus = tuple(p for p in psu_options(catalog, request.max_psus) if p.usd is not None)
    unpriced.update(p.id for p in catalog.parts("psu") if p.price.usd is None)
    curves = []
    for option in psus:
        points = sorted(option.psu.efficiency_curve, key=lambda p: p.load_fraction)
        curves.append(
            (np.array([p.load_fraction for p in points]), np.array([p.efficiency for p in points]))
        )
    priced_cases = [c for c in catalog.parts("case") if isinstance(c, Case) and c.price.usd]
    unpriced.update(c.id for c in catalog.parts("case") if c.price.usd is None)
    risers = [r for r in catalog.parts("riser") if isinstance(r, Riser) and r.price.usd]
    riser = min(risers, key=lambda r: (-r.pcie_gen, price_key(r))) if risers else None
    return _Space(
        plats=plats,
        plat_usd=np.array([p.usd or 0.0 for p in plats]),
        plat_base_w=np.array(base_w),
        memory_by_capacity=memory_by_capacity,
        psus=psus,
        psu_usd=np.array([p.usd or 0.0 for p in psus]),
        psu_rated=np.array([p.psu.wattage_w * p.count for p in psus], dtype=float),
        psu_curves=curves,
        cases=tuple(sorted((c for c in priced_cases if c.kind != "open_frame"), key=price_key)),
        frames=tuple(sorted((c for c in priced_cases if c.kind == "open_frame"), key=price_key)),
        riser=riser,
        drive=drive,
        unpriced_platforms=len(all_plats) - len(plats),
    )


def _offers(
    catalog: Catalog,
    request: SuggestRequest,
    unpriced: set[str],
    unknown_fit: set[str],
    workload: Workload,
    skipped: dict[str, int],
) -> list[_Offer]:
    """GPUs to try: PCIe cards whose cooler, length and width a source gives and whose
    power spikes are measured or bounded by their connector's standard (a suggestion never
    rests on "check the manual"), and whose architecture runs the workload's number format;
    new at their price, used where asked for and priced."""
    offers = []
    for index, gpu in enumerate(catalog.parts("gpu")):
        if not isinstance(gpu, GPU) or gpu.form_factor != "pcie" or not gpu.board_power_w:
            continue
        if (
            gpu.cooler is None
            or gpu.length_mm is None
            or gpu.slot_width is None
            or gpu_transient(gpu)[2] == TRANSIENT_ASSUMED
        ):
            unknown_fit.add(gpu.id)
            skipped["unknown_fit"] += request.max_gpus
            continue
        if not is_serving(workload) and not precision_supported(gpu, workload.precision):
            skipped["precision"] += request.max_gpus
            continue
        if not is_serving(workload) and not precision_rate_known(gpu, workload.precision):
            unknown_fit.add(gpu.id)  # ranked on a rate no source gives: left out, named
            skipped["unknown_fit"] += request.max_gpus
            continue
        new = gpu.price.usd
        used = gpu.used_price.usd if gpu.used_price is not None else None
        if new is None and (used is None or not request.allow_used):
            unpriced.add(gpu.id)
            continue
        if new is not None:
            offers.append(_Offer(gpu, index, new, used=False))
        if request.allow_used and used is not None and (new is None or used < new):
            offers.append(_Offer(gpu, index, used, used=True))
    return offers


# -- stage 1 and 2: rows ----------------------------------------------------------------------


def _fitting_variant(
    workload: Workload,
    gpu: GPU,
    count: int,
    request: SuggestRequest,
    skipped: dict[str, int],
    choices: int,
    needs: dict[tuple[int, int], tuple[float, float]],
) -> tuple[Workload, float] | None:
    """The workload (or its checkpointed variant) that fits ``count`` × ``gpu``, with the
    host RAM it needs; ``None`` (counted) when none does. ``needs`` caches the per-GPU
    memory and host RAM of each (variant, count): they do not depend on the GPU."""
    try:
        check_gpu_count(workload, count)
    except InvalidWorkload:
        skipped["impossible"] += choices
        return None
    if workload.is_serving:
        served = serving_variant(
            workload, gpu.vram_gib, count, request.require_vram_fit, request.smaller_kv_cache
        )
        if served is None:
            skipped["vram"] += choices
        return served
    variants = [workload]
    if (
        workload.task in TRAINING_TASKS
        and request.allow_checkpointing
        and workload.architecture.is_transformer
    ):
        order = ("none", *CHECKPOINTING_STEPS)
        variants += [
            _checkpointed(workload, level)
            for level in order[order.index(workload.checkpointing) + 1 :]
        ]
    for variant in variants:
        total_gib, host_gib = _need(variant, count, needs)
        if total_gib <= gpu.vram_gib or not request.require_vram_fit:
            return variant, host_gib
    skipped["vram"] += choices
    return None


@functools.cache
def _checkpointed(workload: Workload, level: str) -> Workload:
    return workload.model_copy(update={"checkpointing": level})


def _need(
    workload: Workload, count: int, needs: dict[tuple[int, int], tuple[float, float]]
) -> tuple[float, float]:
    key = (id(workload), count)
    if key not in needs:
        needs[key] = (
            vram_breakdown(workload, count).total_gib,
            host_ram_bytes(workload, count) / GIB,
        )
    return needs[key]


def _rows(
    offer: _Offer,
    count: int,
    workload: Workload,
    profile: WorkProfile,
    host_ram_gib: float,
    space: _Space,
    request: SuggestRequest,
    caches: RowCaches,
    skipped: dict[str, int],
    unknown_fit: set[str],
) -> list[_Row]:
    """Rows of ``count`` × ``offer`` on every platform, each with its cheapest memory and
    mounting; every configuration left out is counted in ``skipped`` by cause."""
    gpu = offer.gpu
    mountings = _mountings(gpu, count, space)
    skipped["impossible"] += (MOUNTING_KINDS - len(mountings)) * len(space.plats)
    if not mountings:
        return []
    cheapest_psu = float(space.psu_usd.min()) if space.psu_usd.size else math.inf
    cheapest_mount = min(m.usd_per_build + m.usd_per_gpu * count for m in mountings)
    bound = (
        offer.usd * count
        + space.plat_usd
        + (space.drive.price.usd or 0.0)
        + cheapest_psu
        + cheapest_mount
    )
    rows: list[_Row] = []
    gpu_w = (gpu.board_power_w or 0.0) * count
    ratio, _, basis = gpu_transient(gpu)
    for p in np.nonzero(bound <= request.budget_usd)[0]:
        plat = space.plats[int(p)]
        memory = _cheapest_memory(space.memory_by_capacity[int(p)], host_ram_gib)
        if memory is None:
            skipped["impossible"] += len(mountings)
            continue
        mem_usd, mem_index, mem_w = memory
        for mounting in mountings:
            if count > 1 and mounting.riser is None and not plat.board.slot_positions_sourced:
                unknown_fit.add(plat.board.id)  # no source says how the cards sit
                skipped["unknown_fit"] += 1
                continue
            links = _links(gpu, count, plat, mounting, space.drive, caches)
            if links is None or not _case_takes(mounting, plat, gpu, links):
                skipped["impossible"] += 1
                continue
            if not _cool_enough(gpu, count, mounting, links):
                skipped["cooling"] += 1
                continue
            cost = (
                offer.usd * count
                + float(space.plat_usd[p])
                + mem_usd
                + (space.drive.price.usd or 0.0)
                + mounting.usd_per_build
                + mounting.usd_per_gpu * count
            )
            if cost + cheapest_psu > request.budget_usd:
                skipped["over_budget"] += 1
                continue
            if workload.is_serving:
                option = plat.memory[mem_index]
                host_gb_s = option_bandwidth_gb_s(plat.cpu, option)
                best = None
                for variant in split_variants(workload, gpu.vram_gib, count):
                    speed = row_serving(
                        variant, gpu, count, links, plat.cpu.cores, host_gb_s, caches
                    )
                    if not meets(speed, request):
                        caches.note_miss(gpu, count, speed)
                        continue
                    if best is None or speed.aggregate_decode_tokens_s > best[1]:
                        best = (variant, speed.aggregate_decode_tokens_s)
                if best is None:
                    skipped["too_slow"] += 1
                    continue
                row_workload, throughput = best
            else:
                row_workload = workload
                throughput = row_throughput(profile, gpu, count, links, plat.cpu.cores, caches)
            rows.append(
                _Row(
                    offer=offer,
                    count=count,
                    platform=plat,
                    memory=mem_index,
                    mounting=mounting,
                    workload=row_workload,
                    cost_wo_psu=cost,
                    steady_w=float(space.plat_base_w[p]) + mem_w + gpu_w,
                    spike_extra_w=gpu_w * (ratio - 1.0),
                    transient_known=basis != "assumed_cem5_bound",
                    throughput=throughput,
                )
            )
    skipped["over_budget"] += len(mountings) * int((bound > request.budget_usd).sum())
    return rows


def _mountings(gpu: GPU, count: int, space: _Space) -> list[_Mounting]:
    """The cheapest case (towers and racks) and the cheapest open frame with risers that
    could take ``count`` × ``gpu`` before the board is known."""
    result = []
    for case in space.cases:
        if _case_fits_gpu(case, gpu):
            result.append(_Mounting(case, None, case.price.usd or 0.0, 0.0))
            break
    if space.riser is not None and gpu.cooler != "passive":
        for frame in space.frames:
            if frame.gpu_mounts is not None and frame.gpu_mounts >= count:
                riser_usd = space.riser.price.usd or 0.0
                result.append(_Mounting(frame, space.riser, frame.price.usd or 0.0, riser_usd))
                break
    return result


def _cool_enough(gpu: GPU, count: int, mounting: _Mounting, links: LinkKey) -> bool:
    """Open-air cards in a case need a free slot between them, and three or more of them
    overheat however spaced (``core.calc.platform.physical``); on risers they sit apart."""
    if gpu.cooler != "open-air" or count == 1 or mounting.riser is not None:
        return True
    if count >= 3:
        return False
    width = math.ceil(gpu.slot_width or 1)
    positions = sorted(link[3] for link in links)
    return all(b - (a + width) >= 1 for a, b in itertools.pairwise(positions))


def _case_fits_gpu(case: Case, gpu: GPU) -> bool:
    if gpu.cooler == "passive" and not case.server_airflow:
        return False  # a passive card overheats without server airflow
    if gpu.length_mm is None or case.max_gpu_length_mm is None:
        return False  # unknown room is not a fit
    return gpu.length_mm <= case.max_gpu_length_mm


def _case_takes(mounting: _Mounting, plat: Platform, gpu: GPU, links: LinkKey) -> bool:
    case = mounting.case
    if not _takes_board(case, plat.board.form_factor):
        return False
    if mounting.riser is not None:
        return True
    width = math.ceil(gpu.slot_width) if gpu.slot_width and plat.board.slot_positions_sourced else 1
    last = max((link[3] for link in links), default=0)
    return case.expansion_slots is not None and last + width - 1 <= case.expansion_slots


def _takes_board(case: Case, form_factor: str) -> bool:
    return board_fits(form_factor, case.motherboard_form_factors)


def _links(
    gpu: GPU, count: int, plat: Platform, mounting: _Mounting, drive: Drive, caches: RowCaches
) -> LinkKey | None:
    board = plat.board
    if mounting.riser is not None or not board.slot_positions_sourced or not gpu.slot_width:
        width = 1
    else:
        width = math.ceil(gpu.slot_width)
    return links_for(
        gpu,
        count,
        plat.cpu.pcie_gen,
        board.id,
        mounting.riser,
        width,
        caches,
        lambda: sketch_build(gpu, count, plat, drive, riser=mounting.riser),
    )


def _cheapest_memory(
    options: list[tuple[float, float, int, float]], need_gib: float
) -> tuple[float, int, float] | None:
    """(usd, option index, DIMM watts) of the cheapest option with at least ``need_gib``."""
    at = bisect.bisect_left(options, (need_gib,))
    if at == len(options):
        return None
    _capacity, usd, index, watts = options[at]
    return usd, index, watts


# -- stage 3: PSUs -----------------------------------------------------------------------------


def _choose_psus(
    rows: list[_Row],
    space: _Space,
    settings: AnalysisSettings,
    cap_w: float,
    request: SuggestRequest,
    skipped: dict[str, int],
) -> int:
    """Give each row its cheapest PSU option that powers it; the cells evaluated."""
    if not rows or not space.psus:
        return 0
    steady = np.array([r.steady_w for r in rows])
    peak = steady + np.array([r.spike_extra_w for r in rows])
    known = np.array([r.transient_known for r in rows])
    load = steady[:, None] / space.psu_rated[None, :]
    efficiency = np.empty_like(load)
    for j, (xs, ys) in enumerate(space.psu_curves):
        efficiency[:, j] = np.interp(load[:, j], xs, ys)
    wall = steady[:, None] / efficiency
    tolerance = np.stack([_tolerance(r.offer.gpu, space) for r in rows])
    spike_ok = ~known[:, None] | (peak[:, None] <= space.psu_rated[None, :] * tolerance)
    cables = np.stack([_cables(r.offer.gpu, r.count, space) for r in rows])
    # the margins the power checks use: PSU load at most 80 %, wall draw at most 90 % of
    # the circuit's continuous limit; no more PSUs than the case holds (one when unknown)
    counts = np.array([p.count for p in space.psus])
    bays = np.array([r.mounting.case.psu_bays or 1 for r in rows])
    ok = (
        (load <= STEADY_WARN_FRACTION)
        & spike_ok
        & (wall <= cap_w * CIRCUIT_WARN_FRACTION)
        & cables
        & (counts[None, :] <= bays[:, None])
    )
    cost = np.array([r.cost_wo_psu for r in rows])[:, None] + space.psu_usd[None, :]
    ok &= cost <= request.budget_usd
    masked = np.where(ok, cost, np.inf)
    choice = masked.argmin(axis=1)
    for i, row in enumerate(rows):
        j = int(choice[i])
        if math.isfinite(masked[i, j]):
            row.psu, row.cost, row.wall_w = j, float(masked[i, j]), float(wall[i, j])
        else:
            skipped["power"] += 1
    return int(load.size)


def _tolerance(gpu: GPU, space: _Space) -> FloatArray:
    if gpu.id not in space.tolerance:
        _, duration_us, _ = gpu_transient(gpu)
        space.tolerance[gpu.id] = np.array(
            [psu_excursion_tolerance(p.psu, duration_us)[0] for p in space.psus]
        )
    return space.tolerance[gpu.id]


def _cables(gpu: GPU, count: int, space: _Space) -> npt.NDArray[np.bool_]:
    """Whether each PSU option lists GPU cables enough for ``count`` × ``gpu`` (an unlisted
    count is not enough: unknown is never a pass)."""
    key = (tuple(sorted((gpu.power_connectors or {}).items())), gpu.power_connectors is None, count)
    if not space.plats:
        return np.zeros(len(space.psus), dtype=bool)
    if key not in space.connectors:
        sketch = sketch_build(gpu, count, space.plats[0], space.drive)
        space.connectors[key] = np.array(
            [connectors_ok(sketch, p.psu, p.count, native=True) is True for p in space.psus]
        )
    return space.connectors[key]


# -- stage 4: the front -------------------------------------------------------------------------


def _front(
    rows: list[_Row],
    space: _Space,
    settings: AnalysisSettings,
    catalog: Catalog,
    request: SuggestRequest,
    skipped: dict[str, int],
) -> tuple[tuple[Suggestion, ...], Suggestion | None]:
    alive = [r for r in rows if r.psu >= 0]
    cost = np.array([r.cost for r in alive])
    thr = np.array([r.throughput for r in alive])
    ok = np.ones(len(alive), dtype=bool)
    analysed: dict[int, Candidate | None] = {}
    for _ in range(MAX_ROUNDS):
        index = np.nonzero(ok)[0]
        if index.size == 0:
            return (), None
        chosen = pick_spread(
            pareto_indices(cost[index], thr[index]), cost[index], thr[index], request.front_size
        )
        failed = False
        candidates: list[Candidate] = []
        for k in chosen:
            i = int(index[k])
            if i not in analysed:
                analysed[i] = _analyse(alive[i], space, settings, catalog, request)
            candidate = analysed[i]
            if candidate is None:
                ok[i] = False
                skipped["failed_checks"] += 1
                failed = True
            else:
                candidates.append(candidate)
        if not failed:
            return reasons_for(candidates, request.budget_usd)
    return reasons_for(
        [c for c in analysed.values() if c is not None and math.isfinite(c.cost_usd)],
        request.budget_usd,
    )


def _analyse(
    row: _Row,
    space: _Space,
    settings: AnalysisSettings,
    catalog: Catalog,
    request: SuggestRequest,
) -> Candidate | None:
    memory = row.platform.memory[row.memory]
    psu = space.psus[row.psu]
    gpu = row.offer.gpu
    mounting = row.mounting
    build = Build(
        name=f"{row.count}× {gpu.name}{' (used)' if row.offer.used else ''}, "
        f"{row.platform.cpu.name}",
        gpu=gpu,
        gpu_count=row.count,
        cpu=row.platform.cpu,
        motherboard=row.platform.board,
        memory=memory.kit,
        memory_kits=memory.kits,
        drives=(DriveSelection(drive=space.drive),),
        psu=psu.psu,
        psu_count=psu.count,
        case=mounting.case,
        riser=mounting.riser,
        used=(gpu.id,) if row.offer.used else (),
    )
    analysis = analyze(build, row.workload, settings, catalog)
    total = analysis.cost.parts.total_usd
    if not signable(analysis) or total is None:
        return None
    if analysis.inference is not None:
        speed = analysis.inference.speed
        if not analysis.inference.memory.fits or not meets(speed, request):
            return None
        throughput, unit = speed.aggregate_decode_tokens_s, "generated tokens/s"
    elif analysis.throughput is not None:
        throughput, unit = analysis.throughput.total_throughput, analysis.throughput.unit
    else:
        return None
    return Candidate(
        build=build,
        cost_usd=total,
        throughput=throughput,
        unit=unit,
        wall_w=analysis.power.wall_w or row.wall_w,
        verdict=analysis.verdict,
        warnings=tuple(c.id for c in analysis.checks if c.severity == "warn"),
        workload=row.workload,
        binding=binding_reason(analysis, request, row.workload),
    )


def _within_budget(request: SuggestRequest) -> Iterator[System]:
    """Prebuilt systems with a dated price within the request's budget."""
    from core.catalog.systems import load_systems

    for system in load_systems():
        price = system.price
        if price.usd is not None and price.as_of is not None and price.usd <= request.budget_usd:
            yield system


def _pick(system: System, **figures: float | None) -> SystemPick:
    """A system on Suggest's list: its dated price (and whether it is stale) and figures."""
    from datetime import date

    price = system.price
    assert price.usd is not None and price.as_of is not None  # _within_budget's
    return SystemPick(
        system_id=system.id,
        name=system.name,
        price_usd=price.usd,
        price_as_of=price.as_of.isoformat(),
        price_stale=price.stale(date.today()),
        **figures,
    )


def system_picks(
    workload: Workload, request: SuggestRequest, settings: AnalysisSettings
) -> tuple[SystemPick, ...]:
    """Priced prebuilt systems that hold the model, pass their checks and meet the request
    within budget."""
    from core.calc.system import serve_system

    if workload.task in ("lora", "qlora"):
        return fine_tuning_picks(workload, request)
    if not workload.is_serving:
        return ()
    picks = []
    for system in _within_budget(request):
        try:
            served = serve_system(system, workload, settings=settings)
        except RigForgeError:
            continue
        # as for builds: only what passes its own checks is suggested
        if served.verdict != "pass" or not served.memory.fits or not meets(served.speed, request):
            continue
        speed = served.speed
        picks.append(
            _pick(
                system,
                decode_tokens_s=speed.decode_tokens_s_per_stream,
                ttft_s=speed.ttft_s,
                aggregate_tokens_s=speed.aggregate_decode_tokens_s,
                usd_per_million_tokens=(
                    served.cost.usd_per_million_tokens if served.cost else None
                ),
            )
        )
    return tuple(sorted(picks, key=lambda p: -(p.aggregate_tokens_s or 0.0)))


def fine_tuning_picks(workload: Workload, request: SuggestRequest) -> tuple[SystemPick, ...]:
    """Priced prebuilt systems within budget that run PyTorch (CUDA or ROCm) and whose GPU
    can be given the memory a LoRA or QLoRA fine-tuning needs, cheapest first; their speed
    is not estimated (no published run to check a model against), so they are listed
    beside the front, never ranked in it."""
    from core.calc.memory import estimate_vram

    picks = []
    for system in _within_budget(request):
        if not {"cuda", "rocm"} & set(system.backends):
            continue  # PyTorch's memory: Macs fine-tune with MLX, which it does not describe
        memory = estimate_vram(workload, system.gpu_max_gb, 1)
        if memory.fits:
            picks.append(_pick(system, memory_gib=memory.total_gib, gpu_gib=system.gpu_max_gb))
    return tuple(sorted(picks, key=lambda p: p.price_usd))


def _empty(
    considered: int,
    skipped: dict[str, int],
    unpriced: set[str],
    drive: Drive,
    *,
    cancelled: bool,
    unknown_fit: set[str],
) -> SuggestResult:
    return SuggestResult(
        unknown_fit_part_ids=tuple(sorted(unknown_fit)),
        front=(),
        best=None,
        considered=considered,
        evaluated=0,
        skipped=SkipCounts(**skipped),
        unpriced_part_ids=tuple(sorted(unpriced)),
        drive_id=drive.id,
        cancelled=cancelled,
    )
