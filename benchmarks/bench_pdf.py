"""PDF build sheet export time: the default build with the default workload.

Median wall time of analysing the build and writing its sheet (charts, layout,
PDF) to a temporary folder; also a three-build comparison. Prints figures,
asserts nothing. Run: ``QT_QPA_PLATFORM=offscreen python -m benchmarks.bench_pdf``.
"""

from __future__ import annotations

import json
import os
import statistics
import tempfile
import time
from importlib import resources
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtWidgets import QApplication

from core.calc import analyze
from core.catalog import load_catalog
from core.catalog.builds import default_build
from core.files.io import parse_document
from core.models.settings import AnalysisSettings
from gui.pdf import export_sheet, sheet_from_analyses
from gui.viewmodels.session import default_workload


def _median_ms(run: Any, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


def measure(runs: int = 5) -> dict[str, Any]:
    app = QApplication.instance() or QApplication([])
    catalog = load_catalog()
    build, workload = default_build(catalog), default_workload()
    data = resources.files("resources.examples").joinpath("three-way-comparison.json")
    comparison = parse_document(data.read_bytes(), catalog)
    with tempfile.TemporaryDirectory() as tmp:
        one = Path(tmp) / "one.pdf"
        three = Path(tmp) / "three.pdf"

        def export_one() -> None:
            sheet = sheet_from_analyses(
                (analyze(build, workload, AnalysisSettings(), catalog),), catalog
            )
            export_sheet(one, sheet)

        def export_three() -> None:
            session = comparison.session
            analyses = [analyze(b, workload, session.settings, catalog) for b in session.builds]
            sheet = sheet_from_analyses(analyses, catalog)
            export_sheet(three, sheet)

        export_one()  # warm-up: imports, fonts, first chart widgets
        figures = {
            "one_build_median_ms": round(_median_ms(export_one, max(runs, 1)), 1),
            "three_build_comparison_median_ms": round(_median_ms(export_three, max(runs, 1)), 1),
            "one_build_bytes": one.stat().st_size,
        }
    app.processEvents()
    return figures


if __name__ == "__main__":
    print(json.dumps(measure(), indent=2))
