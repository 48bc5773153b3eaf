"""The Suggest tab: the optimizer in a worker, cancel, results on the scatter, open as build."""

from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from core.calc.suggest.rank import pareto_indices
from core.catalog import Catalog, load_catalog
from core.prices import PartPrice, apply_prices
from gui.app import create_main_window
from gui.viewmodels.suggest import SuggestViewModel
from gui.views.main_window import MainWindow
from gui.views.suggest_panel import SuggestPanel
from gui.views.workspace_tabs import SUGGEST_TAB

PRICES = {
    "corsair-vengeance-ddr5-5600-2x32gb": 180.0,
    "corsair-hx1500i-2025": 350.0,
    "asus-proart-x870e-creator-wifi": 480.0,
}


def priced_catalog() -> Catalog:
    prices = [
        PartPrice(part_id=k, usd=v, as_of=date(2025, 1, 1), source="test", origin="override")
        for k, v in PRICES.items()
    ]
    return apply_prices(load_catalog(), overrides=prices).catalog


@pytest.fixture
def window(qapp: object, tmp_path: Path) -> Iterator[MainWindow]:
    store = QSettings(str(tmp_path / "store.ini"), QSettings.Format.IniFormat)
    window = create_main_window(
        store=store, autosave_dir=tmp_path / "autosave", settings_path=tmp_path / "s.json"
    )
    window.workspace.setCurrentIndex(SUGGEST_TAB)
    yield window
    # closed here rather than by qtbot, whose teardown would meet the unsaved-changes prompt
    window.document.set_dirty(False)
    window.close()
    window.deleteLater()


def _panel(window: MainWindow, catalog: Catalog | None) -> tuple[SuggestViewModel, SuggestPanel]:
    vm = SuggestViewModel(window.workspace.comparison, catalog)
    return vm, SuggestPanel(vm)


def test_search_can_be_cancelled(qtbot: QtBot, window: MainWindow) -> None:
    vm, panel = _panel(window, priced_catalog())
    qtbot.addWidget(panel)
    with qtbot.waitSignal(vm.running_changed, timeout=60_000, check_params_cb=lambda r: not r):
        panel.search_button.click()
        assert not panel.search_button.isEnabled() and panel.cancel_button.isEnabled()
        panel.cancel_button.click()
    assert vm.result is not None and vm.result.cancelled
    assert vm.result.front == ()
    assert "cancelled" in panel.summary.text()
    assert panel.search_button.isEnabled()


def test_result_on_scatter_and_opened_as_build(qtbot: QtBot, window: MainWindow) -> None:
    vm, panel = _panel(window, priced_catalog())
    qtbot.addWidget(panel)
    panel.budget.setValue(8000)
    with qtbot.waitSignal(vm.result_changed, timeout=120_000):
        panel.search_button.click()
    qtbot.waitUntil(lambda: not vm.running, timeout=10_000)
    result = vm.result
    assert result is not None and result.front and not result.cancelled
    assert panel.table.rowCount() == len(result.front)
    points = panel.chart.shown_points
    assert [(p.cost_usd, p.throughput) for p in points] == [
        (s.cost_usd, s.throughput) for s in result.front
    ]
    import numpy as np

    cost = np.array([p.cost_usd for p in points])
    thr = np.array([p.throughput for p in points])
    assert list(panel.chart.front) == pareto_indices(cost, thr)
    before = len(window.document.builds)
    panel.table.selectRow(len(result.front) - 1)
    assert panel.open_button.isEnabled()
    panel.open_button.click()
    builds = window.document.builds
    assert len(builds) == before + 1
    opened = result.front[-1].build
    assert window.analysis_view_model.build.gpu == opened.gpu
    assert window.analysis_view_model.build.gpu_count == opened.gpu_count
    assert builds[-1].name.startswith("Suggested:")
    assert window.workspace.compare_panel.table.columnCount() == before + 1


def test_bundled_catalog_says_why_nothing_was_evaluated(qtbot: QtBot, window: MainWindow) -> None:
    vm, panel = _panel(window, None)
    qtbot.addWidget(panel)
    with qtbot.waitSignal(vm.result_changed, timeout=120_000):
        panel.search_button.click()
    qtbot.waitUntil(lambda: not vm.running, timeout=10_000)
    text = panel.summary.text()
    assert "evaluated 0" in text
    assert "no price" in text and "rigforge prices set" in text
    assert panel.table.rowCount() == 0
