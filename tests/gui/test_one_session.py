"""Opening a file replaces the session in one step: each build is analysed once, the
window is told once, and never about a mix of the new build and the old workload."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

import gui.viewmodels.analysis_cache as cache_module
from core.files.io import parse_document
from core.models.analysis import Analysis
from core.workloads import find_preset, make_workload
from gui.views.main_window import MainWindow
from gui.views.parts_panel import COLUMNS, PRICE_COLUMN
from tests.gui.conftest import WindowFactory, open_in_window, write_overrides

SOURCE_COLUMN = len(COLUMNS) - 1

COMPARISON = resources.files("resources.examples").joinpath("three-way-comparison.json")


def _file_with_workload(tmp_path: Path) -> Path:
    document = json.loads(COMPARISON.read_text("utf-8"))
    workload = make_workload(find_preset("vgg16"), batch_size=64)
    document["workload"] = workload.model_dump(mode="json")
    path = tmp_path / "with-workload.json"
    path.write_text(json.dumps(document), "utf-8")
    return path


def test_open_analyses_each_build_once_and_emits_once(
    qtbot: QtBot, window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _file_with_workload(tmp_path)
    expected = parse_document(path.read_bytes(), window.session_view_model.catalog).session
    assert expected.workload is not None
    assert expected.workload != window.session_view_model.workload
    calls: list[object] = []
    real = cache_module.analyze

    def counted(*args: object, **kwargs: object) -> object:
        calls.append(args)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(cache_module, "analyze", counted)
    emitted: list[Analysis] = []
    window.analysis_view_model.analysis_changed.connect(emitted.append)
    assert open_in_window(qtbot, window, path, ask=True)
    assert len(calls) == len(expected.builds)  # 3 builds, 3 analyses
    assert len(emitted) == 1
    assert emitted[0].build == expected.build
    assert emitted[0].workload == expected.workload  # never the old workload


def test_a_64_build_file_runs_one_analysis_per_build(
    qtbot: QtBot, window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    document = json.loads(COMPARISON.read_text("utf-8"))
    builds = [dict(document["builds"][i % 3], name=f"variant {i}") for i in range(64)]
    document["builds"] = builds
    path = tmp_path / "many.json"
    path.write_text(json.dumps(document), "utf-8")
    calls: list[object] = []
    real = cache_module.analyze
    monkeypatch.setattr(cache_module, "analyze", lambda *a, **k: calls.append(a) or real(*a, **k))
    assert open_in_window(qtbot, window, path, ask=True)
    assert len(calls) == 64
    window.workspace.setCurrentIndex(1)  # Compare: every build shown, none analysed again
    assert len(window.workspace.comparison.state.analyses) == 64
    assert len(calls) == 64


def test_user_price_overrides_reach_the_window_and_its_pdf(
    make_window: WindowFactory, tmp_path: Path
) -> None:
    write_overrides({"rtx-4090": 1234.0})
    window = make_window()
    lines = {line.part_id: line for line in window.analysis_view_model.analysis.cost.lines}
    assert lines["rtx-4090"].unit_usd == 1234.0
    assert lines["rtx-4090"].origin == "override"
    table = window.parts_panel.table
    row = next(r for r in range(table.rowCount()) if "4090" in table.item(r, 1).text())
    assert table.item(row, PRICE_COLUMN).text().startswith("$1,234")
    assert "your override" in table.item(row, SOURCE_COLUMN).text()
    pdf = tmp_path / "sheet.pdf"
    assert window.export_actions.export_to(pdf)
    from pypdf import PdfReader

    text = " ".join(" ".join(p.extract_text().split()) for p in PdfReader(pdf).pages)
    assert "$1,234" in text and "$2,468" in text  # unit price and the line for two GPUs
