"""``rigforge validate`` on long files: rows per second, reading included.

Each bundled measurement file is repeated to about 19 MB (the largest file
``validate`` reads is 20 MiB) and validated in this process (start-up and imports not
counted); the Lambda/DLE file is also run with every row's batch changed, so that no two
rows state the same run and every row is predicted (the model's own speed).

Run: .venv/bin/python benchmarks/bench_validate.py
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from core.catalog import load_catalog  # noqa: E402
from core.cli import main  # noqa: E402

BENCHMARKS = ROOT / "resources" / "benchmarks"
FILES = (
    "throughput_calibration.csv",
    "llm_inference_calibration.csv",
    "training_modern_calibration.csv",
    "vision_inference_calibration.csv",
    "llm_finetune_memory_calibration.csv",
)
TARGET_BYTES = 19 * 1024 * 1024


def _repeated(name: str, folder: Path) -> tuple[Path, int]:
    text = (BENCHMARKS / name).read_text("utf-8")
    header, body = text.split("\n", 1)
    copies = max(1, TARGET_BYTES // max(1, len(body)))
    path = folder / name
    path.write_text(header + "\n" + body * copies, "utf-8")
    rows = sum(1 for _ in csv.reader(io.StringIO(body))) * copies
    return path, rows


def _distinct(folder: Path) -> tuple[Path, int]:
    rows = list(csv.DictReader(io.StringIO((BENCHMARKS / FILES[0]).read_text("utf-8"))))
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(rows[0]))
    writer.writeheader()
    written = 0
    for step in range(3):
        for row in rows:
            batch = float(row["batch_size_per_gpu"] or 1)
            writer.writerow(row | {"batch_size_per_gpu": str(int(batch) + 1 + 7 * step)})
            written += 1
    path = folder / "distinct.csv"
    path.write_text(out.getvalue(), "utf-8")
    return path, written


def _rate(path: Path, rows: int) -> dict[str, Any]:
    sink = io.StringIO()
    started = time.perf_counter()
    with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(io.StringIO()):
        status = main(["validate", str(path)])
    wall = time.perf_counter() - started
    if status != 0:
        raise RuntimeError(f"validate {path.name} exited {status}")
    return {
        "rows": rows,
        "megabytes": round(path.stat().st_size / 2**20, 1),
        "wall_s": round(wall, 3),
        "rows_per_s": round(rows / wall),
    }


def measure() -> dict[str, Any]:
    load_catalog()  # as a command run would have done before reading the file
    figures: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="rigforge-bench-") as folder:
        for name in FILES:
            figures[name] = _rate(*_repeated(name, Path(folder)))
        figures["throughput_calibration.csv, every row a distinct run"] = _rate(
            *_distinct(Path(folder))
        )
    return figures


if __name__ == "__main__":
    print(json.dumps(measure(), indent=2))
