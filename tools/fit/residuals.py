"""Residual tables of the performance model on the bundled calibration set.

Prints, for each grouping (workload, GPU architecture, precision, source and a few
crossings), the number of rows, the median ratio predicted / measured and the median
absolute percentage error, plus the mean share of the modelled step time by class
per workload. Used to find per-workload biases (unit or definition mismatches) and
terms the model lacks; it asserts nothing.

Run:  .venv/bin/python benchmarks/residuals.py [--by workload,arch,precision,source,...]
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from core.calc.performance.constants import FITTED, ThroughputConstants
from core.calc.performance.roofline import gpu_step_time
from core.catalog import load_catalog
from core.validation.calibration import ResolvedRow, load_rows, resolve
from core.validation.report import predict_row


def source_of(r: ResolvedRow) -> str:
    path = r.row.source
    if "DeepLearningExamples" in path:
        return "DLE"
    if "v2" in path:
        return "Lambda v2"
    return "Lambda v0" if "67a9bb51" in path else "Lambda v1"


def short_model(r: ResolvedRow) -> str:
    return r.row.model.split(" (")[0].replace(" v1.1 fine-tune", "")[:22]


KEYS: dict[str, Callable[[ResolvedRow], str]] = {
    "workload": short_model,
    "arch": lambda r: r.gpu.architecture,
    "precision": lambda r: r.row.precision,
    "source": source_of,
    "gpus": lambda r: str(r.row.gpu_count),
    "gpu": lambda r: r.gpu.id,
    "workload+arch": lambda r: f"{short_model(r)} | {r.gpu.architecture}",
    "workload+precision": lambda r: f"{short_model(r)} | {r.row.precision}",
    "workload+source": lambda r: f"{short_model(r)} | {source_of(r)}",
    "workload+gpu": lambda r: f"{short_model(r)} | {r.gpu.id}",
}


def table(
    name: str, rows: Sequence[ResolvedRow], ratios: Sequence[float], key: Callable[..., str]
) -> None:
    groups: dict[str, list[float]] = {}
    for r, q in zip(rows, ratios, strict=True):
        groups.setdefault(key(r), []).append(q)
    print(f"\n== by {name} ==")
    print(f"{'group':44s} {'rows':>5s} {'med pred/meas':>13s} {'med |err|%':>10s}")
    for g, qs in sorted(groups.items()):
        med = math.exp(statistics.median(math.log(q) for q in qs))
        err = statistics.median(abs(q - 1) * 100 for q in qs)
        print(f"{g:44s} {len(qs):5d} {med:13.2f} {err:10.1f}")


def shares(rows: Sequence[ResolvedRow], c: ThroughputConstants) -> None:
    print("\n== mean share of modelled device time (1-GPU rows) ==")
    print(f"{'workload':24s} matmul  attn   rec    mem    optim  launch")
    groups: dict[str, list[list[float]]] = {}
    for r in rows:
        if r.row.gpu_count != 1:
            continue
        s = gpu_step_time(r.profile, r.gpu, c)
        parts = [s.matmul_s, s.attention_s, s.recurrent_s, s.elementwise_s, s.optimizer_s]
        total = sum(parts)
        launch = s.launch_s  # added to the device time, not overlapped
        groups.setdefault(short_model(r), []).append(
            [p / (total + launch) for p in (*parts, launch)]
        )
    for g, vals in sorted(groups.items()):
        means = [statistics.fmean(v[i] for v in vals) for i in range(6)]
        print(f"{g:24s} " + " ".join(f"{m:6.2f}" for m in means))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--by", default="workload,arch,precision,source,workload+arch")
    args = parser.parse_args()
    catalog = load_catalog()
    rows = [r for r in (resolve(row, catalog) for row in load_rows()) if not isinstance(r, str)]
    ratios = [predict_row(r, FITTED) / r.row.throughput for r in rows]
    print(
        f"rows {len(rows)}; median |err| {statistics.median(abs(q - 1) * 100 for q in ratios):.1f}%"
    )
    for name in args.by.split(","):
        table(name, rows, ratios, KEYS[name])
    shares(rows, FITTED)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
