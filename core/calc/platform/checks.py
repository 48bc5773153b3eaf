"""Every build check in one verdict: power, PCIe, physical fit, compatibility, host.

``run_checks`` is the one entry point GUI, CLI and PDF use; each concern's
module holds its own checks, the power checks live here next to the PSU
picker they share. Text for people: ``core.text.checks``.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from core.calc.platform.compat import compat_checks, connectors_ok, power_connector_check, price_key
from core.calc.platform.host import host_checks
from core.calc.platform.pcie import assign_pcie, pcie_checks
from core.calc.platform.physical import physical_checks
from core.calc.platform.power import (
    CIRCUIT_WARN_FRACTION,
    LARGEST_ATX_PSU_W,
    PSU_SIZE_STEP_W,
    STEADY_WARN_FRACTION,
    highest_fitting_limit_w,
    power_budget,
    power_limit_throughput_factor,
    psu_carries,
    psu_excursion_tolerance,
    psu_watts_needed,
    psus_needed,
    transient_known,
)
from core.catalog.catalog import Catalog
from core.models.build import Build
from core.models.checks import Check, Fix, Number
from core.models.host import HostDemand
from core.models.parts import PSU
from core.models.pcie import PcieAssignment
from core.models.power import PowerBudget
from core.models.settings import CIRCUITS, AnalysisSettings


def run_checks(
    build: Build,
    settings: AnalysisSettings,
    demand: HostDemand | None = None,
    catalog: Catalog | None = None,
    *,
    budget: PowerBudget | None = None,
    assignment: PcieAssignment | None = None,
) -> tuple[Check, ...]:
    """Every check of ``build``; with ``catalog`` the fixes name real catalog parts.

    ``budget`` and ``assignment`` are the build's power budget and PCIe placement when
    the caller has them already (``analyze`` computes each once).
    """
    assignment = assignment or assign_pcie(build)
    budget = budget or power_budget(build, settings)
    psu_fix = pick_psu(build, settings, catalog, budget) if catalog is not None else None
    return (
        *power_checks(build, settings, catalog, psu_fix, budget=budget),
        *pcie_checks(build, assignment, catalog),
        *physical_checks(build, assignment, catalog),
        *compat_checks(build, catalog),
        power_connector_check(build, psu_fix),
        *host_checks(build, assignment, demand),
    )


def pick_psu(
    build: Build,
    settings: AnalysisSettings,
    catalog: Catalog,
    budget: PowerBudget | None = None,
) -> Fix | None:
    """Smallest catalog PSU (one, else two of them) with steady load ≤ 80 %, a known
    GPU spike within its excursion tolerance, and the GPU power cables.

    The build's draw does not depend on the PSU, so it is computed once (``budget``)
    and each candidate is judged by its rating and excursion tolerance alone.
    """
    budget = budget or power_budget(build, settings)
    steady, peak, known = budget.steady_dc_w, budget.peak_dc_w, transient_known(budget)
    psus = sorted(
        (p for p in catalog.parts("psu") if isinstance(p, PSU)),
        key=lambda p: (p.wattage_w, price_key(p)),
    )
    # A PSU whose cables are listed and suffice first; one whose cable counts are not
    # listed only when no listed one will do (an unknown count is not a pass).
    for accept in ((True,), (True, None)):
        fix = _first_psu(build, psus, steady, peak, known, budget, accept)
        if fix is not None:
            return fix
    return None


def _first_psu(
    build: Build,
    psus: list[PSU],
    steady: float,
    peak: float,
    known: bool,
    budget: PowerBudget,
    accept: tuple[bool | None, ...],
) -> Fix | None:
    for count in (1, 2):
        for psu in psus:
            rated = psu.wattage_w * count
            tolerance, _ = psu_excursion_tolerance(psu, budget.transient_duration_us)
            if not psu_carries(steady, peak, known, rated, tolerance):
                continue
            if connectors_ok(build, psu, count) in accept:
                return Fix(
                    code="use_psu",
                    build={"psu": psu.id, "psu_count": count},
                    numbers={
                        "wattage_w": psu.wattage_w,
                        "atx_version": psu.atx_version,
                        "count": count,
                        "name": psu.name,
                    },
                )
    return None


def _limit_fix(
    build: Build, settings: AnalysisSettings, *, psu: bool, circuit: bool, fraction: float = 1.0
) -> Fix | None:
    limit = highest_fitting_limit_w(
        build, settings, psu=psu, circuit=circuit, circuit_fraction=fraction
    )
    if limit is None or (build.gpu_power_w is not None and limit >= build.gpu_power_w):
        return None
    kept = power_limit_throughput_factor(build.gpu, limit)
    return Fix(
        code="power_limit_gpus",
        build={"gpu_power_limit_w": limit},
        numbers={"limit_w": limit, "gpus": build.gpu_count, "throughput_pct": round(100 * kept, 1)},
    )


def _min_psu_fix(budget: PowerBudget) -> Fix:
    needed = psu_watts_needed(budget)
    if needed > LARGEST_ATX_PSU_W:
        count = math.ceil(needed / LARGEST_ATX_PSU_W)
        return Fix(code="add_psus", build={"psu_count": count}, numbers={"count": count})
    watts = math.ceil(needed / PSU_SIZE_STEP_W) * PSU_SIZE_STEP_W
    return Fix(code="psu_min_watts", numbers={"min_psu_w": float(watts)})


def power_checks(
    build: Build,
    settings: AnalysisSettings,
    catalog: Catalog | None = None,
    psu_fix: Fix | None = None,
    *,
    budget: PowerBudget | None = None,
) -> tuple[Check, ...]:
    """Summary, PSU load, transient excursion, PSU count and wall circuit."""
    budget = budget or power_budget(build, settings)
    checks = [_summary(budget, settings)]
    if budget.unknown:
        checks.append(
            Check(
                id="power.unknown",
                severity="info",
                reason="power_unknown",
                numbers={"unknown": ", ".join(budget.unknown)},
            )
        )
    base: dict[str, Number] = {
        "steady_dc_w": round(budget.steady_dc_w),
        "peak_dc_w": round(budget.peak_dc_w),
    }
    if budget.psu_rated_w is None or budget.psu_load_fraction is None:
        fix = psu_fix or _min_psu_fix(budget)
        checks.append(
            Check(id="power.psu", severity="info", reason="psu_not_chosen", numbers=base, fix=fix)
        )
        return tuple(_lower_bound(c, budget) for c in checks)
    psu_fix = (
        psu_fix or _limit_fix(build, settings, psu=True, circuit=False) or _min_psu_fix(budget)
    )
    load = budget.psu_load_fraction
    numbers = base | {
        "psu_w": budget.psu_rated_w,
        "load_pct": round(100 * load, 1),
        "psu_count": budget.psu_count,
    }
    severity, reason = (
        ("fail", "psu_overloaded")
        if load > 1.0
        else ("warn", "psu_headroom_low")
        if load > STEADY_WARN_FRACTION
        else ("pass", "psu_ok")
    )
    checks.append(
        Check(
            id="power.psu",
            severity=severity,
            reason=reason,
            numbers=numbers,
            fix=None if severity == "pass" else psu_fix,
        )
    )
    checks.append(_transient_check(budget, base, psu_fix))
    needed = psus_needed(budget)
    count_numbers: dict[str, Number] = {"needed": needed, "psu_count": build.psu_count}
    if build.psu_count < needed:
        count_fix = (
            psu_fix
            if psu_fix.code == "use_psu"
            else Fix(code="add_psus", build={"psu_count": needed}, numbers={"count": needed})
        )
        checks.append(
            Check(
                id="power.psu_count",
                severity="fail",
                reason="needs_more_psus",
                numbers=count_numbers,
                fix=count_fix,
            )
        )
    else:
        checks.append(
            Check(
                id="power.psu_count", severity="pass", reason="psu_count_ok", numbers=count_numbers
            )
        )
    checks.append(_circuit_check(build, settings, budget))
    return tuple(_lower_bound(c, budget) for c in checks)


def _lower_bound(check: Check, budget: PowerBudget) -> Check:
    """With some draw unknown a total is a lower bound: only a failure stays conclusive."""
    if budget.complete or check.severity in ("fail", "info"):
        return check
    return check.model_copy(
        update={"severity": "info", "numbers": check.numbers | {"lower_bound": "yes"}}
    )


def _transient_check(budget: PowerBudget, base: dict[str, Number], fix: Fix) -> Check:
    limit = budget.excursion_limit_w or 0.0
    numbers = base | {
        "ratio": budget.gpu_transient_ratio,
        "duration_us": budget.transient_duration_us,
        "basis": budget.transient_basis,
        "tolerance_pct": round(100 * (budget.excursion_tolerance or 0.0)),
        "excursion_basis": budget.excursion_basis,
        "limit_w": round(limit),
    }
    if not transient_known(budget):
        return Check(
            id="power.transient", severity="info", reason="transient_unknown", numbers=numbers
        )
    if budget.peak_dc_w <= limit:
        return Check(
            id="power.transient",
            severity="pass",
            reason="transient_within_tolerance",
            numbers=numbers,
        )
    # Measured spikes, and the spikes the PCIe CEM 5.0 allowance lets a 16-pin card make,
    # can trip the PSU: unsafe. Only an assumed bound (no measurement, no 16-pin) warns.
    assumed = budget.transient_basis == "assumed_cem5_bound"
    return Check(
        id="power.transient",
        severity="warn" if assumed else "fail",
        reason="transient_over_tolerance",
        numbers=numbers,
        fix=fix,
    )


def _circuit_check(build: Build, settings: AnalysisSettings, budget: PowerBudget) -> Check:
    return circuit_check(
        budget.wall_w or 0.0,
        settings,
        lambda: _limit_fix(
            build, settings, psu=False, circuit=True, fraction=CIRCUIT_WARN_FRACTION
        ),
    )


def circuit_check(
    wall: float, settings: AnalysisSettings, limit_fix: Callable[[], Fix | None] = lambda: None
) -> Check:
    """``wall`` watts on the settings' circuit: within 90 % of its continuous limit, near
    it, or over it; the fix is ``limit_fix()`` (a GPU power limit) where there is one, else
    the circuits that carry it (or several circuits)."""
    circuit = settings.circuit_spec
    numbers: dict[str, Number] = {
        "wall_w": round(wall),
        "circuit": circuit.label,
        "volts": circuit.volts,
        "amps": circuit.amps,
        "continuous_pct": round(100 * circuit.continuous_fraction),
        "limit_w": round(circuit.continuous_w),
        "amps_drawn": round(wall / circuit.volts, 1),
    }
    if wall <= circuit.continuous_w * CIRCUIT_WARN_FRACTION:
        return Check(id="power.circuit", severity="pass", reason="circuit_ok", numbers=numbers)
    fix = limit_fix()
    if fix is None:
        fitting = [
            c.label for c in CIRCUITS.values() if c.continuous_w * CIRCUIT_WARN_FRACTION >= wall
        ]
        fix = Fix(
            code="use_bigger_circuit" if fitting else "split_across_circuits",
            numbers={"wall_w": round(wall), "circuits": ", ".join(fitting) or "none"},
        )
    if wall <= circuit.continuous_w:
        return Check(
            id="power.circuit",
            severity="warn",
            reason="circuit_near_limit",
            numbers=numbers,
            fix=fix,
        )
    return Check(
        id="power.circuit", severity="fail", reason="circuit_overloaded", numbers=numbers, fix=fix
    )


def _summary(budget: PowerBudget, settings: AnalysisSettings) -> Check:
    numbers: dict[str, Number] = {
        f"{c.component}_w": round(c.total_w) for c in budget.components if c.total_w is not None
    }
    numbers |= {
        "steady_dc_w": round(budget.steady_dc_w),
        "peak_dc_w": round(budget.peak_dc_w),
        "utilization_pct": round(100 * settings.utilization),
    }
    if budget.wall_w is not None:
        numbers |= {
            "wall_w": round(budget.wall_w),
            "efficiency_pct": round(100 * (budget.efficiency or 0.0), 1),
            "heat_btu_h": round(budget.heat_btu_h or 0.0),
            "kwh_per_year": round(budget.energy_kwh_per_year or 0.0),
            "usd_per_year": round(budget.electricity_usd_per_year or 0.0),
            "usd_per_kwh": settings.electricity_usd_per_kwh,
        }
    serving = any(c.basis == "serving_draw" for c in budget.components)
    reason = "power_summary_serving" if serving else "power_summary"
    return Check(id="power.summary", severity="info", reason=reason, numbers=numbers)
