"""One fix plan: the cheapest build, keeping the GPUs, that an expert would sign.

Single fixes mend one check at a time and can undo each other (a second PSU added, then a
power limit that makes it unneeded, then a platform whose draw needs it again). The plan
searches combined changes instead:

1. the platform: the build's own CPU, board and memory, then every CPU and board of the
   catalog that take each other, with the cheapest memory kits that hold at least the
   build's (and the workload's) RAM and fill every memory channel;
2. how the GPUs are mounted: the build's own case (and risers), then every priced tower or
   rack that takes the board, then open frames with risers;
3. the power: the cheapest PSU model and count (no more than the case holds) that carries
   the build with the margins of the power checks, and, where only a power limit brings it
   within the PSU or the circuit, the highest such limit.

Each candidate gets the full ``analyze``; the plan is the cheapest (known total) candidate
that passes every check and is ``signable`` (the standard Suggest applies: nothing about
power, cooling, slots, bays, length or precision even as an advisory). Candidates are
tried cheapest first and the search stops once no cheaper one can remain; at most
``MAX_ANALYSES`` are analysed. Parts the change made unnecessary go (a second PSU, risers
outside an open frame). When nothing passes, the plan says which checks still fail on the
candidate that came closest.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import pairwise
from typing import TypeVar

from core.calc.analysis import analyze
from core.calc.memory.components import GIB, host_ram_bytes
from core.calc.platform.compat import connectors_ok, price_key
from core.calc.platform.form_factors import board_fits
from core.calc.platform.pcie import assign_pcie, gpu_slot_width, is_weak_link, max_gpus_by_geometry
from core.calc.platform.power import (
    CIRCUIT_WARN_FRACTION,
    highest_fitting_limit_w,
    power_budget,
    psu_carries,
    psu_excursion_tolerance,
    transient_known,
)
from core.calc.suggest.signable import blocking
from core.calc.suggest.space import MemoryOption, Platform, platforms
from core.catalog import Catalog
from core.models.analysis import Analysis
from core.models.build import Build
from core.models.cost import CloudRate
from core.models.fixplan import Change, FixPlan
from core.models.parts import PSU, Case, Part, Riser
from core.models.settings import AnalysisSettings
from core.models.workload import Workload

MAX_ANALYSES = 400
"""Full analyses one plan may run (each a few milliseconds)."""
MAX_POWERED = 1500
"""Candidates whose PSU and power limit are chosen (each a few dozen power budgets)."""
MAX_PSUS = 2
_P = TypeVar("_P", bound=Part | None)
FRAME_RISER_MM = 300
"""Riser length preferred on an open frame, whose GPU rail sits above the board."""


def plan_fix(
    build: Build,
    workload: Workload | None,
    settings: AnalysisSettings,
    catalog: Catalog,
    *,
    cloud_rates: tuple[CloudRate, ...] = (),
    cancelled: Callable[[], bool] = lambda: False,
) -> FixPlan:
    """The cheapest signable build with ``build``'s GPUs (see the module docstring);
    ``cancelled`` is polled between candidates (a cancelled plan finds nothing)."""

    def run(candidate: Build) -> Analysis:
        return analyze(candidate, workload, settings, catalog, cloud_rates=cloud_rates)

    before = run(build)
    if not blocking(before):
        return FixPlan(before, before, ())
    best: tuple[float, Analysis] | None = None
    closest: tuple[int, Analysis] | None = None
    analysed = 0
    need_gib = max(build.memory_gib, _host_ram_gib(workload, build.gpu_count))
    for candidate, bound in _candidates(build, catalog, settings, need_gib):
        if best is not None and bound >= best[0]:
            break  # candidates come cheapest first: none left can be cheaper
        if analysed >= MAX_ANALYSES or cancelled():
            break
        analysis = run(candidate)
        analysed += 1
        total = analysis.cost.parts.total_usd
        still = blocking(analysis)
        if not still and total is not None:
            if best is None or total < best[0]:
                best = (total, analysis)
        elif closest is None or len(still) < closest[0]:
            closest = (len(still), analysis)
    if best is None:
        near = closest[1] if closest is not None else before
        return FixPlan(before, None, (), blocked_by=blocking(near), closest=near, analysed=analysed)
    after = best[1]
    return FixPlan(before, after, _changes(before, after), analysed=analysed)


def _host_ram_gib(workload: Workload | None, gpus: int) -> float:
    if workload is None or workload.is_serving:
        return 0.0
    try:
        return host_ram_bytes(workload, gpus) / GIB
    except (ArithmeticError, ValueError):
        return 0.0


# -- candidates, cheapest first ----------------------------------------------------------


@dataclass(frozen=True)
class _Mount:
    case: Case | None
    riser: Riser | None
    usd: float


def _candidates(
    build: Build, catalog: Catalog, settings: AnalysisSettings, need_gib: float
) -> Iterator[tuple[Build, float]]:
    """Candidate builds with a lower bound of their cost, in ascending order of it."""
    gpu_usd = _price(build.gpu, build) * build.gpu_count
    drives_usd = sum(_price(d.drive, build) * d.count for d in build.drives)
    cheapest_psu = min(
        (p.price.usd for p in catalog.parts("psu") if p.price.usd is not None), default=0.0
    )
    options: list[tuple[float, Build]] = []
    for plat, memory in _platforms(build, catalog, need_gib):
        plat_usd = _price(plat.cpu, build) + _price(plat.board, build) + _memory_usd(memory, build)
        for mount in _mounts(build, plat, catalog):
            base = build.model_copy(
                update={
                    "cpu": _own(build, plat.cpu),
                    "motherboard": _own(build, plat.board),
                    "memory": _own(build, memory.kit),
                    "memory_kits": memory.kits,
                    "case": _own(build, mount.case),
                    "riser": _own(build, mount.riser),
                    "gpu_power_limit_w": None,
                    "nvlink_bridges": build.nvlink_bridges,
                }
            )
            bound = gpu_usd + drives_usd + plat_usd + mount.usd + cheapest_psu
            if math.isfinite(bound):
                options.append((bound, base))
    options.sort(key=lambda o: o[0])
    tried = 0
    for bound, base in options:
        if not _assembles(base):
            continue
        tried += 1
        if tried > MAX_POWERED:
            return
        powered = _powered(base, catalog, settings)
        if powered is not None:
            yield powered, bound


def _own(build: Build, part: _P) -> _P:
    """The build's own copy of ``part`` where it already has one (same id): a part the plan
    keeps keeps the build's price (a quote, a file's dated price), not the catalog's."""
    if part is None:
        return part
    for mine in (build.cpu, build.motherboard, build.memory, build.case, build.riser, build.psu):
        if mine is not None and mine.id == part.id and type(mine) is type(part):
            return mine
    return part


def _assembles(build: Build) -> bool:
    """Cheap structural tests before the power is sized: every GPU and drive placed, the
    board's slot positions sourced where cards sit side by side in it, open-air cards in a
    case spaced a slot apart and at most two of them (``core.calc.platform.physical``)."""
    on_risers = build.riser is not None
    if build.gpu_count > 1 and not on_risers and not build.motherboard.slot_positions_sourced:
        return False
    assignment = assign_pcie(build)
    if assignment.gpus_unplaced or assignment.drives_unplaced:
        return False
    if any(link.attached_to == "chipset" or is_weak_link(link) for link in assignment.gpu_links):
        return False
    if build.gpu.cooler == "open-air" and build.gpu_count > 1 and not on_risers:
        if build.gpu_count >= 3:
            return False
        width = gpu_slot_width(build)
        positions = sorted(link.position for link in assignment.gpu_links)
        if any(b - (a + width) < 1 for a, b in pairwise(positions)):
            return False
    return True


def _price(part: Part, build: Build) -> float:
    """A part's price as the build pays it (used where the build buys it used)."""
    if build.is_used(part) and part.used_price is not None and part.used_price.usd is not None:
        return part.used_price.usd
    return part.price.usd if part.price.usd is not None else math.inf


def _memory_usd(option: MemoryOption, build: Build) -> float:
    usd = option.usd
    return math.inf if usd is None else usd


def _platforms(
    build: Build, catalog: Catalog, need_gib: float
) -> Iterator[tuple[Platform, MemoryOption]]:
    """The build's own platform and memory first, then each catalog platform with the
    cheapest memory that holds ``need_gib`` and fills every channel (where any does)."""
    own = MemoryOption(build.memory, build.memory_kits)
    yield Platform(build.cpu, build.motherboard, (own,)), own
    for plat in platforms(catalog, "any"):
        if plat.cpu.id == build.cpu.id and plat.board.id == build.motherboard.id:
            continue
        if max_gpus_by_geometry(plat.board, 1) < build.gpu_count:
            continue  # not even on risers: too few x16 slots
        enough = [o for o in plat.memory if o.capacity_gib >= need_gib and o.usd is not None]
        filled = [o for o in enough if o.dimms >= plat.cpu.memory_channels] or enough
        if filled:
            yield plat, min(filled, key=lambda o: (o.usd or math.inf, -o.capacity_gib))


def _mounts(build: Build, plat: Platform, catalog: Catalog) -> Iterator[_Mount]:
    """The build's own case (and risers), then priced cases that take the board: towers
    and racks with the cards in their slots, open frames with the cheapest riser rated for
    the card's PCIe generation."""
    if build.case is not None:
        yield _Mount(build.case, build.riser, _price(build.case, build) + _riser_usd(build))
    risers = [r for r in catalog.parts("riser") if isinstance(r, Riser) and r.price.usd]
    fast = [r for r in risers if r.pcie_gen >= build.gpu.pcie_gen] or risers
    # a frame's GPU rail sits above the board: a riser of 300 mm or more reaches it
    long = [r for r in fast if (r.length_mm or 0) >= FRAME_RISER_MM] or fast
    riser = min(long, key=price_key) if long else None
    for case in catalog.parts("case"):
        if not isinstance(case, Case) or case.price.usd is None:
            continue
        if build.case is not None and case.id == build.case.id:
            continue
        if not board_fits(plat.board.form_factor, case.motherboard_form_factors):
            continue
        if case.kind == "open_frame":
            if riser is not None and (case.gpu_mounts or 0) >= build.gpu_count:
                usd = case.price.usd + (riser.price.usd or 0.0) * build.gpu_count
                yield _Mount(case, riser, usd)
        elif build.gpu.length_mm is None or (case.max_gpu_length_mm or 0) >= build.gpu.length_mm:
            yield _Mount(case, None, case.price.usd)


def _riser_usd(build: Build) -> float:
    if build.riser is None:
        return 0.0
    return _price(build.riser, build) * build.gpu_count


def _powered(base: Build, catalog: Catalog, settings: AnalysisSettings) -> Build | None:
    """``base`` with the cheapest PSU option that carries it with the checks' margins, at
    full power, else at the highest GPU power limit that does; ``None`` when none does."""
    bays = base.case.psu_bays if base.case is not None and base.case.psu_bays else 1
    options = sorted(
        (
            (psu, count)
            for psu in (_own(base, p) for p in catalog.parts("psu"))
            if isinstance(psu, PSU) and psu.price.usd is not None
            for count in range(1, min(MAX_PSUS, bays) + 1)
        ),
        key=lambda o: _price(o[0], base) * o[1],
    )
    for psu, count in options:
        candidate = base.model_copy(update={"psu": psu, "psu_count": count})
        if connectors_ok(candidate, psu, count) is not True:
            continue
        if _carries(candidate, settings):
            return candidate
        limit = highest_fitting_limit_w(
            candidate, settings, psu=True, circuit=True, circuit_fraction=CIRCUIT_WARN_FRACTION
        )
        if limit is not None:
            limited = candidate.model_copy(update={"gpu_power_limit_w": limit})
            if _carries(limited, settings):
                return limited
    return None


def _carries(build: Build, settings: AnalysisSettings) -> bool:
    budget = power_budget(build, settings)
    if budget.psu_load_fraction is None:
        return False
    if budget.wall_w is None or budget.wall_w > budget.circuit_continuous_w * CIRCUIT_WARN_FRACTION:
        return False
    if build.psu is None:
        return True
    tolerance, _ = psu_excursion_tolerance(build.psu, budget.transient_duration_us)
    rated = build.psu.wattage_w * build.psu_count
    known = transient_known(budget)
    return psu_carries(budget.steady_dc_w, budget.peak_dc_w, known, rated, tolerance)


# -- what changed --------------------------------------------------------------------------

_MENDS = {
    "platform": ("pcie.", "compat.", "physical.board_slots", "physical.slot_spacing", "host."),
    "memory": (
        "compat.memory_type",
        "compat.memory_capacity",
        "compat.memory_channels",
        "compat.dimm_type",
        "compat.dimm_count",
        "host.ram",
    ),
    "case": ("physical.case", "physical.gpu_length", "physical.cooling", "physical.psu_bays"),
    "riser": ("physical.board_slots", "physical.cooling", "physical.riser"),
    "psu": ("power.", "compat.power_connectors"),
    "power_limit": ("power.", "physical.cooling"),
}


def _changes(before: Analysis, after: Analysis) -> tuple[Change, ...]:
    old, new = before.build, after.build
    settled = {c.id for c in after.checks if c.severity in ("pass", "info")}
    troubled = [c.id for c in before.checks if c.severity in ("warn", "fail") and c.id in settled]

    def mends(kind: str) -> tuple[str, ...]:
        return tuple(i for i in troubled if i.startswith(_MENDS[kind]))

    def usd(part: Part | None, count: int, build: Build) -> float | None:
        if part is None:
            return 0.0
        price = _price(part, build)
        return None if not math.isfinite(price) else price * count

    def delta(a: float | None, b: float | None) -> float | None:
        return None if a is None or b is None else b - a

    changes: list[Change] = []

    def part_change(field: str, kind: str, count_field: str | None = None) -> None:
        a, b = getattr(old, field), getattr(new, field)
        na = (
            getattr(old, count_field) if count_field else (old.gpu_count if field == "riser" else 1)
        )
        nb = (
            getattr(new, count_field) if count_field else (new.gpu_count if field == "riser" else 1)
        )
        if (a.id if a else None) == (b.id if b else None) and na == nb:
            return
        name = {"cpu": "CPU", "motherboard": "Board", "psu": "PSU"}.get(field, field.title())
        changes.append(
            Change(
                field=name,
                before=f"{na}× {a.name}" if a else "none",
                after=f"{nb}× {b.name}" if b else "none",
                usd_delta=delta(usd(a, na, old), usd(b, nb, new)),
                mends=mends(kind),
            )
        )

    part_change("cpu", "platform")
    part_change("motherboard", "platform")
    part_change("memory", "memory", "memory_kits")
    part_change("psu", "psu", "psu_count")
    part_change("case", "case")
    part_change("riser", "riser")
    if old.gpu_power_limit_w != new.gpu_power_limit_w:
        changes.append(
            Change(
                field="GPU power limit",
                before=f"{old.gpu_power_limit_w:.0f} W" if old.gpu_power_limit_w else "none",
                after=f"{new.gpu_power_limit_w:.0f} W" if new.gpu_power_limit_w else "none",
                usd_delta=0.0,
                mends=mends("power_limit"),
            )
        )
    return tuple(changes)
