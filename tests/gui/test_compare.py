"""The Compare tab: several builds side by side, the scatter with its Pareto front, edits."""

from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QTableWidget
from pytestqt.qtbot import QtBot

from core.calc.suggest.rank import pareto_indices
from gui.charts.export_menu import export_chart
from gui.views.main_window import MainWindow
from gui.views.workspace_tabs import BUILD_TAB, COMPARE_TAB
from tests.gui.conftest import WindowFactory

EXAMPLE = Path(__file__).parents[2] / "resources" / "examples" / "three-way-comparison.json"


@pytest.fixture
def window(make_window: WindowFactory, every_part_priced: dict[str, float]) -> MainWindow:
    window = make_window()
    assert window.document.open_path(EXAMPLE) is None
    window.workspace.setCurrentIndex(COMPARE_TAB)  # the comparison follows edits while shown
    return window


def test_three_builds_fill_table_and_scatter(window: MainWindow) -> None:
    panel = window.workspace.compare_panel
    names = [b.name for b in window.session_view_model.session.builds]
    assert len(names) == 3
    table = panel.table
    assert table.columnCount() == 3
    headers = [table.horizontalHeaderItem(c).text().split("\n")[0] for c in range(3)]
    assert headers == names
    assert table.rowCount() >= 10
    assert len(panel.charts.scatter.points.points()) == 3
    assert [p.label for p in panel.charts.scatter.shown_points] == names
    assert panel.builds.list.count() == 3
    assert len(panel.charts.cost_bars.shown) == 3


def test_pareto_front_matches_core(window: MainWindow) -> None:
    state = window.workspace.comparison.state
    cost = np.array([a.cost.parts.total_usd for a in state.analyses])
    thr = np.array([a.throughput.total_throughput for a in state.analyses])
    # a build that fails a check cannot be built as it is: never on the front
    buildable = [i for i, a in enumerate(state.analyses) if a.verdict != "fail"]
    expected = [buildable[k] for k in pareto_indices(cost[buildable], thr[buildable])]
    assert list(state.front) == expected
    chart = window.workspace.compare_panel.charts.scatter
    xs, ys = chart.front_curve.getData()
    assert list(xs) == sorted(cost[list(state.front)])
    assert set(ys) == set(thr[list(state.front)])
    # the best cost row is highlighted on the cheapest buildable build
    best = best_columns(window.workspace.compare_panel.table, "cost")
    assert best == {min(buildable, key=lambda i: cost[i])}


def best_columns(table: QTableWidget, key: str) -> set[int]:
    """Columns shown in bold (the best) in the row ``key``."""
    for r in range(table.rowCount()):
        item = table.item(r, 0)
        if item is not None and item.data(Qt.ItemDataRole.UserRole) == key:
            cells = [(c, table.item(r, c)) for c in range(table.columnCount())]
            return {c for c, cell in cells if cell is not None and cell.font().bold()}
    return set()


def test_editing_a_build_updates_its_row_and_point(window: MainWindow) -> None:
    comparison = window.workspace.comparison
    panel = window.workspace.compare_panel
    comparison.select(2)
    assert window.session_view_model.build == window.session_view_model.session.builds[2]
    before = comparison.state.analyses[2].throughput.total_throughput
    others = comparison.state.analyses[:2]
    count = window.session_view_model.build.gpu_count
    assert window.session_view_model.set_value("gpu_count", count - 1) is None
    state = comparison.state
    after = state.analyses[2].throughput.total_throughput
    assert after < before
    assert state.analyses[:2] == others
    row = next(
        r for r in range(panel.table.rowCount()) if panel.table.item(r, 0).data(256) == "gpus"
    )
    assert panel.table.item(row, 2).text().startswith(f"{count - 1} ×")
    points = panel.charts.scatter.shown_points
    assert points[2].throughput == pytest.approx(after)


def test_hidden_comparison_catches_up_when_shown(window: MainWindow) -> None:
    comparison = window.workspace.comparison
    comparison.select(1)
    before = comparison.state.analyses[1].build.gpu_count
    window.workspace.setCurrentIndex(BUILD_TAB)
    assert window.session_view_model.set_value("gpu_count", before + 1) is None
    # While the Build tab shows, an edit costs one analysis: the comparison waits.
    assert comparison.state.analyses[1].build.gpu_count == before
    window.workspace.setCurrentIndex(COMPARE_TAB)
    assert comparison.state.analyses[1].build.gpu_count == before + 1


def test_duplicate_remove_and_save_keep_all_builds(window: MainWindow, tmp_path: Path) -> None:
    comparison = window.workspace.comparison
    index = comparison.duplicate(0)
    assert index == 1 and len(window.session_view_model.session.builds) == 4
    assert window.session_view_model.session.builds[1].name.endswith("(copy)")
    assert window.session_view_model.build == window.session_view_model.session.builds[1]
    assert window.workspace.compare_panel.table.columnCount() == 4
    assert comparison.remove(3) is None
    assert len(window.session_view_model.session.builds) == 3
    assert window.document.save_as(tmp_path / "out.json") is None
    assert window.document.open_path(tmp_path / "out.json") is None
    assert len(window.session_view_model.session.builds) == 3
    assert window.session_view_model.session.builds[1].name.endswith("(copy)")


def test_workload_change_re_evaluates_every_build(window: MainWindow) -> None:
    comparison = window.workspace.comparison
    before = [a.throughput.total_throughput for a in comparison.state.analyses]
    vm = window.session_view_model
    assert vm.workload is not None
    assert vm.edit_workload("batch", {"batch_size": vm.workload.batch_size // 2}) is None
    after = [a.throughput.total_throughput for a in comparison.state.analyses]
    assert all(a != b for a, b in zip(after, before, strict=True))
    assert all(a.workload == vm.workload for a in comparison.state.analyses)


def test_charts_save_as_png_and_svg(window: MainWindow, tmp_path: Path) -> None:
    charts = window.workspace.compare_panel.charts
    png = export_chart(charts.cost_bars, tmp_path / "bars.png")
    svg = export_chart(charts.scatter, tmp_path / "scatter.svg")
    assert png.read_bytes()[:4] == b"\x89PNG"
    assert "<svg" in svg.read_text()


def test_compare_shows_throughput_as_the_cards_do(window: MainWindow) -> None:
    """Whole units from 100 up, as on the Build tab's card ("2,400 images/s"), not
    "2,400.0"."""
    from core.text.compare import compare_rows

    assert window.document.open_path(EXAMPLE) is None
    window.workspace.setCurrentIndex(COMPARE_TAB)
    analyses = window.workspace.comparison.state.analyses
    [row] = [r for r in compare_rows(analyses) if r.key == "throughput"]
    for text, analysis in zip(row.texts, analyses, strict=True):
        assert analysis.throughput is not None
        value = analysis.throughput.total_throughput
        assert text == (f"{value:,.0f}" if value >= 100 else f"{value:,.1f}")


def test_scatter_labels_cover_no_other_marker_and_no_label(qtbot: QtBot) -> None:
    """Three builds close together on a small chart (1280x720's Compare grid): each shown
    label sits beside its own point, never over another build's marker or label; a label
    with no free place is left out (the table names every build)."""
    from PySide6.QtCore import QPointF, QRectF

    from gui.charts.compare_scatter import CompareScatterChart, ScatterPoint

    chart = CompareScatterChart()
    qtbot.addWidget(chart)
    chart.resize(560, 230)
    chart.show()
    qtbot.waitExposed(chart)
    points = (
        ScatterPoint("2x RTX 4090 (consumer)", 5289, 2400),
        ScatterPoint("2x RTX 3090 (used)", 4576, 2249),
        ScatterPoint("2x RTX 6000 Ada (workstation)", 19527, 3213),
    )
    chart.set_points(points, (0, 1, 2), "images/s")
    view = chart.getPlotItem().getViewBox()
    centres = [view.mapViewToScene(QPointF(p.cost_usd, p.throughput)) for p in points]
    markers = [QRectF(c.x() - 6, c.y() - 6, 12, 12) for c in centres]
    shown = [
        (i, label.mapRectToScene(label.boundingRect()))
        for i, label in enumerate(chart.labels[: len(points)])
        if label.isVisible()
    ]
    assert shown
    for i, rect in shown:
        assert not any(rect.intersects(m) for j, m in enumerate(markers) if j != i)
        assert not any(rect.intersects(r) for j, r in shown if j != i)


def test_renaming_refuses_a_blank_or_taken_name_in_words(window: MainWindow) -> None:
    """Compare tells builds apart by name: a second build may not take the first's name,
    and a blank name is refused in words (was "Name: String should have at least 1
    character")."""
    vm = window.view_models.comparison
    window.session_view_model.add_build()
    first = window.session_view_model.session.builds[0].name
    assert vm.rename(1, first) == f"another build is already named {first!r}"
    assert vm.rename(1, "   ") == "a build needs a name"
    assert window.session_view_model.session.builds[1].name != first
    assert vm.rename(1, "Quiet build") is None
    assert window.session_view_model.session.builds[1].name == "Quiet build"


LOCAL_LLM = Path(__file__).parents[2] / "resources" / "examples" / "local-llm-2026.json"


def test_a_systems_details_show_its_plan_checks_and_launch_command(
    make_window: WindowFactory, qtbot: QtBot
) -> None:
    """Double-clicking a prebuilt system in Compare opens its whole serving plan as plain
    text (the same lines as `predict --system`), its verdict and checks, and the engine
    command line with a Copy button."""
    window = make_window()
    assert window.document.open_path(LOCAL_LLM) is None
    window.workspace.setCurrentIndex(COMPARE_TAB)
    panel = window.workspace.compare_panel
    assert panel.system_details_button.isEnabled()
    dialog = panel.open_system_details(0)
    qtbot.addWidget(dialog)
    text = dialog.text.toPlainText()
    assert dialog.windowTitle().startswith("NVIDIA DGX Spark")
    assert "Verdict: Works" in text and "PASS system.memory" in text
    assert "Generation:" in text and "Engine constants:" in text
    assert dialog.launch.text().startswith("llama-server")
    dialog.copy.click()
    from PySide6.QtGui import QGuiApplication

    assert QGuiApplication.clipboard().text().startswith("llama-server")
