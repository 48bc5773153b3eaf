"""Throughput for 1..N GPUs: the model's curve against ideal linear scaling."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget

from core.models.analysis import Analysis
from gui.charts.base import SERIES_COLOURS, BaseChart, nice_ceiling
from gui.views import plain


class ScalingChart(BaseChart):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Throughput vs GPU count", parent)
        plot = self.getPlotItem()
        legend = self.add_legend_below(3)
        plot.setLabel("bottom", "GPUs")
        self.unit = ""
        self.ideal_curve = plot.plot(
            [],
            [],
            name="ideal (linear)",
            pen=pg.mkPen("#888888", width=1.5, style=Qt.PenStyle.DashLine),
        )
        self.model_curve = plot.plot(
            [],
            [],
            name="estimated",
            pen=pg.mkPen(SERIES_COLOURS[0], width=2),
            symbol="o",
            symbolSize=6,
            symbolBrush=SERIES_COLOURS[0],
        )
        self.current = pg.ScatterPlotItem(size=12, brush=SERIES_COLOURS[1], pen=None)
        plot.addItem(self.current)
        for item, name in (
            (self.ideal_curve, "ideal (linear)"),
            (self.model_curve, "estimated"),
            (self.current, "this build"),
        ):
            legend.addItem(item, name)
        self.setToolTip(
            plain.tip(
                "Total throughput estimated for 1..N GPUs of this build (roofline step time per "
                "GPU plus the exposed exchange on the GPU link: gradients, and under ZeRO-3/FSDP "
                "the sharded weights), against the ideal "
                "line N × the 1-GPU throughput. Efficiency = total / (N × 1-GPU). "
                "The orange point is the build's GPU count."
            )
        )

    def set_analysis(self, analysis: Analysis) -> None:
        result = analysis.throughput
        if result is None or not result.scaling:
            for item in (self.ideal_curve, self.model_curve):
                item.setData([], [])
            self.current.setData([], [])
            return
        points = result.scaling
        xs = [float(p.gpus) for p in points]
        one = next((p.total_throughput for p in points if p.gpus == 1), points[0].total_throughput)
        self.model_curve.setData(xs, [p.total_throughput for p in points])
        self.ideal_curve.setData(xs, [one * x for x in xs])
        here = [p for p in points if p.gpus == result.gpus]
        self.current.setData([float(p.gpus) for p in here], [p.total_throughput for p in here])
        if result.unit != self.unit:
            self.unit = result.unit
            self.getPlotItem().setLabel("left", result.unit)
        most = int(max(xs))
        if most != getattr(self, "_ticks_for", None):  # whole GPUs only: no "1.2 GPUs"
            step = 1 if most <= 10 else 2
            ticks = [(float(n), str(n)) for n in range(1, most + 1, step)]
            self.getPlotItem().getAxis("bottom").setTicks([ticks, []])
            self._ticks_for = most
        self.set_range(x=(0.8, max(xs) + 0.2), y=(0, nice_ceiling(max(one * x for x in xs) * 1.05)))
