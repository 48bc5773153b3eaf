"""LLM serving charts: generation speed against the context length and against streams."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtWidgets import QWidget

from core.models.analysis import Analysis
from core.models.inference import CurvePoint
from gui.charts.base import SERIES_COLOURS, BaseChart, nice_ceiling
from gui.views import plain


class _CurveChart(BaseChart):
    def __init__(
        self, title: str, x_label: str, y_label: str, tip: str, parent: QWidget | None = None
    ) -> None:
        super().__init__(title, parent)
        plot = self.getPlotItem()
        legend = self.add_legend_below(2)
        plot.setLabel("bottom", x_label)
        plot.setLabel("left", y_label)
        self.curve = plot.plot(
            [],
            [],
            pen=pg.mkPen(SERIES_COLOURS[0], width=2),
            symbol="o",
            symbolSize=5,
            symbolBrush=SERIES_COLOURS[0],
        )
        self.current = pg.ScatterPlotItem(size=12, brush=SERIES_COLOURS[1], pen=None)
        plot.addItem(self.current)
        legend.addItem(self.curve, "estimated")
        legend.addItem(self.current, "this workload")
        self.setToolTip(plain.tip(tip))
        self.points: tuple[CurvePoint, ...] = ()

    def show_points(self, points: tuple[CurvePoint, ...], here: float | None) -> None:
        self.points = points
        xs = [p.x for p in points]
        ys = [p.tokens_s for p in points]
        self.curve.setData(xs, ys)
        chosen = [p for p in points if here is not None and p.x == here]
        self.current.setData([p.x for p in chosen], [p.tokens_s for p in chosen])
        if xs:
            self.set_range(x=(0, max(xs) * 1.02), y=(0, nice_ceiling(max(ys) * 1.1)))


class ContextChart(_CurveChart):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(
            "Generation speed vs context length",
            "tokens in the context",
            "tokens/s per stream",
            "One stream's generation speed as the context grows: each new token reads the "
            "weights and the whole KV cache, so longer contexts generate more slowly.",
            parent,
        )

    def set_analysis(self, analysis: Analysis) -> None:
        speed = analysis.inference.speed if analysis.inference else None
        serving = analysis.workload.serving_settings if analysis.workload else None
        self.show_points(
            speed.by_context if speed else (), float(serving.context) if serving else None
        )


class StreamsChart(_CurveChart):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(
            "Generation speed vs concurrent streams",
            "streams (users at once)",
            "tokens/s, all streams",
            "Output tokens per second of all streams together: one read of the weights serves "
            "every stream until compute or the KV cache reads bind; the curve stops at the "
            "streams whose KV cache fits.",
            parent,
        )

    def set_analysis(self, analysis: Analysis) -> None:
        speed = analysis.inference.speed if analysis.inference else None
        self.show_points(speed.by_streams if speed else (), float(speed.streams) if speed else None)
