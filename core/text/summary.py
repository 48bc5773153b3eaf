"""Headline figures of one analysis, each with the formula, inputs and sources behind it.

Used by the GUI's summary cards (value, detail, "why?" explanation) and the build sheet.
``money`` (``core.text.money.Money``) formats a USD amount in the user's currency.
"""

from __future__ import annotations

from core.models.analysis import Analysis
from core.text.cost import cloud_text, per_kwh_text, total_text
from core.text.format import use_of
from core.text.inference import api_break_even_text
from core.text.money import USD, Money
from core.text.power import basis_text
from core.text.throughput import bottleneck_text, precision_text
from core.text.verdict import not_buildable

NA = "n/a"


class Figure:
    """One card: a title, the value, a short detail and the explanation."""

    __slots__ = ("detail", "key", "severity", "title", "value", "why")

    def __init__(
        self, key: str, title: str, value: str, detail: str, why: str, severity: str = "info"
    ) -> None:
        self.key, self.title, self.value = key, title, value
        self.detail, self.why, self.severity = detail, why, severity


def duration_text(seconds: float | None) -> str:
    if seconds is None:
        return NA
    hours = seconds / 3600
    if hours < 1:
        return f"{seconds / 60:.0f} min"
    if hours < 48:
        return f"{hours:.1f} h"
    return f"{hours / 24:.1f} days"


def vram_figure(a: Analysis) -> Figure:
    v = a.vram
    if v is None:
        return Figure("vram", "Fits in VRAM", NA, "no workload", "Needs a valid workload.")
    b = v.breakdown
    why = (
        "Per GPU: weights + gradients + optimizer + activations + KV cache + framework "
        "+ workspace\n"
        f"= {b.weights_gib:.1f} + {b.gradients_gib:.1f} + {b.optimizer_gib:.1f} + "
        f"{b.activations_gib:.1f} + {b.kv_cache_gib:.1f} + {b.framework_gib:.1f} + "
        f"{b.workspace_gib:.1f} = {v.total_gib:.1f} GiB\n"
        f"Capacity {v.capacity_gib:.1f} GiB ({a.build.gpu.name}, catalog); largest batch that "
        f"fits: {v.max_batch_size}.\n"
        "Sources: ZeRO (Rajbhandari et al. 2020) for model states; Korthikanti et al. 2022 "
        "for transformer activations; HF / vLLM for the KV cache."
    )
    value = "Yes" if v.fits else "No"
    detail = f"{use_of(v.total_gib, v.capacity_gib)} per GPU"
    return Figure("vram", "Fits in VRAM", value, detail, why, "pass" if v.fits else "fail")


def throughput_figure(a: Analysis) -> Figure:
    t = a.throughput
    if t is None:
        return Figure("throughput", "Throughput", NA, "no estimate", "Needs a valid workload.")
    b = t.breakdown
    note = precision_text(t.precision_note)
    why = (
        f"Total = per-GPU × scaling = {t.per_gpu_throughput:,.0f} × {t.gpus} GPU(s) × "
        f"efficiency → {t.total_throughput:,.0f} {t.unit}\n"
        f"Per GPU = batch × items per sample / step time; step {b.step_s * 1e3:.1f} ms "
        f"(compute {b.compute_s * 1e3:.1f} ms).\n"
        f"Utilization {t.utilization:.0%} (compute / step), MFU {t.mfu:.0%} at "
        f"{t.compute_precision}{f' ({note})' if note else ''}.\n"
        "Inputs: GPU peak tensor rate and memory bandwidth (catalog, vendor datasheets); "
        "roofline model fitted to published MLPerf / NVIDIA DeepLearningExamples results."
    )
    detail = f"{t.per_gpu_throughput:,.0f} per GPU · {t.utilization:.0%} utilization"
    return Figure("throughput", "Throughput", f"{t.total_throughput:,.0f} {t.unit}", detail, why)


def time_figure(a: Analysis) -> Figure:
    t = a.throughput
    w = a.workload
    seconds = t.time_to_target_s if t is not None else None
    target = "no target set"
    if w is not None and not w.trains:
        target = "inference: no training target"
    elif w is not None and w.target is not None:
        target = (
            f"{w.target.epochs:g} epochs of {w.dataset_samples or 0:,} samples"
            if w.target.epochs is not None
            else f"{w.target.tokens:,.0f} tokens"
        )
    why = (
        "Time = work in the target / total throughput\n"
        f"Target: {target}; throughput "
        f"{t.total_throughput if t else 0:,.0f} {t.unit if t else ''}.\n"
        "Set the dataset size and an epochs or tokens target in the workload editor."
    )
    return Figure("time", "Time to target", duration_text(seconds), target, why)


def cost_figure(a: Analysis, money: Money) -> Figure:
    c = a.cost.parts
    value = total_text(a.cost, money)
    unpriced = len(c.unpriced_part_ids)
    if unpriced:
        value += " — enter one"
    detail = (
        "all parts priced"
        if c.complete
        else f"{unpriced} part(s) without a price; {money(c.priced_usd)} known so far"
    )
    why = (
        "Sum of unit price × quantity over the build's parts.\n"
        "Prices: the bundled dated snapshot, the price feed or your overrides "
        "(each part's price, date and source are in the Parts tab).\n"
        + (
            "An unknown price is never counted as zero: double-click it in the Parts tab, "
            "use Edit → Prices…, or 'rigforge prices set'."
            if unpriced
            else ""
        )
        + (f"\n{money.note()}" if money.note() else "")
    )
    return Figure("cost", "Total cost", value, detail, why, "info" if c.complete else "warn")


def cost_per_unit_figure(a: Analysis, money: Money) -> Figure:
    t = a.throughput
    if t is None or t.total_throughput <= 0:
        return Figure("per_unit", "Cost / throughput", NA, "no throughput", "Needs a workload.")
    per_unit = a.cost.per_throughput_usd
    if per_unit is None:
        return Figure(
            "per_unit",
            "Cost / throughput",
            "unknown",
            "the total is unknown",
            "Parts cost / total throughput needs every part's price; "
            f"{len(a.cost.parts.unpriced_part_ids)} part(s) have none.",
            "warn",
        )
    why = (
        "Parts cost / total throughput\n"
        f"= {money(a.cost.parts.total_usd)} / {t.total_throughput:,.0f} {t.unit}."
    )
    return Figure("per_unit", "Cost / throughput", money(per_unit, 2), f"per {t.unit}", why)


def power_figure(a: Analysis, money: Money) -> Figure:
    p, report = a.power, a.cost
    wall = p.wall_w
    lower = " (lower bound)" if p.unknown else ""
    if wall is None:
        value, detail = f"{p.steady_dc_w:,.0f} W DC", "no PSU chosen"
    else:
        value = f"{wall:,.0f} W"
        detail = f"{money(report.electricity_usd_per_year)}/year electricity"
    why = (
        f"Wall = steady DC / PSU efficiency = {p.steady_dc_w:,.0f} W / "
        f"{(p.efficiency or 0):.1%}{lower}\n"
        + "\n".join(
            f"  {c.component}: {c.count} × {c.each_w if c.each_w is not None else '?'} W "
            f"({basis_text(c.basis)})"
            for c in p.components
        )
        + f"\nPeak with GPU spikes {p.peak_dc_w:,.0f} W ({p.gpu_transient_ratio:g}× for "
        f"{p.transient_duration_us:g} µs; {basis_text(p.transient_basis)}).\n"
        f"Circuit continuous limit {p.circuit_continuous_w:,.0f} W. Efficiency from the PSU's "
        "80 PLUS curve."
    )
    circuit = a.check("power.circuit")  # the circuit check's verdict, not a second rule
    severity = "warn" if circuit is not None and circuit.severity in ("warn", "fail") else "info"
    return Figure("power", "Wall power", value, detail, why, severity)


def bottleneck_figure(a: Analysis) -> Figure:
    t = a.throughput
    if t is None:
        return Figure("bottleneck", "Bottleneck", NA, "", "Needs a workload.")
    text = bottleneck_text(t.bottleneck)
    what, _, share = text.rpartition(": ")
    cause = (
        "A host stage runs beside the GPUs and is slower than them, so each step waits "
        "for it: faster GPUs would not help (see the step-time chart)."
        if t.bottleneck.sets_pace
        else "The largest share of the step time (see the step-time chart)."
    )
    why = (
        f"{cause}\n"
        f"{text}.\nUtilization {t.utilization:.0%}: the rest of each step goes to "
        "memory-bound work, data loading, transfers and communication not hidden by compute."
    )
    return Figure("bottleneck", "Bottleneck", what or text, share, why)


def with_published(figure: Figure, short: str, long: str) -> Figure:
    """The figure with the published measurement beside it (detail) and in full (why)."""
    detail = f"{figure.detail} · {short}" if figure.detail else short
    why = f"{figure.why}\n\nPublished measurements and accuracy:\n{long}"
    return Figure(figure.key, figure.title, figure.value, detail, why, figure.severity)


def _not_buildable(figure: Figure, reason: str, verdict: str) -> Figure:
    """The estimate moves to the detail: the build does not run as it is ("Won't work"
    when it needs other parts, "Needs a change" when another way of running it mends it)."""
    detail = f"{figure.value} once fixed" if figure.value not in (NA, "unknown") else ""
    why = f"{reason[0].upper()}{reason[1:]}.\nOnce that is fixed: {figure.why}"
    value = "Needs a change" if verdict == "changes" else "Won't work"
    severity = "warn" if verdict == "changes" else "fail"
    return Figure(figure.key, figure.title, value, detail, why, severity)


def summary_figures(a: Analysis, money: Money) -> list[Figure]:
    figures = _summary_figures(a, money)
    reason = not_buildable(a)
    if reason is None:
        return figures
    return [
        _not_buildable(f, reason, a.verdict) if f.key in ("throughput", "time", "per_unit") else f
        for f in figures
    ]


def _summary_figures(a: Analysis, money: Money) -> list[Figure]:
    figures = [
        vram_figure(a),
        throughput_figure(a),
        time_figure(a),
        cost_figure(a, money),
        cost_per_unit_figure(a, money),
        power_figure(a, money),
        bottleneck_figure(a),
    ]
    if a.inference is None:
        return figures
    from core.text.inference import serving_figures

    serving = serving_figures(a, money)
    result = []
    for figure in figures:
        if figure.key in serving:
            title, value, detail, why = serving[figure.key]
            severity = figure.severity
            if figure.key == "vram":
                severity = "pass" if a.inference.memory.fits else "fail"
            figure = Figure(figure.key, title, value, detail, why, severity)
        result.append(figure)
    return result


def cost_rows(a: Analysis, money: Money = USD) -> list[tuple[str, str]]:
    """(label, text) of a build's costs in the user's currency: the build sheet's cost
    table and the lines ``rigforge check`` prints after the parts."""
    r = a.cost
    total = cost_figure(a, money)
    per_unit = cost_per_unit_figure(a, money)
    rows = [
        ("Parts total", f"{total_text(r, money)} ({total.detail})"),
        ("Cost per unit of throughput", f"{per_unit.value} {per_unit.detail}".strip()),
    ]
    inference_cost = a.inference.cost if a.inference else None
    if inference_cost is not None:
        per = inference_cost.usd_per_million_tokens
        electricity = inference_cost.electricity_usd_per_million_tokens
        rows[1] = (
            "Cost per million generated tokens",
            (money(per, 2) if per is not None else "unknown (a part has no price)")
            + f", over {inference_cost.lifetime_years} years; electricity "
            + (money(electricity, 2) if electricity is not None else "unknown")
            + " of it",
        )
        rows.insert(2, ("API break-even", api_break_even_text(a, money)))
    if r.energy_kwh_per_year is not None:
        rows.append(
            (
                "Electricity per year",
                f"{money(r.electricity_usd_per_year)} ({r.energy_kwh_per_year:,.0f} kWh at "
                f"{a.settings.utilization:.0%} utilization, "
                f"{per_kwh_text(a.settings.electricity_usd_per_kwh, money)})",
            )
        )
    else:
        rows.append(("Electricity per year", "unknown (no PSU chosen)"))
    tco = money(r.tco_usd) if r.tco_usd is not None else "unknown (needs every part priced)"
    rows.append((f"Total cost of ownership, {r.years} years", tco))
    rows.append(
        (
            "Cloud break-even",
            cloud_text(r, money) or "n/a (no cloud rate for this GPU, or unpriced parts)",
        )
    )
    return rows
