"""Labels of the throughput-vs-cost scatter stay inside the plot and never cover each
other; a label with no free place is left out rather than drawn over another."""

from __future__ import annotations

from PySide6.QtCore import QRectF
from pytestqt.qtbot import QtBot

from gui.charts.compare_scatter import CompareScatterChart, ScatterPoint


def _shown(chart: CompareScatterChart) -> list[QRectF]:
    return [label.sceneBoundingRect() for label in chart.labels if label.isVisible()]


def _chart(qtbot: QtBot, width: int, height: int) -> CompareScatterChart:
    chart = CompareScatterChart()
    qtbot.addWidget(chart)
    chart.resize(width, height)
    chart.show()
    qtbot.waitExposed(chart)
    return chart


def test_three_builds_in_a_short_chart_all_labelled(qtbot: QtBot) -> None:
    """The Compare tab at 1280×720: three builds whose points sit 19 px apart."""
    chart = _chart(qtbot, 636, 180)
    points = (
        ScatterPoint("2x RTX 4090 (consumer)", 5289, 2400),
        ScatterPoint("2x RTX 6000 Ada (workstation)", 19527, 3299.5),
        ScatterPoint("2x RTX 3090 (used)", 4576, 2075.9),
    )
    chart.set_points(points, (0, 1, 2), "images/s")
    qtbot.wait(20)
    rects = _shown(chart)
    assert len(rects) == 3
    view = chart.getPlotItem().getViewBox().sceneBoundingRect()
    for i, r in enumerate(rects):
        assert view.contains(r.adjusted(1, 1, -1, -1)), i
        assert not any(r.intersects(o) for o in rects[i + 1 :])


def test_crowded_points_never_overlap_and_survive_a_resize(qtbot: QtBot) -> None:
    chart = _chart(qtbot, 800, 300)
    points = tuple(
        ScatterPoint(f"{i}× GeForce RTX 5070 Ti", 2000 + 40 * i, 1500 + 30 * i) for i in range(12)
    )
    chart.set_points(points, tuple(range(12)), "images/s")
    qtbot.wait(20)
    for size in ((800, 300), (420, 200)):
        chart.resize(*size)
        qtbot.wait(20)
        rects = _shown(chart)
        assert 1 <= len(rects) < 12  # twelve labels cannot all fit beside a tight cluster
        for i, r in enumerate(rects):
            assert not any(r.intersects(o) for o in rects[i + 1 :]), (size, i)


def test_labels_stay_inside_after_the_axes_widen_on_a_paint(qtbot: QtBot) -> None:
    """The left axis widens for long tick labels when the chart is painted, which shrinks
    the plot without resizing the widget: the labels are placed again then."""
    import random

    chart = _chart(qtbot, 636, 200)
    rng = random.Random(1)
    for _trial in range(60):
        n = rng.randint(2, 6)
        scale = rng.choice([1, 10, 1000, 100000])
        points = tuple(
            ScatterPoint(
                f"{rng.randint(1, 8)}x GPU build {k}",
                rng.uniform(1000, 30000),
                rng.uniform(1, 5) * scale,
            )
            for k in range(n)
        )
        chart.set_points(points, tuple(range(n)), "tok/s")
        chart.grab()  # a paint: the axes take the width their tick labels need
        view = chart.getPlotItem().getViewBox().sceneBoundingRect()
        for r in _shown(chart):
            assert view.contains(r.adjusted(1, 1, -1, -1)), (scale, points)
