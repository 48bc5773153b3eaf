"""The four comparison charts in a grid, all drawn from one ``ComparisonState``."""

from __future__ import annotations

from PySide6.QtWidgets import QGridLayout, QWidget

from core.text.money import USD, Money
from gui.charts.compare_cost_bars import CompareCostBarsChart, CostBar
from gui.charts.compare_limits import CompareLimitsChart, LimitBar
from gui.charts.compare_scaling import CompareScalingChart, ScalingSeries
from gui.charts.compare_scatter import CompareScatterChart, ScatterPoint
from gui.charts.export_menu import add_export_menu
from gui.viewmodels.comparison import ComparisonState, chart_boxes, chart_front


class CompareChartsGrid(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.cost_bars = CompareCostBarsChart()
        self.scatter = CompareScatterChart()
        self.scaling = CompareScalingChart()
        self.limits = CompareLimitsChart()
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        for i, chart in enumerate(self.charts):
            grid.addWidget(chart, i // 2, i % 2)
            add_export_menu(chart)

    @property
    def charts(
        self,
    ) -> tuple[
        CompareCostBarsChart | CompareScatterChart | CompareScalingChart | CompareLimitsChart, ...
    ]:
        return (self.cost_bars, self.scatter, self.scaling, self.limits)

    def show_state(self, state: ComparisonState, money: Money = USD) -> None:
        boxes = chart_boxes(state)
        plotted = [b for b in boxes if b.cost_usd is not None and b.throughput]
        front = chart_front(plotted)
        shown = state.names[state.shown] if 0 <= state.shown < len(state.names) else None
        self.scatter.set_points(
            tuple(
                ScatterPoint(
                    b.label, money.amount(b.cost_usd or 0.0), b.throughput or 0.0, colour=b.colour
                )
                for b in plotted
            ),
            front,
            state.unit,
            highlight=next(
                (i for i, b in enumerate(plotted) if b.build and b.label == shown), None
            ),
            currency=money.currency,
        )
        self.cost_bars.set_bars(
            tuple(
                CostBar(b.label, b.per_unit, True, b.colour)
                for b in boxes
                if b.per_unit is not None
            ),
            state.unit,
            money,
        )
        serving = any(a.inference is not None for a in state.analyses)
        self.scaling.set_series(
            tuple(ScalingSeries(b.label, b.scale_x, b.scale_y, b.scale_at) for b in boxes),
            state.unit,
            x_label="concurrent streams" if serving else "GPUs",
        )
        self.limits.set_bars(tuple(LimitBar(b.label, b.vram_share, b.power_share) for b in boxes))

    def set_theme(self, theme: str) -> None:
        for chart in self.charts:
            chart.set_theme(theme)
