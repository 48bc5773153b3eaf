"""Power: per-component draw, GPU transients, PSU load and excursions, wall power, energy.

Sources (see shared/data/power/power_facts.md):

- ATX 3.0 excursion tolerance: 200 % of rated power for 100 µs, 180 % for 1 ms,
  160 % for 10 ms, 120 % for 100 ms; only units with the 12VHPWR connector must
  pass the strict test (hothardware.com, "PSU manufacturers can skirt ATX 3.0
  tolerance testing").
- PCIe CEM 5.0 lets a GPU spike to 3× its sustained power for 100 µs
  (tweaktown.com news 85717).
- Measured transient/TDP at 200 µs: RTX A6000 (Ampere) 2.18×, Quadro RTX 4000
  (Turing) 2.2× (Lenovo ThinkSystem ST650 V2 user manual, p. 69).
- 4× RTX 3090 limited from 350 W to 280 W kept more than 95 % of their
  performance (Puget Systems Labs, quad RTX 3090 "MaxQ" article).
- The largest common ATX PSU is 1,600 W (Lambda blog, RTX 30xx hardware deep dive).
- 1 W = 3.412142 BTU/h (International Table BTU).

Assumptions (no read source gives them; stated here, in docs/checks.md and in
each budget's ``basis`` codes): memory 5 W per UDIMM and 10 W per RDIMM; drives
without a power spec 8 W (M.2 NVMe), 20 W (U.2/E1.S), 5 W (2.5"), 10 W (3.5");
motherboard 50 W (consumer) or 80 W (workstation/server platform); fans 30 W;
ATX 2.x PSUs carry no excursion above rating; a steady load above 80 % of the
PSU rating leaves too little headroom; CPUs without a sustained package power
figure run at their base power (TDP). GPUs without a measured transient ratio
are taken at the CEM 5.0 allowance (3× for 100 µs).
"""

from __future__ import annotations

import itertools
import math

from core.models.build import Build
from core.models.parts import GPU, PSU, Drive
from core.models.power import Component, ComponentPower, PowerBudget
from core.models.settings import AnalysisSettings

BTU_H_PER_W = 3.412142
HOURS_PER_YEAR = 8760.0
LARGEST_ATX_PSU_W = 1600.0
STEADY_WARN_FRACTION = 0.8
"""A PSU is sized for its steady load to stay at or under 80 % of its rating (checks,
fixes, Make it work and Suggest use this one margin)."""
CIRCUIT_WARN_FRACTION = 0.9
"""A machine's wall draw should stay at or under 90 % of its circuit's continuous limit."""
PSU_SIZE_STEP_W = 100.0
"""PSU ratings come in steps of this size: a needed wattage is rounded up to one."""
MIN_SUGGESTED_LIMIT_FRACTION = 0.5
"""Power limits below half the board power are outside any read measurement."""

DIMM_W = {"UDIMM": 5.0, "RDIMM": 10.0}
"""Assumed draw per module (no read source; see the module docstring)."""
_BOARD_W = {"consumer": 50.0, "workstation": 80.0, "server": 80.0}
_FANS_W = 30.0

_CEM5_RATIO, _CEM5_US = 3.0, 100.0
_MEASURED_TRANSIENT: dict[str, tuple[float, float, str]] = {
    "ampere": (2.18, 200.0, "measured_rtx_a6000_200us"),
    "turing": (2.2, 200.0, "measured_quadro_rtx_4000_200us"),
}
_ATX3_TOLERANCE_US = ((100.0, 2.0), (1_000.0, 1.8), (10_000.0, 1.6), (100_000.0, 1.2))
ATX3_SHORT_TOLERANCE = _ATX3_TOLERANCE_US[0][1]
"""What an ATX 3.x PSU carries for 100 µs: 200 % of its rating."""

_PUGET_LIMIT_FRACTION, _PUGET_KEPT = 280.0 / 350.0, 0.95
POWER_LIMIT_EXPONENT = math.log(_PUGET_KEPT) / math.log(_PUGET_LIMIT_FRACTION)
"""≈ 0.23: throughput ∝ (limit / board power)^0.23, fitted to Puget's quad-3090 point."""


def energy_kwh_per_year(wall_w: float, utilization: float) -> float:
    """kWh drawn in a year at ``wall_w`` for ``utilization`` of the 8,760 hours."""
    return wall_w * utilization * HOURS_PER_YEAR / 1000.0


TRANSIENT_ASSUMED = "assumed_cem5_bound"
"""Basis of a GPU's spike ratio that no measurement or connector standard gives."""


def gpu_transient(gpu: GPU) -> tuple[float, float, str]:
    """(spike ÷ sustained power, spike duration in µs, basis code) for one GPU.

    Source: Lenovo ST650 V2 manual p. 69 (measured Ampere/Turing ratios); PCIe
    CEM 5.0 allowance for 12VHPWR/12V-2x6 cards; the same allowance, stated as an
    assumption, for GPUs with neither.
    """
    if gpu.architecture in _MEASURED_TRANSIENT:
        return _MEASURED_TRANSIENT[gpu.architecture]
    if {"12vhpwr", "12v_2x6"} & set(gpu.power_connectors or {}):
        return _CEM5_RATIO, _CEM5_US, "pcie_cem5_allowance"
    return _CEM5_RATIO, _CEM5_US, TRANSIENT_ASSUMED


def psu_excursion_tolerance(psu: PSU, duration_us: float) -> tuple[float, str]:
    """Multiple of rated power ``psu`` must carry for ``duration_us``, with its basis.

    Source: ATX 3.0 tolerance table (hothardware.com); units without a 12VHPWR or
    12V-2x6 connector need not pass it, so they get none (assumption, as ATX 2.x).
    """
    if psu.atx_version == "2.x":
        return 1.0, "atx2_no_excursion_spec"
    basis = "atx3_excursion_table"
    if psu.connectors is None:
        basis = "atx3_connectors_unknown"  # assumed to carry a 16-pin lead, as ATX 3.x units do
    elif not {"12vhpwr", "12v_2x6"} & {k for k, n in psu.connectors.items() if n > 0}:
        return 1.0, "atx3_without_12vhpwr"
    for limit_us, tolerance in _ATX3_TOLERANCE_US:
        if duration_us <= limit_us:
            return tolerance, basis
    return 1.0, basis


def psu_efficiency(psu: PSU, load_fraction: float) -> float:
    """Efficiency at ``load_fraction`` of rating, linear between the curve's points.

    Outside the curve the nearest point holds. The curve is the PSU's published
    one (115 V unless its notes say otherwise); 230 V mains is not credited.
    """
    points = sorted(psu.efficiency_curve, key=lambda p: p.load_fraction)
    if load_fraction <= points[0].load_fraction:
        return points[0].efficiency
    for low, high in itertools.pairwise(points):
        if load_fraction <= high.load_fraction:
            t = (load_fraction - low.load_fraction) / (high.load_fraction - low.load_fraction)
            return low.efficiency + t * (high.efficiency - low.efficiency)
    return points[-1].efficiency


def drive_power_w(drive: Drive) -> tuple[float, str]:
    if drive.power_w is not None:
        return drive.power_w, "drive_spec"
    if drive.form_factor == "m.2":
        return 8.0, "assumed"
    if drive.form_factor in ("u.2", "e1.s"):
        return 20.0, "assumed"
    return (10.0 if drive.form_factor == "3.5" else 5.0), "assumed"


def component_power(build: Build, gpu_draw_w: float | None = None) -> tuple[ComponentPower, ...]:
    """Draw of each component class under a full training load, or with each GPU drawing
    ``gpu_draw_w`` (what it draws serving an LLM)."""
    gpu_basis = "power_limit" if build.gpu_power_limit_w is not None else "board_power"
    gpu_each = build.gpu_power_w
    if gpu_draw_w is not None:
        gpu_basis, gpu_each = "serving_draw", gpu_draw_w
    cpu = build.cpu
    cpu_w, cpu_basis = (
        (cpu.max_power_w, "cpu_max_power")
        if cpu.max_power_w is not None
        else (cpu.base_power_w, "cpu_base_power")
    )
    drives_w = 0.0
    drive_count = 0
    drive_basis = "drive_spec"
    for selection in build.drives:
        watts, basis = drive_power_w(selection.drive)
        drives_w += watts * selection.count
        drive_count += selection.count
        drive_basis = "assumed" if basis == "assumed" else drive_basis
    return (
        ComponentPower(component="gpu", count=build.gpu_count, each_w=gpu_each, basis=gpu_basis),
        ComponentPower(component="cpu", count=build.cpu_count, each_w=cpu_w, basis=cpu_basis),
        ComponentPower(
            component="memory",
            count=build.dimm_count,
            each_w=DIMM_W[build.memory.dimm_type],
            basis="assumed",
        ),
        ComponentPower(
            component="drives", count=1, each_w=drives_w, basis=f"{drive_basis}:{drive_count}"
        ),
        ComponentPower(
            component="motherboard", count=1, each_w=_BOARD_W[cpu.segment], basis="assumed"
        ),
        ComponentPower(component="fans", count=1, each_w=_FANS_W, basis="assumed"),
    )


def power_budget(
    build: Build,
    settings: AnalysisSettings,
    psu: PSU | None = None,
    psu_count: int | None = None,
    *,
    gpu_draw_w: float | None = None,
    continuous_gpu_draw_w: float | None = None,
) -> PowerBudget:
    """Steady and peak DC power, PSU load and excursion margin, wall power and energy.

    ``psu``/``psu_count`` evaluate another PSU choice; by default the build's own.
    ``gpu_draw_w`` is each GPU's draw when it is not its board power or limit (serving:
    ``core.calc.inference``); the transient spikes scale from that draw.
    ``continuous_gpu_draw_w``, where lower, is what each GPU draws for hours on end
    (serving: generation, which waits on memory): the wall draw, the circuit's continuous
    load and the energy use it; the PSU must carry ``gpu_draw_w``.
    """
    psu = psu or build.psu
    count = psu_count or build.psu_count
    components = component_power(build, gpu_draw_w)
    unknown: tuple[Component, ...] = tuple(c.component for c in components if c.each_w is None)
    steady = sum(c.total_w or 0.0 for c in components)
    ratio, duration_us, transient_basis = gpu_transient(build.gpu)
    gpu_w = (gpu_draw_w if gpu_draw_w is not None else build.gpu_power_w or 0.0) * build.gpu_count
    peak = steady + gpu_w * (ratio - 1.0)
    circuit_w = settings.circuit_spec.continuous_w
    if psu is None:
        return PowerBudget(
            components=components,
            steady_dc_w=steady,
            unknown=unknown,
            gpu_transient_ratio=ratio,
            transient_basis=transient_basis,
            transient_duration_us=duration_us,
            peak_dc_w=peak,
            psu_rated_w=None,
            circuit_continuous_w=circuit_w,
        )
    rated = psu.wattage_w * count
    load = steady / rated
    tolerance, excursion_basis = psu_excursion_tolerance(psu, duration_us)
    continuous = steady
    if continuous_gpu_draw_w is not None and gpu_draw_w is not None:
        continuous -= (gpu_draw_w - min(continuous_gpu_draw_w, gpu_draw_w)) * build.gpu_count
    efficiency = psu_efficiency(psu, continuous / rated)
    wall = continuous / efficiency
    energy = energy_kwh_per_year(wall, settings.utilization)
    return PowerBudget(
        components=components,
        steady_dc_w=steady,
        unknown=unknown,
        gpu_transient_ratio=ratio,
        transient_basis=transient_basis,
        transient_duration_us=duration_us,
        peak_dc_w=peak,
        psu_rated_w=rated,
        psu_count=count,
        psu_load_fraction=load,
        excursion_tolerance=tolerance,
        excursion_basis=excursion_basis,
        efficiency=efficiency,
        wall_w=wall,
        heat_btu_h=wall * BTU_H_PER_W,
        energy_kwh_per_year=energy,
        electricity_usd_per_year=energy * settings.electricity_usd_per_kwh,
        circuit_continuous_w=circuit_w,
    )


def psu_watts_needed(budget: PowerBudget, steady_fraction: float = STEADY_WARN_FRACTION) -> float:
    """Rated watts the PSUs together need: the steady load at ``steady_fraction`` of their
    rating and, where the GPU spike is known, the spike within an ATX 3.x unit's 200 %
    for 100 µs (``psu_carries`` is the same rule for a given PSU)."""
    needed = budget.steady_dc_w / steady_fraction
    if transient_known(budget):
        needed = max(needed, budget.peak_dc_w / ATX3_SHORT_TOLERANCE)
    return needed


def psu_carries(
    steady_w: float, peak_w: float, spike_known: bool, rated_w: float, tolerance: float
) -> bool:
    """Whether PSUs of ``rated_w`` together, carrying ``tolerance`` × rating through a
    spike, power the load: steady at most ``STEADY_WARN_FRACTION`` of the rating, a known
    spike within the excursion allowance (an assumed one is not held against them)."""
    steady_ok = steady_w <= rated_w * STEADY_WARN_FRACTION
    return steady_ok and (not spike_known or peak_w <= rated_w * tolerance)


def psus_needed(budget: PowerBudget) -> int:
    """The fewest PSUs that can carry the load at all (steady at full rating, a known
    spike at 200 % for 100 µs, shared evenly), each of the largest common ATX size
    (1,600 W) or of the build's own size where that is larger (a 2,200 W unit on a 230 V
    circuit carries what two 1,600 W ones would)."""
    each = LARGEST_ATX_PSU_W
    if budget.psu_rated_w and budget.psu_count:
        each = max(each, budget.psu_rated_w / budget.psu_count)
    return max(1, math.ceil(psu_watts_needed(budget, 1.0) / each))


def power_limit_throughput_factor(gpu: GPU, limit_w: float) -> float:
    """Share of full-power throughput a GPU keeps at ``limit_w`` (1.0 at or above board power).

    Model: (limit / board power)^α with α = ln 0.95 / ln 0.8 ≈ 0.23, fitted to
    Source: Puget Systems Labs, 4× RTX 3090 at 280 W of 350 W kept > 95 %. The
    fit is a lower bound at that point; below 80 % of board power it is an
    extrapolation (stated in docs/checks.md). Unknown board power gives 1.0.
    """
    if gpu.board_power_w is None or limit_w >= gpu.board_power_w:
        return 1.0
    return float((max(limit_w, 1.0) / gpu.board_power_w) ** POWER_LIMIT_EXPONENT)


def _with_limit(build: Build, limit_w: float) -> Build:
    return build.model_copy(update={"gpu_power_limit_w": limit_w})


def fits_psu(budget: PowerBudget) -> bool:
    """Steady load within rating and a known GPU spike within the PSU's excursion tolerance.

    A transient only assumed (no measurement, no CEM 5.0 connector) is not held against it.
    """
    if budget.psu_load_fraction is None or budget.excursion_limit_w is None:
        return False
    spike_ok = not transient_known(budget) or budget.peak_dc_w <= budget.excursion_limit_w
    return budget.psu_load_fraction <= 1.0 and spike_ok


def transient_known(budget: PowerBudget) -> bool:
    """Whether the GPU spike ratio is measured or a connector standard's allowance."""
    return budget.transient_basis != TRANSIENT_ASSUMED


def fits_circuit(budget: PowerBudget) -> bool:
    return budget.wall_w is not None and budget.wall_w <= budget.circuit_continuous_w


def highest_fitting_limit_w(
    build: Build,
    settings: AnalysisSettings,
    *,
    psu: bool,
    circuit: bool,
    circuit_fraction: float = 1.0,
    step_w: float = 5.0,
) -> float | None:
    """Highest per-GPU limit (multiple of ``step_w``) that fits the PSU and/or circuit.

    The circuit test allows ``circuit_fraction`` of its continuous limit. Searches
    from board power down to half of it; ``None`` when even that fails or the
    board power is unknown. Draw only grows with the limit, so the search halves the
    range each time (a dozen evaluations for any board power, never a count-down).
    """
    board = build.gpu.board_power_w
    if board is None or not math.isfinite(board):
        return None

    def fits(limit: float) -> bool:
        budget = power_budget(_with_limit(build, limit), settings)
        wall_ok = budget.wall_w is not None and (
            budget.wall_w <= budget.circuit_continuous_w * circuit_fraction
        )
        return (not psu or fits_psu(budget)) and (not circuit or wall_ok)

    low = math.ceil(board * MIN_SUGGESTED_LIMIT_FRACTION / step_w)
    high = math.floor(board / step_w)
    if high < low or not fits(low * step_w):
        return None
    while low < high:  # invariant: ``low`` fits
        middle = (low + high + 1) // 2
        if fits(middle * step_w):
            low = middle
        else:
            high = middle - 1
    return low * step_w
