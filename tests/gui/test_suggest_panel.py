"""The Suggest tab: the optimizer in a worker, cancel, results on the scatter, open as build."""

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from core.calc.suggest.rank import pareto_indices
from gui.viewmodels.suggest import SuggestViewModel
from gui.views.main_window import MainWindow
from gui.views.suggest_panel import SuggestPanel
from gui.views.workspace_tabs import SUGGEST_TAB
from tests.gui.conftest import WindowFactory, write_overrides

PRICES = {
    "corsair-vengeance-ddr5-5600-2x32gb": 180.0,
    "corsair-hx1500i-2025": 350.0,
    "asus-proart-x870e-creator-wifi": 480.0,
}


@pytest.fixture
def window(make_window: WindowFactory) -> MainWindow:
    write_overrides(PRICES)  # the user's overrides reach the Suggest tab's catalog
    window = make_window()
    window.workspace.setCurrentIndex(SUGGEST_TAB)
    return window


def _panel(window: MainWindow) -> tuple[SuggestViewModel, SuggestPanel]:
    return window.workspace.suggest, window.workspace.suggest_panel


def test_search_can_be_cancelled(qtbot: QtBot, window: MainWindow) -> None:
    vm, panel = _panel(window)
    with qtbot.waitSignal(vm.running_changed, timeout=60_000, check_params_cb=lambda r: not r):
        panel.search_button.click()
        assert not panel.search_button.isEnabled() and panel.cancel_button.isEnabled()
        panel.cancel_button.click()
    assert vm.result is not None and vm.result.cancelled
    assert vm.result.front == ()
    assert "cancelled" in panel.summary.text()
    assert panel.search_button.isEnabled()


def test_result_on_scatter_and_opened_as_build(qtbot: QtBot, window: MainWindow) -> None:
    vm, panel = _panel(window)
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
    # unpriced parts by name, with the window's way to price them (not the CLI's)
    text = panel.summary.text()
    assert "rigforge" not in text
    if result.unpriced_part_ids:
        catalog = window.session_view_model.catalog
        assert "Edit → Prices…" in text
        assert catalog.get(result.unpriced_part_ids[0]).name in text
    # each point is named by its table row, as two builds may share their GPUs
    assert [p.label.split(":")[0] for p in points] == [
        str(panel.table.model().headerData(r, Qt.Orientation.Vertical))
        for r in range(panel.table.rowCount())
    ]
    import numpy as np

    cost = np.array([p.cost_usd for p in points])
    thr = np.array([p.throughput for p in points])
    assert list(panel.chart.front) == pareto_indices(cost, thr)
    before = len(window.session_view_model.session.builds)
    panel.table.selectRow(len(result.front) - 1)
    assert panel.open_button.isEnabled()
    panel.open_button.click()
    builds = window.session_view_model.session.builds
    assert len(builds) == before + 1
    opened = result.front[-1].build
    assert window.session_view_model.build.gpu == opened.gpu
    assert window.session_view_model.build.gpu_count == opened.gpu_count
    assert builds[-1].name.startswith("Suggested:")
    assert window.workspace.compare_panel.table.columnCount() == before + 1


def test_a_budget_nothing_fits_says_why(qtbot: QtBot, window: MainWindow) -> None:
    vm, panel = _panel(window)
    panel.budget.setValue(500)
    with qtbot.waitSignal(vm.result_changed, timeout=120_000):
        panel.search_button.click()
    qtbot.waitUntil(lambda: not vm.running, timeout=10_000)
    assert vm.result is not None and vm.result.front == ()
    assert "over budget" in panel.summary.text()
    assert panel.table.rowCount() == 0


def _search(qtbot: QtBot, vm: SuggestViewModel, panel: SuggestPanel) -> None:
    with qtbot.waitSignal(vm.result_changed, timeout=120_000):
        panel.search_button.click()
    qtbot.waitUntil(lambda: not vm.running, timeout=10_000)


def _serve_llama_70b(window: MainWindow, serving: dict[str, object]) -> None:
    """The window's workload: Llama 3.3 70B served to 4 users, with ``serving``'s fields."""
    session = window.session_view_model
    assert session.set_preset("llama-3.3-70b") is None
    for key, value in {"task": "inference", "serving.streams": 4, **serving}.items():
        assert session.set_field(key, value) is None


def test_every_part_is_shown_and_used_gpus_only_when_included(
    qtbot: QtBot, window: MainWindow
) -> None:
    vm, panel = _panel(window)
    assert not panel.allow_used.isChecked()  # off by default
    headers = [panel.table.horizontalHeaderItem(c).text() for c in range(panel.table.columnCount())]
    for column in ("GPUs", "CPU and board", "Memory", "PSU", "Case", "Drive"):
        assert column in headers
    panel.budget.setValue(3000)
    _search(qtbot, vm, panel)
    assert vm.result is not None and not any(s.build.used for s in vm.result.front)
    panel.allow_used.setChecked(True)
    _search(qtbot, vm, panel)
    assert vm.result is not None
    gpus = headers.index("GPUs")
    psu = headers.index("PSU")
    for row, s in enumerate(vm.result.front):
        assert panel.table.item(row, gpus).text().endswith("(used)") == bool(s.build.used)
        assert panel.table.item(row, psu).text().startswith(f"{s.build.psu_count}× ")


def test_open_as_build_works_for_a_row_after_a_second_search(
    qtbot: QtBot, window: MainWindow
) -> None:
    """After a second search the row selected before stayed selected while the button was
    disabled, so "Open as build" did nothing."""
    vm, panel = _panel(window)
    panel.budget.setValue(6000)
    _search(qtbot, vm, panel)
    panel.table.selectRow(0)
    assert panel.open_button.isEnabled()
    panel.budget.setValue(8000)
    _search(qtbot, vm, panel)
    assert not panel.table.selectionModel().selectedRows()  # a fresh table
    assert not panel.open_button.isEnabled()
    last = panel.table.rowCount() - 1
    panel.table.selectRow(last)
    assert panel.open_button.isEnabled()
    before = len(window.session_view_model.session.builds)
    panel.open_button.click()
    assert len(window.session_view_model.session.builds) == before + 1
    assert vm.result is not None
    assert window.session_view_model.build.gpu.id == vm.result.front[last].build.gpu.id


def test_results_are_dropped_when_the_workload_changes(qtbot: QtBot, window: MainWindow) -> None:
    vm, panel = _panel(window)
    panel.budget.setValue(6000)
    _search(qtbot, vm, panel)
    assert panel.table.rowCount() > 0
    window.session_view_model.edit_workload("Batch 64", {"batch_size": 64})
    assert vm.result is None
    assert panel.table.rowCount() == 0
    assert not panel.open_button.isEnabled()
    assert "search again" in panel.summary.text()


def test_serving_search_lists_the_systems_that_meet_it_once(
    qtbot: QtBot, window: MainWindow
) -> None:
    """Llama 3.3 70B AWQ for 4 users at 15 tokens/s each on vLLM within $12,000: the
    96 GB Mac Studio M3 Ultra ($5,299) holds the 40 GB of weights and its 819 GB/s
    generate fast enough, so the summary lists it, under one heading."""
    _serve_llama_70b(window, {"serving.engine": "vllm", "serving.weights": "awq-int4"})
    vm, panel = _panel(window)
    panel.min_decode.setValue(15)
    panel.budget.setValue(12000)
    _search(qtbot, vm, panel)
    text = panel.summary.text()
    assert text.count("Prebuilt systems that meet the request:") == 1
    assert "Apple Mac Studio (M3 Ultra, 96 GB)" in text


def test_a_build_suggested_with_an_8bit_kv_cache_opens_with_it_undoably(
    qtbot: QtBot, window: MainWindow
) -> None:
    """Llama 3.3 70B Q4_K_M for 4 users at 8k on llama.cpp within $6,000 fits two 24 GB
    cards only with a q8_0 KV cache: the table says so beside the GPUs, and opening the
    build switches the workload's cache to q8_0 (flash attention on), one undo step."""
    session = window.session_view_model
    fields = {"serving.weights": "q4_k_m", "serving.gen_len": 128, "serving.prompt_len": 8064}
    _serve_llama_70b(window, {"serving.engine": "llama.cpp", **fields})
    assert session.workload is not None and session.workload.serving_settings.kv_cache == "f16"
    vm, panel = _panel(window)
    panel.min_decode.setValue(15)
    panel.budget.setValue(6000)
    _search(qtbot, vm, panel)
    assert vm.result is not None and vm.result.front
    rows = [
        row
        for row in range(panel.table.rowCount())
        if "q8_0 KV cache"
        in " ".join(
            panel.table.item(row, c).text()
            for c in range(panel.table.columnCount())
            if panel.table.item(row, c) is not None
        )
    ]
    assert rows
    vm.open_as_build(rows[0])
    serving = session.workload.serving_settings if session.workload else None
    assert serving is not None and serving.kv_cache == "q8_0" and serving.flash_attention
    assert "q8_0 KV cache" in session.undo_stack.undoText()
    session.undo_stack.undo()
    assert session.workload is not None and session.workload.serving_settings.kv_cache == "f16"
