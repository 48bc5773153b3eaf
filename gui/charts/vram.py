"""Per-GPU memory by what it holds, stacked, against the GPU's capacity."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget

from core.models.analysis import Analysis
from core.text.vram import SERVING_PARTS, VRAM_PARTS
from gui.charts.base import SERIES_COLOURS, BaseChart, nice_ceiling
from gui.views import plain


class VramChart(BaseChart):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("VRAM per GPU vs capacity (GiB)", parent)
        plot = self.getPlotItem()
        legend = self.add_legend_below(3)  # three columns fit a 1280-px window
        self.bars: dict[str, pg.BarGraphItem] = {}
        for (field, label), colour in zip(VRAM_PARTS, SERIES_COLOURS, strict=False):
            bar = pg.BarGraphItem(
                x0=[0.0], y=[0.0], height=0.6, width=[0.0], brush=colour, pen=None
            )
            plot.addItem(bar)
            legend.addItem(bar, label)
            self.bars[field] = bar
        self.capacity_line = pg.InfiniteLine(
            angle=90,
            pen=pg.mkPen(self.limit_colour, width=2, style=Qt.PenStyle.DashLine),
            label="capacity",
            labelOpts={"position": 0.9, "color": self.limit_colour},
        )
        plot.addItem(self.capacity_line)
        plot.getAxis("left").setTicks([[(0.0, "per GPU")], []])
        self.set_range(y=(-0.6, 0.9))
        self.setToolTip(
            plain.tip(
                "Per-GPU memory = weights + gradients + optimizer state + activations + KV cache "
                "+ CUDA context/framework + workspace/fragmentation. Model states follow ZeRO "
                "(Rajbhandari et al. 2020), activations Korthikanti et al. 2022, KV cache "
                "2 × layers × KV heads × head dim × tokens × batch × bytes. Dashed line: capacity."
            )
        )
        self.values: dict[str, float] = {}
        self._legend_serving = False

    def _show_legend_for(self, serving: bool) -> None:
        """The legend names what the bars can hold: every part for training, the weights,
        KV cache and engine for a served LLM (rebuilt only when that changes)."""
        legend = self.legend
        if serving == self._legend_serving or legend is None:
            return
        legend.clear()
        for field, label in SERVING_PARTS if serving else VRAM_PARTS:
            legend.addItem(self.bars[field], label)
        self._legend_serving = serving
        self.fit_legend()

    def set_analysis(self, analysis: Analysis) -> None:
        vram = analysis.vram
        serving = analysis.inference.memory if analysis.inference is not None else None
        self._show_legend_for(serving is not None)
        start = 0.0
        for field, _label in VRAM_PARTS:
            if serving is not None:  # LLM serving: weights, KV cache, the engine's buffers
                value = {
                    "weights_gib": serving.weights_gib,
                    "kv_cache_gib": serving.kv_cache_gib,
                    "framework_gib": serving.engine_gib,
                }.get(field, 0.0)
            else:
                value = getattr(vram.breakdown, field) if vram is not None else 0.0
            self.values[field] = value
            self.bars[field].setOpts(x0=[start], width=[value])
            start += value
        capacity = vram.capacity_gib if vram is not None else 0.0
        if serving is not None:
            capacity = serving.usable_gib
        self.capacity_line.setValue(capacity)
        self.set_range(x=(0, nice_ceiling(max(start, capacity) * 1.05)))
