"""Text for people about costs, prices, price updates and suggestions."""

from __future__ import annotations

from core.models.cost import CostReport, PriceLine
from core.models.suggest import Reason, SkipCounts, SuggestResult
from core.prices.models import Rejection, UpdateResult
from core.text.parts import fmt_usd

ORIGIN_TEXT = {"catalog": "bundled catalog", "feed": "price feed", "override": "your override"}

REJECTION_TEXT = {
    "unknown_part": "no catalog part has this id",
    "invalid_entry": "the entry is invalid",
    "unknown_currency": "the currency is not in the conversion table",
    "out_of_range": "the converted price is out of range",
}


def price_line_text(line: PriceLine) -> str:
    if line.unit_usd is None:
        return f"{line.quantity} × {line.part_id}: unpriced ({line.source})"
    return (
        f"{line.quantity} × {line.part_id}: {fmt_usd(line.line_usd)} "
        f"({line.kind}, {line.as_of}, {ORIGIN_TEXT[line.origin]}: {line.source})"
    )


def cost_lines(report: CostReport) -> list[str]:
    lines = [price_line_text(line) for line in report.lines]
    total = f"Parts total: {fmt_usd(report.parts.total_usd)}"
    if not report.parts.complete:
        total += f" for priced parts; unpriced: {', '.join(report.parts.unpriced_part_ids)}"
    lines.append(total)
    if report.usd_per_unit_throughput is not None:
        lines.append(f"Cost per {report.throughput_unit}: ${report.usd_per_unit_throughput:,.2f}")
    if report.throughput_per_watt is not None:
        lines.append(f"{report.throughput_unit} per wall watt: {report.throughput_per_watt:,.3f}")
    if report.electricity_usd_per_year is not None:
        lines.append(
            f"Electricity: {report.energy_kwh_per_year:,.0f} kWh/year, "
            f"{fmt_usd(report.electricity_usd_per_year)}/year"
        )
    if report.tco_usd is not None:
        tco = fmt_usd(report.tco_usd)
        lines.append(f"Total cost of ownership over {report.years} years: {tco}")
    if report.cloud is not None:
        cloud = report.cloud
        months = cloud.break_even_months
        lines.append(
            f"Renting {cloud.gpus} GPU(s) at {cloud.rate.provider} "
            f"(${cloud.rate.usd_per_gpu_hour:.2f}/GPU-hour, {cloud.rate.as_of}): "
            f"{fmt_usd(cloud.cloud_usd_per_year)}/year; "
            + (
                "renting stays cheaper"
                if months is None
                else f"owning breaks even after {months:.1f} months"
            )
        )
    return lines


def rejection_text(rejection: Rejection) -> str:
    detail = f" ({rejection.detail})" if rejection.detail else ""
    return f"{rejection.part_id}: {REJECTION_TEXT[rejection.code]}{detail}"


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
        lines.append(f"{len(report.accepted)} of {report.total} entries accepted.")
        lines += [f"  refused {rejection_text(r)}" for r in report.rejected]
    return lines


def reason_text(reason: Reason) -> str:
    n = reason.numbers
    if reason.code == "best_cost_per_throughput":
        text = f"lowest cost per {n['unit']}: ${float(n['usd_per_unit']):,.2f}"
        if "margin_pct" in n:
            text += f", {float(n['margin_pct']):.0f} % below the next best"
        return text
    if reason.code == "most_throughput_in_budget":
        return f"most throughput within {fmt_usd(float(n['budget_usd']))}"
    if reason.code == "cheapest":
        return "cheapest build that meets every constraint"
    if reason.code == "pareto_step":
        return (
            f"{float(n['gain_pct']):.0f} % more throughput than the next cheaper build "
            f"for {fmt_usd(float(n['extra_usd']))} more; no cheaper build is faster"
        )
    return reason.code


def skip_text(skipped: SkipCounts) -> str:
    return (
        f"skipped: {skipped.unpriced:,} with an unpriced part, {skipped.over_budget:,} over "
        f"budget, {skipped.vram:,} not fitting VRAM, {skipped.power:,} over PSU or circuit "
        f"power, {skipped.impossible:,} impossible, {skipped.failed_checks:,} failing a check"
    )


def suggest_lines(result: SuggestResult) -> list[str]:
    lines = [
        f"Searched {result.considered:,} configurations, evaluated {result.evaluated:,}; "
        + skip_text(result.skipped)
    ]
    if result.unpriced_part_ids:
        lines.append(
            f"{len(result.unpriced_part_ids)} parts have no price (set one with "
            "'rigforge prices set' or a price feed): " + ", ".join(result.unpriced_part_ids)
        )
    if result.cancelled:
        lines.append("The search was cancelled.")
    if not result.front:
        lines.append("No fully priced build meets the budget and constraints.")
    for s in result.front:
        b = s.build
        star = "*" if result.best is not None and s.build == result.best.build else " "
        lines.append(
            f"{star} {fmt_usd(s.cost_usd)}  {s.throughput:,.1f} {s.unit}  "
            f"${s.usd_per_unit:,.2f}/{s.unit}  {s.wall_w:,.0f} W  {b.gpu_count}× {b.gpu.name}, "
            f"{b.cpu.name}, {b.motherboard.name}, {b.memory_kits}× {b.memory.name}, "
            f"{b.psu_count}× {b.psu.name if b.psu else '-'}"
        )
        lines += [f"      {reason_text(r)}" for r in s.reasons]
    return lines
