"""The window opens offscreen on the bundled default build and shows its parts."""

from core.catalog import load_catalog
from core.catalog.builds import default_build
from gui.views.main_window import MainWindow
from gui.views.parts_panel import PRICE_COLUMN

TOTAL_COLUMN = PRICE_COLUMN + 1


def test_window_shows_default_build_parts_and_prices(window: MainWindow) -> None:
    build = default_build(load_catalog())
    table = window.parts_panel.table
    shown = {table.item(r, 1).text(): table.item(r, 0).text() for r in range(table.rowCount())}
    assert shown[build.gpu.name] == "2"
    for part in (build.cpu, build.motherboard, build.memory, build.drives[0].drive):
        assert part.name in shown
    total = window.parts_panel.total_label.text()
    line_totals = [table.item(r, TOTAL_COLUMN).text() for r in range(table.rowCount())]
    # the bundled default build is fully priced (README): the total is the sum of the
    # line totals shown, each quantity × unit price
    assert all(t.startswith("$") for t in line_totals), line_totals
    known = sum(float(t.strip("$").replace(",", "")) for t in line_totals)
    assert total == f"Parts total: ${known:,.0f}"
    gpu_row = next(r for r in range(table.rowCount()) if table.item(r, 1).text() == build.gpu.name)
    assert table.item(gpu_row, TOTAL_COLUMN).text() == f"${2 * build.gpu.price.usd:,.0f}"
