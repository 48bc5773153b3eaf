"""Legends under the charts stack into fewer columns on a narrow chart instead of cutting
their labels off (the charts column is about 390 px wide in a 1280×720 window)."""

from __future__ import annotations

import pytest
from pytestqt.qtbot import QtBot

from gui.charts.compare_scaling import CompareScalingChart, ScalingSeries
from gui.charts.power import PowerChart
from gui.charts.scaling import ScalingChart
from gui.charts.vram import VramChart


@pytest.mark.parametrize("chart_type", [VramChart, PowerChart, ScalingChart, CompareScalingChart])
@pytest.mark.parametrize("width", [260, 390, 700, 1200])
def test_legend_fits_inside_the_chart(qtbot: QtBot, chart_type: type, width: int) -> None:
    chart = chart_type()
    qtbot.addWidget(chart)
    if isinstance(chart, CompareScalingChart):  # its legend names the compared builds
        if width < 300:
            pytest.skip("a 273-px build name cannot fit a 260-px chart; Compare's is 636 px")
        chart.set_series(
            tuple(
                ScalingSeries(name, (1.0, 2.0), (1000.0, 1900.0), 2.0)
                for name in (
                    "2x RTX 4090 (consumer)",
                    "2x RTX 6000 Ada (workstation)",
                    "2x RTX 3090 (used)",
                )
            ),
            "images/s",
        )
    chart.resize(width, 320)
    chart.show()
    qtbot.waitExposed(chart)
    qtbot.wait(20)
    legend = chart.legend
    assert legend is not None
    right = max(label.item.sceneBoundingRect().right() for _s, label in legend.items)
    assert right <= width, f"{chart_type.__name__}: legend text ends at {right:.0f} px of {width}"


def test_wide_chart_keeps_its_columns_narrow_one_stacks(qtbot: QtBot) -> None:
    chart = VramChart()
    qtbot.addWidget(chart)
    chart.show()
    chart.resize(1200, 320)
    qtbot.wait(20)
    assert chart.legend is not None and chart.legend.columnCount == 3
    chart.resize(260, 320)
    qtbot.wait(20)
    assert chart.legend.columnCount == 1


def test_compare_scaling_legend_names_six_builds_at_most(qtbot: QtBot) -> None:
    """A 30-build comparison: five builds named and "and 25 more builds", so the curves keep
    most of a 200-px chart; builds without a curve get no entry."""
    chart = CompareScalingChart()
    qtbot.addWidget(chart)
    chart.resize(636, 200)
    chart.show()
    series = [
        ScalingSeries(f"build {i}", (1.0, 2.0), (1000.0 + i, 1900.0 + i), 2.0) for i in range(30)
    ]
    series.append(ScalingSeries("not buildable", (), (), None))
    chart.set_series(tuple(series), "images/s")
    chart.grab()
    texts = [label.text for _sample, label in chart.legend.items]
    assert texts == [*(f"build {i}" for i in range(5)), "and 25 more builds"]
    assert chart.getPlotItem().getViewBox().height() > 200 / 3


def test_legend_labels_take_the_themes_ink(qtbot: QtBot) -> None:
    """Legend labels are drawn in the theme's foreground (they stayed pyqtgraph's pale
    grey on white paper and on the dark theme)."""
    import pyqtgraph as pg

    from gui.charts.base import THEMES
    from gui.charts.vram import VramChart

    chart = VramChart()
    qtbot.addWidget(chart)
    assert chart.legend is not None
    for theme in ("light", "dark"):
        chart.set_theme(theme)
        ink = THEMES[theme]["foreground"]
        for _sample, label in chart.legend.items:
            shown = pg.mkColor(label.opts["color"]).name()
            assert shown == ink and ink[1:] in label.item.toHtml(), (theme, label.text)


@pytest.mark.parametrize("height", [280, 320, 480])
def test_power_limit_labels_cover_no_bar(qtbot: QtBot, height: int) -> None:
    """The PSU, spike-limit and circuit labels sit between the three bars, not on them."""
    from core.calc import analyze
    from core.catalog import load_catalog
    from core.catalog.builds import default_build
    from gui.viewmodels.session import default_workload

    catalog = load_catalog()
    analysis = analyze(default_build(catalog), default_workload(), None, catalog)
    chart = PowerChart()
    qtbot.addWidget(chart)
    chart.set_power(analysis.power)
    chart.resize(600, height)
    chart.show()
    qtbot.waitExposed(chart)
    qtbot.wait(20)
    bars = [chart.peak_bar, chart.wall_bar, *chart.bars.values()]
    bar_rects = [b.sceneBoundingRect() for b in bars if b.boundingRect().width() > 0]
    for line in (chart.psu_line, chart.excursion_line, chart.circuit_line):
        label = line.label.sceneBoundingRect()
        hits = [r for r in bar_rects if r.intersects(label)]
        assert not hits, f"{line.label.format} label overlaps a bar"
