"""Power by component, spikes and wall draw against the PSU rating and the circuit."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget

from core.models.power import PowerBudget
from gui.charts.base import SERIES_COLOURS, BaseChart, bar_labels, nice_ceiling
from gui.views import plain

COMPONENTS = ("gpu", "cpu", "memory", "drives", "motherboard", "fans")
ROWS = ("steady DC", "GPU spikes", "at the wall")


class PowerChart(BaseChart):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Power (W) vs PSU and circuit limits", parent)
        plot = self.getPlotItem()
        legend = self.add_legend_below(3)
        self.bars: dict[str, pg.BarGraphItem] = {}
        for name, colour in zip(COMPONENTS, SERIES_COLOURS, strict=False):
            bar = pg.BarGraphItem(
                x0=[0.0], y=[2.0], height=0.5, width=[0.0], brush=colour, pen=None
            )
            plot.addItem(bar)
            legend.addItem(bar, name)
            self.bars[name] = bar
        self.peak_bar = pg.BarGraphItem(
            x0=[0.0], y=[1.0], height=0.5, width=[0.0], brush="#bab0ac", pen=None
        )
        self.wall_bar = pg.BarGraphItem(
            x0=[0.0], y=[0.0], height=0.5, width=[0.0], brush="#8cd17d", pen=None
        )
        plot.addItem(self.peak_bar)
        plot.addItem(self.wall_bar)
        # Labels in the gaps between the bars (rows at y 0, 1, 2, 0.5 high, in a view
        # from -0.5 to 2.9): above the steady bar, between it and the spikes bar, and
        # between the spikes and the wall bars, so no label covers a bar.
        self.psu_line = self._limit("PSU", 0.9, Qt.PenStyle.DashLine)
        self.excursion_line = self._limit("PSU spike limit", 0.59, Qt.PenStyle.DotLine)
        self.circuit_line = self._limit("circuit", 0.29, Qt.PenStyle.DashDotLine)
        bar_labels(self, list(ROWS))
        self.set_range(y=(-0.5, 2.9))
        self.setToolTip(
            plain.tip(
                "Steady DC draw per component (GPUs at their power limit or board power, CPU at "
                "its sustained power, DIMMs, drives, board and fans as stated assumptions); "
                "GPU spikes = steady + GPU power × (transient ratio − 1); wall = steady / PSU "
                "efficiency at that load. Lines: PSU rating, its excursion limit, and the "
                "circuit's continuous limit (volts × amps × 80 %)."
            )
        )
        self.values: dict[str, float] = {}

    def _limit(self, label: str, position: float, style: Qt.PenStyle) -> pg.InfiniteLine:
        line = pg.InfiniteLine(
            angle=90,
            pen=pg.mkPen(self.limit_colour, width=1.5, style=style),
            label=label,
            labelOpts={"position": position, "color": self.limit_colour},
        )
        self.getPlotItem().addItem(line)
        return line

    def set_power(self, budget: PowerBudget) -> None:
        start = 0.0
        by_name: dict[str, float] = {c.component: c.total_w or 0.0 for c in budget.components}
        for name in COMPONENTS:
            value = by_name.get(name, 0.0)
            self.values[name] = value
            self.bars[name].setOpts(x0=[start], width=[value])
            start += value
        self.peak_bar.setOpts(width=[budget.peak_dc_w])
        self.wall_bar.setOpts(width=[budget.wall_w or 0.0])
        limits = [budget.circuit_continuous_w, budget.peak_dc_w, budget.wall_w or 0.0, start]
        for line, limit in (
            (self.psu_line, budget.psu_rated_w),
            (self.excursion_line, budget.excursion_limit_w),
        ):
            line.setVisible(limit is not None)
            if limit is not None:
                line.setValue(limit)
                limits.append(limit)
        self.circuit_line.setValue(budget.circuit_continuous_w)
        self.values.update(peak=budget.peak_dc_w, wall=budget.wall_w or 0.0)
        self.set_range(x=(0, nice_ceiling(max(limits) * 1.05)))
