"""Prices in the window: Edit → Prices…, inline entry, used parts, feed updates.

Unknown is never zero: a part without a price leaves the total unknown, says
"enter one", and the entry typed in the table applies everywhere (window, Compare, the
override file the CLI reads).
"""

from __future__ import annotations

import json
import socket
import time
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytest_httpserver import HTTPServer
from pytestqt.qtbot import QtBot

from core.catalog import load_catalog
from core.files.fetch import FetchLimits
from core.prices.store import user_overrides_path
from gui.main import main as rigforge
from gui.views.main_window import MainWindow
from gui.views.parts_panel import BOUGHT_COLUMN, ENTER_ONE, PRICE_COLUMN
from gui.views.prices_dialog import PRICE_COLUMN as DIALOG_PRICE
from gui.views.prices_dialog import PricesDialog
from gui.views.workspace_tabs import COMPARE_TAB
from tests.gui.conftest import card, put_build
from tests.servers.raw_http import raw_server

CATALOG = load_catalog()
UNPRICED_GPU = "mi210"  # no public list price (sold through server OEMs)


def _with_gpu(win: MainWindow, gpu_id: str, count: int = 1) -> None:
    build = win.session_view_model.build
    put_build(
        win,
        build.model_copy(
            update={
                "gpu": CATALOG.get(gpu_id, "gpu"),
                "gpu_count": count,
                "nvlink_bridges": 0,
                "used": (),
            }
        ),
    )


def _row_of(win: MainWindow, part_id: str) -> int:
    table = win.parts_panel.table
    name = CATALOG.get(part_id).name
    return next(r for r in range(table.rowCount()) if table.item(r, 1).text() == name)


def test_unpriced_part_says_enter_one_and_the_entry_applies_everywhere(
    window: MainWindow, capsys: pytest.CaptureFixture[str]
) -> None:
    assert CATALOG.get(UNPRICED_GPU).price.usd is None
    _with_gpu(window, UNPRICED_GPU)
    assert card(window, "cost") == "unknown: AMD Instinct MI210 has no price — enter one"
    row = _row_of(window, UNPRICED_GPU)
    cell = window.parts_panel.table.item(row, PRICE_COLUMN)
    assert cell.text() == ENTER_ONE and cell.flags() & Qt.ItemFlag.ItemIsEditable
    assert not window.parts_panel.enter_button.isHidden()  # shown with the Parts tab
    cell.setText("4,999")  # what typing into the cell does
    assert window.view_models.prices.catalog.get(UNPRICED_GPU).price.usd == 4999.0
    total = window.analysis_view_model.analysis.cost.parts.total_usd
    assert total is not None and card(window, "cost").startswith("$")
    lines = window.analysis_view_model.analysis.cost.lines
    assert next(x for x in lines if x.part_id == UNPRICED_GPU).origin == "override"
    # The same override file the command line reads.
    assert rigforge(["prices", "show", "--json", "--category", "gpu"]) == 0
    rows = {r["id"]: r for r in json.loads(capsys.readouterr().out)["parts"]}
    assert rows[UNPRICED_GPU]["usd"] == 4999.0 and rows[UNPRICED_GPU]["origin"] == "override"
    assert user_overrides_path().exists()


def test_a_refused_entry_changes_nothing(window: MainWindow) -> None:
    _with_gpu(window, UNPRICED_GPU)
    row = _row_of(window, UNPRICED_GPU)
    window.parts_panel.table.item(row, PRICE_COLUMN).setText("0.001")
    assert window.view_models.prices.catalog.get(UNPRICED_GPU).price.usd is None
    assert window.parts_panel.table.item(row, PRICE_COLUMN).text() == ENTER_ONE
    assert "Not changed" in window.statusBar().currentMessage()
    window.parts_panel.table.item(row, PRICE_COLUMN).setText("a lot")
    assert window.view_models.prices.catalog.get(UNPRICED_GPU).price.usd is None


def test_buying_a_gpu_used_applies_its_dated_used_price(window: MainWindow) -> None:
    _with_gpu(window, "rtx-3090", count=2)
    gpu = CATALOG.get("rtx-3090")
    assert gpu.used_price is not None and gpu.used_price.usd is not None
    row = _row_of(window, "rtx-3090")
    item = window.parts_panel.table.item(row, BOUGHT_COLUMN)
    assert item.flags() & Qt.ItemFlag.ItemIsUserCheckable and item.text() == "new"
    item.setCheckState(Qt.CheckState.Checked)
    assert window.session_view_model.build.used == ("rtx-3090",)
    line = next(
        x for x in window.analysis_view_model.analysis.cost.lines if x.part_id == "rtx-3090"
    )
    assert line.condition == "used" and line.line_usd == pytest.approx(2 * gpu.used_price.usd)
    window.session_view_model.undo_stack.undo()
    assert window.session_view_model.build.used == ()


def test_an_unpriced_build_is_never_best_in_compare(window: MainWindow) -> None:
    vm = window.session_view_model
    vm.add_build()
    _with_gpu(window, UNPRICED_GPU)  # the cheapest-looking build if unknown counted as zero
    unpriced = vm.session.shown
    window.workspace.setCurrentIndex(COMPARE_TAB)  # Compare is computed when shown
    state = window.view_models.comparison.state
    rows = {r.key: r for r in state.rows}
    assert rows["cost"].values[unpriced] is None
    assert rows["cost"].texts[unpriced].startswith("unknown")
    assert unpriced not in rows["cost"].best() and unpriced not in rows["usd_per_unit"].best()
    assert unpriced not in state.front


def test_prices_window_lists_filters_flags_and_edits(window: MainWindow, qtbot: QtBot) -> None:
    dialog = window.open_prices()
    assert isinstance(dialog, PricesDialog) and dialog.isVisible()
    assert dialog.proxy.rowCount() == len(CATALOG)
    dialog.search.setText("RTX 3090")
    assert 1 <= dialog.proxy.rowCount() <= 4
    dialog.search.clear()
    dialog.attention.setChecked(True)
    shown = [dialog.proxy.index(r, 5).data() for r in range(dialog.proxy.rowCount())]
    assert shown and all(s == "no price" or s.endswith("(stale)") for s in shown)
    dialog.attention.setChecked(False)
    # Edit → Prices… opened on a part's price, as the "enter one" links do.
    dialog = window.open_prices(UNPRICED_GPU)
    index = dialog.table.currentIndex()
    assert index.column() == DIALOG_PRICE
    assert dialog.proxy.data(index, Qt.ItemDataRole.UserRole) == UNPRICED_GPU
    assert dialog.proxy.setData(index, "4500")
    assert window.view_models.prices.catalog.get(UNPRICED_GPU).price.usd == 4500.0
    # the edited row stays selected, and your price there can be removed
    assert dialog.selected_part_id() == UNPRICED_GPU
    assert dialog.remove_button.isEnabled()
    dialog.remove_button.click()
    assert window.view_models.prices.catalog.get(UNPRICED_GPU).price.usd is None
    assert not dialog.remove_button.isEnabled()  # no override left on the selected part


def _feed(prices: dict[str, object]) -> dict[str, object]:
    return {
        "format": "rigforge-price-feed",
        "version": 1,
        "published": "2026-11-30",
        "prices": prices,
    }


def test_update_from_feed_in_the_background(
    window: MainWindow, httpserver: HTTPServer, qtbot: QtBot
) -> None:
    entry = {"price": 4100, "as_of": "2026-11-30", "source": "Example Store listing"}
    httpserver.expect_request("/feed.json").respond_with_json(
        _feed({UNPRICED_GPU: entry, "no-such-part": entry, "rtx-4090": {**entry, "price": -5}})
    )
    _with_gpu(window, UNPRICED_GPU)
    dialog = window.open_prices()
    prices = window.view_models.prices
    prices.limits = FetchLimits(timeout_s=5)
    with qtbot.waitSignal(prices.update_finished, timeout=10_000):
        assert prices.start_update(httpserver.url_for("/feed.json"))
        assert dialog.cancel_button.isEnabled() and not dialog.update_button.isEnabled()
    report = dialog.report.text()
    assert "refused" in report and "no-such-part" in report and "rtx-4090" in report
    assert prices.catalog.get(UNPRICED_GPU).price.usd == 4100.0
    assert window.analysis_view_model.analysis.cost.parts.total_usd is not None
    qtbot.waitUntil(lambda: dialog.update_button.isEnabled(), timeout=3000)


def test_cancel_stops_a_silent_feed_within_a_second(window: MainWindow, qtbot: QtBot) -> None:
    def silent(conn: socket.socket) -> None:
        time.sleep(20)

    prices = window.view_models.prices
    prices.limits = FetchLimits(timeout_s=30)
    dialog = window.open_prices()
    with raw_server(silent) as base:
        assert prices.start_update(base + "/feed.json")
        qtbot.waitUntil(lambda: prices.running, timeout=2000)
        started = time.monotonic()
        with qtbot.waitSignal(prices.update_finished, timeout=2000):
            dialog.cancel_button.click()
        assert time.monotonic() - started < 1.5
    assert "cancelled" in dialog.report.text()


def test_a_failed_update_keeps_the_prices(
    window: MainWindow, httpserver: HTTPServer, qtbot: QtBot, tmp_path: Path
) -> None:
    httpserver.expect_request("/feed.json").respond_with_data("<html>", content_type="text/html")
    prices = window.view_models.prices
    before = prices.catalog
    with qtbot.waitSignal(prices.update_finished, timeout=10_000) as signal:
        prices.start_update(httpserver.url_for("/feed.json"))
    assert "text/html" in signal.args[0]
    assert prices.catalog is before


def test_prices_are_listed_by_category_then_name_with_a_dollar_sign(window: MainWindow) -> None:
    """The list opens sorted by category and, within one, by part name A to Z; a known
    price reads as money ("$3,395.00"), an unknown one as "unknown"."""
    dialog = window.open_prices()
    proxy = dialog.proxy
    rows = [(proxy.index(r, 1).data(), proxy.index(r, 0).data()) for r in range(proxy.rowCount())]
    assert rows == sorted(rows, key=lambda r: (r[0], r[1].casefold()))
    prices = [proxy.index(r, 2).data() for r in range(proxy.rowCount())]
    assert all(p == "unknown" or p.startswith("$") for p in prices)
    assert "$3,395.00" in prices  # the RTX 4090 at Newegg, 2026-03-06 (the newest price)


def test_a_price_out_of_range_is_refused_in_words(window: MainWindow) -> None:
    """A negative, zero or absurd price names the part and the allowed range (a price is
    at least one cent and under 10 million dollars: docs/limits.md), not a validator's
    "1 validation error for FeedEntry"."""
    prices = window.view_models.prices
    name = prices.catalog.get("rtx-4090").name
    before = prices.catalog.get("rtx-4090").price.usd
    for amount in (-5.0, 0.0, 1e12):
        message = prices.set_price("rtx-4090", amount)
        assert message is not None
        assert message.startswith(f"{name}: a price must be from 0.01 to 10,000,000 USD")
        assert "validation error" not in message
        assert prices.catalog.get("rtx-4090").price.usd == before


def test_a_new_price_relabels_the_part_pickers(window: MainWindow) -> None:
    """The GPU picker names each card with its price: after an override it shows the
    new one (it kept "$3,395" for the RTX 4090)."""
    picker = window.build_editor.pickers["gpu"]
    assert window.view_models.prices.set_price("rtx-4090", 1299.0) is None
    picker.flush()
    label = picker.combo.itemText(picker.combo.findData("rtx-4090"))
    assert "$1,299" in label and "$3,395" not in label, label


def test_a_build_keeps_its_colour_on_the_scatter(window: MainWindow) -> None:
    """The first build has no total (an unpriced GPU) and is left off the scatter; the
    second keeps its own colour there (the second series colour, as in the cost bars and
    the scaling chart), not the first one's."""
    from gui.charts.base import SERIES_COLOURS

    _with_gpu(window, UNPRICED_GPU)
    window.session_view_model.add_build()
    window.workspace.setCurrentIndex(COMPARE_TAB)
    scatter = window.workspace.compare_panel.charts.scatter
    spots = scatter.points.points()
    assert len(spots) == 1
    assert spots[0].brush().color().name() == SERIES_COLOURS[1]
