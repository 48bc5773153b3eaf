"""The headline chart: cost per unit of throughput per build, cheapest first."""

from __future__ import annotations

from dataclasses import dataclass

import pyqtgraph as pg
from PySide6.QtWidgets import QWidget

from core.text.money import USD, Money
from gui.charts.base import SERIES_COLOURS, BaseChart, bar_labels
from gui.views import plain


@dataclass(frozen=True)
class CostBar:
    label: str
    usd_per_unit: float
    complete: bool = True
    colour_index: int = 0


class CompareCostBarsChart(BaseChart):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Cost per unit of throughput (lower is better)", parent)
        plot = self.getPlotItem()
        plot.showGrid(x=True, y=False, alpha=0.25)
        self.bars = pg.BarGraphItem(x0=[], y=[], height=0.6, width=[])
        plot.addItem(self.bars)
        self.shown: tuple[CostBar, ...] = ()
        self.setToolTip(
            plain.tip(
                "Parts cost divided by total throughput for the workload. Hatched-looking pale "
                "bars are lower bounds: some parts have no price (their cost is left out)."
            )
        )

    def set_bars(self, bars: tuple[CostBar, ...], unit: str, money: Money = USD) -> None:
        """Draw ``bars`` sorted, the cheapest per unit at the top."""
        ordered = tuple(sorted(bars, key=lambda b: b.usd_per_unit))
        self.shown = ordered
        n = len(ordered)
        brushes = []
        for bar in ordered:
            colour = pg.mkColor(SERIES_COLOURS[bar.colour_index % len(SERIES_COLOURS)])
            if not bar.complete:
                colour.setAlpha(110)
            brushes.append(pg.mkBrush(colour))
        self.bars.setOpts(
            x0=[0.0] * n,
            y=[float(n - 1 - i) for i in range(n)],
            width=[money.amount(b.usd_per_unit) for b in ordered],
            height=0.6,
            brushes=brushes or None,
            # pyqtgraph 0.14 fails on an empty pen list: no bars take the shared pen
            pens=[pg.mkPen(None)] * n or None,
            pen=pg.mkPen(None),
        )
        bar_labels(
            self,
            [
                f"{b.label}  {money(b.usd_per_unit, 2)}" + ("" if b.complete else " (≥)")
                for b in ordered
            ],
        )
        currency = money.currency
        self.getPlotItem().setLabel("bottom", f"{currency} per {unit}" if unit else currency)
        if n:
            self.set_range(y=(-0.6, n - 0.4))
            widest = max(money.amount(b.usd_per_unit) for b in ordered)
            self.getPlotItem().setXRange(0, widest * 1.05)
