"""HTML of one build's section: summary, parts, workload, checks, performance, memory,
power and cost. Every figure is formatted by ``core.text`` or as the window formats it."""

from __future__ import annotations

from core.fields import workload_rows
from core.models.parts import Part
from core.models.workload import Workload
from core.text.checks import SEVERITY_LABELS, check_title, render_reason
from core.text.cost import order_rows, stale_text, total_text
from core.text.fixes import fix_text
from core.text.inference import BOTTLENECK_TEXT, rate, seconds
from core.text.parts import UNKNOWN
from core.text.power import basis_text
from core.text.sources import References, numbers_text
from core.text.summary import (
    cost_rows,
    duration_text,
    summary_figures,
    time_figure,
)
from core.text.throughput import (
    STEP_PARTS,
    bottleneck_text,
    link_text,
    precision_text,
    step_scope_text,
)
from core.text.verdict import build_verdict
from core.text.vram import VRAM_PARTS
from gui.pdf.html_parts import Cell, esc, heading, image, key_values, para, table
from gui.pdf.model import BuildSheet, SheetBuild

CHART_WIDTH = 620
COMPONENT_NAMES = {
    "gpu": "GPUs",
    "cpu": "CPU",
    "memory": "Memory",
    "drives": "Drives",
    "motherboard": "Motherboard",
    "fans": "Fans",
}


def _w(value: float | None) -> str:
    return UNKNOWN if value is None else f"{value:,.0f} W"


def summary_html(sheet: BuildSheet, b: SheetBuild) -> str:
    figures = summary_figures(b.analysis, sheet.money)
    paper_total = total_text(b.analysis.cost, sheet.money)  # the window adds "enter one"
    rows: list[list[Cell]] = [
        [
            f.title,
            (
                paper_total if f.key == "cost" else f.value,
                f.severity if f.severity in ("pass", "warn", "fail") else "",
            ),
            f.detail,
        ]
        for f in figures
    ]
    verdict = build_verdict(b.analysis)
    style = {"pass": "pass", "changes": "warn", "fail": "fail"}[b.analysis.verdict]
    return (
        f"<p>Overall verdict: <span class='{style}'>&nbsp;{esc(verdict.headline)}&nbsp;"
        f"</span></p>" + table(("Figure", "Value", "Detail"), rows, widths=("24%", "28%", "48%"))
    )


def part_identity(part: Part) -> str:
    """Maker and part number, as a purchase order names the part."""
    maker = part.maker or "maker not listed"
    number = f"MPN {part.part_number}" if part.part_number else "no maker part number found"
    return f"{maker} \u00b7 {number}"


def parts_html(sheet: BuildSheet, b: SheetBuild, refs: References) -> str:
    """The purchase lines: part with its maker and part number, quantity, unit price with
    its kind, date and age, vendor and quote reference, line total; then the subtotal,
    tax, shipping and order total."""
    money = sheet.money
    build = b.analysis.build
    rows: list[list[Cell]] = []
    parts = {part.id: part for _q, part in build.bill_of_materials()}
    for line in b.cost.lines:
        part = parts[line.part_id]
        if line.unit_usd is not None:
            stale = f", {stale_text(line)}" if line.stale else ""
            cite = numbers_text([refs.cite(line.source)])
            used = " (used)" if line.condition == "used" and line.kind != "used" else ""
            basis = f"{line.kind}{used}, {line.as_of}{stale} {cite}"
        else:
            basis = "no source"
        quote = build.quote(line.part_id)
        where = "\n".join(x for x in (quote.vendor, quote.reference) if x) if quote else ""
        rows.append(
            [
                str(line.quantity),
                line.name + (" (custom)" if part.custom else "") + "\n" + part_identity(part),
                money(line.unit_usd),
                basis,
                where,
                money(line.line_usd),
            ]
        )
    html = table(
        ("Qty", "Part", "Unit price", "Price basis", "Vendor, quote", "Line total"),
        rows,
        numeric=(0, 2, 5),
        widths=("5%", "37%", "11%", "20%", "15%", "12%"),
    )
    html += key_values(order_rows(build, b.analysis.cost, money))
    cost = b.cost.parts
    if not cost.complete:
        html += para(
            "A part without a source for its price is shown as \u201cunknown\u201d; the total "
            f"is then unknown (never counted as zero). Priced parts so far: "
            f"{money(cost.priced_usd)}.",
            "muted",
        )
    if any(line.stale for line in b.cost.lines):
        html += para(
            "A price marked stale was observed more than a year ago: check today's price "
            "before ordering.",
            "muted",
        )
    return html


def _count(value: float | None) -> str:
    if value is None:
        return UNKNOWN
    for scale, suffix in ((1e9, " B"), (1e6, " M"), (1e3, " k")):
        if value >= scale:
            return f"{value / scale:,.1f}{suffix}"
    return f"{value:,.0f}"


def workload_html(sheet: BuildSheet, w: Workload | None) -> str:
    """The workload and every setting that applies to it (``core.fields``), in the
    editor's words and order."""
    if w is None:
        return para("No workload: memory, throughput and cost per throughput are not estimated.")
    a = w.architecture
    active = a.params_active or a.params_total
    model = f"{a.kind}, {_count(a.params_total)} parameters" + (
        f", {_count(active)} active per token" if active != a.params_total else ""
    )
    pairs = [("Workload", f"{w.name} (from {sheet.workload_origin})"), ("Model", model)]
    if w.is_serving:
        pairs.append(("Task", "inference (LLM serving)"))
    return key_values(
        pairs + [row for row in workload_rows(w) if not (w.is_serving and row[0] == "Task")]
    )


def checks_html(b: SheetBuild, problems_only: bool = False) -> str:
    """Every check, or (``problems_only``, a comparison's build) those that do not pass
    with a line counting the ones that do."""
    rows: list[list[Cell]] = []
    shown = [c for c in b.analysis.checks if not problems_only or c.severity != "pass"]
    passing = len(b.analysis.checks) - len(shown)
    if problems_only and not shown:
        return para(f"All {passing} checks pass.")
    for check in shown:
        rows.append(
            [
                (SEVERITY_LABELS[check.severity], check.severity),
                check_title(check.id),
                render_reason(check),
                fix_text(check.fix) if check.fix is not None else "",
            ]
        )
    html = table(("Severity", "Check", "Finding", "Fix"), rows, widths=("12%", "31%", "34%", "23%"))
    if problems_only and passing:
        html += para(f"The other {passing} checks pass.", "muted")
    return html


def serving_performance_html(b: SheetBuild, key: str, charts: set[str]) -> str:
    """Prompt processing, time to first token, generation and users served (LLM serving),
    with the window's charts of generation against context and streams where drawn."""
    inf = b.analysis.inference
    assert inf is not None
    speed, memory = inf.speed, inf.memory
    pairs = [
        ("Prompt processing", f"{rate(speed.prefill_tokens_s)} tokens/s"),
        ("Time to first token", seconds(speed.ttft_s)),
        ("Generation per stream", f"{rate(speed.decode_tokens_s_per_stream)} tokens/s"),
        (
            "Generation, all streams",
            f"{rate(speed.aggregate_decode_tokens_s)} tokens/s for {speed.streams} stream(s)",
        ),
        ("Users served at this context", str(memory.max_streams)),
        ("Bottleneck", BOTTLENECK_TEXT[speed.bottleneck]),
    ]
    if speed.speculative_speedup is not None:
        pairs.append(("Speculative decoding", f"×{speed.speculative_speedup:.2f} over plain"))
    if inf.engine_basis:
        pairs.append(("Engine constants", inf.engine_basis))
    workload = b.analysis.workload
    if workload is not None:
        from core.validation.bands import band_text, serving_bands

        bands = serving_bands(workload, b.analysis.build.gpu_count)
        pairs.append(("Expected error, generation", band_text(bands["decode_tokens_s_per_stream"])))
        pairs.append(("Expected error, first token", band_text(bands["ttft_s"])))
    if inf.launch_command:
        pairs.append(("Launch command", inf.launch_command))
    html = key_values(pairs)
    for chart, title, points, unit, value in (
        (
            "context",
            "Generation against context length",
            speed.by_context,
            "Context tokens",
            "tokens/s per stream",
        ),
        (
            "streams",
            "Generation against streams",
            speed.by_streams,
            "Streams",
            "tokens/s, all streams",
        ),
    ):
        if not points:
            continue
        html += heading(3, title)
        if chart in charts:
            html += image(f"{key}-{chart}", CHART_WIDTH, 220)
        html += table(
            (unit, value),
            [[f"{p.x:,.0f}", rate(p.tokens_s)] for p in points],
            numeric=(0, 1),
            widths=("40%", "60%"),
        )
    return html


def serving_memory_html(b: SheetBuild) -> str:
    inf = b.analysis.inference
    assert inf is not None
    m = inf.memory
    rows: list[list[Cell]] = [
        [label, f"{value:.2f}", f"{value / m.total_gib:.0%}" if m.total_gib else "0%"]
        for label, value in (
            ("Weights (its share)", m.weights_gib),
            ("KV cache, all streams", m.kv_cache_gib),
            ("Engine buffers", m.engine_gib),
        )
    ]
    html = table(
        ("GPU memory, fullest GPU", "GiB", "share"),
        rows,
        numeric=(1, 2),
        total=["total", f"{m.total_gib:.2f}", f"of {m.usable_gib:.1f} GiB usable"],
    )
    verdict = "fits" if m.fits else "does NOT fit"
    html += key_values(
        [
            ("Verdict", f"{verdict} on {m.gpu_count} GPU(s)"),
            ("KV cache per stream", f"{m.kv_per_stream_gib:.2f} GiB"),
            ("Host RAM needed", f"{m.host_ram_gib:.1f} GiB"),
        ]
    )
    if m.fixes:
        html += para("Ways to fit: " + "; ".join(fix_text(f) for f in m.fixes))
    return html


def performance_html(sheet: BuildSheet, b: SheetBuild, key: str, charts: set[str]) -> str:
    if b.analysis.inference is not None:
        return serving_performance_html(b, key, charts)
    t = b.analysis.throughput
    if t is None:
        return para("No throughput estimate (no valid workload).")
    note = precision_text(t.precision_note)
    step = t.breakdown.step_s
    scope = step_scope_text(b.analysis.workload)
    scope_word, scope_note = ("micro-batch", f" ({scope})") if scope else ("step", "")
    time = time_figure(b.analysis)
    pairs = [
        (
            "Throughput",
            f"{t.total_throughput:,.0f} {t.unit} total, "
            f"{t.per_gpu_throughput:,.0f} per GPU on {t.gpus} GPU(s)",
        ),
        ("Utilization", f"{t.utilization:.0%} (model FLOPs utilization {t.mfu:.0%})"),
        ("Compute precision", t.compute_precision + (f" ({note})" if note else "")),
        ("Bottleneck", bottleneck_text(t.bottleneck)),
        ("Step time", f"{step * 1e3:.1f} ms per {scope_word} per GPU" + scope_note),
        ("Time to target", f"{time.value} ({time.detail})"),
    ]
    if b.published:
        pairs.append(("Published measurements", "; ".join(b.published)))
    if t.gpus > 1:
        pairs.insert(4, ("GPU link", f"{link_text(t.link)}, {t.link_gb_s:.1f} GB/s per direction"))
    html = key_values(pairs)
    rows: list[list[Cell]] = []
    for p in t.scaling:
        mark = "this build" if p.gpus == t.gpus else ""
        hours = None
        if t.time_to_target_s is not None and p.total_throughput > 0:
            hours = t.time_to_target_s * t.total_throughput / p.total_throughput
        rows.append(
            [
                str(p.gpus),
                f"{p.total_throughput:,.0f}",
                f"{p.total_throughput / p.gpus:,.0f}",
                f"{p.efficiency:.0%}",
                duration_text(hours),
                mark,
            ]
        )
    html += heading(3, f"Scaling, 1 to {len(t.scaling)} GPUs ({t.unit})")
    html += table(
        ("GPUs", "Total", "Per GPU", "Efficiency", "Time to target", ""),
        rows,
        numeric=(0, 1, 2, 3, 4),
        widths=("10%", "20%", "18%", "16%", "18%", "18%"),
    )
    step_rows: list[list[Cell]] = []
    for field, label in STEP_PARTS:
        value = getattr(t.breakdown, field)
        step_rows.append([label, f"{value * 1e3:.2f}", f"{value / step:.0%}"])
    html += heading(3, "Step time per GPU")
    html += table(
        ("Step time", "ms", "share"),
        step_rows,
        numeric=(1, 2),
        total=[scope_word, f"{step * 1e3:.2f}", "100%"],
    )
    if "scaling" in charts:
        html += image(f"{key}-scaling", CHART_WIDTH, 250)
    return html


def memory_html(b: SheetBuild, key: str, has_chart: bool) -> str:
    if b.analysis.inference is not None:
        html = serving_memory_html(b)
        return html + (image(f"{key}-vram", CHART_WIDTH, 170) if has_chart else "")
    v = b.analysis.vram
    if v is None:
        return para("No memory estimate (no valid workload).")
    rows: list[list[Cell]] = []
    for field, label in VRAM_PARTS:
        value = getattr(v.breakdown, field)
        rows.append([label, f"{value:.2f}", f"{value / v.total_gib:.0%}"])
    html = table(
        ("VRAM per GPU", "GiB", "share"),
        rows,
        numeric=(1, 2),
        total=["total", f"{v.total_gib:.2f}", f"of {v.capacity_gib:.1f} GiB"],
    )
    verdict = "fits" if v.fits else "does NOT fit"
    html += key_values(
        [
            ("Verdict", f"{verdict}; free {v.free_gib:.2f} GiB per GPU"),
            ("Largest batch that fits", str(v.max_batch_size)),
            ("Host RAM needed", f"{v.host_ram_gib:.1f} GiB"),
        ]
    )
    if v.fixes:
        html += para("Ways to fit: " + "; ".join(fix_text(f) for f in v.fixes))
    if has_chart:
        html += image(f"{key}-vram", CHART_WIDTH, 170)
    return html


def power_html(sheet: BuildSheet, b: SheetBuild, key: str) -> str:
    p = b.power
    rows: list[list[Cell]] = [
        [
            COMPONENT_NAMES.get(c.component, c.component),
            str(c.count),
            _w(c.each_w),
            _w(c.total_w),
            basis_text(c.basis),
        ]
        for c in p.components
    ]
    lower = " (lower bound)" if p.unknown else ""
    html = table(
        ("Component", "Count", "Each", "Total", "Basis"),
        rows,
        numeric=(1, 2, 3),
        widths=("18%", "9%", "13%", "13%", "47%"),
        total=["Steady DC", "", "", f"{p.steady_dc_w:,.0f} W", lower.strip(" ()")],
    )
    circuit = b.analysis.settings.circuit_spec
    psu = "no PSU chosen"
    if p.psu_rated_w is not None:
        load = f"{p.psu_load_fraction:.0%} load" if p.psu_load_fraction is not None else ""
        psu = f"{p.psu_count} × {p.psu_rated_w / p.psu_count:,.0f} W, {load}"
    pairs = [
        ("Steady draw (DC)", f"{p.steady_dc_w:,.0f} W{lower}"),
        (
            "Peak with GPU spikes",
            f"{p.peak_dc_w:,.0f} W ({p.gpu_transient_ratio:g}× for {p.transient_duration_us:g} µs)",
        ),
        ("PSU", psu),
        ("PSU efficiency", "unknown" if p.efficiency is None else f"{p.efficiency:.1%}"),
        (
            "Wall power",
            _w(p.wall_w)
            + (f", {p.heat_btu_h:,.0f} BTU/h of heat" if p.heat_btu_h is not None else ""),
        ),
        (
            "Circuit",
            f"{circuit.id}: {circuit.volts:g} V × {circuit.amps:g} A, "
            f"{p.circuit_continuous_w:,.0f} W continuous limit",
        ),
    ]
    if p.unknown:
        pairs.append(("Unknown draw", ", ".join(p.unknown)))
    html += key_values(pairs)
    html += image(f"{key}-power", CHART_WIDTH, 250)
    return html


def cost_html(sheet: BuildSheet, b: SheetBuild) -> str:
    return key_values(cost_rows(b.analysis, sheet.money))


def build_section(
    sheet: BuildSheet, b: SheetBuild, key: str, charts: set[str], refs: References
) -> str:
    """One build's section; images are named ``<key>-<chart>``, ``charts`` says which exist;
    the sources it cites are numbered in ``refs``."""
    if sheet.is_comparison:
        # a comparison's build: what purchasing compares (the figures, the parts, what
        # does not pass, the cost); the charts and breakdowns are in a one-build sheet
        return "".join(
            [
                heading(1, b.name),
                summary_html(sheet, b),
                heading(2, "Parts"),
                parts_html(sheet, b, refs),
                heading(2, "Checks that do not pass"),
                checks_html(b, problems_only=True),
                heading(2, "Cost"),
                cost_html(sheet, b),
            ]
        )
    if sheet.title and sheet.title != b.name:
        top = heading(2, f"Build: {b.name}")
    else:
        top = heading(2, "Summary")
    parts = [
        top,
        summary_html(sheet, b),
        heading(2, "Parts"),
        parts_html(sheet, b, refs),
    ]
    if not sheet.is_comparison:
        parts += [heading(2, "Workload"), workload_html(sheet, b.analysis.workload)]
    parts += [
        heading(2, f"Checks ({len(b.analysis.checks)})"),
        checks_html(b),
        heading(2, "Performance"),
        performance_html(sheet, b, key, charts),
        heading(2, "Memory"),
        memory_html(b, key, "vram" in charts),
        heading(2, "Power"),
        power_html(sheet, b, key),
        heading(2, "Cost"),
        cost_html(sheet, b),
    ]
    return "".join(parts)
