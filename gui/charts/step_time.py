"""One optimizer step on one GPU, split by what the time is spent on."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtWidgets import QWidget

from core.models.analysis import Analysis
from core.text.throughput import STEP_PARTS
from gui.charts.base import SERIES_COLOURS, BaseChart, bar_labels, nice_ceiling
from gui.views import plain


class StepTimeChart(BaseChart):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Step time per GPU (ms)", parent)
        count = len(STEP_PARTS)
        self.bars = pg.BarGraphItem(
            x0=[0.0] * count,
            y=[float(count - 1 - i) for i in range(count)],
            height=0.6,
            width=[0.0] * count,
            brushes=list(SERIES_COLOURS[:count]),
            pen=None,
        )
        self.getPlotItem().addItem(self.bars)
        bar_labels(self, [label for _field, label in STEP_PARTS])
        self.set_range(y=(-0.6, count - 0.4))
        self.setToolTip(
            plain.tip(
                "Roofline step time: each operation class takes max(FLOPs / peak tensor rate, "
                "bytes / memory bandwidth); data loading, host-to-device copies and gradient "
                "all-reduce count only where they are not hidden behind compute."
            )
        )
        self.values_ms: dict[str, float] = {}

    def set_analysis(self, analysis: Analysis) -> None:
        result = analysis.throughput
        widths = []
        for field, _label in STEP_PARTS:
            value = getattr(result.breakdown, field) * 1e3 if result is not None else 0.0
            self.values_ms[field] = value
            widths.append(value)
        self.bars.setOpts(width=widths)
        self.set_range(x=(0, nice_ceiling(max(widths) * 1.05)))
