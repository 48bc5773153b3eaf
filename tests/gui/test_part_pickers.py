"""Part pickers that know the build: fitting parts first, misfits greyed with the reason,
and a sortable, searchable table of the specs that matter for the category."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog
from pytestqt.qtbot import QtBot

from gui.views.main_window import MainWindow
from gui.views.part_picker import ID_ROLE, SORT_ROLE, PartPicker, PartPickerDialog
from tests.core.am5 import two_4090_am5
from tests.gui.conftest import WindowFactory, put_build


@pytest.fixture
def window(make_window: WindowFactory) -> MainWindow:
    """The window on two RTX 4090s on a Ryzen 9 7950X (AM5) board."""
    win = make_window()
    put_build(win, two_4090_am5(win.session_view_model.catalog))
    win.session_view_model.undo_stack.clear()
    return win


def row_ids(dialog: PartPickerDialog) -> list[str]:
    """Part ids in the order the dialog's table shows them."""
    proxy = dialog.proxy
    return [str(proxy.index(r, 0).data(ID_ROLE)) for r in range(proxy.rowCount())]


def sort_by(dialog: PartPickerDialog, title: str, order: Qt.SortOrder) -> None:
    """Sort as a click on the column's header does."""
    dialog.table.sortByColumn(dialog.column(title), order)


def _entries(picker: PartPicker) -> list[tuple[str, bool]]:
    """(part id, selectable) of every combo entry, the separator as ("", False), as the
    user sees them on opening the list."""
    combo = picker.combo
    picker.flush()
    return [(str(combo.itemData(i) or ""), picker.selectable(i)) for i in range(combo.count())]


def test_board_picker_lists_same_socket_boards_first_and_greys_the_others(
    window: MainWindow,
) -> None:
    vm = window.session_view_model
    assert vm.build.cpu.socket == "AM5"
    picker = window.build_editor.pickers["motherboard"]
    boards = {p.id: p for p in vm.parts("motherboard")}
    entries = _entries(picker)
    separator = entries.index(("", False))
    fitting, misfits = entries[:separator], entries[separator + 1 :]
    assert fitting and misfits
    assert all(selectable for _id, selectable in fitting)
    assert not any(selectable for _id, selectable in misfits)
    assert all(boards[i].socket == "AM5" for i, _ in fitting)  # type: ignore[attr-defined]
    assert vm.build.motherboard.id in dict(fitting)
    # every other-socket board is after the separator, disabled, and says why
    other = "asus-rog-maximus-z790-formula"
    assert other in dict(misfits)
    assert all(i in dict(misfits) for i, b in boards.items() if b.socket != "AM5")  # type: ignore[attr-defined]
    reason = picker.reason(other)
    assert reason is not None and "LGA1700" in reason and "AM5" in reason
    index = picker.combo.findData(other)
    tip = str(picker.combo.itemData(index, Qt.ItemDataRole.ToolTipRole))
    assert "LGA1700" in tip and "AM5" in tip and tip.startswith("<p")  # a plain.tip
    # the combo does not take it: the build keeps its board
    before = vm.build
    picker.combo.activated.emit(index)
    assert vm.build == before
    assert picker.current_id() == before.motherboard.id


def test_pickers_follow_the_build(window: MainWindow) -> None:
    vm = window.session_view_model
    boards = window.build_editor.pickers["motherboard"]
    cpus = window.build_editor.pickers["cpu"]
    assert cpus.reason("i9-13900k") == "socket LGA1700, the board has AM5"
    cpus.choose("i9-13900k")  # on purpose, as from the table: the board now misfits
    assert vm.build.cpu.id == "i9-13900k"
    assert boards.reason(vm.build.motherboard.id) == "socket AM5, the CPU needs LGA1700"
    assert boards.reason("asus-rog-maximus-z790-formula") is None
    first = _entries(boards)[0][0]
    assert {p.id: p for p in vm.parts("motherboard")}[first].socket == "LGA1700"  # type: ignore[attr-defined]
    window.undo_action.trigger()
    assert boards.reason("asus-rog-maximus-z790-formula") == "socket LGA1700, the CPU needs AM5"


@pytest.mark.qt_log_ignore("grabbing the keyboard")  # the offscreen platform's note on a popup
def test_an_edit_refills_the_lists_after_the_paint_and_an_opened_list_is_current(
    window: MainWindow, qtbot: QtBot
) -> None:
    """After a CPU change the board list is refilled a moment later (so the edit paints
    first); opening the list before then refills it at once."""
    from gui.views.part_picker import REFRESH_DELAY_MS

    boards = window.build_editor.pickers["motherboard"]
    z790 = "asus-rog-maximus-z790-formula"
    assert boards.reason(z790) == "socket LGA1700, the CPU needs AM5"
    window.build_editor.pickers["cpu"].choose("i9-13900k")
    index = boards.combo.findData(z790)
    model = boards.combo.model()
    # not yet refilled: the LGA1700 board is still greyed
    assert not model.flags(model.index(index, 0)) & Qt.ItemFlag.ItemIsEnabled
    boards.combo.showPopup()  # what a click on the list does
    boards.combo.hidePopup()
    index = boards.combo.findData(z790)
    assert model.flags(model.index(index, 0)) & Qt.ItemFlag.ItemIsEnabled
    # and without opening it, the refill comes on its own
    window.undo_action.trigger()
    assert boards._refresh.isActive() and boards._refresh.interval() == REFRESH_DELAY_MS
    qtbot.wait(REFRESH_DELAY_MS + 200)
    index = boards.combo.findData(z790)
    assert not model.flags(model.index(index, 0)) & Qt.ItemFlag.ItemIsEnabled


def _gpu_dialog(window: MainWindow) -> PartPickerDialog:
    dialog = window.build_editor.pickers["gpu"].make_dialog()
    return dialog


def test_gpu_table_sorts_numerically_with_unknowns_last(window: MainWindow) -> None:
    dialog = _gpu_dialog(window)
    titles = [t for t, _tip in dialog.columns]
    for title in ("VRAM", "Bandwidth", "16-bit TFLOPS", "Power", "Slots", "Price"):
        assert title in titles
    assert "$/GB VRAM" in titles and "$/TFLOPS" in titles and titles[-1] == "Fit"
    rows = range(dialog.table.rowCount())
    fits = [r for r in rows if not dialog.greyed(r)]
    assert fits == list(range(len(fits)))  # parts that fit come first

    sort_by(dialog, "VRAM", Qt.SortOrder.DescendingOrder)
    vram = dialog.column("VRAM")
    keys = [dialog.proxy.index(r, vram).data(SORT_ROLE) for r in rows]
    fitting = [k for r, k in zip(rows, keys, strict=True) if not dialog.greyed(r)]
    greyed = [k for r, k in zip(rows, keys, strict=True) if dialog.greyed(r)]
    assert fitting == sorted(fitting, reverse=True) and greyed == sorted(greyed, reverse=True)
    assert dialog.cell(0, "VRAM") == "141 GB"  # as text "96 GB" would come first
    assert [dialog.cell(r, "VRAM") for r in rows].index("96 GB") > 0
    assert all(dialog.greyed(r) for r in rows[len(fitting) :])  # misfits stay below

    # an unpriced card shows "unknown" and sorts after every priced card, either way
    unpriced = "mi210"
    for order in (Qt.SortOrder.AscendingOrder, Qt.SortOrder.DescendingOrder):
        sort_by(dialog, "Price", order)
        ids = row_ids(dialog)
        row = ids.index(unpriced)
        assert dialog.cell(row, "Price") == "unknown"
        assert dialog.cell(row, "$/GB VRAM") == "unknown"  # derived from an unknown
        priced = [r for r in rows if not dialog.greyed(r) and dialog.cell(r, "Price") != "unknown"]
        assert priced and max(priced) < row
        prices = [dialog.proxy.index(r, dialog.column("Price")).data(SORT_ROLE) for r in priced]
        assert prices == sorted(prices, reverse=order == Qt.SortOrder.DescendingOrder)

    # derived columns: price per GB of VRAM and per 16-bit TFLOPS
    row = row_ids(dialog).index("rtx-4090")
    # the catalog's newest RTX 4090 price: $3,395 (Newegg, 2026-03-06)
    assert dialog.cell(row, "$/GB VRAM") == "$141"  # $3,395 / 24 GB = $141.46
    assert dialog.cell(row, "$/TFLOPS") == "$20.55"  # $3,395 / 165.2 TFLOPS
    # greyed rows name their reason
    module = row_ids(dialog).index("h100-sxm5-80gb")
    assert dialog.greyed(module) and "baseboard" in dialog.cell(module, "Fit")


def test_search_filters_and_the_table_chooses(
    window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    dialog = _gpu_dialog(window)
    everything = dialog.table.rowCount()
    dialog.search.setText("3090")
    ids = row_ids(dialog)
    assert set(ids) == {"rtx-3090", "rtx-3090-ti"}
    assert dialog.table.rowCount() == 2 < everything
    dialog.search.clear()
    assert dialog.table.rowCount() == everything

    def pick_3090_ti(shown: PartPickerDialog) -> QDialog.DialogCode:
        shown.search.setText("3090 ti")
        shown.table.selectRow(0)
        shown.accept()
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(PartPickerDialog, "exec", pick_3090_ti)
    window.build_editor.pickers["gpu"].filter_button.click()
    assert window.session_view_model.build.gpu.id == "rtx-3090-ti"


def test_psu_table_shows_cable_counts(window: MainWindow) -> None:
    dialog = window.build_editor.pickers["psu"].make_dialog()
    ids = row_ids(dialog)
    hx = ids.index("corsair-hx1500i-2025")  # two 12V-2x6 leads listed
    assert dialog.cell(hx, "12V-2x6") == "2" and dialog.cell(hx, "ATX") == "3.1"
    assert dialog.cell(hx, "Watts") == "1,500 W"
    unlisted = ids.index("corsair-rm1000x-shift")  # no source lists its cables
    assert dialog.cell(unlisted, "12V-2x6") == "unknown"
    small = ids.index("corsair-rm550x-2021")
    assert dialog.greyed(small) and "550 W" in dialog.cell(small, "Fit")


def test_a_keypress_right_after_an_edit_picks_the_entry_it_lands_on(window: MainWindow) -> None:
    """Down in the board box within the refill's 40 ms: the list is refilled first, so the
    board the build gets is the one the box then shows (not the entry that used to sit at
    that row before the refill reordered the list)."""
    from PySide6.QtTest import QTest

    vm = window.session_view_model
    boards = window.build_editor.pickers["motherboard"]
    window.build_editor.pickers["cpu"].choose("i9-13900k")
    assert boards._pending is not None  # the refill is still to come
    boards.combo.setFocus()
    QTest.keyClick(boards.combo, Qt.Key.Key_Down)
    assert boards._pending is None
    assert vm.build.motherboard.id == boards.combo.currentData()
