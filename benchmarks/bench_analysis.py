"""Time one full analysis (VRAM + throughput + 1..N scaling curve); prints microseconds.

Run:  .venv/bin/python benchmarks/bench_analysis.py
"""

from __future__ import annotations

import sys
import timeit
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.calc.performance.constants import FITTED
from core.calc.performance.profile import profile_from_workload
from core.calc.performance.scaling import estimate_throughput
from core.catalog import load_catalog
from core.workloads import find_preset, make_workload


def main() -> int:
    gpu = load_catalog().gpu("RTX 4090")
    workload = make_workload(find_preset("ResNet-50"), precision="fp16", batch_size=256)
    try:
        from core.calc.memory import estimate_vram
    except ImportError:  # the VRAM model lands separately
        estimate_vram = None

    def analysis() -> None:
        if estimate_vram is not None:
            estimate_vram(workload, float(gpu.vram_gib), 8)
        estimate_throughput(profile_from_workload(workload), gpu, 8, FITTED)

    runs = 2000
    best = min(timeit.repeat(analysis, number=runs, repeat=5)) / runs
    print(f"one analysis (memory + throughput + scaling 1..8): {best * 1e6:.0f} us")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
