"""Fit the global constants of the performance model on the bundled calibration set.

Log-error least squares (scipy.optimize.least_squares, soft-L1 loss) over every
resolved calibration row: residual log(predicted / measured) total throughput,
plus, for every multi-GPU row without ``FLAG:`` that has a matching 1-GPU row, the
scaling-efficiency error (weighted x3, in efficiency units). Flagged multi-GPU
rows are left out of the fit. Prints the fitted block for core/calc/constants.py
and generalisation checks (leave-one-source-out; leave-one-GPU-out with
``--logo``; K-fold cross-validation over random rows with ``--cv K``).

Run:  .venv/bin/python benchmarks/fit_throughput.py [--logo] [--cv 5]
scipy is a development dependency of this script only; core never imports it.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from scipy.optimize import least_squares

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from core.calc.performance.constants import FITTED, ThroughputConstants
from core.catalog import load_catalog
from core.validation.calibration import ResolvedRow, load_rows, resolve
from core.validation.report import predict_row

# (name, lower, upper) of each fitted constant; fitted in log space.
PARAMS: tuple[tuple[str, float, float], ...] = (
    ("eta_tensor_volta_turing", 0.05, 1.0),
    ("eta_tensor_ampere_ada", 0.05, 1.0),
    ("eta_tensor_hopper_blackwell", 0.05, 1.0),
    ("eta_simt_fp32", 0.1, 1.0),
    ("amp_activation_bytes", 2.0, 4.0),
    ("elementwise_bytes_per_activation", 0.5, 100.0),
    ("gemm_half_width", 1.0, 5000.0),
    ("elementwise_alu_flops", 0.01, 1000.0),
    ("score_bytes", 0.1, 200.0),
    ("conv_rel", 0.2, 1.5),
    # physical bound: ~30 kernels per layer per training step at ~10 us each
    ("launch_s_per_layer", 1e-7, 3e-4),
    ("launch_s_per_loop_step", 1e-5, 1e-1),
    ("eta_link", 0.2, 1.0),
    ("allreduce_latency_s", 1e-6, 5e-2),
    # Little's law: 16-byte vector loads (4 fp32 elements) per thread, tens of warps per
    # SM, a few hundred ns of DRAM latency: tens of GB/s per SM
    ("per_sm_gb_s", 2.0, 80.0),
    ("nchw_transpose_passes", 0.01, 20.0),
)


def constants_from(x: Sequence[float]) -> ThroughputConstants:
    values = {name: math.exp(v) for (name, _, _), v in zip(PARAMS, x, strict=True)}
    return FITTED.model_copy(update=values)


def scaling_pairs(rows: Sequence[ResolvedRow]) -> list[tuple[int, int]]:
    """(multi-GPU row index, matching 1-GPU row index) for unflagged multi-GPU rows."""
    singles: dict[tuple[str, str, str, str, str], list[int]] = {}
    for i, r in enumerate(rows):
        if r.row.gpu_count == 1:
            singles.setdefault((*r.row.group_key, r.gpu.id), []).append(i)
    pairs = []
    for i, r in enumerate(rows):
        if r.row.gpu_count == 1 or r.row.flagged:
            continue
        cands = singles.get((*r.row.group_key, r.gpu.id), [])
        same = [j for j in cands if rows[j].row.batch == r.row.batch] or cands
        if same:
            pairs.append((i, same[0]))
    return pairs


def residuals(
    x: Sequence[float], rows: Sequence[ResolvedRow], pairs: Sequence[tuple[int, int]]
) -> np.ndarray:
    c = constants_from(x)
    pred = np.array([predict_row(r, c) for r in rows])
    meas = np.array([r.row.throughput for r in rows])
    keep = np.array([r.row.gpu_count == 1 or not r.row.flagged for r in rows])
    res = list(np.log(pred / meas)[keep])
    for i, j in pairs:
        n = rows[i].row.gpu_count
        measured = meas[i] / (n * meas[j])
        res.append(3.0 * (pred[i] / (n * pred[j]) - measured))
    return np.array(res)


def fit(rows: Sequence[ResolvedRow], x0: Sequence[float] | None = None, max_nfev: int = 400):
    pairs = scaling_pairs(rows)
    lo = [math.log(lo) for _, lo, _ in PARAMS]
    hi = [math.log(hi) for _, _, hi in PARAMS]
    start = (
        x0
        if x0 is not None
        else [
            min(max(math.log(max(getattr(FITTED, n), 1e-12)), a + 1e-6), b - 1e-6)
            for (n, _, _), a, b in zip(PARAMS, lo, hi, strict=True)
        ]
    )
    return least_squares(
        residuals,
        start,
        bounds=(lo, hi),
        args=(rows, pairs),
        loss="soft_l1",
        f_scale=0.1,
        max_nfev=max_nfev,
        x_scale=1.0,
    )


def median_error(rows: Sequence[ResolvedRow], c: ThroughputConstants) -> float:
    return statistics.median(abs(predict_row(r, c) / r.row.throughput - 1) * 100 for r in rows)


def source_of(r: ResolvedRow) -> str:
    path = r.row.source
    if "DeepLearningExamples" in path:
        return "DLE"
    if "v2" in path:
        return "Lambda v2"
    return "Lambda v0" if "67a9bb51" in path else "Lambda v1"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--logo", action="store_true", help="also leave-one-GPU-out")
    parser.add_argument("--no-holdout", action="store_true", help="skip the held-out refits")
    parser.add_argument(
        "--cv", type=int, default=0, metavar="K", help="also K-fold cross-validation (seed 1)"
    )
    args = parser.parse_args()
    catalog = load_catalog()
    resolved = [r for r in (resolve(row, catalog) for row in load_rows()) if not isinstance(r, str)]
    result = fit(resolved)
    c = constants_from(result.x)
    print(f"# fitted on {len(resolved)} rows; cost {result.cost:.3f}; nfev {result.nfev}")
    for (name, _, _), v in zip(PARAMS, result.x, strict=True):
        print(f"    {name}={math.exp(v):.4g},")
    print(f"in-sample median abs % error: {median_error(resolved, c):.1f}")
    if args.no_holdout:
        return 0
    groups: dict[str, list[ResolvedRow]] = {}
    for r in resolved:
        groups.setdefault(source_of(r), []).append(r)
    if args.logo:
        groups = {}
        for r in resolved:
            groups.setdefault(r.gpu.id, []).append(r)
    errors = []
    for name, held in sorted(groups.items()):
        train = [r for r in resolved if r not in held]
        sub = fit(train, result.x, max_nfev=60)
        err = median_error(held, constants_from(sub.x))
        errors.append(err)
        print(f"held out {name:20s} rows {len(held):4d}  median abs % error {err:.1f}")
    print(f"median over held-out groups: {statistics.median(errors):.1f}")
    if args.cv > 1:
        order = list(range(len(resolved)))
        random.Random(1).shuffle(order)
        folds = []
        for k in range(args.cv):
            test = set(order[k :: args.cv])
            train = [r for i, r in enumerate(resolved) if i not in test]
            sub = fit(train, result.x, max_nfev=80)
            folds.append(median_error([resolved[i] for i in sorted(test)], constants_from(sub.x)))
        print(
            f"{args.cv}-fold cross-validation, median abs % error per fold: "
            + ", ".join(f"{e:.1f}" for e in folds)
            + f"; mean {statistics.mean(folds):.1f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
