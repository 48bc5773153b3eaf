"""The Build tab's kind switch in the real window: a prebuilt system replaces the parts
editor, checks and charts with the system, its plan and its launch line, and back."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from gui.views.main_window import PARTS_KIND, SYSTEM_KIND, MainWindow
from tests.gui.conftest import open_in_window

EXAMPLE = Path(__file__).parents[2] / "resources" / "examples" / "local-llm-2026.json"


def _choose(win: MainWindow, kind: int) -> None:
    win.kind.setCurrentIndex(kind)
    win.kind.activated.emit(kind)


def test_switching_the_build_kind_swaps_the_editors_and_results(
    qtbot: QtBot, window: MainWindow
) -> None:
    assert open_in_window(qtbot, window, EXAMPLE)
    assert window.build_editor.isVisible() and not window.system_editor.isVisible()
    _choose(window, SYSTEM_KIND)
    assert window.system_editor.isVisible() and window.system_results.isVisible()
    assert not window.build_editor.isVisible() and not window.results.isVisible()
    assert window.system_results.title.text() == "NVIDIA DGX Spark"
    assert window.system_results.verdict.text().startswith("Works")
    assert window.system_results.launch.text().startswith("llama-server")
    assert not window.add_gpu_action.isEnabled()  # parts edits wait for the parts build
    assert not window.plan_actions.action.isEnabled()
    editor = window.system_editor
    mac = editor.choice.findData("mac-studio-m3-ultra-96gb")
    editor.choice.setCurrentIndex(mac)
    editor.choice.activated.emit(mac)
    assert window.system_results.title.text() == "Apple Mac Studio (M3 Ultra, 96 GB)"
    window.session_view_model.undo_stack.undo()
    assert editor.choice.currentData() == "dgx-spark-128gb"
    _choose(window, PARTS_KIND)
    assert window.build_editor.isVisible() and window.results.isVisible()
    assert not window.system_results.isVisible()
    assert window.add_gpu_action.isEnabled() and window.plan_actions.action.isEnabled()


def test_compare_shows_a_system_in_the_build_tab(qtbot: QtBot, window: MainWindow) -> None:
    """Compare's *Show in Build tab* on the third system (the Mac Studio of the example)
    opens the Build tab on it, as a prebuilt-system build."""
    from gui.views.workspace_tabs import BUILD_TAB, COMPARE_TAB

    assert open_in_window(qtbot, window, EXAMPLE)
    window.workspace.setCurrentIndex(COMPARE_TAB)
    panel = window.workspace.compare_panel
    qtbot.waitUntil(lambda: panel.systems_table.rowCount() == 3, timeout=10_000)
    panel.systems_table.selectRow(2)
    panel.system_build_button.click()
    assert window.workspace.currentIndex() == BUILD_TAB
    assert window.kind.currentIndex() == SYSTEM_KIND and window.system_results.isVisible()
    assert window.system_results.title.text() == "Apple Mac Studio (M3 Ultra, 96 GB)"


def test_a_system_the_catalog_lacks_is_shown_by_its_own_name(
    qtbot: QtBot, window: MainWindow
) -> None:
    assert open_in_window(qtbot, window, EXAMPLE)
    session = window.session_view_model
    plan = session.session.systems[0]
    foreign = plan.system.model_copy(update={"id": "future-box-256gb", "name": "Future Box"})
    renamed = plan.model_copy(update={"system": foreign, "name": "Future Box"})
    edited = session.session.model_copy(update={"systems": (renamed,)})
    assert session.replace("Foreign system", edited) is None
    _choose(window, SYSTEM_KIND)
    assert window.system_editor.choice.currentText() == "Future Box (from the file)"
    assert window.system_results.title.text() == "Future Box"
