"""Write ``resources/benchmarks/model_errors.json``: the throughput model's median absolute
error overall and per workload preset on the bundled calibration set, for the app to show
beside its estimates, and the published runs it shows beside them (so the app reads one
small JSON file, not the CSV). Run after changing the model, its constants or the CSV:

    .venv/bin/python -m tools.fit.model_errors
"""

from __future__ import annotations

import json
import statistics
from pathlib import Path
from typing import Any

from core.calc.performance.constants import FITTED
from core.catalog import load_catalog
from core.validation.calibration import load_rows, resolve, row_preset
from core.validation.published import PUBLISHED_COLUMNS, published_rows
from core.validation.report import predict_row

OUT = Path(__file__).resolve().parents[2] / "resources" / "benchmarks" / "model_errors.json"


def model_errors() -> dict[str, Any]:
    catalog = load_catalog()
    by: dict[str, list[float]] = {}
    every: list[float] = []
    points: list[list[float | str]] = []
    for row in load_rows():
        resolved = resolve(row, catalog)
        if isinstance(resolved, str):
            continue
        predicted = predict_row(resolved, FITTED)
        error = abs(predicted / row.throughput - 1.0) * 100.0
        preset, _ = row_preset(row)
        workload = preset.id.removesuffix("-full-softmax")
        by.setdefault(workload, []).append(error)
        every.append(error)
        points.append([workload, round(row.throughput, 3), round(predicted, 3)])
    return {
        "source": "rigforge validate on resources/benchmarks/throughput_calibration.csv",
        "rows": len(every),
        "median_abs_pct_error": round(statistics.median(every), 1),
        "by_workload": {k: round(statistics.median(v), 1) for k, v in sorted(by.items())},
        "rows_by_workload": {k: len(v) for k, v in sorted(by.items())},
        "points": points,
        "points_columns": ["workload", "measured", "predicted"],
        "published": published_rows(),
        "published_columns": list(PUBLISHED_COLUMNS),
    }


def main() -> None:
    OUT.write_text(json.dumps(model_errors(), indent=2) + "\n", encoding="utf-8")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
