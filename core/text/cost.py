"""Text for people about costs, prices, price updates and suggestions."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from core.models.build import Build
from core.models.cost import CostReport, PriceLine
from core.models.suggest import Reason, SkipCounts, Suggestion, SuggestResult
from core.prices.models import Rejection, UpdateResult
from core.text.money import USD, Money

ORIGIN_TEXT = {
    "catalog": "bundled catalog",
    "feed": "price feed",
    "override": "your override",
    "file": "the build file",
}

REJECTION_TEXT = {
    "unknown_part": "no catalog part has this id",
    "invalid_entry": "the entry is invalid",
    "unknown_currency": "the currency is not in the conversion table",
    "out_of_range": "the converted price is out of range",
}


def age_text(days: int) -> str:
    """ "9 days old", "8 months old", "4 years old"."""
    if days < 62:
        return f"{days} day{'s' if days != 1 else ''} old"
    if days < 730:
        return f"{days // 30.4:.0f} months old"
    return f"{days / 365.25:.0f} years old"


def stale_text(line: PriceLine) -> str:
    """ "stale: 4 years old" for a price observed more than a year ago, else ""."""
    if not line.stale or line.age_days is None:
        return ""
    return f"stale: {age_text(line.age_days)}"


def price_line_text(line: PriceLine, money: Money = USD) -> str:
    if line.unit_usd is None:
        return f"{line.quantity} × {line.name or line.part_id}: unknown price ({line.source})"
    stale = f", {stale_text(line)}" if line.stale else ""
    return (
        f"{line.quantity} × {line.name or line.part_id}: {money(line.line_usd)} "
        f"({line.kind}, {line.as_of}{stale}, {ORIGIN_TEXT[line.origin]}: {line.source})"
    )


def stale_parts_text(lines: Sequence[PriceLine]) -> str:
    """ "prices over a year old: RTX 4090 (msrp, 4 years old), …", or "" when none."""
    stale = [line for line in lines if line.stale and line.age_days is not None]
    if not stale:
        return ""
    named = ", ".join(
        f"{line.name or line.part_id} ({line.kind}, {age_text(line.age_days or 0)})"
        for line in stale
    )
    return f"prices over a year old: {named}"


def total_text(report: CostReport, money: Money = USD) -> str:
    """ "$3,897", or "unknown: H100 PCIe has no price" when a part is unpriced."""
    parts = report.parts
    if parts.total_usd is not None:
        return money(parts.total_usd)
    names = [line.name or line.part_id for line in report.lines if line.unit_usd is None]
    shown = ", ".join(dict.fromkeys(names))
    verb = "has" if len(set(names)) == 1 else "have"
    return f"unknown: {shown} {verb} no price"


def per_kwh_text(usd_per_kwh: float, money: Money = USD) -> str:
    """An electricity price in the user's currency: "$0.17/kWh", "€0.16/kWh"."""
    return f"{money(usd_per_kwh, 2)}/kWh"


def cloud_text(report: CostReport, money: Money = USD) -> str | None:
    """Renting the same GPUs against owning them, or ``None`` without a rate."""
    if report.cloud is None:
        return None
    cloud = report.cloud
    months = cloud.break_even_months
    return (
        f"renting {cloud.gpus} GPU(s) at {cloud.rate.provider} "
        f"({money(cloud.rate.usd_per_gpu_hour, 2)}/GPU-hour, {cloud.rate.as_of}): "
        f"{money(cloud.cloud_usd_per_year)}/year; "
        + (
            "renting stays cheaper"
            if months is None
            else f"owning breaks even after {months:.1f} months"
        )
    )


def order_rows(build: Build, report: CostReport, money: Money = USD) -> list[tuple[str, str]]:
    """Subtotal, tax, shipping and the order total, for a purchase sheet; a figure the
    build does not state reads "not stated", an unknown subtotal keeps the total unknown."""
    subtotal = report.parts.total_usd
    rows = [("Subtotal", total_text(report, money))]
    tax = None
    if build.tax_pct is None:
        rows.append(("Tax", "not stated"))
    elif subtotal is not None:
        tax = subtotal * build.tax_pct / 100.0
        rows.append((f"Tax ({build.tax_pct:g} %)", money(tax)))
    else:
        rows.append((f"Tax ({build.tax_pct:g} %)", "unknown (the subtotal is unknown)"))
    shipping = build.shipping_usd
    rows.append(("Shipping", "not stated" if shipping is None else money(shipping)))
    if subtotal is None:
        rows.append(("Order total", "unknown"))
    else:
        total = subtotal + (tax or 0.0) + (shipping or 0.0)
        stated = [w for w, v in (("tax", build.tax_pct), ("shipping", shipping)) if v is None]
        note = f" (without {' and '.join(stated)})" if stated else ""
        rows.append(("Order total", money(total) + note))
    return rows


def cost_lines(report: CostReport, money: Money = USD) -> list[str]:
    lines = [price_line_text(line, money) for line in report.lines]
    lines.append(f"Parts total: {total_text(report, money)}")
    if not report.parts.complete:
        lines.append(f"Priced parts so far: {money(report.parts.priced_usd)}")
    if report.per_throughput_usd is not None:
        lines.append(f"Cost per {report.throughput_unit}: {money(report.per_throughput_usd, 2)}")
    if report.throughput_per_watt is not None:
        lines.append(f"{report.throughput_unit} per wall watt: {report.throughput_per_watt:,.3f}")
    if report.electricity_usd_per_year is not None:
        lines.append(
            f"Electricity: {report.energy_kwh_per_year:,.0f} kWh/year, "
            f"{money(report.electricity_usd_per_year)}/year"
        )
    if report.tco_usd is not None:
        lines.append(f"Total cost of ownership over {report.years} years: {money(report.tco_usd)}")
    if (cloud := cloud_text(report, money)) is not None:
        lines.append(cloud[0].upper() + cloud[1:])
    return lines


def cost_json(report: CostReport, money: Money = USD) -> dict[str, object]:
    """The cost of one build for ``--json`` output: USD figures, ``None`` where unknown."""
    data: dict[str, object] = {
        "total_usd": report.parts.total_usd,
        "priced_usd": report.parts.priced_usd,
        "unpriced_parts": list(report.parts.unpriced_part_ids),
        "per_throughput_usd": report.per_throughput_usd,
        "throughput_unit": report.throughput_unit,
        "electricity_usd_per_year": report.electricity_usd_per_year,
        "tco_usd": report.tco_usd,
        "years": report.years,
        "lines": [line.model_dump(mode="json") for line in report.lines],
    }
    if money.currency != "USD":
        data["currency"] = money.currency
        data["total"] = (
            None if report.parts.total_usd is None else money.amount(report.parts.total_usd)
        )
        data["rate_note"] = money.note()
    return data


def rejection_text(rejection: Rejection) -> str:
    detail = f" ({rejection.detail})" if rejection.detail else ""
    return f"{rejection.part_id}: {REJECTION_TEXT[rejection.code]}{detail}"


REJECTIONS_LISTED = 5
"""Refused entries listed by name; the rest are counted (a feed may refuse thousands)."""


def rejection_lines(rejections: Sequence[Rejection], prefix: str) -> list[str]:
    """One line per refused entry for the first ``REJECTIONS_LISTED``, then a count."""
    lines = [f"{prefix}{rejection_text(r)}" for r in rejections[:REJECTIONS_LISTED]]
    rest = len(rejections) - REJECTIONS_LISTED
    if rest > 0:
        lines.append(f"{prefix}… and {rest:,} more (rigforge prices show --json lists them all)")
    return lines


def update_text(result: UpdateResult) -> list[str]:
    """What a price update did, then each refused entry."""
    kept = f"the previous {len(result.prices)} price(s) are kept"
    head = {
        "updated": f"Prices updated from {result.url}: {len(result.prices)} price(s).",
        "partial": f"Prices partly updated from {result.url}.",
        "not_modified": f"The price feed has not changed; {kept}.",
        "failed": f"Price update failed: {result.error}; {kept}.",
    }[result.status]
    lines = [head]
    if result.report is not None:
        report = result.report
        lines.append(f"{len(report.accepted):,} of {report.total:,} entries accepted.")
        lines += rejection_lines(report.rejected, "  refused ")
    return lines


def reason_text(reason: Reason) -> str:
    n = reason.numbers
    if reason.code == "best_cost_per_throughput":
        text = f"lowest cost per {n['unit']}: ${float(n['usd_per_unit']):,.2f}"
        if "margin_pct" in n:
            text += f", {float(n['margin_pct']):.0f} % below the next best"
        return text
    if reason.code == "most_throughput_in_budget":
        return f"most throughput within {USD(float(n['budget_usd']))}"
    if reason.code == "cheapest":
        return "cheapest build that meets every constraint"
    if reason.code == "pareto_step":
        return (
            f"{float(n['gain_pct']):.0f} % more throughput than the next cheaper build "
            f"listed, for {USD(float(n['extra_usd']))} more; no cheaper build is faster"
        )
    if reason.code == "fits_with_checkpointing":
        return f"fits in GPU memory with {n['checkpointing']} activation checkpointing"
    if reason.code == "used_parts":
        return f"bought used: {n['parts']} (dated used-listing price)"
    if reason.code == "stale_prices":
        return f"ranked on prices over a year old: {n['parts']}; check today's price first"
    if reason.code == "binding_constraint" and n.get("constraint") == "host_stage":
        stage = HOST_STAGE_TEXT.get(str(n["stage"]), str(n["stage"]))
        return f"limited by {stage}: the GPUs wait {float(n['wait_pct']):.0f} % of each step"
    if reason.code in ("binding_constraint", "no_constraint_binds"):
        limit = BINDING_TEXT.get(str(n["constraint"]), str(n["constraint"])).format(**n)
        verb = "limited by" if reason.code == "binding_constraint" else "closest limit:"
        return f"{verb} {limit} ({float(n['used_pct']):.0f} % used)"
    return reason.code


HOST_STAGE_TEXT = {
    "data_loading": "the CPU's data loading",
    "storage_read": "reading the dataset from the drives",
    "host_to_device": "copies from host memory to the GPUs",
}

BINDING_TEXT = {
    "budget": "the budget",
    "wall_power": "the circuit's {limit_w:,.0f} W",
    "vram": "GPU memory",
    "board_slots": "the board's GPU slots ({slots:.0f})",
    "max_gpus": "the GPU count cap ({max_gpus:.0f})",
}


def system_pick_lines(result: SuggestResult) -> list[str]:
    """The prebuilt systems that meet a serving request, one line each, fastest first; or
    those whose GPU holds a fine-tuning (its speed not estimated), cheapest first."""
    if not result.systems:
        return []
    if result.systems[0].aggregate_tokens_s is None:
        lines = [
            "Prebuilt systems whose GPU holds this fine-tuning (speed on them not estimated: "
            "no published run to check it against):"
        ]
        for pick in result.systems:
            stale = ", over a year old" if pick.price_stale else ""
            lines.append(
                f"  {USD(pick.price_usd)} ({pick.price_as_of}{stale})  {pick.name}: needs "
                f"{pick.memory_gib or 0:.1f} of the {pick.gpu_gib or 0:g} GiB its GPU can be given"
            )
        return lines
    lines = ["Prebuilt systems that meet the request:"]
    for pick in result.systems:
        stale = ", over a year old" if pick.price_stale else ""
        lines.append(
            f"  {USD(pick.price_usd)} ({pick.price_as_of}{stale})  "
            f"{pick.aggregate_tokens_s or 0:,.1f} generated tokens/s  {pick.name}: "
            f"{pick.decode_tokens_s or 0:.1f} tokens/s per stream, first token in "
            f"{pick.ttft_s or 0:.1f} s"
        )
    return lines


def plan_words(s: Suggestion) -> str:
    """How a suggested serving build runs its model, where that is not obvious: the split
    over its GPUs, an 8-bit KV cache and the experts kept in host RAM ("" for anything
    else)."""
    w = s.workload
    if w is None or not w.is_serving:
        return ""
    serving = w.serving_settings
    words = []
    if s.build.gpu_count > 1:
        words.append(f"{serving.split} split")
    if serving.kv_cache != "f16":
        words.append(f"{serving.kv_cache} KV cache")
    if serving.n_cpu_moe:
        words.append(f"experts of {serving.n_cpu_moe} layers in host RAM")
    return ", ".join(words)


def skip_text(skipped: SkipCounts) -> str:
    return (
        f"skipped: {skipped.unpriced:,} with an unpriced part, {skipped.over_budget:,} over "
        f"budget, {skipped.vram:,} not fitting VRAM, {skipped.precision:,} without the "
        f"workload's number format, {skipped.power:,} over PSU or circuit power (with margin), "
        f"{skipped.unknown_fit:,} with a physical fact no source gives, {skipped.cooling:,} "
        f"packing open-air cards, {skipped.impossible:,} impossible, "
        f"{skipped.failed_checks:,} failing a check"
    )


def suggest_lines(
    result: SuggestResult,
    names: Mapping[str, str] | None = None,
    where: str = "'rigforge prices set' or a price feed",
) -> list[str]:
    """The search's report; ``names`` shows parts by name (the window) rather than by id
    (the CLI, whose commands take ids), ``where`` says how to price one."""
    lines = [
        f"Searched {result.considered:,} configurations, evaluated {result.evaluated:,}; "
        + skip_text(result.skipped)
    ]
    if result.unpriced_part_ids:
        shown = [(names or {}).get(i, i) for i in result.unpriced_part_ids]
        lines.append(
            f"{len(result.unpriced_part_ids)} parts have no price (set one with {where}): "
            + ", ".join(shown)
        )
    if result.unknown_fit_part_ids:
        shown = [(names or {}).get(i, i) for i in result.unknown_fit_part_ids]
        lines.append(
            f"{len(shown)} parts left out: no source gives their cooler, length or width, "
            "bounds their power spikes or gives the tensor rate of the workload's number "
            "format (GPUs), or their slot positions (boards, for more than one GPU): "
            + ", ".join(shown)
        )
    if result.cancelled:
        lines.append("The search was cancelled.")
    if not result.front:
        lines.append("No fully priced build meets the budget and constraints.")
        miss = result.fastest_too_slow
        if miss is not None:
            lines.append(
                f"Fastest within budget: {float(miss['count']):.0f}× {miss['gpu']} at "
                f"{float(miss['decode_tokens_s']):.1f} tokens/s per stream, first token in "
                f"{float(miss['ttft_s']):.1f} s: too slow for the request (a bigger budget, "
                "fewer streams, a shorter context, another engine or used GPUs)"
            )
        sk = result.skipped
        others = (sk.unpriced, sk.over_budget, sk.power, sk.impossible, sk.failed_checks)
        if sk.vram and sk.vram >= max(others):
            lines.append(
                "Most configurations run out of GPU memory: a shorter sequence length, a "
                "smaller batch, QLoRA, a stack with chunked loss (unsloth) or a smaller "
                "weights format needs less."
            )
    picks = system_pick_lines(result)
    lines += [*picks, "Builds:"] if picks and result.front else picks
    for s in result.front:
        b = s.build
        star = "*" if result.best is not None and s.build == result.best.build else " "
        used = " (used)" if b.is_used(b.gpu) else ""
        drives = ", ".join(f"{d.count}× {d.drive.name}" for d in b.drives)
        plan = plan_words(s)
        runs = f" ({plan})" if plan else ""
        lines.append(
            f"{star} {USD(s.cost_usd)}  {s.throughput:,.1f} {s.unit}  "
            f"${s.usd_per_unit:,.2f}/{s.unit}  {s.wall_w:,.0f} W  "
            f"{b.gpu_count}× {b.gpu.name}{used}{runs}, {b.cpu.name}, {b.motherboard.name}, "
            f"{b.memory_kits}× {b.memory.name}, {b.psu_count}× {b.psu.name if b.psu else '-'}, "
            f"{b.case.name if b.case else 'no case'}, {drives}"
        )
        lines += [f"      {reason_text(r)}" for r in s.reasons]
    return lines
