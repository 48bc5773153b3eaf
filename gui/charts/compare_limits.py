"""VRAM use vs capacity and wall power vs circuit limit, per build, as shares of the limit."""

from __future__ import annotations

from dataclasses import dataclass

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget

from gui.charts.base import SERIES_COLOURS, BaseChart, bar_labels
from gui.views import plain

BAR = 0.36


@dataclass(frozen=True)
class LimitBar:
    label: str
    vram_share: float | None
    """VRAM per GPU over the GPU's capacity."""
    power_share: float | None
    """Wall power over the circuit's continuous limit."""


class CompareLimitsChart(BaseChart):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("VRAM and wall power against their limits (%)", parent)
        plot = self.getPlotItem()
        self.vram_bars = pg.BarGraphItem(
            x0=[], y=[], height=BAR, width=[], brush=SERIES_COLOURS[0], name="VRAM / capacity"
        )
        self.power_bars = pg.BarGraphItem(
            x0=[], y=[], height=BAR, width=[], brush=SERIES_COLOURS[1], name="wall / circuit"
        )
        legend = self.add_legend_below(2)  # below the axis: it never covers a bar
        for item, label in (
            (self.vram_bars, "VRAM / capacity"),
            (self.power_bars, "wall / circuit"),
        ):
            plot.addItem(item)
            legend.addItem(item, label)
        self.limit = pg.InfiniteLine(
            pos=100.0,
            angle=90,
            pen=pg.mkPen(self.limit_colour, width=2, style=Qt.PenStyle.DashLine),
        )
        plot.addItem(self.limit)
        plot.setLabel("bottom", "% of the limit")
        self.shown: tuple[LimitBar, ...] = ()
        self.setToolTip(
            plain.tip(
                "Per build: VRAM needed per GPU as a share of its capacity (blue) and wall power "
                "as a share of the circuit's continuous limit (orange). The dashed line is 100 %."
            )
        )

    def set_bars(self, bars: tuple[LimitBar, ...]) -> None:
        self.shown = bars
        n = len(bars)
        rows = [float(n - 1 - i) for i in range(n)]
        for item, values, offset in (
            (self.vram_bars, [b.vram_share for b in bars], BAR / 2),
            (self.power_bars, [b.power_share for b in bars], -BAR / 2),
        ):
            known = [(y, v) for y, v in zip(rows, values, strict=True) if v is not None]
            item.setOpts(
                x0=[0.0] * len(known),
                y=[y + offset for y, _ in known],
                width=[v * 100.0 for _, v in known],
                height=BAR,
            )
        bar_labels(self, [b.label for b in bars])
        shares = [v for b in bars for v in (b.vram_share, b.power_share) if v is not None]
        self.set_range(x=(0, max([100.0, *(s * 100 for s in shares)]) * 1.08))
        if n:
            self.set_range(y=(-0.6, n - 0.4))

    def set_theme(self, theme: str) -> None:
        super().set_theme(theme)
        if hasattr(self, "limit"):
            self.limit.setPen(pg.mkPen(self.limit_colour, width=2, style=Qt.PenStyle.DashLine))
