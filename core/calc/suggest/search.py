"""The build optimizer: the cost-vs-throughput Pareto front of the whole catalog.

Search space: GPU model × count × CPU/board platform × memory option × PSU
option (``suggest_space``), with one drive. The search

1. prunes per (GPU, count): a count the workload cannot split over, a model
   that does not fit in VRAM;
2. prunes per (GPU, count, platform): an unpriced part (never guessed; counted),
   a base cost over budget, a board that cannot place the GPUs; then computes
   throughput once per (GPU, count, links, cores) (``suggest_rows``);
3. evaluates every remaining memory × PSU combination at once with numpy:
   cost, steady and peak DC power, PSU load and efficiency (the published curve,
   linearly interpolated as ``power.psu_efficiency``), wall power against the
   circuit and the power cap, the transient against the PSU's excursion limit;
4. takes the Pareto front of (cost, throughput) and runs the full ``analyze``
   on its builds only; a build whose checks fail leaves the front, which is
   then recomputed.

Sources: the power and PCIe rules are those of ``core.calc.platform.power`` and
``core.calc.platform.pcie`` (cited there); Pareto optimality: a build is on the front
when no other build is at most as expensive and strictly faster.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from core.calc.analysis import analyze
from core.calc.memory import estimate_vram
from core.calc.parallel import check_gpu_count
from core.calc.performance.profile import profile_from_workload
from core.calc.platform.power import DIMM_W, gpu_transient, psu_excursion_tolerance
from core.calc.suggest.rank import Candidate, pareto_indices, pick_spread, reasons_for
from core.calc.suggest.rows import (
    Row,
    RowCaches,
    gpu_links,
    power_terms,
    row_throughput,
    sketch_build,
)
from core.calc.suggest.space import Platform, PsuOption, default_drive, platforms, psu_options
from core.catalog import Catalog
from core.errors import InvalidWorkload, RigForgeError
from core.models.build import Build, DriveSelection
from core.models.parts import GPU, Drive
from core.models.settings import AnalysisSettings
from core.models.suggest import SkipCounts, Suggestion, SuggestRequest, SuggestResult
from core.models.workload import Workload

FloatArray = npt.NDArray[np.float64]
MAX_ROUNDS = 12
"""Front recomputations after builds fail their checks (bounds the analyze() calls)."""


def suggest(
    workload: Workload,
    request: SuggestRequest,
    catalog: Catalog,
    settings: AnalysisSettings | None = None,
    *,
    cancelled: Callable[[], bool] | None = None,
    progress: Callable[[float], None] | None = None,
) -> SuggestResult:
    """Search the catalog for the Pareto-best builds of ``workload`` within ``request``."""
    settings = settings or AnalysisSettings()
    if request.circuit is not None:
        settings = settings.model_copy(update={"circuit": request.circuit})
    profile = profile_from_workload(workload)
    drive = default_drive(catalog, request.drive_id)
    if drive is None:
        raise RigForgeError("no priced NVMe M.2 drive in the catalog; set a price or a drive")
    plats = platforms(catalog, request.platform)
    psus = psu_options(catalog, request.max_psus)
    gpus = [
        g
        for g in catalog.parts("gpu")
        if isinstance(g, GPU) and g.form_factor == "pcie" and g.board_power_w
    ]
    skipped: dict[str, int] = dict.fromkeys(SkipCounts.model_fields, 0)
    unpriced: set[str] = set()
    priced_psus = tuple(p for p in psus if p.usd is not None)
    unpriced.update(p.psu.id for p in psus if p.usd is None)
    rows: list[Row] = []
    caches = RowCaches()
    considered = 0
    for index, gpu in enumerate(gpus):
        if cancelled is not None and cancelled():
            return _empty(considered, skipped, unpriced, drive, cancelled=True)
        if progress is not None:
            progress(0.8 * index / max(len(gpus), 1))
        for count in range(1, request.max_gpus + 1):
            per_platform = [len(p.memory) * len(psus) for p in plats]
            considered += sum(per_platform)
            try:
                check_gpu_count(workload, count)
            except InvalidWorkload:
                skipped["impossible"] += sum(per_platform)
                continue
            vram = estimate_vram(workload, gpu.vram_gib, count)
            if request.require_vram_fit and not vram.fits:
                skipped["vram"] += sum(per_platform)
                continue
            for plat, combos in zip(plats, per_platform, strict=True):
                row = _row(gpu, count, index, plat, drive, psus, priced_psus, request, skipped)
                if row is None:
                    _note_unpriced(gpu, plat, drive, unpriced)
                    continue
                row.host_ram_gib = vram.host_ram_gib
                build = sketch_build(gpu, count, plat, drive)
                links = gpu_links(build, caches)
                if links is None:
                    skipped["impossible"] += combos
                    continue
                cores = plat.cpu.cores
                row.throughput = row_throughput(profile, gpu, count, links, cores, caches)
                steady, extra, known = power_terms(build)
                row.steady_wo_memory_w, row.gpu_spike_extra_w = steady, extra
                row.transient_known = known
                rows.append(row)
    if progress is not None:
        progress(0.8)
    table = _evaluate(rows, priced_psus, gpus, settings, request, skipped)
    result = _front(table, rows, priced_psus, workload, settings, catalog, drive, request, skipped)
    if progress is not None:
        progress(1.0)
    front, best = result
    return SuggestResult(
        front=front,
        best=best,
        considered=considered,
        evaluated=int(table.cost.size),
        skipped=SkipCounts(**skipped),
        unpriced_part_ids=tuple(sorted(unpriced)),
        drive_id=drive.id,
    )


def _row(
    gpu: GPU,
    count: int,
    index: int,
    plat: Platform,
    drive: Drive,
    psus: tuple[PsuOption, ...],
    priced_psus: tuple[PsuOption, ...],
    request: SuggestRequest,
    skipped: dict[str, int],
) -> Row | None:
    combos = len(plat.memory) * len(psus)
    base_parts = (gpu.price.usd, plat.usd, drive.price.usd)
    priced_memory = [m.usd for m in plat.memory if m.usd is not None]
    if any(p is None for p in base_parts) or not priced_memory or not priced_psus:
        skipped["unpriced"] += combos
        return None
    skipped["unpriced"] += combos - len(priced_memory) * len(priced_psus)
    base = (gpu.price.usd or 0.0) * count + (plat.usd or 0.0) + (drive.price.usd or 0.0)
    cheapest = base + min(priced_memory) + min(p.usd or 0.0 for p in priced_psus)
    if cheapest > request.budget_usd:
        skipped["over_budget"] += len(priced_memory) * len(priced_psus)
        return None
    return Row(gpu, count, plat, index, base, 0.0, 0.0, False, 0.0, 0.0)


def _note_unpriced(gpu: GPU, plat: Platform, drive: Drive, unpriced: set[str]) -> None:
    for part in (gpu, plat.cpu, plat.board, drive, *(m.kit for m in plat.memory)):
        if part.price.usd is None:
            unpriced.add(part.id)


class _Table:
    """Flat (row × memory option) arrays crossed with the PSU options (columns)."""

    def __init__(self, size: int, psus: int) -> None:
        self.row = np.zeros(size, dtype=np.int64)
        self.memory = np.zeros(size, dtype=np.int64)
        self.cost = np.zeros((size, psus))
        self.wall = np.zeros((size, psus))
        self.throughput = np.zeros(size)
        self.ok = np.zeros((size, psus), dtype=bool)


def _evaluate(
    rows: list[Row],
    psus: tuple[PsuOption, ...],
    gpus: list[GPU],
    settings: AnalysisSettings,
    request: SuggestRequest,
    skipped: dict[str, int],
) -> _Table:
    pairs = [
        (r, m)
        for r, row in enumerate(rows)
        for m, option in enumerate(row.platform.memory)
        if option.usd is not None and option.capacity_gib >= row.host_ram_gib
    ]
    skipped["impossible"] += len(psus) * (
        sum(sum(o.usd is not None for o in row.platform.memory) for row in rows) - len(pairs)
    )
    table = _Table(len(pairs), len(psus))
    if not pairs or not psus:
        return table
    table.row = np.array([p[0] for p in pairs], dtype=np.int64)
    table.memory = np.array([p[1] for p in pairs], dtype=np.int64)
    opts = [rows[r].platform.memory[m] for r, m in pairs]
    mem_usd = np.array([o.usd or 0.0 for o in opts])
    mem_w = np.array([o.dimms * DIMM_W[o.kit.dimm_type] for o in opts])
    base = np.array([rows[r].base_usd for r, _ in pairs])
    steady = np.array([rows[r].steady_wo_memory_w for r, _ in pairs]) + mem_w
    peak = steady + np.array([rows[r].gpu_spike_extra_w for r, _ in pairs])
    known = np.array([rows[r].transient_known for r, _ in pairs])
    table.throughput = np.array([rows[r].throughput for r, _ in pairs])
    gpu_of = np.array([rows[r].gpu_index for r, _ in pairs], dtype=np.int64)
    tolerance = _tolerances(gpus, psus)[gpu_of]  # (pairs, psus)
    rated = np.array([p.psu.wattage_w * p.count for p in psus])
    table.cost = base[:, None] + mem_usd[:, None] + np.array([p.usd or 0.0 for p in psus])[None, :]
    load = steady[:, None] / rated[None, :]
    efficiency = np.empty_like(load)
    for j, option in enumerate(psus):
        points = sorted(option.psu.efficiency_curve, key=lambda p: p.load_fraction)
        xs = np.array([p.load_fraction for p in points])
        ys = np.array([p.efficiency for p in points])
        efficiency[:, j] = np.interp(load[:, j], xs, ys)
    table.wall = steady[:, None] / efficiency
    cap = settings.circuit_spec.continuous_w
    if request.max_wall_w is not None:
        cap = min(cap, request.max_wall_w)
    spike_ok = ~known[:, None] | (peak[:, None] <= rated[None, :] * tolerance)
    power_ok = (load <= 1.0) & spike_ok & (table.wall <= cap)
    budget_ok = table.cost <= request.budget_usd
    skipped["over_budget"] += int((~budget_ok).sum())
    skipped["power"] += int((budget_ok & ~power_ok).sum())
    table.ok = budget_ok & power_ok
    return table


def _tolerances(gpus: list[GPU], psus: tuple[PsuOption, ...]) -> FloatArray:
    result = np.ones((len(gpus), len(psus)))
    for i, gpu in enumerate(gpus):
        _, duration_us, _ = gpu_transient(gpu)
        for j, option in enumerate(psus):
            result[i, j] = psu_excursion_tolerance(option.psu, duration_us)[0]
    return result


def _front(
    table: _Table,
    rows: list[Row],
    psus: tuple[PsuOption, ...],
    workload: Workload,
    settings: AnalysisSettings,
    catalog: Catalog,
    drive: Drive,
    request: SuggestRequest,
    skipped: dict[str, int],
) -> tuple[tuple[Suggestion, ...], Suggestion | None]:
    ok = table.ok.copy()
    analysed: dict[tuple[int, int], Candidate | None] = {}
    for _ in range(MAX_ROUNDS):
        pair, col = np.nonzero(ok)
        if pair.size == 0:
            return (), None
        cost = table.cost[pair, col]
        thr = table.throughput[pair]
        chosen = pick_spread(pareto_indices(cost, thr), cost, thr, request.front_size)
        failed = False
        candidates: list[Candidate] = []
        for k in chosen:
            key = (int(pair[k]), int(col[k]))
            if key not in analysed:
                analysed[key] = _analyse(key, table, rows, psus, workload, settings, catalog, drive)
            candidate = analysed[key]
            if candidate is None:
                ok[key] = False
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
    key: tuple[int, int],
    table: _Table,
    rows: list[Row],
    psus: tuple[PsuOption, ...],
    workload: Workload,
    settings: AnalysisSettings,
    catalog: Catalog,
    drive: Drive,
) -> Candidate | None:
    pair, col = key
    row = rows[int(table.row[pair])]
    memory = row.platform.memory[int(table.memory[pair])]
    psu = psus[col]
    build = Build(
        name=f"{row.count}× {row.gpu.name}, {row.platform.cpu.name}",
        gpu=row.gpu,
        gpu_count=row.count,
        cpu=row.platform.cpu,
        motherboard=row.platform.board,
        memory=memory.kit,
        memory_kits=memory.kits,
        drives=(DriveSelection(drive=drive),),
        psu=psu.psu,
        psu_count=psu.count,
    )
    analysis = analyze(build, workload, settings, catalog)
    if analysis.verdict == "fail" or analysis.throughput is None:
        return None
    return Candidate(
        build=build,
        cost_usd=float(table.cost[pair, col]),
        throughput=analysis.throughput.total_throughput,
        unit=analysis.throughput.unit,
        wall_w=float(table.wall[pair, col]),
        verdict=analysis.verdict,
        warnings=tuple(c.id for c in analysis.checks if c.severity == "warn"),
    )


def _empty(
    considered: int, skipped: dict[str, int], unpriced: set[str], drive: Drive, *, cancelled: bool
) -> SuggestResult:
    return SuggestResult(
        front=(),
        best=None,
        considered=considered,
        evaluated=0,
        skipped=SkipCounts(**skipped),
        unpriced_part_ids=tuple(sorted(unpriced)),
        drive_id=drive.id,
        cancelled=cancelled,
    )
