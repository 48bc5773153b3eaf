"""Text for the side-by-side comparison of builds: one row per key figure or check.

Each row keeps the numbers behind its cells so the GUI can highlight the best
value and show deltas against a baseline without parsing text.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from core.models.analysis import Analysis
from core.models.checks import SEVERITY_ORDER, VERDICT_ORDER
from core.text.checks import check_title
from core.text.cost import age_text, total_text
from core.text.inference import rate
from core.text.money import USD, Money
from core.text.summary import duration_text
from core.text.verdict import build_verdict

Better = Literal["lower", "higher"] | None
NA = "n/a"


@dataclass(frozen=True)
class CompareRow:
    """One figure across builds: a label, a value and text per build, which way is better."""

    key: str
    label: str
    values: tuple[float | None, ...]
    texts: tuple[str, ...]
    better: Better = None
    unit: str = ""
    eligible: tuple[bool, ...] = ()
    """Builds that may be best in this row (a failing build never is); empty: all."""

    def best(self) -> set[int]:
        """Indices of the builds with the best value (none when fewer than two have one).

        Unknown values (``None``) and builds not ``eligible`` are never best.
        """
        values = [(i, v) for i, v in enumerate(self.values) if v is not None]
        known = [(i, v) for i, v in values if not self.eligible or self.eligible[i]]
        if self.better is None or len(values) < 2 or not known:
            return set()
        pick = min if self.better == "lower" else max
        target = pick(v for _, v in known)
        if all(v == target for _, v in values):
            return set()  # nothing to choose between
        return {i for i, v in known if v == target}

    def delta_text(self, index: int, baseline: int) -> str:
        """The change of build ``index`` against ``baseline``, "" for the baseline or no data."""
        if index == baseline or self.better is None:
            return ""
        value, base = self.values[index], self.values[baseline]
        if value is None or base is None:
            return ""
        if self.key.startswith("check:") or self.key == "verdict":
            return ""
        diff = value - base
        if base:
            return f"{diff / abs(base) * 100:+.0f} %"
        return f"{diff:+,.0f}"


def gpu_text(a: Analysis) -> str:
    return f"{a.build.gpu_count} × {a.build.gpu.name}"


def headline(a: Analysis) -> float | None:
    """The figure a build is compared on: its training throughput, or for serving its
    aggregate generation speed (what its cost per unit divides by)."""
    return a.cost.throughput or None


def per_unit_text(a: Analysis, money: Money = USD) -> str:
    unit = a.cost.throughput_unit or ""
    if a.cost.per_throughput_usd is not None:
        return f"{money(a.cost.per_throughput_usd, 2)} per {unit}"
    if headline(a):
        return "unknown (a part has no price)"
    return NA


def _row(
    key: str,
    label: str,
    values: list[float | None],
    texts: list[str],
    better: Better,
    eligible: tuple[bool, ...] = (),
) -> CompareRow:
    return CompareRow(key, label, tuple(values), tuple(texts), better, eligible=eligible)


def _stale_count(a: Analysis) -> str:
    """ "none", or "2 of 8: GeForce RTX 4090 (4 years old), …"."""
    stale = [line for line in a.cost.lines if line.stale]
    if not stale:
        return "none"
    named = ", ".join(f"{line.name} ({age_text(line.age_days or 0)})" for line in stale)
    return f"{len(stale)} of {len(a.cost.lines)}: {named}"


def compare_rows(analyses: tuple[Analysis, ...], money: Money = USD) -> list[CompareRow]:
    """Key figures then every check's verdict, one column per build.

    A build that does not work as it is (it fails a check) is never best on a figure.
    """
    a_s = analyses
    powers = tuple(a.power for a in a_s)
    ok = tuple(a.verdict == "pass" for a in a_s)
    unit = next((a.cost.throughput_unit or "" for a in a_s if headline(a)), "")
    rows = [
        _row("gpus", "GPUs", [None] * len(a_s), [gpu_text(a) for a in a_s], None),
        _row(
            "verdict",
            "Verdict",
            [float(VERDICT_ORDER[a.verdict]) for a in a_s],
            [build_verdict(a).headline for a in a_s],
            "lower",
        ),
        _row(
            "first_problem",
            "First problem",
            [None] * len(a_s),
            [build_verdict(a).first if a.verdict != "pass" else "" for a in a_s],
            None,
        ),
        _row(
            "cost",
            "Parts cost",
            [a.cost.parts.total_usd for a in a_s],
            [total_text(a.cost, money) for a in a_s],
            "lower",
            ok,
        ),
        _row(
            "stale_prices",
            "Prices over a year old",
            [None] * len(a_s),
            [_stale_count(a) for a in a_s],
            None,
        ),
        _row(
            "throughput",
            f"Throughput ({unit})" if unit else "Throughput",
            [headline(a) for a in a_s],
            [NA if (h := headline(a)) is None else rate(h) for a in a_s],
            "higher",
            ok,
        ),
        _row(
            "usd_per_unit",
            f"Cost per {unit}" if unit else "Cost per unit of throughput",
            [a.cost.per_throughput_usd for a in a_s],
            [per_unit_text(a, money) for a in a_s],
            "lower",
            ok,
        ),
        _row(
            "efficiency",
            "Scaling efficiency",
            [_efficiency(a) for a in a_s],
            [NA if (e := _efficiency(a)) is None else f"{e * 100:.0f} %" for a in a_s],
            "higher",
            ok,
        ),
        _row(
            "time",
            "Time to target",
            [a.throughput.time_to_target_s if a.throughput else None for a in a_s],
            [duration_text(a.throughput.time_to_target_s if a.throughput else None) for a in a_s],
            "lower",
            ok,
        ),
        _row(
            "vram",
            "VRAM per GPU (use / capacity)",
            [a.vram.total_gib / a.vram.capacity_gib if a.vram else None for a in a_s],
            [
                f"{a.vram.total_gib:.1f} / {a.vram.capacity_gib:.0f} GiB" if a.vram else NA
                for a in a_s
            ],
            "lower",
        ),
        _row(
            "wall",
            "Wall power",
            [p.wall_w for p in powers],
            [NA if p.wall_w is None else f"{p.wall_w:,.0f} W" for p in powers],
            "lower",
        ),
        _row(
            "circuit",
            "Share of circuit limit",
            [None if p.wall_w is None else p.wall_w / p.circuit_continuous_w for p in powers],
            [
                NA if p.wall_w is None else f"{p.wall_w / p.circuit_continuous_w * 100:.0f} %"
                for p in powers
            ],
            "lower",
        ),
    ]
    check_ids: list[str] = []
    for a in a_s:
        check_ids += [c.id for c in a.checks if c.id not in check_ids]
    for check_id in check_ids:
        severities = [next((c.severity for c in a.checks if c.id == check_id), None) for a in a_s]
        rows.append(
            _row(
                f"check:{check_id}",
                f"Check: {check_title(check_id)}",
                [None if s is None else float(SEVERITY_ORDER[s]) for s in severities],
                [NA if s is None else s for s in severities],
                "lower",
            )
        )
    return rows


def _efficiency(a: Analysis) -> float | None:
    t = a.throughput
    if t is None:
        return None
    return next((p.efficiency for p in t.scaling if p.gpus == t.gpus), None)


def skipped_summary(
    evaluated: int,
    unpriced: int,
    unpriced_parts: int,
    where: str = "a price feed or 'rigforge prices set PART USD' (price overrides)",
) -> str:
    """The line that says why the optimizer found nothing when prices are missing."""
    if evaluated:
        return ""
    return (
        f"No configuration could be evaluated: {unpriced:,} were skipped because "
        f"{unpriced_parts} part(s) have no price; set prices with {where}, then search again."
    )
