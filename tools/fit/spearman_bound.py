"""How high ``spearman_min`` can go on the llama.cpp calibration tables, whatever the model.

XiongjieDai's tables measure the same GPUs on the same model, format and GPU count at two
lengths (``pp 512`` and ``pp 4096``; ``tg 512`` and ``tg 4096``), and ``spearman_min`` takes
the worst group. A model that ranks a set of GPUs the same way at both lengths (any model
whose difference between GPUs at one length is a per-GPU factor of the other) can score no
more than the best single ordering scores against both measured orderings. This script
tries every ordering of each pair of columns (up to 8 GPUs: 40,320 orderings) and prints
that ceiling, so a failing group can be told apart from a modelling error.

Run: .venv/bin/python -m tools.fit.spearman_bound [FILE]
"""

from __future__ import annotations

import itertools
import sys
from collections import defaultdict
from pathlib import Path

from core.validation.inference import load_inference_rows
from core.validation.report import spearman

ROOT = Path(__file__).resolve().parents[2]
CALIBRATION = ROOT / "resources" / "benchmarks" / "llm_inference_calibration.csv"
MAX_GPUS = 8


def length_pairs(path: Path) -> list[tuple[str, dict[str, float], dict[str, float]]]:
    """(label, shortest, longest): measured tokens/s by GPU for each group measured at two
    lengths with the same GPUs (one source, metric, model, format, GPU count, split)."""
    by_group: dict[tuple[object, ...], dict[int, dict[str, float]]] = defaultdict(dict)
    for row in load_inference_rows(path):
        key = (row.source, row.metric, row.model, row.weights, row.gpu_count, row.split)
        length = row.prompt if row.metric == "pp" else row.gen
        by_group[key].setdefault(length, {})[row.gpu_model] = row.measured
    pairs = []
    for key, lengths in by_group.items():
        if len(lengths) < 2:
            continue
        (short, a), (long, b) = min(lengths.items()), max(lengths.items())
        label = f"{key[1]} {key[2]} {key[3]} x{key[4]} ({short} vs {long})"
        pairs.append((label, a, b))
    return pairs


def best_common_order(a: dict[str, float], b: dict[str, float]) -> tuple[float, float] | None:
    """(spearman between the two measured orders, best min-spearman of one ordering
    against both), or ``None`` if fewer than 4 or more than ``MAX_GPUS`` GPUs share them."""
    gpus = sorted(set(a) & set(b))
    if not 4 <= len(gpus) <= MAX_GPUS:
        return None
    xa, xb = [a[g] for g in gpus], [b[g] for g in gpus]
    best = max(
        min(spearman(xa, list(order)), spearman(xb, list(order)))
        for order in itertools.permutations(range(len(gpus)))
    )
    return spearman(xa, xb), best


def main() -> None:
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else CALIBRATION
    ceiling = 1.0
    for label, a, b in sorted(length_pairs(path)):
        result = best_common_order(a, b)
        if result is None:
            continue
        between, best = result
        ceiling = min(ceiling, best)
        flag = "  < 0.9" if best < 0.9 else ""
        print(
            f"{label:48s} {len(set(a) & set(b))} GPUs  measured orders agree {between:5.3f}"
            f"  best one ordering {best:5.3f}{flag}"
        )
    print(f"spearman_min of any model ranking the GPUs alike at both lengths: <= {ceiling:.3f}")


if __name__ == "__main__":
    main()
