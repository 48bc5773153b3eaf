"""The sheet's HTML: header, comparison page, one section per build, assumptions."""

from __future__ import annotations

import re
from collections.abc import Sequence

from core.models.parts import Part
from core.text.checks import SEVERITY_LABELS
from core.text.compare import headline, per_unit_text
from core.text.cost import per_kwh_text, total_text
from core.text.inference import rate
from core.text.money import Money
from core.text.sources import References, numbers_text
from core.text.summary import Figure, summary_figures
from core.text.systems import SYSTEM_COLUMNS
from core.text.verdict import build_verdict
from gui.pdf.charts import cost_chart_height
from gui.pdf.html_parts import Cell, esc, heading, image, key_values, para, table
from gui.pdf.model import BuildSheet, SheetBuild
from gui.pdf.sections import CHART_WIDTH, build_section, part_identity


def header_html(sheet: BuildSheet) -> str:
    first = sheet.builds[0].analysis
    settings = first.settings
    w = first.workload
    kind = f"comparison of {len(sheet.builds)} builds" if sheet.is_comparison else "build sheet"
    if sheet.systems:
        kind += f" and {len(sheet.systems)} prebuilt system(s)"
    pairs = []
    if sheet.author:
        pairs.append(("Prepared by", sheet.author))
    pairs += [
        ("Date", sheet.created.isoformat()),
        ("Workload", f"{w.name} (from {sheet.workload_origin})" if w else "none"),
        (
            "Settings",
            f"{settings.circuit} circuit, "
            f"{per_kwh_text(settings.electricity_usd_per_kwh, sheet.money)}, "
            f"{settings.utilization:.0%} utilization",
        ),
        ("App version", f"RigForge {sheet.app_version}"),
        ("Catalog snapshot", sheet.catalog_date or "unknown"),
        (
            "Prices dated",
            f"{sheet.prices_oldest or 'unknown'} to {sheet.catalog_date or 'unknown'} "
            "(each part's price date is in its parts table)",
        ),
        ("Cloud rates as of", sheet.cloud_rates_date or "unknown"),
    ]
    html = f"<h1>{esc(sheet.heading)}</h1>" + para(f"RigForge {kind}", "muted")
    if sheet.notes:
        html += para(sheet.notes)
    for b in sheet.builds:
        verdict = build_verdict(b.analysis)
        total = total_text(b.analysis.cost, sheet.money)
        dated = sheet.catalog_date or sheet.created.isoformat()
        name = f"{b.name}: " if sheet.is_comparison else ""
        html += (
            f"<p><b>{esc(name)}</b><span class='{verdict.severity}'>&nbsp;"
            f"{esc(verdict.headline)}&nbsp;</span> &nbsp; parts total "
            f"<b>{esc(total)}</b> (prices as of {esc(dated)})</p>"
        )
        if verdict.first:
            html += para(verdict.first)
    return html + key_values(pairs) + approval_html()


def approval_html() -> str:
    """Blank lines a purchasing office fills in by hand."""
    line = "_" * 28
    rows: list[list[Cell]] = [
        ["Requested by", line, "Date", "_" * 14],
        ["Approved by", line, "Date", "_" * 14],
        ["Cost centre", line, "Order number", "_" * 14],
    ]
    return heading(3, "Approval") + table(
        ("", "Name / signature", "", ""), rows, widths=("18%", "42%", "16%", "24%")
    )


def _comparison_row(label: str, values: list[str]) -> list[Cell]:
    return [label, *values]


def comparison_html(sheet: BuildSheet, has_chart: bool) -> str:
    money = sheet.money
    builds = sheet.builds

    def each(fn: object) -> list[str]:
        return [fn(b) for b in builds]  # type: ignore[operator]

    serving = builds[0].analysis.inference is not None
    unit = builds[0].analysis.cost.throughput_unit or ""

    def figures(b: SheetBuild) -> dict[str, Figure]:
        return {f.key: f for f in summary_figures(b.analysis, money)}

    def figure(key: str) -> list[Cell]:
        """One summary figure per build, titled as the first build's (the workload is
        the comparison's: serving replaces throughput and time with its own)."""
        return _comparison_row(figures(builds[0])[key].title, each(lambda b: figures(b)[key].value))

    def throughput(b: SheetBuild) -> str:
        value = headline(b.analysis)
        return "n/a" if value is None else f"{rate(value)} {unit}"

    def per_unit(b: SheetBuild) -> str:
        return per_unit_text(b.analysis, money)

    def wall(b: SheetBuild) -> str:
        return "unknown" if b.power.wall_w is None else f"{b.power.wall_w:,.0f} W"

    def tco(b: SheetBuild) -> str:
        return money(b.cost.tco_usd) if b.cost.tco_usd is not None else "unknown"

    def breakeven(b: SheetBuild) -> str:
        c = b.cost.cloud
        if c is None:
            return "n/a"
        months = c.break_even_months
        return "never" if months is None else f"{months:.1f} months"

    rows = [
        _comparison_row(
            "GPUs", each(lambda b: f"{b.analysis.build.gpu_count} × {b.analysis.build.gpu.name}")
        ),
        _comparison_row("Verdict", each(lambda b: SEVERITY_LABELS[b.analysis.verdict])),
        _comparison_row("Parts total", each(lambda b: _short_total(b, money))),
        _comparison_row(f"Throughput ({unit})" if unit else "Throughput", each(throughput)),
        _comparison_row(f"Cost per {unit}" if unit else "Cost per throughput", each(per_unit)),
        figure("vram"),
        *([figure("throughput")] if serving else []),
        figure("time"),
        _comparison_row("Wall power", each(wall)),
        _comparison_row(
            "Electricity per year", each(lambda b: money(b.cost.electricity_usd_per_year))
        ),
        _comparison_row(f"TCO, {builds[0].cost.years} years", each(tco)),
        _comparison_row("Cloud break-even", each(breakeven)),
    ]
    best = best_value(builds)
    names = [
        b.name + (" (baseline)" if i == 0 else "") + (" \u2605 best value" if b is best else "")
        for i, b in enumerate(builds)
    ]
    share = f"{72 // len(builds)}%"
    verdict = (
        f"Best value: {best.name}, {per_unit_text(best.analysis, money)} (the lowest cost "
        "per unit of throughput among the builds that work)."
        if best is not None
        else "No build both works and has a known cost per unit of throughput: none is "
        "marked as the best value."
    )
    html = (
        heading(2, "Comparison")
        + para(verdict)
        + table(
            ("", *names),
            rows,
            numeric=tuple(range(1, len(builds) + 1)),
            widths=("28%", *([share] * len(builds))),
        )
    )
    if has_chart:
        bars = sum(b.analysis.cost.per_throughput_usd is not None for b in builds)
        html += image("comparison-cost", CHART_WIDTH, cost_chart_height(bars))
    return html


def best_value(builds: Sequence[SheetBuild]) -> SheetBuild | None:
    """The build with the lowest cost per unit of throughput among those that work (no
    failed check) and have one; ``None`` when none does."""
    known = [
        b
        for b in builds
        if b.analysis.verdict != "fail" and b.analysis.cost.per_throughput_usd is not None
    ]
    return min(known, key=lambda b: b.analysis.cost.per_throughput_usd or 0.0, default=None)


def assumptions_html(sheet: BuildSheet, refs: References) -> str:
    settings = sheet.builds[0].analysis.settings
    circuit = settings.circuit_spec
    years = sheet.builds[0].cost.years
    items = [
        "Prices: the bundled dated snapshot, a price feed or your overrides; each line gives "
        "its kind (MSRP, street) and date. Taxes, shipping and discounts are not included. "
        "Parts without a price are shown as \u201cunknown\u201d, never guessed; the total "
        "and cost per throughput are then unknown too, with the priced parts\u2019 sum "
        "shown as \u201cknown so far\u201d.",
        "Throughput: roofline step time per GPU (FLOPs / peak tensor rate, bytes / memory "
        "bandwidth) fitted to published MLPerf and NVIDIA DeepLearningExamples results; "
        "multi-GPU scaling adds the GPU-to-GPU exchange not hidden by compute (gradients; "
        "under ZeRO-3/FSDP also the sharded weights, LoRA\u2019s frozen base included).",
        "Memory: model states after ZeRO (Rajbhandari et al. 2020), activations after "
        "Korthikanti et al. 2022, KV cache per Hugging Face / vLLM.",
        "Power: GPUs at their power limit or board power, CPU at its sustained power, other "
        "parts at stated assumptions; GPU spikes from transient measurements; wall power "
        "through the PSU's 80 PLUS efficiency curve.",
        f"Circuit {circuit.id}: {circuit.volts:g} V × {circuit.amps:g} A × "
        f"{circuit.continuous_fraction:.0%} continuous. {circuit.source}.",
        f"Energy per year = wall power × {settings.utilization:.0%} utilization × 8,760 h; "
        f"electricity at {per_kwh_text(settings.electricity_usd_per_kwh, sheet.money)}.",
        f"TCO = parts + {years} years of electricity (no resale value, repairs, space or "
        "admin time).",
        f"Cloud: the cheapest bundled on-demand rate per GPU-hour for the same GPU (rates as "
        f"of {sheet.cloud_rates_date}), paid only for the hours used.",
    ]
    # no page of its own: it follows the last build (a heading never ends a page)
    html = heading(2, "Assumptions and data sources")
    html += "<ul>" + "".join(f"<li>{esc(i)}</li>" for i in items) + "</ul>"
    return html + sources_html(sheet, refs)


def condensed(text: str, limit: int = 150) -> str:
    """A source in one short line: its first address, or its first words."""
    address = re.search(r"https?://\S+", text)
    if address is not None:
        return address.group(0).rstrip(").,;'\"")
    return text if len(text) <= limit else text[: limit - 1].rsplit(" ", 1)[0] + "\u2026"


def sources_html(sheet: BuildSheet, refs: References) -> str:
    """Each part with what its sources are, then the numbered list of those sources."""
    prices: dict[str, list[int]] = {}
    parts: dict[str, Part] = {}
    for b in sheet.builds:  # a part may be new in one build and used in another
        for _q, part in b.analysis.build.bill_of_materials():
            parts.setdefault(part.id, part)
            cited = prices.setdefault(part.id, [])
            for line in b.cost.lines:
                if line.part_id == part.id and line.unit_usd is not None:
                    cited.append(refs.cite(line.source))
    rows: list[list[Cell]] = []
    for part_id, part in parts.items():
        if sheet.is_comparison:
            break  # a comparison cites its prices only: the specs' sources are per build
        cited_prices = prices[part_id]
        words = [f"price {numbers_text(cited_prices)}" if cited_prices else "price: none found"]
        specs = [refs.cite(s) for s in part.sources]
        words.append(f"specs {numbers_text(specs)}" if specs else "specs: none listed")
        rows.append([part.name + "\n" + part_identity(part), "; ".join(words)])
    html = ""
    if not sheet.is_comparison:  # a comparison lists the sources once, condensed
        html += heading(3, "Parts and their sources")
        html += table(("Part", "Sources"), rows, widths=("45%", "55%"))
    html += heading(3, "Sources")
    html += para(
        "Each source as it was read, led by its publisher; long entries are shortened "
        "here and kept whole in the app's catalog.",
        "muted",
    )
    items = "".join(
        f"<tr><td width='7%' valign='top'>[{r.number}]</td><td><b>{esc(r.publisher)}</b>. "
        f"<span class='muted'>{esc(r.text)}"
        "</span></td></tr>"
        for r in refs.items
    )
    return html + f"<table width='100%' cellspacing='0' cellpadding='2'>{items}</table>"


def sheet_html(sheet: BuildSheet, charts: dict[str, set[str]], has_cost_chart: bool) -> str:
    """``charts[key]`` names the chart images rendered for the build with that key."""
    refs = References(condense=condensed if sheet.is_comparison else None)
    parts = [header_html(sheet)]
    if sheet.is_comparison:
        parts.append(comparison_html(sheet, has_cost_chart))
    for index, build in enumerate(sheet.builds):
        key = build_key(index)
        parts.append(build_section(sheet, build, key, charts.get(key, set()), refs))
    if sheet.systems:
        parts.append(systems_html(sheet, refs))
    parts.append(assumptions_html(sheet, refs))
    return "<html><body>" + "".join(parts) + "</body></html>"


def systems_html(sheet: BuildSheet, refs: References) -> str:
    """Prebuilt systems beside the builds: each on one line with its configuration and the
    numbers of its sources in the sheet's one list."""
    html = heading(2, "Prebuilt systems")
    html += para(
        "Serving the same workload on prebuilt unified-memory systems (llama.cpp on the "
        "system's own GPU software). Price and figures as for the builds; each row's sources "
        "are numbered in the list at the end."
    )
    columns = list(SYSTEM_COLUMNS)
    rows = [list(r) for r in sheet.systems]
    # narrow columns: units in the header, a price's kind and date and the memory
    # figures as a note under the value
    for label in ("Generation", "Prompt"):
        at = columns.index(label)
        columns[at] = f"{label}, tokens/s"
        for r in rows:
            r[at] = r[at].removesuffix(" tokens/s")
    for label in ("Price", "Fits"):
        at = columns.index(label)
        for r in rows:
            r[at] = r[at].replace(" (", "\n", 1).removesuffix(")") if "(" in r[at] else r[at]
    note = columns.index("Note")
    if not any(r[note] for r in rows):  # no system needs a note: no empty column
        columns.pop(note)
        for r in rows:
            r.pop(note)
    columns.append("Sources")
    for r, sources in zip(rows, sheet.system_sources, strict=True):
        r.append(numbers_text([refs.cite(s) for s in sources]) if sources else "")
    share = {"System": 14, "Verdict": 8, "Price": 9, "Fits": 10, "Users": 6, "Note": 14}
    share |= {"Generation, tokens/s": 11, "Prompt, tokens/s": 9, "Wall": 8}
    widths = [share.get(c, 8) for c in columns]
    scale = 100 / sum(widths)
    html += table(columns, rows, widths=[f"{w * scale:.0f}%" for w in widths], small=True)
    return html


def build_key(index: int) -> str:
    return f"build{index}"


def _short_total(b: SheetBuild, money: Money) -> str:
    """The total in a comparison's narrow column: the sum, or how many parts lack one."""
    parts = b.analysis.cost.parts
    if parts.total_usd is not None:
        return money(parts.total_usd)
    n = len(parts.unpriced_part_ids)
    return f"unknown: {n} part{'s' if n != 1 else ''} unpriced"
