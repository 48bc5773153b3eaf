"""The scaling curves of every build overlaid: total throughput for 1..N GPUs."""

from __future__ import annotations

from dataclasses import dataclass

import pyqtgraph as pg
from PySide6.QtWidgets import QWidget

from gui.charts.base import SERIES_COLOURS, BaseChart
from gui.views import plain


@dataclass(frozen=True)
class ScalingSeries:
    label: str
    gpus: tuple[float, ...]
    throughput: tuple[float, ...]
    current_gpus: float | None = None


LEGEND_ENTRIES = 6
"""Builds named under the chart; more would take the chart's height from its curves."""


class CompareScalingChart(BaseChart):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Scaling of every build", parent)
        plot = self.getPlotItem()
        self.legend: pg.LegendItem = self.add_legend_below(3)  # never over a curve
        self._more = pg.PlotDataItem([], [], pen=None)
        """The legend's last entry when not every build is named there."""
        plot.setLabel("bottom", "GPUs")
        self.curves: list[pg.PlotDataItem] = []
        self.current = pg.ScatterPlotItem(size=11, pen=None)
        plot.addItem(self.current)
        self.setToolTip(
            plain.tip(
                "Total throughput of each build's GPU model for 1..N GPUs on its platform; the "
                "larger dot is the build's own GPU count."
            )
        )

    def set_series(
        self, series: tuple[ScalingSeries, ...], unit: str, x_label: str = "GPUs"
    ) -> None:
        """Each series' throughput against ``x_label`` (GPUs for training; concurrent
        streams for serving), its own count marked."""
        plot = self.getPlotItem()
        plot.setLabel("bottom", x_label)
        while len(self.curves) < len(series):  # grow the pool once; never re-added
            colour = SERIES_COLOURS[len(self.curves) % len(SERIES_COLOURS)]
            curve = pg.PlotDataItem(
                [],
                [],
                pen=pg.mkPen(colour, width=2),
                symbol="o",
                symbolSize=5,
                symbolBrush=colour,
            )
            plot.addItem(curve)
            self.curves.append(curve)
        self.legend.clear()  # legend rows only; the curves stay in the plot
        spots = []
        named = 0
        drawn = sum(1 for s in series if s.gpus)
        for i, curve in enumerate(self.curves):
            if i < len(series):
                s = series[i]
                curve.setData(list(s.gpus), list(s.throughput))
                if s.gpus and (named < LEGEND_ENTRIES - 1 or drawn <= LEGEND_ENTRIES):
                    self.legend.addItem(curve, plain.markup_free(_short(s.label)))
                    named += 1
                here = [t for g, t in zip(s.gpus, s.throughput, strict=True) if g == s.current_gpus]
                if here:
                    colour = SERIES_COLOURS[i % len(SERIES_COLOURS)]
                    spots.append({"pos": (s.current_gpus, here[0]), "brush": colour})
            else:
                curve.setData([], [])
        if drawn > named:  # the rest are named in the table above the charts
            self.legend.addItem(self._more, f"and {drawn - named} more builds")
        self.fit_legend()
        self.current.setData(spots)
        plot.setLabel("left", unit or "throughput")
        xs = [g for s in series for g in s.gpus]
        if xs:
            self.set_range(x=(0.8, max(xs) + 0.2))
            most = int(max(xs))
            if most != getattr(self, "_ticks_for", None):  # whole GPUs only: no "1.2 GPUs"
                ticks = [(float(n), str(n)) for n in range(1, most + 1)]
                # up to ten counts each named; more (streams): the axis's own round ticks
                plot.getAxis("bottom").setTicks([ticks, []] if most <= 10 else None)
                self._ticks_for = most


LEGEND_LABEL_CHARS = 26
"""A legend row's longest name: longer ones are cut with "…" (the table above the charts
names every build in full), so the rows fit side by side and leave the curves room."""


def _short(label: str) -> str:
    return label if len(label) <= LEGEND_LABEL_CHARS else label[: LEGEND_LABEL_CHARS - 1] + "…"
