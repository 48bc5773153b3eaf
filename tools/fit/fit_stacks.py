"""Fit each software stack's few constants on published measurements of that stack.

The eager stack's constants are the global ones (``tools/fit/fit_throughput.py`` on the
Lambda and DeepLearningExamples rows). For every other stack this fits, on that stack's
rows only, ``tensor_factor``, ``elementwise_factor`` and ``host_factor``
(``core/calc/performance/stacks.py``), minimising the mean Huber loss of
log(predicted / measured) with Nelder–Mead, and prints in-sample and leave-one-source-out
errors. Data: ``../shared/data/benchmarks/training_modern_calibration.csv``,
``vision_inference_calibration.csv`` and ``resources/benchmarks/training_published.csv``,
``vision_inference_published.csv``. Never used (kept aside to check generalisation):
torchtune's README tables, timm's RTX 5090 and RTX PRO 6000 results, Unsloth's 70B
context-length rows.

Run: .venv/bin/python -m tools.fit.fit_stacks
"""

from __future__ import annotations

import dataclasses
import math
import statistics
from pathlib import Path
from typing import Any

import numpy as np

from core.calc.performance import stacks
from core.catalog import load_catalog
from core.validation.modern import Kind, Row, file_kind, predict_throughput, read_rows
from tools.fit.fit_inference import nelder_mead

ROOT = Path(__file__).resolve().parents[2]
FILES = (
    ROOT / "resources" / "benchmarks" / "training_modern_calibration.csv",
    ROOT / "resources" / "benchmarks" / "vision_inference_calibration.csv",
    ROOT / "resources" / "benchmarks" / "training_published.csv",
    ROOT / "resources" / "benchmarks" / "vision_inference_published.csv",
)
HELD_OUT = ("torchtune", "5090", "RTX PRO 6000", "70B context")
FIELDS = ("tensor_factor", "elementwise_factor")
"""The host factor stays as stated in stacks.py (too few small-batch rows to fit it)."""
BOUNDS = {"tensor_factor": (0.8, 1.6), "elementwise_factor": (0.02, 1.0), "host_factor": (0.0, 1.5)}
"""Physical limits: large GEMMs reach at most about 90 % of the tensor peak (the roofline
caps a stack's efficiency at ``roofline.TENSOR_CEILING``); fusion cannot add DRAM
passes."""


def rows() -> list[tuple[Row, Kind]]:
    out = []
    for path in FILES:
        text = path.read_text(encoding="utf-8")
        kind = file_kind(text)
        assert kind in ("training", "vision_inference"), path
        for row in read_rows(text):
            blob = " ".join(row.raw.values())
            if any(h in blob for h in HELD_OUT):
                continue
            out.append((row, kind))
    return out


def measured(row: Row, kind: Kind) -> float | None:
    try:
        value = float(row.get("measured_images_s" if kind == "vision_inference" else "measured"))
    except ValueError:
        return None
    return value if value > 0 else None


def log_errors(items: list[tuple[Row, Kind, float]]) -> list[float]:
    catalog = load_catalog()
    out = []
    for row, kind, value in items:
        outcome = predict_throughput(row, kind, catalog)
        if not isinstance(outcome, str):
            out.append(math.log(outcome[0] / value))
    return out


def huber(x: float, delta: float = 0.3) -> float:
    a = abs(x)
    return 0.5 * a * a if a <= delta else delta * (a - 0.5 * delta)


def set_stack(stack: str, values: dict[str, float]) -> None:
    stacks.STACKS[stack] = dataclasses.replace(stacks.STACKS[stack], **values)  # type: ignore[index]


def fit_stack(
    stack: str, items: list[tuple[Row, Kind, float]], steps: int = 120
) -> dict[str, float]:
    start = stacks.STACKS[stack]  # type: ignore[index]
    x0 = np.array([math.log(max(getattr(start, f), 1e-3)) for f in FIELDS])

    def values(x: np.ndarray) -> dict[str, float]:
        return {
            f: min(max(math.exp(float(v)), BOUNDS[f][0]), BOUNDS[f][1])
            for f, v in zip(FIELDS, x, strict=True)
        }

    def objective(x: np.ndarray) -> float:
        set_stack(stack, values(x))
        errors = log_errors(items)
        return sum(huber(e) for e in errors) / max(len(errors), 1)

    best = values(nelder_mead(objective, x0, steps))
    set_stack(stack, best)
    return best


def summary(errors: list[float]) -> dict[str, Any]:
    if not errors:
        return {"rows": 0}
    return {
        "rows": len(errors),
        "median_abs_pct_error": round(
            statistics.median(abs(math.exp(e) - 1) for e in errors) * 100, 1
        ),
        "median_ratio": round(math.exp(statistics.median(errors)), 3),
    }


def main() -> None:
    catalog = load_catalog()
    data: dict[str, list[tuple[Row, Kind, float]]] = {}
    for row, kind in rows():
        value = measured(row, kind)
        outcome = predict_throughput(row, kind, catalog) if value else "no value"
        if isinstance(outcome, str) or value is None:
            continue
        data.setdefault(outcome[1].stack, []).append((row, kind, value))
    for stack, items in sorted(data.items()):
        print(f"{stack}: {len(items)} resolved rows; in force {summary(log_errors(items))}")
        if stack == "pytorch-eager":
            continue  # the global constants (Lambda / DeepLearningExamples)
        original = stacks.STACKS[stack]  # type: ignore[index]
        best = fit_stack(stack, items)
        print(f"  fitted { ({k: round(v, 3) for k, v in best.items()}) }")
        print(f"  in sample {summary(log_errors(items))}")
        sources = sorted({r.get("source") for r, _k, _v in items})
        for source in sources:
            train = [i for i in items if i[0].get("source") != source]
            test = [i for i in items if i[0].get("source") == source]
            if not train:
                continue
            stacks.STACKS[stack] = original  # type: ignore[index]
            fit_stack(stack, train, steps=60)
            print(f"  leave out {source[:70]}: {summary(log_errors(test))}")
        set_stack(stack, best)


if __name__ == "__main__":
    main()
