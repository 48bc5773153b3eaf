"""The window opens offscreen on the bundled default build and shows its parts."""

from pytestqt.qtbot import QtBot

from core.catalog import load_catalog
from core.catalog.builds import default_build
from gui.app import create_main_window


def test_window_shows_default_build_parts_and_prices(qtbot: QtBot) -> None:
    window = create_main_window()
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    build = default_build(load_catalog())
    table = window.parts_panel.table
    shown = {table.item(r, 1).text(): table.item(r, 0).text() for r in range(table.rowCount())}
    assert shown[build.gpu.name] == "2"
    for part in (build.cpu, build.motherboard, build.memory, build.drives[0].drive):
        assert part.name in shown
    assert build.gpu.name == "GeForce RTX 4090" or "4090" in build.gpu.name
    total = window.parts_panel.total_label.text()
    assert total.startswith("Parts total: $")
    # the total equals the sum of the line totals shown
    line_totals = [table.item(r, 4).text() for r in range(table.rowCount())]
    known = [float(t.strip("$").replace(",", "")) for t in line_totals if t.startswith("$")]
    assert f"${sum(known):,.0f}" in total
