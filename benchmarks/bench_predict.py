"""``rigforge predict`` as a user runs it: a fresh process for one answer, wall time from
spawn to exit. Prints figures, asserts nothing.

Run: .venv/bin/python benchmarks/bench_predict.py [runs]
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
RUNS = 7
QUESTIONS = {
    "serving": ["--gpu", "RTX 4090", "--workload", "llama-3-8b", "--task", "inference"],
    "training": ["--gpu", "RTX 4090", "--workload", "resnet50"],
}


def measure(runs: int = RUNS) -> dict[str, Any]:
    """Median wall seconds of one ``rigforge predict`` per question (after one unmeasured
    run that fills the OS file cache)."""
    figures: dict[str, Any] = {}
    for name, argv in QUESTIONS.items():
        command = [sys.executable, "-m", "gui", "predict", *argv]
        subprocess.run(command, cwd=ROOT, capture_output=True, check=True)
        times = []
        for _ in range(max(runs, 1)):
            started = time.perf_counter()
            subprocess.run(command, cwd=ROOT, capture_output=True, check=True)
            times.append(time.perf_counter() - started)
        figures[name] = {
            "median_wall_s": round(statistics.median(times), 3),
            "runs_s": [round(t, 3) for t in times],
            "command": "rigforge predict " + " ".join(argv),
        }
    return figures


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else RUNS
    print(json.dumps(measure(runs), indent=2))


if __name__ == "__main__":
    main()
