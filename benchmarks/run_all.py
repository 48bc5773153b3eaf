"""Measure RigForge on this machine and print one JSON object of figures.

Figures: cold start to the first painted window and to the full main window (with bare
PySide6 windows as the baselines), one full analysis, one ``rigforge predict`` answer,
edit-to-repaint in the GUI, the whole-catalog suggest, PDF export of one build, opening a
large comparison file, the slowest analysis of adversarial boards and the window's open
of 64 of them, and ``rigforge validate`` rows per second on long files.

A piece that is not available yet reports ``null`` with the reason under
``"missing"``; no figure is ever estimated. Pieces that live in their own
modules are found by this contract: ``benchmarks/bench_<name>.py`` exposing
``measure() -> dict`` of figures (``bench_startup``, ``bench_gui``, ``bench_pdf``).

Run: .venv/bin/python benchmarks/run_all.py [--quick]   (about a minute; --quick: 1 run each)
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import json
import os
import platform
import statistics
import sys
import tempfile
import time
import timeit
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from core.calc import analyze  # noqa: E402
from core.calc.suggest.search import suggest  # noqa: E402
from core.catalog import load_catalog  # noqa: E402
from core.catalog.builds import default_build  # noqa: E402
from core.files.io import open_file, save_file  # noqa: E402
from core.models.session import Session  # noqa: E402
from core.models.suggest import SuggestRequest  # noqa: E402
from core.prices.cloud import load_cloud_rates  # noqa: E402
from core.workloads import find_preset, make_workload  # noqa: E402

WORKLOAD = "resnet50-v1.5"
COMPARISON_BUILDS = 64
Figures = dict[str, Any]


class Missing(Exception):
    """A piece that cannot be measured yet; the message says why."""


def machine() -> dict[str, Any]:
    model = "unknown"
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        for line in cpuinfo.read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    from PySide6 import __version__ as pyside_version

    return {
        "nproc": os.cpu_count(),
        "cpu_model": model,
        "system": f"{platform.system()} {platform.release()}",
        "python": platform.python_version(),
        "pyside6": pyside_version,
        # Other work on the machine skews every figure; the load says how much there was.
        "load_average_1min": round(os.getloadavg()[0], 2),
    }


def _median_us(function: Callable[[], object], runs: int) -> tuple[float, int]:
    """Median over ``runs`` batches of the per-call time, in µs; batch size is calibrated."""
    timer = timeit.Timer(function)
    number, _ = timer.autorange()  # calls per batch so that one batch takes >= 0.2 s
    batches = timer.repeat(repeat=runs, number=number)
    return statistics.median(batches) / number * 1e6, number


def bench_analysis(runs: int) -> Figures:
    catalog = load_catalog()
    build = default_build(catalog)
    workload = make_workload(find_preset(WORKLOAD))
    rates = load_cloud_rates().rates
    median_us, per_batch = _median_us(
        lambda: analyze(build, workload, None, catalog, cloud_rates=rates), runs
    )
    return {
        "median_us": round(median_us, 1),
        "build": build.name,
        "workload": workload.name,
        "batches": runs,
        "calls_per_batch": per_batch,
    }


def bench_suggest_figures(runs: int) -> Figures:
    from benchmarks.bench_suggest import stand_in_catalog

    catalog = load_catalog()
    workload = make_workload(find_preset(WORKLOAD))
    request = SuggestRequest(budget_usd=20_000.0, max_gpus=8, circuit="us-120v-20a")
    figures: Figures = {"workload": workload.name, "budget_usd": request.budget_usd}
    for label, searched in (
        ("bundled_catalog", catalog),
        ("every_part_priced_stand_ins", stand_in_catalog(catalog)),
    ):
        suggest(workload, request, searched)  # warm-up: lazy imports, preset caches
        walls: list[float] = []
        for _ in range(runs):
            started = time.perf_counter()
            result = suggest(workload, request, searched)
            walls.append(time.perf_counter() - started)
        wall = statistics.median(walls)
        figures[label] = {
            "median_wall_s": round(wall, 4),
            "considered": result.considered,
            "evaluated": result.evaluated,
            "evaluated_per_s": round(result.evaluated / wall),
            "considered_per_s": round(result.considered / wall),
        }
    return figures


def bench_open_comparison(runs: int) -> Figures:
    """Parse a 64-build file, and open it in the window's document view-model (which
    analyses every build before it replaces the session), counting the analyses."""
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from gui.viewmodels.root import build_view_models

    app = QApplication.instance() or QApplication([])
    catalog = load_catalog()
    build = default_build(catalog)
    builds = tuple(
        build.model_copy(update={"name": f"Build {i + 1}"}) for i in range(COMPARISON_BUILDS)
    )
    session = Session(builds=builds, workload=make_workload(find_preset(WORKLOAD)), title="Large")
    with tempfile.TemporaryDirectory(prefix="rigforge-bench-") as folder:
        path = Path(folder) / "large-comparison.json"
        save_file(path, session)
        open_file(path, catalog)  # warm-up
        parse_times, open_times, analyses = [], [], []
        for _ in range(runs):
            started = time.perf_counter()
            opened = open_file(path, catalog)
            parse_times.append(time.perf_counter() - started)
            store = QSettings(str(Path(folder) / "s.ini"), QSettings.Format.IniFormat)
            vms = build_view_models(
                catalog,
                load_cloud_rates().rates,
                store=store,
                settings_path=Path(folder) / "settings.json",
                autosave_dir=Path(folder) / "autosave",
            )
            before = vms.cache.computed
            started = time.perf_counter()
            problem = vms.document.open_path(path)
            open_times.append(time.perf_counter() - started)
            analyses.append(vms.cache.computed - before)
            if problem is not None:
                raise RuntimeError(problem)
            app.processEvents()
        if len(opened.session.builds) != COMPARISON_BUILDS:
            raise RuntimeError(f"opened {len(opened.session.builds)} builds")
        size = path.stat().st_size
    return {
        "parse_median_ms": round(statistics.median(parse_times) * 1e3, 2),
        "open_in_window_median_ms": round(statistics.median(open_times) * 1e3, 2),
        "analyses_per_open": sorted(set(analyses)),
        "builds": COMPARISON_BUILDS,
        "file_bytes": size,
        "runs": runs,
    }


def _module_measure(name: str, what: str) -> Callable[[int], Figures]:
    """``benchmarks.<name>.measure`` (called with the run count when it takes one)."""

    def run(runs: int) -> Figures:
        try:
            module = importlib.import_module(f"benchmarks.{name}")
        except ModuleNotFoundError as error:
            if error.name != f"benchmarks.{name}":
                raise
            raise Missing(f"{what}: benchmarks/{name}.py does not exist yet") from None
        measure = getattr(module, "measure", None)
        if measure is None:
            raise Missing(f"{what}: benchmarks/{name}.py has no measure() function")
        takes_runs = bool(inspect.signature(measure).parameters)
        figures: Figures = measure(runs) if takes_runs else measure()
        return figures

    return run


PIECES: dict[str, Callable[[int], Figures]] = {
    "cold_start_first_paint": _module_measure("bench_startup", "cold start"),
    "analysis": bench_analysis,
    "predict_one_answer": _module_measure("bench_predict", "rigforge predict, one answer"),
    "edit_to_repaint": _module_measure("bench_gui", "GUI edit-to-repaint"),
    "suggest_whole_catalog": bench_suggest_figures,
    "pdf_export_one_build": _module_measure("bench_pdf", "PDF export (not yet available)"),
    "open_large_comparison": bench_open_comparison,
    "hostile_inputs": _module_measure("bench_hostile", "adversarial boards and files"),
    "validate_rows_per_s": _module_measure("bench_validate", "validate on long files"),
}


def run_all(runs: int) -> dict[str, Any]:
    report: dict[str, Any] = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": machine(),
        "figures": {},
        "missing": {},
    }
    for name, piece in PIECES.items():
        try:
            report["figures"][name] = piece(runs)
        except Missing as reason:
            report["figures"][name] = None
            report["missing"][name] = str(reason)
        except Exception as error:  # a broken piece must not hide the others' figures
            report["figures"][name] = None
            report["missing"][name] = f"failed: {type(error).__name__}: {error}"
    report["load_average_1min_at_end"] = round(os.getloadavg()[0], 2)
    return report


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one run per figure (smoke test)")
    options = parser.parse_args()
    report = run_all(1 if options.quick else 5)
    print(json.dumps(report, indent=2, ensure_ascii=False))
    failed = [name for name, why in report["missing"].items() if why.startswith("failed")]
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
