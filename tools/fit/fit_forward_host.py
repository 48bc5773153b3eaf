"""Fit ``forward_host_share``: the forward's share of a training step's host dispatch time.

Only an inference pass depends on it (a training step pays the whole unit, fitted on the
Lambda/DLE training rows), and only where the host is slower than the GPU: small
batches. Data: the published inference rows of ``resources/benchmarks/
vision_inference_published.csv`` (timm's results and NVIDIA DeepLearningExamples'
ResNet-50 and SSD300 inference tables, batch 1 to 256). Never used: the held-out
``vision_inference_heldout.csv`` (timm's RTX 5090 and RTX PRO 6000 results), printed
at the end as a check.

The loss is the mean Huber loss of log(predicted / measured); the search is a grid over
the share. It also refits leaving each source out and prints that source's median
predicted / measured at the share fitted without it.

Run: .venv/bin/python -m tools.fit.fit_forward_host
"""

from __future__ import annotations

import math
import statistics
from pathlib import Path
from typing import Any

from core.calc.performance.constants import FITTED
from core.catalog import load_catalog
from core.validation.modern import read_rows, throughput_report

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "resources" / "benchmarks" / "vision_inference_published.csv"
HELD_OUT = ROOT / "resources" / "benchmarks" / "vision_inference_heldout.csv"
GRID = [round(0.30 + 0.02 * k, 2) for k in range(31)]  # 0.30 .. 0.90


def _huber(ratios: list[float], delta: float = 0.1) -> float:
    logs = [abs(math.log(r)) for r in ratios]
    return sum(0.5 * x * x if x < delta else delta * (x - delta / 2) for x in logs) / len(logs)


def _details(path: Path, share: float) -> list[dict[str, Any]]:
    constants = FITTED.model_copy(update={"forward_host_share": share})
    rows = read_rows(path.read_text("utf-8"))
    result = throughput_report(rows, "vision_inference", load_catalog(), constants)
    details: list[dict[str, Any]] = result["details"]
    return details


def main() -> None:
    by_share = {share: _details(DATA, share) for share in GRID}
    sources = sorted({d["source"] for d in by_share[GRID[0]]})

    def best(keep: set[str]) -> float:
        return min(
            GRID,
            key=lambda s: _huber([d["ratio"] for d in by_share[s] if d["source"] in keep]),
        )

    fitted = best(set(sources))
    print(f"forward_host_share fitted on {len(by_share[fitted])} rows: {fitted}")
    for source in sources:
        share = best(set(sources) - {source})
        ratios = [d["ratio"] for d in by_share[share] if d["source"] == source]
        print(
            f"  without {source[:70]!r}: share {share}, that source's median "
            f"predicted / measured {statistics.median(ratios):.3f} ({len(ratios)} rows)"
        )
    held = [d["ratio"] for d in _details(HELD_OUT, fitted)]
    errors = [abs(r - 1.0) * 100.0 for r in held]
    print(
        f"held out ({len(held)} rows): median error {statistics.median(errors):.1f} %, "
        f"median ratio {statistics.median(held):.3f}"
    )


if __name__ == "__main__":
    main()
