"""The calibration report: predicted vs measured throughput and scaling efficiency.

Figures: rows resolved / total; median and 90th-percentile absolute percentage
error of total throughput; median absolute error of scaling efficiency in
percentage points over multi-GPU rows with a matching 1-GPU row (same source
file and commit, family, model and precision; rows with ``FLAG:`` in notes
skipped); per workload the Spearman rank correlation of predicted vs measured
total throughput over all that workload's resolved rows (all GPUs, counts and
precisions of the table).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from core.calc.performance.constants import ThroughputConstants
from core.calc.performance.scaling import estimate_throughput
from core.catalog.catalog import Catalog
from core.validation.calibration import CalibrationRow, ResolvedRow, resolve


def spearman(x: Sequence[float], y: Sequence[float]) -> float:
    """Spearman rank correlation with average ranks for ties (NaN below 3 points)."""
    if len(x) < 3:
        return float("nan")

    def ranks(values: Sequence[float]) -> np.ndarray[Any, np.dtype[np.float64]]:
        arr = np.asarray(values, dtype=float)
        order = arr.argsort(kind="mergesort")
        result = np.empty(len(arr))
        sorted_vals = arr[order]
        i = 0
        while i < len(arr):
            j = i
            while j + 1 < len(arr) and sorted_vals[j + 1] == sorted_vals[i]:
                j += 1
            result[order[i : j + 1]] = (i + j) / 2.0
            i = j + 1
        return result

    rx, ry = ranks(x), ranks(y)
    if rx.std() == 0 or ry.std() == 0:
        return float("nan")
    return float(np.corrcoef(rx, ry)[0, 1])


def predict_row(resolved: ResolvedRow, c: ThroughputConstants, allow_tf32: bool = True) -> float:
    """Predicted total throughput of one calibration row."""
    result = estimate_throughput(
        resolved.profile,
        resolved.gpu,
        resolved.row.gpu_count,
        c,
        interconnect=resolved.interconnect,
        allow_tf32=allow_tf32,
        curve=False,
    )
    return result.total_throughput


Scored = tuple[CalibrationRow, ResolvedRow, float]
"""A resolved row, its resolution (shared by its repeats) and the prediction."""
Progress = Callable[[int, int], None]
"""Called with (rows done, rows in all) while a long file is predicted."""


def build_report(
    rows: Sequence[CalibrationRow],
    catalog: Catalog,
    c: ThroughputConstants,
    *,
    allow_tf32: bool = True,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """The whole report as plain JSON-ready data (``details`` holds one entry per row).

    Rows that state the same run (a file repeats its configurations) are resolved and
    predicted once."""
    details: list[dict[str, Any]] = []
    resolved_rows: list[Scored] = []
    # One resolution and prediction per run: a row's repeats differ only in line and
    # measurement (``ResolvedRow.row`` is the first of them).
    outcomes: dict[tuple[object, ...], tuple[ResolvedRow | str, float]] = {}
    for number, row in enumerate(rows, start=1):
        if progress is not None and number % PROGRESS_EVERY == 0:
            progress(number, len(rows))
        known = outcomes.get(row.run_key)
        if known is None:
            outcome = resolve(row, catalog)
            predicted = 0.0 if isinstance(outcome, str) else predict_row(outcome, c, allow_tf32)
            known = outcomes[row.run_key] = (outcome, predicted)
        outcome, predicted = known
        entry: dict[str, Any] = {
            "line": row.index,
            "model": row.model,
            "gpu_model": row.gpu_model,
            "gpu_count": row.gpu_count,
            "precision": row.precision,
            "batch_per_gpu": row.batch,
            "interconnect": row.interconnect,
            "measured": row.throughput,
        }
        if isinstance(outcome, str):
            entry["resolved"], entry["reason"] = False, outcome
        else:
            entry["resolved"] = True
            entry["gpu_id"] = outcome.gpu.id
            entry["workload_used"] = outcome.profile.name
            entry["interconnect_used"] = outcome.interconnect
            entry["predicted"] = predicted
            entry["abs_pct_error"] = abs(predicted / row.throughput - 1.0) * 100.0
            resolved_rows.append((row, outcome, predicted))
        details.append(entry)

    errors = [e["abs_pct_error"] for e in details if e.get("resolved")]
    scaling_errors = _scaling_errors(resolved_rows, details, c, allow_tf32)
    by_workload: dict[str, tuple[list[float], list[float]]] = {}
    for row, _res, predicted in resolved_rows:
        xs, ys = by_workload.setdefault(row.model, ([], []))
        xs.append(predicted)
        ys.append(row.throughput)
    return {
        "rows": len(rows),
        "resolved": len(resolved_rows),
        "median_abs_pct_error": _pct(errors, 50),
        "p90_abs_pct_error": _pct(errors, 90),
        "scaling_rows": len(scaling_errors),
        "scaling_median_abs_error_pts": _pct(scaling_errors, 50),
        "spearman_by_workload": {
            model: spearman(xs, ys) for model, (xs, ys) in sorted(by_workload.items())
        },
        "unresolved": [
            {"line": e["line"], "reason": e["reason"]} for e in details if not e["resolved"]
        ],
        "tf32_assumed_for_fp32": allow_tf32,
        "details": details,
    }


PROGRESS_EVERY = 1000
"""Rows between two progress reports."""


def _pct(values: Sequence[float], q: float) -> float | None:
    return float(np.percentile(values, q)) if values else None


def _scaling_errors(
    resolved_rows: Sequence[Scored],
    details: list[dict[str, Any]],
    c: ThroughputConstants,
    allow_tf32: bool,
) -> list[float]:
    """|measured - predicted| scaling efficiency in points, per unflagged multi-GPU row.

    The predicted efficiency divides the row's prediction by N x the prediction
    of the matching 1-GPU row at that row's own batch, as the measured one does.
    """
    # The first 1-GPU row of each group and GPU, and of each group, GPU and batch.
    first: dict[tuple[object, ...], tuple[CalibrationRow, float]] = {}
    for row, res, predicted in resolved_rows:
        if row.gpu_count == 1:
            first.setdefault((row.group_key, res.gpu.id), (row, predicted))
            first.setdefault((row.group_key, res.gpu.id, row.batch), (row, predicted))
    by_line = {e["line"]: e for e in details}
    out: list[float] = []
    for row, res, predicted in resolved_rows:
        if row.gpu_count == 1 or row.flagged:
            continue
        base = first.get((row.group_key, res.gpu.id, row.batch)) or first.get(
            (row.group_key, res.gpu.id)
        )
        if base is None:
            continue
        base_row, base_pred = base
        measured = row.throughput / (row.gpu_count * base_row.throughput)
        predicted_eff = predicted / (row.gpu_count * base_pred)
        error = abs(measured - predicted_eff) * 100.0
        by_line[row.index].update(
            scaling_measured=measured, scaling_predicted=predicted_eff, scaling_error_pts=error
        )
        out.append(error)
    return out
