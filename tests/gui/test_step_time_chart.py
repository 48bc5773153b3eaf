"""The step-time chart paints every part of a step in its own colour, and the window
shows it without crashing (a paint error inside pyqtgraph takes the whole app down)."""

from __future__ import annotations

import pyqtgraph as pg
from pytestqt.qtbot import QtBot

from core.text.throughput import STEP_PARTS
from gui.charts.base import SERIES_COLOURS
from gui.charts.step_time import StepTimeChart
from gui.views.main_window import MainWindow


def test_every_step_part_has_a_colour(qtbot: QtBot) -> None:
    chart = StepTimeChart()
    qtbot.addWidget(chart)
    assert len(SERIES_COLOURS) >= len(STEP_PARTS)
    brushes = chart.bars.opts["brushes"]
    assert len(brushes) == len(STEP_PARTS)
    assert len({pg.mkBrush(b).color().name() for b in brushes}) == len(STEP_PARTS)


def test_window_paints_the_step_time_tab(qtbot: QtBot, window: MainWindow) -> None:
    """The default build's step, recompute and dispatch included, painted for real."""
    session = window.view_models.session
    assert session.set_preset("GPT-2 XL") is None
    assert session.edit_workload("per-op checkpointing", {"checkpointing": "op"}) is None
    window.charts.upper_tabs.setCurrentWidget(window.charts.step_time)
    qtbot.wait(50)
    image = window.charts.step_time.grab()
    assert not image.isNull()
    chart = window.charts.step_time
    assert chart.values_ms["recompute_s"] > 0
    assert chart.values_ms["matmul_s"] > chart.values_ms["recompute_s"]
