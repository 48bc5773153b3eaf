"""The main window driven like a user: pick parts, change counts, apply fixes, undo."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from core.text.checks import check_title
from gui.views.main_window import MainWindow
from tests.gui.conftest import card, open_in_window


def test_choosing_a_gpu_updates_throughput_and_cost(window: MainWindow) -> None:
    before = (card(window, "throughput"), card(window, "cost"), card(window, "per_unit"))
    picker = window.build_editor.pickers["gpu"]
    picker.choose("rtx-3090")
    assert window.session_view_model.build.gpu.id == "rtx-3090"
    after = (card(window, "throughput"), card(window, "cost"), card(window, "per_unit"))
    assert all(a != b for a, b in zip(before, after, strict=True))
    assert "images/s" in after[0]
    # the default build with an RTX 3090 is fully priced: a dated total, never "≥"
    assert after[1].startswith("$")
    assert "why" in window.results.cards.cards["throughput"].toolTip().lower() or (
        "=" in window.results.cards.cards["throughput"].toolTip()
    )


def test_changing_gpu_count_updates_scaling_chart(window: MainWindow) -> None:
    chart = window.charts.scaling
    window.build_editor.gpu_count.setValue(4)
    xs, ys = chart.model_curve.getData()
    assert list(xs) == [1.0, 2.0, 3.0, 4.0]
    _ideal_x, ideal_y = chart.ideal_curve.getData()
    assert ideal_y[3] == pytest.approx(4 * ideal_y[0])
    assert ys[3] <= ideal_y[3]
    current_x, _ = chart.current.getData()
    assert list(current_x) == [4.0]


def test_workload_that_does_not_fit_fails_and_fix_makes_it_pass(window: MainWindow) -> None:
    editor = window.workload_editor
    editor.input("batch_size").setValue(4096)
    vm = window.analysis_view_model
    vram = next(c for c in vm.analysis.checks if c.id == "vram.fit")
    assert vram.severity == "fail"
    assert card(window, "vram") == "No"
    panel = window.results.checks
    assert panel.text(0, 0) == "FAIL"
    assert panel.text(0, 1) == "VRAM fit"  # the check in words, its id in the CLI
    assert "GiB" in panel.text(0, 3)  # the fix names its result
    # the worst check is selected and shown in full, with its fix one click away
    assert panel.detail_title.text() == "FAIL VRAM fit"
    assert "GiB" in panel.detail.toPlainText() and panel.apply_button.isEnabled()
    panel.apply_button.click()
    vram = next(c for c in vm.analysis.checks if c.id == "vram.fit")
    assert vram.severity == "pass"
    assert card(window, "vram") == "Yes"
    assert editor.input("batch_size").value() < 4096  # the editor shows the fixed workload


def test_apply_build_fix_and_undo_restores_previous_build(window: MainWindow) -> None:
    vm = window.session_view_model
    window.build_editor.gpu_count.setValue(4)  # four 4090s overload the default PSU
    original = vm.build
    psu_check = next(c for c in window.analysis_view_model.analysis.checks if c.id == "power.psu")
    assert psu_check.severity == "fail"
    assert psu_check.fix is not None and psu_check.fix.build
    assert window.results.checks.apply("power.psu")
    assert vm.build.psu is not None and vm.build.psu.id == psu_check.fix.build["psu"]
    assert window.build_editor.pickers["psu"].current_id() == vm.build.psu.id
    window.undo_action.trigger()
    assert vm.build == original
    assert window.build_editor.pickers["psu"].current_id() == original.psu.id  # type: ignore[union-attr]
    window.redo_action.trigger()
    assert vm.build.psu.id == psu_check.fix.build["psu"]  # type: ignore[union-attr]


def test_size_psu_for_me_and_refused_edit_changes_nothing(window: MainWindow) -> None:
    vm = window.session_view_model
    window.build_editor.pickers["psu"].choose(None)
    assert vm.build.psu is None
    window.build_editor.size_psu_button.click()
    assert vm.build.psu is not None
    before = vm.build
    window.build_editor.power_limit.setValue(10)  # below 20 % of board power: refused
    assert vm.build == before
    assert window.build_editor.power_limit.value() == 320  # the default build's limit, kept
    assert "Not changed" in window.statusBar().currentMessage()


def test_workload_and_settings_are_saved_and_reopened(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    window.workload_editor.preset.setCurrentIndex(window.workload_editor.preset.findData("vgg16"))
    window.workload_editor._on_preset_activated(window.workload_editor.preset.currentIndex())
    window.workload_editor.input("batch_size").setValue(32)
    target = tmp_path / "b.json"
    assert window.file_actions.save_as(target)
    window.workload_editor.input("batch_size").setValue(16)
    assert open_in_window(qtbot, window, target)
    workload = window.session_view_model.workload
    assert workload is not None and workload.preset_id == "vgg16"
    assert workload.batch_size == 32
    assert window.workload_editor.input("batch_size").value() == 32


def test_one_edit_runs_one_analysis_and_one_update(
    window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    import gui.viewmodels.analysis_cache as cache_module

    calls: list[object] = []
    real = cache_module.analyze

    def counted(*args: object, **kwargs: object) -> object:
        calls.append(args)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(cache_module, "analyze", counted)
    emitted: list[object] = []
    window.analysis_view_model.analysis_changed.connect(emitted.append)
    edits = (
        lambda: window.build_editor.gpu_count.setValue(3),
        lambda: window.build_editor.pickers["gpu"].choose("rtx-3090"),
        lambda: window.workload_editor.input("batch_size").setValue(64),
    )
    for edit in edits:
        calls.clear()
        emitted.clear()
        edit()
        assert len(calls) == 1
        assert len(emitted) == 1
    calls.clear()
    emitted.clear()
    window.undo_action.trigger()  # back to a session analysed before: no new analysis
    assert len(calls) == 0
    assert len(emitted) == 1


def test_checks_show_one_line_each_and_the_selected_one_in_full(window: MainWindow) -> None:
    panel = window.results.checks
    table = panel.table
    model = table.model()
    heights = {table.rowHeight(r) for r in range(model.rowCount())}
    assert heights == {panel.row_height}
    assert not table.wordWrap()
    shown = [r for r in range(model.rowCount()) if panel.text(r, 1)]
    assert len(shown) == len(window.analysis_view_model.analysis.checks)
    window.build_editor.gpu_count.setValue(1)  # fewer GPUs, fewer checks: the rest blank
    checks = window.analysis_view_model.analysis.checks
    shown = [r for r in range(model.rowCount()) if panel.text(r, 1)]
    assert shown == list(range(len(checks)))
    # every reason is readable without hovering: select a row, read it whole below
    for row in shown:
        table.selectRow(row)
        check = panel.checks[row]
        assert panel.detail_title.text().endswith(check_title(check.id))
        assert panel.text(row, 2) in panel.detail.toPlainText()
        can = window.analysis_view_model.can_apply(check)
        assert panel.apply_button.isEnabled() == can == panel.can_apply(check.id)


def test_ctrl_z_in_the_field_just_edited_undoes_the_edit(qtbot: QtBot, window: MainWindow) -> None:
    """A spin box commits each step to the document: Ctrl+Z with the focus still in it
    undoes that edit (its own text undo would undo nothing the user sees); Ctrl+Y and
    Ctrl+Shift+Z redo it."""
    window.show()
    qtbot.waitExposed(window)
    window.activateWindow()
    count = window.build_editor.gpu_count
    before = window.session_view_model.build.gpu_count
    count.setFocus()
    qtbot.keyClick(count, Qt.Key.Key_Up)
    assert window.session_view_model.build.gpu_count == before + 1
    qtbot.keyClick(count, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert window.session_view_model.build.gpu_count == before
    assert count.value() == before
    qtbot.keyClick(count, Qt.Key.Key_Y, Qt.KeyboardModifier.ControlModifier)
    assert window.session_view_model.build.gpu_count == before + 1
    window.session_view_model.undo_stack.undo()
    qtbot.keyClick(
        count,
        Qt.Key.Key_Z,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
    )
    assert window.session_view_model.build.gpu_count == before + 1


def test_edits_after_a_pause_are_steps_of_their_own(window: MainWindow) -> None:
    """Spin-box steps in quick succession undo as one, named by the last; an edit of the
    same field a while later is its own step (typing 6, later 3, undoes to 6)."""
    import gui.viewmodels.session as session_module

    vm = window.session_view_model
    count = window.build_editor.gpu_count
    start = vm.build.gpu_count
    count.setValue(start + 1)
    count.setValue(start + 2)
    assert vm.undo_stack.undoText() == f"Set GPU count to {start + 2}"
    window_s = session_module.MERGE_WINDOW_S
    session_module.MERGE_WINDOW_S = -1.0  # as if the next edit came after a pause
    try:
        count.setValue(start + 3)
    finally:
        session_module.MERGE_WINDOW_S = window_s
    vm.undo_stack.undo()
    assert vm.build.gpu_count == start + 2
    vm.undo_stack.undo()
    assert vm.build.gpu_count == start


def test_tab_leaves_the_tables(window: MainWindow) -> None:
    """Tab moves to the next control, not cell by cell through 30 checks (arrows do)."""
    tables = [window.results.checks.table, window.parts_panel.table]
    tables.append(window.workspace.compare_panel.table)
    assert all(not t.tabKeyNavigation() for t in tables)
