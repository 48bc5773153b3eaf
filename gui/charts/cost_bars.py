"""Parts cost per unit of throughput, one bar per build (lower bounds drawn lighter)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pyqtgraph as pg
from PySide6.QtWidgets import QWidget

from gui.charts.base import SERIES_COLOURS, BaseChart, bar_labels
from gui.views import plain


@dataclass(frozen=True)
class CostBar:
    """One build's bar: ``exact`` is False when unpriced parts make it a lower bound."""

    label: str
    usd_per_unit: float
    exact: bool = True


class CostBarsChart(BaseChart):
    """Items are created once; ``set_bars`` only updates their data."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Parts cost per unit of throughput", parent)
        plot = self.getPlotItem()
        self.exact_bars = pg.BarGraphItem(
            x0=[], y=[], height=0.6, width=[], brush=SERIES_COLOURS[0], pen=None
        )
        self.lower_bars = pg.BarGraphItem(
            x0=[],
            y=[],
            height=0.6,
            width=[],
            brush=pg.mkBrush(SERIES_COLOURS[0] + "66"),
            pen=pg.mkPen(SERIES_COLOURS[0], width=1),
        )
        plot.addItem(self.exact_bars)
        plot.addItem(self.lower_bars)
        self.setToolTip(
            plain.tip(
                "Parts cost / total throughput of each build on the same workload. "
                "Light bars are lower bounds: some parts have no price."
            )
        )
        self.bars: list[CostBar] = []

    def set_bars(
        self,
        bars: Sequence[CostBar],
        unit: str,
        money_labels: Sequence[str],
        currency: str = "USD",
    ) -> None:
        """``money_labels[i]`` is the value as the app writes it ("$2.31", "≥ $1.90")."""
        self.bars = list(bars)
        count = len(bars)
        rows = [float(count - 1 - i) for i in range(count)]
        for item, exact in ((self.exact_bars, True), (self.lower_bars, False)):
            chosen = [i for i, b in enumerate(bars) if b.exact is exact]
            item.setOpts(
                x0=[0.0] * len(chosen),
                y=[rows[i] for i in chosen],
                width=[bars[i].usd_per_unit for i in chosen],
            )
        bar_labels(self, [f"{b.label}  {m}" for b, m in zip(bars, money_labels, strict=True)])
        plot = self.getPlotItem()
        plot.setLabel("bottom", f"{currency} per {unit}")
        widest = max((b.usd_per_unit for b in bars), default=0.0)
        self.set_range(x=(0, widest * 1.08 or 1.0))
        self.set_range(y=(-0.6, max(count, 1) - 0.4))
