"""Ranking of the optimizer's builds: the Pareto front, a spread of it, and why each wins."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

import numpy as np
import numpy.typing as npt

from core.models.analysis import Analysis
from core.models.build import Build
from core.models.checks import Verdict
from core.models.suggest import Reason, Suggestion, SuggestRequest
from core.models.workload import Workload

BINDING_SHARE = 0.85
"""A limit binds when the build uses at least this share of it."""
HOST_BINDING_WAIT = 0.10
"""A host stage that sets the pace binds when the GPUs wait at least this share of each
step for it; below, loader and GPUs are about matched and the build's other limits (slots,
memory, budget) say more about what stops it from being faster."""


@dataclass(frozen=True)
class Candidate:
    build: Build
    cost_usd: float
    throughput: float
    unit: str
    wall_w: float
    verdict: Verdict
    warnings: tuple[str, ...]
    workload: Workload | None = None
    """The workload as the build runs it (a checkpointed variant when the request's did not
    fit), or ``None`` when unchanged."""
    binding: Reason | None = None


def binding_reason(analysis: Analysis, request: SuggestRequest, workload: Workload) -> Reason:
    """The limit that stops this build from being faster: the one it uses the most of.

    Shares: parts cost of the budget, wall power of the circuit (or the power cap), GPU
    memory of its capacity, GPUs of the board's GPU slots, GPUs of the request's maximum.
    A host stage that sets the pace (the CPU's data loading slower than the GPUs, so
    that they wait at least ``HOST_BINDING_WAIT`` of each step) binds first: none of
    those limits is what stops the build from being faster.
    """
    shares: list[tuple[float, str, dict[str, float | str]]] = []
    total = analysis.cost.parts.total_usd
    if total is not None:
        shares.append((total / request.budget_usd, "budget", {"limit_usd": request.budget_usd}))
    power = analysis.power
    cap = power.circuit_continuous_w
    if request.max_wall_w is not None:
        cap = min(cap, request.max_wall_w)
    if power.wall_w is not None and cap:
        shares.append((power.wall_w / cap, "wall_power", {"wall_w": power.wall_w, "limit_w": cap}))
    if analysis.vram is not None and analysis.vram.capacity_gib:
        vram = analysis.vram
        shares.append(
            (
                vram.total_gib / vram.capacity_gib,
                "vram",
                {"used_gib": vram.total_gib, "capacity_gib": vram.capacity_gib},
            )
        )
    gpus = analysis.build.gpu_count
    fitting = analysis.pcie.gpus_fitting_geometry
    if fitting:
        shares.append((gpus / fitting, "board_slots", {"gpus": gpus, "slots": fitting}))
    shares.append(
        (gpus / request.max_gpus, "max_gpus", {"gpus": gpus, "max_gpus": request.max_gpus})
    )
    share, name, numbers = max(shares, key=lambda s: s[0])
    pace = analysis.throughput.bottleneck if analysis.throughput is not None else None
    if pace is not None and pace.sets_pace and pace.share_of_step >= HOST_BINDING_WAIT:
        # a host stage slower than the GPUs (data loading, storage, copies) binds before
        # any of the limits above: more GPUs, memory or watts would gain nothing
        stage: dict[str, float | str] = {"stage": pace.code, "wait_pct": 100.0 * pace.share_of_step}
        return Reason(
            code="binding_constraint",
            numbers={"constraint": "host_stage", "used_pct": 100.0, **stage},
        )
    code = "binding_constraint" if share >= BINDING_SHARE else "no_constraint_binds"
    return Reason(code=code, numbers={"constraint": name, "used_pct": 100.0 * share, **numbers})


def pareto_indices(cost: npt.NDArray[np.float64], throughput: npt.NDArray[np.float64]) -> list[int]:
    """Indices of the points no other point beats (cheaper-or-equal and strictly faster).

    Sorted by cost, then throughput descending; a point is on the front when it is
    faster than every cheaper point. Ties keep the first. Cheapest first.
    """
    if cost.size == 0:
        return []
    order = np.lexsort((-throughput, cost))
    sorted_thr = throughput[order]
    best_before = np.maximum.accumulate(np.concatenate(([-np.inf], sorted_thr[:-1])))
    return [int(i) for i in order[sorted_thr > best_before]]


def pick_spread(
    front: list[int],
    cost: npt.NDArray[np.float64],
    throughput: npt.NDArray[np.float64],
    size: int,
) -> list[int]:
    """At most ``size`` front points: evenly spread, always with both ends and the best ratio."""
    if len(front) <= size:
        return front
    ratio_best = min(front, key=lambda i: cost[i] / throughput[i] if throughput[i] else np.inf)
    picks = {front[round(k * (len(front) - 1) / max(size - 2, 1))] for k in range(size - 1)}
    picks.add(ratio_best)
    return [i for i in front if i in picks]


def reasons_for(
    candidates: list[Candidate], budget_usd: float, today: date | None = None
) -> tuple[tuple[Suggestion, ...], Suggestion | None]:
    """Suggestions cheapest first with their reasons, and the best cost per throughput;
    a build resting on a price over a year old (before ``today``) says which."""
    today = today or date.today()
    ordered = sorted(candidates, key=lambda c: (c.cost_usd, -c.throughput))
    front: list[Candidate] = []
    for candidate in ordered:  # the full model can reorder throughput slightly: re-filter
        if not front or candidate.throughput > front[-1].throughput:
            front.append(candidate)
    if not front:
        return (), None
    ratios = [c.cost_usd / c.throughput if c.throughput else float("inf") for c in front]
    best_index = min(range(len(front)), key=lambda i: ratios[i])
    runner_up = min((r for i, r in enumerate(ratios) if i != best_index), default=None)
    suggestions: list[Suggestion] = []
    for i, candidate in enumerate(front):
        reasons: list[Reason] = []
        if i == best_index:
            numbers: dict[str, float | str] = {"usd_per_unit": ratios[i], "unit": candidate.unit}
            if runner_up is not None:
                numbers["runner_up_usd_per_unit"] = runner_up
                numbers["margin_pct"] = 100.0 * (runner_up - ratios[i]) / runner_up
            reasons.append(Reason(code="best_cost_per_throughput", numbers=numbers))
        if i == len(front) - 1:
            reasons.append(
                Reason(
                    code="most_throughput_in_budget",
                    numbers={
                        "throughput": candidate.throughput,
                        "unit": candidate.unit,
                        "budget_usd": budget_usd,
                    },
                )
            )
        if i == 0:
            reasons.append(Reason(code="cheapest", numbers={"cost_usd": candidate.cost_usd}))
        else:
            previous = front[i - 1]
            reasons.append(
                Reason(
                    code="pareto_step",
                    numbers={
                        "extra_usd": candidate.cost_usd - previous.cost_usd,
                        "gain_pct": 100.0 * (candidate.throughput / previous.throughput - 1.0),
                    },
                )
            )
        if (
            candidate.workload is not None
            and candidate.build.gpu_count
            and (candidate.workload.checkpointing != "none")
        ):
            reasons.append(
                Reason(
                    code="fits_with_checkpointing",
                    numbers={"checkpointing": candidate.workload.checkpointing},
                )
            )
        if candidate.build.used:
            reasons.append(
                Reason(
                    code="used_parts",
                    numbers={
                        "parts": ", ".join(
                            p.name
                            for _q, p in candidate.build.bill_of_materials()
                            if candidate.build.is_used(p)
                        )
                    },
                )
            )
        stale = _stale_parts(candidate.build, today)
        if stale:
            reasons.append(Reason(code="stale_prices", numbers={"parts": stale}))
        if candidate.binding is not None:
            reasons.append(candidate.binding)
        suggestions.append(
            Suggestion(
                build=candidate.build,
                cost_usd=candidate.cost_usd,
                throughput=candidate.throughput,
                unit=candidate.unit,
                usd_per_unit=ratios[i],
                wall_w=candidate.wall_w,
                verdict=candidate.verdict,
                warnings=candidate.warnings,
                reasons=tuple(reasons),
                workload=candidate.workload,
            )
        )
    return tuple(suggestions), suggestions[best_index]


def _stale_parts(build: Build, today: date) -> str:
    """The build's parts whose price (used where bought used) is over a year old:
    "GeForce RTX 4090 (msrp, 2022-10-12), …"; "" when none."""
    from core.calc.cost.parts import price_lines

    lines = price_lines(build, today=today)
    return ", ".join(f"{line.name} ({line.kind}, {line.as_of})" for line in lines if line.stale)
