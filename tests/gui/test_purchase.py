"""What purchasing needs: a PCPartPicker list becomes a build, each part says where it is
bought, the order has tax and shipping, and the sheet follows Settings and the build's
name."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from gui.views.main_window import MainWindow
from gui.views.parts_panel import QUOTE_COLUMN, VENDOR_COLUMN

DATA = Path(__file__).parents[1] / "core" / "files" / "data"


def test_a_pcpartpicker_list_is_added_as_a_build(window: MainWindow, qtbot: QtBot) -> None:
    before = len(window.session_view_model.session.builds)
    assert window.file_actions.import_path(DATA / "pcpartpicker-default-build.md")
    session = window.session_view_model.session
    assert len(session.builds) == before + 1 and session.shown == before
    build = session.build
    assert (build.gpu.id, build.gpu_count) == ("rtx-4090", 2)
    box = window.file_actions.message_box
    assert box is not None and "Left out: Noctua NH-U14S TR5-SP6" in box.text()
    window.session_view_model.undo_stack.undo()  # one step takes it back out
    assert len(window.session_view_model.session.builds) == before


def test_pasting_a_list_from_the_clipboard(window: MainWindow) -> None:
    QApplication.clipboard().setText((DATA / "pcpartpicker-uk.txt").read_text())
    window.parts_panel.paste_button.click()
    assert window.session_view_model.build.gpu.id == "rtx-5090"
    QApplication.clipboard().setText("")
    window.parts_panel.paste_button.click()  # nothing to paste: said in the status bar
    assert "clipboard holds no text" in window.statusBar().currentMessage()


def test_vendor_quote_tax_and_shipping_are_kept_in_the_build(window: MainWindow) -> None:
    panel = window.parts_panel
    gpu_row = next(
        r for r in range(panel.table.rowCount()) if panel.table.item(r, 1).text().endswith("4090")
    )
    panel.table.item(gpu_row, VENDOR_COLUMN).setText("Micro Center")
    panel.table.item(gpu_row, QUOTE_COLUMN).setText("Q-2026-1187")
    build = window.session_view_model.build
    quote = build.quote(build.gpu.id)
    assert quote is not None and (quote.vendor, quote.reference) == ("Micro Center", "Q-2026-1187")
    panel.tax.setValue(8.25)
    panel.shipping.setValue(60.0)
    build = window.session_view_model.build
    assert (build.tax_pct, build.shipping_usd) == (8.25, 60.0)
    panel.tax.setValue(panel.tax.minimum())  # back to "tax not stated"
    assert window.session_view_model.build.tax_pct is None


def test_a_name_rigforge_gave_follows_the_gpus(window: MainWindow) -> None:
    vm = window.session_view_model
    assert vm.build.name == "2× GeForce RTX 4090 workstation"
    vm.set_value("gpu_count", 1)
    assert vm.build.name == "1× GeForce RTX 4090 workstation"
    vm.edit_build("Rename", {"name": "Lab box"})
    vm.set_value("gpu_count", 2)
    assert vm.build.name == "Lab box"  # a name the user gave stays


def test_the_sheet_follows_settings_paper_and_preparer(window: MainWindow) -> None:
    settings = window.view_models.settings
    assert window.export_actions.default_paper() == "letter"  # a US 120 V circuit
    settings.set_settings(
        settings.settings.model_copy(update={"paper": "a4", "preparer": "J. Doe"})
    )
    assert window.export_actions.default_paper() == "a4"
    assert window.export_actions.sheet().author == "J. Doe"
