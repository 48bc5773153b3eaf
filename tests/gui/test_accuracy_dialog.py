"""Help → How accurate is RigForge?: the validation figures and predicted vs measured."""

from __future__ import annotations

import json
from importlib import resources

from core.workloads import find_preset
from gui.views.main_window import MainWindow
from gui.views.plain import tip


def test_accuracy_page_shows_every_workload_and_every_run(window: MainWindow) -> None:
    window.accuracy_action.trigger()
    dialog = window.accuracy_dialog
    assert dialog.isVisible()
    shipped = json.loads(
        resources.files("resources.benchmarks").joinpath("model_errors.json").read_text("utf-8")
    )
    texts = {
        dialog.table.item(r, 0).text(): dialog.table.item(r, 2).text()
        for r in range(dialog.table.rowCount())
    }
    for workload, error in shipped["by_workload"].items():
        # named as the model picker names it ("ResNet-50 v1.5"), never by its id
        assert texts[f"Throughput: {find_preset(workload).name}"] == f"{error:.1f} %"
    assert "Throughput: bert-base-squad" not in texts
    assert any(k.startswith("LLM generation") for k in texts)
    assert len(dialog.points) == shipped["rows"] == 1673  # one point per published run
    dialog.close()


def test_accuracy_rows_show_their_names_whole(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    """Long names wrap in the narrow "What" column: once the dialog is laid out, every row
    is as tall as its wrapped text (one line of "LLM first token (vLLM)" was cut to
    "LLM first token …"), and each cell's tooltip holds its whole text."""
    window.accuracy_action.trigger()
    dialog = window.accuracy_dialog
    table = dialog.table
    qtbot.waitUntil(lambda: all(
        table.rowHeight(r) >= table.sizeHintForRow(r) for r in range(table.rowCount())
    ))  # fmt: skip
    names = [table.item(r, 0) for r in range(table.rowCount())]
    assert all(item.toolTip() == tip(item.text()) for item in names)
    vllm = next(r for r, item in enumerate(names) if item.text() == "LLM first token (vLLM)")
    assert table.rowHeight(vllm) > table.fontMetrics().height() * 1.5  # two lines
    dialog.close()
